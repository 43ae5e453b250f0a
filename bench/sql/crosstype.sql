-- ulid meets uuid (0.3.0): what a uuid-typed value costs against a ulid key, next to a ulid-typed
-- one, over one table of P ulid keys (primary key) and P lookup keys held as both types.
--   xt_lookup: P point lookups through the primary key, each a statement with the key as a
--              parameter (a PL/pgSQL loop: its variables are parameters, as a driver's are), typed
--              ulid and typed uuid, and the floor (the same loop without the lookup);
--   xt_join:   a hash join of P rows, ulid = ulid against ulid = uuid.
-- psql variables: P, ROUNDS.
DROP TABLE IF EXISTS bench.xt_t, bench.xt_k;
CREATE TABLE bench.xt_t (id ulid PRIMARY KEY, n int);
INSERT INTO bench.xt_t SELECT gen_ulid(), i FROM generate_series(1, :P) i;
CREATE TABLE bench.xt_k AS SELECT id AS l, id::uuid AS u FROM bench.xt_t ORDER BY random();
VACUUM ANALYZE bench.xt_t, bench.xt_k;
-- bench.xt_lookups(typed): P lookups by a parameter of that type; returns the rows found
CREATE OR REPLACE FUNCTION bench.xt_lookups(typed text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    l ulid;
    u uuid;
    found_n int;
    hits bigint := 0;
BEGIN
    FOR l, u IN SELECT k.l, k.u FROM bench.xt_k k LOOP
        IF typed = 'ulid' THEN
            SELECT t.n INTO found_n FROM bench.xt_t t WHERE t.id = l;
        ELSIF typed = 'uuid' THEN
            SELECT t.n INTO found_n FROM bench.xt_t t WHERE t.id = u;
        ELSE
            found_n := 1;
        END IF;
        hits := hits + (found_n IS NOT NULL)::int;
    END LOOP;
    RETURN hits;
END
$$;
DELETE FROM bench.cases WHERE item LIKE 'xt_%';
INSERT INTO bench.cases (item, variant, ord, sql) VALUES
    ('xt_lookup', 'floor',            1, 'SELECT bench.xt_lookups(''none'')'),
    ('xt_lookup', 'ulid parameter',   2, 'SELECT bench.xt_lookups(''ulid'')'),
    ('xt_lookup', 'uuid parameter',   3, 'SELECT bench.xt_lookups(''uuid'')'),
    ('xt_join',   'ulid = ulid',      1, 'SELECT count(*) FROM bench.xt_t t JOIN bench.xt_k k ON t.id = k.l'),
    ('xt_join',   'ulid = uuid',      2, 'SELECT count(*) FROM bench.xt_t t JOIN bench.xt_k k ON t.id = k.u');
-- the plans measured: nested index scans for the lookups, a hash join for the joins
SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM bench.xt_t t JOIN bench.xt_k k ON t.id = k.u;
CALL bench.run('xt_join', :ROUNDS);
RESET enable_mergejoin;
RESET enable_nestloop;
PREPARE xt_probe(uuid) AS SELECT t.n FROM bench.xt_t t WHERE t.id = $1;
EXPLAIN (COSTS OFF) EXECUTE xt_probe('00000000-0000-0000-0000-000000000000');
DEALLOCATE xt_probe;
CALL bench.run('xt_lookup', :ROUNDS);
