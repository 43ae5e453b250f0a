-- bench/sql/uuidv7_report.sql: the Markdown report of scripts/bench --uuidv7 (psql -At; stdout).
-- Per call: CPU time (wall minus the time the backend waited for a CPU, setup.sql); loads: wall time.
CREATE OR REPLACE FUNCTION pg_temp.m(text) RETURNS text LANGUAGE sql AS
$$ SELECT v FROM bench.meta WHERE k = $1 $$;
CREATE OR REPLACE FUNCTION pg_temp.med(text, text, text) RETURNS float8 LANGUAGE sql AS
$$ SELECT median FROM bench.med WHERE item = $1 AND variant = $2 AND metric = $3 AND seq = 0 $$;
CREATE OR REPLACE FUNCTION pg_temp.f(x float8, d int DEFAULT 0) RETURNS text LANGUAGE sql AS
$$ SELECT CASE WHEN x IS NULL THEN '–' ELSE to_char(round(x::numeric, d), 'FM999,999,990' || CASE WHEN d > 0 THEN '.' || repeat('0', d) ELSE '' END) END $$;
CREATE OR REPLACE FUNCTION pg_temp.r(x float8) RETURNS text LANGUAGE sql AS
$$ SELECT CASE WHEN x IS NULL THEN '–' ELSE to_char(round(x::numeric, 2), 'FM990.00') || '×' END $$;

-- a load's time on a CPU (wall minus the backend's run-queue wait), per round: item v7pk
CREATE OR REPLACE VIEW pg_temp.load_cpu AS
SELECT m.variant, m.round, m.value - w.value AS cpu_ms
FROM bench.results m JOIN bench.results w USING (item, variant, round, seq)
WHERE m.item = 'v7pk' AND m.metric = 'ms' AND w.metric = 'wait_ms';

CREATE OR REPLACE VIEW pg_temp.targets AS
SELECT ord, label, measured, target, measured <= target AS pass FROM (VALUES
    (1, 'gen_ulid() / uuidv7() per call (CPU, floor included)', bench.ratio('v7gen', 'gen_ulid', 'uuidv7', 'cpu_ms'), 0.2),
    (2, 'PK insert time gen_ulid() / uuidv7()',                 bench.ratio('v7pk', 'gen_ulid', 'uuidv7'), 0.8),
    (3, 'PK index size gen_ulid() / uuidv7()',                  bench.ratio('v7pk', 'gen_ulid', 'uuidv7', 'index_bytes'), 1.0)
) t(ord, label, measured, target);

SELECT format('# ulid vs PostgreSQL %s''s uuidv7() (%s run)', current_setting('server_version_num')::int / 10000, pg_temp.m('mode'));
\qecho
SELECT format('%s, commit %s%s, %s, %s. Data checksums %s. Load average %s.',
              pg_temp.m('started'), pg_temp.m('commit'),
              CASE WHEN pg_temp.m('dirty') <> '0' THEN format(' + %s uncommitted changes', pg_temp.m('dirty')) ELSE '' END,
              pg_temp.m('pg'), pg_temp.m('cpu'), pg_temp.m('checksums'), pg_temp.m('load'));
\qecho
SELECT format('One throwaway server (shared_buffers 2GB, no parallel workers, no JIT, autovacuum off); %s rounds, '
              'interleaved (round r starts with variant r); medians; a ratio is the median of the per-round ratios. '
              'Per call: %s calls in `SELECT count(f())` over a cross join of two series, CPU time (wall minus '
              'run-queue wait). Loads: %s rows in batches of %s into `id ... PRIMARY KEY DEFAULT f()`, a CHECKPOINT '
              'before each load, wall time.',
              pg_temp.m('rounds'), pg_temp.f(pg_temp.m('gen_n')::float8), pg_temp.f(pg_temp.m('ins_total')::float8),
              pg_temp.f(pg_temp.m('ins_batch')::float8));
\qecho
\qecho ## Targets
\qecho
\qecho | target | measured | target | result |
\qecho |---|---|---|---|
SELECT format('| %s | %s | ≤ %s | %s |', label, pg_temp.r(measured), pg_temp.r(target),
              CASE WHEN pass THEN '**PASS**' WHEN NOT pass THEN '**MISS**' ELSE 'n/a' END)
