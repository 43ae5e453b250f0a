-- BRIN minmax-multi and bloom operator classes on time-ordered ulids. They need PostgreSQL 14
-- (where BRIN gained both); on 13 the extension does not create them, and CREATE INDEX fails the
-- way users see it (expected/brin_multi_1.out), which ends this file there.
SET timezone = 'UTC';
CREATE TABLE br (n int, id ulid);
INSERT INTO br
SELECT n, gen_ulid(timestamptz '2026-03-01 00:00:00+00' + n * interval '1 minute')
FROM generate_series(1, 20000) n;
ANALYZE br;
SELECT current_setting('server_version_num')::int < 140000 AS before_14 \gset
\if :before_14
CREATE INDEX br_multi ON br USING brin (id ulid_minmax_multi_ops) WITH (pages_per_range = 4);
CREATE INDEX br_bloom ON br USING brin (id ulid_bloom_ops) WITH (pages_per_range = 4);
DROP TABLE br;
RESET timezone;
\quit
\endif
SET enable_seqscan = off;
CREATE INDEX br_multi ON br USING brin (id ulid_minmax_multi_ops) WITH (pages_per_range = 4);
EXPLAIN (COSTS OFF)
SELECT count(*) FROM br WHERE id >= '2026-03-02'::timestamptz::ulid AND id < '2026-03-03'::timestamptz::ulid;
SELECT count(*), min(n), max(n) FROM br
WHERE id >= '2026-03-02'::timestamptz::ulid AND id < '2026-03-03'::timestamptz::ulid;
-- The same with uuid bounds (0.3.0: the (ulid, uuid) operators are in the family).
EXPLAIN (COSTS OFF)
SELECT count(*) FROM br WHERE id >= '2026-03-02'::timestamptz::ulid::uuid AND id < '2026-03-03'::timestamptz::ulid::uuid;
SELECT count(*), min(n), max(n) FROM br
WHERE id >= '2026-03-02'::timestamptz::ulid::uuid AND id < '2026-03-03'::timestamptz::ulid::uuid;
DROP INDEX br_multi;
CREATE INDEX br_bloom ON br USING brin (id ulid_bloom_ops) WITH (pages_per_range = 4);
SELECT regress.plan('SELECT n FROM br WHERE id = (SELECT id FROM br WHERE n = 777)');
SELECT n FROM br WHERE id = (SELECT id FROM br WHERE n = 777);
SELECT count(*) FROM br WHERE id = '00000000000000000000000000';
-- a uuid value looks the bloom filter up with the same hash as the ulid value
SELECT regress.plan('SELECT n FROM br WHERE id = (SELECT id::uuid FROM br WHERE n = 777)');
SELECT n FROM br WHERE id = (SELECT id::uuid FROM br WHERE n = 777);
RESET enable_seqscan;
-- Summarising new ranges works after more inserts.
INSERT INTO br
SELECT n, gen_ulid(timestamptz '2026-03-01 00:00:00+00' + n * interval '1 minute')
FROM generate_series(20001, 21000) n;
SELECT brin_summarize_new_values('br_bloom') >= 0 AS summarized;
SET enable_seqscan = off;
SELECT n FROM br WHERE id = (SELECT id FROM br WHERE n = 20500);
RESET enable_seqscan;
DROP TABLE br;
RESET timezone;
