-- Item 1: generation. GEN_N calls of each generator inside count(), against the executor floor
-- (the same query counting the series itself), as the benchmark's targets define it:
--     SELECT count(f()) FROM generate_series(1, GEN_N) x
-- That series is a tuplestore which spills to a temporary file past work_mem (4MB), so its floor
-- includes temp-file I/O. The xj_* variants repeat the measurement over a cross join of two small
-- series (no spill, a floor ~3x lower) and decompose a generator's cost with core functions:
--   now()                       a trivial function call returning a by-value Datum
--   clock_timestamp()           + reading the clock
--   now() - now()               + a 16-byte by-reference result (palloc, per-row context reset)
--   clock_timestamp() - now()   both: what "read the clock, return 16 bytes" costs in core
-- gen_monotonic_ulid() needs the server started with shared_preload_libraries = 'ulid'.
-- psql variables: GEN_N, ROUNDS; optional GEN_ONLY, a comma-separated list of the variants to run
-- (scripts/bench --only monotonic).
\set XJ 'FROM generate_series(1, ' :GEN_N '/ 10000) a, generate_series(1, 10000) b'
DELETE FROM bench.cases WHERE item = 'gen';
INSERT INTO bench.cases (item, variant, ord, sql) VALUES
    ('gen', 'floor',            1, format('SELECT count(x) FROM generate_series(1, %s) x', :GEN_N)),
    ('gen', 'gen_random_uuid',  2, format('SELECT count(gen_random_uuid()) FROM generate_series(1, %s) x', :GEN_N)),
    ('gen', 'gen_ulid',         3, format('SELECT count(gen_ulid()) FROM generate_series(1, %s) x', :GEN_N)),
    ('gen', 'gen_random_ulid',  4, format('SELECT count(gen_random_ulid()) FROM generate_series(1, %s) x', :GEN_N)),
    ('gen', 'gen_ulid_ts',      5, format('SELECT count(gen_ulid(now())) FROM generate_series(1, %s) x', :GEN_N)),
    ('gen', 'xj_floor',           6, format('SELECT count(b) %s', :'XJ')),
    ('gen', 'xj_now',             7, format('SELECT count(now()) %s', :'XJ')),
    ('gen', 'xj_clock_timestamp', 8, format('SELECT count(clock_timestamp()) %s', :'XJ')),
    ('gen', 'xj_byref',           9, format('SELECT count(now() - now()) %s', :'XJ')),
    ('gen', 'xj_clock_byref',    10, format('SELECT count(clock_timestamp() - now()) %s', :'XJ')),
    ('gen', 'xj_gen_ulid',       11, format('SELECT count(gen_ulid()) %s', :'XJ')),
    ('gen', 'xj_gen_random_ulid', 12, format('SELECT count(gen_random_ulid()) %s', :'XJ')),
    ('gen', 'xj_gen_ulid_ts',    13, format('SELECT count(gen_ulid(now())) %s', :'XJ')),
    ('gen', 'gen_monotonic_ulid', 14, format('SELECT count(gen_monotonic_ulid()) FROM generate_series(1, %s) x', :GEN_N)),
    ('gen', 'xj_gen_monotonic_ulid', 15, format('SELECT count(gen_monotonic_ulid()) %s', :'XJ'));
\if :{?GEN_ONLY}
DELETE FROM bench.cases WHERE item = 'gen' AND variant <> ALL (pg_catalog.string_to_array(:'GEN_ONLY', ','));
\endif
CALL bench.run('gen', :ROUNDS);
