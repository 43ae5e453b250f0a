-- Portable edition (portable/ulid_portable.sql) per call, against the native extension and core
-- uuid: generators over P calls, and encode / decode / timestamp over a table of P values, each
-- against its floor (the same query counting the input itself). psql variables: P, ROUNDS.
\ir ../../portable/ulid_portable.sql
DROP TABLE IF EXISTS bench.p_data;
CREATE TABLE bench.p_data AS
SELECT u, u::ulid AS id, u::ulid::text AS t, u::text AS ut
FROM (SELECT gen_random_uuid() AS u FROM generate_series(1, :P)) s;
VACUUM ANALYZE bench.p_data;
-- warm the portable generator's session state (its first call waits for the next millisecond)
SELECT ulid_portable.gen_ulid() IS NOT NULL AS warm;
\set S 'FROM generate_series(1, ' :P ') x'
\set D 'FROM bench.p_data'
DELETE FROM bench.cases WHERE item LIKE 'portable%';
INSERT INTO bench.cases (item, variant, ord, sql) VALUES
    ('portable_gen', 'floor',                     1, format('SELECT count(x) %s', :'S')),
    ('portable_gen', 'gen_random_uuid',           2, format('SELECT count(gen_random_uuid()) %s', :'S')),
    ('portable_gen', 'native gen_ulid',           3, format('SELECT count(gen_ulid()) %s', :'S')),
    ('portable_gen', 'portable gen_ulid',         4, format('SELECT count(ulid_portable.gen_ulid()) %s', :'S')),
    ('portable_gen', 'native gen_random_ulid',    5, format('SELECT count(gen_random_ulid()) %s', :'S')),
    ('portable_gen', 'portable gen_random_ulid',  6, format('SELECT count(ulid_portable.gen_random_ulid()) %s', :'S')),
    ('portable_io', 'floor',                      1, format('SELECT count(u) %s', :'D')),
    ('portable_io', 'uuid::text',                 2, format('SELECT count(u::text) %s', :'D')),
    ('portable_io', 'native ulid::text',          3, format('SELECT count(id::text) %s', :'D')),
    ('portable_io', 'portable ulid_encode',       4, format('SELECT count(ulid_portable.ulid_encode(u)) %s', :'D')),
    ('portable_io', 'text::uuid',                 5, format('SELECT count(ut::uuid) %s', :'D')),
    ('portable_io', 'native text::ulid',          6, format('SELECT count(t::ulid) %s', :'D')),
    ('portable_io', 'portable ulid_decode',       7, format('SELECT count(ulid_portable.ulid_decode(t)) %s', :'D')),
    ('portable_io', 'native ulid_to_timestamp',   8, format('SELECT count(ulid_to_timestamp(id)) %s', :'D')),
    ('portable_io', 'portable ulid_to_timestamp', 9, format('SELECT count(ulid_portable.ulid_to_timestamp(u)) %s', :'D'));
CALL bench.run('portable_gen', :ROUNDS);
CALL bench.run('portable_io', :ROUNDS);
