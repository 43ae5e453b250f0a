// Shared memory for gen_monotonic_ulid(): preload hooks, the PostgreSQL 17+ DSM registry fallback.
#include "shared_state.hpp"

#include <cstdint>
#include <new>

#include "core/shared_generator.hpp"

extern "C" {
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#if PG_VERSION_NUM >= 170000
#include "storage/dsm_registry.h"
#endif
}

namespace ulid::pg {

namespace {

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

SharedMonotonic *state = nullptr;

#if PG_VERSION_NUM >= 150000
shmem_request_hook_type previous_request_hook = nullptr;
#endif
shmem_startup_hook_type previous_startup_hook = nullptr;

// Also the DSM registry's init callback: runs once, in the process that creates the segment.
void initialise(void *memory)
{
    // Shared memory allocations are cache-line aligned (DSM segments: page aligned), as the
    // generator's layout wants.
    Assert(reinterpret_cast<std::uintptr_t>(memory) % kCacheLine == 0);
    new (memory) SharedMonotonic();
}

#if PG_VERSION_NUM >= 150000
void request_hook()
{
    if (previous_request_hook)
        previous_request_hook();
    RequestAddinShmemSpace(MAXALIGN(sizeof(SharedMonotonic)));
}
#endif

void startup_hook()
{
    if (previous_startup_hook)
        previous_startup_hook();
    bool found = false;
    LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
    void *memory = ShmemInitStruct(kSegmentName, sizeof(SharedMonotonic), &found);
    if (!found)
        initialise(memory);
    LWLockRelease(AddinShmemInitLock);
    state = static_cast<SharedMonotonic *>(memory);
}

} // namespace

void request_shared_state()
{
#if PG_VERSION_NUM >= 150000
    previous_request_hook = shmem_request_hook;
    shmem_request_hook = request_hook;
#else
    RequestAddinShmemSpace(MAXALIGN(sizeof(SharedMonotonic)));
#endif
    previous_startup_hook = shmem_startup_hook;
    shmem_startup_hook = startup_hook;
}

void attach_shared_state()
{
    if (state)
        return;
#if PG_VERSION_NUM >= 170000
    bool found = false;
    state = static_cast<SharedMonotonic *>(
        GetNamedDSMSegment(kSegmentName, sizeof(SharedMonotonic), initialise, &found));
#else
    ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
            errmsg("gen_monotonic_ulid() needs the ulid library in shared_preload_libraries"),
            errdetail("Its server-wide state lives in shared memory, which PostgreSQL 16 and "
                      "earlier reserve only at server start (17 and later allocate it on first use)."),
            errhint("Add 'ulid' to shared_preload_libraries in postgresql.conf, for example "
                    "shared_preload_libraries = 'ulid', and restart the server."));
#endif
}

Status next_shared(std::uint64_t now_ms, RandomSource &random, Ulid *out)
{
    Assert(state != nullptr);
    return state->next(now_ms, random, out);
}

} // namespace ulid::pg
