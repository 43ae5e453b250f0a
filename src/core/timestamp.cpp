// Timestamp field access, range checks and epoch conversion.
#include "timestamp.hpp"

#include <limits>

#include "pure.hpp"

namespace ulid {

std::uint64_t timestamp_ms(const Ulid &value) noexcept
{
    std::uint64_t ms = 0;
    for (std::size_t i = 0; i < kTimeBytes; ++i)
        ms = (ms << 8) | value.bytes[i];
    return ms;
}

Status set_timestamp_ms(Ulid &value, std::uint64_t ms) noexcept
{
    if (ms > kMaxUnixMs)
        return Status::time_out_of_range;
    for (std::size_t i = kTimeBytes; i-- > 0;) {
        value.bytes[i] = static_cast<std::uint8_t>(ms);
        ms >>= 8;
    }
    return Status::ok;
}

Status unix_ms_from_pg_usec(std::int64_t pg_usec, std::uint64_t *ms) noexcept
{
    // Compare before adding so that no input can overflow int64.
    if (pg_usec < -kPgEpochUnixUsec)
        return Status::time_out_of_range;
    if (pg_usec > std::numeric_limits<std::int64_t>::max() - kPgEpochUnixUsec)
        return Status::time_out_of_range;
    const auto unix_usec = static_cast<std::uint64_t>(pg_usec + kPgEpochUnixUsec);
    const std::uint64_t result = unix_usec / 1000;
    if (result > kMaxUnixMs)
        return Status::time_out_of_range;
    *ms = result;
    return Status::ok;
}

std::int64_t pg_usec_from_unix_ms(std::uint64_t ms) noexcept
{
    return static_cast<std::int64_t>(ms) * 1000 - kPgEpochUnixUsec;
}

Status min_at(std::uint64_t ms, Ulid *out) noexcept
{
    Ulid v{};
    if (set_timestamp_ms(v, ms) != Status::ok)
        return Status::time_out_of_range;
    *out = v;
    return Status::ok;
}

Status max_at(std::uint64_t ms, Ulid *out) noexcept
{
    Ulid v;
    std::memset(v.bytes, 0xFF, kBytes);
    if (set_timestamp_ms(v, ms) != Status::ok)
        return Status::time_out_of_range;
    *out = v;
    return Status::ok;
}

} // namespace ulid
