// The read-ahead entropy pool and secure_wipe().
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "core/entropy.hpp"
#include "core/generator.hpp"
#include "test_util.hpp"

using namespace ulid_test;
using ulid::EntropyPool;

namespace {

constexpr std::size_t kBlock = EntropyPool::kBlock;

// A deterministic, non-periodic byte stream: byte k of stream `seed` (splitmix64 of seed and k).
std::uint8_t stream_byte(std::uint64_t seed, std::uint64_t k)
{
    std::uint64_t z = seed * 0x9E3779B97F4A7C15ULL + k * 0xBF58476D1CE4E5B9ULL + 0x94D049BB133111EBULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return static_cast<std::uint8_t>(z ^ (z >> 31));
}

std::vector<std::uint8_t> stream(std::uint64_t seed, std::size_t from, std::size_t n)
{
    std::vector<std::uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = stream_byte(seed, from + i);
    return v;
}

// An upstream source that hands out its stream in order and counts how it is asked.
class CountingUpstream final : public ulid::RandomSource {
public:
    explicit CountingUpstream(std::uint64_t seed = 1) : seed(seed) {}

    bool fill(std::uint8_t *out, std::size_t n) noexcept override
    {
        ++calls;
        sizes.push_back(n);
        if (fail)
            return false;
        for (std::size_t i = 0; i < n; ++i)
            out[i] = stream_byte(seed, offset + i);
        offset += n;
        return true;
    }

    std::uint64_t seed;
    std::size_t offset = 0; // bytes handed out so far
    std::size_t calls = 0;
    std::vector<std::size_t> sizes;
    bool fail = false;
};

// An upstream that fills every request with one byte value.
class ConstantUpstream final : public ulid::RandomSource {
public:
    explicit ConstantUpstream(std::uint8_t byte) : byte_(byte) {}
    bool fill(std::uint8_t *out, std::size_t n) noexcept override
    {
        std::memset(out, byte_, n);
        return true;
    }

private:
    std::uint8_t byte_;
};

std::vector<std::uint8_t> draw(EntropyPool &pool, std::size_t n, bool expect_ok = true)
{
    std::vector<std::uint8_t> out(n + 1, 0xCC);
    const bool ok = pool.fill(out.data(), n);
    EXPECT_EQ(ok, expect_ok) << "fill(" << n << ")";
    EXPECT_EQ(out[n], 0xCC) << "fill(" << n << ") wrote past the end";
    out.resize(n);
    return out;
}

// How many bytes equal to `byte` the pool object itself holds.
std::size_t count_in_object(const EntropyPool &pool, std::uint8_t byte)
{
    const auto *p = reinterpret_cast<const unsigned char *>(&pool);
    return static_cast<std::size_t>(std::count(p, p + sizeof pool, byte));
}

} // namespace

TEST(EntropyPool, NothingIsReadUntilTheFirstRequest)
{
    CountingUpstream up;
    EntropyPool pool(up);
    EXPECT_EQ(up.calls, 0u);
    EXPECT_EQ(pool.available(), 0u);
    std::uint8_t b = 0;
    EXPECT_TRUE(pool.fill(&b, 0)); // an empty request reads nothing either
    EXPECT_EQ(up.calls, 0u);
}

TEST(EntropyPool, ServesTheUpstreamStreamInOrderAcrossBlocks)
{
    CountingUpstream up(7);
    auto pool = std::make_unique<EntropyPool>(up);
    const std::size_t sizes[] = {1, 7, 10, 16, 333, 4095, 4096, 2, 10, 1000, 3000, 95, 10, 4096, 1};
    std::vector<std::uint8_t> got;
    std::size_t total = 0;
    for (int round = 0; round < 3; ++round) {
        for (std::size_t n : sizes) {
            const auto part = draw(*pool, n);
            got.insert(got.end(), part.begin(), part.end());
            total += n;
            // Blocks read so far: just enough to cover what was served.
            const std::size_t blocks = (total + kBlock - 1) / kBlock;
            ASSERT_EQ(up.calls, blocks) << "after " << total << " bytes";
            ASSERT_EQ(pool->available(), blocks * kBlock - total);
        }
    }
    EXPECT_EQ(got, stream(7, 0, total));
    for (std::size_t s : up.sizes)
        EXPECT_EQ(s, kBlock);
}

