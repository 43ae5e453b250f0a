-- bench/sql/tle_base_type.sql: could a ulid type made with pg_tle (pgtle.create_base_type, 16 bytes,
-- its text I/O in SQL over the portable edition's encoder and decoder, its comparisons in SQL on
-- bytea) be used on a managed service? Run with psql -X -f in a database where pg_tle is created
-- and the portable edition is installed, as a superuser (CREATE OPERATOR CLASS needs one, except on
-- RDS). It times, against the portable edition's uuid column in the same run: 5,000 inserts of
-- generated ids, a B-tree index build, and 1,000 point lookups by the 26-character text. Only
-- 5,000: the index build of the pg_tle type takes memory for every comparison (about 20 kB, freed
-- at the end of the statement) and 100,000 rows ran a 24 GiB machine out of memory.
-- Prints one line per step: the times in ms and their ratio. Not run by CI (a measurement; the
-- numbers are in bench/results/tle_base_type.md).
\set ON_ERROR_STOP 1
\timing off
SET client_min_messages = warning;
DROP SCHEMA IF EXISTS tleb CASCADE;
CREATE SCHEMA tleb;
SELECT pgtle.create_shell_type('tleb', 'ulid');
CREATE FUNCTION tleb.ulid_in(input text) RETURNS bytea LANGUAGE sql IMMUTABLE STRICT
    AS $$ SELECT pg_catalog.uuid_send(ulid_portable.ulid_decode(input)) $$;
CREATE FUNCTION tleb.ulid_out(b bytea) RETURNS text LANGUAGE sql IMMUTABLE STRICT
    AS $$ SELECT ulid_portable.ulid_encode(pg_catalog.encode(b, 'hex')::pg_catalog.uuid) $$;
SELECT pgtle.create_base_type('tleb', 'ulid', 'tleb.ulid_in(text)'::regprocedure,
                              'tleb.ulid_out(bytea)'::regprocedure, 16, alignment => 'char');
-- comparisons on the stored bytes (bytea compares bytewise: the ULID order)
CREATE FUNCTION tleb.b_cmp(a bytea, b bytea) RETURNS int LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT pg_catalog.byteacmp(a, b) $$;
CREATE FUNCTION tleb.b_lt(a bytea, b bytea) RETURNS bool LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT pg_catalog.bytealt(a, b) $$;
CREATE FUNCTION tleb.b_le(a bytea, b bytea) RETURNS bool LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT pg_catalog.byteale(a, b) $$;
CREATE FUNCTION tleb.b_eq(a bytea, b bytea) RETURNS bool LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT pg_catalog.byteaeq(a, b) $$;
CREATE FUNCTION tleb.b_ge(a bytea, b bytea) RETURNS bool LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT pg_catalog.byteage(a, b) $$;
CREATE FUNCTION tleb.b_gt(a bytea, b bytea) RETURNS bool LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT pg_catalog.byteagt(a, b) $$;
SELECT pgtle.create_operator_func('tleb', 'ulid', ('tleb.b_' || f || '(bytea, bytea)')::regprocedure)
FROM unnest(ARRAY['cmp', 'lt', 'le', 'eq', 'ge', 'gt']) f;
CREATE OPERATOR tleb.<  (LEFTARG = tleb.ulid, RIGHTARG = tleb.ulid, FUNCTION = tleb.b_lt, COMMUTATOR = OPERATOR(tleb.>), NEGATOR = OPERATOR(tleb.>=));
CREATE OPERATOR tleb.<= (LEFTARG = tleb.ulid, RIGHTARG = tleb.ulid, FUNCTION = tleb.b_le, COMMUTATOR = OPERATOR(tleb.>=), NEGATOR = OPERATOR(tleb.>));
CREATE OPERATOR tleb.=  (LEFTARG = tleb.ulid, RIGHTARG = tleb.ulid, FUNCTION = tleb.b_eq, COMMUTATOR = OPERATOR(tleb.=));
CREATE OPERATOR tleb.>= (LEFTARG = tleb.ulid, RIGHTARG = tleb.ulid, FUNCTION = tleb.b_ge, COMMUTATOR = OPERATOR(tleb.<=), NEGATOR = OPERATOR(tleb.<));
CREATE OPERATOR tleb.>  (LEFTARG = tleb.ulid, RIGHTARG = tleb.ulid, FUNCTION = tleb.b_gt, COMMUTATOR = OPERATOR(tleb.<), NEGATOR = OPERATOR(tleb.<=));
-- strategies 1 to 5 are <, <=, =, >=, > (in that order)
CREATE OPERATOR CLASS tleb.ulid_ops DEFAULT FOR TYPE tleb.ulid USING btree AS
    OPERATOR 1 tleb.<, OPERATOR 2 tleb.<=, OPERATOR 3 tleb.=, OPERATOR 4 tleb.>=, OPERATOR 5 tleb.>,
    FUNCTION 1 tleb.b_cmp(tleb.ulid, tleb.ulid);

