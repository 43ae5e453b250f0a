// Test-only reference arithmetic shared by the unit tests and the fuzz targets: a ULID as one
// big-endian 128-bit integer and back, written independently of src/core.
#pragma once

#include <cstdint>

#include "core/ulid.hpp"

namespace ulid_reference {

using u128 = unsigned __int128;

inline constexpr u128 kEntropyMask = (u128{1} << 80) - 1;

inline u128 to_u128(const ulid::Ulid &v)
{
    u128 x = 0;
    for (std::uint8_t b : v.bytes)
        x = (x << 8) | b;
    return x;
}

inline ulid::Ulid from_u128(u128 x)
{
    ulid::Ulid v;
    for (int i = 15; i >= 0; --i) {
        v.bytes[i] = static_cast<std::uint8_t>(x & 0xFF);
        x >>= 8;
    }
    return v;
}

} // namespace ulid_reference
