// Crockford Base32 codec: encode(), decode(), decode_char().
#include <algorithm>
#include <string>
#include <vector>

#include "core/crockford.hpp"
#include "core/timestamp.hpp"
#include "test_util.hpp"

using namespace ulid_test;
using ulid::DecodeError;
using ulid::Status;
using ulid::Ulid;

namespace {

std::string encode_str(const Ulid &v)
{
    char buf[ulid::kTextLength];
    ulid::encode(v, buf);
    return std::string(buf, sizeof buf);
}

Status decode_str(const std::string &s, Ulid *out, DecodeError *err)
{
    return ulid::decode(s.data(), s.size(), out, err);
}

// What decode must report, derived from the input rules of docs/sql-reference.md (Type) using ref_digit.
struct Expected {
    Status status = Status::ok;
    std::size_t position = 0;
    std::uint8_t byte = 0;
    u128 value = 0;
};

Expected ref_decode(const std::string &s)
{
    Expected e;
    if (s.size() != 26) {
        e.status = Status::bad_length;
        return e;
    }
    for (std::size_t i = 0; i < 26; ++i) {
        const int d = ref_digit(static_cast<unsigned char>(s[i]));
        if (d < 0 || (i == 0 && d > 7)) {
            e.status = d < 0 ? Status::bad_character : Status::overflow;
            e.position = i + 1;
            e.byte = static_cast<std::uint8_t>(s[i]);
            return e;
        }
        e.value = (e.value << 5) | static_cast<unsigned>(d);
    }
    return e;
}

const Ulid kSentinel = from_u128((u128{0x0123456789abcdefULL} << 64) | 0xfedcba9876543210ULL);

} // namespace

// --- spec vectors ------------------------------------------------------------------------------

TEST(CrockfordVectors, SpecExampleDecodesAndReencodes)
{
    // The example from the ULID spec. Bytes computed separately (Python int(…, 32) over the
    // alphabet); its time part 01ARZ3NDEK is 1469922850259 ms, as the spec states.
    const std::string text = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
    const std::uint8_t bytes[16] = {0x01, 0x56, 0x3e, 0x3a, 0xb5, 0xd3, 0xd6, 0x76,
                                    0x4c, 0x61, 0xef, 0xb9, 0x93, 0x02, 0xbd, 0x5b};
    Ulid v = kSentinel;
    DecodeError err;
    ASSERT_EQ(decode_str(text, &v, &err), Status::ok);
    EXPECT_EQ(err.status, Status::ok);
    EXPECT_EQ(0, std::memcmp(v.bytes, bytes, 16));
    EXPECT_EQ(ulid::timestamp_ms(v), 1469922850259u);
    EXPECT_EQ(encode_str(v), text);
}

TEST(CrockfordVectors, AllZeroAndAllOnes)
{
    EXPECT_EQ(encode_str(filled(0x00)), "00000000000000000000000000");
    EXPECT_EQ(encode_str(filled(0xFF)), "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");

    Ulid v = kSentinel;
    ASSERT_EQ(decode_str("00000000000000000000000000", &v, nullptr), Status::ok);
    EXPECT_EQ(v, filled(0x00));
    ASSERT_EQ(decode_str("7ZZZZZZZZZZZZZZZZZZZZZZZZZ", &v, nullptr), Status::ok);
    EXPECT_EQ(v, filled(0xFF));
}

TEST(CrockfordVectors, EverySingleBitLandsInTheRightCharacter)
{
    // Bit b (0 = least significant) is bit b % 5 of the character 25 - b / 5.
    for (int b = 0; b < 128; ++b) {
        std::string expected(26, '0');
        expected[25 - b / 5] = kRefAlphabet[1 << (b % 5)];
        const Ulid v = from_u128(u128{1} << b);
        EXPECT_EQ(encode_str(v), expected) << "bit " << b;
        Ulid back = kSentinel;
        ASSERT_EQ(decode_str(expected, &back, nullptr), Status::ok) << expected;
        EXPECT_EQ(back, v) << "bit " << b;
    }
}

