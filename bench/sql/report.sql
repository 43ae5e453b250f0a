-- bench/sql/report.sql: the Markdown report, from bench.results (run with psql -At; stdout).
-- Items 1-4 are reported in CPU time (cpu_ms = wall - run-queue wait, see setup.sql) with the wall time
-- beside it; item 5 in wall time; item 6 in EXPLAIN ANALYZE execution time.
CREATE OR REPLACE FUNCTION pg_temp.m(text) RETURNS text LANGUAGE sql AS
$$ SELECT v FROM bench.meta WHERE k = $1 $$;
-- median of one measurement: item, variant, metric
CREATE OR REPLACE FUNCTION pg_temp.med(text, text, text DEFAULT 'ms') RETURNS float8 LANGUAGE sql AS
$$ SELECT median FROM bench.med WHERE item = $1 AND variant = $2 AND metric = $3 AND seq = 0 $$;
-- median per-row nanoseconds of an item/variant over n rows (on-CPU time unless told)
CREATE OR REPLACE FUNCTION pg_temp.ns(text, text, float8, text DEFAULT 'cpu_ms') RETURNS float8 LANGUAGE sql AS
$$ SELECT pg_temp.med($1, $2, $4) * 1e6 / $3 $$;
-- median share of the wall time the backend spent waiting for a CPU
CREATE OR REPLACE FUNCTION pg_temp.waited(text, text) RETURNS float8 LANGUAGE sql AS
$$ SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY w.value / nullif(m.value, 0)) * 100
   FROM bench.results w JOIN bench.results m USING (item, variant, round, seq)
   WHERE w.item = $1 AND w.variant = $2 AND w.metric = 'wait_ms' AND m.metric = 'ms' $$;
CREATE OR REPLACE FUNCTION pg_temp.f(x float8, d int DEFAULT 0) RETURNS text LANGUAGE sql AS
$$ SELECT CASE WHEN x IS NULL THEN '–' ELSE to_char(round(x::numeric, d), 'FM999,999,999,990' || CASE WHEN d > 0 THEN '.' || repeat('0', d) ELSE '' END) END $$;
CREATE OR REPLACE FUNCTION pg_temp.r(x float8) RETURNS text LANGUAGE sql AS
$$ SELECT CASE WHEN x IS NULL THEN '–' ELSE to_char(round(x::numeric, 2), 'FM990.00') || '×' END $$;
CREATE OR REPLACE FUNCTION pg_temp.verdict(p bool) RETURNS text LANGUAGE sql AS
$$ SELECT CASE WHEN p THEN '**PASS**' WHEN NOT p THEN '**MISS**' ELSE 'n/a' END $$;

SELECT format('# ulid vs uuid: benchmark report (%s run)', pg_temp.m('mode'));
\qecho
SELECT format('%s, commit %s%s, %s, %s. Load average %s. Duration %s.',
              pg_temp.m('started'), pg_temp.m('commit'),
              CASE WHEN pg_temp.m('dirty') <> '0' THEN format(' + %s uncommitted changes in src/sql', pg_temp.m('dirty')) ELSE '' END,
              pg_temp.m('pg'), pg_temp.m('cpu'), pg_temp.m('load'), pg_temp.m('duration'));
\qecho
SELECT format('**Method.** One throwaway server; every measurement interleaved ulid/uuid in %s rounds (round r starts '
              'with variant r, so every variant takes every position); medians over rounds; a ratio is the median of '
              'the per-round ratios. All times are taken in the server, around `EXECUTE` in a procedure (no client '
              'round trip): **wall** = `clock_timestamp()` difference; **CPU** = wall minus the time the backend sat '
              'runnable waiting for a CPU (`run_delay` of `/proc/<pid>/schedstat`, exact to the ns). This machine is '
              'shared (2 cores, other engineers'' test runs): a backend often waits for a CPU (the "waited" column), '
              'so items 1–4 compare CPU time; '
              'item 5 compares wall time (a load also makes the WAL writer and background writer work); range '
              'queries use `EXPLAIN (ANALYZE, TIMING OFF)` execution time. Items 1–4 and 6: shared_buffers 2GB '
              '(all data cached), no parallel workers, no JIT, autovacuum off; item 5: shared_buffers 32MB, a '
              'CHECKPOINT before every load and none inside it. Data sets: %s rows; generation: %s calls per run. '
              'Raw numbers: `results.csv`; SQL: `bench/sql/`.',
              pg_temp.m('rounds'), pg_temp.f(pg_temp.m('n')::float8), pg_temp.f(pg_temp.m('gen_n')::float8));
