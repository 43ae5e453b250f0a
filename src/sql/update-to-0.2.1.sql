-- Every update into 0.2.1 (from 0.1.0, from 0.2.0, and the refresh round trip after pg_upgrade):
-- add the index support the server allows and the extension lacks; the objects of 0.2.1 are those
-- of 0.1.0 and 0.2.0 on the same major.
--
-- 0.1.0 and 0.2.0 created BRIN minmax-multi/bloom (14+) and b-tree skip support (18+) only when
-- the server had them at CREATE EXTENSION time, so a database carried over by pg_upgrade from an
-- older major lacks them. This adds each one that the server supports and that is not yet a member
-- of the extension; run on any major, it leaves exactly the objects a fresh 0.2.1 install has
-- there, and on an up-to-date extension it adds nothing.
--
-- Unlike the released 0.1.0 -> 0.2.0 script, it never adopts a leftover operator family: an
-- operator class or family of one of these names in the extension's schema that is not the
-- extension's own is refused (42710), because CREATE OPERATOR CLASS without FAMILY would join a
-- same-named family that then stays outside the extension (and breaks pg_dump | psql).
--
-- Same rules as the install script: every built-in is named with pg_catalog, operators included,
-- our own objects are found in the extension's schema (first in search_path while this runs),
-- nothing is substituted into this text, and the guard fails closed.

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

    -- BRIN minmax-multi and bloom (14+): each as an operator family and its class, both made here.
    IF server OPERATOR(pg_catalog.>=) 140000 THEN
        FOREACH opc IN ARRAY ARRAY['ulid_minmax_multi_ops', 'ulid_bloom_ops']::pg_catalog.text[] LOOP
            -- the class: absent, or the extension's own
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
                    USING ERRCODE = 'duplicate_object',
                          HINT = 'Drop that operator class (and its operator family), then update again.';
            END IF;
            CONTINUE WHEN members OPERATOR(pg_catalog.>) 0;

            -- the family: absent (made now), or the extension's own; a foreign one is refused
            SELECT pg_catalog.count(*),
                   pg_catalog.count(*) FILTER (WHERE EXISTS (
                       SELECT FROM pg_catalog.pg_depend d
                       WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_opfamily'::pg_catalog.regclass
                         AND d.objid OPERATOR(pg_catalog.=) f.oid
                         AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
                         AND d.refobjid OPERATOR(pg_catalog.=) ext
                         AND d.deptype OPERATOR(pg_catalog.=) 'e'))
            INTO present, members
            FROM pg_catalog.pg_opfamily f JOIN pg_catalog.pg_am a ON a.oid OPERATOR(pg_catalog.=) f.opfmethod
            WHERE f.opfname OPERATOR(pg_catalog.=) opc AND f.opfnamespace OPERATOR(pg_catalog.=) nsp
              AND a.amname OPERATOR(pg_catalog.=) 'brin';
            IF present OPERATOR(pg_catalog.<>) members THEN
                RAISE EXCEPTION 'operator family % for access method brin already exists and is not part of extension ulid', opc
                    USING ERRCODE = 'duplicate_object',
                          HINT = 'Drop that operator family, then update again.';
            END IF;

            IF opc OPERATOR(pg_catalog.=) 'ulid_minmax_multi_ops' THEN
                IF present OPERATOR(pg_catalog.=) 0 THEN
                    CREATE OPERATOR FAMILY ulid_minmax_multi_ops USING brin;
                END IF;
                CREATE OPERATOR CLASS ulid_minmax_multi_ops FOR TYPE ulid USING brin FAMILY ulid_minmax_multi_ops AS
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
                IF present OPERATOR(pg_catalog.=) 0 THEN
                    CREATE OPERATOR FAMILY ulid_bloom_ops USING brin;
                END IF;
                CREATE OPERATOR CLASS ulid_bloom_ops FOR TYPE ulid USING brin FAMILY ulid_bloom_ops AS
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
        -- (ulid's own: from 0.3.0 the family also holds uuid's support functions)
        IF NOT EXISTS (SELECT FROM pg_catalog.pg_amproc p
                       WHERE p.amprocfamily OPERATOR(pg_catalog.=) btree_family
                         AND p.amprocnum OPERATOR(pg_catalog.=) 6
                         AND p.amproclefttype OPERATOR(pg_catalog.=) p.amprocrighttype
                         AND p.amproclefttype OPERATOR(pg_catalog.=) (SELECT c.opcintype FROM pg_catalog.pg_opclass c
                                                                     WHERE c.opcfamily OPERATOR(pg_catalog.=) btree_family
                                                                       AND c.opcname OPERATOR(pg_catalog.=) 'ulid_ops')) THEN
            ALTER OPERATOR FAMILY ulid_ops USING btree
                ADD FUNCTION 6 (ulid, ulid) ulid_skipsupport(pg_catalog.internal);
        END IF;
    END IF;
END
$ulid_add$;
