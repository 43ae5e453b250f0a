-- Generators: monotonic gen_ulid(), gen_ulid(timestamptz), gen_random_ulid(). Generated values are
-- never printed: every check is a boolean or a count.
-- One million gen_ulid() values in one statement are strictly increasing in call order.
SELECT count(*) AS values, bool_and(prev < id) AS strictly_increasing, count(DISTINCT id) AS distinct_values
FROM (SELECT n, id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, gen_ulid() AS id FROM generate_series(1, 1000000) n) g) x;
-- Within a millisecond, each value is the previous one plus one (only the last bytes move).
SELECT count(*) FILTER (WHERE same_ms) > 0 AS has_same_ms_pairs,
       count(*) FILTER (WHERE same_ms AND NOT (high_same AND low_delta = 1)) AS same_ms_not_plus_one
FROM (SELECT ulid_to_timestamp(id) = ulid_to_timestamp(prev) AS same_ms,
             ('x' || encode(substr(id::bytea, 11, 6), 'hex'))::bit(48)::bigint
             - ('x' || encode(substr(prev::bytea, 11, 6), 'hex'))::bit(48)::bigint AS low_delta,
             substr(id::bytea, 1, 10) = substr(prev::bytea, 1, 10) AS high_same
      FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
            FROM (SELECT n, gen_ulid() AS id FROM generate_series(1, 20000) n) g) x
      WHERE prev IS NOT NULL) y;
-- Across statements of a session the order continues.
CREATE TEMP TABLE gen_seq (n serial, id ulid DEFAULT gen_ulid());
INSERT INTO gen_seq (id) SELECT gen_ulid() FROM generate_series(1, 1000);
INSERT INTO gen_seq DEFAULT VALUES;
INSERT INTO gen_seq (id) SELECT gen_ulid() FROM generate_series(1, 1000);
SELECT bool_and(prev < id) AS increasing_across_statements
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM gen_seq) x WHERE prev IS NOT NULL;
-- The embedded time is now.
SELECT ulid_to_timestamp(u) >= date_trunc('milliseconds', s) - interval '1 millisecond'
       AND ulid_to_timestamp(u) <= clock_timestamp() AS gen_ulid_is_now
FROM (SELECT statement_timestamp() AS s, gen_ulid() AS u OFFSET 0) x;
SELECT ulid_to_timestamp(u) >= date_trunc('milliseconds', s)
       AND ulid_to_timestamp(u) <= clock_timestamp() AS gen_random_ulid_is_now
FROM (SELECT statement_timestamp() AS s, gen_random_ulid() AS u OFFSET 0) x;
-- gen_random_ulid(): fresh entropy every call (no increments, no repeats).
SELECT count(DISTINCT id) AS distinct_random, count(DISTINCT substr(id::bytea, 7)) AS distinct_entropy
FROM (SELECT gen_random_ulid() AS id FROM generate_series(1, 100000)) x;
-- Entropy bits look uniform: each of the 80 bits is set in 40-60% of 20000 values.
SELECT bool_and(ones BETWEEN 8000 AND 12000) AS bits_balanced
FROM (SELECT bit, count(*) FILTER (WHERE get_bit(substr(id::bytea, 7), bit) = 1) AS ones
      FROM (SELECT gen_random_ulid() AS id FROM generate_series(1, 20000)) x, generate_series(0, 79) bit
      GROUP BY bit) y;
-- gen_ulid(timestamptz): that millisecond, random entropy, not part of the monotonic sequence.
SET timezone = 'UTC';
SELECT count(*) AS values, bool_and(ulid_to_timestamp(id) = '2001-02-03 04:05:06.789+00') AS right_time,
       count(DISTINCT id) AS distinct_values
FROM (SELECT gen_ulid('2001-02-03 04:05:06.789654+00') AS id FROM generate_series(1, 10000)) x;
SELECT ulid_to_timestamp(gen_ulid('1970-01-01 00:00:00+00')) AS epoch,
       ulid_to_timestamp(gen_ulid('10889-08-02 05:31:50.655+00')) AS last;
SELECT gen_ulid(NULL::timestamptz) IS NULL AS null_time_gives_null;
RESET timezone;
-- Catalog: volatility, parallel safety and strictness as documented (ulid_skipsupport, on 18 only,
-- is checked in extension.sql).
SELECT p.oid::regprocedure AS function, p.provolatile, p.proparallel, p.proisstrict
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid'
WHERE p.prokind = 'f' AND p.proname <> 'ulid_skipsupport'
ORDER BY p.oid::regprocedure::text;
-- gen_ulid() is PARALLEL RESTRICTED: a parallel plan runs it in the leader only.
CREATE TABLE gen_par AS SELECT n FROM generate_series(1, 100000) n;
ANALYZE gen_par;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT count(gen_ulid()) FROM gen_par;
EXPLAIN (COSTS OFF) SELECT count(gen_random_ulid()) FROM gen_par;
SELECT count(DISTINCT id) AS parallel_random_distinct FROM (SELECT gen_random_ulid() AS id FROM gen_par) x;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
DROP TABLE gen_par;