SELECT CASE WHEN coalesce(pg_temp.m('incidents'), 'none') <> 'none' THEN E'\n> **Incidents**: ' || pg_temp.m('incidents') ELSE '' END;
SELECT CASE WHEN pg_temp.m('mode') = 'quick' THEN E'\n> **Quick run**: data sets of a tenth of the size (the PK index fits in shared_buffers), '
            'fewer rounds. The ratios are indicative only; `scripts/bench` gives the numbers of record.' ELSE '' END;

-- ------------------------------------------------------------------------------------------
\qecho
\qecho ## Targets
\qecho
\qecho | # | target | measured | target | result |
\qecho |---|---|---|---|---|
SELECT format('| %s | %s | %s | %s %s | %s |', ord, label,
              CASE unit WHEN 'x' THEN pg_temp.r(measured) WHEN '%' THEN pg_temp.f(measured, 1) || ' %' ELSE pg_temp.f(measured) || ' ' || unit END,
              CASE op WHEN '<=' THEN '≤' ELSE '≥' END,
              CASE unit WHEN 'x' THEN pg_temp.r(target) WHEN '%' THEN pg_temp.f(target) || ' %' ELSE pg_temp.f(target) || ' ' || unit END,
              pg_temp.verdict(pass))
FROM bench.targets ORDER BY ord;
\qecho
SELECT format('**%s of %s targets met.** %s', count(*) FILTER (WHERE pass), count(*),
              CASE WHEN count(*) FILTER (WHERE NOT pass) = 0 THEN 'None missed.'
                   ELSE 'Missed: ' || string_agg('#' || ord, ', ' ORDER BY ord) FILTER (WHERE NOT pass) || ' (measured reasons below).' END)
FROM bench.targets;
\qecho