CREATE TABLE tleb.ids AS SELECT ulid_portable.gen_random_ulid() AS u FROM generate_series(1, 5000);
CREATE TABLE tleb.lookups AS SELECT ulid_portable.ulid_encode(u) AS t FROM tleb.ids ORDER BY random() LIMIT 1000;
CREATE TABLE tleb.t_uuid (id uuid);
CREATE TABLE tleb.t_tle (id tleb.ulid);

CREATE FUNCTION pg_temp.ms(q text) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; n int;
BEGIN t0 := clock_timestamp(); EXECUTE q; RETURN round(extract(epoch FROM clock_timestamp() - t0)::numeric * 1000, 1); END $$;

SELECT step, u AS uuid_ms, t AS tle_type_ms, round(t / u, 2) AS ratio FROM (VALUES
  ('insert 5,000 (from uuid / from text)',
   pg_temp.ms('INSERT INTO tleb.t_uuid SELECT u FROM tleb.ids'),
   pg_temp.ms('INSERT INTO tleb.t_tle SELECT ulid_portable.ulid_encode(u)::tleb.ulid FROM tleb.ids')),
  ('B-tree index build',
   pg_temp.ms('CREATE INDEX ON tleb.t_uuid (id)'),
   pg_temp.ms('CREATE INDEX ON tleb.t_tle (id)')),
  ('1,000 lookups by text (index scans)',
   pg_temp.ms('SELECT count(*) FROM tleb.lookups l, LATERAL (SELECT 1 FROM tleb.t_uuid WHERE id = ulid_portable.ulid_decode(l.t)) x'),
   pg_temp.ms('SELECT count(*) FROM tleb.lookups l, LATERAL (SELECT 1 FROM tleb.t_tle WHERE id OPERATOR(tleb.=) l.t::tleb.ulid) x')),
  ('output 5,000 as text',
   pg_temp.ms('SELECT count(ulid_portable.ulid_encode(id)) FROM tleb.t_uuid'),
   pg_temp.ms('SELECT count(id::text) FROM tleb.t_tle'))
) s(step, u, t);
SELECT pg_size_pretty(pg_relation_size('tleb.t_uuid')) AS uuid_heap, pg_size_pretty(pg_relation_size('tleb.t_tle')) AS tle_heap,
       (SELECT pg_size_pretty(pg_relation_size(indexrelid)) FROM pg_index WHERE indrelid = 'tleb.t_uuid'::regclass) AS uuid_index,
       (SELECT pg_size_pretty(pg_relation_size(indexrelid)) FROM pg_index WHERE indrelid = 'tleb.t_tle'::regclass) AS tle_index;
SELECT count(*) FILTER (WHERE a.id::text <> ulid_portable.ulid_encode(b.id)) AS text_mismatches
FROM (SELECT id, row_number() OVER (ORDER BY id) r FROM tleb.t_tle) a JOIN (SELECT id, row_number() OVER (ORDER BY id) r FROM tleb.t_uuid) b USING (r);
DROP SCHEMA tleb CASCADE;
