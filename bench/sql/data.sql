-- Data for items 2-4: N random ULIDs (random times over five years, fresh entropy) and the very
-- same 16 bytes as uuid, plus the text forms of both. Loaded once, frozen and analysed, so every
-- run reads the same pages with hint bits set. psql variable: N.
DROP TABLE IF EXISTS t_ulid, t_uuid, tt_ulid, tt_uuid, c_ulid, c_uuid;
CREATE TABLE t_ulid (id ulid NOT NULL);
INSERT INTO t_ulid
SELECT gen_ulid(timestamptz '2021-01-01 00:00:00+00' + random() * interval '5 years')
FROM generate_series(1, :N);
CREATE TABLE t_uuid AS SELECT id::uuid AS id FROM t_ulid;
CREATE TABLE tt_ulid AS SELECT id::text AS t FROM t_ulid;
CREATE TABLE tt_uuid AS SELECT id::text AS t FROM t_uuid;
-- targets of COPY ... FROM (binary): unlogged, emptied after every run
CREATE UNLOGGED TABLE c_ulid (id ulid NOT NULL);
CREATE UNLOGGED TABLE c_uuid (id uuid NOT NULL);
VACUUM (FREEZE, ANALYZE) t_ulid, t_uuid, tt_ulid, tt_uuid, c_ulid, c_uuid;
SELECT 'data: ' || count(*) || ' rows; t_ulid ' || pg_size_pretty(pg_relation_size('t_ulid'))
       || ', tt_ulid ' || pg_size_pretty(pg_relation_size('tt_ulid'))
       || ', tt_uuid ' || pg_size_pretty(pg_relation_size('tt_uuid')) AS info
FROM t_ulid;
