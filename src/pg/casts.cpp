// Cast functions: ulid <-> text (without the cstring round trip) and ulid <-> bytea.
#include "datum.hpp"
#include "entry.hpp"
#include "errors.hpp"

extern "C" {
#include "utils/builtins.h"
}

#include "core/crockford.hpp"

using namespace ulid;
using namespace ulid::pg;

ULID_FUNCTION(ulid_to_text)
{
    text *result = static_cast<text *>(palloc(VARHDRSZ + kTextLength));
    SET_VARSIZE(result, VARHDRSZ + kTextLength);
    encode(*arg_ulid(fcinfo, 0), VARDATA(result));
    PG_RETURN_TEXT_P(result);
}

ULID_FUNCTION(ulid_from_text)
{
    text *input = PG_GETARG_TEXT_PP(0);
    const char *data = VARDATA_ANY(input);
    const int length = VARSIZE_ANY_EXHDR(input);
    Ulid value;
    DecodeError error;
    if (decode(data, length, &value, &error) != Status::ok) {
        // The message quotes the input, which needs a terminated copy.
        report_decode_error(error, text_to_cstring(input), nullptr);
        pg_unreachable(); // without a soft-error context the report raises
    }
    return ulid_to_datum(value);
}

ULID_FUNCTION(ulid_to_bytea)
{
    bytea *result = static_cast<bytea *>(palloc(VARHDRSZ + kBytes));
    SET_VARSIZE(result, VARHDRSZ + kBytes);
    memcpy(VARDATA(result), arg_ulid(fcinfo, 0)->bytes, kBytes);
    PG_RETURN_BYTEA_P(result);
}

ULID_FUNCTION(ulid_from_bytea)
{
    bytea *input = PG_GETARG_BYTEA_PP(0);
    const int length = VARSIZE_ANY_EXHDR(input);
    Ulid value;
    if (from_bytes(reinterpret_cast<const std::uint8_t *>(VARDATA_ANY(input)),
                   static_cast<std::size_t>(length), &value) != Status::ok)
        raise_bad_binary_length(length);
    return ulid_to_datum(value);
}
