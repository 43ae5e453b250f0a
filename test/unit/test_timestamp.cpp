// The 48-bit timestamp: field access, range checks, PostgreSQL epoch conversion, min_at/max_at.
#include <cstdint>
#include <ctime>
#include <limits>

#include "core/crockford.hpp"
#include "core/timestamp.hpp"
#include "test_util.hpp"

using namespace ulid_test;
using ulid::kMaxUnixMs;
using ulid::kPgEpochUnixUsec;
using ulid::Status;
using ulid::Ulid;

namespace {

// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil).
constexpr std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

constexpr std::int64_t kMsPerDay = 86400000;
constexpr std::uint64_t kSentinelMs = 0xDEADBEEFCAFEULL;
const Ulid kSentinel = from_u128((u128{0x0123456789abcdefULL} << 64) | 0xfedcba9876543210ULL);

std::string encode_str(const Ulid &v)
{
    char buf[ulid::kTextLength];
    ulid::encode(v, buf);
    return std::string(buf, sizeof buf);
}

} // namespace

TEST(TimestampConstants, MatchTheCalendar)
{
    static_assert(days_from_civil(1970, 1, 1) == 0, "days_from_civil epoch");
    static_assert(days_from_civil(2000, 3, 1) == 11017, "days_from_civil leap year");
    EXPECT_EQ(kMaxUnixMs, 281474976710655u); // 2^48 - 1
    // docs/sql-reference.md: the largest ULID time is 10889-08-02 05:31:50.655 UTC.
    const std::int64_t max_ms = days_from_civil(10889, 8, 2) * kMsPerDay +
                                ((5 * 60 + 31) * 60 + 50) * 1000 + 655;
    EXPECT_EQ(static_cast<std::uint64_t>(max_ms), kMaxUnixMs);
    // PostgreSQL's epoch, 2000-01-01, in Unix microseconds.
    EXPECT_EQ(kPgEpochUnixUsec, days_from_civil(2000, 1, 1) * kMsPerDay * 1000);
}

TEST(Timestamp, ReadsBigEndianBytesZeroToFive)
{
    Ulid v = filled(0xFF);
    for (int i = 0; i < 6; ++i)
        v.bytes[i] = static_cast<std::uint8_t>(i + 1);
    EXPECT_EQ(ulid::timestamp_ms(v), 0x010203040506u);
    EXPECT_EQ(ulid::timestamp_ms(filled(0)), 0u);
    EXPECT_EQ(ulid::timestamp_ms(filled(0xFF)), kMaxUnixMs);
    Ulid w = filled(0);
    w.bytes[5] = 1;
    EXPECT_EQ(ulid::timestamp_ms(w), 1u);
    w.bytes[6] = 0xFF; // entropy does not leak into the time
    EXPECT_EQ(ulid::timestamp_ms(w), 1u);
}

TEST(Timestamp, SetAndReadRoundTripAndEntropyUntouched)
{
    std::mt19937_64 rng(0x7100);
    for (int i = 0; i < 20000; ++i) {
        std::uint64_t ms = rng() & kMaxUnixMs;
        if (i < 3)
            ms = i == 0 ? 0 : i == 1 ? 1 : kMaxUnixMs;
        const Ulid before = random_ulid(rng);
        Ulid v = before;
        ASSERT_EQ(ulid::set_timestamp_ms(v, ms), Status::ok);
        EXPECT_EQ(ulid::timestamp_ms(v), ms);
        EXPECT_EQ(ref_ms(v), ms);
        // Bytes 6..15 are not touched by the setter.
        EXPECT_EQ(0, std::memcmp(v.bytes + 6, before.bytes + 6, 10));
    }
}

TEST(Timestamp, SetRejectsPastTheMaximumAndLeavesValueUntouched)
{
    Ulid v = kSentinel;
    ASSERT_EQ(ulid::set_timestamp_ms(v, kMaxUnixMs), Status::ok);
    EXPECT_EQ(ulid::timestamp_ms(v), kMaxUnixMs);
    for (std::uint64_t bad : {kMaxUnixMs + 1, kMaxUnixMs + 2, std::uint64_t{1} << 48,
                              std::uint64_t{1} << 63, std::numeric_limits<std::uint64_t>::max()}) {
        Ulid w = kSentinel;
        EXPECT_EQ(ulid::set_timestamp_ms(w, bad), Status::time_out_of_range) << bad;
        EXPECT_EQ(w, kSentinel) << bad;
    }
}

