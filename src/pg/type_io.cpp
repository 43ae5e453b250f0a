// Type I/O: ulid_in/ulid_out (26-character text) and ulid_recv/ulid_send (raw 16 bytes).
#include "datum.hpp"
#include "entry.hpp"
#include "errors.hpp"

extern "C" {
#include "libpq/pqformat.h"
}

#include "core/crockford.hpp"

using namespace ulid;
using namespace ulid::pg;

ULID_FUNCTION(ulid_in)
{
    const char *text = PG_GETARG_CSTRING(0);
    Ulid value;
    DecodeError error;
    if (decode(text, strlen(text), &value, &error) != Status::ok) {
        report_decode_error(error, text, fcinfo->context);
        PG_RETURN_NULL(); // reached only when the error was saved softly (PostgreSQL 16+)
    }
    return ulid_to_datum(value);
}

ULID_FUNCTION(ulid_out)
{
    char *text = static_cast<char *>(palloc(kTextLength + 1));
    encode(*arg_ulid(fcinfo, 0), text);
    text[kTextLength] = '\0';
    PG_RETURN_CSTRING(text);
}

ULID_FUNCTION(ulid_recv)
{
    StringInfo message = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
    const int remaining = message->len - message->cursor;
    Ulid value;
    if (from_bytes(reinterpret_cast<const std::uint8_t *>(message->data + message->cursor),
                   static_cast<std::size_t>(remaining), &value) != Status::ok)
        raise_bad_binary_length(remaining);
    message->cursor += kBytes;
    return ulid_to_datum(value);
}

ULID_FUNCTION(ulid_send)
{
    StringInfoData buffer;
    pq_begintypsend(&buffer);
    pq_sendbytes(&buffer, reinterpret_cast<const char *>(arg_ulid(fcinfo, 0)->bytes), kBytes);
    PG_RETURN_BYTEA_P(pq_endtypsend(&buffer));
}
