-- bench/sql/uuidv7.sql: ulid against PostgreSQL 18's own uuidv7() (scripts/bench --uuidv7).
-- Needs setup.sql and insert.sql (bench.pk_prepare, bench.pk_insert). psql variables: GEN_N, ROUNDS.
--
-- Per call: GEN_N calls of each generator inside count() over a cross join of two small series (no
-- temp-file spill), with the executor floor (the same query counting the series) measured in the
-- same rounds. uuidv7() is core's (18+): 48-bit Unix ms, then a 12-bit sub-millisecond fraction,
-- then random bits; like gen_random_uuid() it draws its randomness from pg_strong_random() per call.
\set XJ 'FROM generate_series(1, ' :GEN_N '/ 10000) a, generate_series(1, 10000) b'
DELETE FROM bench.cases WHERE item = 'v7gen';
INSERT INTO bench.cases (item, variant, ord, sql) VALUES
    ('v7gen', 'floor',           1, format('SELECT count(b) %s', :'XJ')),
    ('v7gen', 'gen_ulid',        2, format('SELECT count(gen_ulid()) %s', :'XJ')),
    ('v7gen', 'uuidv7',          3, format('SELECT count(uuidv7()) %s', :'XJ')),
    ('v7gen', 'gen_random_ulid', 4, format('SELECT count(gen_random_ulid()) %s', :'XJ')),
    ('v7gen', 'gen_random_uuid', 5, format('SELECT count(gen_random_uuid()) %s', :'XJ'));
CALL bench.run('v7gen', :ROUNDS);

-- Primary-key loads: the key column of each variant (bench.pk_prepare reads this table).
INSERT INTO bench.pk_variants VALUES
    ('uuidv7', 5, 'id uuid PRIMARY KEY DEFAULT uuidv7()', NULL)
ON CONFLICT (variant) DO UPDATE SET ord = excluded.ord, coldef = excluded.coldef, setup = excluded.setup;
