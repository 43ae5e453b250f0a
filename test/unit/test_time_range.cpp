// time(id) OP t (src/core/time_range.hpp): the comparison against an independent reference, and
// the range of ULIDs for each operator checked against that comparison, at every millisecond and
// range edge, sub-millisecond, infinite and far out-of-range timestamps.
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "core/time_range.hpp"
#include "core/timestamp.hpp"
#include "test_util.hpp"

using namespace ulid_test;
using ulid::kMaxUnixMs;
using ulid::kPgEpochUnixUsec;
using ulid::TimeOp;
using ulid::Ulid;

namespace {

constexpr std::int64_t kMin64 = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax64 = std::numeric_limits<std::int64_t>::max();
constexpr TimeOp kRangeOps[] = {TimeOp::eq, TimeOp::lt, TimeOp::le, TimeOp::gt, TimeOp::ge};
constexpr TimeOp kAllOps[] = {TimeOp::eq, TimeOp::ne, TimeOp::lt, TimeOp::le, TimeOp::gt, TimeOp::ge};

// A ULID of millisecond ms whose 80 entropy bits are the low bits of `entropy`.
Ulid at(std::uint64_t ms, u128 entropy)
{
    return from_u128((u128{ms} << 80) | (entropy & kEntropyMask));
}

// Reference: the ULID's time in PostgreSQL microseconds as a 128-bit integer, compared with t.
bool reference(TimeOp op, const Ulid &v, std::int64_t t)
{
    const __int128 ms = static_cast<__int128>(to_u128(v) >> 80);
    const __int128 us = ms * 1000 - kPgEpochUnixUsec;
    const __int128 tt = t;
    switch (op) {
    case TimeOp::eq:
        return us == tt;
    case TimeOp::ne:
        return us != tt;
    case TimeOp::lt:
        return us < tt;
    case TimeOp::le:
        return us <= tt;
    case TimeOp::gt:
        return us > tt;
    case TimeOp::ge:
        return us >= tt;
    }
    return false;
}

bool in_range(const ulid::UlidRange &r, const Ulid &v)
{
    return ulid::compare(r.lower, v) <= 0 && ulid::compare(v, r.upper) <= 0;
}

// Timestamps at and around every edge that matters, plus the far ends.
std::vector<std::int64_t> edge_times()
{
    const std::int64_t first = -kPgEpochUnixUsec;
    const std::int64_t last = static_cast<std::int64_t>(kMaxUnixMs) * 1000 - kPgEpochUnixUsec;
    std::vector<std::int64_t> ts = {kMin64, kMin64 + 1, kMax64, kMax64 - 1, 0, -1, 1};
    for (std::int64_t base : {first, first + 1000, last - 1000, last, std::int64_t{0},
                              std::int64_t{820000000000000}}) {
        for (std::int64_t d : {-2001, -2000, -1999, -1001, -1000, -999, -1, 0, 1, 999, 1000, 1001, 1999, 2000})
            ts.push_back(base + d);
    }
    return ts;
}

// ULIDs at and around the range edges and at the edges' milliseconds, entropy 0, all ones, mixed.
std::vector<Ulid> edge_ulids(const std::vector<std::int64_t> &times)
{
    std::vector<std::uint64_t> ms = {0, 1, 2, kMaxUnixMs, kMaxUnixMs - 1, kMaxUnixMs - 2};
    for (std::int64_t t : times) {
        const __int128 unix_us = static_cast<__int128>(t) + kPgEpochUnixUsec;
        if (unix_us < 0 || unix_us / 1000 > static_cast<__int128>(kMaxUnixMs))
            continue;
        const auto m = static_cast<std::uint64_t>(unix_us / 1000);
        for (std::uint64_t x : {m - 1, m, m + 1})
            if (x <= kMaxUnixMs)
                ms.push_back(x);
    }
    std::vector<Ulid> out;
    for (std::uint64_t m : ms)
        for (u128 e : {u128{0}, u128{1}, kAllOnes128, (u128{0x1234} << 64) | 0x56789abcdef0ULL})
            out.push_back(at(m, e));
    return out;
}

} // namespace

TEST(TimeRange, CompareMatchesReferenceAtEdges)
{
    const auto times = edge_times();
    for (const Ulid &v : edge_ulids(times))
        for (std::int64_t t : times)
            for (TimeOp op : kAllOps)
                ASSERT_EQ(ulid::time_holds(op, v, t), reference(op, v, t)) << "t=" << t;
}

