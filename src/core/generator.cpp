// The monotonic generator state machine and the random-entropy generator.
#include "generator.hpp"

#include "timestamp.hpp"

#include "pure.hpp"

namespace ulid {

static_assert(PrefetchedRandom::kSize == kEntropyBytes, "a prefetched draw is one ULID's entropy");

Status random_at(std::uint64_t ms, RandomSource &random, Ulid *out) noexcept
{
    Ulid v;
    if (set_timestamp_ms(v, ms) != Status::ok)
        return Status::time_out_of_range;
    if (!random.fill(v.bytes + kTimeBytes, kEntropyBytes))
        return Status::random_failure;
    *out = v;
    return Status::ok;
}

Status MonotonicGenerator::next_millisecond(std::uint64_t now_ms, RandomSource &random,
                                            Ulid *out) noexcept
{
    Ulid fresh;
    const Status s = random_at(now_ms, random, &fresh);
    if (s != Status::ok)
        return s;
    restore(fresh);
    *out = fresh;
    return Status::ok;
}

void MonotonicGenerator::reset() noexcept
{
    secure_wipe(&hi_, sizeof hi_);
    secure_wipe(&lo_, sizeof lo_);
    started_ = false;
}

void MonotonicGenerator::restore(const Ulid &last) noexcept
{
    hi_ = load_be64(last.bytes);
    lo_ = load_be64(last.bytes + 8);
    started_ = true;
}

} // namespace ulid