-- the measured reason for every missed target
WITH g AS (
    SELECT pg_temp.m('gen_n')::float8 AS n, pg_temp.m('n')::float8 AS rows
), x AS (
    SELECT pg_temp.ns('gen', 'floor', n) AS floor_ns, pg_temp.ns('gen', 'gen_ulid', n) AS ulid_ns,
           pg_temp.ns('gen', 'gen_random_ulid', n) AS rulid_ns, pg_temp.ns('gen', 'gen_random_uuid', n) AS uuid_ns,
           pg_temp.ns('gen', 'xj_floor', n) AS xfloor_ns, pg_temp.ns('gen', 'xj_gen_ulid', n) AS xulid_ns,
           pg_temp.ns('gen', 'xj_clock_timestamp', n) AS xclock_ns, pg_temp.ns('gen', 'xj_gen_ulid_ts', n) AS xts_ns,
           pg_temp.ns('gen', 'xj_now', n) AS xnow_ns, pg_temp.ns('gen', 'xj_byref', n) AS xbyref_ns,
           pg_temp.ns('gen', 'xj_clock_byref', n) AS xclockbyref_ns,
           pg_temp.ns('text_io', 'out_ulid', rows) AS out_ulid, pg_temp.ns('text_io', 'out_uuid', rows) AS out_uuid,
           pg_temp.ns('text_io', 'scan_ulid', rows) AS scan_ulid, pg_temp.ns('text_io', 'scan_uuid', rows) AS scan_uuid,
           pg_temp.ns('text_io', 'in_ulid', rows) AS in_ulid, pg_temp.ns('text_io', 'in_uuid', rows) AS in_uuid,
           pg_temp.ns('text_io', 'scan_tulid', rows) AS scan_tulid, pg_temp.ns('text_io', 'scan_tuuid', rows) AS scan_tuuid
    FROM g
)
SELECT '- **#' || t.ord || ' ' || t.label || '** — ' || CASE t.ord
    WHEN 1 THEN format('gen_ulid() costs %s ns per call (CPU), %s ns of it above the executor floor of %s ns per row; '
                       '1.2× the floor leaves %s ns. Decomposed over the cross join (table below), above a trivial function '
                       'call (`now()`): gen_ulid() %s ns; PostgreSQL''s own clock read (`clock_timestamp()`) %s ns; a 16-byte '
                       'by-reference result (`now() - now()`: palloc and the per-row memory reset) %s ns; both together in core '
                       '(`clock_timestamp() - now()`) %s ns, so gen_ulid() minus that core equivalent = %s ns. What gen_ulid() costs '
                       'above the floor is the clock read and the by-reference Datum, which PostgreSQL charges any such function, '
                       'not the extension''s own code.',
                       pg_temp.f(ulid_ns), pg_temp.f(ulid_ns - floor_ns), pg_temp.f(floor_ns), pg_temp.f(0.2 * floor_ns),
                       pg_temp.f(xulid_ns - xnow_ns), pg_temp.f(xclock_ns - xnow_ns), pg_temp.f(xbyref_ns - xnow_ns),
                       pg_temp.f(xclockbyref_ns - xnow_ns), pg_temp.f(xulid_ns - xclockbyref_ns))
    WHEN 2 THEN format('gen_random_uuid() costs %s ns per call here, gen_ulid() %s ns; the floor alone (%s ns) is %s of gen_random_uuid().',
                       pg_temp.f(uuid_ns), pg_temp.f(ulid_ns), pg_temp.f(floor_ns), pg_temp.r(floor_ns / uuid_ns))
    WHEN 3 THEN format('gen_random_ulid() %s ns per call (%s ns above the floor) vs gen_random_uuid() %s ns.',
                       pg_temp.f(rulid_ns), pg_temp.f(rulid_ns - floor_ns), pg_temp.f(uuid_ns))
    WHEN 4 THEN format('ulid::text %s ns/row vs uuid::text %s ns/row (whole query, CPU). The scans alone cost %s / %s ns/row: '
                       'the floor is already %s of the uuid query, so the conversion itself must cost ≤ %s ns/row; it costs %s '
                       '(uuid: %s), %s of uuid''s above the floor.',
                       pg_temp.f(out_ulid), pg_temp.f(out_uuid), pg_temp.f(scan_ulid), pg_temp.f(scan_uuid),
                       pg_temp.r(scan_ulid / out_uuid), pg_temp.f(0.5 * out_uuid - scan_ulid), pg_temp.f(out_ulid - scan_ulid),
                       pg_temp.f(out_uuid - scan_uuid),
                       pg_temp.r(bench.net_ratio('text_io', 'out_ulid', 'out_uuid', 'scan_ulid', 'scan_uuid', 'cpu_ms')))
    WHEN 5 THEN format('text::ulid %s ns/row vs text::uuid %s ns/row (whole query, CPU). The scans of the text columns alone cost '
                       '%s / %s ns/row (the floor is %s of the uuid query); above the floor the conversion costs %s vs %s ns/row = %s.',
                       pg_temp.f(in_ulid), pg_temp.f(in_uuid), pg_temp.f(scan_tulid), pg_temp.f(scan_tuuid),
                       pg_temp.r(scan_tulid / in_uuid), pg_temp.f(in_ulid - scan_tulid), pg_temp.f(in_uuid - scan_tuuid),
                       pg_temp.r(bench.net_ratio('text_io', 'in_ulid', 'in_uuid', 'scan_tulid', 'scan_tuuid', 'cpu_ms')))
    WHEN 6 THEN format('ulid %s ms vs uuid %s ms CPU (wall %s vs %s ms); the trace_sort lines below show abbreviated keys in use '
                       'for both and the comparison phase of each sort.',
                       pg_temp.f(pg_temp.med('sort', 'ulid', 'cpu_ms')), pg_temp.f(pg_temp.med('sort', 'uuid', 'cpu_ms')),
                       pg_temp.f(pg_temp.med('sort', 'ulid')), pg_temp.f(pg_temp.med('sort', 'uuid')))
    WHEN 7 THEN format('ulid %s ms vs uuid %s ms CPU (wall %s vs %s ms); see trace_sort below.',
                       pg_temp.f(pg_temp.med('index', 'ulid', 'cpu_ms')), pg_temp.f(pg_temp.med('index', 'uuid', 'cpu_ms')),
                       pg_temp.f(pg_temp.med('index', 'ulid')), pg_temp.f(pg_temp.med('index', 'uuid')))
    WHEN 8 THEN format('gen_ulid() %s s vs increasing uuid %s s; last 10 %%: %s vs %s s; leaf density %s vs %s %%; WAL %s vs %s MiB.',
                       pg_temp.f(pg_temp.med('pk', 'gen_ulid') / 1000, 2), pg_temp.f(pg_temp.med('pk', 'seq_uuid') / 1000, 2),
                       pg_temp.f(pg_temp.med('pk', 'gen_ulid', 'last10_ms') / 1000, 2), pg_temp.f(pg_temp.med('pk', 'seq_uuid', 'last10_ms') / 1000, 2),
                       pg_temp.f(pg_temp.med('pk', 'gen_ulid', 'leaf_density'), 1), pg_temp.f(pg_temp.med('pk', 'seq_uuid', 'leaf_density'), 1),
                       pg_temp.f(pg_temp.med('pk', 'gen_ulid', 'wal_bytes') / 1048576, 1), pg_temp.f(pg_temp.med('pk', 'seq_uuid', 'wal_bytes') / 1048576, 1))
    WHEN 9 THEN format('leaf density %s %%, fragmentation %s %% (increasing uuid: %s %%, %s %%).',
                       pg_temp.f(pg_temp.med('pk', 'gen_ulid', 'leaf_density'), 1), pg_temp.f(pg_temp.med('pk', 'gen_ulid', 'leaf_fragmentation'), 1),
                       pg_temp.f(pg_temp.med('pk', 'seq_uuid', 'leaf_density'), 1), pg_temp.f(pg_temp.med('pk', 'seq_uuid', 'leaf_fragmentation'), 1))
    WHEN 10 THEN format('index %s MiB vs %s MiB (leaf density %s vs %s %%). The within-millisecond-random key''s index size '
                       'depends on how many rows land in one millisecond, i.e. on the insert speed.',
                       pg_temp.f(pg_temp.med('pk', 'gen_ulid', 'index_bytes') / 1048576, 1), pg_temp.f(pg_temp.med('pk', 'gen_random_ulid', 'index_bytes') / 1048576, 1),
                       pg_temp.f(pg_temp.med('pk', 'gen_ulid', 'leaf_density'), 1), pg_temp.f(pg_temp.med('pk', 'gen_random_ulid', 'leaf_density'), 1))
    WHEN 11 THEN format('gen_ulid() %s s vs gen_random_uuid() %s s (last 10 %%: %s vs %s s).',
                       pg_temp.f(pg_temp.med('pk', 'gen_ulid') / 1000, 2), pg_temp.f(pg_temp.med('pk', 'gen_random_uuid') / 1000, 2),
                       pg_temp.f(pg_temp.med('pk', 'gen_ulid', 'last10_ms') / 1000, 2), pg_temp.f(pg_temp.med('pk', 'gen_random_uuid', 'last10_ms') / 1000, 2))
    WHEN 12 THEN 'the backend''s anonymous RSS or its memory contexts grew; see the memory table below.'
    END