TEST(EntropyPool, TenByteDrawsShareBlocks)
{
    CountingUpstream up(8);
    auto pool = std::make_unique<EntropyPool>(up);
    std::vector<std::uint8_t> got;
    for (int i = 0; i < 2000; ++i) {
        const auto part = draw(*pool, 10);
        got.insert(got.end(), part.begin(), part.end());
    }
    EXPECT_EQ(got, stream(8, 0, 20000));
    EXPECT_EQ(up.calls, (20000 + kBlock - 1) / kBlock);
}

TEST(EntropyPool, ExactlyOneBlockIsServedFromThePool)
{
    CountingUpstream up(9);
    auto pool = std::make_unique<EntropyPool>(up);
    EXPECT_EQ(draw(*pool, kBlock), stream(9, 0, kBlock));
    EXPECT_EQ(up.sizes, std::vector<std::size_t>{kBlock});
    EXPECT_EQ(pool->available(), 0u);
    EXPECT_EQ(draw(*pool, 1), stream(9, kBlock, 1));
    EXPECT_EQ(up.calls, 2u);
}

TEST(EntropyPool, RequestsLargerThanABlockBypassThePool)
{
    CountingUpstream up(10);
    auto pool = std::make_unique<EntropyPool>(up);
    EXPECT_EQ(draw(*pool, kBlock + 1), stream(10, 0, kBlock + 1));
    EXPECT_EQ(up.sizes, std::vector<std::size_t>{kBlock + 1});
    EXPECT_EQ(pool->available(), 0u);

    // With bytes buffered, a large request still goes straight upstream and the buffer is kept.
    EXPECT_EQ(draw(*pool, 10), stream(10, kBlock + 1, 10));
    EXPECT_EQ(pool->available(), kBlock - 10);
    EXPECT_EQ(draw(*pool, 10000), stream(10, 2 * kBlock + 1, 10000));
    EXPECT_EQ(up.sizes, (std::vector<std::size_t>{kBlock + 1, kBlock, 10000}));
    EXPECT_EQ(pool->available(), kBlock - 10);
    EXPECT_EQ(draw(*pool, 5), stream(10, kBlock + 1 + 10, 5));
}

TEST(EntropyPool, UpstreamFailureReturnsFalse)
{
    CountingUpstream up(11);
    auto pool = std::make_unique<EntropyPool>(up);
    up.fail = true;
    draw(*pool, 10, false);
    EXPECT_EQ(pool->available(), 0u);
    draw(*pool, kBlock + 5, false); // the bypass path fails too
    up.fail = false;
    EXPECT_EQ(draw(*pool, 10), stream(11, 0, 10));
    EXPECT_EQ(pool->available(), kBlock - 10);
}

TEST(EntropyPool, FailureWhileRefillingNeverServesBytesTwice)
{
    CountingUpstream up(12);
    auto pool = std::make_unique<EntropyPool>(up);
    EXPECT_EQ(draw(*pool, kBlock - 5), stream(12, 0, kBlock - 5));
    up.fail = true;
    draw(*pool, 10, false); // 5 buffered bytes, then the refill fails
    up.fail = false;
    // Whatever the failed call did with the last 5 bytes, they are not handed out again.
    const auto next = draw(*pool, 10);
    EXPECT_EQ(next, stream(12, kBlock, 10));
}

