-- test/lib/ulid_describe.sql: the catalog description of the installed ulid extension, one sorted
-- line per fact, independent of OIDs (t/230_upgrade_paths.pl, t/210_pg_upgrade.pl compare two of them).
-- search_path is pg_catalog only, so every ulid object prints schema-qualified.
SET search_path = pg_catalog;
-- (typsubscript through to_jsonb: the column exists from PostgreSQL 14 on; '-' before)
WITH ext AS (SELECT * FROM pg_extension WHERE extname = 'ulid'),
mem AS (
    SELECT d.classid, d.objid, d.objsubid FROM pg_depend d, ext
    WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid AND d.deptype = 'e'
),
fams AS (SELECT objid AS oid FROM mem WHERE classid = 'pg_opfamily'::regclass
         UNION SELECT c.opcfamily FROM pg_opclass c JOIN mem ON mem.classid = 'pg_opclass'::regclass
                                                             AND mem.objid = c.oid)
SELECT line FROM (
    SELECT 'extension relocatable=' || extrelocatable || ' version=' || extversion
           || ' schema_is_' || CASE WHEN extnamespace = 'public'::regnamespace THEN 'public' ELSE 'other' END
           || ' config=' || coalesce(extconfig::text, '-') AS line FROM ext
    UNION ALL
    SELECT 'member ' || pg_describe_object(classid, objid, objsubid)
           || coalesce(' -- ' || obj_description(objid, classid::regclass::name), ' -- (no comment)')
    FROM mem
    UNION ALL
    SELECT format('function %s returns %s language=%s symbol=%s/%s kind=%s volatile=%s strict=%s '
                  'parallel=%s leakproof=%s secdef=%s cost=%s rows=%s support=%s config=%s owner=%s acl=%s',
                  p.oid::regprocedure, pg_get_function_result(p.oid), l.lanname, p.prosrc,
                  coalesce(p.probin, '-'), p.prokind, p.provolatile, p.proisstrict, p.proparallel,
                  p.proleakproof, p.prosecdef, p.procost, p.prorows, p.prosupport::regproc,
                  coalesce(p.proconfig::text, '-'), pg_get_userbyid(p.proowner),
                  coalesce(p.proacl::text, '-'))
    FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
    JOIN mem ON mem.classid = 'pg_proc'::regclass AND mem.objid = p.oid
    UNION ALL
    SELECT format('type %s len=%s byval=%s align=%s storage=%s category=%s preferred=%s in=%s out=%s '
                  'recv=%s send=%s analyze=%s subscript=%s elem=%s array=%s default=%s collation=%s owner=%s',
                  t.oid::regtype, t.typlen, t.typbyval, t.typalign, t.typstorage, t.typcategory,
                  t.typispreferred, t.typinput, t.typoutput, t.typreceive, t.typsend, t.typanalyze,
                  coalesce(to_jsonb(t) ->> 'typsubscript', '-'), t.typelem::regtype, t.typarray::regtype, coalesce(t.typdefault, '-'),
                  t.typcollation, pg_get_userbyid(t.typowner))
    FROM pg_type t JOIN mem ON mem.classid = 'pg_type'::regclass AND mem.objid = t.oid
    UNION ALL
    SELECT format('operator %s result=%s code=%s restrict=%s join=%s commutator=%s negator=%s merges=%s hashes=%s',
                  o.oid::regoperator, o.oprresult::regtype, o.oprcode::regprocedure,
                  o.oprrest::regprocedure, o.oprjoin::regprocedure, o.oprcom::regoperator,
                  o.oprnegate::regoperator, o.oprcanmerge, o.oprcanhash)
    FROM pg_operator o JOIN mem ON mem.classid = 'pg_operator'::regclass AND mem.objid = o.oid
    UNION ALL
    SELECT format('opclass %s using %s family=%s default=%s keytype=%s', c.opcname, am.amname,
                  f.opfname, c.opcdefault, c.opckeytype::regtype)
    FROM pg_opclass c JOIN pg_am am ON am.oid = c.opcmethod JOIN pg_opfamily f ON f.oid = c.opcfamily
    JOIN mem ON mem.classid = 'pg_opclass'::regclass AND mem.objid = c.oid
    UNION ALL
    SELECT format('amop %s using %s strategy=%s (%s,%s) %s purpose=%s sortfamily=%s', f.opfname,
                  am.amname, a.amopstrategy, a.amoplefttype::regtype, a.amoprighttype::regtype,
                  a.amopopr::regoperator, a.amoppurpose, a.amopsortfamily)
    FROM pg_amop a JOIN pg_opfamily f ON f.oid = a.amopfamily JOIN pg_am am ON am.oid = f.opfmethod
    WHERE a.amopfamily IN (SELECT oid FROM fams)
    UNION ALL
    SELECT format('amproc %s using %s proc=%s (%s,%s) %s', f.opfname, am.amname, a.amprocnum,
                  a.amproclefttype::regtype, a.amprocrighttype::regtype, a.amproc::regprocedure)
    FROM pg_amproc a JOIN pg_opfamily f ON f.oid = a.amprocfamily JOIN pg_am am ON am.oid = f.opfmethod
    WHERE a.amprocfamily IN (SELECT oid FROM fams)
    UNION ALL
    SELECT format('cast (%s AS %s) func=%s context=%s method=%s', c.castsource::regtype,
                  c.casttarget::regtype, c.castfunc::regprocedure, c.castcontext, c.castmethod)
    FROM pg_cast c JOIN mem ON mem.classid = 'pg_cast'::regclass AND mem.objid = c.oid
    UNION ALL
    SELECT format('aggregate %s kind=%s trans=%s final=%s combine=%s serial=%s deserial=%s sortop=%s '
                  'stype=%s init=%s finalmodify=%s parallel=%s', a.aggfnoid::regprocedure, a.aggkind,
                  a.aggtransfn::regprocedure, a.aggfinalfn::regprocedure, a.aggcombinefn::regprocedure,
                  a.aggserialfn, a.aggdeserialfn, a.aggsortop::regoperator, a.aggtranstype::regtype,
                  coalesce(a.agginitval, '-'), a.aggfinalmodify, p.proparallel)
    FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
    JOIN mem ON mem.classid = 'pg_proc'::regclass AND mem.objid = a.aggfnoid
) facts ORDER BY line COLLATE "C";
