-- The cross-type report (Markdown, stdout; psql -At): uuid-typed against ulid-typed values on a ulid
-- key, CPU time (median over rounds of the within-round ratio, as every report here). Targets of
-- 0.3.0: a point lookup by a uuid parameter <= 1.05x the same lookup by a ulid parameter, and a
-- hash join ulid = uuid <= 1.05x ulid = ulid.
CREATE OR REPLACE FUNCTION pg_temp.ratio(item text, a text, b text, floor text DEFAULT NULL) RETURNS float8
LANGUAGE sql AS $$
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY (x.value - coalesce(f.value, 0)) / (y.value - coalesce(f.value, 0)))
    FROM bench.results x JOIN bench.results y USING (item, round, metric, seq)
    LEFT JOIN bench.results f ON f.item = x.item AND f.round = x.round AND f.metric = x.metric
                              AND f.seq = x.seq AND f.variant = $4
    WHERE x.item = $1 AND x.variant = $3 AND y.variant = $2 AND x.metric = 'cpu_ms' AND x.seq = 0 $$;
CREATE OR REPLACE FUNCTION pg_temp.med(item text, variant text) RETURNS float8 LANGUAGE sql AS $$
    SELECT median FROM bench.med WHERE item = $1 AND variant = $2 AND metric = 'cpu_ms' AND seq = 0 $$;
SELECT format('# ulid meets uuid: uuid-typed values on a ulid key (%s rows/keys, %s rounds, %s)',
              (SELECT v FROM bench.meta WHERE k = 'p'), (SELECT max(rounds) FROM bench.med WHERE item LIKE 'xt_%'),
              (SELECT v FROM bench.meta WHERE k = 'pg'));
\qecho
\qecho 'CPU time, median over rounds of the ratio within a round (lookups: above the floor of the same loop without the lookup).'
\qecho
\qecho '| measurement | ulid-typed ms | uuid-typed ms | uuid / ulid | target | result |'
\qecho '|---|---:|---:|---:|---:|---|'
SELECT format('| %s | %s | %s | %s× | ≤ 1.05× | %s |', what, round(a::numeric, 1), round(b::numeric, 1),
              to_char(r, 'FM0.00'), CASE WHEN r <= 1.05 THEN 'met' ELSE 'missed' END)
FROM (VALUES
    (1, 'point lookup through the primary key (per run)', pg_temp.med('xt_lookup', 'ulid parameter'), pg_temp.med('xt_lookup', 'uuid parameter'),
        pg_temp.ratio('xt_lookup', 'ulid parameter', 'uuid parameter', 'floor')),
    (2, 'hash join', pg_temp.med('xt_join', 'ulid = ulid'), pg_temp.med('xt_join', 'ulid = uuid'),
        pg_temp.ratio('xt_join', 'ulid = ulid', 'ulid = uuid'))
) v(o, what, a, b, r)
ORDER BY o;
\qecho
\qecho 'Raw medians (ms per run, CPU / wall):'
\qecho
\qecho '| item | variant | CPU ms | wall ms |'
\qecho '|---|---|---:|---:|'
SELECT format('| %s | %s | %s | %s |', c.item, c.variant, round(c.median::numeric, 1), round(w.median::numeric, 1))
FROM bench.med c JOIN bench.med w USING (item, variant, seq)
WHERE c.item LIKE 'xt_%' AND c.metric = 'cpu_ms' AND w.metric = 'ms'
ORDER BY c.item, (SELECT ord FROM bench.cases k WHERE k.item = c.item AND k.variant = c.variant);
