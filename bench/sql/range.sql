-- Item 6: range queries by time, b-tree vs BRIN on identical tables: Q queries per run over
-- windows of 1 minute (~600 rows), 1 hour (~36,000 rows) and 6 hours (~216,000 rows); the value is
-- the summed execution time of the Q queries. Plans and index sizes are recorded too.
-- psql variables: N, Q, ROUNDS.
DELETE FROM bench.cases WHERE item LIKE 'range_%';
INSERT INTO bench.cases (item, variant, ord, sql, mode)
SELECT 'range_' || w.name, t.variant, t.ord,
       format('SELECT bench.range_ms(%L, %s, %L, %s)', t.tab, :Q, w.width, :N), 'value'
FROM (VALUES ('1min', interval '1 minute'), ('1h', interval '1 hour'), ('6h', interval '6 hours')) w(name, width),
     (VALUES ('btree', 'r_bt', 1), ('brin', 'r_brin', 2)) t(variant, tab, ord);
CALL bench.run('range_1min', :ROUNDS);
CALL bench.run('range_1h', :ROUNDS);
CALL bench.run('range_6h', :ROUNDS);
INSERT INTO bench.results (item, variant, round, metric, value) VALUES
    ('range', 'btree', 1, 'index_bytes', pg_relation_size('r_bt_idx')),
    ('range', 'brin',  1, 'index_bytes', pg_relation_size('r_brin_idx'));
\echo --- plans (1 hour window)
EXPLAIN (COSTS OFF) SELECT count(*), sum(v) FROM r_bt
WHERE id >= '2025-01-02 00:00+00'::timestamptz::ulid AND id < '2025-01-02 01:00+00'::timestamptz::ulid;
EXPLAIN (COSTS OFF) SELECT count(*), sum(v) FROM r_brin
WHERE id >= '2025-01-02 00:00+00'::timestamptz::ulid AND id < '2025-01-02 01:00+00'::timestamptz::ulid;
