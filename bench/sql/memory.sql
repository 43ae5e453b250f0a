-- Target "memory flat over 100M generator calls": one backend runs
--   SELECT count(gen_ulid()) FROM generate_series(1, CHUNK_M * 100) a, generate_series(1, 10000) b
-- (CHUNK_M million calls; a cross join of two small series, so nothing spills to disk) CHUNKS
-- times, as plain statements (no plan cache), and records its anonymous RSS (/proc/<pid>/status)
-- and the total of its memory contexts after each (13 has no pg_backend_memory_contexts: RSS only). Two warm-up runs and one warm-up recording come
-- first (seq -1); seq 0 is the baseline after them; seq = millions of calls after the warm-up.
-- psql variables: CHUNKS, CHUNK_M.
SELECT format('SELECT count(gen_ulid()) FROM generate_series(1, %s) a, generate_series(1, 10000) b', :CHUNK_M * 100) AS chunk_sql \gset
SELECT format($f$INSERT INTO bench.results (item, variant, round, metric, seq, value)
                 SELECT 'memory', 'gen_ulid', 1, m, %%s, v FROM bench.backend_memory() b,
                 LATERAL (VALUES ('rss_anon_kb', b.rss_anon_kb), ('contexts_bytes', b.contexts_bytes)) x(m, v)
                 WHERE v IS NOT NULL$f$) AS record_fmt \gset
\o /dev/null
SELECT stmt FROM (VALUES (1, :'chunk_sql'), (2, :'chunk_sql'), (3, format(:'record_fmt', -1)), (4, format(:'record_fmt', 0))) s(o, stmt)
ORDER BY o \gexec
SELECT stmt FROM generate_series(1, :CHUNKS) i,
     LATERAL (VALUES (1, :'chunk_sql'), (2, format(:'record_fmt', i * :CHUNK_M))) s(o, stmt)
ORDER BY i, o \gexec
\o
DELETE FROM bench.results WHERE item = 'memory' AND seq = -1;
