-- gen_monotonic_ulid() in a server started without shared_preload_libraries = 'ulid'.
-- PostgreSQL 17+ keeps its state in the dynamic shared memory registry, so it just works
-- (expected/monotonic.out); 13-16 can reserve shared memory only at server start, so it raises
-- 55000 with a HINT naming the line to add (expected/monotonic_1.out). With the library preloaded
-- it is tested by t/160_monotonic_shared.pl.
SELECT count(*) AS generated, bool_and(prev < id) AS increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, gen_monotonic_ulid() AS id FROM generate_series(1, 1000) n) g) x;
\set VERBOSITY sqlstate
SELECT gen_monotonic_ulid() IS NOT NULL AS works;
\set VERBOSITY default
