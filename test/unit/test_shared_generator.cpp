// The server-wide generator (SharedGenerator): no random bytes when the millisecond repeats, the
// stale-hint and the nothing-drawn races made deterministic with a scripted lock, and real threads.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "core/shared_generator.hpp"
#include "test_util.hpp"

using namespace ulid_test;
using ulid::Status;
using ulid::Ulid;

namespace {

const Ulid kUnset = filled(0xC3);

// A lock for one thread that says whether it is held, checks lock/unlock pairing, and can run a
// scripted action (another backend's call, which takes the lock itself) just before its k-th
// acquisition.
class ScriptedLock {
public:
    void lock() noexcept
    {
        EXPECT_FALSE(held);
        ++acquisitions;
        if (before_lock && acquisitions == before_acquisition)
            before_lock();
        held = true;
    }
    void unlock() noexcept
    {
        EXPECT_TRUE(held);
        held = false;
    }

    bool held = false;
    int acquisitions = 0;
    int before_acquisition = 0;
    std::function<void()> before_lock;
};

// A random source that records whether the lock was held when it was asked.
class LockCheckingRandom final : public ulid::RandomSource {
public:
    LockCheckingRandom(FakeRandom &inner, const ScriptedLock &lock) : inner_(inner), lock_(lock) {}
    bool fill(std::uint8_t *out, std::size_t n) noexcept override
    {
        if (lock_.held)
            ++calls_under_lock;
        return inner_.fill(out, n);
    }
    int calls_under_lock = 0;

private:
    FakeRandom &inner_;
    const ScriptedLock &lock_;
};

// One generator, its lock, a scripted random source and the same source checked against the lock.
class SharedGeneratorTest : public ::testing::Test {
protected:
    ulid::SharedGenerator<ScriptedLock> gen;
    ScriptedLock &lock = gen.lock();
    FakeRandom rnd;
    LockCheckingRandom checked{rnd, lock};
};

} // namespace