FROM pg_temp.targets ORDER BY ord;
\qecho
\qecho ## Per call
\qecho
\qecho | generator | ns per call (CPU) | above the floor | ms per million (wall) | / uuidv7() |
\qecho |---|---|---|---|---|
SELECT format('| %s | %s | %s | %s | %s |', v,
              pg_temp.f(pg_temp.med('v7gen', v, 'cpu_ms') * 1e6 / n, 1),
              CASE WHEN v = 'floor' THEN '' ELSE pg_temp.f((pg_temp.med('v7gen', v, 'cpu_ms') - pg_temp.med('v7gen', 'floor', 'cpu_ms')) * 1e6 / n, 1) END,
              pg_temp.f(pg_temp.med('v7gen', v, 'ms') * 1e6 / n),
              CASE WHEN v IN ('floor', 'uuidv7') THEN '' ELSE pg_temp.r(bench.ratio('v7gen', v, 'uuidv7', 'cpu_ms')) END)
FROM (VALUES (1, 'floor'), (2, 'gen_ulid'), (3, 'uuidv7'), (4, 'gen_random_ulid'), (5, 'gen_random_uuid')) x(o, v),
     (SELECT pg_temp.m('gen_n')::float8 AS n) g
ORDER BY o;
\qecho
SELECT format('Above the floor: gen_ulid() / uuidv7() = %s.', pg_temp.r(bench.net_ratio('v7gen', 'gen_ulid', 'uuidv7', 'floor', NULL, 'cpu_ms')));
\qecho
\qecho ## Primary-key loads
\qecho
\qecho | key | time (s) | on CPU (s) | last 10 % (s) | index (MiB) | leaf density | leaf fragmentation | WAL (MiB) | of it full-page images (MiB, 19+) | table (MiB) |
\qecho |---|---|---|---|---|---|---|---|---|---|
SELECT format('| %s | %s | %s | %s | %s | %s %% | %s %% | %s | %s | %s |', v,
              pg_temp.f(pg_temp.med('v7pk', v, 'ms') / 1000, 2),
              pg_temp.f((SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY cpu_ms) FROM pg_temp.load_cpu c WHERE c.variant = v) / 1000, 2),
              pg_temp.f(pg_temp.med('v7pk', v, 'last10_ms') / 1000, 2),
              pg_temp.f(pg_temp.med('v7pk', v, 'index_bytes') / 1048576, 1), pg_temp.f(pg_temp.med('v7pk', v, 'leaf_density'), 1),
              pg_temp.f(pg_temp.med('v7pk', v, 'leaf_fragmentation'), 1), pg_temp.f(pg_temp.med('v7pk', v, 'wal_bytes') / 1048576, 1),
              pg_temp.f(pg_temp.med('v7pk', v, 'fpi_bytes') / 1048576, 1),
              pg_temp.f(pg_temp.med('v7pk', v, 'table_bytes') / 1048576, 1))
FROM (VALUES (1, 'gen_ulid'), (2, 'uuidv7')) x(o, v) ORDER BY o;
\qecho
SELECT format('gen_ulid() / uuidv7(): time %s (per round: %s), on CPU %s, index size %s, WAL %s. The machine is '
              'shared: the wall time of a load also counts the time its backend waited for a CPU.',
              pg_temp.r(bench.ratio('v7pk', 'gen_ulid', 'uuidv7')),
              (SELECT string_agg(pg_temp.r(a.value / b.value), ', ' ORDER BY a.round) FROM bench.results a
               JOIN bench.results b ON b.item = a.item AND b.round = a.round AND b.metric = a.metric AND b.variant = 'uuidv7'
               WHERE a.item = 'v7pk' AND a.variant = 'gen_ulid' AND a.metric = 'ms'),
              pg_temp.r((SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY a.cpu_ms / b.cpu_ms) FROM pg_temp.load_cpu a
                         JOIN pg_temp.load_cpu b ON b.round = a.round AND b.variant = 'uuidv7' WHERE a.variant = 'gen_ulid')),
              pg_temp.r(bench.ratio('v7pk', 'gen_ulid', 'uuidv7', 'index_bytes')),
              pg_temp.r(bench.ratio('v7pk', 'gen_ulid', 'uuidv7', 'wal_bytes')));
