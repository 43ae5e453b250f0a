-- portable/tle/adopt.sql: the start of the current version's install script in pg_tle. Where
-- the loose file (portable/ulid_portable.sql) installed the functions before, CREATE EXTENSION
-- ulid_portable takes them over instead of failing on the existing schema, so that tables whose
-- defaults call them are neither rewritten nor touched. Only when all of this holds:
--   - the schema ulid_portable is owned by the role running CREATE EXTENSION (being a superuser
--     or a member of the owner's role is not enough), and so is every object in it;
--   - neither the schema nor anything in it belongs to an extension;
--   - it holds functions only (a table or a type would become the extension's, and be dropped
--     with it).
-- Each function then joins the extension, the rest of the script rewrites it with CREATE OR
-- REPLACE, and portable/tle/adopted.sql (the end of the script) checks that the rewrite changed no
-- definition, made no function the loose installation lacked and left none it did not make: the
-- exact signatures and bodies of this version. Anything else fails the whole CREATE EXTENSION,
-- which then leaves everything as it was.

DO $adopt$
DECLARE
    me pg_catalog.oid := (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER);
    nsp pg_catalog.oid;
    nsp_owner pg_catalog.oid;
    old_path pg_catalog.text := pg_catalog.current_setting('search_path');
    listed pg_catalog.text;
    sig pg_catalog.text;
BEGIN
    SELECT n.oid, n.nspowner INTO nsp, nsp_owner
    FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) 'ulid_portable';
    IF nsp IS NULL THEN
        RETURN; -- a new installation
    END IF;
    IF (nsp_owner OPERATOR(pg_catalog.=) me) IS NOT TRUE THEN
        RAISE EXCEPTION USING ERRCODE = '42501',
            MESSAGE = 'schema ulid_portable exists and is not owned by the role creating the extension',
            DETAIL = pg_catalog.format('It is owned by %s; the role is %s.', nsp_owner::pg_catalog.regrole, CURRENT_USER),
            HINT = 'Only the owner of a loose installation can turn it into the extension.';
    END IF;

    SELECT pg_catalog.string_agg(x.what, ', ' ORDER BY x.what) INTO listed
    FROM (SELECT pg_catalog.pg_describe_object(d.classid, d.objid, 0) OPERATOR(pg_catalog.||)
                 ' (extension ' OPERATOR(pg_catalog.||) e.extname::pg_catalog.text OPERATOR(pg_catalog.||) ')'
          FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
          WHERE d.deptype OPERATOR(pg_catalog.=) 'e'
            AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
            AND ((d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::pg_catalog.regclass AND d.objid OPERATOR(pg_catalog.=) nsp)
                 OR (d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
                     AND d.objid OPERATOR(pg_catalog.=) ANY (ARRAY(SELECT p.oid FROM pg_catalog.pg_proc p WHERE p.pronamespace OPERATOR(pg_catalog.=) nsp))))
         ) AS x(what);
    IF listed IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = '55000',
            MESSAGE = 'schema ulid_portable belongs to an extension already', DETAIL = listed;
    END IF;

    SELECT pg_catalog.string_agg(x.what, ', ' ORDER BY x.what) INTO listed
    FROM (SELECT pg_catalog.pg_describe_object(o.classid, o.objid, 0)
          FROM (SELECT 'pg_catalog.pg_class'::pg_catalog.regclass, c.oid, c.relnamespace FROM pg_catalog.pg_class c
                UNION ALL SELECT 'pg_catalog.pg_type'::pg_catalog.regclass, t.oid, t.typnamespace FROM pg_catalog.pg_type t
                UNION ALL SELECT 'pg_catalog.pg_operator'::pg_catalog.regclass, o.oid, o.oprnamespace FROM pg_catalog.pg_operator o
                UNION ALL SELECT 'pg_catalog.pg_opclass'::pg_catalog.regclass, c.oid, c.opcnamespace FROM pg_catalog.pg_opclass c
                UNION ALL SELECT 'pg_catalog.pg_opfamily'::pg_catalog.regclass, f.oid, f.opfnamespace FROM pg_catalog.pg_opfamily f
                UNION ALL SELECT 'pg_catalog.pg_collation'::pg_catalog.regclass, c.oid, c.collnamespace FROM pg_catalog.pg_collation c
                UNION ALL SELECT 'pg_catalog.pg_conversion'::pg_catalog.regclass, c.oid, c.connamespace FROM pg_catalog.pg_conversion c
                UNION ALL SELECT 'pg_catalog.pg_ts_config'::pg_catalog.regclass, c.oid, c.cfgnamespace FROM pg_catalog.pg_ts_config c
                UNION ALL SELECT 'pg_catalog.pg_ts_dict'::pg_catalog.regclass, d.oid, d.dictnamespace FROM pg_catalog.pg_ts_dict d
                UNION ALL SELECT 'pg_catalog.pg_statistic_ext'::pg_catalog.regclass, e.oid, e.stxnamespace FROM pg_catalog.pg_statistic_ext e
               ) AS o(classid, objid, in_schema)
          WHERE o.in_schema OPERATOR(pg_catalog.=) nsp) AS x(what);
    IF listed IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = '55000',
            MESSAGE = 'schema ulid_portable holds objects that are not functions of the portable edition',
            DETAIL = listed,
            HINT = 'Move them to another schema first: they would belong to the extension, and be dropped with it.';
    END IF;

    SELECT pg_catalog.string_agg(p.oid::pg_catalog.regprocedure::pg_catalog.text OPERATOR(pg_catalog.||)
                                 ' (owner ' OPERATOR(pg_catalog.||) p.proowner::pg_catalog.regrole::pg_catalog.text
                                 OPERATOR(pg_catalog.||) ')', ', ') INTO listed
    FROM pg_catalog.pg_proc p
    WHERE p.pronamespace OPERATOR(pg_catalog.=) nsp AND p.proowner OPERATOR(pg_catalog.<>) me;
    IF listed IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = '42501',
            MESSAGE = 'schema ulid_portable holds functions that the role creating the extension does not own',
            DETAIL = listed;
    END IF;

    -- What each function is now, for adopted.sql to compare with what this version makes.
    PERFORM pg_catalog.set_config('ulid_portable.adopting',
        COALESCE((SELECT pg_catalog.json_object_agg(p.oid, pg_catalog.md5(pg_catalog.pg_get_functiondef(p.oid)))::pg_catalog.text
                  FROM pg_catalog.pg_proc p WHERE p.pronamespace OPERATOR(pg_catalog.=) nsp), '{}'), true);

    -- The signatures are written out and read back: with pg_catalog alone on the path, a type
    -- name in them can only be pg_catalog's.
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog', true);
    EXECUTE 'ALTER EXTENSION ulid_portable ADD SCHEMA ulid_portable';
    FOR sig IN SELECT p.oid::pg_catalog.regprocedure::pg_catalog.text FROM pg_catalog.pg_proc p
               WHERE p.pronamespace OPERATOR(pg_catalog.=) nsp LOOP
        EXECUTE pg_catalog.format('ALTER EXTENSION ulid_portable ADD FUNCTION %s', sig);
    END LOOP;
    PERFORM pg_catalog.set_config('search_path', old_path, true);
END
$adopt$;

