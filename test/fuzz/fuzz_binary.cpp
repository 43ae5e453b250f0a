// Fuzz target for the binary path: any bytes read as 16-byte values must round-trip through the
// text form, order like memcmp, and keep the timestamp math (set/get, min_at/max_at, epochs) exact.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "core/crockford.hpp"
#include "core/status.hpp"
#include "core/timestamp.hpp"
#include "core/ulid.hpp"
#include "fuzz_util.hpp"

namespace {

using namespace ulid_fuzz;
using ulid::Status;
using ulid::Ulid;

constexpr std::size_t kMaxValues = 16;

struct Encoded {
    char text[ulid::kTextLength];
};

Encoded encode(const Ulid &v)
{
    Encoded e;
    ulid::encode(v, e.text);
    return e;
}

// Epoch conversion against 128-bit arithmetic.
void check_pg_usec(std::int64_t pg_usec)
{
    const __int128 unix_usec = static_cast<__int128>(pg_usec) + ulid::kPgEpochUnixUsec;
    Status want = Status::ok;
    std::uint64_t want_ms = 0;
    if (unix_usec < 0) {
        want = Status::time_out_of_range;
    } else {
        const __int128 ms = unix_usec / 1000;
        if (ms > static_cast<__int128>(ulid::kMaxUnixMs))
            want = Status::time_out_of_range;
        else
            want_ms = static_cast<std::uint64_t>(ms);
    }
    std::uint64_t got = 0xDEADBEEF;
    FUZZ_CHECK(ulid::unix_ms_from_pg_usec(pg_usec, &got) == want);
    if (want == Status::ok) {
        FUZZ_CHECK(got == want_ms);
        // the start of that millisecond converts back exactly and lies at or before the input
        const std::int64_t start = ulid::pg_usec_from_unix_ms(got);
        FUZZ_CHECK(start <= pg_usec && pg_usec - start < 1000);
    } else {
        FUZZ_CHECK(got == 0xDEADBEEF);
    }
}

// A millisecond that does not fit 48 bits is refused everywhere, and nothing is written.
void check_out_of_range_ms(const Ulid &a, std::uint64_t ms)
{
    FUZZ_CHECK(ms > ulid::kMaxUnixMs);
    Ulid c = a;
    FUZZ_CHECK(ulid::set_timestamp_ms(c, ms) == Status::time_out_of_range);
    FUZZ_CHECK(same(c, a));
    Ulid lo = a, hi = a;
    FUZZ_CHECK(ulid::min_at(ms, &lo) == Status::time_out_of_range);
    FUZZ_CHECK(ulid::max_at(ms, &hi) == Status::time_out_of_range);
    FUZZ_CHECK(same(lo, a) && same(hi, a));
}

void check_one(const Ulid &a)
{
    // encode -> decode is the identity; the text is 26 alphabet characters, the first <= '7'
    const Encoded e = encode(a);
    for (std::size_t i = 0; i < ulid::kTextLength; ++i)
        FUZZ_CHECK(e.text[i] != '\0' && std::strchr(kCrockford, e.text[i]) != nullptr);
    FUZZ_CHECK(e.text[0] <= '7');
    int digits[ulid::kTextLength];
    for (std::size_t i = 0; i < ulid::kTextLength; ++i)
        digits[i] = ref_digit(static_cast<std::uint8_t>(e.text[i]));
    FUZZ_CHECK(same(ref_decode(digits), a));

    Ulid back;
    std::memset(back.bytes, 0x5A, sizeof back.bytes);
    ulid::DecodeError err;
    FUZZ_CHECK(ulid::decode(e.text, ulid::kTextLength, &back, &err) == Status::ok);
    FUZZ_CHECK(same(back, a));

    // the lowercase spelling decodes to the same value
    char lower[ulid::kTextLength];
    for (std::size_t i = 0; i < ulid::kTextLength; ++i)
        lower[i] = (e.text[i] >= 'A' && e.text[i] <= 'Z') ? static_cast<char>(e.text[i] - 'A' + 'a') : e.text[i];
    Ulid back_lower;
    FUZZ_CHECK(ulid::decode(lower, ulid::kTextLength, &back_lower, nullptr) == Status::ok);
    FUZZ_CHECK(same(back_lower, a));

    // a value equals itself
    FUZZ_CHECK(ulid::compare(a, a) == 0 && a == a && !(a != a) && !(a < a));

    // big-endian 64-bit halves
    FUZZ_CHECK(ulid::load_be64(a.bytes) == static_cast<std::uint64_t>(to_u128(a) >> 64));
    FUZZ_CHECK(ulid::load_be64(a.bytes + 8) == static_cast<std::uint64_t>(to_u128(a)));
    Ulid halves;
    ulid::store_be64(halves.bytes, ulid::load_be64(a.bytes));
    ulid::store_be64(halves.bytes + 8, ulid::load_be64(a.bytes + 8));
    FUZZ_CHECK(same(halves, a));

    // timestamp_ms / set_timestamp_ms
    const std::uint64_t ms = ulid::timestamp_ms(a);
    FUZZ_CHECK(ms == time_of(a) && ms <= ulid::kMaxUnixMs);
    Ulid c = a;
    FUZZ_CHECK(ulid::set_timestamp_ms(c, ms) == Status::ok && same(c, a));
    Ulid zero{};
    FUZZ_CHECK(ulid::set_timestamp_ms(zero, ms) == Status::ok);
    FUZZ_CHECK(ulid::timestamp_ms(zero) == ms && entropy_of(zero) == 0);

    // min_at / max_at bracket the value, share its millisecond, and have all-0 / all-1 entropy
    Ulid lo, hi;
    FUZZ_CHECK(ulid::min_at(ms, &lo) == Status::ok);
    FUZZ_CHECK(ulid::max_at(ms, &hi) == Status::ok);
    FUZZ_CHECK(ulid::compare(lo, a) <= 0 && ulid::compare(a, hi) <= 0);
    FUZZ_CHECK(time_of(lo) == ms && entropy_of(lo) == 0);
    FUZZ_CHECK(time_of(hi) == ms && entropy_of(hi) == kEntropyMask);
    FUZZ_CHECK(same(lo, zero));

    // the time field read as a full 64-bit number, and one with a 49th bit, are out of range
    const std::uint64_t wide = ulid::load_be64(a.bytes);
    if (wide > ulid::kMaxUnixMs)
        check_out_of_range_ms(a, wide);
    check_out_of_range_ms(a, ms | (std::uint64_t{1} << 48));

    // the next and the previous ULID: +1 / -1 as a 128-bit integer, or refused at all ones / all zeros
    for (bool up : {true, false}) {
        Ulid next = a;
        if (ulid::step(next, up)) {
            FUZZ_CHECK(to_u128(a) != (up ? ~u128{0} : u128{0}));
            FUZZ_CHECK(to_u128(next) == (up ? to_u128(a) + 1 : to_u128(a) - 1));
            FUZZ_CHECK(ulid::compare(a, next) == (up ? -1 : 1));
            FUZZ_CHECK(ulid::step(next, !up) && same(next, a));
        } else {
            FUZZ_CHECK(to_u128(a) == (up ? ~u128{0} : u128{0}) && same(next, a));
        }
    }

    // epochs: the millisecond's start converts back, and so does any microsecond inside it
    const std::int64_t pg = ulid::pg_usec_from_unix_ms(ms);
    std::uint64_t ms_back = 0;
    FUZZ_CHECK(ulid::unix_ms_from_pg_usec(pg, &ms_back) == Status::ok && ms_back == ms);
    const std::int64_t inside = pg + static_cast<std::int64_t>(ulid::load_be64(a.bytes + 8) % 1000);
    FUZZ_CHECK(ulid::unix_ms_from_pg_usec(inside, &ms_back) == Status::ok && ms_back == ms);
    check_pg_usec(static_cast<std::int64_t>(ulid::load_be64(a.bytes + 8)));
    check_pg_usec(static_cast<std::int64_t>(ulid::load_be64(a.bytes)));
}

void check_pair(const Ulid &a, const Ulid &b)
{
    const int c = ulid::compare(a, b);
    FUZZ_CHECK(c == -1 || c == 0 || c == 1);
    FUZZ_CHECK(c == sign(std::memcmp(a.bytes, b.bytes, ulid::kBytes)));
    const int by_integer = to_u128(a) < to_u128(b) ? -1 : (to_u128(b) < to_u128(a) ? 1 : 0);
    FUZZ_CHECK(c == by_integer);
    FUZZ_CHECK(ulid::compare(b, a) == -c); // antisymmetric
    FUZZ_CHECK((a == b) == (c == 0) && (a != b) == (c != 0) && (a < b) == (c < 0) && (b < a) == (c > 0));

    // text order is byte order
    const Encoded ea = encode(a), eb = encode(b);
    FUZZ_CHECK(sign(std::memcmp(ea.text, eb.text, ulid::kTextLength)) == c);

    // time order: a later millisecond's whole range lies above an earlier one's
    const std::uint64_t ta = ulid::timestamp_ms(a), tb = ulid::timestamp_ms(b);
    if (ta < tb) {
        FUZZ_CHECK(c < 0);
        Ulid hi_a, lo_b;
        FUZZ_CHECK(ulid::max_at(ta, &hi_a) == Status::ok && ulid::min_at(tb, &lo_b) == Status::ok);
        FUZZ_CHECK(ulid::compare(hi_a, lo_b) < 0);
    }

    // setting a's time to b's changes bytes 0..5 only
    Ulid t = a;
    FUZZ_CHECK(ulid::set_timestamp_ms(t, tb) == Status::ok);
    FUZZ_CHECK(std::memcmp(t.bytes, b.bytes, ulid::kTimeBytes) == 0);
    FUZZ_CHECK(std::memcmp(t.bytes + ulid::kTimeBytes, a.bytes + ulid::kTimeBytes, ulid::kEntropyBytes) == 0);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    // Consecutive 16-byte values; a short last one is padded with zero bytes; at least one value.
    std::vector<Ulid> values;
    for (std::size_t off = 0; values.size() < kMaxValues && (off < size || values.empty());
         off += ulid::kBytes) {
        Ulid v{};
        const std::size_t n = off < size ? std::min(ulid::kBytes, size - off) : 0;
        if (n > 0)
            std::memcpy(v.bytes, data + off, n);
        values.push_back(v);
    }

    for (const Ulid &v : values)
        check_one(v);
    for (std::size_t i = 0; i < values.size(); ++i) {
        check_pair(values[i], values[(i + 1) % values.size()]);
        check_pair(values[i], values[0]);
    }

    // sorted by compare(), the values are sorted as text and as integers (transitivity)
    std::sort(values.begin(), values.end(), [](const Ulid &x, const Ulid &y) { return x < y; });
    for (std::size_t i = 1; i < values.size(); ++i) {
        FUZZ_CHECK(!(values[i] < values[i - 1]));
        FUZZ_CHECK(to_u128(values[i - 1]) <= to_u128(values[i]));
        const Encoded e0 = encode(values[i - 1]), e1 = encode(values[i]);
        FUZZ_CHECK(std::memcmp(e0.text, e1.text, ulid::kTextLength) <= 0);
    }
    return 0;
}
