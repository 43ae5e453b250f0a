-- Packaging: every object has a comment, the extension is trusted and relocatable, and it can be
-- dropped cleanly.
-- (Debian's package build runs these tests with the extension's files in extension_destdir, a
-- setting of Debian's servers that pg_available_extensions does not read: there, and only there,
-- the view has no row for ulid.)
SELECT e.extname,
       coalesce(e.extversion = a.default_version,
                pg_catalog.current_setting('extension_destdir', true) <> '') AS default_version,
       e.extrelocatable
FROM pg_extension e LEFT JOIN pg_available_extensions a ON a.name = e.extname WHERE e.extname = 'ulid';
-- Every member object carries a COMMENT.
SELECT pg_describe_object(d.classid, d.objid, d.objsubid) AS uncommented
FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid'
WHERE d.deptype = 'e'
  AND obj_description(d.objid, d.classid::regclass::name) IS NULL
  AND NOT (d.classid = 'pg_type'::regclass AND d.objid = 'ulid[]'::regtype)
ORDER BY 1;
SELECT count(*) > 50 AS many_members
FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid' WHERE d.deptype = 'e';
-- Type shape: like uuid.
SELECT typlen, typbyval, typalign, typstorage FROM pg_type WHERE oid = 'ulid'::regtype;
SELECT typlen, typbyval, typalign, typstorage FROM pg_type WHERE oid = 'uuid'::regtype;
-- Operator classes (those of every major; the version-dependent ones are checked below).
SELECT am.amname, c.opcname, c.opcdefault
FROM pg_opclass c JOIN pg_am am ON am.oid = c.opcmethod
WHERE c.opcintype = 'ulid'::regtype AND c.opcname NOT IN ('ulid_minmax_multi_ops', 'ulid_bloom_ops')
ORDER BY 1, 2;
SELECT am.amname, p.amprocnum, p.amproc::regproc
FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily JOIN pg_am am ON am.oid = f.opfmethod
WHERE p.amproclefttype = 'ulid'::regtype AND am.amname IN ('btree', 'hash')
  AND p.amproc::regproc::text <> 'ulid_skipsupport'
