-- scripts/lib/demo.sql: a short tour of the ulid extension (run by scripts/demo without a terminal:
-- psql -X -e -v ON_ERROR_STOP=1 -f scripts/lib/demo.sql, in a throwaway cluster, extension created).

-- A table keyed by ULIDs: the default is the monotonic generator.
CREATE TABLE events (id ulid PRIMARY KEY DEFAULT gen_ulid(), body text);
INSERT INTO events (body) SELECT 'event #' || g FROM generate_series(1, 100000) AS g;
ANALYZE events;

-- Newest first: the id sorts by time, and carries its timestamp (millisecond precision).
SELECT id, ulid_to_timestamp(id) FROM events ORDER BY id DESC LIMIT 5;

-- Time ranges become id ranges: timestamptz::ulid is the smallest ULID of that millisecond,
-- ulid_max(t) the largest.
SELECT count(*) AS since_2026
  FROM events
 WHERE id BETWEEN '2026-01-01'::timestamptz::ulid AND ulid_max(now());
SELECT count(*) AS last_hour
  FROM events
 WHERE id >= (now() - interval '1 hour')::ulid AND id <= ulid_max(now());

-- Input is case-insensitive, output always uppercase; max(id) is a backward index scan.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid, '01arz3ndektsv4rrffq69g5fav'::ulid, max(id) FROM events;

-- A ULID is the same 16 bytes as a uuid.
SELECT id, id::uuid AS as_uuid, ulid_to_timestamp(id) AS at FROM events ORDER BY id LIMIT 3;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid, '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid::ulid;

-- The primary key serves lookups, (selective) time ranges and max().
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
EXPLAIN (COSTS OFF)
SELECT * FROM events
 WHERE id BETWEEN '2026-01-01'::timestamptz::ulid AND ulid_max('2026-01-01 00:10');
EXPLAIN (COSTS OFF) SELECT max(id) FROM events;
