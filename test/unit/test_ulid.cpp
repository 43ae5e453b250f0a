// The value type (ulid.hpp), its +1 / -1 (step, step_u128) and status names (status.hpp).
#include <set>
#include <string>

#include "core/status.hpp"
#include "core/ulid.hpp"
#include "test_util.hpp"

using namespace ulid_test;
using ulid::Status;
using ulid::Ulid;

TEST(UlidValue, Layout)
{
    EXPECT_EQ(sizeof(Ulid), 16u);
    EXPECT_EQ(alignof(Ulid), 1u);
    EXPECT_EQ(ulid::kBytes, 16u);
    EXPECT_EQ(ulid::kTimeBytes + ulid::kEntropyBytes, ulid::kBytes);
    EXPECT_EQ(ulid::kTextLength, 26u);
    EXPECT_EQ(ulid::kMaxUnixMs, (std::uint64_t{1} << 48) - 1);
}

TEST(UlidValue, CompareIsUnsignedBigEndianOrder)
{
    std::mt19937_64 rng(0x0C0);
    for (int i = 0; i < 50000; ++i) {
        Ulid a = random_ulid(rng);
        Ulid b = (i % 3 == 0) ? a : random_ulid(rng);
        if (i % 3 == 1)
            b.bytes[rng() % 16] ^= 0x80; // differ in a high bit of one byte (signedness trap)
        const u128 x = to_u128(a), y = to_u128(b);
        const int c = ulid::compare(a, b);
        ASSERT_EQ(c < 0, x < y);
        ASSERT_EQ(c == 0, x == y);
        ASSERT_EQ(c > 0, x > y);
        ASSERT_EQ(a == b, x == y);
        ASSERT_EQ(a != b, x != y);
        ASSERT_EQ(a < b, x < y);
    }
    EXPECT_LT(filled(0x7F), filled(0x80));
    EXPECT_LT(filled(0x00), filled(0xFF));
}

TEST(UlidValue, Be64LoadStore)
{
    std::uint8_t buf[10];
    std::memset(buf, 0xEE, sizeof buf);
    ulid::store_be64(buf + 1, 0x0102030405060708ULL);
    const std::uint8_t expected[10] = {0xEE, 1, 2, 3, 4, 5, 6, 7, 8, 0xEE};
    EXPECT_EQ(0, std::memcmp(buf, expected, sizeof buf));
    EXPECT_EQ(ulid::load_be64(buf + 1), 0x0102030405060708ULL);

    std::mt19937_64 rng(0xBE64);
    for (int i = 0; i < 10000; ++i) {
        const std::uint64_t v = rng();
        ulid::store_be64(buf, v);
        std::uint64_t ref = 0;
        for (int k = 0; k < 8; ++k)
            ref = ref * 256 + buf[k];
        ASSERT_EQ(ref, v);
        ASSERT_EQ(ulid::load_be64(buf), v);
    }
}

// --- step_u128 and step: +1 / -1 of a 128-bit unsigned integer ----------------------------------

TEST(Step, HalvesCarryAndBorrow)
{
    std::uint64_t hi = 7, lo = UINT64_MAX;
    ASSERT_TRUE(ulid::step_u128(hi, lo, true));
    EXPECT_EQ(hi, 8u);
    EXPECT_EQ(lo, 0u);
    ASSERT_TRUE(ulid::step_u128(hi, lo, false));
    EXPECT_EQ(hi, 7u);
    EXPECT_EQ(lo, UINT64_MAX);
    ASSERT_TRUE(ulid::step_u128(hi, lo, false));
    EXPECT_EQ(hi, 7u);
    EXPECT_EQ(lo, UINT64_MAX - 1);
}

TEST(Step, EndsOfTheRangeRefuseAndLeaveTheValueUntouched)
{
    std::uint64_t hi = UINT64_MAX, lo = UINT64_MAX;
    EXPECT_FALSE(ulid::step_u128(hi, lo, true));
    EXPECT_EQ(hi, UINT64_MAX);
    EXPECT_EQ(lo, UINT64_MAX);
    hi = lo = 0;
    EXPECT_FALSE(ulid::step_u128(hi, lo, false));
    EXPECT_EQ(hi, 0u);
    EXPECT_EQ(lo, 0u);

    Ulid top = filled(0xFF);
    EXPECT_FALSE(ulid::step(top, true));
    EXPECT_EQ(top, filled(0xFF));
    Ulid bottom = filled(0x00);
    EXPECT_FALSE(ulid::step(bottom, false));
    EXPECT_EQ(bottom, filled(0x00));
    ASSERT_TRUE(ulid::step(top, false));
    ASSERT_TRUE(ulid::step(top, true));
    EXPECT_EQ(top, filled(0xFF));
}

