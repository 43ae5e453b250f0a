-- B-tree: index scans, time-range scans, sorting with abbreviated keys, merge joins, dedup, amcheck.
CREATE EXTENSION IF NOT EXISTS amcheck;
CREATE EXTENSION IF NOT EXISTS pageinspect;
SET timezone = 'UTC';
-- 20000 rows, one per second from 2026-01-01, with deterministic entropy built from the row number.
CREATE TABLE bt (n int, id ulid);
INSERT INTO bt
SELECT n, overlay(ulid_min(timestamptz '2026-01-01 00:00:00+00' + n * interval '1 second')::bytea
               PLACING decode(lpad(to_hex(n * 7919), 20, '0'), 'hex') FROM 7)::ulid
FROM generate_series(1, 20000) n;
CREATE UNIQUE INDEX bt_id ON bt (id);
ANALYZE bt;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM bt WHERE id = '01KDVY1PBHZ0000000000000QY';
SELECT n, id, ulid_to_timestamp(id) FROM bt WHERE id = (SELECT id FROM bt WHERE n = 4242);
-- A time range through the cast and ulid_max: both bounds inclusive, millisecond-exact.
EXPLAIN (COSTS OFF)
SELECT count(*) FROM bt
WHERE id >= '2026-01-01 01:00:00+00'::timestamptz::ulid AND id <= ulid_max('2026-01-01 01:59:59.999+00');
SELECT count(*), min(n), max(n) FROM bt
WHERE id >= '2026-01-01 01:00:00+00'::timestamptz::ulid AND id <= ulid_max('2026-01-01 01:59:59.999+00');
SELECT count(*) FROM bt
WHERE id > ulid_max('2026-01-01 01:00:00+00') AND id < ulid_min('2026-01-01 01:00:10+00');
-- ORDER BY reads the index in both directions.
EXPLAIN (COSTS OFF) SELECT id FROM bt ORDER BY id DESC LIMIT 3;
SELECT n FROM bt ORDER BY id DESC LIMIT 3;
SELECT n FROM bt ORDER BY id LIMIT 3;
RESET enable_seqscan;
RESET enable_bitmapscan;
-- Sorting (abbreviated keys) agrees with an independent order: uuid's, on 100000 random values.
CREATE TABLE bt_random AS SELECT gen_random_ulid() AS id FROM generate_series(1, 100000);
SET work_mem = '64MB';
SELECT count(*) AS agree FROM (
    SELECT row_number() OVER (ORDER BY id) AS a, row_number() OVER (ORDER BY id::uuid) AS b
    FROM bt_random
) x WHERE a = b;
-- An external sort (spilling to disk) is ordered too.
SET work_mem = '64kB';
SELECT bool_and(prev < id) AS external_sort_ordered
FROM (SELECT id, lag(id) OVER (ORDER BY id) AS prev FROM bt_random) x WHERE prev IS NOT NULL;
RESET work_mem;
-- CREATE INDEX (sorted build) gives a valid index, checked by amcheck with all heap tuples.
CREATE INDEX bt_random_id ON bt_random (id);
SELECT bt_index_parent_check('bt_random_id', heapallindexed => true);
SELECT bt_index_parent_check('bt_id', heapallindexed => true);
-- Deduplication is allowed (btequalimage): duplicates share posting lists.
SELECT allequalimage FROM bt_metap('bt_random_id');
CREATE TABLE bt_dups AS
    SELECT ('0000000000000000000000000' || (n % 10))::ulid AS id FROM generate_series(1, 10000) n;
CREATE INDEX bt_dups_id ON bt_dups (id);
CREATE INDEX bt_dups_plain ON bt_dups (id) WITH (deduplicate_items = off);
SELECT bt_index_parent_check('bt_dups_id', heapallindexed => true);
CREATE TABLE bt_dups_uuid AS SELECT id::uuid AS id FROM bt_dups;
CREATE INDEX bt_dups_uuid_id ON bt_dups_uuid (id);
SELECT pg_relation_size('bt_dups_id') * 3 < pg_relation_size('bt_dups_plain') AS deduplicated,
       pg_relation_size('bt_dups_id') = pg_relation_size('bt_dups_uuid_id') AS same_size_as_uuid;
-- Merge join on ulid, between two tables (18 would remove a self-join on a unique key): bt and
-- bt_half, the even rows of bt plus 100 ulids that are in no row of bt.
CREATE TABLE bt_half AS
    SELECT n, id FROM bt WHERE n % 2 = 0
    UNION ALL SELECT -n, ulid_max(timestamptz '2026-01-01 00:00:00+00' + n * interval '1 second') FROM generate_series(1, 100) n;
CREATE UNIQUE INDEX bt_half_id ON bt_half (id);
VACUUM ANALYZE bt;
VACUUM ANALYZE bt_half;
SET enable_hashjoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM bt a JOIN bt_half h ON a.id = h.id;
SELECT count(*), bool_and(a.n = h.n) AS same_rows FROM bt a JOIN bt_half h ON a.id = h.id;
RESET enable_hashjoin;
RESET enable_nestloop;
-- A primary key rejects duplicates.
CREATE TABLE bt_pk (id ulid PRIMARY KEY);
INSERT INTO bt_pk VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV');
INSERT INTO bt_pk VALUES ('01arz3ndektsv4rrffq69g5fav');
DROP TABLE bt, bt_half, bt_random, bt_dups, bt_dups_uuid, bt_pk;
RESET timezone;
