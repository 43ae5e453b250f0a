-- The targets (bench/README.md), each computed from bench.results of this run. A ratio is the median
-- over rounds of the ratio within a round (both runs of a pair are neighbours in time). Items 1-4
-- compare CPU time (cpu_ms = wall minus the time the backend waited for a CPU on this shared
-- 2-core machine); item 5 compares wall time (a load also makes the WAL writer and background
-- writer work).
CREATE OR REPLACE VIEW bench.targets AS
WITH mem AS (
    SELECT max(value) FILTER (WHERE metric = 'rss_anon_kb' AND seq = (SELECT max(seq) FROM bench.results WHERE item = 'memory'))
         - max(value) FILTER (WHERE metric = 'rss_anon_kb' AND seq = 0) AS rss_growth_kb,
           max(value) FILTER (WHERE metric = 'contexts_bytes' AND seq = (SELECT max(seq) FROM bench.results WHERE item = 'memory'))
         - max(value) FILTER (WHERE metric = 'contexts_bytes' AND seq = 0) AS ctx_growth_bytes,
           (SELECT max(seq) FROM bench.results WHERE item = 'memory') AS calls_m
    FROM bench.results WHERE item = 'memory'
), t(ord, label, measured, op, target, unit) AS (VALUES
    (1,  'gen_ulid() / executor floor',                   bench.ratio('gen', 'gen_ulid', 'floor', 'cpu_ms'),               '<=', 1.2,  'x'),
    (2,  'gen_ulid() / gen_random_uuid()',                bench.ratio('gen', 'gen_ulid', 'gen_random_uuid', 'cpu_ms'),     '<=', 0.15, 'x'),
    (3,  'gen_random_ulid() / gen_random_uuid()',         bench.ratio('gen', 'gen_random_ulid', 'gen_random_uuid', 'cpu_ms'), '<=', 0.3, 'x'),
    (4,  'ulid::text / uuid::text',                       bench.ratio('text_io', 'out_ulid', 'out_uuid', 'cpu_ms'),        '<=', 0.5,  'x'),
    (5,  'text::ulid / text::uuid',                       bench.ratio('text_io', 'in_ulid', 'in_uuid', 'cpu_ms'),          '<=', 0.35, 'x'),
    (6,  'ORDER BY ulid / uuid (random values)',          bench.ratio('sort', 'ulid', 'uuid', 'cpu_ms'),                   '<=', 1.05, 'x'),
    (7,  'CREATE INDEX ulid / uuid (random values)',      bench.ratio('index', 'ulid', 'uuid', 'cpu_ms'),                  '<=', 1.05, 'x'),
    (8,  'PK insert time gen_ulid() / increasing uuid',   bench.ratio('pk', 'gen_ulid', 'seq_uuid'),             '<=', 1.1,  'x'),
    (9,  'PK leaf density gen_ulid() (%)',                (SELECT median FROM bench.med WHERE item = 'pk' AND variant = 'gen_ulid' AND metric = 'leaf_density'), '>=', 88, '%'),
    (10, 'PK index size gen_ulid() / gen_random_ulid()',  bench.ratio('pk', 'gen_ulid', 'gen_random_ulid', 'index_bytes'), '<=', 0.8, 'x'),
    (11, 'PK insert time gen_ulid() / gen_random_uuid()', bench.ratio('pk', 'gen_ulid', 'gen_random_uuid'),      '<=', 0.35, 'x'),
    (12, 'memory growth over the gen_ulid() calls (kB RSS; contexts flat)', (SELECT rss_growth_kb FROM mem),                   '<=', 256, 'kB')
)
SELECT ord, label, measured, op, target, unit,
       CASE op WHEN '<=' THEN measured <= target ELSE measured >= target END
       -- memory: the memory contexts must not grow at all either
       AND (ord <> 12 OR (SELECT ctx_growth_bytes FROM mem) <= 0) AS pass
FROM t;
