// Fuzz target for the monotonic generator: fuzzed clock readings, random bytes and source failures
// (direct, through PrefetchedRandom and through EntropyPool), reset() and restore(), checked call by
// call against an independent model of the state machine of docs/monotonicity.md. The server-wide SharedGenerator
// runs against a model of its own: the millisecond hint, when random bytes are drawn (never under
// the lock, never for a repeated millisecond), and another backend's call slipped in just before
// either of its lock acquisitions.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "core/entropy.hpp"
#include "core/generator.hpp"
#include "core/shared_generator.hpp"
#include "core/status.hpp"
#include "core/timestamp.hpp"
#include "core/ulid.hpp"
#include "fuzz_util.hpp"

namespace {

using namespace ulid_fuzz;
using ulid::Status;
using ulid::Ulid;

constexpr std::size_t kMaxSteps = 4096;

// Serves bytes taken from the fuzz input (zeros once it is used up), or fails when told to.
class FuzzRandom final : public ulid::RandomSource {
public:
    explicit FuzzRandom(FuzzedDataProvider &fdp) : fdp_(fdp) {}

    bool fill(std::uint8_t *out, std::size_t n) noexcept override
    {
        if (fail_next) {
            fail_next = false;
            return false;
        }
        const std::size_t got = fdp_.ConsumeData(out, n);
        std::memset(out + got, 0, n - got);
        return true;
    }

    bool fail_next = false;

private:
    FuzzedDataProvider &fdp_;
};

// A cheap deterministic upstream for the 4 KiB read-ahead pool (the fuzz input is too small to
// fill blocks); failures are still fuzzed.
class StreamRandom final : public ulid::RandomSource {
public:
    explicit StreamRandom(std::uint64_t seed) : state_(seed) {}

    bool fill(std::uint8_t *out, std::size_t n) noexcept override
    {
        if (fail_next) {
            fail_next = false;
            return false;
        }
        for (std::size_t i = 0; i < n; ++i)
            out[i] = static_cast<std::uint8_t>(next() >> 56);
        return true;
    }

    bool fail_next = false;

private:
    std::uint64_t next() // splitmix64
    {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }

    std::uint64_t state_;
};

// What the generator saw: every request it made and the bytes it was given.
class Recorder final : public ulid::RandomSource {
public:
    explicit Recorder(ulid::RandomSource &inner) : inner_(inner) {}

    bool fill(std::uint8_t *out, std::size_t n) noexcept override
    {
        ++calls;
        last_n = n;
        last_ok = inner_.fill(out, n);
        if (last_ok && n == ulid::kEntropyBytes)
            std::memcpy(last, out, n);
        return last_ok;
    }

    int calls = 0;
    std::size_t last_n = 0;
    bool last_ok = false;
    std::uint8_t last[ulid::kEntropyBytes] = {};

private:
    ulid::RandomSource &inner_;
};

// The state machine of docs/monotonicity.md, written from the text, with 128-bit integers.
struct Model {
    bool started = false;
    Ulid last{};
    bool have_prev = false; // the previous successful output of the current sequence
    Ulid prev{};
};

// --- the server-wide generator ---------------------------------------------------------------

struct SharedFuzz;

// SharedGenerator's lock in this single thread: says whether it is held, and can run another
// backend's call (which takes the lock itself) just before the first or second acquisition of the
// call being checked.
class FuzzLock {
public:
    void lock() noexcept;
    void unlock() noexcept
    {
        FUZZ_CHECK(held);
        held = false;
    }

    bool held = false;
    SharedFuzz *owner = nullptr;
};

// A source that may not be asked while the lock is held (nothing under it may block or fail).
class LockedOutRandom final : public ulid::RandomSource {
public:
    LockedOutRandom(ulid::RandomSource &inner, const FuzzLock &lock) : inner_(inner), lock_(lock) {}

    bool fill(std::uint8_t *out, std::size_t n) noexcept override
    {
        FUZZ_CHECK(!lock_.held);
        return inner_.fill(out, n);
    }

private:
    ulid::RandomSource &inner_;
    const FuzzLock &lock_;
};

bool needs_fresh(const Model &m, std::uint64_t clock) { return !m.started || clock > time_of(m.last); }

struct SharedFuzz {
    explicit SharedFuzz(FuzzedDataProvider &f) : fdp(f) { gen.lock().owner = this; }

    // One call at clock against the model; fail: the source fails its first request; hook_at: the
    // acquisition (1 or 2) before which another backend's call at other_clock runs, or 0.
    void call(std::uint64_t clock, bool fail, int hook_at);

