-- ulid compared with timestamptz (0.4.0): `id OP t` and `t OP id` mean ulid_to_timestamp(id) OP t,
-- exactly, for every timestamp; the planner rewrites them into ulid bounds that use the key.
SET timezone = 'UTC';
-- ULIDs at and around the edges of the range and of a few milliseconds (entropy all 0 and all 1),
-- random ones near them, and a NULL.
CREATE TABLE tr_ids (id ulid);
INSERT INTO tr_ids
SELECT v.id
FROM unnest(ARRAY[0, 1, 2, 946684799999, 946684800000, 946684800001, 1764633600000, 1764633600001,
                  281474976710653, 281474976710654, 281474976710655]::bigint[]) ms,
     LATERAL (SELECT timestamptz 'epoch' + ms * interval '1 millisecond' AS ts) t,
     LATERAL (VALUES (ulid_min(t.ts)), (ulid_max(t.ts)), (gen_ulid(t.ts))) v(id);
INSERT INTO tr_ids VALUES (NULL);
-- Timestamps: on, just off and between those milliseconds (microseconds), infinities, and times
-- outside the ULID range on both sides.
CREATE TABLE tr_times (t timestamptz);
INSERT INTO tr_times
SELECT timestamptz 'epoch' + ms * interval '1 millisecond' + d * interval '1 microsecond'
FROM unnest(ARRAY[0, 1, 946684800000, 1764633600000, 281474976710654, 281474976710655]::bigint[]) ms,
     unnest(ARRAY[-1001, -1000, -999, -1, 0, 1, 999, 1000, 1001]) d;
INSERT INTO tr_times VALUES ('-infinity'), ('infinity'), ('4713-11-24 00:00:00+00 BC'),
    ('1900-01-01+00'), ('294276-12-31 23:59:59.999999+00'), ('20000-01-01+00'), (NULL);
SELECT count(*) AS ids, count(*) FILTER (WHERE id IS NULL) AS null_ids FROM tr_ids;
SELECT count(*) AS times FROM tr_times;

-- 1. The functions themselves (both sides variables: nothing to rewrite), every pair, NULLs too.
SELECT count(*) FILTER (WHERE (id = t) IS DISTINCT FROM (ulid_to_timestamp(id) = t)) AS eq,
       count(*) FILTER (WHERE (id <> t) IS DISTINCT FROM (ulid_to_timestamp(id) <> t)) AS ne,
       count(*) FILTER (WHERE (id < t) IS DISTINCT FROM (ulid_to_timestamp(id) < t)) AS lt,
       count(*) FILTER (WHERE (id <= t) IS DISTINCT FROM (ulid_to_timestamp(id) <= t)) AS le,
       count(*) FILTER (WHERE (id > t) IS DISTINCT FROM (ulid_to_timestamp(id) > t)) AS gt,
       count(*) FILTER (WHERE (id >= t) IS DISTINCT FROM (ulid_to_timestamp(id) >= t)) AS ge,
       count(*) FILTER (WHERE (t = id) IS DISTINCT FROM (t = ulid_to_timestamp(id))) AS eq_r,
       count(*) FILTER (WHERE (t <> id) IS DISTINCT FROM (t <> ulid_to_timestamp(id))) AS ne_r,
       count(*) FILTER (WHERE (t < id) IS DISTINCT FROM (t < ulid_to_timestamp(id))) AS lt_r,
       count(*) FILTER (WHERE (t <= id) IS DISTINCT FROM (t <= ulid_to_timestamp(id))) AS le_r,
       count(*) FILTER (WHERE (t > id) IS DISTINCT FROM (t > ulid_to_timestamp(id))) AS gt_r,
       count(*) FILTER (WHERE (t >= id) IS DISTINCT FROM (t >= ulid_to_timestamp(id))) AS ge_r,
       count(*) AS pairs
FROM tr_ids, tr_times;

-- 2. The rewritten forms: each timestamp as a constant, through a generic plan's parameter, and
-- through a stable function the planner cannot fold; in WHERE and in the select list (where a
-- NULL id must give NULL). Returns the number of (form, operator, order, timestamp) that differ.
CREATE FUNCTION tr_stable(t timestamptz) RETURNS timestamptz LANGUAGE plpgsql STABLE AS 'BEGIN RETURN t; END';
CREATE FUNCTION tr_mismatches(ids text) RETURNS TABLE (form text, checked int, mismatched int) LANGUAGE plpgsql AS $$
DECLARE
    op text;
    t timestamptz;
    shape text;
    expr text;
    ref text;
    query text;
    got bigint;
    want bigint;
