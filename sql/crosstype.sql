-- ulid meets uuid (0.3.0): the six operators on (ulid, uuid) and (uuid, ulid), in ulid's b-tree,
-- hash and BRIN families, so that uuid values use ulid indexes, joins hash and merge without a cast
-- and a uuid column may reference a ulid key. Nothing that resolved before changes.
CREATE TABLE ct_values (name text, v ulid);
INSERT INTO ct_values VALUES
    ('zero',   '00000000000000000000000000'),
    ('low',    '01ARZ3NDEKTSV4RRFFQ69G5FAV'),
    ('low+1',  '01ARZ3NDEKTSV4RRFFQ69G5FAW'),
    ('later',  '01ARZ3NDEMTSV4RRFFQ69G5FAV'),
    ('max',    '7ZZZZZZZZZZZZZZZZZZZZZZZZZ');
-- Every pair, both ways round: each cross-type operator says what ulid's own says.
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE (a.v = b.v) IS DISTINCT FROM (a.v = b.v::uuid)
                           OR (a.v <> b.v) IS DISTINCT FROM (a.v <> b.v::uuid)
                           OR (a.v < b.v) IS DISTINCT FROM (a.v < b.v::uuid)
                           OR (a.v <= b.v) IS DISTINCT FROM (a.v <= b.v::uuid)
                           OR (a.v > b.v) IS DISTINCT FROM (a.v > b.v::uuid)
                           OR (a.v >= b.v) IS DISTINCT FROM (a.v >= b.v::uuid)
                           OR (a.v = b.v) IS DISTINCT FROM (a.v::uuid = b.v)
                           OR (a.v <> b.v) IS DISTINCT FROM (a.v::uuid <> b.v)
                           OR (a.v < b.v) IS DISTINCT FROM (a.v::uuid < b.v)
                           OR (a.v <= b.v) IS DISTINCT FROM (a.v::uuid <= b.v)
                           OR (a.v > b.v) IS DISTINCT FROM (a.v::uuid > b.v)
                           OR (a.v >= b.v) IS DISTINCT FROM (a.v::uuid >= b.v)
                           OR ulid_cmp(a.v, b.v) <> ulid_uuid_cmp(a.v, b.v::uuid)
                           OR ulid_cmp(a.v, b.v) <> uuid_ulid_cmp(a.v::uuid, b.v)
                           OR ulid_cmp(a.v, b.v) <> sign(uuid_cmp(a.v::uuid, b.v::uuid))) AS disagreements
FROM ct_values a, ct_values b;
-- 20,000 pseudo-random pairs sharing 0 to 15 leading bytes: the same answers, and uuid's own order.
SELECT count(*) FILTER (WHERE ulid_cmp(a, b) <> ulid_uuid_cmp(a, b::uuid)
                           OR sign(ulid_cmp(a, b)) <> sign(uuid_cmp(a::uuid, b::uuid))
                           OR (a < b) <> (a::uuid < b) OR (a = b) <> (a = b::uuid)) AS disagreements
FROM (SELECT md5(i::text)::uuid::ulid AS a,
             (substr(md5(i::text), 1, (i % 16) * 2) || substr(md5((-i)::text), (i % 16) * 2 + 1))::uuid::ulid AS b
      FROM generate_series(1, 20000) i) s;
-- NULL operands give NULL.
SELECT (NULL::ulid = gen_random_uuid()) IS NULL AS eq_null, (NULL::uuid < gen_ulid()) IS NULL AS lt_null;
-- Commutators, negators, estimators, merge and hash support, like ulid = ulid.
SELECT o.oprleft::regtype, o.oprname, o.oprright::regtype, o.oprcom::regoperator AS commutator,
       o.oprnegate::regoperator AS negator, o.oprrest, o.oprjoin, o.oprcanmerge, o.oprcanhash,
       p.proleakproof, p.provolatile
