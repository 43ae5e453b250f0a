// A ULID's embedded time against a PostgreSQL timestamp: the comparison, and the range of ULIDs
// that satisfies it (what `id >= t` becomes so that an index on id answers it).
#pragma once

#include <cstdint>

#include "ulid.hpp"

namespace ulid {

// Comparison operators of `time(id) OP t`.
enum class TimeOp : std::uint8_t { eq, ne, lt, le, gt, ge };

// The operator with its operands swapped: `t OP id` is `id commuted(OP) t`.
TimeOp commuted(TimeOp op) noexcept;

// Sign of time(value) - t, with t a PostgreSQL timestamp in microseconds since 2000-01-01 UTC; any
// int64 is accepted (PostgreSQL's -infinity and infinity are INT64_MIN and INT64_MAX). -1, 0 or 1.
int compare_time(const Ulid &value, std::int64_t pg_usec) noexcept;

// Whether `time(value) op t` holds, for every op (ne included).
bool time_holds(TimeOp op, const Ulid &value, std::int64_t pg_usec) noexcept;

// The ULIDs whose time satisfies `time(id) op t`: exactly those with lower <= id <= upper, both
// inclusive. op is eq, lt, le, gt or ge (ne is not one range). With no such ULID, empty is true
// and the bounds are the largest and the smallest ULID (so that lower <= id <= upper holds for
// none); every_ulid says the bounds are the smallest and the largest ULID.
struct UlidRange {
    bool empty;
    bool every_ulid;
    Ulid lower;
    Ulid upper;
};
UlidRange ulid_range(TimeOp op, std::int64_t pg_usec) noexcept;

// Whether text that is not a ULID looks like a date or a time (2026-01-01..., 12:30..., now, today,
// yesterday, tomorrow, epoch, infinity, -infinity), so that the error can point at ::timestamptz:
// `id >= '2026-01-01'` takes the literal as a ulid.
bool looks_like_time(const char *text) noexcept;

} // namespace ulid
