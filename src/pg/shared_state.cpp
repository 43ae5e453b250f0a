// Shared memory for gen_monotonic_ulid(): preload hooks, the PostgreSQL 17+ DSM registry fallback.
#include "shared_state.hpp"

#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

#include "core/shared_generator.hpp"
#include "errors.hpp"

extern "C" {
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/memutils.h"
#if PG_VERSION_NUM >= 170000
#include "storage/dsm_registry.h"
#endif
}

namespace ulid::pg {

namespace {

// The one name every version of the library uses: two versions loaded into one server must meet in
// one segment (and refuse to share it), never each serve an order of their own.
constexpr char kSegmentName[] = "ulid monotonic generator";

// SharedGenerator's lock: a PostgreSQL spinlock, beside the generator's state in shared memory.
class SpinLock {
public:
    SpinLock() noexcept { SpinLockInit(&lock_); }
    void lock() noexcept { SpinLockAcquire(&lock_); }
    void unlock() noexcept { SpinLockRelease(&lock_); }

private:
    slock_t lock_;
};

// The last value handed out by any backend, its millisecond hint and the spinlock held only around
// the generator's step, which cannot fail.
using SharedMonotonic = SharedGenerator<SpinLock>;

// The segment: a header saying which layout of the state follows, then the state. Its size never
// changes (libraries before 0.2.1 used 32 and 96 bytes, without a header): a new layout bumps
// kLayout and keeps kSegmentSize, so that a library of another layout finds the header, not a
// size it cannot attach to, and says so (errors.cpp) instead of using the state.
constexpr std::uint64_t kMagic = 0x756c69642d6d6f6eULL; // "ulid-mon"
#ifdef ULID_TEST_LAYOUT // test-only builds (Makefile: ULID_TEST_LAYOUT=N, never installed)
constexpr std::uint32_t kLayout = ULID_TEST_LAYOUT;
#else
constexpr std::uint32_t kLayout = 2; // 1 was the unversioned state of 0.2.0 and earlier
#endif
constexpr std::size_t kSegmentSize = 4096;

struct Header {
    std::uint64_t magic;
    std::uint32_t layout;
    std::uint32_t state_size;
};

struct Segment {
    alignas(kCacheLine) Header header;
    alignas(kCacheLine) SharedMonotonic state;
};
static_assert(sizeof(Segment) <= kSegmentSize, "the segment's size is fixed: fit the state into it");
static_assert(std::is_nothrow_default_constructible_v<SharedMonotonic>,
              "initialise() constructs the state in a noexcept callback");

SharedMonotonic *state = nullptr;  // checked_state() of the segment, once attached
void *segment_memory = nullptr;     // the preloaded segment (shmem_startup_hook), not yet checked

#if PG_VERSION_NUM >= 150000
shmem_request_hook_type previous_request_hook = nullptr;
#endif
shmem_startup_hook_type previous_startup_hook = nullptr;

// Also the DSM registry's init callback up to 18: runs once, in the process that creates the segment.
// This and the hooks below are called by PostgreSQL through function pointers, outside
// ULID_FUNCTION's catch-all: noexcept, and nothing in them throws (placement new of a type whose
// constructors are noexcept; PostgreSQL's errors are longjmps).
void initialise(void *memory) noexcept
{
    // Shared memory allocations are cache-line aligned (DSM segments: page aligned), as the
    // generator's layout wants.
    Assert(reinterpret_cast<std::uintptr_t>(memory) % kCacheLine == 0);
    std::memset(memory, 0, kSegmentSize);
    new (memory) Segment{Header{kMagic, kLayout, sizeof(SharedMonotonic)}, {}};
}

#if PG_VERSION_NUM >= 190000
// The DSM registry's init callback from 19 on, which also receives GetNamedDSMSegment()'s last
// argument (we pass none).
void initialise_with_arg(void *memory, void * /* arg */) noexcept { initialise(memory); }
#endif

// The state of a segment whose header matches this library's layout; otherwise an ERROR (55000)
// that names both layouts and asks for a restart. Never uses a state of another layout.
SharedMonotonic *checked_state(void *memory)
{
    const auto *segment = static_cast<Segment *>(memory);
    const Header &header = segment->header;
    if (header.magic != kMagic || header.layout != kLayout ||
        header.state_size != sizeof(SharedMonotonic))
        raise_shared_layout_mismatch(header.magic == kMagic ? header.layout : 0, kLayout);
    return &static_cast<Segment *>(memory)->state;
}

#if PG_VERSION_NUM >= 150000
void request_hook() noexcept
{
    if (previous_request_hook)
        previous_request_hook();
    RequestAddinShmemSpace(MAXALIGN(kSegmentSize));
}
#endif

void startup_hook() noexcept
{
    if (previous_startup_hook)
        previous_startup_hook();
    bool found = false;
    LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
    void *memory = ShmemInitStruct(kSegmentName, kSegmentSize, &found);
    if (!found)
        initialise(memory);
    LWLockRelease(AddinShmemInitLock);
    segment_memory = memory; // checked on first use, where an ERROR is an ordinary one
}

#if PG_VERSION_NUM >= 170000
// GetNamedDSMSegment() for our segment. The registry refuses a size that differs from the existing
// segment's (one made by a library before 0.2.1) with an internal error that says only that; it is
// raised again here as 55000 with the reason and the remedy. Other errors pass through unchanged.
// (C frame with trivially destructible locals only: PG_TRY's longjmp may leave it.)
void *named_segment()
{
    MemoryContext caller_context = CurrentMemoryContext;
    void *memory = nullptr;
    bool found = false;
    PG_TRY();
    {
#if PG_VERSION_NUM >= 190000 // 19 passes the init callback an argument of the caller's
        memory = GetNamedDSMSegment(kSegmentName, kSegmentSize, initialise_with_arg, &found, nullptr);
#else
        memory = GetNamedDSMSegment(kSegmentName, kSegmentSize, initialise, &found);
#endif
    }
    PG_CATCH();
    {
        MemoryContextSwitchTo(caller_context);
        ErrorData *error = CopyErrorData();
        if (error->sqlerrcode != ERRCODE_INTERNAL_ERROR)
            PG_RE_THROW();
        FlushErrorState();
        raise_shared_attach_failed(error->message, kLayout);
    }
    PG_END_TRY();
    return memory;
}
#endif

} // namespace

void request_shared_state()
{
#if PG_VERSION_NUM >= 150000
    previous_request_hook = shmem_request_hook;
    shmem_request_hook = request_hook;
#else
    RequestAddinShmemSpace(MAXALIGN(kSegmentSize));
#endif
    previous_startup_hook = shmem_startup_hook;
    shmem_startup_hook = startup_hook;
}

void attach_shared_state()
{
    if (state)
        return;
    if (segment_memory) {
        state = checked_state(segment_memory);
        return;
    }
#if PG_VERSION_NUM >= 170000
    state = checked_state(named_segment());
#else
    raise_shared_state_needs_preload();
#endif
}

Status next_shared(std::uint64_t now_ms, RandomSource &random, Ulid *out)
{
    Assert(state != nullptr);
    return state->next(now_ms, random, out);
}

} // namespace ulid::pg