TEST(CrockfordVectors, SmallHandComputedValues)
{
    EXPECT_EQ(encode_str(from_u128(1)), "00000000000000000000000001");
    EXPECT_EQ(encode_str(from_u128(31)), "0000000000000000000000000Z");
    EXPECT_EQ(encode_str(from_u128(32)), "00000000000000000000000010");
    EXPECT_EQ(encode_str(from_u128(32 * 32 - 1)), "000000000000000000000000ZZ");
    EXPECT_EQ(encode_str(from_u128(u128{1} << 127)), "40000000000000000000000000");
    EXPECT_EQ(encode_str(from_u128(kAllOnes128 >> 1)), "3ZZZZZZZZZZZZZZZZZZZZZZZZZ");
    // 0x0123456789abcdef in base 32 (computed separately with Python) is 28T5CY4TQKFF.
    EXPECT_EQ(encode_str(from_u128(0x0123456789abcdefULL)), "0000000000000028T5CY4TQKFF");
}

TEST(CrockfordEncode, MatchesReferenceEncoderForRandomValues)
{
    std::mt19937_64 rng(0x5eed0001);
    for (int i = 0; i < 20000; ++i) {
        Ulid v = random_ulid(rng);
        // Also values with long runs of zero or one bits, which random values rarely have.
        if (i % 4 == 1)
            v = from_u128(to_u128(v) >> (rng() % 128));
        if (i % 4 == 2)
            v = from_u128(to_u128(v) | (kAllOnes128 >> (rng() % 128)));
        ASSERT_EQ(encode_str(v), ref_encode(to_u128(v))) << ::testing::PrintToString(v);
    }
}

TEST(CrockfordEncode, WritesExactly26UppercaseCharacters)
{
    std::mt19937_64 rng(0x5eed0002);
    for (int i = 0; i < 1000; ++i) {
        char buf[30];
        std::memset(buf, '#', sizeof buf);
        const Ulid v = random_ulid(rng);
        ulid::encode(v, buf + 2);
        EXPECT_EQ(buf[0], '#');
        EXPECT_EQ(buf[1], '#');
        EXPECT_EQ(buf[28], '#');
        EXPECT_EQ(buf[29], '#');
        for (int k = 2; k < 28; ++k) {
            EXPECT_NE(std::strchr(kRefAlphabet, buf[k]), nullptr) << buf[k];
            EXPECT_NE(buf[k], '\0');
        }
        EXPECT_LE(buf[2], '7');
    }
}

// --- decode: length ----------------------------------------------------------------------------

TEST(CrockfordDecode, OnlyLength26IsAccepted)
{
    const std::string valid(40, '0');
    const std::string garbage(40, 'U');
    for (std::size_t n = 0; n <= 40; ++n) {
        for (const std::string *src : {&valid, &garbage}) {
            Ulid v = kSentinel;
            DecodeError err;
            err.position = 99;
            const Status s = ulid::decode(src->data(), n, &v, &err);
            EXPECT_EQ(err.length, n);
            if (n == 26 && src == &valid) {
                EXPECT_EQ(s, Status::ok);
                EXPECT_EQ(err.status, Status::ok);
                EXPECT_EQ(v, filled(0));
            } else if (n == 26) {
                EXPECT_EQ(s, Status::bad_character);
                EXPECT_EQ(err.position, 1u);
                EXPECT_EQ(v, kSentinel);
            } else {
                // Length is checked before any character.
                EXPECT_EQ(s, Status::bad_length) << "length " << n;
                EXPECT_EQ(err.status, Status::bad_length);
                EXPECT_EQ(v, kSentinel) << "length " << n;
            }
        }
    }
}

// --- decode: every byte in every position ---------------------------------------------------------

