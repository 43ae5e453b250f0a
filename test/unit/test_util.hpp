// Shared helpers for the core unit tests: 128-bit reference arithmetic, a reference Crockford
// encoder written independently of src/core, and a scriptable fake random source.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <initializer_list>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "../common/u128.hpp"
#include "core/entropy.hpp"
#include "core/ulid.hpp"

namespace ulid {
// Lets GoogleTest print a Ulid as 32 hex digits in failure messages.
inline void PrintTo(const Ulid &v, std::ostream *os)
{
    static const char hex[] = "0123456789abcdef";
    for (std::uint8_t b : v.bytes)
        *os << hex[b >> 4] << hex[b & 15];
}
} // namespace ulid

namespace ulid_test {

using ulid_reference::from_u128;
using ulid_reference::kEntropyMask;
using ulid_reference::to_u128;
using ulid_reference::u128;

inline constexpr u128 kAllOnes128 = ~u128{0};

inline ulid::Ulid filled(std::uint8_t byte)
{
    ulid::Ulid v;
    std::memset(v.bytes, byte, sizeof v.bytes);
    return v;
}

inline ulid::Ulid random_ulid(std::mt19937_64 &rng)
{
    const u128 hi = rng();
    const u128 lo = rng();
    return from_u128((hi << 64) | lo);
}

// A ULID from a timestamp and ten entropy bytes, assembled byte by byte.
inline ulid::Ulid make_ulid(std::uint64_t ms, std::initializer_list<std::uint8_t> entropy)
{
    ulid::Ulid v{};
    for (int i = 5; i >= 0; --i) {
        v.bytes[i] = static_cast<std::uint8_t>(ms & 0xFF);
        ms >>= 8;
    }
    EXPECT_EQ(entropy.size(), 10u);
    std::size_t i = 6;
    for (std::uint8_t b : entropy)
        v.bytes[i++] = b;
    return v;
}

inline std::uint64_t ref_ms(const ulid::Ulid &v) { return static_cast<std::uint64_t>(to_u128(v) >> 80); }
inline u128 ref_entropy(const ulid::Ulid &v) { return to_u128(v) & kEntropyMask; }

// Crockford's alphabet typed out again here on purpose (not ulid::kAlphabet).
inline constexpr char kRefAlphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// Reference encoder: character k holds bits 5*(25-k) .. 5*(25-k)+4 of the 128-bit number
// (the first character therefore holds only the top three bits).
inline std::string ref_encode(u128 x)
{
    std::string s(26, '?');
    for (int k = 0; k < 26; ++k)
        s[k] = kRefAlphabet[static_cast<unsigned>((x >> (5 * (25 - k))) & 31)];
    return s;
}

// Reference digit value of a byte: -1 when it is not accepted.
inline int ref_digit(unsigned char c)
{
    if (c >= 'a' && c <= 'z')
        c = static_cast<unsigned char>(c - 'a' + 'A');
    if (c == 'I' || c == 'L')
        return 1;
    if (c == 'O')
        return 0;
    for (int i = 0; i < 32; ++i)
        if (kRefAlphabet[i] == static_cast<char>(c))
            return i;
    return -1;
}

// Fake random source: serves scripted bytes first, then a seeded pseudo-random stream. It can be
// told to fail; on failure it scribbles over the buffer so that a caller using it anyway shows up.
class FakeRandom final : public ulid::RandomSource {
public:
    explicit FakeRandom(std::uint64_t seed = 1) : rng_(seed) {}

    bool fill(std::uint8_t *out, std::size_t n) noexcept override
    {
        ++calls;
        requests.push_back(n);
        if (fail) {
            std::memset(out, 0xEE, n);
            return false;
        }
        for (std::size_t i = 0; i < n; ++i) {
            if (!script.empty()) {
                out[i] = script.front();
                script.pop_front();
            } else {
                out[i] = static_cast<std::uint8_t>(rng_() >> 56);
            }
        }
        last.assign(out, out + n);
        return true;
    }

    void push(std::initializer_list<std::uint8_t> bytes) { script.insert(script.end(), bytes); }

    std::deque<std::uint8_t> script;
    bool fail = false;
    std::size_t calls = 0;
    std::vector<std::size_t> requests;
    std::vector<std::uint8_t> last; // the bytes of the last successful fill

private:
    std::mt19937_64 rng_;
};

} // namespace ulid_test
