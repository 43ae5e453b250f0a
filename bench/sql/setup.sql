-- bench/sql/setup.sql: the harness every measurement uses (schema "bench").
--
--   bench.results       one row per measured value: item, variant, round, metric, seq, value
--   bench.cases         the statements of one item, one row per variant (ord = position in round 1)
--   CALL bench.run(item, rounds, warmup)
--                       runs every case of the item once per round, interleaved: round r starts at
--                       variant (r-1) mod k and goes round the list, so each variant takes every
--                       position equally often; COMMIT after every run. Records per run:
--                         ms      wall time, clock_timestamp() around EXECUTE (server side, no
--                                 client round trip), or, for mode 'value', the float8 the
--                                 statement itself returns (e.g. summed EXPLAIN execution times)
--                         wait_ms the time the backend sat runnable, waiting for a CPU that other
--                                 processes had (schedstat run_delay: exact, ns; the noise of a shared box)
--                         cpu_ms  ms - wait_ms: the time the backend ran (elapsed mode only). The
--                                 schedstat on-CPU counter itself is no use here: read by the running
--                                 process it only advances at scheduler ticks (4 ms)
--   bench.sched()              the backend's on-CPU and run-queue wait ns (/proc/<pid>/schedstat)
--   bench.explain_ms(sql)      execution time of one statement by EXPLAIN (ANALYZE, TIMING OFF)
--   bench.ratio(item, a, b)    median over rounds of a/b (paired: same round)
--   bench.med                  median/min/max per item, variant, metric, seq
CREATE EXTENSION IF NOT EXISTS ulid;
CREATE EXTENSION IF NOT EXISTS pgstattuple;
CREATE SCHEMA IF NOT EXISTS bench;

CREATE TABLE IF NOT EXISTS bench.results (
    item    text NOT NULL,
    variant text NOT NULL,
    round   int NOT NULL,
    metric  text NOT NULL DEFAULT 'ms',
    seq     int NOT NULL DEFAULT 0,
    value   float8 NOT NULL,
    at      timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE TABLE IF NOT EXISTS bench.cases (
    item    text NOT NULL,
    variant text NOT NULL,
    ord     int NOT NULL,
    sql     text NOT NULL,
    cleanup text,
    mode    text NOT NULL DEFAULT 'elapsed' CHECK (mode IN ('elapsed', 'value')),
    PRIMARY KEY (item, variant)
);

-- Server-side execution time of one statement, without planning and without per-node clocks.
CREATE OR REPLACE FUNCTION bench.explain_ms(sql text) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ' || sql INTO plan;
    RETURN (plan -> 0 ->> 'Execution Time')::float8;
END
$$;

CREATE OR REPLACE FUNCTION bench.sched(OUT cpu_ns float8, OUT wait_ns float8)
LANGUAGE sql AS $$
    SELECT split_part(s, ' ', 1)::float8, split_part(s, ' ', 2)::float8
    FROM pg_read_file('/proc/' || pg_backend_pid() || '/schedstat') s
$$;

CREATE OR REPLACE PROCEDURE bench.run(p_item text, p_rounds int, p_warmup bool DEFAULT true)
LANGUAGE plpgsql AS $$
DECLARE
    cs bench.cases[];
    c bench.cases;
    k int;
    r int;
    i int;
    t0 timestamptz;
    ms float8;
    w0 float8;
    w1 float8;
BEGIN
    SELECT array_agg(x ORDER BY x.ord) INTO cs FROM bench.cases x WHERE x.item = p_item;
    k := coalesce(array_length(cs, 1), 0);
    IF k = 0 THEN
        RAISE EXCEPTION 'bench.run: no cases for item %', p_item;
    END IF;
    IF p_warmup THEN
        FOREACH c IN ARRAY cs LOOP
            EXECUTE c.sql;
            IF c.cleanup IS NOT NULL THEN EXECUTE c.cleanup; END IF;
            COMMIT;
        END LOOP;
    END IF;
    FOR r IN 1 .. p_rounds LOOP
        FOR i IN 0 .. k - 1 LOOP
            c := cs[1 + (r - 1 + i) % k];
            SELECT wait_ns INTO w0 FROM bench.sched();
            IF c.mode = 'value' THEN
                EXECUTE c.sql INTO ms;
            ELSE
                t0 := clock_timestamp();
                EXECUTE c.sql;
                ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
            END IF;
            SELECT wait_ns INTO w1 FROM bench.sched();
            INSERT INTO bench.results (item, variant, round, metric, value) VALUES
                (p_item, c.variant, r, 'ms', ms),
                (p_item, c.variant, r, 'wait_ms', (w1 - w0) / 1e6);
            IF c.mode = 'elapsed' THEN
                INSERT INTO bench.results (item, variant, round, metric, value) VALUES
                    (p_item, c.variant, r, 'cpu_ms', ms - (w1 - w0) / 1e6);
            END IF;
            IF c.cleanup IS NOT NULL THEN EXECUTE c.cleanup; END IF;
            COMMIT;
        END LOOP;
        RAISE NOTICE '% round %/% done', p_item, r, p_rounds;
    END LOOP;
END
$$;

CREATE OR REPLACE VIEW bench.med AS
SELECT item, variant, metric, seq,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY value) AS median,
       min(value) AS min, max(value) AS max, count(*) AS rounds
