-- Hash: hash indexes, hash joins, hash aggregation and PARTITION BY HASH.
-- The hashes equal uuid's for the same bytes.
SELECT count(*) AS same_hash FROM (SELECT gen_random_ulid() AS u FROM generate_series(1, 1000)) x
WHERE ulid_hash(u) = uuid_hash(u::uuid)
  AND ulid_hash_extended(u, 0) = uuid_hash_extended(u::uuid, 0)
  AND ulid_hash_extended(u, 42) = uuid_hash_extended(u::uuid, 42);
SELECT ulid_hash('01ARZ3NDEKTSV4RRFFQ69G5FAV'), ulid_hash_extended('01ARZ3NDEKTSV4RRFFQ69G5FAV', 0),
       ulid_hash_extended('01ARZ3NDEKTSV4RRFFQ69G5FAV', 1);
CREATE TABLE h (n int, id ulid);
INSERT INTO h SELECT n, ('\x0000000000000000000000000000' || lpad(to_hex(n), 4, '0'))::bytea::ulid
FROM generate_series(1, 5000) n;
CREATE INDEX h_id ON h USING hash (id);
ANALYZE h;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM h WHERE id = '000000000000000000000004D2';
SELECT n FROM h WHERE id = '000000000000000000000004D2';
SELECT count(*) FROM h WHERE id = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ';
RESET enable_seqscan;
RESET enable_bitmapscan;
-- Hash join.
SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM h a JOIN h b ON a.id = b.id;
SELECT count(*) FROM h a JOIN h b ON a.id = b.id;
RESET enable_mergejoin;
RESET enable_nestloop;
-- Hash aggregation.
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT id, count(*) FROM h GROUP BY id;
SELECT count(*) AS groups FROM (SELECT id, count(*) FROM h GROUP BY id) g;
SELECT count(DISTINCT id) FROM h;
RESET enable_sort;
-- PARTITION BY HASH: rows route by the extended hash, equality prunes to one partition.
CREATE TABLE hp (id ulid PRIMARY KEY, n int) PARTITION BY HASH (id);
CREATE TABLE hp0 PARTITION OF hp FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE hp1 PARTITION OF hp FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE hp2 PARTITION OF hp FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE hp3 PARTITION OF hp FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO hp SELECT id, n FROM h;
SELECT tableoid::regclass AS partition, count(*) > 1000 AS balanced FROM hp GROUP BY 1 ORDER BY 1;
SELECT count(*) FROM hp;
EXPLAIN (COSTS OFF) SELECT n FROM hp WHERE id = '000000000000000000000004D2';
SELECT n FROM hp WHERE id = '000000000000000000000004D2';
-- Each row sits in the partition its hash names.
SELECT count(*) AS misplaced FROM hp
WHERE NOT satisfies_hash_partition('hp'::regclass, 4,
    (regexp_match(tableoid::regclass::text, '\d+$'))[1]::int, id);
-- Routing is the same as a uuid-keyed table of the same bytes.
CREATE TABLE hpu (id uuid, n int) PARTITION BY HASH (id);
CREATE TABLE hpu0 PARTITION OF hpu FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE hpu1 PARTITION OF hpu FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE hpu2 PARTITION OF hpu FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE hpu3 PARTITION OF hpu FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO hpu SELECT id::uuid, n FROM h;
SELECT count(*) AS same_partition FROM hp JOIN hpu USING (n)
WHERE right(hp.tableoid::regclass::text, 1) = right(hpu.tableoid::regclass::text, 1);
DROP TABLE h, hp, hpu;