TEST(TimestampPg, UnixEpochBoundary)
{
    std::uint64_t ms = kSentinelMs;
    ASSERT_EQ(ulid::unix_ms_from_pg_usec(-kPgEpochUnixUsec, &ms), Status::ok);
    EXPECT_EQ(ms, 0u);

    ms = kSentinelMs;
    EXPECT_EQ(ulid::unix_ms_from_pg_usec(-kPgEpochUnixUsec - 1, &ms), Status::time_out_of_range);
    EXPECT_EQ(ms, kSentinelMs);

    ASSERT_EQ(ulid::unix_ms_from_pg_usec(-kPgEpochUnixUsec + 999, &ms), Status::ok);
    EXPECT_EQ(ms, 0u);
    ASSERT_EQ(ulid::unix_ms_from_pg_usec(-kPgEpochUnixUsec + 1000, &ms), Status::ok);
    EXPECT_EQ(ms, 1u);
}

TEST(TimestampPg, InfinitiesAndExtremesAreOutOfRange)
{
    // PostgreSQL's -infinity and infinity are INT64_MIN and INT64_MAX.
    for (std::int64_t bad :
         {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::min() + 1,
          std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max() - 1,
          std::numeric_limits<std::int64_t>::max() - kPgEpochUnixUsec,
          std::numeric_limits<std::int64_t>::max() - kPgEpochUnixUsec + 1,
          -kPgEpochUnixUsec - 1000000}) {
        std::uint64_t ms = kSentinelMs;
        EXPECT_EQ(ulid::unix_ms_from_pg_usec(bad, &ms), Status::time_out_of_range) << bad;
        EXPECT_EQ(ms, kSentinelMs) << bad;
    }
}

TEST(TimestampPg, RoundsMicrosecondsDown)
{
    std::uint64_t ms = 0;
    ASSERT_EQ(ulid::unix_ms_from_pg_usec(-kPgEpochUnixUsec + 1999, &ms), Status::ok);
    EXPECT_EQ(ms, 1u);
    ASSERT_EQ(ulid::unix_ms_from_pg_usec(-kPgEpochUnixUsec + 2000, &ms), Status::ok);
    EXPECT_EQ(ms, 2u);
    // 2000-01-01 00:00:00 and one microsecond before it.
    ASSERT_EQ(ulid::unix_ms_from_pg_usec(0, &ms), Status::ok);
    EXPECT_EQ(ms, 946684800000u);
    ASSERT_EQ(ulid::unix_ms_from_pg_usec(-1, &ms), Status::ok);
    EXPECT_EQ(ms, 946684799999u);
    ASSERT_EQ(ulid::unix_ms_from_pg_usec(999, &ms), Status::ok);
    EXPECT_EQ(ms, 946684800000u);
    ASSERT_EQ(ulid::unix_ms_from_pg_usec(1000, &ms), Status::ok);
    EXPECT_EQ(ms, 946684800001u);
}

TEST(TimestampPg, UpperBoundary)
{
    const std::int64_t max_start =
        static_cast<std::int64_t>(kMaxUnixMs) * 1000 - kPgEpochUnixUsec; // first µs of the last ms
    std::uint64_t ms = kSentinelMs;
    ASSERT_EQ(ulid::unix_ms_from_pg_usec(max_start, &ms), Status::ok);
    EXPECT_EQ(ms, kMaxUnixMs);
    ASSERT_EQ(ulid::unix_ms_from_pg_usec(max_start + 999, &ms), Status::ok);
    EXPECT_EQ(ms, kMaxUnixMs);
    ms = kSentinelMs;
    EXPECT_EQ(ulid::unix_ms_from_pg_usec(max_start + 1000, &ms), Status::time_out_of_range);
    EXPECT_EQ(ms, kSentinelMs);
}

TEST(TimestampPg, RandomInstantsMatchFloorDivision)
{
    std::mt19937_64 rng(0x7101);
    const std::uint64_t usec_span = (kMaxUnixMs + 1) * 1000; // valid Unix microseconds: [0, span)
    for (int i = 0; i < 50000; ++i) {
        const std::uint64_t unix_usec = rng() % usec_span;
        const std::int64_t pg = static_cast<std::int64_t>(unix_usec) - kPgEpochUnixUsec;
        std::uint64_t ms = kSentinelMs;
        ASSERT_EQ(ulid::unix_ms_from_pg_usec(pg, &ms), Status::ok) << pg;
        ASSERT_EQ(ms, unix_usec / 1000) << pg;
    }
}