TEST(CrockfordDecode, EveryByteInEveryPosition)
{
    // Two backgrounds: all zero, and the largest value; one position at a time gets each byte.
    const std::string backgrounds[] = {std::string(26, '0'), "7" + std::string(25, 'Z')};
    const u128 background_values[] = {0, kAllOnes128};
    int accepted_at_pos[26] = {};

    for (int bg = 0; bg < 2; ++bg) {
        for (std::size_t pos = 0; pos < 26; ++pos) {
            const int shift = 5 * (25 - static_cast<int>(pos));
            const u128 digit_mask = (pos == 0 ? u128{7} : u128{31}) << shift;
            for (int b = 0; b < 256; ++b) {
                std::string text = backgrounds[bg];
                text[pos] = static_cast<char>(b);
                const int d = ref_digit(static_cast<unsigned char>(b));

                Ulid v = kSentinel;
                DecodeError err;
                const Status s = decode_str(text, &v, &err);
                EXPECT_EQ(err.length, 26u);

                if (d < 0) {
                    ASSERT_EQ(s, Status::bad_character) << "pos " << pos << " byte " << b;
                    EXPECT_EQ(err.status, Status::bad_character);
                    EXPECT_EQ(err.position, pos + 1);
                    EXPECT_EQ(err.byte, b);
                    EXPECT_EQ(v, kSentinel);
                } else if (pos == 0 && d > 7) {
                    ASSERT_EQ(s, Status::overflow) << "byte " << b;
                    EXPECT_EQ(err.status, Status::overflow);
                    EXPECT_EQ(err.position, 1u);
                    EXPECT_EQ(err.byte, b);
                    EXPECT_EQ(v, kSentinel);
                } else {
                    ASSERT_EQ(s, Status::ok) << "pos " << pos << " byte " << b;
                    const u128 expected =
                        (background_values[bg] & ~digit_mask) | (u128(unsigned(d)) << shift);
                    EXPECT_EQ(to_u128(v) == expected, true) << "pos " << pos << " byte " << b;
                    if (bg == 0)
                        ++accepted_at_pos[pos];
                }
            }
        }
    }
    // 32 digits + 22 lowercase letters + I i L l O o = 60 accepted bytes; 8 in the first position
    // (0-7; no letter or alias has a value of 7 or less except i, l, o and their capitals).
    EXPECT_EQ(accepted_at_pos[0], 8 + 6);
    for (int pos = 1; pos < 26; ++pos)
        EXPECT_EQ(accepted_at_pos[pos], 60) << "pos " << pos;
}

TEST(CrockfordDecode, DecodeCharTable)
{
    int accepted = 0;
    for (int b = 0; b < 256; ++b) {
        EXPECT_EQ(ulid::decode_char(static_cast<std::uint8_t>(b)), ref_digit(static_cast<unsigned char>(b)))
            << "byte " << b;
        accepted += ulid::decode_char(static_cast<std::uint8_t>(b)) >= 0;
    }
    EXPECT_EQ(accepted, 60);
    for (int i = 0; i < 32; ++i)
        EXPECT_EQ(ulid::decode_char(static_cast<std::uint8_t>(kRefAlphabet[i])), i);
    EXPECT_EQ(ulid::decode_char('U'), -1);
    EXPECT_EQ(ulid::decode_char('u'), -1);
    EXPECT_EQ(ulid::decode_char('I'), 1);
    EXPECT_EQ(ulid::decode_char('i'), 1);
    EXPECT_EQ(ulid::decode_char('L'), 1);
    EXPECT_EQ(ulid::decode_char('l'), 1);
    EXPECT_EQ(ulid::decode_char('O'), 0);
    EXPECT_EQ(ulid::decode_char('o'), 0);
    EXPECT_EQ(ulid::decode_char('z'), 31);
    EXPECT_EQ(ulid::decode_char(0), -1);
    EXPECT_EQ(ulid::decode_char(0xFF), -1);
    EXPECT_EQ(ulid::decode_char(' '), -1);
    EXPECT_EQ(ulid::decode_char('-'), -1);
}

