-- Item 2: text output (id::text) and input (t::ulid / t::uuid) over N-row tables, with the scan
-- floors (the same aggregate over the column itself). ulid::text is the direct cast function;
-- uuid::text and text::uuid are PostgreSQL's I/O casts (uuid_out / uuid_in), what users get.
DELETE FROM bench.cases WHERE item = 'text_io';
INSERT INTO bench.cases (item, variant, ord, sql) VALUES
    ('text_io', 'scan_ulid',  1, 'SELECT count(id) FROM t_ulid'),
    ('text_io', 'scan_uuid',  2, 'SELECT count(id) FROM t_uuid'),
    ('text_io', 'out_ulid',   3, 'SELECT count(id::text) FROM t_ulid'),
    ('text_io', 'out_uuid',   4, 'SELECT count(id::text) FROM t_uuid'),
    ('text_io', 'scan_tulid', 5, 'SELECT count(t) FROM tt_ulid'),
    ('text_io', 'scan_tuuid', 6, 'SELECT count(t) FROM tt_uuid'),
    ('text_io', 'in_ulid',    7, 'SELECT count(t::ulid) FROM tt_ulid'),
    ('text_io', 'in_uuid',    8, 'SELECT count(t::uuid) FROM tt_uuid');
CALL bench.run('text_io', :ROUNDS);
