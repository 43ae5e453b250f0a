-- ulid meets uuid (0.3.0): what a uuid-typed value costs against a ulid key, next to a ulid-typed
-- one, over one table of P ulid keys (primary key) and P lookup keys held as both types.
--   xt_lookup: P point lookups through the primary key (one index scan per key: LATERAL ... LIMIT 1)
--              with the key as ulid and as uuid, and the floor (the same loop without the lookup);
--   xt_join:   a hash join of P rows, ulid = ulid against ulid = uuid.
-- psql variables: P, ROUNDS.
DROP TABLE IF EXISTS bench.xt_t, bench.xt_k;
CREATE TABLE bench.xt_t (id ulid PRIMARY KEY, n int);
INSERT INTO bench.xt_t SELECT gen_ulid(), i FROM generate_series(1, :P) i;
CREATE TABLE bench.xt_k AS SELECT id AS l, id::uuid AS u FROM bench.xt_t ORDER BY random();
VACUUM ANALYZE bench.xt_t, bench.xt_k;
DELETE FROM bench.cases WHERE item LIKE 'xt_%';
INSERT INTO bench.cases (item, variant, ord, sql) VALUES
    ('xt_lookup', 'floor',            1, 'SELECT count(*) FROM bench.xt_k k CROSS JOIN LATERAL (SELECT 1 OFFSET 0) s'),
    ('xt_lookup', 'ulid parameter',   2, 'SELECT count(s.n) FROM bench.xt_k k CROSS JOIN LATERAL (SELECT t.n FROM bench.xt_t t WHERE t.id = k.l LIMIT 1) s'),
    ('xt_lookup', 'uuid parameter',   3, 'SELECT count(s.n) FROM bench.xt_k k CROSS JOIN LATERAL (SELECT t.n FROM bench.xt_t t WHERE t.id = k.u LIMIT 1) s'),
    ('xt_join',   'ulid = ulid',      1, 'SELECT count(*) FROM bench.xt_t t JOIN bench.xt_k k ON t.id = k.l'),
    ('xt_join',   'ulid = uuid',      2, 'SELECT count(*) FROM bench.xt_t t JOIN bench.xt_k k ON t.id = k.u');
-- the plans measured: nested index scans for the lookups, a hash join for the joins
SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM bench.xt_t t JOIN bench.xt_k k ON t.id = k.u;
CALL bench.run('xt_join', :ROUNDS);
RESET enable_mergejoin;
RESET enable_nestloop;
EXPLAIN (COSTS OFF) SELECT count(s.n) FROM bench.xt_k k CROSS JOIN LATERAL (SELECT t.n FROM bench.xt_t t WHERE t.id = k.u LIMIT 1) s;
CALL bench.run('xt_lookup', :ROUNDS);
