-- min(ulid) and max(ulid): values, NULLs, empty input, index use and parallel combine.
CREATE TABLE agg (id ulid);
SELECT min(id) IS NULL AS empty_min, max(id) IS NULL AS empty_max FROM agg;
INSERT INTO agg VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'), (NULL), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'),
                       ('00000000000000000000000000'), ('01ARZ3NDEKTSV4RRFFQ69G5FAW');
SELECT min(id), max(id), count(id) FROM agg;
CREATE INDEX agg_id ON agg (id);
ANALYZE agg;
SET enable_seqscan = off;
SELECT regress.plan('SELECT max(id) FROM agg');
SELECT regress.plan('SELECT min(id) FROM agg');
SELECT min(id), max(id) FROM agg;
RESET enable_seqscan;
-- Parallel aggregation combines partial results.
CREATE TABLE agg_big AS SELECT gen_random_ulid() AS id FROM generate_series(1, 100000);
ANALYZE agg_big;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT min(id), max(id) FROM agg_big;
SELECT min(id) = (SELECT id FROM agg_big ORDER BY id LIMIT 1) AS min_ok,
       max(id) = (SELECT id FROM agg_big ORDER BY id DESC LIMIT 1) AS max_ok
FROM agg_big;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
DROP TABLE agg, agg_big;
