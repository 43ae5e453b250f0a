-- The portable edition's report (Markdown, stdout; psql -At): nanoseconds per call above the floor
-- of the same query (on-CPU time, median over rounds), next to the native function and core uuid.
-- The calls or rows per run: bench.meta 'p'.
CREATE OR REPLACE FUNCTION pg_temp.ns(item text, variant text) RETURNS float8 LANGUAGE sql AS $$
    SELECT (v.median - f.median) * 1e6 / (SELECT m.v::float8 FROM bench.meta m WHERE m.k = 'p')
    FROM bench.med v, bench.med f
    WHERE v.item = $1 AND v.variant = $2 AND f.item = $1 AND f.variant = 'floor'
      AND v.metric = 'cpu_ms' AND f.metric = 'cpu_ms' AND v.seq = 0 AND f.seq = 0 $$;
CREATE OR REPLACE FUNCTION pg_temp.f(x float8) RETURNS text LANGUAGE sql AS
$$ SELECT CASE WHEN x IS NULL THEN '–' WHEN x < 1 THEN '< 1' ELSE to_char(round(x::numeric), 'FM999,999,990') END $$;
CREATE OR REPLACE FUNCTION pg_temp.r(x float8) RETURNS text LANGUAGE sql AS
$$ SELECT CASE WHEN x IS NULL OR x <= 0 THEN '–' ELSE to_char(round(x::numeric, 1), 'FM999,990.0') || '×' END $$;
SELECT format('# Portable edition: cost per call (%s calls or rows per run, %s rounds, %s)',
              (SELECT v FROM bench.meta WHERE k = 'p'), (SELECT max(rounds) FROM bench.med WHERE item LIKE 'portable%'),
              (SELECT v FROM bench.meta WHERE k = 'pg'));
\qecho
\qecho 'Nanoseconds of CPU per call above the floor (the same query without the function), median over rounds.'
\qecho
\qecho '| operation | portable (SQL/PL/pgSQL) | native ulid | core uuid | portable / native | portable / core uuid |'
\qecho '|---|---:|---:|---:|---:|---:|'
SELECT format('| %s | %s | %s | %s | %s | %s |', op, pg_temp.f(p), pg_temp.f(n), pg_temp.f(c), pg_temp.r(p / n), pg_temp.r(p / c))
FROM (VALUES
    (1, 'gen_ulid() (monotonic)', pg_temp.ns('portable_gen', 'portable gen_ulid'), pg_temp.ns('portable_gen', 'native gen_ulid'), pg_temp.ns('portable_gen', 'gen_random_uuid')),
    (2, 'gen_random_ulid()', pg_temp.ns('portable_gen', 'portable gen_random_ulid'), pg_temp.ns('portable_gen', 'native gen_random_ulid'), pg_temp.ns('portable_gen', 'gen_random_uuid')),
    (3, 'encode (ulid_encode(u) / id::text / uuid::text)', pg_temp.ns('portable_io', 'portable ulid_encode'), pg_temp.ns('portable_io', 'native ulid::text'), pg_temp.ns('portable_io', 'uuid::text')),
    (4, 'decode (ulid_decode(t) / t::ulid / t::uuid)', pg_temp.ns('portable_io', 'portable ulid_decode'), pg_temp.ns('portable_io', 'native text::ulid'), pg_temp.ns('portable_io', 'text::uuid')),
    (5, 'ulid_to_timestamp', pg_temp.ns('portable_io', 'portable ulid_to_timestamp'), pg_temp.ns('portable_io', 'native ulid_to_timestamp'), NULL)
) v(o, op, p, n, c)
ORDER BY o;
\qecho
\qecho 'The generators'' core uuid column is gen_random_uuid(). Raw medians (ms per run, CPU / wall):'
\qecho
\qecho '| item | variant | CPU ms | wall ms |'
\qecho '|---|---|---:|---:|'
SELECT format('| %s | %s | %s | %s |', c.item, c.variant, round(c.median::numeric, 1), round(w.median::numeric, 1))
FROM bench.med c JOIN bench.med w USING (item, variant, seq)
WHERE c.item LIKE 'portable%' AND c.metric = 'cpu_ms' AND w.metric = 'ms'
ORDER BY c.item, (SELECT ord FROM bench.cases k WHERE k.item = c.item AND k.variant = c.variant);
