-- The time-range report (Markdown, stdout; psql -At): the last hour of the table by the ulid key
-- against a timestamptz column with its own index, and against the ulid_min form. CPU time above
-- the floor, median over rounds of the ratio within a round. Target: id >= now() - interval within
-- 1.02x of id >= ulid_min(now() - interval).
CREATE OR REPLACE FUNCTION pg_temp.ratio(a text, b text) RETURNS float8 LANGUAGE sql AS $$
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY (x.value - f.value) / (y.value - f.value))
    FROM bench.results x JOIN bench.results y USING (item, round, metric, seq)
    JOIN bench.results f ON f.item = x.item AND f.round = x.round AND f.metric = x.metric
                         AND f.seq = x.seq AND f.variant = 'floor'
    WHERE x.item = 'tr_hour' AND x.variant = $1 AND y.variant = $2 AND x.metric = 'cpu_ms' AND x.seq = 0 $$;
CREATE OR REPLACE FUNCTION pg_temp.per_query(variant text) RETURNS float8 LANGUAGE sql AS $$
    SELECT (v.median - f.median) * 1000 / (SELECT v::float8 FROM bench.meta WHERE k = 'q')
    FROM bench.med v, bench.med f
    WHERE v.item = 'tr_hour' AND v.variant = $1 AND v.metric = 'cpu_ms' AND v.seq = 0
      AND f.item = 'tr_hour' AND f.variant = 'floor' AND f.metric = 'cpu_ms' AND f.seq = 0 $$;
CREATE OR REPLACE FUNCTION pg_temp.mb(k text) RETURNS text LANGUAGE sql AS $$
    SELECT to_char((SELECT v::float8 FROM bench.meta WHERE bench.meta.k = $1) / 1048576, 'FM999,990.0') || ' MB' $$;
SELECT format('# Querying by time: the last hour of %s rows (%s queries a run, %s rounds, %s)',
              to_char((SELECT v::bigint FROM bench.meta WHERE k = 't'), 'FM999,999,999'),
              (SELECT v FROM bench.meta WHERE k = 'q'), (SELECT max(rounds) FROM bench.med WHERE item = 'tr_hour'),
              (SELECT v FROM bench.meta WHERE k = 'pg'));
\qecho
\qecho 'One row a second up to now; each query counts the last hour (3,600 rows). CPU time per query above the floor (the same loop without the query), medians; ratios are medians of per-round ratios.'
\qecho
\qecho '| query | µs per query | ratio | target | result |'
\qecho '|---|---:|---:|---:|---|'
SELECT format('| `%s` | %s | %s | %s | %s |', q, round(pg_temp.per_query(v)::numeric, 1),
              coalesce(to_char(r, 'FM0.00') || '× ' || against, '–'), coalesce(target, '–'),
              CASE WHEN target IS NULL THEN '–' WHEN r <= 1.02 THEN 'met' ELSE 'missed' END)
FROM (VALUES
    (1, 'SELECT count(*) FROM events WHERE id >= now() - interval ''1 hour''', 'id >= now() - interval',
        pg_temp.ratio('id >= now() - interval', 'id >= ulid_min(now() - interval)'), 'the ulid_min form', '≤ 1.02×'),
    (2, 'SELECT count(*) FROM events WHERE id >= ulid_min(now() - interval ''1 hour'')', 'id >= ulid_min(now() - interval)',
        NULL, NULL, NULL),
    (3, 'SELECT count(*) FROM events_ts WHERE created_at >= now() - interval ''1 hour''', 'created_at >= now() - interval',
        pg_temp.ratio('id >= now() - interval', 'created_at >= now() - interval'), 'of it for the ulid key', NULL)
) x(o, q, v, r, against, target)
ORDER BY o;
\qecho
\qecho '| schema | table | indexes |'
\qecho '|---|---:|---:|'
SELECT format('| `events (id ulid PRIMARY KEY, payload int)` | %s | %s (the key) |', pg_temp.mb('tr_ulid_table'), pg_temp.mb('tr_ulid_pkey'));
SELECT format('| `events_ts (id uuid PRIMARY KEY, created_at timestamptz, payload int)` + index on created_at | %s | %s (key) + %s (created_at) |',
              pg_temp.mb('tr_ts_table'), pg_temp.mb('tr_ts_pkey'), pg_temp.mb('tr_ts_created_at'));
