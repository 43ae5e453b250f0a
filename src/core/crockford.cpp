// Crockford Base32 encoder and decoder for ULIDs.
#include "crockford.hpp"

#include <array>

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

static_assert(kDecode['U'] == kInvalid && kDecode['u'] == kInvalid, "U is not Crockford");
static_assert(kDecode['Z'] == 31 && kDecode['z'] == 31 && kDecode['0'] == 0, "table corners");

} // namespace

int decode_char(std::uint8_t c) noexcept
{
    return kDecode[c] == kInvalid ? -1 : kDecode[c];
}

void encode(const Ulid &value, char out[kTextLength]) noexcept
{
    // 128 bits as 3 + 25 * 5: the first character carries the top three bits.
    const std::uint64_t hi = load_be64(value.bytes);
    const std::uint64_t lo = load_be64(value.bytes + 8);

    out[0] = kAlphabet[hi >> 61];
    for (int i = 1; i <= 12; ++i)
        out[i] = kAlphabet[(hi >> (61 - 5 * i)) & 31];
    out[13] = kAlphabet[((hi & 1) << 4) | (lo >> 60)];
    for (int i = 14; i <= 25; ++i)
        out[i] = kAlphabet[(lo >> (60 - 5 * (i - 13))) & 31];
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