ORDER BY 1, 2;
-- What exists only where the server supports it is there exactly then: BRIN minmax-multi and
-- bloom from PostgreSQL 14, b-tree skip support (support function 6) from 18.
SELECT what, present = (current_setting('server_version_num')::int >= since) AS as_designed
FROM (VALUES
    ('brin ulid_minmax_multi_ops', 140000,
     EXISTS (SELECT FROM pg_opclass WHERE opcname = 'ulid_minmax_multi_ops' AND opcintype = 'ulid'::regtype)),
    ('brin ulid_bloom_ops', 140000,
     EXISTS (SELECT FROM pg_opclass WHERE opcname = 'ulid_bloom_ops' AND opcintype = 'ulid'::regtype)),
    ('btree skip support', 180000,
     EXISTS (SELECT FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily
             WHERE f.opfname = 'ulid_ops' AND p.amprocnum = 6 AND p.amproc::regproc::text = 'ulid_skipsupport'))
) v(what, since, present)
ORDER BY 1;
-- Trusted: a role with CREATE on a database (not a superuser) installs it; one without may not.
CREATE ROLE regress_ulid_owner NOSUPERUSER;
CREATE ROLE regress_ulid_nobody NOSUPERUSER;
CREATE SCHEMA ulid_trusted AUTHORIZATION regress_ulid_owner;
SELECT current_database() AS db \gset
GRANT CREATE ON DATABASE :"db" TO regress_ulid_owner;
DROP EXTENSION ulid CASCADE;
SET ROLE regress_ulid_nobody;
CREATE EXTENSION ulid SCHEMA ulid_trusted;
RESET ROLE;
-- ... and only into a schema where the role itself may create objects: not pg_catalog, not a
-- schema of another owner without a grant (public is such a schema from PostgreSQL 15 on; up to 14
-- everybody may create in it by default, so a schema of our own stands for it here). The CONTEXT
-- line is not shown: its wording differs between majors (18 names the script and its line).
CREATE SCHEMA ulid_locked;
SET ROLE regress_ulid_owner;
\set SHOW_CONTEXT never
CREATE EXTENSION ulid SCHEMA pg_catalog;
CREATE EXTENSION ulid SCHEMA ulid_locked;
\set SHOW_CONTEXT errors
SELECT count(*) AS installed FROM pg_extension WHERE extname = 'ulid';
CREATE EXTENSION ulid SCHEMA ulid_trusted;
SELECT extowner::regrole, extnamespace::regnamespace FROM pg_extension WHERE extname = 'ulid';
SELECT ulid_trusted.ulid_to_timestamp('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid_trusted.ulid) IS NOT NULL AS works;
RESET ROLE;
-- Another role cannot drop it.
SET ROLE regress_ulid_nobody;
DROP EXTENSION ulid;
RESET ROLE;
-- Relocatable: ALTER EXTENSION ... SET SCHEMA moves every object; the type keeps working.
CREATE SCHEMA ulid_moved;
ALTER EXTENSION ulid SET SCHEMA ulid_moved;
SET search_path = ulid_moved, public;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid < '01ARZ3NDEKTSV4RRFFQ69G5FAW'::ulid AS works_after_move;
CREATE TABLE ext_t (id ulid PRIMARY KEY DEFAULT gen_ulid());
INSERT INTO ext_t DEFAULT VALUES;
SELECT count(*) FROM ext_t WHERE id <= ulid_max(now());
DROP TABLE ext_t;
RESET search_path;
-- Dropping removes everything; the extension comes back in public for whatever runs next.
DROP EXTENSION ulid;
SELECT count(*) AS leftovers FROM pg_type WHERE typname = 'ulid';
DROP SCHEMA ulid_trusted, ulid_moved, ulid_locked;
REVOKE CREATE ON DATABASE :"db" FROM regress_ulid_owner;
DROP ROLE regress_ulid_owner, regress_ulid_nobody;
CREATE EXTENSION ulid;
-- The planner's rewrite of `id >= t` reads ulid's operators and bound functions once per session
-- and forgets them when the catalogs change: made again in this session (new objects in the same
-- schema), the extension's queries by time plan and run with its new objects.
CREATE TABLE ext_tr (id ulid PRIMARY KEY);
INSERT INTO ext_tr SELECT gen_ulid(now() - (n + 0.5) * interval '1 hour') FROM generate_series(0, 47) n;
SELECT count(*) AS last_day FROM ext_tr WHERE id >= now() - interval '1 day';
DROP TABLE ext_tr;
DROP EXTENSION ulid;
CREATE EXTENSION ulid;
CREATE TABLE ext_tr (id ulid PRIMARY KEY);
INSERT INTO ext_tr SELECT gen_ulid(now() - (n + 0.5) * interval '1 hour') FROM generate_series(0, 47) n;
SELECT count(*) AS last_day FROM ext_tr WHERE id >= now() - interval '1 day';
PREPARE ext_tr_since(timestamptz) AS SELECT count(*) FROM ext_tr WHERE id >= $1;
SET plan_cache_mode = force_generic_plan;
EXECUTE ext_tr_since(now() - interval '1 day');
RESET plan_cache_mode;
DEALLOCATE ext_tr_since;
DROP TABLE ext_tr;
-- The same with the type kept: without a default b-tree operator class for ulid (dropped in a
-- transaction that is rolled back) there is nothing to rewrite into, and the comparison stays as
-- written; with it back, the rewrite is back.
CREATE TABLE ext_tr (id ulid);
EXPLAIN (COSTS OFF) SELECT * FROM ext_tr WHERE id >= now() - interval '1 day';
BEGIN;
ALTER EXTENSION ulid DROP OPERATOR CLASS ulid_ops USING btree;
DROP OPERATOR CLASS ulid_ops USING btree;
EXPLAIN (COSTS OFF) SELECT * FROM ext_tr WHERE id >= now() - interval '1 day';
ROLLBACK;
EXPLAIN (COSTS OFF) SELECT * FROM ext_tr WHERE id >= now() - interval '1 day';
-- and without its bound function, whose name the rewrite of a non-constant time needs
BEGIN;
ALTER EXTENSION ulid DROP FUNCTION ulid_time_lower(timestamptz, text);
DROP FUNCTION ulid_time_lower(timestamptz, text);
EXPLAIN (COSTS OFF) SELECT * FROM ext_tr WHERE id >= now() - interval '1 day';
ROLLBACK;
DROP TABLE ext_tr;
