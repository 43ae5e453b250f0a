-- Every update into 0.4.0 (and its install script), after the bodies before it: ulid compared with
-- timestamptz. `id OP t` and `t OP id` (OP one of = <> < <= > >=) mean exactly
-- `ulid_to_timestamp(id) OP t`, for every timestamptz (sub-millisecond, infinite and outside the
-- ULID range included: true or false, NULL only for a NULL input). They are not equivalences (two
-- ids of one millisecond both equal a whole-millisecond t): neither MERGES nor HASHES, and in no
-- operator family. Their functions have a planner support function, ulid_time_support, that
-- rewrites `id OP t` with t free of variables and volatile functions into ulid's own b-tree
-- comparisons (`id >= lower AND id <= upper`, bounds from ulid_time_lower and ulid_time_upper, or
-- computed at once for a constant), which an index on id and partition pruning use.
-- Made together, once: skipped where the extension already has ulid_time_support(internal) with
-- that exact signature in its schema. What was skipped or made is checked at the end of this body
-- (each object a member with its exact signature), and every script from 0.4.0 on then ends with
-- the check of 0.3.1 once more (src/sql/assemble.sh): members and operator families the
-- extension's own. Same rules as every script: built-ins pg_catalog-qualified, operators included;
-- nothing substituted into this text; guards fail closed.

DO $ulid_time$
DECLARE
    ext pg_catalog.oid;
    nsp pg_catalog.oid;
    missing pg_catalog.text;