TEST(TimeRange, RangeSelectsExactlyTheMatchingUlids)
{
    const auto times = edge_times();
    const auto ulids = edge_ulids(times);
    for (std::int64_t t : times) {
        for (TimeOp op : kRangeOps) {
            const ulid::UlidRange r = ulid::ulid_range(op, t);
            for (const Ulid &v : ulids)
                ASSERT_EQ(in_range(r, v), reference(op, v, t)) << "op=" << int(op) << " t=" << t;
        }
    }
}

TEST(TimeRange, RandomTimesAndUlids)
{
    std::mt19937_64 rng(20261202);
    const std::int64_t first = -kPgEpochUnixUsec;
    const std::int64_t last = static_cast<std::int64_t>(kMaxUnixMs) * 1000 - kPgEpochUnixUsec;
    std::uniform_int_distribution<std::int64_t> span(first - 5000, last + 5000);
    std::uniform_int_distribution<int> jitter(-1500, 1500);
    for (int i = 0; i < 20000; ++i) {
        const std::int64_t t = span(rng);
        const u128 bits = (u128{rng()} << 64) | rng();
        // a ULID near t's millisecond half of the time, anywhere otherwise
        Ulid v = from_u128(bits);
        if (i % 2 == 0) {
            const __int128 unix_us = static_cast<__int128>(t) + kPgEpochUnixUsec + jitter(rng);
            if (unix_us >= 0 && unix_us / 1000 <= static_cast<__int128>(kMaxUnixMs))
                v = at(static_cast<std::uint64_t>(unix_us / 1000), bits);
        }
        for (TimeOp op : kRangeOps)
            ASSERT_EQ(in_range(ulid::ulid_range(op, t), v), reference(op, v, t));
        ASSERT_EQ(ulid::time_holds(TimeOp::ne, v, t), reference(TimeOp::ne, v, t));
    }
}

TEST(TimeRange, EmptyAndFullRanges)
{
    // every ULID is at or after -infinity, none after +infinity
    EXPECT_TRUE(ulid::ulid_range(TimeOp::ge, kMin64).every_ulid);
    EXPECT_TRUE(ulid::ulid_range(TimeOp::gt, kMax64).empty);
    EXPECT_TRUE(ulid::ulid_range(TimeOp::le, kMax64).every_ulid);
    EXPECT_TRUE(ulid::ulid_range(TimeOp::lt, kMin64).empty);
    EXPECT_TRUE(ulid::ulid_range(TimeOp::eq, kMax64).empty);
    // = a time that is not a whole millisecond: no ULID
    EXPECT_TRUE(ulid::ulid_range(TimeOp::eq, 1).empty);
    const ulid::UlidRange whole = ulid::ulid_range(TimeOp::eq, 0); // 2000-01-01 00:00:00
    EXPECT_FALSE(whole.empty);
    EXPECT_EQ(to_u128(whole.lower) >> 80, u128{946684800000});
    EXPECT_EQ(to_u128(whole.upper) >> 80, u128{946684800000});
    EXPECT_EQ(to_u128(whole.lower) & kEntropyMask, u128{0});
    EXPECT_EQ(to_u128(whole.upper) & kEntropyMask, kEntropyMask);
    // an empty range's bounds admit nothing
    const ulid::UlidRange none = ulid::ulid_range(TimeOp::gt, kMax64);
    EXPECT_EQ(to_u128(none.lower), kAllOnes128);
    EXPECT_EQ(to_u128(none.upper), u128{0});
}

TEST(TimeRange, Commuted)
{
    for (TimeOp op : kAllOps)
        EXPECT_EQ(ulid::commuted(ulid::commuted(op)), op);
    EXPECT_EQ(ulid::commuted(TimeOp::lt), TimeOp::gt);
    EXPECT_EQ(ulid::commuted(TimeOp::ge), TimeOp::le);
    EXPECT_EQ(ulid::commuted(TimeOp::eq), TimeOp::eq);
}

TEST(TimeRange, LooksLikeTime)
{
    for (const char *yes : {"2026-01-01", "2026-12-02 12:00:00+00", " 2026-1-1", "12:30", "7:05:00",
                            "now", "NOW", "today", "Yesterday", "tomorrow", "epoch", "infinity",
                            "-infinity", "2026-01-01T00:00:00.123456Z"})
        EXPECT_TRUE(ulid::looks_like_time(yes)) << yes;
    for (const char *no : {"", "01ARZ3NDEKTSV4RRFFQ69G5FAU", "0190c5d4-7b3e-7c1a-9f7e-3d5c2a1b0e9f",
                           "nowhere", "2026", "12345", "abc", "1:2", "infinite", "--infinity"})
        EXPECT_FALSE(ulid::looks_like_time(no)) << no;
}