TEST(Step, CarryAndBorrowChainsOfEveryLength)
{
    // k trailing edge bytes (0xFF up, 0x00 down) after a byte b: b + 1 (b - 1) then k bytes of
    // the other edge, across the timestamp and the halves alike.
    for (bool up : {true, false}) {
        const std::uint8_t edge = up ? 0xFF : 0x00;
        for (int k = 0; k <= 15; ++k) {
            for (int b : {0x01, 0x7F, 0x80, 0xFE}) {
                Ulid v = filled(0x5A);
                for (int i = 0; i < k; ++i)
                    v.bytes[15 - i] = edge;
                v.bytes[15 - k] = static_cast<std::uint8_t>(b);
                Ulid expected = v;
                expected.bytes[15 - k] = static_cast<std::uint8_t>(up ? b + 1 : b - 1);
                for (int i = 0; i < k; ++i)
                    expected.bytes[15 - i] = static_cast<std::uint8_t>(~edge);
                ASSERT_TRUE(ulid::step(v, up)) << "up=" << up << " k=" << k << " b=" << b;
                EXPECT_EQ(v, expected) << "up=" << up << " k=" << k << " b=" << b;
            }
        }
    }
}

TEST(Step, RandomValuesMatchIntegerArithmetic)
{
    std::mt19937_64 rng(0x1AC);
    for (int i = 0; i < 50000; ++i) {
        const bool up = (i & 1) == 0;
        // Force trailing runs of one bits (up) or zero bits (down) so that carries are common.
        const u128 run = (u128{1} << (rng() % 128)) - 1;
        const u128 x = up ? (to_u128(random_ulid(rng)) | run) : (to_u128(random_ulid(rng)) & ~run);
        Ulid v = from_u128(x);
        const bool ok = ulid::step(v, up);
        if (x == (up ? kAllOnes128 : u128{0})) {
            ASSERT_FALSE(ok);
            ASSERT_TRUE(to_u128(v) == x);
        } else {
            ASSERT_TRUE(ok);
            ASSERT_TRUE(to_u128(v) == (up ? x + 1 : x - 1));
        }
    }
}

TEST(Status, EveryEnumeratorHasADistinctName)
{
    const Status all[] = {Status::ok,
                          Status::bad_length,
                          Status::bad_character,
                          Status::overflow,
                          Status::bad_binary_length,
                          Status::time_out_of_range,
                          Status::entropy_overflow,
                          Status::random_failure};
    std::set<std::string> names;
    for (Status s : all) {
        const char *name = ulid::status_name(s);
        ASSERT_NE(name, nullptr);
        EXPECT_GT(std::string(name).size(), 0u);
        EXPECT_STRNE(name, "unknown") << static_cast<int>(s);
        names.insert(name);
    }
    EXPECT_EQ(names.size(), sizeof all / sizeof all[0]);
    EXPECT_STREQ(ulid::status_name(Status::ok), "ok");
}

TEST(Status, OutOfRangeValueStillHasAName)
{
    const char *name = ulid::status_name(static_cast<Status>(200));
    ASSERT_NE(name, nullptr);
    EXPECT_GT(std::string(name).size(), 0u);
}

TEST(UlidValue, FromBytesTakesExactly16)
{
    std::uint8_t raw[32];
    for (int i = 0; i < 32; ++i)
        raw[i] = static_cast<std::uint8_t>(0xA0 + i);
    for (std::size_t n = 0; n <= 32; ++n) {
        ulid::Ulid out;
        std::memset(out.bytes, 0x5A, sizeof out.bytes);
        const ulid::Status s = ulid::from_bytes(raw, n, &out);
        if (n == 16) {
            EXPECT_EQ(s, ulid::Status::ok);
            EXPECT_EQ(0, std::memcmp(out.bytes, raw, 16));
        } else {
            EXPECT_EQ(s, ulid::Status::bad_binary_length) << "length " << n;
            for (std::uint8_t b : out.bytes)
                EXPECT_EQ(b, 0x5A) << "output touched for length " << n;
        }
    }
}
