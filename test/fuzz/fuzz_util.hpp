// Shared by the fuzz targets: a failing check that names itself, and reference helpers written
// independently of src/core (128-bit integers, a bit-by-bit Crockford decoder, canonical text).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "../common/u128.hpp"
#include "core/ulid.hpp"

namespace ulid_fuzz {

// A property violation: print what and where, then abort so that libFuzzer saves the input.
[[noreturn]] inline void fail(const char *file, int line, const char *what)
{
    std::fprintf(stderr, "\nFUZZ CHECK FAILED at %s:%d: %s\n", file, line, what);
    std::fflush(stderr);
    std::abort();
}

#define FUZZ_CHECK(cond)                                                                           \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ::ulid_fuzz::fail(__FILE__, __LINE__, #cond);                                          \
    } while (0)

using ulid_reference::from_u128;
using ulid_reference::kEntropyMask;
using ulid_reference::to_u128;
using ulid_reference::u128;

inline std::uint64_t time_of(const ulid::Ulid &v) { return static_cast<std::uint64_t>(to_u128(v) >> 80); }

inline u128 entropy_of(const ulid::Ulid &v) { return to_u128(v) & kEntropyMask; }

inline bool same(const ulid::Ulid &a, const ulid::Ulid &b)
{
    return std::memcmp(a.bytes, b.bytes, ulid::kBytes) == 0;
}

inline int sign(int x) { return (x > 0) - (x < 0); }

// The alphabet, spelled out here rather than taken from the core.
inline constexpr char kCrockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// Value of a byte as Crockford Base32 (case-insensitive, I/L -> 1, O -> 0), or -1.
inline int ref_digit(std::uint8_t c)
{
    if (c >= 'a' && c <= 'z')
        c = static_cast<std::uint8_t>(c - 'a' + 'A');
    if (c == 'I' || c == 'L')
        return 1;
    if (c == 'O')
        return 0;
    for (int i = 0; i < 32; ++i) {
        if (kCrockford[i] == static_cast<char>(c))
            return i;
    }
    return -1;
}

// The canonical spelling of an accepted character: uppercase, aliases replaced.
inline char ref_canonical(std::uint8_t c) { return kCrockford[ref_digit(c)]; }

// Decodes 26 valid digits (the first <= 7): 3 + 25 * 5 = 128 bits, most significant first.
inline ulid::Ulid ref_decode(const int digits[26])
{
    u128 x = 0;
    for (int i = 0; i < 26; ++i)
        x = (x << 5) | static_cast<u128>(digits[i]);
    return from_u128(x);
}

} // namespace ulid_fuzz
