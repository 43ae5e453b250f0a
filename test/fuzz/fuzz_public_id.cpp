// Fuzz target for public ids (src/core/aes.hpp): the first byte picks a key length (0-40 bytes),
// then come the key and 16-byte blocks. With a valid length, every block must round-trip
// (decrypt(encrypt(x)) = x and encrypt(decrypt(x)) = x), encryption must be a function (the same
// block twice gives the same output, also after other keys pushed the key out of the cache) and
// never the identity on all blocks at once; with any other length both directions refuse and leave
// the output untouched. The same bytes, NUL-terminated, go through parse_hex_key against a
// reference parser written here. OpenSSL is linked in (the server has it loaded).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/aes.hpp"
#include "fuzz_util.hpp"

namespace {

using ulid::AesBlockCipher;
using ulid::Status;
using ulid::Ulid;

int hex_digit(char c)
{
    const char *digits = "0123456789abcdef";
    const char *upper = "0123456789ABCDEF";
    for (int i = 0; i < 16; ++i)
        if (c == digits[i] || c == upper[i])
            return i;
    return -1;
}

// The reference: exactly 32 or 64 characters, each a hexadecimal digit.
bool reference_hex(const std::string &s, std::uint8_t *out, std::size_t *n)
{
    if (s.size() != 32 && s.size() != 64)
        return false;
    for (char c : s)
        if (hex_digit(c) < 0)
            return false;
    for (std::size_t i = 0; i < s.size() / 2; ++i)
        out[i] = static_cast<std::uint8_t>(hex_digit(s[2 * i]) * 16 + hex_digit(s[2 * i + 1]));
    *n = s.size() / 2;
    return true;
}

AesBlockCipher cipher;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    // parse_hex_key on the whole input as text (up to its first NUL)
    const std::string text(reinterpret_cast<const char *>(data), strnlen(reinterpret_cast<const char *>(data), size));
    std::uint8_t got[32], want[32];
    std::size_t got_n = 99, want_n = 0;
    const bool parsed = ulid::parse_hex_key(text.c_str(), got, &got_n);
    FUZZ_CHECK(parsed == reference_hex(text, want, &want_n));
    FUZZ_CHECK(parsed ? (got_n == want_n && std::memcmp(got, want, got_n) == 0) : got_n == 0);

    if (size < 1)
        return 0;
    const std::size_t key_length = data[0] % 41;
    if (size < 1 + key_length)
        return 0;
    const std::uint8_t *key = data + 1;
    const std::uint8_t *blocks = key + key_length;
    const std::size_t nblocks = (size - 1 - key_length) / ulid::kBytes;
    const bool valid = ulid::valid_aes_key_length(key_length);
    bool all_identity = nblocks > 0;
    for (std::size_t b = 0; b < nblocks; ++b) {
        Ulid in;
        std::memcpy(in.bytes, blocks + b * ulid::kBytes, ulid::kBytes);
        Ulid enc = in, dec = in, back{}, again{};
        const Status se = cipher.encrypt(key, key_length, in, &enc);
        const Status sd = cipher.decrypt(key, key_length, in, &dec);
        if (!valid) {
            FUZZ_CHECK(se == Status::bad_key_length && sd == Status::bad_key_length);
            FUZZ_CHECK(ulid_fuzz::same(enc, in) && ulid_fuzz::same(dec, in));
            continue;
        }
        FUZZ_CHECK(se == Status::ok && sd == Status::ok);
        FUZZ_CHECK(cipher.decrypt(key, key_length, enc, &back) == Status::ok && ulid_fuzz::same(back, in));
        FUZZ_CHECK(cipher.encrypt(key, key_length, dec, &back) == Status::ok && ulid_fuzz::same(back, in));
        // other keys (each differs from this one in its first byte) push this key out of the cache
        for (std::size_t k = 0; k < AesBlockCipher::kCacheEntries; ++k) {
            std::uint8_t other[32];
            std::memcpy(other, key, key_length);
            other[0] = static_cast<std::uint8_t>(other[0] + 1 + k);
            Ulid ignored{};
            FUZZ_CHECK(cipher.encrypt(other, key_length, in, &ignored) == Status::ok);
        }
        FUZZ_CHECK(cipher.encrypt(key, key_length, in, &again) == Status::ok && ulid_fuzz::same(again, enc));
        all_identity = all_identity && ulid_fuzz::same(enc, in);
    }
    FUZZ_CHECK(!(valid && all_identity && nblocks >= 2));
    return 0;
}