FROM pg_operator o JOIN pg_proc p ON p.oid = o.oprcode
WHERE (o.oprleft, o.oprright) IN (('ulid'::regtype, 'uuid'::regtype), ('uuid'::regtype, 'ulid'::regtype))
ORDER BY 1, 2;
-- The same bytes hash the same as ulid and as uuid, standard and extended (any seed).
SELECT count(*) AS values_seeds,
       count(*) FILTER (WHERE ulid_hash(v) <> uuid_hash(v::uuid)
                           OR ulid_hash_extended(v, seed) <> uuid_hash_extended(v::uuid, seed)) AS differ
FROM (SELECT md5(i::text)::uuid::ulid AS v, (i * 7919 - 50000)::int8 AS seed
      FROM generate_series(1, 10000) i UNION ALL SELECT v, 0 FROM ct_values) s;
-- Every operator class and family of the extension is valid (amvalidate), on every major.
SELECT a.amname, c.opcname, c.opcintype::regtype, f.opfname, amvalidate(c.oid)
FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod JOIN pg_opfamily f ON f.oid = c.opcfamily
JOIN pg_depend d ON d.classid = 'pg_opclass'::regclass AND d.objid = c.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid'
WHERE c.opcname NOT IN ('ulid_minmax_multi_ops', 'ulid_bloom_ops')
ORDER BY 1, 2;
SELECT count(*) FILTER (WHERE NOT amvalidate(c.oid)) AS invalid_version_dependent_classes
FROM pg_opclass c WHERE c.opcname IN ('ulid_minmax_multi_ops', 'ulid_bloom_ops');
DROP TABLE ct_values;