TEST(TimestampPg, PgUsecFromUnixMsIsTheInverse)
{
    EXPECT_EQ(ulid::pg_usec_from_unix_ms(0), -kPgEpochUnixUsec);
    EXPECT_EQ(ulid::pg_usec_from_unix_ms(946684800000u), 0);
    EXPECT_EQ(ulid::pg_usec_from_unix_ms(946684800001u), 1000);
    EXPECT_EQ(ulid::pg_usec_from_unix_ms(kMaxUnixMs),
              static_cast<std::int64_t>(kMaxUnixMs) * 1000 - kPgEpochUnixUsec);

    std::mt19937_64 rng(0x7102);
    for (int i = 0; i < 20000; ++i) {
        std::uint64_t ms = rng() & kMaxUnixMs;
        if (i < 2)
            ms = i == 0 ? 0 : kMaxUnixMs;
        const std::int64_t pg = ulid::pg_usec_from_unix_ms(ms);
        std::uint64_t back = kSentinelMs;
        ASSERT_EQ(ulid::unix_ms_from_pg_usec(pg, &back), Status::ok);
        ASSERT_EQ(back, ms);
        ASSERT_EQ(ulid::unix_ms_from_pg_usec(pg + 999, &back), Status::ok);
        ASSERT_EQ(back, ms);
        if (ms > 0) {
            ASSERT_EQ(ulid::unix_ms_from_pg_usec(pg - 1, &back), Status::ok);
            ASSERT_EQ(back, ms - 1);
        }
    }
}

TEST(TimestampBounds, MinAtAndMaxAt)
{
    std::mt19937_64 rng(0x7103);
    for (int i = 0; i < 5000; ++i) {
        std::uint64_t ms = rng() & kMaxUnixMs;
        if (i < 3)
            ms = i == 0 ? 0 : i == 1 ? kMaxUnixMs - 1 : 1469922850259u;
        Ulid lo = kSentinel, hi = kSentinel;
        ASSERT_EQ(ulid::min_at(ms, &lo), Status::ok);
        ASSERT_EQ(ulid::max_at(ms, &hi), Status::ok);
        EXPECT_EQ(ref_ms(lo), ms);
        EXPECT_EQ(ref_ms(hi), ms);
        EXPECT_TRUE(ref_entropy(lo) == 0);
        EXPECT_TRUE(ref_entropy(hi) == kEntropyMask);
        // Every ULID of ms lies in [lo, hi], and hi + 1 is the smallest ULID of ms + 1.
        Ulid any = random_ulid(rng);
        ASSERT_EQ(ulid::set_timestamp_ms(any, ms), Status::ok);
        EXPECT_LE(ulid::compare(lo, any), 0);
        EXPECT_LE(ulid::compare(any, hi), 0);
        if (ms < kMaxUnixMs) {
            Ulid next = kSentinel;
            ASSERT_EQ(ulid::min_at(ms + 1, &next), Status::ok);
            EXPECT_TRUE(to_u128(hi) + 1 == to_u128(next));
        }
    }
}

TEST(TimestampBounds, ExtremesAndOutOfRange)
{
    Ulid v = kSentinel;
    ASSERT_EQ(ulid::min_at(0, &v), Status::ok);
    EXPECT_EQ(encode_str(v), "00000000000000000000000000");
    ASSERT_EQ(ulid::max_at(kMaxUnixMs, &v), Status::ok);
    EXPECT_EQ(encode_str(v), "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
    ASSERT_EQ(ulid::min_at(kMaxUnixMs, &v), Status::ok);
    EXPECT_EQ(encode_str(v), "7ZZZZZZZZZ0000000000000000");
    ASSERT_EQ(ulid::max_at(0, &v), Status::ok);
    EXPECT_EQ(encode_str(v), "0000000000ZZZZZZZZZZZZZZZZ");

    for (std::uint64_t bad : {kMaxUnixMs + 1, std::numeric_limits<std::uint64_t>::max()}) {
        Ulid w = kSentinel;
        EXPECT_EQ(ulid::min_at(bad, &w), Status::time_out_of_range);
        EXPECT_EQ(w, kSentinel);
        EXPECT_EQ(ulid::max_at(bad, &w), Status::time_out_of_range);
        EXPECT_EQ(w, kSentinel);
    }
}

TEST(TimestampClock, SystemClockAgreesWithTime)
{
    const std::time_t before = std::time(nullptr);
    const std::uint64_t ms = ulid::system_unix_ms();
    const std::time_t after = std::time(nullptr);
    EXPECT_GE(ms, static_cast<std::uint64_t>(before) * 1000 - 1000);
    EXPECT_LE(ms, static_cast<std::uint64_t>(after) * 1000 + 2000);
    EXPECT_GT(ms, 1577836800000u); // after 2020-01-01
    EXPECT_LE(ms, kMaxUnixMs);
}
