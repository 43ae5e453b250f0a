-- Public ids (0.5.0) per call: ulid_encrypt/ulid_decrypt with a key argument and with the
-- server-held key, against what people use instead (gen_random_uuid() for a separate public
-- column, md5() of the id's text), over a table of P ids, each against the floor (the same query
-- counting the id itself); the portable edition (pgcrypto) over P/10 ids against its own floor.
-- Every key is a constant of the query, as a bind parameter is to the executor. The server runs
-- with shared_preload_libraries = 'ulid' and ulid.public_id_key set (scripts/bench).
-- psql variables: P, ROUNDS.
CREATE EXTENSION IF NOT EXISTS pgcrypto;
\ir ../../portable/ulid_portable.sql
DROP TABLE IF EXISTS bench.pid_t, bench.pid_small;
CREATE TABLE bench.pid_t AS SELECT gen_random_ulid() AS id FROM generate_series(1, :P);
CREATE TABLE bench.pid_small AS SELECT id, id::uuid AS u FROM bench.pid_t LIMIT (:P / 10);
VACUUM ANALYZE bench.pid_t, bench.pid_small;
\set K128 '''\\x00112233445566778899aabbccddeeff''::bytea'
\set K256 '''\\x00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff''::bytea'
DELETE FROM bench.cases WHERE item LIKE 'pid_%';
INSERT INTO bench.cases (item, variant, ord, sql) VALUES
    ('pid_call', 'floor',                   1, 'SELECT count(id) FROM bench.pid_t'),
    ('pid_call', 'gen_random_uuid',         2, 'SELECT count(gen_random_uuid()) FROM bench.pid_t'),
    ('pid_call', 'md5(id::text)',           3, 'SELECT count(md5(id::text)) FROM bench.pid_t'),
    ('pid_call', 'ulid_encrypt AES-128',    4, format('SELECT count(ulid_encrypt(id, %s)) FROM bench.pid_t', :'K128')),
    ('pid_call', 'ulid_encrypt AES-256',    5, format('SELECT count(ulid_encrypt(id, %s)) FROM bench.pid_t', :'K256')),
    ('pid_call', 'ulid_decrypt AES-256',    6, format('SELECT count(ulid_decrypt(id, %s)) FROM bench.pid_t', :'K256')),
    ('pid_call', 'ulid_encrypt server key', 7, 'SELECT count(ulid_encrypt(id)) FROM bench.pid_t'),
    ('pid_portable', 'floor',                  1, 'SELECT count(u) FROM bench.pid_small'),
    ('pid_portable', 'gen_random_uuid',        2, 'SELECT count(gen_random_uuid()) FROM bench.pid_small'),
    ('pid_portable', 'native ulid_encrypt',    3, format('SELECT count(ulid_encrypt(id, %s)) FROM bench.pid_small', :'K256')),
    ('pid_portable', 'portable ulid_encrypt',  4, format('SELECT count(ulid_portable.ulid_encrypt(u, %s)) FROM bench.pid_small', :'K256'));
-- the two editions agree on the data measured
SELECT count(*) FILTER (WHERE ulid_portable.ulid_encrypt(u, :K256) <> ulid_encrypt(id, :K256)::uuid) AS editions_differ
FROM bench.pid_small;
CALL bench.run('pid_call', :ROUNDS);
CALL bench.run('pid_portable', :ROUNDS);
