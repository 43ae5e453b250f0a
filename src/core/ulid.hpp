// The 16-byte ULID value: 48-bit big-endian Unix milliseconds, then 80 bits of entropy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "status.hpp"

namespace ulid {

inline constexpr std::size_t kBytes = 16;        // size of a ULID (and of a uuid)
inline constexpr std::size_t kTimeBytes = 6;     // bytes 0..5: big-endian milliseconds
inline constexpr std::size_t kEntropyBytes = 10; // bytes 6..15: entropy
inline constexpr std::size_t kTextLength = 26;   // characters of Crockford Base32

// Largest millisecond a ULID can hold: 2^48 - 1 (10889-08-02 05:31:50.655 UTC).
inline constexpr std::uint64_t kMaxUnixMs = (std::uint64_t{1} << 48) - 1;

// Plain bytes so that a PostgreSQL datum pointer can be read as a Ulid without copying.
struct Ulid {
    std::uint8_t bytes[kBytes];
};

static_assert(sizeof(Ulid) == kBytes, "a ULID is exactly 16 bytes");
static_assert(alignof(Ulid) == 1, "a ULID has char alignment, like uuid");
static_assert(std::is_trivially_copyable_v<Ulid>, "a ULID is plain bytes");

// Byte order is time order: memcmp is the total order of the type. Returns -1, 0 or 1 (never
// memcmp's raw difference, so callers may negate it safely).
inline int compare(const Ulid &a, const Ulid &b) noexcept
{
    const int r = std::memcmp(a.bytes, b.bytes, kBytes);
    return (r > 0) - (r < 0);
}

inline bool operator==(const Ulid &a, const Ulid &b) noexcept { return compare(a, b) == 0; }
inline bool operator!=(const Ulid &a, const Ulid &b) noexcept { return compare(a, b) != 0; }
inline bool operator<(const Ulid &a, const Ulid &b) noexcept { return compare(a, b) < 0; }

// A ULID from its binary form (wire protocol, bytea): exactly 16 bytes, any value. On any other
// length returns bad_binary_length and leaves *out untouched.
inline Status from_bytes(const std::uint8_t *data, std::size_t length, Ulid *out) noexcept
{
    if (length != kBytes)
        return Status::bad_binary_length;
    std::memcpy(out->bytes, data, kBytes);
    return Status::ok;
}

// Big-endian 64-bit loads and stores (one bswap on little-endian GCC/Clang targets).
inline std::uint64_t load_be64(const std::uint8_t *p) noexcept
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    std::uint64_t v;
    std::memcpy(&v, p, sizeof v);
    return __builtin_bswap64(v);
#else
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v = (v << 8) | p[i];
    return v;
#endif
}

inline void store_be64(std::uint8_t *p, std::uint64_t v) noexcept
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    v = __builtin_bswap64(v);
    std::memcpy(p, &v, sizeof v);
#else
    for (int i = 7; i >= 0; --i) {
        p[i] = static_cast<std::uint8_t>(v);
        v >>= 8;
    }
#endif
}

// One step of a 128-bit unsigned integer held as two halves, hi:lo: plus one when up, minus one
// otherwise, with the carry or borrow between the halves. At the end of the range (all ones up, all
// zeros down) returns false and leaves both halves untouched. The extension's only +1 / -1: the
// monotonic generator's same-millisecond step and B-tree skip support (through step()) use it.
inline bool step_u128(std::uint64_t &hi, std::uint64_t &lo, bool up) noexcept
{
    const std::uint64_t edge = up ? UINT64_MAX : 0;
    if (hi == edge && lo == edge)
        return false;
    if (up) {
        lo += 1;
        hi += lo == 0 ? 1 : 0;
    } else {
        hi -= lo == 0 ? 1 : 0;
        lo -= 1;
    }
    return true;
}

// The next (up) or previous ULID: the 16 bytes as one big-endian 128-bit unsigned integer, plus or
// minus one. False, value untouched, past the largest or below the smallest ULID.
inline bool step(Ulid &value, bool up) noexcept
{
    std::uint64_t hi = load_be64(value.bytes);
    std::uint64_t lo = load_be64(value.bytes + 8);
    if (!step_u128(hi, lo, up))
        return false;
    store_be64(value.bytes, hi);
    store_be64(value.bytes + 8, lo);
    return true;
}

} // namespace ulid
