-- The public-ids report (Markdown, stdout; psql -At): CPU time per call above the floor, the median
-- over rounds of the ratio within a round against gen_random_uuid(). Target of 0.5.0 for the native
-- edition: ulid_encrypt <= 0.3x gen_random_uuid() per call; the portable edition's figure reported.
CREATE OR REPLACE FUNCTION pg_temp.ratio(item text, a text, b text) RETURNS float8 LANGUAGE sql AS $$
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY (x.value - f.value) / (y.value - f.value))
    FROM bench.results x JOIN bench.results y USING (item, round, metric, seq)
    JOIN bench.results f ON f.item = x.item AND f.round = x.round AND f.metric = x.metric AND f.seq = x.seq
                         AND f.variant = 'floor'
    WHERE x.item = $1 AND x.variant = $3 AND y.variant = $2 AND x.metric = 'cpu_ms' AND x.seq = 0 $$;
CREATE OR REPLACE FUNCTION pg_temp.med(item text, variant text) RETURNS float8 LANGUAGE sql AS $$
    SELECT median FROM bench.med WHERE item = $1 AND variant = $2 AND metric = 'cpu_ms' AND seq = 0 $$;
CREATE OR REPLACE FUNCTION pg_temp.ns(item text, variant text, n float8) RETURNS float8 LANGUAGE sql AS $$
    SELECT (pg_temp.med($1, $2) - pg_temp.med($1, 'floor')) * 1e6 / $3 $$;
SELECT format('# Public ids: ulid_encrypt per call (%s ids, portable over %s, %s rounds, %s)',
              (SELECT v FROM bench.meta WHERE k = 'p'), (SELECT v::int / 10 FROM bench.meta WHERE k = 'p'),
              (SELECT max(rounds) FROM bench.med WHERE item LIKE 'pid_%'), (SELECT v FROM bench.meta WHERE k = 'pg'));
\qecho
\qecho 'CPU time per call above the floor (the same query counting the id itself); ratio: median over rounds of the ratio within a round.'
\qecho
\qecho '| call | ns per call | / gen_random_uuid() | target | result |'
\qecho '|---|---:|---:|---:|---|'
SELECT format('| %s | %s | %s× | %s | %s |', v.variant,
              round(pg_temp.ns(v.item, v.variant, (SELECT v::float8 FROM bench.meta WHERE k = 'p') / v.div)::numeric),
              to_char(r, 'FM990.00'), v.target,
              CASE WHEN v.target = '—' THEN '' WHEN r <= 0.3 THEN 'met' ELSE 'missed' END)
FROM (VALUES
    (1, 'pid_call', 'gen_random_uuid', 1, '—'),
    (2, 'pid_call', 'md5(id::text)', 1, '—'),
    (3, 'pid_call', 'ulid_encrypt AES-128', 1, '≤ 0.3×'),
    (4, 'pid_call', 'ulid_encrypt AES-256', 1, '≤ 0.3×'),
    (5, 'pid_call', 'ulid_decrypt AES-256', 1, '≤ 0.3×'),
    (6, 'pid_call', 'ulid_encrypt server key', 1, '≤ 0.3×'),
    (7, 'pid_portable', 'portable ulid_encrypt', 10, '—')
) v(o, item, variant, div, target),
LATERAL (SELECT pg_temp.ratio(v.item, 'gen_random_uuid', v.variant) AS r) x
ORDER BY o;
\qecho
SELECT format('A %s-row `SELECT count(ulid_encrypt(id, key))` (AES-256) takes %s ms of CPU, against %s ms counting the ids alone and %s ms for `count(gen_random_uuid())`.',
              (SELECT v FROM bench.meta WHERE k = 'p'),
              round(pg_temp.med('pid_call', 'ulid_encrypt AES-256')::numeric), round(pg_temp.med('pid_call', 'floor')::numeric),
              round(pg_temp.med('pid_call', 'gen_random_uuid')::numeric));
\qecho
\qecho 'Raw medians (ms per run, CPU / wall):'
\qecho
\qecho '| item | variant | CPU ms | wall ms |'
\qecho '|---|---|---:|---:|'
SELECT format('| %s | %s | %s | %s |', c.item, c.variant, round(c.median::numeric, 1), round(w.median::numeric, 1))
FROM bench.med c JOIN bench.med w USING (item, variant, seq)
WHERE c.item LIKE 'pid_%' AND c.metric = 'cpu_ms' AND w.metric = 'ms'
ORDER BY c.item, (SELECT ord FROM bench.cases k WHERE k.item = c.item AND k.variant = c.variant);
