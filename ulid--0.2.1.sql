-- ulid 0.2.1: the ulid type, its I/O, operators, index support, casts, aggregates and generators.
--
-- Safe against search_path tricks: every built-in object is named with pg_catalog, operators
-- included (OPERATOR(pg_catalog.>=)); our own objects are created and found in the extension's
-- schema, which CREATE EXTENSION puts first (test/suites/script_rules.sh checks both).
-- Every operator family is created explicitly before its class: CREATE OPERATOR CLASS without
-- FAMILY would silently adopt a family of the same name left in the schema; CREATE OPERATOR FAMILY
-- refuses one (42710) instead.

\echo Use "CREATE EXTENSION ulid" to load this file. \quit

-- A trusted extension's script runs as the bootstrap superuser, and CREATE EXTENSION ... SCHEMA
-- does not itself check the installing role's CREATE privilege on the target schema. Without this
-- guard a role with only CREATE on the database could plant these objects in pg_catalog or in
-- another role's schema. The installing role and the target schema are read from the pg_extension
-- row that CREATE EXTENSION inserts before it runs this script (extowner is the calling role, also
-- for a trusted install); nothing here is substituted into the script's text. No row, a NULL or a
-- missing privilege all refuse.
DO $ulid_guard$
BEGIN
    IF (SELECT pg_catalog.has_schema_privilege(e.extowner, e.extnamespace, 'CREATE')
        FROM pg_catalog.pg_extension e
        WHERE e.extname OPERATOR(pg_catalog.=) 'ulid') IS NOT TRUE THEN
        RAISE EXCEPTION 'permission denied for schema %', pg_catalog.current_schema()
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = 'Installing ulid needs the CREATE privilege on the target schema.';
    END IF;
END
$ulid_guard$;

-- ---------------------------------------------------------------------------------------------
-- The type and its I/O
-- ---------------------------------------------------------------------------------------------
CREATE TYPE ulid;

CREATE FUNCTION ulid_in(pg_catalog.cstring) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_out(ulid) RETURNS pg_catalog.cstring
    AS 'MODULE_PATHNAME', 'ulid_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_recv(pg_catalog.internal) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_send(ulid) RETURNS pg_catalog.bytea
    AS 'MODULE_PATHNAME', 'ulid_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE ulid (
    INPUT = ulid_in,
    OUTPUT = ulid_out,
    RECEIVE = ulid_recv,
    SEND = ulid_send,
    INTERNALLENGTH = 16,
    ALIGNMENT = char,
    STORAGE = plain
);

COMMENT ON TYPE ulid IS
    'ULID: 48-bit Unix milliseconds + 80 random bits, 26 Crockford Base32 characters; the bytes of a uuid';
COMMENT ON FUNCTION ulid_in(pg_catalog.cstring) IS 'text input of ulid (26 Crockford Base32 characters)';
COMMENT ON FUNCTION ulid_out(ulid) IS 'text output of ulid (26 uppercase characters)';
COMMENT ON FUNCTION ulid_recv(pg_catalog.internal) IS 'binary input of ulid (16 bytes)';
COMMENT ON FUNCTION ulid_send(ulid) IS 'binary output of ulid (16 bytes)';

-- ---------------------------------------------------------------------------------------------
-- Comparison operators (byte order = time order)
-- ---------------------------------------------------------------------------------------------
CREATE FUNCTION ulid_eq(ulid, ulid) RETURNS pg_catalog.bool
    AS 'MODULE_PATHNAME', 'ulid_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ne(ulid, ulid) RETURNS pg_catalog.bool
    AS 'MODULE_PATHNAME', 'ulid_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_lt(ulid, ulid) RETURNS pg_catalog.bool
    AS 'MODULE_PATHNAME', 'ulid_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_le(ulid, ulid) RETURNS pg_catalog.bool
    AS 'MODULE_PATHNAME', 'ulid_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_gt(ulid, ulid) RETURNS pg_catalog.bool
    AS 'MODULE_PATHNAME', 'ulid_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ge(ulid, ulid) RETURNS pg_catalog.bool
    AS 'MODULE_PATHNAME', 'ulid_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION ulid_eq(ulid, ulid) IS 'implementation of = for ulid';