FROM bench.targets t, x WHERE NOT t.pass ORDER BY t.ord;

-- ------------------------------------------------------------------------------------------
\qecho
\qecho ## 1. Generation
\qecho
SELECT format('`SELECT count(f()) FROM generate_series(1, %s) x`; the executor floor is `count(x)` of the same series (the target''s '
              'definition; the series is a tuplestore that spills to a temporary file). CPU time; "waited" = median share of the '
              'wall time the backend sat waiting for a CPU.', pg_temp.m('gen_n'));
\qecho
\qecho | variant | CPU ms per run (median) | min – max | ns per call | ns above the floor | × floor | × gen_random_uuid() | wall ms | waited | target |
\qecho |---|---|---|---|---|---|---|---|---|---|
SELECT format('| %s | %s | %s – %s | %s | %s | %s | %s | %s | %s %% | %s |',
              CASE variant WHEN 'floor' THEN 'executor floor `count(x)`' WHEN 'gen_ulid_ts' THEN '`gen_ulid(now())`' ELSE '`' || variant || '()`' END,
              pg_temp.f(median, 1), pg_temp.f(min, 1), pg_temp.f(max, 1),
              pg_temp.f(median * 1e6 / pg_temp.m('gen_n')::float8),
              CASE WHEN variant = 'floor' THEN '–' ELSE pg_temp.f((median - pg_temp.med('gen', 'floor', 'cpu_ms')) * 1e6 / pg_temp.m('gen_n')::float8) END,
              pg_temp.r(bench.ratio('gen', variant, 'floor', 'cpu_ms')),
              pg_temp.r(bench.ratio('gen', variant, 'gen_random_uuid', 'cpu_ms')),
              pg_temp.f(pg_temp.med('gen', variant), 1), pg_temp.f(pg_temp.waited('gen', variant)),
              CASE variant WHEN 'gen_ulid' THEN '≤ 1.20× floor, ≤ 0.15× uuid' WHEN 'gen_random_ulid' THEN '≤ 0.30× uuid' ELSE '' END)
