// The monotonic generator state machine and random_at(), with a fake clock (plain millisecond
// arguments) and a scripted fake random source.
#include <algorithm>
#include <limits>
#include <vector>

#include "core/generator.hpp"
#include "core/timestamp.hpp"
#include "test_util.hpp"

using namespace ulid_test;
using ulid::kMaxUnixMs;
using ulid::MonotonicGenerator;
using ulid::Status;
using ulid::Ulid;

namespace {

const Ulid kSentinel = from_u128((u128{0x0123456789abcdefULL} << 64) | 0xfedcba9876543210ULL);

std::vector<std::uint8_t> entropy_of(const Ulid &v)
{
    return std::vector<std::uint8_t>(v.bytes + 6, v.bytes + 16);
}

} // namespace

// --- the monotonic generator ---------------------------------------------------------------------

TEST(Generator, FirstCallTakesFreshEntropy)
{
    MonotonicGenerator gen;
    FakeRandom rnd;
    rnd.push({0x10, 0x21, 0x32, 0x43, 0x54, 0x65, 0x76, 0x87, 0x98, 0xA9});
    EXPECT_FALSE(gen.started());
    Ulid out = kSentinel;
    ASSERT_EQ(gen.next(1469922850259u, rnd, &out), Status::ok);
    EXPECT_TRUE(gen.started());
    EXPECT_EQ(out, make_ulid(1469922850259u, {0x10, 0x21, 0x32, 0x43, 0x54, 0x65, 0x76, 0x87, 0x98, 0xA9}));
    EXPECT_EQ(rnd.requests, std::vector<std::size_t>{10});
}

