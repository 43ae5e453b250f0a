-- Binary I/O: ulid_send/ulid_recv through COPY BINARY round trips, and wrong lengths are rejected.
SELECT ulid_send('01ARZ3NDEKTSV4RRFFQ69G5FAV');
SELECT ulid_send('01ARZ3NDEKTSV4RRFFQ69G5FAV') = '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid::text::uuid::ulid::bytea
    AS send_is_raw_bytes;
CREATE TABLE cb_src (n int, id ulid, ids ulid[]);
INSERT INTO cb_src SELECT n, gen_random_ulid(), ARRAY[gen_random_ulid(), NULL, gen_random_ulid()]
FROM generate_series(1, 5000) n;
INSERT INTO cb_src VALUES (0, '00000000000000000000000000', '{}'), (-1, '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', NULL),
                          (-2, NULL, ARRAY['01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid]);
-- The server writes and reads the file (superuser COPY), so it must be on the server's machine.
\set copy_file '/tmp/ulid_regress_copy_binary.bin'
COPY cb_src TO :'copy_file' WITH (FORMAT binary);
CREATE TABLE cb_dst (LIKE cb_src);
COPY cb_dst FROM :'copy_file' WITH (FORMAT binary);
SELECT count(*) AS rows_back, count(*) FILTER (WHERE s.id IS NOT DISTINCT FROM d.id AND s.ids IS NOT DISTINCT FROM d.ids) AS identical
FROM cb_src s JOIN cb_dst d USING (n);
-- Binary ulid reads as binary uuid and back: the same 16 bytes on the wire.
CREATE TABLE cb_uuid (n int, id uuid);
COPY (SELECT n, id FROM cb_src) TO :'copy_file' WITH (FORMAT binary);
COPY cb_uuid FROM :'copy_file' WITH (FORMAT binary);
SELECT count(*) FILTER (WHERE s.id::uuid IS NOT DISTINCT FROM u.id) AS same_as_uuid
FROM cb_src s JOIN cb_uuid u USING (n);
-- A binary ulid[] names its element type. PostgreSQL 14 and later read it into a uuid[] column
-- (array_recv complains about another element type only when both are built in); 13 refuses it
-- with 42804 "wrong element type" and loads nothing (load into ulid[], then cast).
CREATE TABLE cb_uuid_arr (n int, ids uuid[]);
COPY (SELECT n, ids FROM cb_src) TO :'copy_file' WITH (FORMAT binary);
SELECT regress.error_of(format('COPY cb_uuid_arr FROM %L WITH (FORMAT binary)', :'copy_file'))
       = CASE WHEN current_setting('server_version_num')::int >= 140000 THEN 'ok'
              ELSE '42804: wrong element type' END AS as_designed;
SELECT count(*) FILTER (WHERE s.ids::uuid[] IS NOT DISTINCT FROM u.ids)
       = CASE WHEN current_setting('server_version_num')::int >= 140000 THEN 5003 ELSE 0 END AS arrays_as_designed,
       count(*) = 0 OR count(*) = 5003 AS all_or_nothing
FROM cb_src s JOIN cb_uuid_arr u USING (n);
-- A field of the wrong length is an error (22P03), and nothing is loaded.
CREATE TABLE cb_bytes (b bytea);
INSERT INTO cb_bytes VALUES ('\x0102030405060708090a0b0c0d0e0f');
COPY cb_bytes TO :'copy_file' WITH (FORMAT binary);
CREATE TABLE cb_bad (id ulid);
\set VERBOSITY sqlstate
COPY cb_bad FROM :'copy_file' WITH (FORMAT binary);
\set VERBOSITY default
COPY cb_bad FROM :'copy_file' WITH (FORMAT binary);
TRUNCATE cb_bytes;
INSERT INTO cb_bytes VALUES ('\x0102030405060708090a0b0c0d0e0f1011');
COPY cb_bytes TO :'copy_file' WITH (FORMAT binary);
COPY cb_bad FROM :'copy_file' WITH (FORMAT binary);
SELECT count(*) AS loaded FROM cb_bad;
\! rm -f /tmp/ulid_regress_copy_binary.bin
DROP TABLE cb_src, cb_dst, cb_uuid, cb_uuid_arr, cb_bytes, cb_bad;