FROM bench.med WHERE item = 'gen' AND metric = 'cpu_ms' AND variant NOT LIKE 'xj\_%'
ORDER BY array_position(ARRAY['floor', 'gen_ulid', 'gen_random_ulid', 'gen_ulid_ts', 'gen_monotonic_ulid', 'gen_random_uuid'], variant);
\qecho
SELECT format('The same over a cross join of two small series, `SELECT count(f()) FROM generate_series(1, %s) a, generate_series(1, 10000) b`: '
              'no spill, so the floor is the executor alone. Core functions decompose what a generator pays PostgreSQL: '
              '`now()` is a trivial call returning a by-value Datum, `clock_timestamp()` adds the clock read, `now() - now()` '
              'a 16-byte by-reference result (palloc, and a per-row memory-context reset that has something to free), '
              '`clock_timestamp() - now()` both.',
              pg_temp.m('gen_n')::bigint / 10000);
\qecho
SELECT '| f() (cross join) | CPU ms per run (median) | ns per call | ns above `count(b)` | ns above `now()` | × `clock_timestamp() - now()` |';
\qecho |---|---|---|---|---|---|
SELECT format('| %s | %s | %s | %s | %s | %s |',
              CASE variant WHEN 'xj_floor' THEN 'executor floor `count(b)`' WHEN 'xj_now' THEN '`now()`'
                           WHEN 'xj_clock_timestamp' THEN '`clock_timestamp()`' WHEN 'xj_byref' THEN '`now() - now()`'
                           WHEN 'xj_clock_byref' THEN '`clock_timestamp() - now()`' WHEN 'xj_gen_ulid_ts' THEN '`gen_ulid(now())`'
                           ELSE '`' || substr(variant, 4) || '()`' END,
              pg_temp.f(median, 1), pg_temp.f(median * 1e6 / pg_temp.m('gen_n')::float8),
              CASE WHEN variant = 'xj_floor' THEN '–' ELSE pg_temp.f((median - pg_temp.med('gen', 'xj_floor', 'cpu_ms')) * 1e6 / pg_temp.m('gen_n')::float8) END,
              CASE WHEN variant IN ('xj_floor', 'xj_now') THEN '–' ELSE pg_temp.f((median - pg_temp.med('gen', 'xj_now', 'cpu_ms')) * 1e6 / pg_temp.m('gen_n')::float8) END,
              pg_temp.r(bench.ratio('gen', variant, 'xj_clock_byref', 'cpu_ms')))
FROM bench.med WHERE item = 'gen' AND metric = 'cpu_ms' AND variant LIKE 'xj\_%'
ORDER BY array_position(ARRAY['xj_floor', 'xj_now', 'xj_clock_timestamp', 'xj_byref', 'xj_clock_byref', 'xj_gen_ulid',
                              'xj_gen_random_ulid', 'xj_gen_ulid_ts'], variant);
\qecho
SELECT format('Memory of one backend over %sM `gen_ulid()` calls, after a warm-up of two chunks through the same statement: '
              'anonymous RSS from `/proc/<pid>/status`, and the total of `pg_backend_memory_contexts`.', pg_temp.m('mem_calls'));
\qecho
\qecho | calls after the warm-up (M) | RssAnon (kB) | memory contexts (bytes) |
\qecho |---|---|---|
SELECT format('| %s | %s | %s |', seq, pg_temp.f(max(value) FILTER (WHERE metric = 'rss_anon_kb')),
              pg_temp.f(max(value) FILTER (WHERE metric = 'contexts_bytes')))
FROM bench.results WHERE item = 'memory' GROUP BY seq ORDER BY seq;

-- ------------------------------------------------------------------------------------------
\qecho
\qecho ## 2. Text output and input
\qecho
SELECT format('%s rows; `count(id::text)` over a ulid/uuid column (the same 16 bytes), `count(t::ulid)` / `count(t::uuid)` '
              'over a text column holding their text forms (26 / 36 characters). Floors: `count(id)` / `count(t)` of the same table. '
              'CPU time per row; "net" = above the floor. ulid::text and text::ulid are the extension''s direct casts; uuid''s are '
              'PostgreSQL''s I/O casts (`uuid_out` + `textin`, `textout` + `uuid_in`): what users get.', pg_temp.f(pg_temp.m('n')::float8));
\qecho
\qecho | conversion | ulid ns/row | uuid ns/row | ratio | target | result | floor ulid / uuid | net ulid / uuid | net ratio | wall ratio | waited ulid / uuid |
\qecho |---|---|---|---|---|---|---|---|---|---|---|
WITH c(ord, name, a, b, fa, fb, tord) AS (VALUES
    (1, 'output `id::text`', 'out_ulid', 'out_uuid', 'scan_ulid', 'scan_uuid', 4),
    (2, 'input `t::ulid` / `t::uuid`', 'in_ulid', 'in_uuid', 'scan_tulid', 'scan_tuuid', 5))
