-- Item 4 evidence: trace_sort of one ORDER BY and one CREATE INDEX per type. The LOG lines (on
-- stderr) show whether abbreviated keys were used ("ulid_abbrev: estimation ends at cardinality",
-- core's "uuid_abbrev: ..."), and tuplesort's own timing.
SET work_mem = '1GB';
SET maintenance_work_mem = '1GB';
SET trace_sort = on;
SET client_min_messages = log;
\echo --- ORDER BY ulid
SELECT id FROM t_ulid ORDER BY id OFFSET :N - 1;
\echo --- ORDER BY uuid
SELECT id FROM t_uuid ORDER BY id OFFSET :N - 1;
\echo --- CREATE INDEX ulid
CREATE INDEX bench_t_ulid_idx ON t_ulid (id);
DROP INDEX bench_t_ulid_idx;
\echo --- CREATE INDEX uuid
CREATE INDEX bench_t_uuid_idx ON t_uuid (id);
DROP INDEX bench_t_uuid_idx;
