-- Time: ulid_to_timestamp, ulid_min, ulid_max, their range limits and time zone independence.
SET timezone = 'UTC';
SELECT ulid_to_timestamp('01ARZ3NDEKTSV4RRFFQ69G5FAV');
SELECT ulid_to_timestamp('00000000000000000000000000') AS epoch,
       ulid_to_timestamp('7ZZZZZZZZZZZZZZZZZZZZZZZZZ') AS last;
SELECT ulid_min('2016-07-30 23:54:10.259+00'), ulid_max('2016-07-30 23:54:10.259+00');
SELECT ulid_min('1970-01-01 00:00:00+00'), ulid_max('10889-08-02 05:31:50.655+00');
-- Microseconds round down to the millisecond; min and max bracket every ULID of it.
SELECT ulid_min('2016-07-30 23:54:10.259999+00') = ulid_min('2016-07-30 23:54:10.259+00') AS min_rounds_down,
       ulid_max('2016-07-30 23:54:10.259999+00') = ulid_max('2016-07-30 23:54:10.259+00') AS max_rounds_down;
SELECT ulid_min(t) <= u AND u <= ulid_max(t) AS bracketed, ulid_to_timestamp(u) = t AS same_ms
FROM (SELECT '2016-07-30 23:54:10.259+00'::timestamptz AS t,
             '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid AS u) x;
SELECT ulid_max(t) < ulid_min(t + interval '1 millisecond') AS next_ms_is_greater
FROM (SELECT '2016-07-30 23:54:10.259+00'::timestamptz AS t) x;
-- The session time zone changes only how a time is shown, never the ULID.
SET timezone = 'Asia/Kolkata';
SELECT ulid_min('2016-07-31 05:24:10.259+05:30'), ulid_to_timestamp('01ARZ3NDEKTSV4RRFFQ69G5FAV');
SET timezone = 'America/Los_Angeles';
SELECT ulid_min('2016-07-30 16:54:10.259-07'), '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::timestamptz;
SET timezone = 'UTC';
-- Volatility: these are IMMUTABLE, so a constant range bound is folded at plan time.
CREATE TABLE ts_plan (id ulid);
EXPLAIN (COSTS OFF) SELECT * FROM ts_plan WHERE id >= ulid_min('2026-01-01 00:00:00+00');
DROP TABLE ts_plan;
-- Out of range or infinite: SQLSTATE 22008.
SELECT regress.error_of(q) FROM (VALUES
    ($$SELECT ulid_min('1969-12-31 23:59:59.999999+00')$$),
    ($$SELECT ulid_max('1900-01-01+00')$$),
    ($$SELECT ulid_min('10889-08-02 05:31:50.656+00')$$),
    ($$SELECT ulid_max('294276-12-31 23:59:59+00')$$),
    ($$SELECT ulid_min('infinity')$$),
    ($$SELECT ulid_max('-infinity')$$),
    ($$SELECT gen_ulid('infinity'::timestamptz)$$),
    ($$SELECT gen_ulid('1960-01-01'::timestamptz)$$),
    ($$SELECT '4713-01-01 BC'::timestamptz::ulid$$)
) v(q);
\set VERBOSITY sqlstate
SELECT ulid_min('-infinity');
\set VERBOSITY default
SELECT ulid_min('-infinity');
SELECT ulid_to_timestamp(NULL) IS NULL AS strict_null, ulid_min(NULL) IS NULL AS min_null,
       ulid_max(NULL) IS NULL AS max_null;
RESET timezone;