BEGIN
    FOREACH form IN ARRAY ARRAY['constant', 'parameter', 'stable'] LOOP
        checked := 0;
        mismatched := 0;
        FOREACH op IN ARRAY ARRAY['=', '<>', '<', '<=', '>', '>='] LOOP
            FOR t IN SELECT x.t FROM tr_times x WHERE x.t IS NOT NULL LOOP
                FOREACH shape IN ARRAY ARRAY['id %1$s %2$s', '%2$s %1$s id'] LOOP
                    expr := format(shape, op, CASE form WHEN 'constant' THEN quote_literal(t) || '::timestamptz'
                                                        WHEN 'stable' THEN 'tr_stable(' || quote_literal(t) || ')'
                                                        ELSE '$1' END);
                    ref := format(shape, op, quote_literal(t) || '::timestamptz');
                    ref := replace(replace(ref, 'id ', 'ulid_to_timestamp(id) '), ' id', ' ulid_to_timestamp(id)');
                    -- the rows it selects, and (x 1000) the rows whose value differs, NULL ids included
                    query := format('SELECT (SELECT count(*) FROM %3$s WHERE %1$s)
                                          + 1000 * (SELECT count(*) FROM %3$s WHERE (%1$s) IS DISTINCT FROM (%2$s))',
                                    expr, ref, ids);
                    IF form = 'parameter' THEN
                        EXECUTE 'PREPARE tr_q(timestamptz) AS ' || query;
                        EXECUTE format('EXECUTE tr_q(%L)', t) INTO got;
                        DEALLOCATE tr_q;
                    ELSE
                        EXECUTE query INTO got;
                    END IF;
                    EXECUTE format('SELECT count(*) FROM %s WHERE %s', ids, ref) INTO want;
                    checked := checked + 1;
                    IF got IS DISTINCT FROM want THEN
                        mismatched := mismatched + 1;
                        RAISE NOTICE '% %: got %, want %', form, expr, got, want;
                    END IF;
                END LOOP;
            END LOOP;
        END LOOP;
        RETURN NEXT;
    END LOOP;
END
$$;
SET plan_cache_mode = force_generic_plan;
SELECT * FROM tr_mismatches('tr_ids');
-- The same ids in a NOT NULL column.
CREATE TABLE tr_ids_nn (id ulid NOT NULL);
INSERT INTO tr_ids_nn SELECT id FROM tr_ids WHERE id IS NOT NULL;
SELECT * FROM tr_mismatches('tr_ids_nn');
RESET plan_cache_mode;
-- A NOT NULL column that an outer join or grouping sets make NULL: NULL, never false, for the NULL
-- rows, whatever the time.
PREPARE tr_outer(timestamptz) AS
    SELECT count(*) FILTER (WHERE (b.id >= $1) IS NULL) AS null_ge, count(*) FILTER (WHERE (b.id < $1) IS NULL) AS null_lt
    FROM tr_ids_nn a LEFT JOIN tr_ids_nn b ON false;
PREPARE tr_rollup(timestamptz) AS
    SELECT count(*) FILTER (WHERE id IS NULL AND (id >= $1) IS NULL) AS null_ge
    FROM (SELECT id FROM tr_ids_nn GROUP BY ROLLUP (id)) s;
SET plan_cache_mode = force_generic_plan;
EXECUTE tr_outer('infinity');
EXECUTE tr_outer('-infinity');
EXECUTE tr_rollup('infinity');
RESET plan_cache_mode;
-- NULL in, NULL out; never 22008, whatever the timestamp.
SELECT NULL::ulid >= now() AS null_id, '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid >= NULL::timestamptz AS null_t,
       '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid >= 'infinity'::timestamptz AS top_vs_infinity,
       '00000000000000000000000000'::ulid > '-infinity'::timestamptz AS bottom_vs_minus_infinity,
       '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid = '2016-07-30 23:54:10.259+00'::timestamptz AS same_ms,
       '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid = '2016-07-30 23:54:10.2591+00'::timestamptz AS sub_ms;

