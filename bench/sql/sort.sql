-- Item 4: ORDER BY and CREATE INDEX over N random values, in memory (work_mem and
-- maintenance_work_mem 1GB, no parallel workers): the comparator and abbreviated keys at work.
-- OFFSET N-1 makes the sort complete and returns one row.
SET work_mem = '1GB';
SET maintenance_work_mem = '1GB';
DELETE FROM bench.cases WHERE item IN ('sort', 'index');
INSERT INTO bench.cases (item, variant, ord, sql, cleanup) VALUES
    ('sort',  'ulid', 1, format('SELECT id FROM t_ulid ORDER BY id OFFSET %s', :N - 1), NULL),
    ('sort',  'uuid', 2, format('SELECT id FROM t_uuid ORDER BY id OFFSET %s', :N - 1), NULL),
    ('index', 'ulid', 1, 'CREATE INDEX bench_t_ulid_idx ON t_ulid (id)', 'DROP INDEX bench_t_ulid_idx'),
    ('index', 'uuid', 2, 'CREATE INDEX bench_t_uuid_idx ON t_uuid (id)', 'DROP INDEX bench_t_uuid_idx');
CALL bench.run('sort', :ROUNDS, false);  -- the tables are warm from items 2-3
CALL bench.run('index', :ROUNDS, false);
