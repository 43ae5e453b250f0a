-- Every update into 0.3.1, after the bodies of 0.2.1 and 0.3.0 (the Makefile puts them first), and
-- the install script of 0.3.1: no new object, a check that fails closed. The bodies before this one
-- find what the extension already has by name among its members (so that they are idempotent and
-- serve the refresh round trip). The extension's owner may be an ordinary role that can add its own
-- objects to the extension (ALTER EXTENSION ADD) and create operators in its schema: a member named
-- like one of ours, or operators of our signatures, could make those bodies skip our objects or
-- put the owner's operators into our operator families, with the bootstrap superuser's rights. So,
-- after the bodies ran and before the update commits, every one of these must hold, or the whole
-- update (or CREATE EXTENSION) rolls back with 42710 naming each object that is not right:
--   1. every function, operator, operator class, operator family and type that is a member of the
--      extension is owned by a superuser (what the scripts create is; an ordinary role cannot
--      create an object that a superuser owns), and so is the function of every member cast;
--   2. every operator and support function in the extension's operator families (b-tree, hash and
--      every BRIN family) is owned by a superuser, and so is each operator's function, and each is
--      a member of the extension or one of core's pg_catalog objects (uuid's operators and support
--      functions, the BRIN and b-tree support functions);
--   3. each object of 0.3.1 on this major is a member of the extension, in the extension's schema,
--      with exactly its signature (the types written as ulid or as pg_catalog's type names).
-- Later releases only add objects: this check holds for them too, and each ends with its own.
-- Same rules as every script: built-ins pg_catalog-qualified (operators included), nothing
-- substituted into this text, and a missing row or a NULL fails the check.

DO $ulid_check$
DECLARE
    server pg_catalog.int4 := pg_catalog.current_setting('server_version_num')::pg_catalog.int4;
    catalog_nsp pg_catalog.oid := 'pg_catalog'::pg_catalog.regnamespace;
    ext pg_catalog.oid;
    nsp pg_catalog.oid;
    ulid_type pg_catalog.oid;
    expected pg_catalog.text[] := ARRAY[
        'type ulid',
        'function ulid_in(cstring)', 'function ulid_out(ulid)', 'function ulid_recv(internal)',
        'function ulid_send(ulid)',
        'function ulid_eq(ulid,ulid)', 'function ulid_ne(ulid,ulid)', 'function ulid_lt(ulid,ulid)',
        'function ulid_le(ulid,ulid)', 'function ulid_gt(ulid,ulid)', 'function ulid_ge(ulid,ulid)',
        'function ulid_cmp(ulid,ulid)', 'function ulid_sortsupport(internal)',
        'function ulid_hash(ulid)', 'function ulid_hash_extended(ulid,int8)',
        'function ulid_brin_minmax_multi_distance(internal,internal)',
        'function ulid_smaller(ulid,ulid)', 'function ulid_larger(ulid,ulid)',
        'aggregate min(ulid)', 'aggregate max(ulid)',
        'function ulid_to_timestamp(ulid)', 'function ulid_min(timestamptz)',
        'function ulid_max(timestamptz)',
        'function gen_ulid()', 'function gen_ulid(timestamptz)', 'function gen_random_ulid()',
        'function gen_monotonic_ulid()',
        'function ulid_to_text(ulid)', 'function ulid_from_text(text)',
        'function ulid_to_bytea(ulid)', 'function ulid_from_bytea(bytea)',
        'function ulid_uuid_eq(ulid,uuid)', 'function ulid_uuid_ne(ulid,uuid)',
        'function ulid_uuid_lt(ulid,uuid)', 'function ulid_uuid_le(ulid,uuid)',
        'function ulid_uuid_gt(ulid,uuid)', 'function ulid_uuid_ge(ulid,uuid)',
        'function ulid_uuid_cmp(ulid,uuid)',
        'function uuid_ulid_eq(uuid,ulid)', 'function uuid_ulid_ne(uuid,ulid)',
        'function uuid_ulid_lt(uuid,ulid)', 'function uuid_ulid_le(uuid,ulid)',
        'function uuid_ulid_gt(uuid,ulid)', 'function uuid_ulid_ge(uuid,ulid)',
        'function uuid_ulid_cmp(uuid,ulid)',
        'operator =(ulid,ulid)', 'operator <>(ulid,ulid)', 'operator <(ulid,ulid)',
        'operator <=(ulid,ulid)', 'operator >(ulid,ulid)', 'operator >=(ulid,ulid)',
        'operator =(ulid,uuid)', 'operator <>(ulid,uuid)', 'operator <(ulid,uuid)',
        'operator <=(ulid,uuid)', 'operator >(ulid,uuid)', 'operator >=(ulid,uuid)',
        'operator =(uuid,ulid)', 'operator <>(uuid,ulid)', 'operator <(uuid,ulid)',
        'operator <=(uuid,ulid)', 'operator >(uuid,ulid)', 'operator >=(uuid,ulid)',
        'operator family ulid_ops using btree', 'operator class ulid_ops using btree',
        'operator class uuid_ulid_ops using btree',
        'operator family ulid_ops using hash', 'operator class ulid_ops using hash',
        'operator class uuid_ulid_ops using hash',
        'operator family ulid_minmax_ops using brin', 'operator class ulid_minmax_ops using brin',
        'cast ulid as uuid', 'cast uuid as ulid', 'cast ulid as text', 'cast text as ulid',
        'cast ulid as timestamptz', 'cast timestamptz as ulid', 'cast ulid as bytea',
        'cast bytea as ulid'
    ]::pg_catalog.text[];
    problems pg_catalog.text[];
BEGIN
    SELECT e.oid, e.extnamespace INTO ext, nsp
    FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'ulid';
    SELECT t.oid INTO ulid_type
    FROM pg_catalog.pg_type t
    WHERE t.typname OPERATOR(pg_catalog.=) 'ulid' AND t.typnamespace OPERATOR(pg_catalog.=) nsp;

    IF server OPERATOR(pg_catalog.>=) 140000 THEN
        expected := pg_catalog.array_cat(expected, ARRAY[
            'operator family ulid_minmax_multi_ops using brin',
            'operator class ulid_minmax_multi_ops using brin',
            'operator family ulid_bloom_ops using brin', 'operator class ulid_bloom_ops using brin'
        ]::pg_catalog.text[]);
    END IF;
    IF server OPERATOR(pg_catalog.>=) 180000 THEN
        expected := pg_catalog.array_cat(expected, ARRAY['function ulid_skipsupport(internal)']::pg_catalog.text[]);
    END IF;

    WITH
    -- a type as the expected list writes it; another schema's type never matches
    tok AS (
        SELECT t.oid,
               CASE WHEN t.oid OPERATOR(pg_catalog.=) ulid_type THEN 'ulid'
                    WHEN t.typnamespace OPERATOR(pg_catalog.=) catalog_nsp THEN t.typname::pg_catalog.text
                    ELSE pg_catalog.format('?%s', t.oid) END AS name
        FROM pg_catalog.pg_type t
    ),
    supers AS (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolsuper),
    dep AS (
        SELECT d.classid, d.objid
        FROM pg_catalog.pg_depend d
        WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
          AND d.refobjid OPERATOR(pg_catalog.=) ext AND d.deptype OPERATOR(pg_catalog.=) 'e'
    ),
    -- each member: the key it has in the expected list (marked '?' outside the extension's schema),
    -- and its owner (for a cast: its function's owner, none for a cast without one)
    member AS (
        SELECT dep.classid, dep.objid,
               pg_catalog.format('%s%s %s(%s)',
                   CASE WHEN p.pronamespace OPERATOR(pg_catalog.=) nsp THEN '' ELSE '?' END,
                   CASE WHEN p.prokind OPERATOR(pg_catalog.=) 'a' THEN 'aggregate' ELSE 'function' END,
                   p.proname,
                   (SELECT pg_catalog.string_agg(tok.name, ',' ORDER BY a.n)
                    FROM pg_catalog.unnest(p.proargtypes::pg_catalog.oid[]) WITH ORDINALITY a(o, n)
                    JOIN tok ON tok.oid OPERATOR(pg_catalog.=) a.o)) AS key,
               p.proowner AS owner
        FROM dep JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) dep.objid
        WHERE dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
        UNION ALL
        SELECT dep.classid, dep.objid,
               pg_catalog.format('%soperator %s(%s,%s)',
                   CASE WHEN o.oprnamespace OPERATOR(pg_catalog.=) nsp THEN '' ELSE '?' END,
                   o.oprname, l.name, r.name),
               o.oprowner
        FROM dep JOIN pg_catalog.pg_operator o ON o.oid OPERATOR(pg_catalog.=) dep.objid
        JOIN tok l ON l.oid OPERATOR(pg_catalog.=) o.oprleft
        JOIN tok r ON r.oid OPERATOR(pg_catalog.=) o.oprright
        WHERE dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass
        UNION ALL
        SELECT dep.classid, dep.objid,
               pg_catalog.format('%soperator class %s using %s',
                   CASE WHEN c.opcnamespace OPERATOR(pg_catalog.=) nsp THEN '' ELSE '?' END,
                   c.opcname, am.amname),
               c.opcowner
        FROM dep JOIN pg_catalog.pg_opclass c ON c.oid OPERATOR(pg_catalog.=) dep.objid
        JOIN pg_catalog.pg_am am ON am.oid OPERATOR(pg_catalog.=) c.opcmethod
        WHERE dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_opclass'::pg_catalog.regclass
        UNION ALL
        SELECT dep.classid, dep.objid,
               pg_catalog.format('%soperator family %s using %s',
                   CASE WHEN f.opfnamespace OPERATOR(pg_catalog.=) nsp THEN '' ELSE '?' END,
                   f.opfname, am.amname),
               f.opfowner
        FROM dep JOIN pg_catalog.pg_opfamily f ON f.oid OPERATOR(pg_catalog.=) dep.objid
        JOIN pg_catalog.pg_am am ON am.oid OPERATOR(pg_catalog.=) f.opfmethod
        WHERE dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_opfamily'::pg_catalog.regclass
        UNION ALL
        SELECT dep.classid, dep.objid,
               pg_catalog.format('%stype %s',
                   CASE WHEN t.typnamespace OPERATOR(pg_catalog.=) nsp THEN '' ELSE '?' END, t.typname),
               t.typowner
        FROM dep JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) dep.objid
        WHERE dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass
        UNION ALL
        SELECT dep.classid, dep.objid,
               pg_catalog.format('cast %s as %s', s.name, t.name),
               (SELECT p.proowner FROM pg_catalog.pg_proc p WHERE p.oid OPERATOR(pg_catalog.=) c.castfunc)
        FROM dep JOIN pg_catalog.pg_cast c ON c.oid OPERATOR(pg_catalog.=) dep.objid
        JOIN tok s ON s.oid OPERATOR(pg_catalog.=) c.castsource
        JOIN tok t ON t.oid OPERATOR(pg_catalog.=) c.casttarget
        WHERE dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_cast'::pg_catalog.regclass
    ),
    families AS (
        SELECT member.objid AS oid FROM member
        WHERE member.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_opfamily'::pg_catalog.regclass
    ),
    found AS (
        -- 1. members that a superuser does not own
        SELECT 1 AS rule,
               pg_catalog.format('%s is a member of extension ulid but is owned by %s, not by a superuser',
                   pg_catalog.pg_describe_object(m.classid, m.objid, 0), m.owner::pg_catalog.regrole) AS problem
        FROM member m
        WHERE m.owner IS NOT NULL
          AND NOT EXISTS (SELECT FROM supers s WHERE s.oid OPERATOR(pg_catalog.=) m.owner)
        UNION ALL
        -- 2. operators of the families: a superuser's, the extension's own or core's
        SELECT 2, pg_catalog.format('%s is owned by %s (its function %s by %s): not the extension''s own',
                   pg_catalog.pg_describe_object('pg_catalog.pg_amop'::pg_catalog.regclass, ao.oid, 0),
                   o.oprowner::pg_catalog.regrole, o.oprcode::pg_catalog.regprocedure,
                   p.proowner::pg_catalog.regrole)
        FROM pg_catalog.pg_amop ao
        JOIN families ON families.oid OPERATOR(pg_catalog.=) ao.amopfamily
        JOIN pg_catalog.pg_operator o ON o.oid OPERATOR(pg_catalog.=) ao.amopopr
        LEFT JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) o.oprcode
        WHERE NOT (EXISTS (SELECT FROM supers s WHERE s.oid OPERATOR(pg_catalog.=) o.oprowner)
                   AND EXISTS (SELECT FROM supers s WHERE s.oid OPERATOR(pg_catalog.=) p.proowner)
                   AND (o.oprnamespace OPERATOR(pg_catalog.=) catalog_nsp
                        OR EXISTS (SELECT FROM member m
                                   WHERE m.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass
                                     AND m.objid OPERATOR(pg_catalog.=) o.oid)))
        UNION ALL
        -- ... and their support functions
        SELECT 2, pg_catalog.format('%s is owned by %s: not the extension''s own',
                   pg_catalog.pg_describe_object('pg_catalog.pg_amproc'::pg_catalog.regclass, ap.oid, 0),
                   p.proowner::pg_catalog.regrole)
        FROM pg_catalog.pg_amproc ap
        JOIN families ON families.oid OPERATOR(pg_catalog.=) ap.amprocfamily
        JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) ap.amproc
        WHERE NOT (EXISTS (SELECT FROM supers s WHERE s.oid OPERATOR(pg_catalog.=) p.proowner)
                   AND (p.pronamespace OPERATOR(pg_catalog.=) catalog_nsp
                        OR EXISTS (SELECT FROM member m
                                   WHERE m.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
                                     AND m.objid OPERATOR(pg_catalog.=) p.oid)))
        UNION ALL
        -- 3. the objects of 0.3.1 that are not members with their exact signature in the schema
        SELECT 3, pg_catalog.format('extension ulid has no %s in its schema', x.key)
        FROM pg_catalog.unnest(expected) x(key)
        WHERE NOT EXISTS (SELECT FROM member m WHERE m.key OPERATOR(pg_catalog.=) x.key)
    )
    SELECT pg_catalog.array_agg(found.problem ORDER BY found.rule, found.problem) INTO problems FROM found;

    IF ext IS NULL OR ulid_type IS NULL THEN
        problems := pg_catalog.array_cat(ARRAY['extension ulid or its type ulid was not found']::pg_catalog.text[], problems);
    END IF;
    IF problems IS NOT NULL THEN
        RAISE EXCEPTION 'extension ulid is not as its scripts made it: %', problems[1]
            USING ERRCODE = 'duplicate_object',
                  DETAIL = pg_catalog.array_to_string(problems, E'\n'),
                  HINT = 'Nothing was changed. An object that is not the extension''s own is in it or in its operator families; docs/security.md (A refused update) shows how to find and remove such objects.';
    END IF;
END
$ulid_check$;