TEST(EntropyPool, DiscardMakesTheNextFillReadAFreshBlock)
{
    CountingUpstream up(13);
    auto pool = std::make_unique<EntropyPool>(up);
    EXPECT_EQ(draw(*pool, 10), stream(13, 0, 10));
    EXPECT_EQ(pool->available(), kBlock - 10);
    pool->discard();
    EXPECT_EQ(pool->available(), 0u);
    EXPECT_EQ(up.calls, 1u);
    EXPECT_EQ(draw(*pool, 16), stream(13, kBlock, 16)); // not stream(13, 10, 16)
    EXPECT_EQ(up.calls, 2u);
    EXPECT_EQ(pool->available(), kBlock - 16);

    pool->discard();
    pool->discard(); // idempotent, and reads nothing
    EXPECT_EQ(up.calls, 2u);
    EXPECT_EQ(pool->available(), 0u);
}

TEST(EntropyPool, ACopyThatDiscardsNeverReusesTheOriginalsBytes)
{
    // fork() copies the pool's memory; model it with a byte copy of the object.
    CountingUpstream up(14);
    auto parent = std::make_unique<EntropyPool>(up);
    draw(*parent, 10);
    auto child = std::make_unique<EntropyPool>(*parent);
    auto careless = std::make_unique<EntropyPool>(*parent);

    // The hazard: a copy that does not discard serves exactly the parent's next bytes.
    EXPECT_EQ(draw(*careless, 32), stream(14, 10, 32));

    child->discard();
    const auto child_bytes = draw(*child, 32);
    const auto parent_bytes = draw(*parent, 32);
    EXPECT_EQ(parent_bytes, stream(14, 10, 32));
    EXPECT_EQ(child_bytes, stream(14, kBlock, 32));
    EXPECT_NE(child_bytes, parent_bytes);
}

TEST(EntropyPool, ForkedChildThatDiscardsGetsFreshBytes)
{
    CountingUpstream up(15);
    auto pool = std::make_unique<EntropyPool>(up);
    draw(*pool, 10); // the parent has read ahead

    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        up.seed = 99; // the child's own randomness (a real CSPRNG differs per process)
        up.offset = 0;
        pool->discard();
        std::uint8_t buf[32];
        const bool ok = pool->fill(buf, sizeof buf);
        const bool written = ok && write(fds[1], buf, sizeof buf) == static_cast<ssize_t>(sizeof buf);
        _exit(written ? 0 : 1);
    }
    close(fds[1]);
    std::vector<std::uint8_t> child_bytes(32);
    std::size_t got = 0;
    while (got < child_bytes.size()) {
        const ssize_t r = read(fds[0], child_bytes.data() + got, child_bytes.size() - got);
        if (r <= 0)
            break;
        got += static_cast<std::size_t>(r);
    }
    close(fds[0]);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
    ASSERT_EQ(got, 32u);

    EXPECT_EQ(child_bytes, stream(99, 0, 32));
    const auto parent_bytes = draw(*pool, 32);
    EXPECT_EQ(parent_bytes, stream(15, 10, 32));
    // None of the parent's buffered bytes (a run of 8 would be a coincidence of 2^-64) appear.
    const auto parent_block = stream(15, 0, kBlock);
    for (std::size_t i = 0; i + 8 <= 32; ++i)
        EXPECT_EQ(std::search(parent_block.begin(), parent_block.end(), child_bytes.begin() + i,
                              child_bytes.begin() + i + 8),
                  parent_block.end());
}

TEST(EntropyPool, ServedAndDiscardedBytesAreWipedFromThePool)
{
    // The upstream fills with 0xA5; count 0xA5 bytes left in the pool object's memory. The pool's
    // other fields (a pointer and a count) can hold a few such bytes by chance, hence the slack.
    constexpr std::size_t kSlack = 16;
    ConstantUpstream up(0xA5);
    auto pool = std::make_unique<EntropyPool>(up);
    EXPECT_LE(count_in_object(*pool, 0xA5), kSlack);

    std::uint8_t buf[100];
    ASSERT_TRUE(pool->fill(buf, sizeof buf));
    EXPECT_EQ(std::count(buf, buf + sizeof buf, 0xA5), 100);
    const std::size_t left = count_in_object(*pool, 0xA5);
    EXPECT_GE(left, kBlock - 100);
    EXPECT_LE(left, kBlock - 100 + kSlack);

    ASSERT_TRUE(pool->fill(buf, sizeof buf));
    EXPECT_LE(count_in_object(*pool, 0xA5), kBlock - 200 + kSlack);

    pool->discard();
    EXPECT_LE(count_in_object(*pool, 0xA5), kSlack);
}

