// ULID generators: the per-process monotonic state machine, and the stateless random ones.
#pragma once

#include <cstdint>

#include "entropy.hpp"
#include "status.hpp"
#include "ulid.hpp"

namespace ulid {

// Strictly increasing ULIDs (docs/monotonicity.md, "Monotonicity: what gen_ulid() guarantees"):
//  - a later millisecond than the last value takes 80 fresh random bits;
//  - the same or an earlier millisecond (clock went back) keeps the last millisecond and adds one
//    to the last entropy, so every value is greater than all earlier ones;
//  - an increment past 80 bits returns entropy_overflow and leaves the state unchanged.
// On any failure the state and *out are left untouched.
class MonotonicGenerator {
public:
    // Inline: the same-millisecond step is a few instructions on the path of every gen_ulid().
    Status next(std::uint64_t now_ms, RandomSource &random, Ulid *out) noexcept
    {
        if (needs_entropy(now_ms))
            return next_millisecond(now_ms, random, out);
        // Same or earlier millisecond: add one to the 80-bit entropy (low 16 bits of hi_, and lo_).
        if (lo_ == UINT64_MAX && (hi_ & 0xFFFF) == 0xFFFF)
            return Status::entropy_overflow;
        // Cannot fail, and the carry stays inside the entropy: its 80 bits were not all ones.
        (void)step_u128(hi_, lo_, true);
        store_be64(out->bytes, hi_);
        store_be64(out->bytes + 8, lo_);
        return Status::ok;
    }

    // Forget the last value (a fresh process starts here).
    void reset() noexcept;

    // Sets the last value: next_millisecond() does with each fresh value, and tests do to start
    // from a chosen one (e.g. an entropy just below overflow).
    void restore(const Ulid &last) noexcept;

    bool started() const noexcept { return started_; }

    // Whether next(now_ms, ...) would take a new millisecond and so draw random bytes: before the
    // first value, or when now_ms is later than the last value's millisecond.
    bool needs_entropy(std::uint64_t now_ms) const noexcept { return !started_ || now_ms > (hi_ >> 16); }

    // The last value's millisecond (0 before the first value). It never decreases until reset().
    std::uint64_t last_ms() const noexcept { return hi_ >> 16; }

private:
    // A later millisecond (or the first call): fresh random entropy.
    Status next_millisecond(std::uint64_t now_ms, RandomSource &random, Ulid *out) noexcept;

    // The last value as a 128-bit big-endian integer: hi_ = 48-bit ms << 16 | top 16 entropy bits,
    // lo_ = low 64 entropy bits. "Same millisecond?" is a shift; "+1" is step_u128() (ulid.hpp).
    bool started_ = false;
    std::uint64_t hi_ = 0;
    std::uint64_t lo_ = 0;
};

// A ULID at the given millisecond with fresh random entropy (no monotonic state).
Status random_at(std::uint64_t ms, RandomSource &random, Ulid *out) noexcept;

} // namespace ulid
