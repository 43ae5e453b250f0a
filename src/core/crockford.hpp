// Crockford Base32 codec: a ULID to its 26 characters and back, table-driven.
#pragma once

#include <cstddef>
#include <cstdint>

#include "status.hpp"
#include "ulid.hpp"

namespace ulid {

inline constexpr char kAlphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// Why a decode failed. position is 1-based (as a user counts characters); byte is the offending byte.
struct DecodeError {
    Status status = Status::ok;
    std::size_t length = 0;    // length of the input in bytes
    std::size_t position = 0;  // for bad_character and overflow
    std::uint8_t byte = 0;     // for bad_character and overflow
};

// Writes exactly 26 uppercase characters (no terminator).
void encode(const Ulid &value, char out[kTextLength]) noexcept;

// Reads exactly 26 characters, case-insensitive, I/L read as 1 and O as 0. On failure returns the
// status, fills *error (when not null) and leaves *out untouched.
Status decode(const char *text, std::size_t length, Ulid *out, DecodeError *error) noexcept;

// Value of one character in the decoding table, or -1 when the byte is not accepted.
int decode_char(std::uint8_t c) noexcept;

} // namespace ulid
