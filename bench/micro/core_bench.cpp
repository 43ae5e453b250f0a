// Google Benchmark of the pure core: codec, clock, generator steps (no PostgreSQL involved).
#include <benchmark/benchmark.h>

#include <array>
#include <cstring>
#include <random>
#include <vector>

#include "core/crockford.hpp"
#include "core/generator.hpp"
#include "core/timestamp.hpp"

namespace {

class CountingRandom final : public ulid::RandomSource {
public:
    bool fill(std::uint8_t *out, std::size_t n) noexcept override
    {
        for (std::size_t i = 0; i < n; ++i)
            out[i] = static_cast<std::uint8_t>(state_ += 0x9E3779B97F4A7C15ULL) ;
        return true;
    }

private:
    std::uint64_t state_ = 1;
};

std::vector<ulid::Ulid> random_values(std::size_t n)
{
    std::mt19937_64 rng(42);
    std::vector<ulid::Ulid> v(n);
    for (auto &u : v) {
        ulid::store_be64(u.bytes, rng() >> 1);
        ulid::store_be64(u.bytes + 8, rng());
    }
    return v;
}

void BM_Encode(benchmark::State &state)
{
    const auto values = random_values(1024);
    char out[26];
    std::size_t i = 0;
    for (auto _ : state) {
        ulid::encode(values[i++ & 1023], out);
        benchmark::DoNotOptimize(out);
    }
}
BENCHMARK(BM_Encode);

void BM_Decode(benchmark::State &state)
{
    const auto values = random_values(1024);
    std::vector<std::array<char, 26>> texts(1024);
    for (std::size_t i = 0; i < 1024; ++i)
        ulid::encode(values[i], texts[i].data());
    ulid::Ulid out;
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(ulid::decode(texts[i++ & 1023].data(), 26, &out, nullptr));
        benchmark::DoNotOptimize(out);
    }
}
BENCHMARK(BM_Decode);

void BM_SystemClock(benchmark::State &state)
{
    for (auto _ : state)
        benchmark::DoNotOptimize(ulid::system_unix_ms());
}
BENCHMARK(BM_SystemClock);

// The common case of gen_ulid(): many calls within one millisecond.
void BM_GeneratorSameMs(benchmark::State &state)
{
    ulid::MonotonicGenerator gen;
    CountingRandom random;
    ulid::Ulid out;
    for (auto _ : state) {
        benchmark::DoNotOptimize(gen.next(1000, random, &out));
        benchmark::DoNotOptimize(out);
    }
}
BENCHMARK(BM_GeneratorSameMs);

void BM_GeneratorFreshMs(benchmark::State &state)
{
    ulid::MonotonicGenerator gen;
    CountingRandom random;
    ulid::Ulid out;
    std::uint64_t ms = 1000;
    for (auto _ : state) {
        benchmark::DoNotOptimize(gen.next(++ms, random, &out));
        benchmark::DoNotOptimize(out);
    }
}
BENCHMARK(BM_GeneratorFreshMs);

void BM_RandomAt(benchmark::State &state)
{
    CountingRandom random;
    ulid::Ulid out;
    for (auto _ : state) {
        benchmark::DoNotOptimize(ulid::random_at(1000, random, &out));
        benchmark::DoNotOptimize(out);
    }
}
BENCHMARK(BM_RandomAt);

} // namespace

BENCHMARK_MAIN();