TEST_F(SharedGeneratorTest, RepeatedMillisecondDrawsNoRandomBytes)
{
    rnd.push({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    Ulid a, b, c;
    ASSERT_EQ(gen.next(1000, checked, &a), Status::ok);
    EXPECT_EQ(a, make_ulid(1000, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
    EXPECT_EQ(rnd.calls, 1u);
    EXPECT_EQ(gen.last_ms_hint(), 1000u);

    ASSERT_EQ(gen.next(1000, checked, &b), Status::ok); // same millisecond
    ASSERT_EQ(gen.next(999, checked, &c), Status::ok);  // the clock went back
    EXPECT_EQ(rnd.calls, 1u) << "a repeated (or earlier) millisecond drew random bytes";
    EXPECT_TRUE(to_u128(b) == to_u128(a) + 1);
    EXPECT_TRUE(to_u128(c) == to_u128(a) + 2);
    EXPECT_EQ(gen.last_ms_hint(), 1000u);
    EXPECT_EQ(lock.acquisitions, 3);
    EXPECT_FALSE(lock.held);
    EXPECT_EQ(checked.calls_under_lock, 0);
}

TEST_F(SharedGeneratorTest, NewMillisecondDrawsFreshBytesBeforeLocking)
{
    rnd.push({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0});
    rnd.push({0, 0, 0, 0, 0, 0, 0, 0, 0, 7});
    Ulid a, b;
    ASSERT_EQ(gen.next(1000, checked, &a), Status::ok);
    ASSERT_EQ(gen.next(1001, checked, &b), Status::ok);
    EXPECT_EQ(b, make_ulid(1001, {0, 0, 0, 0, 0, 0, 0, 0, 0, 7}));
    EXPECT_LT(a, b);
    EXPECT_EQ(rnd.calls, 2u);
    EXPECT_EQ(rnd.requests, (std::vector<std::size_t>{10, 10}));
    EXPECT_EQ(gen.last_ms_hint(), 1001u);
    EXPECT_EQ(lock.acquisitions, 2); // one acquisition per call: the bytes were drawn before it
    EXPECT_EQ(checked.calls_under_lock, 0);
}

TEST_F(SharedGeneratorTest, StaleHintWastesTheDrawButNeverTheOrder)
{
    // Between our hint read (1000) and our lock, another backend takes millisecond 1001: our bytes,
    // drawn for 1001, are not used; we step from the other backend's value.
    Ulid first, other, ours;
    ASSERT_EQ(gen.next(1000, checked, &first), Status::ok);

    lock.before_acquisition = 2;
    lock.before_lock = [&] {
        rnd.push({0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50});
        ASSERT_EQ(gen.next(1001, rnd, &other), Status::ok);
    };
    rnd.push({0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA}); // our early draw
    ASSERT_EQ(gen.next(1001, checked, &ours), Status::ok);
    EXPECT_EQ(other, make_ulid(1001, {0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50}));
    EXPECT_TRUE(to_u128(ours) == to_u128(other) + 1) << "stepped from the other backend's value";
    EXPECT_LT(first, other);
    EXPECT_EQ(rnd.calls, 3u); // first, ours (wasted), the other backend's
    EXPECT_EQ(checked.calls_under_lock, 0);
    EXPECT_FALSE(lock.held);
}

TEST_F(SharedGeneratorTest, NothingDrawnButNewMillisecondNeededRetriesOnce)
{
    // The one case where the hint cannot tell: before the first value, hint and clock both 0.
    rnd.push({9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
    Ulid a;
    ASSERT_EQ(gen.next(0, checked, &a), Status::ok);
    EXPECT_EQ(a, make_ulid(0, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
    EXPECT_EQ(lock.acquisitions, 2); // released to draw, taken again
    EXPECT_EQ(rnd.calls, 1u);
    EXPECT_EQ(checked.calls_under_lock, 0);
    Ulid b;
    ASSERT_EQ(gen.next(0, checked, &b), Status::ok);
    EXPECT_TRUE(to_u128(b) == to_u128(a) + 1);
    EXPECT_EQ(rnd.calls, 1u);
}

TEST_F(SharedGeneratorTest, RetryWhileAnotherBackendMovesOn)
{
    // We release the lock to draw; meanwhile another backend takes millisecond 5. Our retry then
    // steps from its value: the bytes we drew are wiped unused, and the order holds.
    Ulid other, ours;
    lock.before_acquisition = 2;
    lock.before_lock = [&] { ASSERT_EQ(gen.next(5, rnd, &other), Status::ok); };
    ASSERT_EQ(gen.next(0, rnd, &ours), Status::ok);
    EXPECT_EQ(ulid_test::ref_ms(other), 5u);
    EXPECT_TRUE(to_u128(ours) == to_u128(other) + 1);
    EXPECT_EQ(rnd.calls, 2u);
    EXPECT_EQ(gen.last_ms_hint(), 5u);
}

TEST_F(SharedGeneratorTest, RetryWhereAnotherBackendTookTheSameNewMillisecond)
{
    // Both start at clock 0 before any value; the other gets there first while we draw.
    Ulid other, ours;
    lock.before_acquisition = 2;
    lock.before_lock = [&] { ASSERT_EQ(gen.next(0, rnd, &other), Status::ok); };
    ASSERT_EQ(gen.next(0, rnd, &ours), Status::ok);
    EXPECT_TRUE(to_u128(ours) == to_u128(other) + 1);
}

TEST_F(SharedGeneratorTest, RandomFailureBeforeLockingChangesNothing)
{
    Ulid a;
    ASSERT_EQ(gen.next(1000, rnd, &a), Status::ok);
    rnd.fail = true;
    Ulid out = filled(0xC3);
    EXPECT_EQ(gen.next(1001, rnd, &out), Status::random_failure);
    EXPECT_EQ(out, filled(0xC3));
    EXPECT_EQ(lock.acquisitions, 1); // never locked
    EXPECT_EQ(gen.last_ms_hint(), 1000u);
    // The same millisecond needs no random bytes, so a failing source does not matter.
    Ulid b;
    EXPECT_EQ(gen.next(1000, rnd, &b), Status::ok);
    EXPECT_TRUE(to_u128(b) == to_u128(a) + 1);
}

TEST_F(SharedGeneratorTest, RandomFailureInTheRetryReleasesTheLock)
{
    rnd.fail = true;
    Ulid out = filled(0xC3);
    EXPECT_EQ(gen.next(0, rnd, &out), Status::random_failure);
    EXPECT_EQ(out, filled(0xC3));
    EXPECT_FALSE(lock.held);
    EXPECT_EQ(lock.acquisitions, 1);
    EXPECT_EQ(gen.last_ms_hint(), 0u);
    rnd.fail = false;
    EXPECT_EQ(gen.next(0, rnd, &out), Status::ok);
}

TEST_F(SharedGeneratorTest, OverflowAndTimeRangeKeepTheStateAndHint)
{
    rnd.push({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE});
    Ulid a, b, out = filled(0xC3);
    ASSERT_EQ(gen.next(77, rnd, &a), Status::ok);
    ASSERT_EQ(gen.next(77, rnd, &b), Status::ok);
    EXPECT_EQ(gen.next(77, rnd, &out), Status::entropy_overflow);
    EXPECT_EQ(out, filled(0xC3));
    EXPECT_FALSE(lock.held);
    EXPECT_EQ(gen.next(ulid::kMaxUnixMs + 1, rnd, &out), Status::time_out_of_range);
    EXPECT_EQ(out, filled(0xC3));
    EXPECT_EQ(gen.last_ms_hint(), 77u);
    Ulid c;
    ASSERT_EQ(gen.next(78, rnd, &c), Status::ok);
    EXPECT_LT(b, c);
}

namespace {

// A mutex that checks the global order while it is still held: the value a thread's call wrote
// under it (into that thread's slot, preset to kUnset) must exceed the last value anyone got.
class OrderLock {
public:
    void lock() noexcept { m_.lock(); }
    void unlock() noexcept
    {
        if (slot != nullptr && *slot != kUnset) {
            if (!(last_handed_out_ < *slot))
                ++violations;
            last_handed_out_ = *slot;
        }
        m_.unlock();
    }

    static thread_local Ulid *slot;
    int violations = 0; // read after the threads have ended

private:
    std::mutex m_;
    Ulid last_handed_out_ = filled(0);
};

thread_local Ulid *OrderLock::slot = nullptr;

} // namespace

TEST(SharedGenerator, ThreadsRacingAcrossMillisecondsNeverRepeatOrGoBack)
{
    // Four threads share one generator; the clock is a counter that every call moves on, so calls
    // keep crossing millisecond boundaries (and now and then read a clock 3 ms behind).
    ulid::SharedGenerator<OrderLock> gen;
    std::atomic<std::uint64_t> ticks{0};
    std::atomic<int> failures{0};
    constexpr int kThreads = 4;
    constexpr int kCalls = 20000;
    std::vector<std::vector<Ulid>> got(kThreads);
    std::vector<std::size_t> draws(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            FakeRandom rnd(static_cast<std::uint64_t>(t) + 1);
            Ulid v;
            OrderLock::slot = &v;
            got[t].reserve(kCalls);
            for (int i = 0; i < kCalls; ++i) {
                std::uint64_t now = 1700000000000u + ticks.fetch_add(1) / 7;
                if (i % 101 == 0)
                    now -= 3;
                v = kUnset;
                if (gen.next(now, rnd, &v) != Status::ok) {
                    ++failures;
                    return;
                }
                got[t].push_back(v);
            }
            draws[t] = rnd.calls;
        });
    }
    for (auto &th : threads)
        th.join();
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(gen.lock().violations, 0) << "a value was not above the one handed out before it";
    std::vector<Ulid> all;
    std::size_t total_draws = 0;
    for (int t = 0; t < kThreads; ++t) {
        const auto &g = got[t];
        for (std::size_t i = 1; i < g.size(); ++i)
            ASSERT_LT(g[i - 1], g[i]) << "a thread's values went back";
        all.insert(all.end(), g.begin(), g.end());
        total_draws += draws[t];
    }
    ASSERT_EQ(all.size(), std::size_t{kThreads} * kCalls);
    std::sort(all.begin(), all.end());
    EXPECT_TRUE(std::adjacent_find(all.begin(), all.end()) == all.end()) << "a value was repeated";
    // A thread draws only for a millisecond later than the hint it read, and after its own call the
    // hint has reached that millisecond: at most one draw per thread and millisecond (~45,700 of
    // the 80,000 calls), whatever the interleaving.
    const std::size_t milliseconds = ticks.load() / 7 + 1;
    EXPECT_LE(total_draws, std::size_t{kThreads} * milliseconds);
    EXPECT_LT(std::size_t{kThreads} * milliseconds, std::size_t{kThreads} * kCalls);
}
