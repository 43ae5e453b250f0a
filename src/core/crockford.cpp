// Crockford Base32 encoder and decoder for ULIDs.
#include "crockford.hpp"

#include <array>
#include <cstring>

#include "pure.hpp"

namespace ulid {
namespace {

constexpr std::uint8_t kInvalid = 0x80;

constexpr std::array<std::uint8_t, 256> make_decode_table() noexcept
{
    std::array<std::uint8_t, 256> table{};
    for (auto &v : table)
        v = kInvalid;
    for (std::uint8_t i = 0; i < 32; ++i) {
        const char c = kAlphabet[i];
        table[static_cast<std::uint8_t>(c)] = i;
        if (c >= 'A' && c <= 'Z')
            table[static_cast<std::uint8_t>(c - 'A' + 'a')] = i;
    }
    // Crockford's aliases for characters that look alike.
    table['I'] = table['i'] = 1;
    table['L'] = table['l'] = 1;
    table['O'] = table['o'] = 0;
    return table;
}

constexpr std::array<std::uint8_t, 256> kDecode = make_decode_table();

// Every 10-bit value as its two characters: the encoder writes two characters per lookup.
constexpr std::array<char, 2048> make_pair_table() noexcept
{
    std::array<char, 2048> table{};
    for (std::size_t v = 0; v < 1024; ++v) {
        table[2 * v] = kAlphabet[v >> 5];
        table[2 * v + 1] = kAlphabet[v & 31];
    }
    return table;
}

constexpr std::array<char, 2048> kPairs = make_pair_table();

inline void put_pair(char *out, std::uint64_t ten_bits) noexcept
{
    std::memcpy(out, &kPairs[2 * ten_bits], 2);
}

static_assert(kDecode['U'] == kInvalid && kDecode['u'] == kInvalid, "U is not Crockford");
static_assert(kDecode['Z'] == 31 && kDecode['z'] == 31 && kDecode['0'] == 0, "table corners");

} // namespace

int decode_char(std::uint8_t c) noexcept
{
    return kDecode[c] == kInvalid ? -1 : kDecode[c];
}

void encode(const Ulid &value, char out[kTextLength]) noexcept
{
    // 128 bits = 3 + 25 * 5. Character 0 holds the top 3 bits; characters 1-12 the next 60 bits of
    // hi, two per lookup; character 13 straddles the halves; characters 14-25 the low 60 of lo.
    const std::uint64_t hi = load_be64(value.bytes);
    const std::uint64_t lo = load_be64(value.bytes + 8);

    out[0] = kAlphabet[hi >> 61];
    for (int k = 0; k < 6; ++k)
        put_pair(out + 1 + 2 * k, (hi >> (51 - 10 * k)) & 1023);
    out[13] = kAlphabet[((hi & 1) << 4) | (lo >> 60)];
    for (int k = 0; k < 6; ++k)
        put_pair(out + 14 + 2 * k, (lo >> (50 - 10 * k)) & 1023);
}

Status decode(const char *text, std::size_t length, Ulid *out, DecodeError *error) noexcept
{
    DecodeError local;
    DecodeError &err = error ? *error : local;
    err = DecodeError{};
    err.length = length;

    if (length != kTextLength) {
        err.status = Status::bad_length;
        return err.status;
    }

    // One pass: look every character up, remember whether any was invalid (kInvalid is a bit no
    // digit has) and shift the digits into the two 64-bit halves. 128 bits = 3 + 25 * 5: the first
    // digit has 3 bits, digit 13 straddles the halves.
    const auto *in = reinterpret_cast<const std::uint8_t *>(text);
    const std::uint8_t first = kDecode[in[0]];
    std::uint8_t seen = first;
    std::uint64_t hi = first;
    for (std::size_t i = 1; i <= 12; ++i) {
        const std::uint8_t d = kDecode[in[i]];
        seen |= d;
        hi = (hi << 5) | d;
    }
    const std::uint8_t middle = kDecode[in[13]];
    seen |= middle;
    hi = (hi << 1) | (middle >> 4);
    std::uint64_t lo = middle & 15;
    for (std::size_t i = 14; i < kTextLength; ++i) {
        const std::uint8_t d = kDecode[in[i]];
        seen |= d;
        lo = (lo << 5) | d;
    }

    if ((seen & kInvalid) || first > 7) {
        // Report the first problem by position: a bad or overflowing first character, then the
        // first bad character anywhere else.
        for (std::size_t i = 0; i < kTextLength; ++i) {
            const std::uint8_t d = kDecode[in[i]];
            if (d & kInvalid)
                err.status = Status::bad_character;
            else if (i == 0 && d > 7)
                err.status = Status::overflow;
            else
                continue;
            err.position = i + 1;
            err.byte = in[i];
            return err.status;
        }
    }

    store_be64(out->bytes, hi);
    store_be64(out->bytes + 8, lo);
    return Status::ok;
}

} // namespace ulid
