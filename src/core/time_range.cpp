// time(id) OP t: the exact comparison and the ULID range it selects (src/core/time_range.hpp).
#include "time_range.hpp"

#include <cstring>

#include "pure.hpp"
#include "timestamp.hpp"

namespace ulid {

namespace {

// PostgreSQL microseconds of the first ULID millisecond (Unix 0) and of the last one.
constexpr std::int64_t kFirstPgUsec = -kPgEpochUnixUsec;
constexpr std::int64_t kLastPgUsec = static_cast<std::int64_t>(kMaxUnixMs) * 1000 - kPgEpochUnixUsec;

// floor(t / 1 ms) and ceil(t / 1 ms) in Unix milliseconds. Far outside the ULID range the exact
// values do not matter (every range clamps them): -2/-1 below it, kMaxUnixMs + 2 above it.
struct MsBounds {
    std::int64_t floor_ms;
    std::int64_t ceil_ms;
};

MsBounds ms_bounds(std::int64_t pg_usec) noexcept
{
    if (pg_usec < kFirstPgUsec - 1000)
        return {-2, -1};
    if (pg_usec > kLastPgUsec + 1000)
        return {static_cast<std::int64_t>(kMaxUnixMs) + 2, static_cast<std::int64_t>(kMaxUnixMs) + 2};
    const std::int64_t unix_usec = pg_usec + kPgEpochUnixUsec; // cannot overflow here
    std::int64_t f = unix_usec / 1000;
    if (unix_usec % 1000 < 0)
        --f; // division truncates toward zero
    return {f, unix_usec % 1000 == 0 ? f : f + 1};
}

// The smallest (all 0) or the largest (all 0xFF: 7ZZZZZZZZZZZZZZZZZZZZZZZZZ) ULID.
Ulid all_bytes(std::uint8_t b) noexcept
{
    Ulid v;
    std::memset(v.bytes, b, kBytes);
    return v;
}

} // namespace

TimeOp commuted(TimeOp op) noexcept
{
    switch (op) {
    case TimeOp::lt:
        return TimeOp::gt;
    case TimeOp::le:
        return TimeOp::ge;
    case TimeOp::gt:
        return TimeOp::lt;
    case TimeOp::ge:
        return TimeOp::le;
    default:
        return op; // eq, ne
    }
}

int compare_time(const Ulid &value, std::int64_t pg_usec) noexcept
{
    const std::int64_t t = pg_usec_from_unix_ms(timestamp_ms(value)); // exact, in range
    return (t > pg_usec) - (t < pg_usec);
}

bool time_holds(TimeOp op, const Ulid &value, std::int64_t pg_usec) noexcept
{
    const int c = compare_time(value, pg_usec);
    switch (op) {
    case TimeOp::eq:
        return c == 0;
    case TimeOp::ne:
        return c != 0;
    case TimeOp::lt:
        return c < 0;
    case TimeOp::le:
        return c <= 0;
    case TimeOp::gt:
        return c > 0;
    case TimeOp::ge:
        return c >= 0;
    }
    return false;
}

UlidRange ulid_range(TimeOp op, std::int64_t pg_usec) noexcept
{
    const MsBounds b = ms_bounds(pg_usec);
    const auto max_ms = static_cast<std::int64_t>(kMaxUnixMs);
    // the milliseconds [first, last] that satisfy time(id) op t
    std::int64_t first = 0;
    std::int64_t last = max_ms;
    switch (op) {
    case TimeOp::eq:
        first = b.ceil_ms;
        last = b.floor_ms;
        break;
    case TimeOp::lt:
        last = b.ceil_ms - 1;
        break;
    case TimeOp::le:
        last = b.floor_ms;
        break;
    case TimeOp::gt:
        first = b.floor_ms + 1;
        break;
    case TimeOp::ge:
        first = b.ceil_ms;
        break;
    case TimeOp::ne:
        break; // not one range: callers never ask (every ULID, to be safe)
    }
    if (first < 0)
        first = 0;
    if (last > max_ms)
        last = max_ms;
    UlidRange r{};
    if (first > last) {
        r.empty = true;
        r.lower = all_bytes(0xFF);
        r.upper = all_bytes(0x00);
        return r;
    }
    (void)min_at(static_cast<std::uint64_t>(first), &r.lower); // in range: cannot fail
    (void)max_at(static_cast<std::uint64_t>(last), &r.upper);
    r.every_ulid = first == 0 && last == max_ms;
    return r;
}

bool looks_like_time(const char *text) noexcept
{
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    const char *s = text;
    while (*s == ' ' || *s == '\t')
        ++s;
    // 2026-01-01, 2026-1-1 ...
    if (digit(s[0]) && digit(s[1]) && digit(s[2]) && digit(s[3]) && s[4] == '-' && digit(s[5]))
        return true;
    // 12:30, 7:05 ...
    if (digit(s[0]) && s[1] == ':' && digit(s[2]) && digit(s[3]))
        return true;
    if (digit(s[0]) && digit(s[1]) && s[2] == ':' && digit(s[3]) && digit(s[4]))
        return true;
    static const char *const words[] = {"now", "today", "yesterday", "tomorrow", "epoch", "infinity",
                                        "-infinity"};
    for (const char *w : words) {
        std::size_t i = 0;
        while (w[i] != '\0' && (s[i] == w[i] || s[i] == w[i] - 'a' + 'A'))
            ++i;
        if (w[i] == '\0' && (s[i] == '\0' || s[i] == ' '))
            return true;
    }
    return false;
}

} // namespace ulid
