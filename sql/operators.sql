-- Comparison operators: the full truth table, NULLs, and the catalog facts the planner relies on.
CREATE TABLE op_values (name text, v ulid);
INSERT INTO op_values VALUES
    ('zero',   '00000000000000000000000000'),
    ('low',    '01ARZ3NDEKTSV4RRFFQ69G5FAV'),
    ('low+1',  '01ARZ3NDEKTSV4RRFFQ69G5FAW'),
    ('later',  '01ARZ3NDEMTSV4RRFFQ69G5FAV'),
    ('max',    '7ZZZZZZZZZZZZZZZZZZZZZZZZZ');
SELECT a.name AS a, b.name AS b,
       a.v = b.v AS eq, a.v <> b.v AS ne, a.v < b.v AS lt,
       a.v <= b.v AS le, a.v > b.v AS gt, a.v >= b.v AS ge, ulid_cmp(a.v, b.v) AS cmp
FROM op_values a, op_values b
ORDER BY a.v, b.v;
-- Byte order is text order.
SELECT count(*) AS text_order_matches FROM op_values a, op_values b
WHERE (a.v < b.v) = (a.v::text < b.v::text COLLATE "C");
-- NULL operands give NULL.
SELECT (NULL::ulid = v) IS NULL AS eq_null, (v < NULL::ulid) IS NULL AS lt_null,
       ulid_cmp(NULL, v) IS NULL AS cmp_null
FROM op_values WHERE name = 'low';
DROP TABLE op_values;
-- Commutators, negators, estimators, merge and hash support.
SELECT o.oprname, o.oprcom::regoperator AS commutator, o.oprnegate::regoperator AS negator,
       o.oprrest, o.oprjoin, o.oprcanmerge, o.oprcanhash, p.proleakproof, p.provolatile
FROM pg_operator o JOIN pg_proc p ON p.oid = o.oprcode
WHERE o.oprleft = 'ulid'::regtype AND o.oprright = 'ulid'::regtype
ORDER BY o.oprname;
-- The planner folds a negated comparison through NEGATOR.
CREATE TABLE op_plan (id ulid);
EXPLAIN (COSTS OFF) SELECT * FROM op_plan WHERE NOT (id < '01ARZ3NDEKTSV4RRFFQ69G5FAV');
DROP TABLE op_plan;
