-- Querying by time (0.4.0): the last hour of a table of T rows, one a second up to now, by
-- `id >= now() - interval '1 hour'` on a ulid primary key, against today's usual schema (a uuid
-- primary key and a created_at timestamptz column with an index of its own) queried by
-- `created_at >= now() - interval '1 hour'`, and against the ulid_min(...) form on the same key.
--   tr_hour: Q such queries per run (a PL/pgSQL loop: the statement is planned once and its
--            stable bound evaluated at each execution, as a prepared statement's), and the floor
--            (the same loop without the query).
-- Sizes of the tables and of their indexes go into bench.meta.
-- psql variables: T, Q, ROUNDS.
DROP TABLE IF EXISTS bench.tr_ulid, bench.tr_ts;
CREATE TABLE bench.tr_ulid (id ulid PRIMARY KEY, payload int);
INSERT INTO bench.tr_ulid
SELECT gen_ulid(now() - make_interval(secs => :T - i)), i FROM generate_series(1, :T) i;
CREATE TABLE bench.tr_ts (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), created_at timestamptz NOT NULL, payload int);
INSERT INTO bench.tr_ts (created_at, payload)
SELECT now() - make_interval(secs => :T - i), i FROM generate_series(1, :T) i;
CREATE INDEX tr_ts_created_at ON bench.tr_ts (created_at);
VACUUM ANALYZE bench.tr_ulid, bench.tr_ts;
INSERT INTO bench.meta (k, v) VALUES
    ('tr_ulid_table', pg_relation_size('bench.tr_ulid')),
    ('tr_ulid_pkey', pg_relation_size('bench.tr_ulid_pkey')),
    ('tr_ts_table', pg_relation_size('bench.tr_ts')),
    ('tr_ts_pkey', pg_relation_size('bench.tr_ts_pkey')),
    ('tr_ts_created_at', pg_relation_size('bench.tr_ts_created_at'))
ON CONFLICT (k) DO UPDATE SET v = excluded.v;
-- bench.tr_hours(kind): Q queries of the last hour; returns the rows counted by the last one
CREATE OR REPLACE FUNCTION bench.tr_hours(kind text, q int) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    n bigint := 0;
BEGIN
    FOR i IN 1 .. q LOOP
        IF kind = 'ulid' THEN
            SELECT count(*) INTO n FROM bench.tr_ulid WHERE id >= now() - interval '1 hour';
        ELSIF kind = 'ulid_min' THEN
            SELECT count(*) INTO n FROM bench.tr_ulid WHERE id >= ulid_min(now() - interval '1 hour');
        ELSIF kind = 'timestamptz' THEN
            SELECT count(*) INTO n FROM bench.tr_ts WHERE created_at >= now() - interval '1 hour';
        ELSE
            n := 3600;
        END IF;
    END LOOP;
    RETURN n;
END
$$;
-- the three count the same rows (the hour before the transaction's now())
SELECT bench.tr_hours('ulid', 1) AS ulid_rows, bench.tr_hours('ulid_min', 1) AS ulid_min_rows,
       bench.tr_hours('timestamptz', 1) AS timestamptz_rows;
DELETE FROM bench.cases WHERE item = 'tr_hour';
INSERT INTO bench.cases (item, variant, ord, sql) VALUES
    ('tr_hour', 'floor',                                  1, format('SELECT bench.tr_hours(''none'', %s)', :Q)),
    ('tr_hour', 'id >= now() - interval',                 2, format('SELECT bench.tr_hours(''ulid'', %s)', :Q)),
    ('tr_hour', 'id >= ulid_min(now() - interval)',       3, format('SELECT bench.tr_hours(''ulid_min'', %s)', :Q)),
    ('tr_hour', 'created_at >= now() - interval',         4, format('SELECT bench.tr_hours(''timestamptz'', %s)', :Q));
-- the plans measured: an index range scan on the key, and on the created_at index
EXPLAIN (COSTS OFF) SELECT count(*) FROM bench.tr_ulid WHERE id >= now() - interval '1 hour';
EXPLAIN (COSTS OFF) SELECT count(*) FROM bench.tr_ts WHERE created_at >= now() - interval '1 hour';
CALL bench.run('tr_hour', :ROUNDS);