TEST(Generator, FirstCallAtTimeZeroAndAtTheMaximum)
{
    for (std::uint64_t ms : {std::uint64_t{0}, kMaxUnixMs}) {
        MonotonicGenerator gen;
        FakeRandom rnd;
        rnd.push({0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        Ulid out = kSentinel;
        ASSERT_EQ(gen.next(ms, rnd, &out), Status::ok) << ms;
        EXPECT_EQ(out, make_ulid(ms, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
        ASSERT_EQ(gen.next(ms, rnd, &out), Status::ok) << ms;
        EXPECT_EQ(out, make_ulid(ms, {0, 0, 0, 0, 0, 0, 0, 0, 0, 1}));
    }
}

TEST(Generator, SameMillisecondAddsOneWithCarry)
{
    MonotonicGenerator gen;
    FakeRandom rnd;
    rnd.push({0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x00, 0xFE});
    Ulid a, b, c, d;
    ASSERT_EQ(gen.next(5000, rnd, &a), Status::ok);
    ASSERT_EQ(gen.next(5000, rnd, &b), Status::ok);
    ASSERT_EQ(gen.next(5000, rnd, &c), Status::ok);
    ASSERT_EQ(gen.next(5000, rnd, &d), Status::ok);
    EXPECT_EQ(a, make_ulid(5000, {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x00, 0xFE}));
    EXPECT_EQ(b, make_ulid(5000, {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x00, 0xFF}));
    EXPECT_EQ(c, make_ulid(5000, {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x01, 0x00}));
    EXPECT_EQ(d, make_ulid(5000, {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x01, 0x01}));
    EXPECT_LT(a, b);
    EXPECT_LT(b, c);
    EXPECT_LT(c, d);
    // Only the first value drew random bytes.
    EXPECT_EQ(rnd.calls, 1u);
}

TEST(Generator, CarryRunsAcrossManyBytesButNeverIntoTheTimestamp)
{
    MonotonicGenerator gen;
    FakeRandom rnd;
    rnd.push({0x00, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF});
    Ulid a, b;
    ASSERT_EQ(gen.next(0xFFFFFFFFFFFEu, rnd, &a), Status::ok);
    ASSERT_EQ(gen.next(0xFFFFFFFFFFFEu, rnd, &b), Status::ok);
    EXPECT_EQ(b, make_ulid(0xFFFFFFFFFFFEu, {0x00, 0x80, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(Generator, ManyIncrementsMatchIntegerAddition)
{
    MonotonicGenerator gen;
    FakeRandom rnd;
    rnd.push({0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xF0});
    Ulid first;
    ASSERT_EQ(gen.next(42, rnd, &first), Status::ok);
    for (unsigned k = 1; k <= 70000; ++k) {
        Ulid v;
        ASSERT_EQ(gen.next(42, rnd, &v), Status::ok);
        ASSERT_TRUE(to_u128(v) == to_u128(first) + k) << k;
    }
}

TEST(Generator, ClockGoingBackwardsKeepsLastMillisecondAndIncrements)
{
    MonotonicGenerator gen;
    FakeRandom rnd;
    rnd.push({9, 9, 9, 9, 9, 9, 9, 9, 9, 0xFF});
    Ulid a, b, c;
    ASSERT_EQ(gen.next(5000, rnd, &a), Status::ok);
    ASSERT_EQ(gen.next(4000, rnd, &b), Status::ok);
    ASSERT_EQ(gen.next(0, rnd, &c), Status::ok);
    EXPECT_EQ(b, make_ulid(5000, {9, 9, 9, 9, 9, 9, 9, 9, 10, 0x00}));
    EXPECT_EQ(c, make_ulid(5000, {9, 9, 9, 9, 9, 9, 9, 9, 10, 0x01}));
    EXPECT_LT(a, b);
    EXPECT_LT(b, c);
    EXPECT_EQ(rnd.calls, 1u);
}

TEST(Generator, LaterMillisecondTakesFreshEntropyEvenIfSmaller)
{
    MonotonicGenerator gen;
    FakeRandom rnd;
    rnd.push({0xF0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00});
    rnd.push({0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01});
    Ulid a, b;
    ASSERT_EQ(gen.next(7000, rnd, &a), Status::ok);
    ASSERT_EQ(gen.next(7001, rnd, &b), Status::ok);
    EXPECT_EQ(b, make_ulid(7001, {0, 0, 0, 0, 0, 0, 0, 0, 0, 1}));
    EXPECT_LT(a, b);
    EXPECT_EQ(rnd.calls, 2u);

    // And after a clock that went back, a time beyond the kept millisecond is fresh again.
    Ulid c, d;
    rnd.push({0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB});
    ASSERT_EQ(gen.next(6000, rnd, &c), Status::ok);
    EXPECT_EQ(ref_ms(c), 7001u);
    ASSERT_EQ(gen.next(9000, rnd, &d), Status::ok);
    EXPECT_EQ(d, make_ulid(9000, {0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB}));
}

TEST(Generator, EntropyOverflowFailsAndLeavesStateUnchanged)
{
    const Ulid full = make_ulid(777, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF});
    MonotonicGenerator gen;
    FakeRandom rnd;
    gen.restore(full);
    EXPECT_TRUE(gen.started());

    Ulid out = kSentinel;
    EXPECT_EQ(gen.next(777, rnd, &out), Status::entropy_overflow);
    EXPECT_EQ(out, kSentinel);
    EXPECT_EQ(gen.next(777, rnd, &out), Status::entropy_overflow);
    EXPECT_EQ(out, kSentinel);
    EXPECT_EQ(gen.next(10, rnd, &out), Status::entropy_overflow); // clock went back: same rule
    EXPECT_EQ(out, kSentinel);
    EXPECT_EQ(rnd.calls, 0u);

    rnd.push({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    ASSERT_EQ(gen.next(778, rnd, &out), Status::ok);
    EXPECT_EQ(out, make_ulid(778, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
}

TEST(Generator, LastValueBeforeOverflowIsServedOnce)
{
    MonotonicGenerator gen;
    FakeRandom rnd;
    gen.restore(make_ulid(777, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFD}));
    Ulid a = kSentinel, b = kSentinel, c = kSentinel;
    ASSERT_EQ(gen.next(777, rnd, &a), Status::ok);
    ASSERT_EQ(gen.next(777, rnd, &b), Status::ok);
    EXPECT_EQ(a, make_ulid(777, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE}));
    EXPECT_EQ(b, make_ulid(777, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}));
    EXPECT_EQ(gen.next(777, rnd, &c), Status::entropy_overflow);
    EXPECT_EQ(c, kSentinel);
}

TEST(Generator, RandomFailureOnFirstCall)
{
    MonotonicGenerator gen;
    FakeRandom rnd;
    rnd.fail = true;
    Ulid out = kSentinel;
    EXPECT_EQ(gen.next(1000, rnd, &out), Status::random_failure);
    EXPECT_EQ(out, kSentinel);
    EXPECT_FALSE(gen.started());

    // Still not started: an earlier time after recovery is taken as is, with fresh entropy.
    rnd.fail = false;
    rnd.push({5, 5, 5, 5, 5, 5, 5, 5, 5, 5});
    ASSERT_EQ(gen.next(900, rnd, &out), Status::ok);
    EXPECT_EQ(out, make_ulid(900, {5, 5, 5, 5, 5, 5, 5, 5, 5, 5}));
}

TEST(Generator, RandomFailureLeavesStateUnchanged)
{
    const Ulid x = make_ulid(100, {1, 1, 1, 1, 1, 1, 1, 1, 1, 0xFF});
    MonotonicGenerator gen;
    FakeRandom rnd;
    gen.restore(x);
    rnd.fail = true;
    Ulid out = kSentinel;
    EXPECT_EQ(gen.next(200, rnd, &out), Status::random_failure);
    EXPECT_EQ(out, kSentinel);
    EXPECT_TRUE(gen.started());

    // The same millisecond needs no randomness, so it succeeds even while the source fails, and
    // it continues from x (the failed call did not move the state to 200).
    ASSERT_EQ(gen.next(100, rnd, &out), Status::ok);
    EXPECT_EQ(out, make_ulid(100, {1, 1, 1, 1, 1, 1, 1, 1, 2, 0x00}));

    rnd.fail = false;
    rnd.push({3, 3, 3, 3, 3, 3, 3, 3, 3, 3});
    ASSERT_EQ(gen.next(200, rnd, &out), Status::ok);
    EXPECT_EQ(out, make_ulid(200, {3, 3, 3, 3, 3, 3, 3, 3, 3, 3}));
}

TEST(Generator, TimeBeyondTheMaximumIsOutOfRange)
{
    for (std::uint64_t bad : {kMaxUnixMs + 1, std::numeric_limits<std::uint64_t>::max()}) {
        MonotonicGenerator gen;
        FakeRandom rnd;
        Ulid out = kSentinel;
        EXPECT_EQ(gen.next(bad, rnd, &out), Status::time_out_of_range);
        EXPECT_EQ(out, kSentinel);
        EXPECT_FALSE(gen.started());

        // With state: the failure leaves it unchanged.
        const Ulid x = make_ulid(kMaxUnixMs - 1, {0, 0, 0, 0, 0, 0, 0, 0, 0, 7});
        gen.restore(x);
        EXPECT_EQ(gen.next(bad, rnd, &out), Status::time_out_of_range);
        EXPECT_EQ(out, kSentinel);
        ASSERT_EQ(gen.next(kMaxUnixMs - 1, rnd, &out), Status::ok);
        EXPECT_EQ(out, make_ulid(kMaxUnixMs - 1, {0, 0, 0, 0, 0, 0, 0, 0, 0, 8}));
    }
}

TEST(Generator, ResetForgetsTheLastValue)
{
    MonotonicGenerator gen;
    FakeRandom rnd;
    Ulid out;
    ASSERT_EQ(gen.next(5000, rnd, &out), Status::ok);
    ASSERT_EQ(gen.next(5000, rnd, &out), Status::ok);
    gen.reset();
    EXPECT_FALSE(gen.started());
    rnd.push({4, 4, 4, 4, 4, 4, 4, 4, 4, 4});
    ASSERT_EQ(gen.next(4000, rnd, &out), Status::ok); // earlier than before, yet fresh
    EXPECT_EQ(out, make_ulid(4000, {4, 4, 4, 4, 4, 4, 4, 4, 4, 4}));
}

TEST(Generator, RestoreSetsTheLastValue)
{
    MonotonicGenerator gen;
    FakeRandom rnd;
    const Ulid x = make_ulid(123456, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    gen.restore(x);
    Ulid out;
    ASSERT_EQ(gen.next(123456, rnd, &out), Status::ok);
    EXPECT_TRUE(to_u128(out) == to_u128(x) + 1);
    ASSERT_EQ(gen.next(100, rnd, &out), Status::ok);
    EXPECT_TRUE(to_u128(out) == to_u128(x) + 2);
    EXPECT_EQ(rnd.calls, 0u);
}

TEST(Generator, StrictlyIncreasingUnderAJitteryClock)
{
    MonotonicGenerator gen;
    FakeRandom rnd(0xC10C);
    std::mt19937_64 clock_rng(0xC10C);
    std::uint64_t clock = 1700000000000u;
    std::uint64_t max_seen = 0;
    Ulid prev{};
    int fresh = 0, bumped = 0, jitter_back = 0, steps_back = 0;
    for (int i = 0; i < 100000; ++i) {
        // A real clock that ticks now and then, read with jitter, and rarely stepped back.
        if (clock_rng() % 5 < 2)
            ++clock;
        if (clock_rng() % 5000 == 0) {
            clock -= 1000;
            ++steps_back;
        }
        std::uint64_t now = clock;
        if (clock_rng() % 10 == 0) {
            now -= 1 + clock_rng() % 50;
            ++jitter_back;
        }
        const std::size_t calls_before = rnd.calls;
        Ulid v = kSentinel;
        ASSERT_EQ(gen.next(now, rnd, &v), Status::ok) << i;
        if (i > 0) {
            ASSERT_LT(prev, v) << "call " << i;
        }
        if (i == 0 || now > max_seen) {
            // A new millisecond: exactly one draw of ten bytes, used as the entropy.
            ASSERT_EQ(rnd.calls, calls_before + 1);
            ASSERT_EQ(entropy_of(v), rnd.last);
            ++fresh;
        } else {
            ASSERT_EQ(rnd.calls, calls_before);
            ASSERT_TRUE(to_u128(v) == to_u128(prev) + 1) << i;
            ++bumped;
        }
        max_seen = std::max(max_seen, now);
        ASSERT_EQ(ref_ms(v), max_seen);
        prev = v;
    }
    EXPECT_GT(fresh, 10000);
    EXPECT_GT(bumped, 10000);
    EXPECT_GT(jitter_back, 5000);
    EXPECT_GT(steps_back, 5);
}

// --- random_at -------------------------------------------------------------------------------------

TEST(RandomAt, TimestampAndFreshEntropy)
{
    FakeRandom rnd;
    rnd.push({0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9});
    Ulid out = kSentinel;
    ASSERT_EQ(ulid::random_at(1469922850259u, rnd, &out), Status::ok);
    EXPECT_EQ(out, make_ulid(1469922850259u, {0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9}));
    EXPECT_EQ(rnd.requests, std::vector<std::size_t>{10});

    // Each call draws again: no increment, even at the same millisecond.
    rnd.push({0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    ASSERT_EQ(ulid::random_at(1469922850259u, rnd, &out), Status::ok);
    EXPECT_EQ(out, make_ulid(1469922850259u, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(rnd.calls, 2u);

    ASSERT_EQ(ulid::random_at(kMaxUnixMs, rnd, &out), Status::ok);
    EXPECT_EQ(ref_ms(out), kMaxUnixMs);
    ASSERT_EQ(ulid::random_at(0, rnd, &out), Status::ok);
    EXPECT_EQ(ref_ms(out), 0u);
}

TEST(RandomAt, Failures)
{
    FakeRandom rnd;
    Ulid out = kSentinel;
    EXPECT_EQ(ulid::random_at(kMaxUnixMs + 1, rnd, &out), Status::time_out_of_range);
    EXPECT_EQ(out, kSentinel);
    rnd.fail = true;
    EXPECT_EQ(ulid::random_at(1000, rnd, &out), Status::random_failure);
    EXPECT_EQ(out, kSentinel);
}