-- ---------------------------------------------------------------------------------------------
-- What resolves, and to what. Literals and unknown-typed parameters still pick ulid = ulid; no
-- expression is ambiguous; types that needed one common type still do not get one (no implicit cast).
CREATE TABLE ct_t (id ulid PRIMARY KEY, u uuid, note text);
INSERT INTO ct_t SELECT md5(i::text)::uuid::ulid, md5((-i)::text)::uuid, 'n' || i FROM generate_series(1, 2000) i;
ANALYZE ct_t;
-- regress.resolved(query): the operators the query was resolved to (as a view of it stores them),
-- or the error it gets.
CREATE FUNCTION regress.resolved(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    ops text;
BEGIN
    EXECUTE 'CREATE TEMP VIEW ct_resolved AS ' || query;
    SELECT string_agg(DISTINCT o::oid::regoperator::text, ' ') INTO ops
    FROM pg_rewrite r,
         regexp_matches(r.ev_action::text, ':opnos? \(?o?([0-9 ]+)', 'g') m,
         regexp_split_to_table(trim(m[1]), ' ') o
    WHERE r.ev_class = 'ct_resolved'::regclass;
    DROP VIEW ct_resolved;
    RETURN coalesce(ops, 'no operator');
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;
SELECT q, regress.resolved(q) FROM (VALUES
    ($$SELECT 1 FROM ct_t WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV'$$),
    ($$SELECT 1 FROM ct_t WHERE id = NULL$$),
    ($$SELECT 1 FROM ct_t WHERE id = '0186f2a4-8d77-7a4c-9a5c-1f0e2d3c4b5a'::uuid$$),
    ($$SELECT 1 FROM ct_t WHERE '0186f2a4-8d77-7a4c-9a5c-1f0e2d3c4b5a'::uuid = id$$),
    ($$SELECT 1 FROM ct_t WHERE id = u$$),
    ($$SELECT 1 FROM ct_t WHERE u = id$$),
    ($$SELECT 1 FROM ct_t WHERE u = '0186f2a4-8d77-7a4c-9a5c-1f0e2d3c4b5a'$$),
    ($$SELECT 1 FROM ct_t WHERE id IN ('01ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAW')$$),
    ($$SELECT 1 FROM ct_t WHERE id IN ('0186f2a4-8d77-7a4c-9a5c-1f0e2d3c4b5a'::uuid, '0186f2a4-8d77-7a4c-9a5c-1f0e2d3c4b5b'::uuid)$$),
    ($$SELECT 1 FROM ct_t WHERE id = ANY ('{01ARZ3NDEKTSV4RRFFQ69G5FAV}')$$),
    ($$SELECT 1 FROM ct_t WHERE id = ANY (ARRAY['0186f2a4-8d77-7a4c-9a5c-1f0e2d3c4b5a'::uuid])$$),
    ($$SELECT 1 FROM ct_t WHERE id IS DISTINCT FROM u$$),
    ($$SELECT 1 FROM ct_t WHERE NULLIF(id, u) IS NULL$$),
    ($$SELECT 1 FROM ct_t WHERE ROW(id, 1) = ROW(u, 1)$$),
    ($$SELECT 1 FROM ct_t WHERE ROW(id, 1) < ROW(u, 2)$$),
    ($$SELECT 1 FROM ct_t WHERE id = 'x'::text$$),
    ($$SELECT 1 FROM ct_t WHERE id = 'x'::varchar$$),
    ($$SELECT 1 FROM ct_t WHERE id = 1$$),
    ($$SELECT 1 FROM ct_t WHERE ARRAY[id] = ARRAY[u]$$),
    ($$SELECT 1 FROM ct_t WHERE COALESCE(id, u) IS NULL$$),
    ($$SELECT 1 FROM ct_t WHERE CASE WHEN true THEN id ELSE u END IS NULL$$),
    ($$SELECT id FROM ct_t UNION SELECT u FROM ct_t$$),
    ($$SELECT 1 FROM ct_t WHERE '01ARZ3NDEKTSV4RRFFQ69G5FAV' = u$$)
) v(q);
-- An unknown-typed parameter is a ulid, a uuid-typed one stays uuid.
SET enable_seqscan = off;
PREPARE ct_unknown AS SELECT note FROM ct_t WHERE id = $1;
PREPARE ct_uuid(uuid) AS SELECT note FROM ct_t WHERE id = $1;
SELECT name, parameter_types FROM pg_prepared_statements WHERE name LIKE 'ct_%' ORDER BY 1;

-- ---------------------------------------------------------------------------------------------
-- Through the index: a uuid parameter on the ulid key (generic plan, as drivers' prepared
-- statements get), = ANY of a uuid array, IN a uuid list, a range from a uuid.
SET plan_cache_mode = force_generic_plan;
PREPARE ct_range(uuid) AS SELECT count(*) FROM ct_t WHERE id >= $1;
PREPARE ct_any(uuid[]) AS SELECT note FROM ct_t WHERE id = ANY ($1);
EXPLAIN (COSTS OFF) EXECUTE ct_uuid('c4ca4238-a0b9-2382-0dcc-509a6f75849b');
EXECUTE ct_uuid('c4ca4238-a0b9-2382-0dcc-509a6f75849b');
EXPLAIN (COSTS OFF) EXECUTE ct_any('{c4ca4238-a0b9-2382-0dcc-509a6f75849b,c81e728d-9d4c-2f63-6f06-7f89cc14862c}');
EXECUTE ct_any('{c4ca4238-a0b9-2382-0dcc-509a6f75849b,c81e728d-9d4c-2f63-6f06-7f89cc14862c}');
EXPLAIN (COSTS OFF) EXECUTE ct_range('f0000000-0000-0000-0000-000000000000');
EXECUTE ct_range('f0000000-0000-0000-0000-000000000000');
SELECT count(*) AS same_as_ulid FROM ct_t WHERE id >= 'f0000000-0000-0000-0000-000000000000'::uuid::ulid;
RESET plan_cache_mode;
-- (IN a list of uuid values is an OR of ulid = uuid up to 17, an = ANY from 18: both through the index)
SELECT count(*) FILTER (WHERE p ~ 'Index Cond: .*id = ') > 0 AS through_the_index,
       count(*) FILTER (WHERE p ~ 'Seq Scan') = 0 AS no_seq_scan
FROM regress.plan($$SELECT note FROM ct_t
WHERE id IN ('c4ca4238-a0b9-2382-0dcc-509a6f75849b'::uuid, 'c81e728d-9d4c-2f63-6f06-7f89cc14862c'::uuid)$$) p;
DEALLOCATE ALL;
RESET enable_seqscan;

-- ---------------------------------------------------------------------------------------------
-- Joins between a ulid column and a uuid column, without casts: merge join on both indexes, hash
-- join, and the same row estimates as the same join on ulid = ulid.
CREATE TABLE ct_parent (id ulid PRIMARY KEY);
CREATE TABLE ct_child_u (id uuid PRIMARY KEY);
CREATE TABLE ct_child_l (id ulid PRIMARY KEY);
INSERT INTO ct_parent SELECT md5(i::text)::uuid FROM generate_series(1, 3000) i;
INSERT INTO ct_child_u SELECT md5(i::text)::uuid FROM generate_series(1000, 5000) i;
INSERT INTO ct_child_l SELECT id FROM ct_child_u;
CREATE INDEX ct_child_u_ulid_idx ON ct_child_u (id uuid_ulid_ops);
VACUUM ANALYZE ct_parent, ct_child_u, ct_child_l;
-- The uuid side is sorted: an index's order is known to the planner by the equality operator of
-- its type, and uuid = uuid belongs to core's family first, so even a uuid_ulid_ops index does not
-- give the order of ulid's family (the same bytes, but the planner cannot know; docs/sql-reference.md).
SET enable_hashjoin = off; SET enable_nestloop = off;
SELECT * FROM regress.plan('SELECT count(*) FROM ct_parent p JOIN ct_child_u c ON p.id = c.id');
SELECT count(*) FROM ct_parent p JOIN ct_child_u c ON p.id = c.id;
RESET enable_hashjoin; SET enable_mergejoin = off;
SELECT * FROM regress.plan('SELECT count(*) FROM ct_parent p JOIN ct_child_u c ON c.id = p.id');
SELECT count(*) FROM ct_parent p JOIN ct_child_u c ON c.id = p.id;
RESET enable_mergejoin; RESET enable_nestloop;
CREATE FUNCTION regress.plan_rows(query text) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
    RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::numeric;
END
$$;
SELECT regress.plan_rows('SELECT * FROM ct_parent p JOIN ct_child_u c ON p.id = c.id')
     = regress.plan_rows('SELECT * FROM ct_parent p JOIN ct_child_l c ON p.id = c.id') AS join_estimate_as_ulid,
       regress.plan_rows('SELECT * FROM ct_parent p WHERE p.id > (SELECT id FROM ct_child_u ORDER BY id LIMIT 1)')
     = regress.plan_rows('SELECT * FROM ct_parent p WHERE p.id > (SELECT id FROM ct_child_l ORDER BY id LIMIT 1)') AS range_estimate_as_ulid,
       regress.plan_rows('SELECT * FROM ct_parent p JOIN ct_child_u c ON p.id = c.id') AS estimated_rows;
-- uuid = uuid keeps core's plans although uuid's operators also sit in ulid's families: a merge
-- join of two uuid keys reads both uuid_ops indexes in order, with no sort between.
CREATE TABLE ct_uuid_a (id uuid PRIMARY KEY);
INSERT INTO ct_uuid_a SELECT id FROM ct_child_u;
ANALYZE ct_uuid_a;
SET enable_hashjoin = off; SET enable_nestloop = off;
SELECT * FROM regress.plan('SELECT count(*) FROM ct_uuid_a a JOIN ct_child_u b ON a.id = b.id');
RESET enable_hashjoin; RESET enable_nestloop;
SET enable_seqscan = off;
SELECT * FROM regress.plan('SELECT * FROM ct_uuid_a WHERE id = ''c4ca4238-a0b9-2382-0dcc-509a6f75849b''');
RESET enable_seqscan;
SELECT f.opfname AS family_used_for_uuid_eq
FROM pg_amop o JOIN pg_opfamily f ON f.oid = o.amopfamily JOIN pg_am a ON a.oid = f.opfmethod
WHERE o.amopopr = '=(uuid,uuid)'::regoperator AND a.amname = 'btree'
ORDER BY f.oid LIMIT 1;
DROP TABLE ct_uuid_a, ct_child_l;

-- ---------------------------------------------------------------------------------------------
-- Range partitions of a ulid key, queried with uuid values: pruned at plan time.
CREATE TABLE ct_part (id ulid NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE ct_part_a PARTITION OF ct_part FOR VALUES FROM ('00000000000000000000000000') TO ('40000000000000000000000000');
CREATE TABLE ct_part_b PARTITION OF ct_part FOR VALUES FROM ('40000000000000000000000000') TO (MAXVALUE);
INSERT INTO ct_part SELECT id FROM ct_parent;
SELECT * FROM regress.plan('SELECT * FROM ct_part WHERE id = ''c4ca4238-a0b9-2382-0dcc-509a6f75849b''::uuid');
SELECT * FROM regress.plan('SELECT * FROM ct_part WHERE id < ''10000000-0000-0000-0000-000000000000''::uuid');
SELECT count(*) FROM ct_part WHERE id < '80000000-0000-0000-0000-000000000000'::uuid;
DROP TABLE ct_part;

-- BRIN minmax on ulid answers uuid conditions (minmax-multi and bloom: brin_multi.sql).
CREATE TABLE ct_brin (id ulid);
INSERT INTO ct_brin SELECT ulid_min('2024-01-01'::timestamptz + i * interval '1 minute') FROM generate_series(1, 20000) i;
CREATE INDEX ct_brin_idx ON ct_brin USING brin (id) WITH (pages_per_range = 4);
SET enable_seqscan = off;
SELECT * FROM regress.plan('SELECT count(*) FROM ct_brin WHERE id >= ulid_min(''2024-01-10'')::uuid');
SELECT count(*) FROM ct_brin WHERE id >= ulid_min('2024-01-10')::uuid AND id < ulid_min('2024-01-11')::uuid;
RESET enable_seqscan;
DROP TABLE ct_brin;

-- ---------------------------------------------------------------------------------------------
-- A uuid column references a ulid key: inserts checked, updates, ON DELETE CASCADE, deferrable.
CREATE TABLE ct_orders (id ulid PRIMARY KEY, parent_id uuid NOT NULL REFERENCES ct_parent ON DELETE CASCADE);
CREATE INDEX ct_orders_parent ON ct_orders (parent_id uuid_ulid_ops);
INSERT INTO ct_orders SELECT gen_ulid(), id FROM ct_parent ORDER BY id LIMIT 100;
SELECT regress.error_of($$INSERT INTO ct_orders VALUES (gen_ulid(), '00000000-0000-0000-0000-000000000001')$$);
SELECT regress.error_of($$UPDATE ct_orders SET parent_id = '00000000-0000-0000-0000-000000000001' WHERE parent_id = (SELECT min(id) FROM ct_parent)$$);
UPDATE ct_orders SET parent_id = (SELECT max(id) FROM ct_parent) WHERE parent_id = (SELECT min(id) FROM ct_parent);
DELETE FROM ct_parent WHERE id = (SELECT max(id) FROM ct_parent);
SELECT count(*) AS orders_left FROM ct_orders;
ALTER TABLE ct_orders DROP CONSTRAINT ct_orders_parent_id_fkey,
    ADD FOREIGN KEY (parent_id) REFERENCES ct_parent DEFERRABLE INITIALLY DEFERRED;
BEGIN;
INSERT INTO ct_orders VALUES (gen_ulid(), '00000000-0000-0000-0000-000000000002');
INSERT INTO ct_parent VALUES ('00000000-0000-0000-0000-000000000002'::uuid);
COMMIT;
BEGIN;
INSERT INTO ct_orders VALUES (gen_ulid(), '00000000-0000-0000-0000-000000000003');
\set VERBOSITY terse
COMMIT;
\set VERBOSITY default
SELECT count(*) AS deferred_orders FROM ct_orders WHERE parent_id IN ('00000000-0000-0000-0000-000000000002'::uuid, '00000000-0000-0000-0000-000000000003'::uuid);
-- (That deleting a parent finds its children through a uuid_ulid_ops index, and not through core's
-- uuid_ops one, is shown by t/110_uuid_foreign_keys.pl with auto_explain.)
DROP TABLE ct_orders, ct_parent, ct_child_u, ct_t;
DROP FUNCTION regress.resolved(text), regress.plan_rows(text);
