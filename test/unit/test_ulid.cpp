// The value type (ulid.hpp) and status names (status.hpp).
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