// --- decode: overflow and which problem is reported ----------------------------------------------

TEST(CrockfordDecode, OverflowBoundary)
{
    Ulid v = kSentinel;
    DecodeError err;
    ASSERT_EQ(decode_str("7ZZZZZZZZZZZZZZZZZZZZZZZZZ", &v, &err), Status::ok);
    EXPECT_EQ(v, filled(0xFF));

    v = kSentinel;
    ASSERT_EQ(decode_str("80000000000000000000000000", &v, &err), Status::overflow);
    EXPECT_EQ(err.status, Status::overflow);
    EXPECT_EQ(err.position, 1u);
    EXPECT_EQ(err.byte, '8');
    EXPECT_EQ(err.length, 26u);
    EXPECT_EQ(v, kSentinel);

    for (const char *t : {"8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "ZZZZZZZZZZZZZZZZZZZZZZZZZZ",
                          "z0000000000000000000000000", "a0000000000000000000000000"}) {
        v = kSentinel;
        EXPECT_EQ(decode_str(t, &v, &err), Status::overflow) << t;
        EXPECT_EQ(err.position, 1u);
        EXPECT_EQ(err.byte, static_cast<std::uint8_t>(t[0]));
        EXPECT_EQ(v, kSentinel);
    }
}

TEST(CrockfordDecode, FirstProblemByPositionWins)
{
    struct Case {
        const char *text;
        Status status;
        std::size_t position;
        char byte;
    };
    const Case cases[] = {
        {"8U000000000000000000000000", Status::overflow, 1, '8'},
        {"0U000000000000000000000008", Status::bad_character, 2, 'U'},
        {"U8000000000000000000000000", Status::bad_character, 1, 'U'},
        {"Z000000000000000000000000!", Status::overflow, 1, 'Z'},
        {"00!000000000000000000000U0", Status::bad_character, 3, '!'},
        {"0000000000000000000000000u", Status::bad_character, 26, 'u'},
        {"0000000000000 000000000000", Status::bad_character, 14, ' '},
        {"000000000000-0000000000000", Status::bad_character, 13, '-'},
    };
    for (const Case &c : cases) {
        Ulid v = kSentinel;
        DecodeError err;
        EXPECT_EQ(decode_str(c.text, &v, &err), c.status) << c.text;
        EXPECT_EQ(err.status, c.status) << c.text;
        EXPECT_EQ(err.position, c.position) << c.text;
        EXPECT_EQ(err.byte, static_cast<std::uint8_t>(c.byte)) << c.text;
        EXPECT_EQ(v, kSentinel) << c.text;
    }
}

TEST(CrockfordDecode, RandomStringsMatchReferenceDecoder)
{
    const std::string good = "0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyzIiLlOo";
    const std::string bad = std::string("Uu-_ !@[`{\x7f\x80\xff", 13) + std::string(1, '\0');
    std::mt19937_64 rng(0x5eed0003);
    int ok = 0, overflow = 0, bad_char = 0;
    for (int i = 0; i < 50000; ++i) {
        std::string s(26, '0');
        for (std::size_t k = 0; k < 26; ++k) {
            if (rng() % 80 == 0)
                s[k] = bad[rng() % bad.size()];
            else if (k == 0 && rng() % 2)
                s[k] = static_cast<char>('0' + rng() % 8);
            else
                s[k] = good[rng() % good.size()];
        }
        const Expected e = ref_decode(s);
        Ulid v = kSentinel;
        DecodeError err;
        const Status st = decode_str(s, &v, &err);
        ASSERT_EQ(st, e.status) << s;
        EXPECT_EQ(err.status, e.status);
        if (st == Status::ok) {
            ++ok;
            ASSERT_TRUE(to_u128(v) == e.value) << s;
        } else {
            (st == Status::overflow ? overflow : bad_char)++;
            EXPECT_EQ(err.position, e.position) << s;
            EXPECT_EQ(err.byte, e.byte) << s;
            EXPECT_EQ(v, kSentinel) << s;
        }
    }
    // The generator above must exercise all three outcomes.
    EXPECT_GT(ok, 1000);
    EXPECT_GT(overflow, 1000);
    EXPECT_GT(bad_char, 1000);
}