SELECT format('| %s | %s | %s | %s | ≤ %s | %s | %s / %s | %s / %s | %s | %s | %s %% / %s %% |', name,
              pg_temp.f(pg_temp.ns('text_io', a, n)), pg_temp.f(pg_temp.ns('text_io', b, n)),
              pg_temp.r(bench.ratio('text_io', a, b, 'cpu_ms')), pg_temp.r(t.target), pg_temp.verdict(t.pass),
              pg_temp.f(pg_temp.ns('text_io', fa, n)), pg_temp.f(pg_temp.ns('text_io', fb, n)),
              pg_temp.f(pg_temp.ns('text_io', a, n) - pg_temp.ns('text_io', fa, n)),
              pg_temp.f(pg_temp.ns('text_io', b, n) - pg_temp.ns('text_io', fb, n)),
              pg_temp.r(bench.net_ratio('text_io', a, b, fa, fb, 'cpu_ms')),
              pg_temp.r(bench.ratio('text_io', a, b)),
              pg_temp.f(pg_temp.waited('text_io', a)), pg_temp.f(pg_temp.waited('text_io', b)))
FROM c JOIN bench.targets t ON t.ord = c.tord, (SELECT pg_temp.m('n')::float8 AS n) p ORDER BY c.ord;

-- ------------------------------------------------------------------------------------------
\qecho
\qecho ## 3. Binary COPY
\qecho
SELECT format('%s rows, `COPY … (FORMAT binary)` to and from a server-side file (`ulid_send`/`ulid_recv` vs '
              '`uuid_send`/`uuid_recv`); COPY FROM loads an empty unlogged table. No target for it: the same 16 bytes '
              'should cost the same. CPU time.', pg_temp.f(pg_temp.m('n')::float8));
\qecho
\qecho | direction | ulid ms | uuid ms | ulid ns/row | uuid ns/row | ratio | wall ratio |
\qecho |---|---|---|---|---|---|---|
SELECT format('| %s | %s | %s | %s | %s | %s | %s |', d, pg_temp.f(pg_temp.med('copy', d || '_ulid', 'cpu_ms')), pg_temp.f(pg_temp.med('copy', d || '_uuid', 'cpu_ms')),
              pg_temp.f(pg_temp.ns('copy', d || '_ulid', pg_temp.m('n')::float8)), pg_temp.f(pg_temp.ns('copy', d || '_uuid', pg_temp.m('n')::float8)),
              pg_temp.r(bench.ratio('copy', d || '_ulid', d || '_uuid', 'cpu_ms')), pg_temp.r(bench.ratio('copy', d || '_ulid', d || '_uuid')))
FROM unnest(ARRAY['out', 'in']) d;

-- ------------------------------------------------------------------------------------------
\qecho
\qecho ## 4. Sorting and CREATE INDEX
\qecho
SELECT format('%s random values (random times over five years, fresh entropy; the uuid column holds the same bytes), in memory '
              '(work_mem / maintenance_work_mem 1GB, no parallel workers). `ORDER BY id OFFSET n-1` sorts everything and returns one row. '
              'CPU time.', pg_temp.f(pg_temp.m('n')::float8));
\qecho
\qecho | operation | ulid CPU ms | uuid CPU ms | ratio | target | result | wall ms ulid / uuid | wall ratio |
\qecho |---|---|---|---|---|---|---|---|
SELECT format('| %s | %s | %s | %s | ≤ %s | %s | %s / %s | %s |', name, pg_temp.f(pg_temp.med(item, 'ulid', 'cpu_ms')), pg_temp.f(pg_temp.med(item, 'uuid', 'cpu_ms')),
              pg_temp.r(bench.ratio(item, 'ulid', 'uuid', 'cpu_ms')), pg_temp.r(t.target), pg_temp.verdict(t.pass),
              pg_temp.f(pg_temp.med(item, 'ulid')), pg_temp.f(pg_temp.med(item, 'uuid')), pg_temp.r(bench.ratio(item, 'ulid', 'uuid')))
FROM (VALUES ('sort', '`ORDER BY id`', 6), ('index', '`CREATE INDEX`', 7)) c(item, name, tord) JOIN bench.targets t ON t.ord = c.tord;