COMMENT ON FUNCTION ulid_ne(ulid, ulid) IS 'implementation of <> for ulid';
COMMENT ON FUNCTION ulid_lt(ulid, ulid) IS 'implementation of < for ulid';
COMMENT ON FUNCTION ulid_le(ulid, ulid) IS 'implementation of <= for ulid';
COMMENT ON FUNCTION ulid_gt(ulid, ulid) IS 'implementation of > for ulid';
COMMENT ON FUNCTION ulid_ge(ulid, ulid) IS 'implementation of >= for ulid';

CREATE OPERATOR = (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_eq,
    COMMUTATOR = =, NEGATOR = <>,
    RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, MERGES, HASHES
);
CREATE OPERATOR <> (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_ne,
    COMMUTATOR = <>, NEGATOR = =,
    RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_lt,
    COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_le,
    COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_gt,
    COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_ge,
    COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

COMMENT ON OPERATOR =(ulid, ulid) IS 'equal';
COMMENT ON OPERATOR <>(ulid, ulid) IS 'not equal';
COMMENT ON OPERATOR <(ulid, ulid) IS 'less than (earlier)';
COMMENT ON OPERATOR <=(ulid, ulid) IS 'less than or equal';
COMMENT ON OPERATOR >(ulid, ulid) IS 'greater than (later)';
COMMENT ON OPERATOR >=(ulid, ulid) IS 'greater than or equal';

-- ---------------------------------------------------------------------------------------------
-- B-tree: comparison, sort support with abbreviated keys, deduplication (btequalimage)
-- ---------------------------------------------------------------------------------------------
CREATE FUNCTION ulid_cmp(ulid, ulid) RETURNS pg_catalog.int4
    AS 'MODULE_PATHNAME', 'ulid_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_sortsupport(pg_catalog.internal) RETURNS pg_catalog.void
    AS 'MODULE_PATHNAME', 'ulid_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_cmp(ulid, ulid) IS 'b-tree comparison of ulid (-1, 0, 1 by sign)';
COMMENT ON FUNCTION ulid_sortsupport(pg_catalog.internal) IS 'sort support of ulid (abbreviated keys)';

CREATE OPERATOR FAMILY ulid_ops USING btree;
CREATE OPERATOR CLASS ulid_ops DEFAULT FOR TYPE ulid USING btree FAMILY ulid_ops AS
    OPERATOR 1 < ,
    OPERATOR 2 <= ,
    OPERATOR 3 = ,
    OPERATOR 4 >= ,
    OPERATOR 5 > ,
    FUNCTION 1 ulid_cmp(ulid, ulid),
    FUNCTION 2 ulid_sortsupport(pg_catalog.internal),
    FUNCTION 4 pg_catalog.btequalimage(pg_catalog.oid);

COMMENT ON OPERATOR FAMILY ulid_ops USING btree IS 'b-tree operators of ulid';
COMMENT ON OPERATOR CLASS ulid_ops USING btree IS 'default b-tree operator class of ulid';

-- ---------------------------------------------------------------------------------------------
-- Hash: the same hashes as uuid (hash joins, hash aggregation, PARTITION BY HASH)
-- ---------------------------------------------------------------------------------------------
CREATE FUNCTION ulid_hash(ulid) RETURNS pg_catalog.int4
    AS 'MODULE_PATHNAME', 'ulid_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_hash_extended(ulid, pg_catalog.int8) RETURNS pg_catalog.int8
    AS 'MODULE_PATHNAME', 'ulid_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION ulid_hash(ulid) IS '32-bit hash of ulid';
COMMENT ON FUNCTION ulid_hash_extended(ulid, pg_catalog.int8) IS 'seeded 64-bit hash of ulid';

CREATE OPERATOR FAMILY ulid_ops USING hash;
CREATE OPERATOR CLASS ulid_ops DEFAULT FOR TYPE ulid USING hash FAMILY ulid_ops AS
    OPERATOR 1 = ,
    FUNCTION 1 ulid_hash(ulid),
    FUNCTION 2 ulid_hash_extended(ulid, pg_catalog.int8);

COMMENT ON OPERATOR FAMILY ulid_ops USING hash IS 'hash operators of ulid';
COMMENT ON OPERATOR CLASS ulid_ops USING hash IS 'default hash operator class of ulid';

-- ---------------------------------------------------------------------------------------------
-- BRIN: minmax (default); minmax-multi and bloom where the server has them (14+)
-- ---------------------------------------------------------------------------------------------
-- What exists depends on the server's major at CREATE EXTENSION time (here: minmax-multi and bloom
-- from 14, skip support below from 18). After pg_upgrade to a newer major, the update to
-- '0.2.1+refresh' and back (docs/upgrading.md) adds what the new major allows.
CREATE OPERATOR FAMILY ulid_minmax_ops USING brin;
CREATE OPERATOR CLASS ulid_minmax_ops DEFAULT FOR TYPE ulid USING brin FAMILY ulid_minmax_ops AS
    OPERATOR 1 < ,
    OPERATOR 2 <= ,
    OPERATOR 3 = ,
    OPERATOR 4 >= ,
    OPERATOR 5 > ,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(pg_catalog.internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(pg_catalog.internal, pg_catalog.internal,
                                                pg_catalog.internal, pg_catalog.internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(pg_catalog.internal, pg_catalog.internal,
                                                 pg_catalog.internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(pg_catalog.internal, pg_catalog.internal,
                                            pg_catalog.internal);

COMMENT ON OPERATOR FAMILY ulid_minmax_ops USING brin IS 'BRIN minmax operators of ulid';
COMMENT ON OPERATOR CLASS ulid_minmax_ops USING brin IS 'default BRIN operator class of ulid (block ranges by min and max)';

CREATE FUNCTION ulid_brin_minmax_multi_distance(pg_catalog.internal, pg_catalog.internal)
    RETURNS pg_catalog.float8
    AS 'MODULE_PATHNAME', 'ulid_brin_minmax_multi_distance' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_brin_minmax_multi_distance(pg_catalog.internal, pg_catalog.internal) IS
    'distance between two ulid values for BRIN minmax-multi';

DO $do$
BEGIN
    IF pg_catalog.current_setting('server_version_num')::pg_catalog.int4 OPERATOR(pg_catalog.>=) 140000 THEN
        CREATE OPERATOR FAMILY ulid_minmax_multi_ops USING brin;
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

        CREATE OPERATOR FAMILY ulid_bloom_ops USING brin;
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

    -- B-tree skip support (PostgreSQL 18+): lets skip scans step from one value to the next.
    IF pg_catalog.current_setting('server_version_num')::pg_catalog.int4 OPERATOR(pg_catalog.>=) 180000 THEN
        CREATE FUNCTION ulid_skipsupport(pg_catalog.internal) RETURNS pg_catalog.void
            AS 'MODULE_PATHNAME', 'ulid_skipsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
        COMMENT ON FUNCTION ulid_skipsupport(pg_catalog.internal) IS 'b-tree skip support of ulid';
        ALTER OPERATOR FAMILY ulid_ops USING btree
            ADD FUNCTION 6 (ulid, ulid) ulid_skipsupport(pg_catalog.internal);
    END IF;
END
$do$;

-- ---------------------------------------------------------------------------------------------
-- min(ulid) and max(ulid), answered from a b-tree index through SORTOP
-- ---------------------------------------------------------------------------------------------
CREATE FUNCTION ulid_smaller(ulid, ulid) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_larger(ulid, ulid) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_smaller(ulid, ulid) IS 'the smaller of two ulid values';
COMMENT ON FUNCTION ulid_larger(ulid, ulid) IS 'the larger of two ulid values';

CREATE AGGREGATE min(ulid) (
    SFUNC = ulid_smaller, STYPE = ulid, COMBINEFUNC = ulid_smaller, SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(ulid) (
    SFUNC = ulid_larger, STYPE = ulid, COMBINEFUNC = ulid_larger, SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(ulid) IS 'smallest (earliest) ulid';
COMMENT ON AGGREGATE max(ulid) IS 'largest (latest) ulid';

-- ---------------------------------------------------------------------------------------------
-- Time
-- ---------------------------------------------------------------------------------------------
CREATE FUNCTION ulid_to_timestamp(ulid) RETURNS pg_catalog.timestamptz
    AS 'MODULE_PATHNAME', 'ulid_to_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_min(pg_catalog.timestamptz) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_min' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_max(pg_catalog.timestamptz) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_max' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_to_timestamp(ulid) IS 'the time embedded in a ulid (millisecond precision)';
COMMENT ON FUNCTION ulid_min(pg_catalog.timestamptz) IS 'smallest ulid of the millisecond holding a time (range bound)';
COMMENT ON FUNCTION ulid_max(pg_catalog.timestamptz) IS 'largest ulid of the millisecond holding a time (range bound)';

-- ---------------------------------------------------------------------------------------------
-- Generators
-- ---------------------------------------------------------------------------------------------
CREATE FUNCTION gen_ulid() RETURNS ulid
    AS 'MODULE_PATHNAME', 'gen_ulid' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
CREATE FUNCTION gen_ulid(pg_catalog.timestamptz) RETURNS ulid
    AS 'MODULE_PATHNAME', 'gen_ulid_at' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
CREATE FUNCTION gen_random_ulid() RETURNS ulid
    AS 'MODULE_PATHNAME', 'gen_random_ulid' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION gen_monotonic_ulid() RETURNS ulid
    AS 'MODULE_PATHNAME', 'gen_monotonic_ulid' LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION gen_ulid() IS
    'new ulid, strictly increasing within this session (same millisecond: previous + 1)';
COMMENT ON FUNCTION gen_ulid(pg_catalog.timestamptz) IS
    'new ulid at the given time with fresh random entropy (for backfills; not monotonic)';
COMMENT ON FUNCTION gen_random_ulid() IS
    'new ulid at the current time with fresh random entropy every call';
COMMENT ON FUNCTION gen_monotonic_ulid() IS
    'new ulid, strictly increasing across all sessions of the server (shared state)';

-- ---------------------------------------------------------------------------------------------
-- Casts (none implicit)
-- ---------------------------------------------------------------------------------------------
CREATE FUNCTION ulid_to_text(ulid) RETURNS pg_catalog.text
    AS 'MODULE_PATHNAME', 'ulid_to_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_from_text(pg_catalog.text) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_from_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_to_bytea(ulid) RETURNS pg_catalog.bytea
    AS 'MODULE_PATHNAME', 'ulid_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_from_bytea(pg_catalog.bytea) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_to_text(ulid) IS 'the 26-character text of a ulid';
COMMENT ON FUNCTION ulid_from_text(pg_catalog.text) IS 'parse 26 Crockford Base32 characters as a ulid';
COMMENT ON FUNCTION ulid_to_bytea(ulid) IS 'the 16 bytes of a ulid';
COMMENT ON FUNCTION ulid_from_bytea(pg_catalog.bytea) IS 'a ulid from exactly 16 bytes';

CREATE CAST (ulid AS pg_catalog.uuid) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (pg_catalog.uuid AS ulid) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (ulid AS pg_catalog.text) WITH FUNCTION ulid_to_text(ulid) AS ASSIGNMENT;
CREATE CAST (pg_catalog.text AS ulid) WITH FUNCTION ulid_from_text(pg_catalog.text);
CREATE CAST (ulid AS pg_catalog.timestamptz) WITH FUNCTION ulid_to_timestamp(ulid);
CREATE CAST (pg_catalog.timestamptz AS ulid) WITH FUNCTION ulid_min(pg_catalog.timestamptz);
CREATE CAST (ulid AS pg_catalog.bytea) WITH FUNCTION ulid_to_bytea(ulid);
CREATE CAST (pg_catalog.bytea AS ulid) WITH FUNCTION ulid_from_bytea(pg_catalog.bytea);

COMMENT ON CAST (ulid AS pg_catalog.uuid) IS 'same 16 bytes, no change';
COMMENT ON CAST (pg_catalog.uuid AS ulid) IS 'same 16 bytes, no change';
COMMENT ON CAST (ulid AS pg_catalog.text) IS 'the 26-character form';
COMMENT ON CAST (pg_catalog.text AS ulid) IS 'parse the 26-character form';
COMMENT ON CAST (ulid AS pg_catalog.timestamptz) IS 'the embedded time';
COMMENT ON CAST (pg_catalog.timestamptz AS ulid) IS 'smallest ulid of that millisecond';
COMMENT ON CAST (ulid AS pg_catalog.bytea) IS 'the 16 bytes';
COMMENT ON CAST (pg_catalog.bytea AS ulid) IS 'exactly 16 bytes';
