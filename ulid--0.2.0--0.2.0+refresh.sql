-- ulid 0.2.0 -> 0.2.0+refresh: after pg_upgrade, add the index support the new major allows.
--
-- 0.2.0 creates BRIN minmax-multi/bloom (14+) and b-tree skip support (18+) only when the server
-- has them at CREATE EXTENSION time, and pg_upgrade carries the extension over as it was, at the
-- same version, so ALTER EXTENSION UPDATE alone has nothing to run. '0.2.0+refresh' is not a
-- release: it has the objects of 0.2.0, and this script and ulid--0.2.0+refresh--0.2.0.sql make a
-- round trip that adds each object the server supports and the extension lacks (README,
-- "Upgrading"):
--     ALTER EXTENSION ulid UPDATE TO '0.2.0+refresh';
--     ALTER EXTENSION ulid UPDATE;
-- The body is the one of ulid--0.1.0--0.2.0.sql (idempotent: on an up-to-date extension it adds
-- nothing); the same rules hold.

\echo Use "ALTER EXTENSION ulid UPDATE TO '0.2.0+refresh'" to load this file. \quit
-- An update runs as a superuser too (the bootstrap superuser for a trusted extension's owner), so
-- the install script's guard holds here as well: the extension's owner must still be allowed to
-- create objects in the extension's schema. No row, a NULL or a missing privilege all refuse.
DO $ulid_guard$
BEGIN
    IF (SELECT pg_catalog.has_schema_privilege(e.extowner, e.extnamespace, 'CREATE')
        FROM pg_catalog.pg_extension e
        WHERE e.extname OPERATOR(pg_catalog.=) 'ulid') IS NOT TRUE THEN
        RAISE EXCEPTION 'permission denied for schema %', pg_catalog.current_schema()
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = 'Updating ulid needs its owner to have the CREATE privilege on the extension''s schema.';
    END IF;
END
$ulid_guard$;

DO $ulid_add$
DECLARE
    server pg_catalog.int4 := pg_catalog.current_setting('server_version_num')::pg_catalog.int4;
    ext pg_catalog.oid;
    nsp pg_catalog.oid;
    opc pg_catalog.text;
    present pg_catalog.int8;
    members pg_catalog.int8;
    btree_family pg_catalog.oid;
BEGIN
    SELECT e.oid, e.extnamespace INTO ext, nsp
    FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'ulid';

    -- BRIN minmax-multi and bloom (14+). An operator class of that name in the extension's schema
    -- that is not the extension's own is refused, never adopted.
    IF server OPERATOR(pg_catalog.>=) 140000 THEN
        FOREACH opc IN ARRAY ARRAY['ulid_minmax_multi_ops', 'ulid_bloom_ops']::pg_catalog.text[] LOOP
            SELECT pg_catalog.count(*),
                   pg_catalog.count(*) FILTER (WHERE EXISTS (
                       SELECT FROM pg_catalog.pg_depend d
                       WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_opclass'::pg_catalog.regclass
                         AND d.objid OPERATOR(pg_catalog.=) c.oid
                         AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
                         AND d.refobjid OPERATOR(pg_catalog.=) ext
                         AND d.deptype OPERATOR(pg_catalog.=) 'e'))
            INTO present, members
            FROM pg_catalog.pg_opclass c JOIN pg_catalog.pg_am a ON a.oid OPERATOR(pg_catalog.=) c.opcmethod
            WHERE c.opcname OPERATOR(pg_catalog.=) opc AND c.opcnamespace OPERATOR(pg_catalog.=) nsp
              AND a.amname OPERATOR(pg_catalog.=) 'brin';
            IF present OPERATOR(pg_catalog.<>) members THEN
                RAISE EXCEPTION 'operator class % for access method brin already exists and is not part of extension ulid', opc
                    USING ERRCODE = 'duplicate_object';
            END IF;
            CONTINUE WHEN members OPERATOR(pg_catalog.>) 0;
            IF opc OPERATOR(pg_catalog.=) 'ulid_minmax_multi_ops' THEN
                CREATE OPERATOR CLASS ulid_minmax_multi_ops FOR TYPE ulid USING brin AS
                    OPERATOR 1 < ,
                    OPERATOR 2 <= ,
                    OPERATOR 3 = ,
                    OPERATOR 4 >= ,
                    OPERATOR 5 > ,
                    FUNCTION 1 pg_catalog.brin_minmax_multi_opcinfo(pg_catalog.internal),
                    FUNCTION 2 pg_catalog.brin_minmax_multi_add_value(pg_catalog.internal,
                        pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
                    FUNCTION 3 pg_catalog.brin_minmax_multi_consistent(pg_catalog.internal,
                        pg_catalog.internal, pg_catalog.internal, pg_catalog.int4),
                    FUNCTION 4 pg_catalog.brin_minmax_multi_union(pg_catalog.internal,
                        pg_catalog.internal, pg_catalog.internal),
                    FUNCTION 5 pg_catalog.brin_minmax_multi_options(pg_catalog.internal),
                    FUNCTION 11 ulid_brin_minmax_multi_distance(pg_catalog.internal, pg_catalog.internal);
                COMMENT ON OPERATOR FAMILY ulid_minmax_multi_ops USING brin IS
                    'BRIN minmax-multi operators of ulid';
                COMMENT ON OPERATOR CLASS ulid_minmax_multi_ops USING brin IS
                    'BRIN operator class of ulid keeping several min/max intervals per block range';
            ELSE
                CREATE OPERATOR CLASS ulid_bloom_ops FOR TYPE ulid USING brin AS
                    OPERATOR 1 = ,
                    FUNCTION 1 pg_catalog.brin_bloom_opcinfo(pg_catalog.internal),
                    FUNCTION 2 pg_catalog.brin_bloom_add_value(pg_catalog.internal, pg_catalog.internal,
                        pg_catalog.internal, pg_catalog.internal),
                    FUNCTION 3 pg_catalog.brin_bloom_consistent(pg_catalog.internal, pg_catalog.internal,
                        pg_catalog.internal, pg_catalog.int4),
                    FUNCTION 4 pg_catalog.brin_bloom_union(pg_catalog.internal, pg_catalog.internal,
                        pg_catalog.internal),
                    FUNCTION 5 pg_catalog.brin_bloom_options(pg_catalog.internal),
                    FUNCTION 11 ulid_hash(ulid);
                COMMENT ON OPERATOR FAMILY ulid_bloom_ops USING brin IS 'BRIN bloom operators of ulid';
                COMMENT ON OPERATOR CLASS ulid_bloom_ops USING brin IS
                    'BRIN operator class of ulid for equality lookups (bloom filter per block range)';
            END IF;
        END LOOP;
    END IF;

    -- B-tree skip support (18+): the function, then support function 6 of the b-tree family.
    IF server OPERATOR(pg_catalog.>=) 180000 THEN
        SELECT pg_catalog.count(*) INTO members
        FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) d.objid
        WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
          AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
          AND d.refobjid OPERATOR(pg_catalog.=) ext AND d.deptype OPERATOR(pg_catalog.=) 'e'
          AND p.proname OPERATOR(pg_catalog.=) 'ulid_skipsupport';
        IF members OPERATOR(pg_catalog.=) 0 THEN
            -- (a function of that name and signature that is not ours makes CREATE FUNCTION fail)
            CREATE FUNCTION ulid_skipsupport(pg_catalog.internal) RETURNS pg_catalog.void
                AS 'MODULE_PATHNAME', 'ulid_skipsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
            COMMENT ON FUNCTION ulid_skipsupport(pg_catalog.internal) IS 'b-tree skip support of ulid';
        END IF;

        SELECT c.opcfamily INTO btree_family
        FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_opclass c ON c.oid OPERATOR(pg_catalog.=) d.objid
        JOIN pg_catalog.pg_am a ON a.oid OPERATOR(pg_catalog.=) c.opcmethod
        WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_opclass'::pg_catalog.regclass
          AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
          AND d.refobjid OPERATOR(pg_catalog.=) ext AND d.deptype OPERATOR(pg_catalog.=) 'e'
          AND c.opcname OPERATOR(pg_catalog.=) 'ulid_ops' AND a.amname OPERATOR(pg_catalog.=) 'btree';
        IF btree_family IS NULL THEN
            RAISE EXCEPTION 'extension ulid has no b-tree operator class ulid_ops'
                USING ERRCODE = 'undefined_object';
        END IF;
        IF NOT EXISTS (SELECT FROM pg_catalog.pg_amproc p
                       WHERE p.amprocfamily OPERATOR(pg_catalog.=) btree_family
                         AND p.amprocnum OPERATOR(pg_catalog.=) 6) THEN
            ALTER OPERATOR FAMILY ulid_ops USING btree
                ADD FUNCTION 6 (ulid, ulid) ulid_skipsupport(pg_catalog.internal);
        END IF;
    END IF;
END
$ulid_add$;
