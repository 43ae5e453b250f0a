// Time functions: ulid_to_timestamp, ulid_min and ulid_max (also the timestamptz casts).
#include "time.hpp"

#include "datum.hpp"
#include "entry.hpp"
#include "errors.hpp"

#include "core/timestamp.hpp"

using namespace ulid;
using namespace ulid::pg;

std::uint64_t ulid::pg::unix_ms_from_timestamptz(TimestampTz ts)
{
    if (TIMESTAMP_NOT_FINITE(ts))
        raise_infinite_timestamp();
    std::uint64_t ms = 0;
    raise_status(unix_ms_from_pg_usec(ts, &ms));
    return ms;
}

ULID_FUNCTION(ulid_to_timestamp)
{
    PG_RETURN_TIMESTAMPTZ(pg_usec_from_unix_ms(timestamp_ms(*arg_ulid(fcinfo, 0))));
}

ULID_FUNCTION(ulid_min)
{
    Ulid value;
    raise_status(min_at(unix_ms_from_timestamptz(PG_GETARG_TIMESTAMPTZ(0)), &value));
    return ulid_to_datum(value);
}

ULID_FUNCTION(ulid_max)
{
    Ulid value;
    raise_status(max_at(unix_ms_from_timestamptz(PG_GETARG_TIMESTAMPTZ(0)), &value));
    return ulid_to_datum(value);
}