-- ------------------------------------------------------------------------------------------
\qecho
\qecho ## 5. Primary-key inserts
\qecho
SELECT format('%s rows in batches of %s (one `INSERT … SELECT` and one COMMIT per batch), shared_buffers 32MB, into '
              '`(id <key> PRIMARY KEY DEFAULT <generator>, v int)`. Increasing uuid: a sequence (CACHE 100; CACHE 1 for pgbench) '
              'as the big-endian low 8 bytes, `(''\x0000000000000000''::bytea || int8send(nextval(''pk_seq'')))::ulid::uuid`; '
              'within-millisecond-random key: `gen_random_ulid()` (what UUIDv7 and other ULID generators do). WAL: '
              '`pg_current_wal_lsn()` difference over the load (no checkpoint inside it). Wall time. %s',
              pg_temp.f(pg_temp.m('ins_total')::float8), pg_temp.f(pg_temp.m('ins_batch')::float8),
              CASE WHEN pg_temp.m('uuid_pk_rounds') <> pg_temp.m('rounds')
                   THEN format('The gen_random_uuid() load (minutes each) ran in %s of the %s rounds, spread over the run; its ratios pair it with the other loads of the same rounds.',
                               pg_temp.m('uuid_pk_rounds'), pg_temp.m('rounds')) ELSE '' END);
\qecho
\qecho | key | total s | last 10 % s | index MiB | leaf density % | leaf fragmentation % | WAL MiB | time × increasing uuid | time × gen_random_uuid | index × gen_random_ulid | WAL × increasing uuid | waited |
\qecho |---|---|---|---|---|---|---|---|---|---|---|---|
SELECT format('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s %% |',
              CASE v.variant WHEN 'seq_uuid' THEN 'increasing uuid (sequence)' ELSE '`' || v.variant || '()`' END,
              pg_temp.f(pg_temp.med('pk', v.variant) / 1000, 2), pg_temp.f(pg_temp.med('pk', v.variant, 'last10_ms') / 1000, 2),
              pg_temp.f(pg_temp.med('pk', v.variant, 'index_bytes') / 1048576, 1), pg_temp.f(pg_temp.med('pk', v.variant, 'leaf_density'), 1),
              pg_temp.f(pg_temp.med('pk', v.variant, 'leaf_fragmentation'), 1), pg_temp.f(pg_temp.med('pk', v.variant, 'wal_bytes') / 1048576, 1),
              pg_temp.r(bench.ratio('pk', v.variant, 'seq_uuid')), pg_temp.r(bench.ratio('pk', v.variant, 'gen_random_uuid')),
              pg_temp.r(bench.ratio('pk', v.variant, 'gen_random_ulid', 'index_bytes')), pg_temp.r(bench.ratio('pk', v.variant, 'seq_uuid', 'wal_bytes')),
              pg_temp.f(pg_temp.waited('pk', v.variant)))
FROM bench.pk_variants v ORDER BY v.ord;
\qecho
SELECT format('Last 10 %% of the load relative to the increasing uuid: %s.',
              string_agg(format('`%s` %s', variant, pg_temp.r(bench.ratio('pk', variant, 'seq_uuid', 'last10_ms'))), ', ' ORDER BY ord))
FROM bench.pk_variants;
\qecho
SELECT format('8 concurrent clients (pgbench `-c 8 -j 2 -T %s`, one single-row `INSERT` per transaction) into an empty table of each kind '
              '(the increasing uuid''s sequence has CACHE 1 here, so it stays strictly increasing across the clients):',
              pg_temp.m('pgb_seconds'));
\qecho
\qecho | key | tps | tps × increasing uuid | rows | index MiB | leaf density % | leaf fragmentation % |
\qecho |---|---|---|---|---|---|---|
SELECT format('| %s | %s | %s | %s | %s | %s | %s |',
              CASE v.variant WHEN 'seq_uuid' THEN 'increasing uuid (sequence)' ELSE '`' || v.variant || '()`' END,
              pg_temp.f(pg_temp.med('pgbench', v.variant, 'tps')), pg_temp.r(bench.ratio('pgbench', v.variant, 'seq_uuid', 'tps')),
              pg_temp.f(pg_temp.med('pgbench', v.variant, 'rows')), pg_temp.f(pg_temp.med('pgbench', v.variant, 'index_bytes') / 1048576, 1),
              pg_temp.f(pg_temp.med('pgbench', v.variant, 'leaf_density'), 1), pg_temp.f(pg_temp.med('pgbench', v.variant, 'leaf_fragmentation'), 1))
FROM bench.pk_variants v ORDER BY v.ord;

