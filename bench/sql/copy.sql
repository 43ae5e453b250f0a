-- Item 3: binary COPY out (ulid_send / uuid_send) to a server-side file and back in
-- (ulid_recv / uuid_recv) into an empty unlogged table, N rows.
DELETE FROM bench.cases WHERE item = 'copy';
INSERT INTO bench.cases (item, variant, ord, sql, cleanup) VALUES
    ('copy', 'out_ulid', 1, format('COPY t_ulid TO %L (FORMAT binary)',
                                   current_setting('data_directory') || '/bench_ulid.copy'), NULL),
    ('copy', 'out_uuid', 2, format('COPY t_uuid TO %L (FORMAT binary)',
                                   current_setting('data_directory') || '/bench_uuid.copy'), NULL),
    ('copy', 'in_ulid',  3, format('COPY c_ulid FROM %L (FORMAT binary)',
                                   current_setting('data_directory') || '/bench_ulid.copy'), 'TRUNCATE c_ulid'),
    ('copy', 'in_uuid',  4, format('COPY c_uuid FROM %L (FORMAT binary)',
                                   current_setting('data_directory') || '/bench_uuid.copy'), 'TRUNCATE c_uuid');
-- the input files must exist before the first (warm-up) COPY FROM
SELECT format('COPY t_ulid TO %L (FORMAT binary)', current_setting('data_directory') || '/bench_ulid.copy') \gexec
SELECT format('COPY t_uuid TO %L (FORMAT binary)', current_setting('data_directory') || '/bench_uuid.copy') \gexec
CALL bench.run('copy', :ROUNDS);
