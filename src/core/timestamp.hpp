// The 48-bit millisecond timestamp of a ULID: read, write, and convert from PostgreSQL's clock.
#pragma once

#include <cstdint>
#include <ctime>

#include "status.hpp"
#include "ulid.hpp"

namespace ulid {

// PostgreSQL timestamps count microseconds from 2000-01-01 00:00:00 UTC; Unix time from 1970.
inline constexpr std::int64_t kPgEpochUnixUsec = INT64_C(946684800000000);

// The embedded Unix time in milliseconds (always <= kMaxUnixMs).
std::uint64_t timestamp_ms(const Ulid &value) noexcept;

// Sets bytes 0..5; time_out_of_range (value untouched) when ms > kMaxUnixMs.
Status set_timestamp_ms(Ulid &value, std::uint64_t ms) noexcept;

// A PostgreSQL timestamp (finite, microseconds since 2000) to the Unix millisecond that holds it
// (rounded down). time_out_of_range before 1970-01-01 or after kMaxUnixMs.
Status unix_ms_from_pg_usec(std::int64_t pg_usec, std::uint64_t *ms) noexcept;

// Inverse direction; exact, since every ULID time lies well inside PostgreSQL's range.
std::int64_t pg_usec_from_unix_ms(std::uint64_t ms) noexcept;

// The smallest (entropy all zero) and largest (entropy all one) ULID of a millisecond.
Status min_at(std::uint64_t ms, Ulid *out) noexcept;
Status max_at(std::uint64_t ms, Ulid *out) noexcept;

// The current Unix time in milliseconds from the system's real-time clock (inline: it is on the
// path of every generated value).
inline std::uint64_t system_unix_ms() noexcept
{
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0 || ts.tv_sec < 0)
        return 0;
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000 +
           static_cast<std::uint64_t>(ts.tv_nsec) / 1000000;
}

} // namespace ulid