-- ------------------------------------------------------------------------------------------
\qecho
\qecho ## 6. Range queries by time: b-tree vs BRIN
\qecho
SELECT format('%s rows in time order (one every 100 ms), `SELECT count(*), sum(v) … WHERE id >= ts::ulid AND id < ts2::ulid`, '
              '%s windows at spread-out positions per run; execution time per query (EXPLAIN ANALYZE, TIMING OFF). '
              'Identical tables, one with a b-tree, one with a BRIN (`ulid_minmax_ops`, 128 pages per range). No target for it.',
              pg_temp.f(pg_temp.m('n')::float8), pg_temp.m('range_q'));
\qecho
\qecho | window | rows per query | b-tree ms/query | BRIN ms/query | BRIN / b-tree |
\qecho |---|---|---|---|---|
SELECT format('| %s | %s | %s | %s | %s |', w, pg_temp.f(rows), pg_temp.f(pg_temp.med('range_' || w, 'btree') / q, 3),
              pg_temp.f(pg_temp.med('range_' || w, 'brin') / q, 3), pg_temp.r(bench.ratio('range_' || w, 'brin', 'btree')))
FROM (VALUES ('1min', 600), ('1h', 36000), ('6h', 216000)) x(w, rows), (SELECT pg_temp.m('range_q')::float8 AS q) p;
\qecho
SELECT format('Index size: b-tree %s MiB, BRIN %s kB (1/%s of the b-tree).',
              pg_temp.f(pg_temp.med('range', 'btree', 'index_bytes') / 1048576, 1), pg_temp.f(pg_temp.med('range', 'brin', 'index_bytes') / 1024),
              pg_temp.f(pg_temp.med('range', 'btree', 'index_bytes') / pg_temp.med('range', 'brin', 'index_bytes')));

-- ------------------------------------------------------------------------------------------
\qecho
\qecho ## 7. gen_monotonic_ulid() against gen_ulid()
\qecho
SELECT 'Single client: CPU time of the generation query above (1M calls), paired per round. Eight clients: pgbench `-c 8 -j 2`, each transaction `SELECT count(f()) FROM generate_series(1, 100)`; calls per second = tps × 100. `gen_ulid()` keeps its state per backend and takes no lock; `gen_monotonic_ulid()` takes one spinlock per call around a few instructions and draws no random bytes when the millisecond repeats (a lock-free hint of the shared millisecond is read first; the bits a new millisecond needs are drawn before the lock), so eight clients on two cores take turns on one cache line.';
\qecho
\qecho | measurement | gen_ulid() | gen_monotonic_ulid() | ratio | target |
\qecho |---|---|---|---|---|
SELECT format('| single client, ns per call | %s | %s | %s | ≤ 1.30× (%s) |',
              pg_temp.f(pg_temp.med('gen', 'gen_ulid', 'cpu_ms') * 1e6 / pg_temp.m('gen_n')::float8),
              pg_temp.f(pg_temp.med('gen', 'gen_monotonic_ulid', 'cpu_ms') * 1e6 / pg_temp.m('gen_n')::float8),
              pg_temp.r(bench.ratio('gen', 'gen_monotonic_ulid', 'gen_ulid', 'cpu_ms')),
              CASE WHEN bench.ratio('gen', 'gen_monotonic_ulid', 'gen_ulid', 'cpu_ms') <= 1.30 THEN '**PASS**' ELSE '**MISS**' END);
SELECT format('| single client over the cross join, ns above its floor | %s | %s | %s | |',
              pg_temp.f((pg_temp.med('gen', 'xj_gen_ulid', 'cpu_ms') - pg_temp.med('gen', 'xj_floor', 'cpu_ms')) * 1e6 / pg_temp.m('gen_n')::float8),
              pg_temp.f((pg_temp.med('gen', 'xj_gen_monotonic_ulid', 'cpu_ms') - pg_temp.med('gen', 'xj_floor', 'cpu_ms')) * 1e6 / pg_temp.m('gen_n')::float8),
              pg_temp.r(bench.net_ratio('gen', 'xj_gen_monotonic_ulid', 'xj_gen_ulid', 'xj_floor', 'xj_floor', 'cpu_ms')));
SELECT format('| 8 clients, calls per second | %s | %s | %s | report |',
              pg_temp.f(pg_temp.med('mono8', 'gen_ulid', 'tps') * 100), pg_temp.f(pg_temp.med('mono8', 'gen_monotonic_ulid', 'tps') * 100),
              pg_temp.r(bench.ratio('mono8', 'gen_monotonic_ulid', 'gen_ulid', 'tps')));