FROM bench.results
GROUP BY item, variant, metric, seq;

-- Median over rounds of the paired ratio a/b (both measured in the same round).
CREATE OR REPLACE FUNCTION bench.ratio(p_item text, p_a text, p_b text, p_metric text DEFAULT 'ms',
                                       p_item_b text DEFAULT NULL)
RETURNS float8 LANGUAGE sql STABLE AS $$
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY a.value / nullif(b.value, 0))
    FROM bench.results a
    JOIN bench.results b ON b.round = a.round AND b.seq = a.seq AND b.metric = a.metric
    WHERE a.item = p_item AND a.variant = p_a AND a.metric = p_metric AND a.seq = 0
      AND b.item = coalesce(p_item_b, p_item) AND b.variant = p_b
$$;

-- Median over rounds of the paired ratio (a - f)/(b - f): cost above a floor measured in the same round.
CREATE OR REPLACE FUNCTION bench.net_ratio(p_item text, p_a text, p_b text, p_floor_a text,
                                           p_floor_b text DEFAULT NULL, p_metric text DEFAULT 'ms')
RETURNS float8 LANGUAGE sql STABLE AS $$
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY (a.value - fa.value) / nullif(b.value - fb.value, 0))
    FROM bench.results a
    JOIN bench.results b  ON b.item = a.item AND b.round = a.round AND b.metric = a.metric AND b.variant = p_b
    JOIN bench.results fa ON fa.item = a.item AND fa.round = a.round AND fa.metric = a.metric AND fa.variant = p_floor_a
    JOIN bench.results fb ON fb.item = a.item AND fb.round = a.round AND fb.metric = a.metric
                         AND fb.variant = coalesce(p_floor_b, p_floor_a)
    WHERE a.item = p_item AND a.variant = p_a AND a.metric = p_metric
$$;

-- The backend's own memory: anonymous resident set (kB, from /proc) and PostgreSQL memory contexts
-- (NULL where the server has no pg_backend_memory_contexts view: PostgreSQL 13).
SELECT to_regclass('pg_catalog.pg_backend_memory_contexts') IS NOT NULL AS have_memory_contexts \gset
\if :have_memory_contexts
CREATE OR REPLACE FUNCTION bench.backend_memory(OUT rss_anon_kb float8, OUT contexts_bytes float8)
LANGUAGE sql AS $$
    SELECT (regexp_match(pg_read_file('/proc/' || pg_backend_pid() || '/status'),
                         'RssAnon:\s+(\d+)'))[1]::float8,
           (SELECT sum(total_bytes)::float8 FROM pg_backend_memory_contexts)
$$;
\else
CREATE OR REPLACE FUNCTION bench.backend_memory(OUT rss_anon_kb float8, OUT contexts_bytes float8)
LANGUAGE sql AS $$
    SELECT (regexp_match(pg_read_file('/proc/' || pg_backend_pid() || '/status'),
                         'RssAnon:\s+(\d+)'))[1]::float8,
           NULL::float8
$$;
\endif
