-- BRIN: the default minmax operator class on time-ordered ulids (minmax-multi and bloom, which
-- need PostgreSQL 14, are in brin_multi.sql).
SET timezone = 'UTC';
CREATE TABLE br (n int, id ulid);
INSERT INTO br
SELECT n, gen_ulid(timestamptz '2026-03-01 00:00:00+00' + n * interval '1 minute')
FROM generate_series(1, 20000) n;
CREATE INDEX br_minmax ON br USING brin (id) WITH (pages_per_range = 4);
SELECT opcname FROM pg_opclass c JOIN pg_index i ON c.oid = i.indclass[0]
WHERE i.indexrelid = 'br_minmax'::regclass;
ANALYZE br;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM br WHERE id >= '2026-03-02'::timestamptz::ulid AND id < '2026-03-03'::timestamptz::ulid;
SELECT count(*), min(n), max(n) FROM br
WHERE id >= '2026-03-02'::timestamptz::ulid AND id < '2026-03-03'::timestamptz::ulid;
SELECT regress.plan('SELECT n FROM br WHERE id = (SELECT id FROM br WHERE n = 777)');
SELECT n FROM br WHERE id = (SELECT id FROM br WHERE n = 777);
RESET enable_seqscan;
-- Summarising new ranges works after more inserts.
INSERT INTO br
SELECT n, gen_ulid(timestamptz '2026-03-01 00:00:00+00' + n * interval '1 minute')
FROM generate_series(20001, 21000) n;
SELECT brin_summarize_new_values('br_minmax') >= 0 AS summarized;
SET enable_seqscan = off;
SELECT n FROM br WHERE id = (SELECT id FROM br WHERE n = 20500);
RESET enable_seqscan;
DROP TABLE br;
RESET timezone;