TEST(CrockfordDecode, NullErrorPointerIsAllowed)
{
    Ulid v = kSentinel;
    EXPECT_EQ(ulid::decode("short", 5, &v, nullptr), Status::bad_length);
    EXPECT_EQ(decode_str("0000000000000000000000000U", &v, nullptr), Status::bad_character);
    EXPECT_EQ(decode_str("80000000000000000000000000", &v, nullptr), Status::overflow);
    EXPECT_EQ(v, kSentinel);
    EXPECT_EQ(decode_str("01ARZ3NDEKTSV4RRFFQ69G5FAV", &v, nullptr), Status::ok);
    EXPECT_EQ(encode_str(v), "01ARZ3NDEKTSV4RRFFQ69G5FAV");
}

TEST(CrockfordDecode, ErrorIsResetOnSuccess)
{
    DecodeError err;
    err.status = Status::overflow;
    err.position = 7;
    err.byte = 'x';
    Ulid v;
    ASSERT_EQ(decode_str("00000000000000000000000000", &v, &err), Status::ok);
    EXPECT_EQ(err.status, Status::ok);
    EXPECT_EQ(err.length, 26u);
}

// --- aliases and case ------------------------------------------------------------------------------

TEST(CrockfordDecode, AliasesAndLowercase)
{
    Ulid upper, lower, alias;
    ASSERT_EQ(decode_str("01ARZ3NDEKTSV4RRFFQ69G5FAV", &upper, nullptr), Status::ok);
    ASSERT_EQ(decode_str("01arz3ndektsv4rrffq69g5fav", &lower, nullptr), Status::ok);
    ASSERT_EQ(decode_str("oIArz3NdEKTSV4rRFFQ69g5fAV", &alias, nullptr), Status::ok);
    EXPECT_EQ(upper, lower);
    EXPECT_EQ(upper, alias);

    Ulid ones, i_up, i_low, l_up, l_low, zeros, o_up, o_low;
    ASSERT_EQ(decode_str("01111111111111111111111111", &ones, nullptr), Status::ok);
    ASSERT_EQ(decode_str("0IIIIIIIIIIIIIIIIIIIIIIIII", &i_up, nullptr), Status::ok);
    ASSERT_EQ(decode_str("0iiiiiiiiiiiiiiiiiiiiiiiii", &i_low, nullptr), Status::ok);
    ASSERT_EQ(decode_str("0LLLLLLLLLLLLLLLLLLLLLLLLL", &l_up, nullptr), Status::ok);
    ASSERT_EQ(decode_str("0lllllllllllllllllllllllll", &l_low, nullptr), Status::ok);
    ASSERT_EQ(decode_str("00000000000000000000000000", &zeros, nullptr), Status::ok);
    ASSERT_EQ(decode_str("OOOOOOOOOOOOOOOOOOOOOOOOOO", &o_up, nullptr), Status::ok);
    ASSERT_EQ(decode_str("oooooooooooooooooooooooooo", &o_low, nullptr), Status::ok);
    EXPECT_EQ(i_up, ones);
    EXPECT_EQ(i_low, ones);
    EXPECT_EQ(l_up, ones);
    EXPECT_EQ(l_low, ones);
    EXPECT_EQ(o_up, zeros);
    EXPECT_EQ(o_low, zeros);
    // I and L in the first position are 1, not an overflow.
    Ulid first_i;
    ASSERT_EQ(decode_str("I0000000000000000000000000", &first_i, nullptr), Status::ok);
    EXPECT_EQ(to_u128(first_i) == (u128{1} << 125), true);
    // Output is always the canonical uppercase form.
    EXPECT_EQ(encode_str(alias), "01ARZ3NDEKTSV4RRFFQ69G5FAV");
}