TEST(SecureWipe, ZeroesExactlyTheGivenRange)
{
    std::uint8_t buf[64];
    std::memset(buf, 0x5C, sizeof buf);
    ulid::secure_wipe(buf + 8, 40);
    for (std::size_t i = 0; i < sizeof buf; ++i)
        EXPECT_EQ(buf[i], (i >= 8 && i < 48) ? 0 : 0x5C) << i;
    ulid::secure_wipe(buf, 0); // nothing
    EXPECT_EQ(buf[0], 0x5C);
    ulid::secure_wipe(buf, sizeof buf);
    for (std::uint8_t b : buf)
        EXPECT_EQ(b, 0);

    auto heap = std::make_unique<std::uint8_t[]>(4096);
    std::memset(heap.get(), 0xFF, 4096);
    ulid::secure_wipe(heap.get(), 4096);
    EXPECT_EQ(std::count(heap.get(), heap.get() + 4096, 0), 4096);
}

TEST(PrefetchedRandom, ServesTheDrawnBytesExactlyOnce)
{
    FakeRandom upstream;
    upstream.push({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    ulid::PrefetchedRandom pre;
    ASSERT_TRUE(pre.draw(upstream));
    std::uint8_t out[10] = {};
    ASSERT_TRUE(pre.fill(out, sizeof out));
    const std::uint8_t want[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    EXPECT_EQ(0, std::memcmp(out, want, sizeof out));
    // A second request fails: the same bytes are never served twice.
    EXPECT_FALSE(pre.fill(out, sizeof out));
}

TEST(PrefetchedRandom, RefusesOtherSizesAndUndrawnState)
{
    ulid::PrefetchedRandom pre;
    std::uint8_t out[16] = {};
    EXPECT_FALSE(pre.fill(out, 10)); // nothing drawn yet
    FakeRandom upstream;
    upstream.push({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    ASSERT_TRUE(pre.draw(upstream));
    EXPECT_FALSE(pre.fill(out, 9));
    EXPECT_FALSE(pre.fill(out, 16));
    EXPECT_TRUE(pre.fill(out, 10));
}

TEST(PrefetchedRandom, FailedDrawServesNothing)
{
    FakeRandom upstream;
    upstream.fail = true;
    ulid::PrefetchedRandom pre;
    EXPECT_FALSE(pre.draw(upstream));
    std::uint8_t out[10] = {};
    EXPECT_FALSE(pre.fill(out, sizeof out));
}

TEST(PrefetchedRandom, WipeDiscardsTheDraw)
{
    FakeRandom upstream;
    upstream.push({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    ulid::PrefetchedRandom pre;
    ASSERT_TRUE(pre.draw(upstream));
    pre.wipe();
    std::uint8_t out[10] = {};
    EXPECT_FALSE(pre.fill(out, sizeof out));
}

TEST(PrefetchedRandom, DrivesTheGeneratorOnlyForAFreshMillisecond)
{
    ulid::MonotonicGenerator gen;
    FakeRandom upstream;
    upstream.push({0, 0, 0, 0, 0, 0, 0, 0, 0, 7});
    ulid::PrefetchedRandom pre;
    ASSERT_TRUE(pre.draw(upstream));
    ulid::Ulid a{}, b{};
    ASSERT_EQ(gen.next(100, pre, &a), ulid::Status::ok);
    // Same millisecond: the generator increments and does not need the (now used) draw.
    ASSERT_EQ(gen.next(100, pre, &b), ulid::Status::ok);
    EXPECT_LT(a, b);
    // A later millisecond with no fresh draw is a random failure, and the state stays.
    ulid::Ulid c = b;
    EXPECT_EQ(gen.next(101, pre, &c), ulid::Status::random_failure);
    EXPECT_EQ(c, b);
}