BEGIN
    SELECT e.oid, e.extnamespace INTO ext, nsp
    FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'ulid';

    IF NOT EXISTS (SELECT FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) d.objid
                   WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
                     AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
                     AND d.refobjid OPERATOR(pg_catalog.=) ext AND d.deptype OPERATOR(pg_catalog.=) 'e'
                     AND p.proname OPERATOR(pg_catalog.=) 'ulid_time_support'
                     AND p.pronamespace OPERATOR(pg_catalog.=) nsp
                     AND p.proargtypes OPERATOR(pg_catalog.=) '2281'::pg_catalog.oidvector) THEN
        CREATE FUNCTION ulid_time_support(pg_catalog.internal) RETURNS pg_catalog.internal
            AS 'MODULE_PATHNAME', 'ulid_time_support' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
        COMMENT ON FUNCTION ulid_time_support(pg_catalog.internal) IS
            'planner support of the ulid/timestamptz comparisons: rewrites them into ulid bounds';
        CREATE FUNCTION ulid_time_lower(pg_catalog.timestamptz, pg_catalog.text) RETURNS ulid
            AS 'MODULE_PATHNAME', 'ulid_time_lower' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
        COMMENT ON FUNCTION ulid_time_lower(pg_catalog.timestamptz, pg_catalog.text) IS
            'smallest ulid whose time satisfies time op t (op one of = < <= > >=)';
        CREATE FUNCTION ulid_time_upper(pg_catalog.timestamptz, pg_catalog.text) RETURNS ulid
            AS 'MODULE_PATHNAME', 'ulid_time_upper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
        COMMENT ON FUNCTION ulid_time_upper(pg_catalog.timestamptz, pg_catalog.text) IS
            'largest ulid whose time satisfies time op t (op one of = < <= > >=)';
        CREATE FUNCTION ulid_timestamptz_eq(ulid, pg_catalog.timestamptz) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'ulid_timestamptz_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
            SUPPORT ulid_time_support;
        CREATE FUNCTION timestamptz_ulid_eq(pg_catalog.timestamptz, ulid) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'timestamptz_ulid_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
            SUPPORT ulid_time_support;
        COMMENT ON FUNCTION ulid_timestamptz_eq(ulid, pg_catalog.timestamptz) IS 'implementation of = for ulid and timestamptz';
        COMMENT ON FUNCTION timestamptz_ulid_eq(pg_catalog.timestamptz, ulid) IS 'implementation of = for timestamptz and ulid';
        CREATE FUNCTION ulid_timestamptz_ne(ulid, pg_catalog.timestamptz) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'ulid_timestamptz_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
            SUPPORT ulid_time_support;
        CREATE FUNCTION timestamptz_ulid_ne(pg_catalog.timestamptz, ulid) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'timestamptz_ulid_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
            SUPPORT ulid_time_support;
        COMMENT ON FUNCTION ulid_timestamptz_ne(ulid, pg_catalog.timestamptz) IS 'implementation of <> for ulid and timestamptz';
        COMMENT ON FUNCTION timestamptz_ulid_ne(pg_catalog.timestamptz, ulid) IS 'implementation of <> for timestamptz and ulid';
        CREATE FUNCTION ulid_timestamptz_lt(ulid, pg_catalog.timestamptz) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'ulid_timestamptz_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
            SUPPORT ulid_time_support;
        CREATE FUNCTION timestamptz_ulid_lt(pg_catalog.timestamptz, ulid) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'timestamptz_ulid_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
            SUPPORT ulid_time_support;
        COMMENT ON FUNCTION ulid_timestamptz_lt(ulid, pg_catalog.timestamptz) IS 'implementation of < for ulid and timestamptz';
        COMMENT ON FUNCTION timestamptz_ulid_lt(pg_catalog.timestamptz, ulid) IS 'implementation of < for timestamptz and ulid';
        CREATE FUNCTION ulid_timestamptz_le(ulid, pg_catalog.timestamptz) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'ulid_timestamptz_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
            SUPPORT ulid_time_support;
        CREATE FUNCTION timestamptz_ulid_le(pg_catalog.timestamptz, ulid) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'timestamptz_ulid_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
            SUPPORT ulid_time_support;
        COMMENT ON FUNCTION ulid_timestamptz_le(ulid, pg_catalog.timestamptz) IS 'implementation of <= for ulid and timestamptz';
        COMMENT ON FUNCTION timestamptz_ulid_le(pg_catalog.timestamptz, ulid) IS 'implementation of <= for timestamptz and ulid';
        CREATE FUNCTION ulid_timestamptz_gt(ulid, pg_catalog.timestamptz) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'ulid_timestamptz_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
            SUPPORT ulid_time_support;
        CREATE FUNCTION timestamptz_ulid_gt(pg_catalog.timestamptz, ulid) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'timestamptz_ulid_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
            SUPPORT ulid_time_support;
        COMMENT ON FUNCTION ulid_timestamptz_gt(ulid, pg_catalog.timestamptz) IS 'implementation of > for ulid and timestamptz';
        COMMENT ON FUNCTION timestamptz_ulid_gt(pg_catalog.timestamptz, ulid) IS 'implementation of > for timestamptz and ulid';
        CREATE FUNCTION ulid_timestamptz_ge(ulid, pg_catalog.timestamptz) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'ulid_timestamptz_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
            SUPPORT ulid_time_support;
        CREATE FUNCTION timestamptz_ulid_ge(pg_catalog.timestamptz, ulid) RETURNS pg_catalog.bool
            AS 'MODULE_PATHNAME', 'timestamptz_ulid_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
            SUPPORT ulid_time_support;
        COMMENT ON FUNCTION ulid_timestamptz_ge(ulid, pg_catalog.timestamptz) IS 'implementation of >= for ulid and timestamptz';
        COMMENT ON FUNCTION timestamptz_ulid_ge(pg_catalog.timestamptz, ulid) IS 'implementation of >= for timestamptz and ulid';
        CREATE OPERATOR = (
            LEFTARG = ulid, RIGHTARG = pg_catalog.timestamptz, FUNCTION = ulid_timestamptz_eq,
            COMMUTATOR = =, NEGATOR = <>, RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel
        );
        CREATE OPERATOR = (
            LEFTARG = pg_catalog.timestamptz, RIGHTARG = ulid, FUNCTION = timestamptz_ulid_eq,
            COMMUTATOR = =, NEGATOR = <>, RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel
        );
        COMMENT ON OPERATOR =(ulid, pg_catalog.timestamptz) IS 'the id''s time is equal to the timestamp';
        COMMENT ON OPERATOR =(pg_catalog.timestamptz, ulid) IS 'the timestamp is equal to the id''s time';
        CREATE OPERATOR <> (
            LEFTARG = ulid, RIGHTARG = pg_catalog.timestamptz, FUNCTION = ulid_timestamptz_ne,
            COMMUTATOR = <>, NEGATOR = =, RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
        );
        CREATE OPERATOR <> (
            LEFTARG = pg_catalog.timestamptz, RIGHTARG = ulid, FUNCTION = timestamptz_ulid_ne,
            COMMUTATOR = <>, NEGATOR = =, RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
        );
        COMMENT ON OPERATOR <>(ulid, pg_catalog.timestamptz) IS 'the id''s time is not equal to the timestamp';
        COMMENT ON OPERATOR <>(pg_catalog.timestamptz, ulid) IS 'the timestamp is not equal to the id''s time';
        CREATE OPERATOR < (
            LEFTARG = ulid, RIGHTARG = pg_catalog.timestamptz, FUNCTION = ulid_timestamptz_lt,
            COMMUTATOR = >, NEGATOR = >=, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
        );
        CREATE OPERATOR < (
            LEFTARG = pg_catalog.timestamptz, RIGHTARG = ulid, FUNCTION = timestamptz_ulid_lt,
            COMMUTATOR = >, NEGATOR = >=, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
        );
        COMMENT ON OPERATOR <(ulid, pg_catalog.timestamptz) IS 'the id''s time is earlier than the timestamp';
        COMMENT ON OPERATOR <(pg_catalog.timestamptz, ulid) IS 'the timestamp is earlier than the id''s time';
        CREATE OPERATOR <= (
            LEFTARG = ulid, RIGHTARG = pg_catalog.timestamptz, FUNCTION = ulid_timestamptz_le,
            COMMUTATOR = >=, NEGATOR = >, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
        );
        CREATE OPERATOR <= (
            LEFTARG = pg_catalog.timestamptz, RIGHTARG = ulid, FUNCTION = timestamptz_ulid_le,
            COMMUTATOR = >=, NEGATOR = >, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
        );
        COMMENT ON OPERATOR <=(ulid, pg_catalog.timestamptz) IS 'the id''s time is at or before the timestamp';
        COMMENT ON OPERATOR <=(pg_catalog.timestamptz, ulid) IS 'the timestamp is at or before the id''s time';
        CREATE OPERATOR > (
            LEFTARG = ulid, RIGHTARG = pg_catalog.timestamptz, FUNCTION = ulid_timestamptz_gt,
            COMMUTATOR = <, NEGATOR = <=, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
        );
        CREATE OPERATOR > (
            LEFTARG = pg_catalog.timestamptz, RIGHTARG = ulid, FUNCTION = timestamptz_ulid_gt,
            COMMUTATOR = <, NEGATOR = <=, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
        );
        COMMENT ON OPERATOR >(ulid, pg_catalog.timestamptz) IS 'the id''s time is later than the timestamp';
        COMMENT ON OPERATOR >(pg_catalog.timestamptz, ulid) IS 'the timestamp is later than the id''s time';
        CREATE OPERATOR >= (
            LEFTARG = ulid, RIGHTARG = pg_catalog.timestamptz, FUNCTION = ulid_timestamptz_ge,
            COMMUTATOR = <=, NEGATOR = <, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
        );
        CREATE OPERATOR >= (
            LEFTARG = pg_catalog.timestamptz, RIGHTARG = ulid, FUNCTION = timestamptz_ulid_ge,
            COMMUTATOR = <=, NEGATOR = <, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
        );
        COMMENT ON OPERATOR >=(ulid, pg_catalog.timestamptz) IS 'the id''s time is at or after the timestamp';
        COMMENT ON OPERATOR >=(pg_catalog.timestamptz, ulid) IS 'the timestamp is at or after the id''s time';
    END IF;

    -- every object of 0.4.0: a member of the extension, in its schema, with exactly its signature
    SELECT pg_catalog.string_agg(x.object, ', ' ORDER BY x.object) INTO missing
    FROM (SELECT pg_catalog.format('function %s(%s)', f.name, f.args) AS object,
                 (SELECT p.oid FROM pg_catalog.pg_proc p
                  WHERE p.proname OPERATOR(pg_catalog.=) f.name AND p.pronamespace OPERATOR(pg_catalog.=) nsp
                    AND p.proargtypes OPERATOR(pg_catalog.=) f.types) AS oid,
                 'pg_catalog.pg_proc'::pg_catalog.regclass AS class
          FROM (SELECT 'ulid_time_support' AS name, 'internal' AS args, '2281'::pg_catalog.oidvector AS types
                UNION ALL SELECT n, 'timestamptz,text', '1184 25'::pg_catalog.oidvector
                          FROM pg_catalog.unnest(ARRAY['ulid_time_lower', 'ulid_time_upper']) n
                UNION ALL SELECT pg_catalog.format('ulid_timestamptz_%s', v), 'ulid,timestamptz',
                                 pg_catalog.format('%s 1184', t.oid)::pg_catalog.oidvector
                          FROM pg_catalog.unnest(ARRAY['eq', 'ne', 'lt', 'le', 'gt', 'ge']) v,
                               pg_catalog.pg_type t
                          WHERE t.typname OPERATOR(pg_catalog.=) 'ulid' AND t.typnamespace OPERATOR(pg_catalog.=) nsp
                UNION ALL SELECT pg_catalog.format('timestamptz_ulid_%s', v), 'timestamptz,ulid',
                                 pg_catalog.format('1184 %s', t.oid)::pg_catalog.oidvector
                          FROM pg_catalog.unnest(ARRAY['eq', 'ne', 'lt', 'le', 'gt', 'ge']) v,
                               pg_catalog.pg_type t
                          WHERE t.typname OPERATOR(pg_catalog.=) 'ulid' AND t.typnamespace OPERATOR(pg_catalog.=) nsp) f
          UNION ALL
          SELECT pg_catalog.format('operator %s(%s)', o.name, o.args),
                 (SELECT x.oid FROM pg_catalog.pg_operator x
                  WHERE x.oprname OPERATOR(pg_catalog.=) o.name AND x.oprnamespace OPERATOR(pg_catalog.=) nsp
                    AND x.oprleft OPERATOR(pg_catalog.=) o.l AND x.oprright OPERATOR(pg_catalog.=) o.r),
                 'pg_catalog.pg_operator'::pg_catalog.regclass
          FROM (SELECT s AS name, 'ulid,timestamptz' AS args, t.oid AS l, 1184::pg_catalog.oid AS r
                FROM pg_catalog.unnest(ARRAY['=', '<>', '<', '<=', '>', '>=']) s, pg_catalog.pg_type t
                WHERE t.typname OPERATOR(pg_catalog.=) 'ulid' AND t.typnamespace OPERATOR(pg_catalog.=) nsp
                UNION ALL
                SELECT s, 'timestamptz,ulid', 1184::pg_catalog.oid, t.oid
                FROM pg_catalog.unnest(ARRAY['=', '<>', '<', '<=', '>', '>=']) s, pg_catalog.pg_type t
                WHERE t.typname OPERATOR(pg_catalog.=) 'ulid' AND t.typnamespace OPERATOR(pg_catalog.=) nsp) o) x
    WHERE x.oid IS NULL
       OR NOT EXISTS (SELECT FROM pg_catalog.pg_depend d
                      WHERE d.classid OPERATOR(pg_catalog.=) x.class AND d.objid OPERATOR(pg_catalog.=) x.oid
                        AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
                        AND d.refobjid OPERATOR(pg_catalog.=) ext AND d.deptype OPERATOR(pg_catalog.=) 'e');
    IF missing IS NOT NULL OR ext IS NULL THEN
        RAISE EXCEPTION 'extension ulid is not as its scripts made it: it lacks %', COALESCE(missing, 'itself')
            USING ERRCODE = 'duplicate_object',
                  HINT = 'Nothing was changed. docs/security.md (A refused update) shows how to find and remove objects that are not the extension''s own.';
    END IF;
END
$ulid_time$;
