-- Casts: ulid <-> uuid (same bytes), text, timestamptz and bytea; none of them implicit.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid;
SELECT '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid::ulid;
SELECT '00000000000000000000000000'::ulid::uuid AS smallest, '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid::uuid AS largest;
-- Round trips keep every byte, and no version bits are set.
SELECT count(*) AS uuid_round_trips
FROM (SELECT gen_random_ulid() AS u FROM generate_series(1, 1000)) x
WHERE u::uuid::ulid = u AND u::uuid::text = encode(u::bytea, 'hex')::uuid::text;
SELECT count(*) AS v4_round_trips
FROM (SELECT gen_random_uuid() AS g FROM generate_series(1, 1000)) x
WHERE g::ulid::uuid = g;
-- uuid order is ulid order.
SELECT count(*) AS same_order FROM (
    SELECT row_number() OVER (ORDER BY u) AS by_ulid, row_number() OVER (ORDER BY u::uuid) AS by_uuid
    FROM (SELECT gen_random_ulid() AS u FROM generate_series(1, 1000)) x
) y WHERE by_ulid = by_uuid;
-- Assignment casts: ulid -> uuid, uuid -> ulid, ulid -> text.
CREATE TABLE cast_targets (as_uuid uuid, as_ulid ulid, as_text text, as_varchar varchar(26));
INSERT INTO cast_targets VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid, '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid,
                                 '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid, '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid);
SELECT * FROM cast_targets;
-- text -> ulid is explicit only.
INSERT INTO cast_targets (as_ulid) VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::text);
INSERT INTO cast_targets (as_ulid) VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::text::ulid);
SELECT as_ulid FROM cast_targets ORDER BY as_ulid;
DROP TABLE cast_targets;
-- No implicit casts: ulid and text mixed in an operator need an explicit cast (ulid and uuid meet
-- through their own cross-type operators from 0.3.0: crosstype.sql).
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid = '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid;
-- (terse: the DETAIL and HINT of that error are PostgreSQL's own, and 19 words them differently)
\set VERBOSITY terse
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid = '01ARZ3NDEKTSV4RRFFQ69G5FAV'::text;
\set VERBOSITY default
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid = '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid AS explicit_ok;
SELECT castsource::regtype, casttarget::regtype, castcontext, castmethod
FROM pg_cast WHERE castsource = 'ulid'::regtype OR casttarget = 'ulid'::regtype
ORDER BY castsource::regtype::text, casttarget::regtype::text;
-- text and varchar
SELECT '01arz3ndektsv4rrffq69g5fav'::text::ulid, '01arz3ndektsv4rrffq69g5fav'::varchar::ulid,
       '01arz3ndektsv4rrffq69g5fav'::char(26)::ulid;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::text, '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::varchar,
       length('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::text);
SELECT regress.error_of(q) FROM (VALUES
    ($$SELECT 'nope'::text::ulid$$),
    ($$SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAU'::text::ulid$$),
    ($$SELECT '91ARZ3NDEKTSV4RRFFQ69G5FAV'::varchar::ulid$$)
) v(q);
-- bytea: exactly the 16 bytes.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::bytea;
SELECT '\x01563e3ab5d3d6764c61efb99302bd5b'::bytea::ulid;
SELECT regress.error_of(q) FROM (VALUES
    ($$SELECT ''::bytea::ulid$$),
    ($$SELECT '\x01'::bytea::ulid$$),
    ($$SELECT '\x01563e3ab5d3d6764c61efb99302bd'::bytea::ulid$$),
    ($$SELECT '\x01563e3ab5d3d6764c61efb99302bd5b00'::bytea::ulid$$)
) v(q);
-- Function-style casts: uuid(id) is ulid's cast to uuid (binary-coercible) on every major, also
-- beside 19's uuid(bytea); bytea(id) is no cast on any major (write id::bytea): a cast that needs a
-- function has no function-style form, and 19's bytea(uuid) does not take a ulid.
SELECT uuid('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid) AS uuid_of_ulid;
\set VERBOSITY terse
SELECT bytea('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid);
\set VERBOSITY default
-- On 19, its uuid(bytea) and bytea(uuid) give the same 16 bytes as ulid's casts (an ERROR here
-- otherwise; nothing to compare before 19).
DO $$
DECLARE
    same boolean;
BEGIN
    IF pg_catalog.current_setting('server_version_num')::int >= 190000 THEN
        EXECUTE $q$SELECT uuid('\x01563e3ab5d3d6764c61efb99302bd5b'::bytea) = '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid
            AND '\x01563e3ab5d3d6764c61efb99302bd5b'::bytea::uuid::ulid = '\x01563e3ab5d3d6764c61efb99302bd5b'::bytea::ulid
            AND bytea('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid) = '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::bytea$q$ INTO same;
        IF same IS NOT TRUE THEN
            RAISE EXCEPTION '19''s uuid(bytea) and bytea(uuid) disagree with the casts of ulid';
        END IF;
    END IF;
END
$$;
-- timestamptz: the embedded time; a time casts to the smallest ULID of its millisecond.
SET timezone = 'UTC';
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::timestamptz;
SELECT '2016-07-30 23:54:10.259+00'::timestamptz::ulid;
SELECT '2016-07-30 23:54:10.259999+00'::timestamptz::ulid = '2016-07-30 23:54:10.259+00'::timestamptz::ulid
    AS microseconds_round_down;
SELECT regress.error_of(q) FROM (VALUES
    ($$SELECT '1969-12-31 23:59:59.999+00'::timestamptz::ulid$$),
    ($$SELECT 'infinity'::timestamptz::ulid$$),
    ($$SELECT '20000-01-01 00:00:00+00'::timestamptz::ulid$$)
) v(q);
RESET timezone;
