// Status codes returned by the core instead of exceptions; the glue maps each to a SQLSTATE.
#pragma once

#include <cstdint>

namespace ulid {

enum class Status : std::uint8_t {
    ok = 0,
    bad_length,         // text is not exactly 26 characters           -> 22P02
    bad_character,      // a byte outside the Crockford alphabet         -> 22P02
    overflow,           // first character above '7' (more than 128 bits) -> 22P02
    bad_binary_length,  // binary/bytea input that is not 16 bytes      -> 22P03
    time_out_of_range,  // before 1970, after 2^48-1 ms, or infinite     -> 22008
    entropy_overflow,   // monotonic increment ran past 80 bits          -> 54000
    random_failure,     // the random source failed                      -> XX000
    bad_key_length,     // an AES key that is not 16 or 32 bytes         -> 22023
    cipher_unavailable, // the process has no OpenSSL to run AES with    -> 0A000
    cipher_failure,     // OpenSSL failed to set up or run the cipher     -> XX000
};

// A short, stable name for logs and test failure messages.
const char *status_name(Status s) noexcept;

} // namespace ulid
