// The server-wide monotonic generator: one MonotonicGenerator behind a lock, and a lock-free hint of
// its millisecond so that a repeated millisecond draws no random bytes.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "entropy.hpp"
#include "generator.hpp"
#include "status.hpp"
#include "ulid.hpp"

namespace ulid {

inline constexpr std::size_t kCacheLine = 64;

// Lives in memory shared by processes (placement-new it there once, at a cache-line boundary).
// Lock is the caller's lock type, stored here: default-constructible (its constructor initialises
// it), with lock() and unlock(), both noexcept.
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
template <class Lock>
class SharedGenerator {
public:
    // Returns the generator's status (ok, time_out_of_range, entropy_overflow) or random_failure;
    // on failure *out is untouched.
    Status next(std::uint64_t now_ms, RandomSource &random, Ulid *out) noexcept
    {
        PrefetchedRandom fresh;
        bool drew = false;
        if (now_ms > last_ms_hint_.load(std::memory_order_acquire)) {
            drew = true;
            if (!fresh.draw(random))
                return failed_draw(fresh);
        }
        lock_.lock();
        if (!drew && generator_.needs_entropy(now_ms)) {
            lock_.unlock();
            drew = true;
            if (!fresh.draw(random))
                return failed_draw(fresh);
            lock_.lock();
        }
        const Status status = generator_.next(now_ms, fresh, out);
        const std::uint64_t last_ms = generator_.last_ms();
        if (last_ms != last_ms_hint_.load(std::memory_order_relaxed)) // only written here, locked
            last_ms_hint_.store(last_ms, std::memory_order_release);
        lock_.unlock();
        if (drew)
            fresh.wipe(); // unused (stale hint, or another backend took the millisecond meanwhile)
        return status;
    }

    // The millisecond next() compares with before locking (for tests).
    std::uint64_t last_ms_hint() const noexcept { return last_ms_hint_.load(std::memory_order_acquire); }

    // The lock (for tests that script what happens around it).
    Lock &lock() noexcept { return lock_; }

private:
    static Status failed_draw(PrefetchedRandom &fresh) noexcept
    {
        fresh.wipe(); // whatever the failing source left
        return Status::random_failure;
    }

    static_assert(std::atomic<std::uint64_t>::is_always_lock_free,
                  "the hint is shared between processes: it must be a lock-free atomic");

    // Two cache lines: the hint, read by every call and written once a millisecond, stays shared
    // in every core's cache; the lock and the state, written by every call, move together.
    std::atomic<std::uint64_t> last_ms_hint_{0};
    char hint_line_padding_[kCacheLine - sizeof(std::atomic<std::uint64_t>)] = {};
    Lock lock_;
    MonotonicGenerator generator_;
};

} // namespace ulid
