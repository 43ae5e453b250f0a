-- Recipe (ulid 0.3.1+): repair an extension that an update refused with "extension ulid is not as
-- its scripts made it" (42710), for instance a database that took an update to 0.3.0 steered by the
-- extension's owner. Run it as a superuser in that database, in psql. One transaction: it prints
-- each statement it runs, and nothing stays changed unless the update at its end succeeds.
--   1. operators and support functions of the extension's operator families that a superuser does
--      not own leave the families;
--   2. members of the extension that a superuser does not own leave the extension (they stay in
--      the database as their owner's objects);
--   3. operators that a superuser does not own, in the extension's schema, on ulid and uuid: they
--      would take the place of the extension's own, so they are dropped (a view or an index that
--      uses one stops the drop, naming it);
--   4. ALTER EXTENSION ulid UPDATE makes what is missing.
\set ON_ERROR_STOP on
\set ECHO queries
BEGIN;
SELECT pg_catalog.format('ALTER OPERATOR FAMILY %I.%I USING %I DROP %s %s (%s, %s)',
           n.nspname, f.opfname, am.amname, x.kind, x.num, x.lefttype::pg_catalog.regtype,
           x.righttype::pg_catalog.regtype)
FROM (SELECT 'OPERATOR' AS kind, ao.amopfamily AS family, ao.amopstrategy AS num,
             ao.amoplefttype AS lefttype, ao.amoprighttype AS righttype, o.oprowner AS owner
      FROM pg_catalog.pg_amop ao JOIN pg_catalog.pg_operator o ON o.oid OPERATOR(pg_catalog.=) ao.amopopr
      UNION ALL
      SELECT 'FUNCTION', ap.amprocfamily, ap.amprocnum, ap.amproclefttype, ap.amprocrighttype, p.proowner
      FROM pg_catalog.pg_amproc ap JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) ap.amproc) x
JOIN pg_catalog.pg_opfamily f ON f.oid OPERATOR(pg_catalog.=) x.family
JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) f.opfnamespace
JOIN pg_catalog.pg_am am ON am.oid OPERATOR(pg_catalog.=) f.opfmethod
JOIN pg_catalog.pg_depend d ON d.objid OPERATOR(pg_catalog.=) f.oid
 AND d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_opfamily'::pg_catalog.regclass
 AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
 AND d.deptype OPERATOR(pg_catalog.=) 'e'
JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid AND e.extname OPERATOR(pg_catalog.=) 'ulid'
WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_roles r WHERE r.oid OPERATOR(pg_catalog.=) x.owner AND r.rolsuper)
\gexec
SELECT pg_catalog.format('ALTER EXTENSION ulid DROP %s %s', i.type, i.identity)
FROM pg_catalog.pg_extension e
JOIN pg_catalog.pg_depend d ON d.refobjid OPERATOR(pg_catalog.=) e.oid
 AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
 AND d.deptype OPERATOR(pg_catalog.=) 'e'
CROSS JOIN LATERAL pg_catalog.pg_identify_object(d.classid, d.objid, 0) i
CROSS JOIN LATERAL (SELECT p.proowner FROM pg_catalog.pg_proc p WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass AND p.oid OPERATOR(pg_catalog.=) d.objid
                    UNION ALL SELECT o.oprowner FROM pg_catalog.pg_operator o WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass AND o.oid OPERATOR(pg_catalog.=) d.objid
                    UNION ALL SELECT t.typowner FROM pg_catalog.pg_type t WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass AND t.oid OPERATOR(pg_catalog.=) d.objid
                    UNION ALL SELECT c.opcowner FROM pg_catalog.pg_opclass c WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_opclass'::pg_catalog.regclass AND c.oid OPERATOR(pg_catalog.=) d.objid
                    UNION ALL SELECT f.opfowner FROM pg_catalog.pg_opfamily f WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_opfamily'::pg_catalog.regclass AND f.oid OPERATOR(pg_catalog.=) d.objid) own(owner)
WHERE e.extname OPERATOR(pg_catalog.=) 'ulid'
  AND NOT EXISTS (SELECT FROM pg_catalog.pg_roles r WHERE r.oid OPERATOR(pg_catalog.=) own.owner AND r.rolsuper)
\gexec
SELECT pg_catalog.format('DROP OPERATOR %s', o.oid::pg_catalog.regoperator)
FROM pg_catalog.pg_operator o
JOIN pg_catalog.pg_extension e ON e.extnamespace OPERATOR(pg_catalog.=) o.oprnamespace AND e.extname OPERATOR(pg_catalog.=) 'ulid'
JOIN pg_catalog.pg_type l ON l.oid OPERATOR(pg_catalog.=) o.oprleft
JOIN pg_catalog.pg_type r ON r.oid OPERATOR(pg_catalog.=) o.oprright
WHERE ARRAY[l.typname, r.typname]::pg_catalog.text[] OPERATOR(pg_catalog.<@) ARRAY['ulid', 'uuid']::pg_catalog.text[]
  AND NOT EXISTS (SELECT FROM pg_catalog.pg_roles x WHERE x.oid OPERATOR(pg_catalog.=) o.oprowner AND x.rolsuper)
\gexec
ALTER EXTENSION ulid UPDATE;
COMMIT;
