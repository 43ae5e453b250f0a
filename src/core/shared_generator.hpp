// The server-wide monotonic generator: one MonotonicGenerator behind the caller's lock, and a
// lock-free hint of its millisecond so that a repeated millisecond draws no random bytes.
#pragma once

#include <atomic>
#include <cstdint>

#include "entropy.hpp"
#include "generator.hpp"
#include "status.hpp"
#include "ulid.hpp"

namespace ulid {

// Lives in memory shared by processes (placement-new it there once); the caller's lock guards it.
//
// next() reads the hint before locking. The hint is stored under the lock, after the generator
// changed, and the generator's millisecond never decreases, so the hint is never ahead of the
// generator: a stale read only shows an earlier millisecond. Hence
//  - now_ms <= hint: the step under the lock is a same-millisecond one; no random bytes are drawn;
//  - now_ms > hint: 10 bytes are drawn before locking (a stale hint may waste them; they are wiped);
//  - should a new millisecond be needed under the lock with nothing drawn (before the first value,
//    when the hint and now_ms are both 0), the lock is released, the bytes drawn, and the lock taken
//    again once: the step then has fresh bytes whatever happened meanwhile.
// Random bytes are only ever drawn with the lock released, so nothing under it can block or fail.
class SharedGenerator {
public:
    // Lock: lock() and unlock(), both noexcept. Returns the generator's status (ok,
    // time_out_of_range, entropy_overflow) or random_failure; on failure *out is untouched.
    template <class Lock>
    Status next(std::uint64_t now_ms, Lock &lock, RandomSource &random, Ulid *out) noexcept
    {
        PrefetchedRandom fresh;
        if (now_ms > last_ms_hint_.load(std::memory_order_acquire) && !fresh.draw(random))
            return Status::random_failure;
        lock.lock();
        if (!fresh.ready() && generator_.needs_entropy(now_ms)) {
            lock.unlock();
            if (!fresh.draw(random))
                return Status::random_failure;
            lock.lock();
        }
        const Status status = generator_.next(now_ms, fresh, out);
        const std::uint64_t last_ms = generator_.last_ms();
        if (last_ms != last_ms_hint_.load(std::memory_order_relaxed)) // only we write it, under the lock
            last_ms_hint_.store(last_ms, std::memory_order_release);
        lock.unlock();
        fresh.wipe();
        return status;
    }

    // The millisecond next() compares with before locking (for tests).
    std::uint64_t last_ms_hint() const noexcept { return last_ms_hint_.load(std::memory_order_acquire); }

private:
    static_assert(std::atomic<std::uint64_t>::is_always_lock_free,
                  "the hint is shared between processes: it must be a lock-free atomic");

    MonotonicGenerator generator_;
    // Every call writes the generator's line; the hint is read by every call and written once a
    // millisecond, so it gets a cache line of its own.
    alignas(64) std::atomic<std::uint64_t> last_ms_hint_{0};
};

} // namespace ulid
