-- Every update into 0.3.0, after the body of 0.2.1 (src/sql/update-to-0.2.1.sql, which the
-- Makefile puts before this one): ulid meets uuid. The same 16 bytes on both sides, so
--   - the six comparison operators on (ulid, uuid) and (uuid, ulid), with commutators, negators and
--     the estimators of ulid = ulid, implemented by the same C functions as ulid's own;
--   - in the b-tree and hash families of ulid_ops, with cross-type comparison and, so that the
--     families are complete (amvalidate), uuid's own operators and support functions: as operator
--     classes uuid_ulid_ops (b-tree and hash, not default) that index a uuid column in ulid's
--     families, e.g. a uuid foreign key that references a ulid key; core's uuid objects are used,
--     never altered;
--   - in every BRIN family of ulid that exists on this server (minmax; minmax-multi and bloom on
--     14+), the (ulid, uuid) operators, so a BRIN index on ulid answers uuid conditions.
-- Idempotent like the body before it: what the extension has is left alone, so this also serves
-- the refresh round trip after pg_upgrade. An object of one of these names in the extension's
-- schema that is not the extension's own makes CREATE fail (42723 / 42710), never adopted.
-- Same rules as every script: built-ins pg_catalog-qualified (operators included), nothing
-- substituted into this text, guards fail closed (the guard of the body before this one ran).

DO $ulid_crosstype$
DECLARE
    server pg_catalog.int4 := pg_catalog.current_setting('server_version_num')::pg_catalog.int4;
    ext pg_catalog.oid;
    nsp pg_catalog.oid;
    fam pg_catalog.text;
    fam_oid pg_catalog.oid;