    ulid::SharedGenerator<FuzzLock> gen;
    Model m;
    FuzzedDataProvider &fdp;
    std::uint64_t other_clock = 0;
    // Per call depth (1: the checked call, 2: the other backend's call inside its lock()): its
    // acquisitions and the model as each of them found it; the acquisition of the depth-1 call
    // that the other backend's call runs before.
    int depth = 0;
    int acquisitions[3] = {};
    Model at_acquisition[3][3];
    int hook_at = 0;
};

void FuzzLock::lock() noexcept
{
    FUZZ_CHECK(!held);
    SharedFuzz &f = *owner;
    const int d = f.depth;
    FUZZ_CHECK(d == 1 || d == 2);
    FUZZ_CHECK(f.acquisitions[d] < 2); // one, or two when the call released the lock to draw
    const int k = ++f.acquisitions[d];
    if (d == 1 && f.hook_at == k)
        f.call(f.other_clock, f.fdp.ConsumeIntegralInRange<int>(0, 7) == 0, 0);
    f.at_acquisition[d][k] = f.m;
    held = true;
}

void SharedFuzz::call(std::uint64_t clock, bool fail, int hook)
{
    FuzzRandom fuzz_random(fdp);
    fuzz_random.fail_next = fail;
    Recorder rec(fuzz_random);
    LockedOutRandom locked_out(rec, gen.lock());
    const int d = ++depth;
    acquisitions[d] = 0;
    if (d == 1)
        hook_at = hook;

    // Single-threaded, the hint is exact: the millisecond of the last value (0 before the first).
    const Model before = m;
    const std::uint64_t hint = before.started ? time_of(before.last) : 0;
    FUZZ_CHECK(gen.last_ms_hint() == hint);
    const bool predraw = clock > hint;

    Ulid sentinel;
    std::memset(sentinel.bytes, 0x3C, sizeof sentinel.bytes);
    Ulid out = sentinel;
    const Status s = gen.next(clock, locked_out, &out);
    FUZZ_CHECK(!gen.lock().held);
    FUZZ_CHECK(rec.calls == 0 || rec.last_n == ulid::kEntropyBytes);
    const int taken = acquisitions[d];
    --depth;

    // The draws: one before locking for a millisecond past the hint; otherwise one after releasing
    // the lock, only when the first acquisition found a new millisecond needed; never more.
    if (before.started && clock <= hint)
        FUZZ_CHECK(rec.calls == 0); // a repeated (or earlier) millisecond draws nothing
    if (predraw) {
        FUZZ_CHECK(rec.calls == 1);
        if (fail) {
            FUZZ_CHECK(s == Status::random_failure && taken == 0 && same(out, sentinel));
            return;
        }
        FUZZ_CHECK(taken == 1);
    } else {
        FUZZ_CHECK(taken >= 1);
        const bool retry = needs_fresh(at_acquisition[d][1], clock);
        FUZZ_CHECK(rec.calls == (retry ? 1 : 0));
        if (retry && fail) {
            FUZZ_CHECK(s == Status::random_failure && taken == 1 && same(out, sentinel));
            return;
        }
        FUZZ_CHECK(taken == (retry ? 2 : 1));
    }

    // The step, against the model as the last acquisition found it.
    const Model &at = at_acquisition[d][taken];
    FUZZ_CHECK(at.started == m.started && (!m.started || same(at.last, m.last)));
    const bool fresh_ms = needs_fresh(at, clock);
    if (fresh_ms)
        FUZZ_CHECK(rec.calls == 1 && rec.last_ok); // a new millisecond always has fresh bytes
    Status want;
    Ulid want_value{};
    if (fresh_ms && clock > ulid::kMaxUnixMs) {
        want = Status::time_out_of_range;
    } else if (fresh_ms) {
        want = Status::ok;
        u128 entropy = 0;
        for (std::uint8_t b : rec.last)
            entropy = (entropy << 8) | b;
        want_value = from_u128((static_cast<u128>(clock) << 80) | entropy);
    } else if (entropy_of(at.last) == kEntropyMask) {
        want = Status::entropy_overflow;
    } else {
        want = Status::ok;
        want_value = from_u128(to_u128(at.last) + 1);
    }
    FUZZ_CHECK(s == want);
    if (s != Status::ok) {
        FUZZ_CHECK(same(out, sentinel));
        FUZZ_CHECK(gen.last_ms_hint() == (m.started ? time_of(m.last) : 0));
        return;
    }
    FUZZ_CHECK(same(out, want_value));
    if (m.have_prev)
        FUZZ_CHECK(ulid::compare(m.prev, out) < 0); // above everything any backend got before
    m.started = true;
    m.last = out;
    m.have_prev = true;
    m.prev = out;
    FUZZ_CHECK(gen.last_ms_hint() == time_of(out));
}

std::uint64_t pick_clock(FuzzedDataProvider &fdp, std::uint64_t clock, const Model &m)
{
    switch (fdp.ConsumeIntegralInRange<int>(0, 9)) {
    case 0:
        return clock; // the same millisecond again
    case 1:
        return clock + fdp.ConsumeIntegralInRange<std::uint64_t>(1, 1000);
    case 2: {
        const std::uint64_t back = fdp.ConsumeIntegralInRange<std::uint64_t>(1, 1000);
        return clock > back ? clock - back : 0; // the clock went backwards
    }
    case 3:
        return m.started ? time_of(m.last) : clock;
    case 4:
        return fdp.ConsumeIntegral<std::uint64_t>();
    case 5:
        return ulid::kMaxUnixMs - fdp.ConsumeIntegralInRange<std::uint64_t>(0, 3);
    case 6:
        return ulid::kMaxUnixMs + 1 + fdp.ConsumeIntegralInRange<std::uint64_t>(0, 1000);
    case 7:
        return std::numeric_limits<std::uint64_t>::max() - fdp.ConsumeIntegralInRange<std::uint64_t>(0, 3);
    case 8:
        return fdp.ConsumeIntegralInRange<std::uint64_t>(0, 3);
    default:
        return UINT64_C(1700000000000) + fdp.ConsumeIntegral<std::uint32_t>();
    }
}

// A value to restore(): fuzzed bytes, or entropy within a few steps of overflowing.
Ulid pick_restore(FuzzedDataProvider &fdp)
{
    Ulid v{};
    const std::size_t got = fdp.ConsumeData(v.bytes, sizeof v.bytes);
    (void)got; // short input leaves zeros
    if (fdp.ConsumeBool()) {
        const u128 gap = fdp.ConsumeIntegralInRange<unsigned>(0, 4);
        v = from_u128((to_u128(v) & ~kEntropyMask) | (kEntropyMask - gap));
    }
    return v;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    FuzzedDataProvider fdp(data, size);
    FuzzRandom fuzz_random(fdp);
    StreamRandom stream(fdp.ConsumeIntegral<std::uint64_t>());
    ulid::EntropyPool pool(stream);
    ulid::PrefetchedRandom kept;         // drawn in one step, used in a later one
    bool kept_ready = false;             // what kept must be, by PrefetchedRandom's contract
    std::uint8_t kept_bytes[ulid::kEntropyBytes] = {};

    ulid::MonotonicGenerator gen;
    Model m;
    std::uint64_t clock = UINT64_C(1700000000000);
    SharedFuzz shared(fdp);
    std::uint64_t shared_clock = clock;

    for (std::size_t step = 0; step < kMaxSteps && fdp.remaining_bytes() > 0; ++step) {
        FUZZ_CHECK(gen.started() == m.started);
        const int op = fdp.ConsumeIntegralInRange<int>(0, 17);

        if (op == 0) { // a fresh process
            gen.reset();
            m.started = false;
            m.have_prev = false;
            continue;
        }
        if (op == 1) { // the test-only setter: the next value must exceed it
            const Ulid v = pick_restore(fdp);
            gen.restore(v);
            m.started = true;
            m.last = v;
            m.have_prev = true;
            m.prev = v;
            continue;
        }
        if (op == 2) {
            pool.discard();
            FUZZ_CHECK(pool.available() == 0);
            continue;
        }
        if (op == 3) { // prefetch into kept, possibly failing
            fuzz_random.fail_next = fdp.ConsumeBool();
            const bool expect_ok = !fuzz_random.fail_next;
            Recorder rec(fuzz_random);
            const bool drew = kept.draw(rec);
            FUZZ_CHECK(drew == expect_ok && rec.calls == 1 && rec.last_n == ulid::kEntropyBytes);
            kept_ready = drew;
            if (drew)
                std::memcpy(kept_bytes, rec.last, sizeof kept_bytes);
            fuzz_random.fail_next = false;
            continue;
        }
        if (op >= 16) { // the server-wide generator, perhaps with another backend's call slipped in
            shared_clock = pick_clock(fdp, shared_clock, shared.m);
            shared.other_clock = pick_clock(fdp, shared_clock, shared.m);
            const bool fail = fdp.ConsumeIntegralInRange<int>(0, 7) == 0;
            shared.call(shared_clock, fail, fdp.ConsumeIntegralInRange<int>(0, 2));
            continue;
        }
        if (op == 4) {
            kept.wipe();
            kept_ready = false;
            continue;
        }

        // Generate once, with a fuzzed clock and a fuzzed way of getting random bytes.
        clock = pick_clock(fdp, clock, m);
        const int source = fdp.ConsumeIntegralInRange<int>(0, 4);
        const bool fail = fdp.ConsumeIntegralInRange<int>(0, 7) == 0;
        ulid::PrefetchedRandom fresh; // for source 1 and 2
        ulid::RandomSource *src = nullptr;
        bool src_ok = true; // whether a 10-byte request to src will succeed
        const std::uint8_t *expected_bytes = nullptr; // what it will serve, when known in advance
        std::uint8_t fresh_bytes[ulid::kEntropyBytes] = {};
        switch (source) {
        case 0: // the fuzz input directly
            fuzz_random.fail_next = fail;
            src = &fuzz_random;
            src_ok = !fail;
            break;
        case 1: { // drawn just before (as the glue does before taking its lock)
            fuzz_random.fail_next = fail;
            Recorder rec(fuzz_random);
            FUZZ_CHECK(fresh.draw(rec) == !fail);
            fuzz_random.fail_next = false;
            std::memcpy(fresh_bytes, rec.last, sizeof fresh_bytes);
            src = &fresh;
            src_ok = !fail;
            expected_bytes = fresh_bytes;
            break;
        }
        case 2: // never drawn: serves nothing
            src = &fresh;
            src_ok = false;
            break;
        case 3: // the kept draw, possibly already used or wiped
            src = &kept;
            src_ok = kept_ready;
            expected_bytes = kept_bytes;
            break;
        default: // the read-ahead pool; it fails only when it has to refill and the upstream fails
            stream.fail_next = fail;
            src = &pool;
            src_ok = !(fail && pool.available() < ulid::kEntropyBytes);
            break;
        }

        Recorder rec(*src);
        Ulid sentinel;
        std::memset(sentinel.bytes, 0xC3, sizeof sentinel.bytes);
        Ulid out = sentinel;
        const Status s = gen.next(clock, rec, &out);
        fuzz_random.fail_next = false;
        stream.fail_next = false;
        if (src == &kept && rec.calls > 0 && rec.last_ok)
            kept_ready = false; // a PrefetchedRandom serves once

        // The model's answer.
        const bool fresh_ms = !m.started || clock > time_of(m.last);
        Status want;
        Ulid want_value{};
        if (fresh_ms && clock > ulid::kMaxUnixMs) {
            want = Status::time_out_of_range;
        } else if (fresh_ms) {
            // exactly one request for the 10 entropy bytes
            FUZZ_CHECK(rec.calls == 1 && rec.last_n == ulid::kEntropyBytes);
            FUZZ_CHECK(rec.last_ok == src_ok);
            if (src_ok) {
                want = Status::ok;
                if (expected_bytes != nullptr)
                    FUZZ_CHECK(std::memcmp(rec.last, expected_bytes, ulid::kEntropyBytes) == 0);
                u128 entropy = 0;
                for (std::uint8_t b : rec.last)
                    entropy = (entropy << 8) | b;
                want_value = from_u128((static_cast<u128>(clock) << 80) | entropy);
            } else {
                want = Status::random_failure;
            }
        } else {
            // same or earlier millisecond: +1 on the last value, no random bytes drawn
            FUZZ_CHECK(rec.calls == 0);
            if (entropy_of(m.last) == kEntropyMask) {
                want = Status::entropy_overflow;
            } else {
                want = Status::ok;
                want_value = from_u128(to_u128(m.last) + 1);
            }
        }

        FUZZ_CHECK(s == want);
        if (clock > ulid::kMaxUnixMs)
            FUZZ_CHECK(s == Status::time_out_of_range);
        if (s != Status::ok) {
            FUZZ_CHECK(same(out, sentinel)); // *out untouched, state unchanged (checked next call)
            continue;
        }

        FUZZ_CHECK(same(out, want_value));
        FUZZ_CHECK(time_of(out) == (fresh_ms ? clock : time_of(m.last)));
        if (m.have_prev)
            FUZZ_CHECK(ulid::compare(m.prev, out) < 0); // strictly increasing, errors or not
        m.started = true;
        m.last = out;
        m.have_prev = true;
        m.prev = out;
    }
    kept.wipe();
    return 0;
}
