// Fuzz target for the text decoder: any bytes give a status that an independent classifier agrees
// with, or a value that re-encodes to the canonical form of its input.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "core/crockford.hpp"
#include "core/status.hpp"
#include "core/ulid.hpp"
#include "fuzz_util.hpp"

namespace {

using namespace ulid_fuzz;
using ulid::Status;

void check(const std::uint8_t *data, std::size_t size)
{
    const char *text = reinterpret_cast<const char *>(data);

    ulid::Ulid sentinel;
    std::memset(sentinel.bytes, 0xA5, sizeof sentinel.bytes);
    ulid::Ulid out = sentinel;
    ulid::DecodeError err;
    err.status = Status::random_failure; // stale content that decode must overwrite
    err.length = 12345;
    err.position = 999;
    err.byte = 0x5A;
    const Status s = ulid::decode(text, size, &out, &err);

    // The error record is optional and changes nothing.
    ulid::Ulid out_no_err = sentinel;
    FUZZ_CHECK(ulid::decode(text, size, &out_no_err, nullptr) == s);
    FUZZ_CHECK(err.status == s);
    FUZZ_CHECK(err.length == size);

    if (size != ulid::kTextLength) {
        FUZZ_CHECK(s == Status::bad_length);
        FUZZ_CHECK(err.position == 0 && err.byte == 0);
        FUZZ_CHECK(same(out, sentinel) && same(out_no_err, sentinel));
        return;
    }

    // Independent classification: the first problem by position wins, where a first character
    // above 7 is an overflow.
    int digits[ulid::kTextLength];
    std::size_t first_bad = 0; // 1-based, 0 = none
    for (std::size_t i = 0; i < ulid::kTextLength; ++i) {
        digits[i] = ref_digit(data[i]);
        FUZZ_CHECK(ulid::decode_char(data[i]) == digits[i]);
        if (digits[i] < 0 && first_bad == 0)
            first_bad = i + 1;
    }
    Status want = Status::ok;
    std::size_t want_pos = 0;
    if (digits[0] < 0) {
        want = Status::bad_character;
        want_pos = 1;
    } else if (digits[0] > 7) {
        want = Status::overflow;
        want_pos = 1;
    } else if (first_bad != 0) {
        want = Status::bad_character;
        want_pos = first_bad;
    }
    FUZZ_CHECK(s == want);

    if (s != Status::ok) {
        FUZZ_CHECK(err.position == want_pos);
        FUZZ_CHECK(err.byte == data[want_pos - 1]);
        FUZZ_CHECK(same(out, sentinel) && same(out_no_err, sentinel));
        return;
    }

    FUZZ_CHECK(err.position == 0 && err.byte == 0);
    FUZZ_CHECK(same(out, out_no_err));
    FUZZ_CHECK(same(out, ref_decode(digits)));

    // Re-encoding gives the canonical form of the input: uppercase, I/L -> 1, O -> 0.
    char encoded[ulid::kTextLength];
    ulid::encode(out, encoded);
    for (std::size_t i = 0; i < ulid::kTextLength; ++i)
        FUZZ_CHECK(encoded[i] == ref_canonical(data[i]));

    // ... which decodes to the same value.
    ulid::Ulid again = sentinel;
    FUZZ_CHECK(ulid::decode(encoded, ulid::kTextLength, &again, nullptr) == Status::ok);
    FUZZ_CHECK(same(again, out));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    check(data, size);

    // Every longer input also exercises the 26-character path with its first 26 bytes, in a heap
    // buffer of exactly that size so that AddressSanitizer reports any read past its end.
    if (size > ulid::kTextLength) {
        const std::unique_ptr<std::uint8_t[]> head(new std::uint8_t[ulid::kTextLength]);
        std::memcpy(head.get(), data, ulid::kTextLength);
        check(head.get(), ulid::kTextLength);
    }
    return 0;
}