BEGIN
    SELECT e.oid, e.extnamespace INTO ext, nsp
    FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'ulid';

    -- The operators, their functions and the b-tree and hash families: made together, once.
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) d.objid
                   WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
                     AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
                     AND d.refobjid OPERATOR(pg_catalog.=) ext AND d.deptype OPERATOR(pg_catalog.=) 'e'
                     AND p.proname OPERATOR(pg_catalog.=) 'ulid_uuid_cmp') THEN
        CREATE FUNCTION ulid_uuid_eq(ulid, pg_catalog.uuid) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'ulid_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
        CREATE FUNCTION ulid_uuid_ne(ulid, pg_catalog.uuid) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'ulid_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
        CREATE FUNCTION ulid_uuid_lt(ulid, pg_catalog.uuid) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'ulid_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
        CREATE FUNCTION ulid_uuid_le(ulid, pg_catalog.uuid) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'ulid_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
        CREATE FUNCTION ulid_uuid_gt(ulid, pg_catalog.uuid) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'ulid_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
        CREATE FUNCTION ulid_uuid_ge(ulid, pg_catalog.uuid) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'ulid_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
        CREATE FUNCTION ulid_uuid_cmp(ulid, pg_catalog.uuid) RETURNS pg_catalog.int4
            AS 'MODULE_PATHNAME', 'ulid_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
        CREATE FUNCTION uuid_ulid_eq(pg_catalog.uuid, ulid) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'ulid_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
        CREATE FUNCTION uuid_ulid_ne(pg_catalog.uuid, ulid) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'ulid_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
        CREATE FUNCTION uuid_ulid_lt(pg_catalog.uuid, ulid) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'ulid_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
        CREATE FUNCTION uuid_ulid_le(pg_catalog.uuid, ulid) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'ulid_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
        CREATE FUNCTION uuid_ulid_gt(pg_catalog.uuid, ulid) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'ulid_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
        CREATE FUNCTION uuid_ulid_ge(pg_catalog.uuid, ulid) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'ulid_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
        CREATE FUNCTION uuid_ulid_cmp(pg_catalog.uuid, ulid) RETURNS pg_catalog.int4
            AS 'MODULE_PATHNAME', 'ulid_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

        COMMENT ON FUNCTION ulid_uuid_eq(ulid, pg_catalog.uuid) IS 'implementation of = for ulid and uuid';
        COMMENT ON FUNCTION ulid_uuid_ne(ulid, pg_catalog.uuid) IS 'implementation of <> for ulid and uuid';
        COMMENT ON FUNCTION ulid_uuid_lt(ulid, pg_catalog.uuid) IS 'implementation of < for ulid and uuid';
        COMMENT ON FUNCTION ulid_uuid_le(ulid, pg_catalog.uuid) IS 'implementation of <= for ulid and uuid';
        COMMENT ON FUNCTION ulid_uuid_gt(ulid, pg_catalog.uuid) IS 'implementation of > for ulid and uuid';
        COMMENT ON FUNCTION ulid_uuid_ge(ulid, pg_catalog.uuid) IS 'implementation of >= for ulid and uuid';
        COMMENT ON FUNCTION ulid_uuid_cmp(ulid, pg_catalog.uuid) IS 'b-tree comparison of ulid with uuid (their bytes)';
        COMMENT ON FUNCTION uuid_ulid_eq(pg_catalog.uuid, ulid) IS 'implementation of = for uuid and ulid';
        COMMENT ON FUNCTION uuid_ulid_ne(pg_catalog.uuid, ulid) IS 'implementation of <> for uuid and ulid';
        COMMENT ON FUNCTION uuid_ulid_lt(pg_catalog.uuid, ulid) IS 'implementation of < for uuid and ulid';
        COMMENT ON FUNCTION uuid_ulid_le(pg_catalog.uuid, ulid) IS 'implementation of <= for uuid and ulid';
        COMMENT ON FUNCTION uuid_ulid_gt(pg_catalog.uuid, ulid) IS 'implementation of > for uuid and ulid';
        COMMENT ON FUNCTION uuid_ulid_ge(pg_catalog.uuid, ulid) IS 'implementation of >= for uuid and ulid';
        COMMENT ON FUNCTION uuid_ulid_cmp(pg_catalog.uuid, ulid) IS 'b-tree comparison of uuid with ulid (their bytes)';

        CREATE OPERATOR = (
            LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, FUNCTION = ulid_uuid_eq,
            COMMUTATOR = =, NEGATOR = <>,
            RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, MERGES, HASHES
        );
        CREATE OPERATOR <> (
            LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, FUNCTION = ulid_uuid_ne,
            COMMUTATOR = <>, NEGATOR = =,
            RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
        );
        CREATE OPERATOR < (
            LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, FUNCTION = ulid_uuid_lt,
            COMMUTATOR = >, NEGATOR = >=,
            RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
        );
        CREATE OPERATOR <= (
            LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, FUNCTION = ulid_uuid_le,
            COMMUTATOR = >=, NEGATOR = >,
            RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
        );
        CREATE OPERATOR > (
            LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, FUNCTION = ulid_uuid_gt,
            COMMUTATOR = <, NEGATOR = <=,
            RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
        );
        CREATE OPERATOR >= (
            LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, FUNCTION = ulid_uuid_ge,
            COMMUTATOR = <=, NEGATOR = <,
            RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
        );
        CREATE OPERATOR = (
            LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_eq,
            COMMUTATOR = =, NEGATOR = <>,
            RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, MERGES, HASHES
        );
        CREATE OPERATOR <> (
            LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_ne,
            COMMUTATOR = <>, NEGATOR = =,
            RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
        );
        CREATE OPERATOR < (
            LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_lt,
            COMMUTATOR = >, NEGATOR = >=,
            RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
        );
        CREATE OPERATOR <= (
            LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_le,
            COMMUTATOR = >=, NEGATOR = >,
            RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
        );
        CREATE OPERATOR > (
            LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_gt,
            COMMUTATOR = <, NEGATOR = <=,
            RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
        );
        CREATE OPERATOR >= (
            LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_ge,
            COMMUTATOR = <=, NEGATOR = <,
            RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
        );

        COMMENT ON OPERATOR =(ulid, pg_catalog.uuid) IS 'equal (the same 16 bytes)';
        COMMENT ON OPERATOR <>(ulid, pg_catalog.uuid) IS 'not equal';
        COMMENT ON OPERATOR <(ulid, pg_catalog.uuid) IS 'less than (byte order)';
        COMMENT ON OPERATOR <=(ulid, pg_catalog.uuid) IS 'less than or equal (byte order)';
        COMMENT ON OPERATOR >(ulid, pg_catalog.uuid) IS 'greater than (byte order)';
        COMMENT ON OPERATOR >=(ulid, pg_catalog.uuid) IS 'greater than or equal (byte order)';
        COMMENT ON OPERATOR =(pg_catalog.uuid, ulid) IS 'equal (the same 16 bytes)';
        COMMENT ON OPERATOR <>(pg_catalog.uuid, ulid) IS 'not equal';
        COMMENT ON OPERATOR <(pg_catalog.uuid, ulid) IS 'less than (byte order)';
        COMMENT ON OPERATOR <=(pg_catalog.uuid, ulid) IS 'less than or equal (byte order)';
        COMMENT ON OPERATOR >(pg_catalog.uuid, ulid) IS 'greater than (byte order)';
        COMMENT ON OPERATOR >=(pg_catalog.uuid, ulid) IS 'greater than or equal (byte order)';

        -- b-tree: cross-type members, and uuid's own as the class uuid_ulid_ops
        ALTER OPERATOR FAMILY ulid_ops USING btree ADD
            OPERATOR 1 < (ulid, pg_catalog.uuid),
            OPERATOR 2 <= (ulid, pg_catalog.uuid),
            OPERATOR 3 = (ulid, pg_catalog.uuid),
            OPERATOR 4 >= (ulid, pg_catalog.uuid),
            OPERATOR 5 > (ulid, pg_catalog.uuid),
            OPERATOR 1 < (pg_catalog.uuid, ulid),
            OPERATOR 2 <= (pg_catalog.uuid, ulid),
            OPERATOR 3 = (pg_catalog.uuid, ulid),
            OPERATOR 4 >= (pg_catalog.uuid, ulid),
            OPERATOR 5 > (pg_catalog.uuid, ulid),
            FUNCTION 1 (ulid, pg_catalog.uuid) ulid_uuid_cmp(ulid, pg_catalog.uuid),
            FUNCTION 1 (pg_catalog.uuid, ulid) uuid_ulid_cmp(pg_catalog.uuid, ulid);
        CREATE OPERATOR CLASS uuid_ulid_ops FOR TYPE pg_catalog.uuid USING btree FAMILY ulid_ops AS
            OPERATOR 1 pg_catalog.< (pg_catalog.uuid, pg_catalog.uuid),
            OPERATOR 2 pg_catalog.<= (pg_catalog.uuid, pg_catalog.uuid),
            OPERATOR 3 pg_catalog.= (pg_catalog.uuid, pg_catalog.uuid),
            OPERATOR 4 pg_catalog.>= (pg_catalog.uuid, pg_catalog.uuid),
            OPERATOR 5 pg_catalog.> (pg_catalog.uuid, pg_catalog.uuid),
            FUNCTION 1 pg_catalog.uuid_cmp(pg_catalog.uuid, pg_catalog.uuid),
            FUNCTION 2 pg_catalog.uuid_sortsupport(pg_catalog.internal),
            FUNCTION 4 pg_catalog.btequalimage(pg_catalog.oid);
        COMMENT ON OPERATOR CLASS uuid_ulid_ops USING btree IS
            'b-tree operator class of uuid in the family of ulid (a uuid column compared with ulid values)';

        -- hash: the same hashes for the same bytes (ulid_hash equals uuid_hash)
        ALTER OPERATOR FAMILY ulid_ops USING hash ADD
            OPERATOR 1 = (ulid, pg_catalog.uuid),
            OPERATOR 1 = (pg_catalog.uuid, ulid);
        CREATE OPERATOR CLASS uuid_ulid_ops FOR TYPE pg_catalog.uuid USING hash FAMILY ulid_ops AS
            OPERATOR 1 pg_catalog.= (pg_catalog.uuid, pg_catalog.uuid),
            FUNCTION 1 pg_catalog.uuid_hash(pg_catalog.uuid),
            FUNCTION 2 pg_catalog.uuid_hash_extended(pg_catalog.uuid, pg_catalog.int8);
        COMMENT ON OPERATOR CLASS uuid_ulid_ops USING hash IS
            'hash operator class of uuid in the family of ulid (a uuid column compared with ulid values)';
    END IF;

    -- B-tree skip support of the uuid class where the server has one for uuid (PostgreSQL 18+).
    IF server OPERATOR(pg_catalog.>=) 180000
       AND pg_catalog.to_regprocedure('pg_catalog.uuid_skipsupport(pg_catalog.internal)') IS NOT NULL
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_amproc p JOIN pg_catalog.pg_opfamily f
                           ON f.oid OPERATOR(pg_catalog.=) p.amprocfamily
                       JOIN pg_catalog.pg_am a ON a.oid OPERATOR(pg_catalog.=) f.opfmethod
                       WHERE f.opfname OPERATOR(pg_catalog.=) 'ulid_ops' AND f.opfnamespace OPERATOR(pg_catalog.=) nsp
                         AND a.amname OPERATOR(pg_catalog.=) 'btree' AND p.amprocnum OPERATOR(pg_catalog.=) 6
                         AND p.amproclefttype OPERATOR(pg_catalog.=) 'pg_catalog.uuid'::pg_catalog.regtype) THEN
        ALTER OPERATOR FAMILY ulid_ops USING btree
            ADD FUNCTION 6 (pg_catalog.uuid, pg_catalog.uuid) pg_catalog.uuid_skipsupport(pg_catalog.internal);
    END IF;

    -- BRIN: (ulid, uuid) conditions in each family of ulid this server has (minmax; minmax-multi
    -- and bloom from 14), where not there yet. Bloom answers equality only.
    FOREACH fam IN ARRAY ARRAY['ulid_minmax_ops', 'ulid_minmax_multi_ops', 'ulid_bloom_ops']::pg_catalog.text[] LOOP
        SELECT f.oid INTO fam_oid
        FROM pg_catalog.pg_opfamily f JOIN pg_catalog.pg_am a ON a.oid OPERATOR(pg_catalog.=) f.opfmethod
        JOIN pg_catalog.pg_depend d ON d.objid OPERATOR(pg_catalog.=) f.oid
            AND d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_opfamily'::pg_catalog.regclass
            AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
            AND d.refobjid OPERATOR(pg_catalog.=) ext AND d.deptype OPERATOR(pg_catalog.=) 'e'
        WHERE f.opfname OPERATOR(pg_catalog.=) fam AND f.opfnamespace OPERATOR(pg_catalog.=) nsp
          AND a.amname OPERATOR(pg_catalog.=) 'brin';
        CONTINUE WHEN fam_oid IS NULL
            OR EXISTS (SELECT FROM pg_catalog.pg_amop o
                       WHERE o.amopfamily OPERATOR(pg_catalog.=) fam_oid
                         AND o.amoprighttype OPERATOR(pg_catalog.=) 'pg_catalog.uuid'::pg_catalog.regtype);
        IF fam OPERATOR(pg_catalog.=) 'ulid_bloom_ops' THEN
            ALTER OPERATOR FAMILY ulid_bloom_ops USING brin ADD OPERATOR 1 = (ulid, pg_catalog.uuid);
        ELSIF fam OPERATOR(pg_catalog.=) 'ulid_minmax_ops' THEN
            ALTER OPERATOR FAMILY ulid_minmax_ops USING brin ADD
                OPERATOR 1 < (ulid, pg_catalog.uuid), OPERATOR 2 <= (ulid, pg_catalog.uuid),
                OPERATOR 3 = (ulid, pg_catalog.uuid), OPERATOR 4 >= (ulid, pg_catalog.uuid),
                OPERATOR 5 > (ulid, pg_catalog.uuid);
        ELSE
            ALTER OPERATOR FAMILY ulid_minmax_multi_ops USING brin ADD
                OPERATOR 1 < (ulid, pg_catalog.uuid), OPERATOR 2 <= (ulid, pg_catalog.uuid),
                OPERATOR 3 = (ulid, pg_catalog.uuid), OPERATOR 4 >= (ulid, pg_catalog.uuid),
                OPERATOR 5 > (ulid, pg_catalog.uuid);
        END IF;
    END LOOP;
END
$ulid_crosstype$;