TEST(CrockfordDecode, LowercaseEqualsUppercaseForRandomText)
{
    std::mt19937_64 rng(0x5eed0004);
    for (int i = 0; i < 5000; ++i) {
        const Ulid v = random_ulid(rng);
        std::string text = ref_encode(to_u128(v));
        for (char &c : text)
            if (c >= 'A' && c <= 'Z' && rng() % 2)
                c = static_cast<char>(c - 'A' + 'a');
        Ulid back = kSentinel;
        ASSERT_EQ(decode_str(text, &back, nullptr), Status::ok) << text;
        EXPECT_EQ(back, v) << text;
    }
}

// --- round trip and order ------------------------------------------------------------------------

TEST(CrockfordRoundTrip, RandomValues)
{
    std::mt19937_64 rng(0x5eed0005);
    for (int i = 0; i < 100000; ++i) {
        const Ulid v = random_ulid(rng);
        char buf[ulid::kTextLength];
        ulid::encode(v, buf);
        Ulid back = kSentinel;
        ASSERT_EQ(ulid::decode(buf, sizeof buf, &back, nullptr), Status::ok);
        ASSERT_EQ(back, v);
    }
}

TEST(CrockfordRoundTrip, RandomTextIsCanonicalised)
{
    const std::string good = "0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyzIiLlOo";
    std::mt19937_64 rng(0x5eed0006);
    for (int i = 0; i < 20000; ++i) {
        std::string s(26, '0');
        s[0] = static_cast<char>('0' + rng() % 8);
        for (std::size_t k = 1; k < 26; ++k)
            s[k] = good[rng() % good.size()];
        std::string canonical = s;
        for (char &c : canonical)
            c = kRefAlphabet[ref_digit(static_cast<unsigned char>(c))];
        Ulid v;
        ASSERT_EQ(decode_str(s, &v, nullptr), Status::ok) << s;
        EXPECT_EQ(encode_str(v), canonical) << s;
    }
}

TEST(CrockfordOrder, TextOrderEqualsByteOrder)
{
    std::mt19937_64 rng(0x5eed0007);
    std::vector<Ulid> values;
    for (int i = 0; i < 3000; ++i)
        values.push_back(random_ulid(rng));
    // Near neighbours: copies that differ from an existing value in one low bit or one byte.
    for (int i = 0; i < 3000; ++i) {
        Ulid v = values[rng() % 3000];
        if (i % 2)
            v.bytes[rng() % 16] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
        else
            v.bytes[rng() % 16] = static_cast<std::uint8_t>(rng());
        values.push_back(v);
    }
    values.push_back(filled(0));
    values.push_back(filled(0xFF));

    std::vector<Ulid> by_bytes = values;
    std::sort(by_bytes.begin(), by_bytes.end(),
              [](const Ulid &a, const Ulid &b) { return ulid::compare(a, b) < 0; });
    std::vector<std::pair<std::string, Ulid>> by_text;
    for (const Ulid &v : values)
        by_text.emplace_back(encode_str(v), v);
    std::stable_sort(by_text.begin(), by_text.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });

    ASSERT_EQ(by_bytes.size(), by_text.size());
    for (std::size_t i = 0; i < by_bytes.size(); ++i)
        ASSERT_EQ(by_bytes[i], by_text[i].second) << "index " << i;

    // Pairwise, including near pairs: the sign of the comparison agrees.
    for (std::size_t i = 0; i + 1 < values.size(); ++i) {
        const Ulid &a = values[i];
        const Ulid &b = values[(i * 7919 + 1) % values.size()];
        const int bytes_cmp = ulid::compare(a, b);
        const int text_cmp = encode_str(a).compare(encode_str(b));
        ASSERT_EQ((bytes_cmp > 0) - (bytes_cmp < 0), (text_cmp > 0) - (text_cmp < 0));
    }
}