-- 3. What the planner makes of them (EXPLAIN shows the rewritten bounds, not the text written).
CREATE TABLE tr_events (id ulid PRIMARY KEY, note text);
INSERT INTO tr_events
SELECT gen_ulid(timestamptz '2026-01-01+00' + g * interval '1 minute'), 'e' || g FROM generate_series(1, 20000) g;
ANALYZE tr_events;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT regress.plan($$SELECT * FROM tr_events WHERE id >= '2026-01-10+00'::timestamptz$$);
SELECT regress.plan($$SELECT * FROM tr_events WHERE '2026-01-10 00:00:00.0005+00'::timestamptz < id$$);
SELECT regress.plan($$SELECT * FROM tr_events WHERE id = '2026-01-10+00'::timestamptz$$);
SELECT regress.plan($$SELECT * FROM tr_events WHERE id BETWEEN '2026-01-10+00'::timestamptz AND '2026-01-11+00'::timestamptz$$);
SELECT regress.plan($$SELECT * FROM tr_events WHERE id >= now() - interval '1 day'$$);
SELECT regress.plan($$SELECT * FROM tr_events WHERE id < 'infinity'::timestamptz$$);
SELECT regress.plan($$SELECT * FROM tr_events WHERE id > 'infinity'::timestamptz$$);
PREPARE tr_since(timestamptz) AS SELECT * FROM tr_events WHERE id >= $1;
SET plan_cache_mode = force_generic_plan;
SELECT regress.plan($$EXECUTE tr_since('2026-01-10+00')$$);
RESET plan_cache_mode;
-- <> is not one range: left as it is.
SELECT regress.plan($$SELECT * FROM tr_events WHERE id <> '2026-01-10+00'::timestamptz$$);
-- ulid_to_timestamp(id) OP t has no such rewrite (the operator is core's timestamptz one, and an
-- index needs the column itself): a scan of every row.
RESET enable_seqscan;
SELECT regress.plan($$SELECT * FROM tr_events WHERE ulid_to_timestamp(id) >= '2026-01-10+00'::timestamptz$$);
SET enable_seqscan = off;
-- The estimates are those of the ulid_min form (a whole-millisecond constant, now() - interval).
CREATE FUNCTION tr_rows(query text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
    RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
END
$$;
SELECT tr_rows($$SELECT * FROM tr_events WHERE id >= '2026-01-10+00'::timestamptz$$)
     = tr_rows($$SELECT * FROM tr_events WHERE id >= ulid_min('2026-01-10+00'::timestamptz)$$) AS same_for_a_constant,
       tr_rows($$SELECT * FROM tr_events WHERE id <= '2026-01-10+00'::timestamptz$$)
     = tr_rows($$SELECT * FROM tr_events WHERE id <= ulid_max('2026-01-10+00'::timestamptz)$$) AS same_for_an_upper_bound,
       tr_rows($$SELECT * FROM tr_events WHERE id >= now() - interval '1 day'$$)
     = tr_rows($$SELECT * FROM tr_events WHERE id >= ulid_min(now() - interval '1 day')$$) AS same_for_now;

-- Partitions by month of the key: pruned at plan time for a constant, at executor start for a
-- stable expression and for a generic plan's parameter.
CREATE TABLE tr_parted (id ulid NOT NULL, note text) PARTITION BY RANGE (id);
CREATE TABLE tr_parted_2026_01 PARTITION OF tr_parted
    FOR VALUES FROM (ulid_min('2026-01-01+00')) TO (ulid_min('2026-02-01+00'));
CREATE TABLE tr_parted_2026_02 PARTITION OF tr_parted
    FOR VALUES FROM (ulid_min('2026-02-01+00')) TO (ulid_min('2026-03-01+00'));
CREATE TABLE tr_parted_2026_03 PARTITION OF tr_parted
    FOR VALUES FROM (ulid_min('2026-03-01+00')) TO (ulid_min('2026-04-01+00'));
SELECT regress.plan($$SELECT * FROM tr_parted WHERE id >= '2026-02-15+00'::timestamptz$$);
SELECT regress.plan($$SELECT * FROM tr_parted WHERE id >= tr_stable('2026-02-15+00')$$);
PREPARE tr_parted_since(timestamptz) AS SELECT * FROM tr_parted WHERE id >= $1;
SET plan_cache_mode = force_generic_plan;
SELECT regress.plan($$EXECUTE tr_parted_since('2026-03-15+00')$$);
RESET plan_cache_mode;
-- BRIN minmax answers the rewritten form.
RESET enable_bitmapscan;
CREATE TABLE tr_log (id ulid NOT NULL);
INSERT INTO tr_log SELECT id FROM tr_events;
CREATE INDEX tr_log_brin ON tr_log USING brin (id);
SELECT regress.plan($$SELECT count(*) FROM tr_log WHERE id >= '2026-01-10+00'::timestamptz$$);
SELECT count(*) = (SELECT count(*) FROM tr_log WHERE ulid_to_timestamp(id) >= '2026-01-10+00') AS brin_rows_match
FROM tr_log WHERE id >= '2026-01-10+00'::timestamptz;
RESET enable_seqscan;

-- 4. The operators: commutators and negators, no merge or hash join, in no operator family.
SELECT o.oprname, format_type(o.oprleft, NULL) AS left, format_type(o.oprright, NULL) AS right,
       c.oprname AS commutator, n.oprname AS negator, o.oprcanmerge, o.oprcanhash,
       (SELECT count(*) FROM pg_amop a WHERE a.amopopr = o.oid) AS in_families
FROM pg_operator o JOIN pg_operator c ON c.oid = o.oprcom JOIN pg_operator n ON n.oid = o.oprnegate
WHERE 'timestamp with time zone' IN (format_type(o.oprleft, NULL), format_type(o.oprright, NULL))
  AND 'ulid' IN (format_type(o.oprleft, NULL), format_type(o.oprright, NULL))
ORDER BY 2, 1;

-- 5. Bad input: the bound functions take only = < <= > >=; a date written where a ulid is expected
-- (an unknown literal resolves to ulid >= ulid) gets a hint.
SELECT regress.error_of($$SELECT ulid_time_lower(now(), '<>')$$);
\set VERBOSITY default
SELECT * FROM tr_events WHERE id >= '2026-01-10';
SELECT * FROM tr_events WHERE id >= '2026-01-10 00:00:00.000000+00';
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAU'::ulid;
DROP TABLE tr_ids, tr_ids_nn, tr_times, tr_events, tr_parted, tr_log;
DROP FUNCTION tr_stable(timestamptz), tr_mismatches(text), tr_rows(text);
