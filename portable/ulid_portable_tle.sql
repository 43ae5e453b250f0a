-- portable/ulid_portable_tle.sql: the portable edition of ulid as the pg_tle extension ulid_portable
-- (versions 0.5.0, 0.6.0; 0.6.0 is the default, with an update to it from each earlier one).
-- Made by scripts/portable-tle from portable/ulid_portable.sql, portable/tle/ and the earlier
-- releases: do not edit, run scripts/portable-tle.
--
-- Run it as a role in pgtle_admin (no superuser needed), where pg_tle is installed:
--     psql -v ON_ERROR_STOP=1 -f portable/ulid_portable_tle.sql
-- It can be run again: what is registered already is checked to be the same text and left
-- alone. Then, as a role with CREATE on the database:
--     CREATE EXTENSION ulid_portable CASCADE;     -- CASCADE also creates pgcrypto
--     ALTER EXTENSION ulid_portable UPDATE;       -- after registering a later version
-- See docs/portable.md.

BEGIN;

-- portable/tle/register.sql: the function that portable/ulid_portable_tle.sql calls once for each
-- script it registers with pg_tle (scripts/portable-tle writes it into that file first). It lives
-- in pg_temp, so it is gone with the session, and it calls pg_tle's functions by exact signature
-- in pg_tle's own schema, which it finds through the extension (never through search_path).
--
--   register('install', NULL, V, script)   version V's install script
--   register('update', F, V, script)       the update from F to V
--   register('default', NULL, V, NULL)     make V what CREATE EXTENSION and ALTER ... UPDATE pick
--
-- A script already registered is left alone when it is the same text, and refused (55000) when
-- it is not: a version never changes, so a different script under our name and version is someone
-- else's, or a damaged registration. The name ulid_portable registered with another description
-- or without pgcrypto among its requirements is refused the same way.

CREATE FUNCTION pg_temp.ulid_portable_register(kind pg_catalog.text, from_version pg_catalog.text,
                                               to_version pg_catalog.text, script pg_catalog.text)
RETURNS pg_catalog.text LANGUAGE plpgsql AS $register$
DECLARE
    edition_description constant pg_catalog.text :=
        'ULIDs stored as uuid, in SQL and PL/pgSQL: the portable edition of the ulid extension';
    tle_nsp pg_catalog.name := (SELECT n.nspname FROM pg_catalog.pg_extension e
                                JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
                                WHERE e.extname OPERATOR(pg_catalog.=) 'pg_tle');
    fn pg_catalog.text;
    registered pg_catalog.text;
    known pg_catalog.bool;
BEGIN
    IF tle_nsp IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = '0A000',
            MESSAGE = 'pg_tle is not installed in this database',
            HINT = 'A superuser adds pg_tle to shared_preload_libraries, runs CREATE EXTENSION pg_tle and grants pgtle_admin to the role that runs this file.';
    END IF;
    IF tle_nsp OPERATOR(pg_catalog.<>) 'pgtle' THEN
        RAISE EXCEPTION USING ERRCODE = '55000',
            MESSAGE = pg_catalog.format('pg_tle is installed in schema %I, not in its own schema pgtle', tle_nsp);
    END IF;

    IF kind OPERATOR(pg_catalog.=) 'default' THEN
        PERFORM pgtle.set_default_version(name => 'ulid_portable'::pg_catalog.text,
                                          version => to_version::pg_catalog.text);
        RETURN pg_catalog.format('ulid_portable: default version %s', to_version);
    END IF;

    -- Is ulid_portable registered, and is it ours?
    known := EXISTS (SELECT FROM pgtle.available_extensions() a WHERE a.name OPERATOR(pg_catalog.=) 'ulid_portable');
    IF known AND NOT EXISTS (
            SELECT FROM pgtle.available_extensions() a
            WHERE a.name OPERATOR(pg_catalog.=) 'ulid_portable'
              AND a.comment OPERATOR(pg_catalog.=) edition_description) THEN
        RAISE EXCEPTION USING ERRCODE = '55000',
            MESSAGE = 'an extension named ulid_portable is registered with pg_tle, and it is not this one',
            DETAIL = 'Its description differs from that of the portable edition of ulid.',
            HINT = 'Look at pgtle.available_extensions(); pgtle.uninstall_extension(''ulid_portable'') removes it.';
    END IF;

    IF kind OPERATOR(pg_catalog.=) 'install' THEN
        fn := pg_catalog.format('ulid_portable--%s.sql', to_version);
    ELSIF kind OPERATOR(pg_catalog.=) 'update' THEN
        fn := pg_catalog.format('ulid_portable--%s--%s.sql', from_version, to_version);
    ELSE
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = pg_catalog.format('unknown kind %L', kind);
    END IF;

    -- pg_tle keeps each script as a function of that name in its schema, returning the text.
    IF EXISTS (SELECT FROM pg_catalog.pg_proc p
               WHERE p.proname OPERATOR(pg_catalog.=) fn
                 AND p.pronamespace OPERATOR(pg_catalog.=) 'pgtle'::pg_catalog.regnamespace
                 AND p.pronargs OPERATOR(pg_catalog.=) 0) THEN
        EXECUTE pg_catalog.format('SELECT pgtle.%I()', fn) INTO registered;
        IF (registered OPERATOR(pg_catalog.=) script) IS NOT TRUE THEN
            RAISE EXCEPTION USING ERRCODE = '55000',
                MESSAGE = pg_catalog.format('%s is registered with pg_tle with another text', fn),
                DETAIL = 'A released version of the portable edition never changes.',
                HINT = 'Look at what registered it; pgtle.uninstall_extension(''ulid_portable'') removes every version.';
        END IF;
        RETURN pg_catalog.format('%s: already registered', fn);
    END IF;

    IF kind OPERATOR(pg_catalog.=) 'update' THEN
        PERFORM pgtle.install_update_path(name => 'ulid_portable'::pg_catalog.text,
                                          fromvers => from_version::pg_catalog.text,
                                          tovers => to_version::pg_catalog.text,
                                          ext => script::pg_catalog.text);
    ELSIF known THEN
        PERFORM pgtle.install_extension_version_sql(name => 'ulid_portable'::pg_catalog.text,
                                                    version => to_version::pg_catalog.text,
                                                    ext => script::pg_catalog.text);
    ELSE
        PERFORM pgtle.install_extension(name => 'ulid_portable'::pg_catalog.text,
                                        version => to_version::pg_catalog.text,
                                        description => edition_description::pg_catalog.text,
                                        ext => script::pg_catalog.text,
                                        requires => ARRAY['pgcrypto']::pg_catalog.text[]);
    END IF;
    RETURN pg_catalog.format('%s: registered', fn);
END
$register$;

SELECT pg_temp.ulid_portable_register('install', NULL, '0.5.0', $ulid_tle_0_5_0$-- portable/ulid_portable.sql: ULIDs in plain SQL and PL/pgSQL, stored as uuid (PostgreSQL 13 and later).
--
-- For servers that cannot load the native ulid extension (managed services). Install with
--     psql -v ON_ERROR_STOP=1 -f portable/ulid_portable.sql
-- (or paste it into any SQL console) as a role with CREATE on the database; it needs no
-- superuser, no C and no other extension (ulid_encrypt and ulid_decrypt use pgcrypto if it is
-- there). Everything lives in the schema ulid_portable, so it never collides with the native
-- extension, and it can be run again to update the functions.
--
-- A ULID is kept in a uuid column: the same 16 bytes the native type holds (48-bit Unix
-- milliseconds, then 80 bits of entropy, big-endian), so `ALTER TABLE ... ALTER COLUMN id TYPE ulid`
-- later moves a table to the native extension without rewriting it. The functions follow the
-- native extension's rules, errors (SQLSTATE, message and DETAIL) included:
--
--   gen_ulid() -> uuid                  strictly increasing within a session (VOLATILE, PARALLEL UNSAFE)
--   gen_random_ulid() -> uuid           current time, fresh random entropy (VOLATILE, PARALLEL SAFE)
--   gen_ulid(timestamptz) -> uuid       that millisecond, fresh random entropy (backfills)
--   ulid_encode(uuid) -> text           26 uppercase Crockford Base32 characters    (IMMUTABLE)
--   ulid_decode(text) -> uuid           case-insensitive, I/L -> 1, O -> 0; 22P02   (IMMUTABLE)
--   ulid_to_timestamp(uuid) -> timestamptz, ulid_min(timestamptz), ulid_max(timestamptz) (IMMUTABLE)
--   ulid_encrypt(uuid, key bytea) -> uuid, ulid_decrypt(uuid, key bytea) -> uuid   public ids: AES
--                                       of the 16 bytes through pgcrypto, if installed (STABLE)
--
-- gen_ulid() keeps its per-session state (the last value) in two temporary sequences,
-- pg_temp.ulid_portable_hi and pg_temp.ulid_portable_lo, written with setval(). Sequences are not
-- transactional: a value handed out by a transaction or savepoint that is rolled back is still the
-- state the next call increments, so no value is ever repeated and the order holds across ROLLBACK
-- (a custom setting would be rolled back with the transaction and could repeat values). The first
-- call of a session creates them (that needs the TEMP privilege and a writable transaction) and
-- waits for the next millisecond, so that a state lost with a rolled-back first transaction (or
-- DISCARD TEMP) does not repeat a value of the current millisecond. That holds only while the
-- clock does not go back: a state lost after the clock stepped back can give values below ones the
-- session handed out before. The sequences are granted to PUBLIC so that every role the session
-- switches to (SET ROLE, a pooler's role per request) shares one order; it follows that any of
-- those roles can also rewind or spoil that order (setval on them: lower or repeated values, or
-- 54000 on every later call). Where that matters, use the native extension, or gen_random_ulid().
-- Consequences: gen_ulid() is PARALLEL UNSAFE, does not run on a standby, and a transaction that
-- used it cannot be PREPAREd (two-phase commit); gen_random_ulid() has none of these limits.
--
-- Security: every function is SECURITY INVOKER and refers to built-ins as pg_catalog.name and
-- OPERATOR(pg_catalog.op), and to its own objects schema-qualified, so no search_path (a caller's
-- or a planted one) changes what they call. The script refuses (42501) a schema ulid_portable that
-- the installing role does not own itself, or that holds an object owned by another role: being a
-- superuser or a member of the owner's role is not enough (CREATE OR REPLACE FUNCTION keeps a
-- function's owner, who could rewrite it after a superuser "installed" it). The schema's owner is
-- checked first, every object in it last, before COMMIT.


CREATE SCHEMA IF NOT EXISTS ulid_portable;

DO $guard$
DECLARE
    installer pg_catalog.oid := (SELECT r.oid FROM pg_catalog.pg_roles r
                                 WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER);
    nsp_owner pg_catalog.oid;
BEGIN
    IF (pg_catalog.current_setting('server_version_num')::pg_catalog.int4 OPERATOR(pg_catalog.>=) 130000) IS NOT TRUE THEN
        RAISE EXCEPTION USING ERRCODE = '0A000',
            MESSAGE = 'ulid_portable needs PostgreSQL 13 or later (core gen_random_uuid())';
    END IF;
    SELECT n.nspowner INTO nsp_owner
    FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) 'ulid_portable';
    IF (nsp_owner OPERATOR(pg_catalog.=) installer) IS NOT TRUE THEN
        RAISE EXCEPTION USING ERRCODE = '42501',
            MESSAGE = 'schema ulid_portable exists and is not owned by the installing role',
            DETAIL = pg_catalog.format('It is owned by %s; the installing role is %s.',
                                       nsp_owner::pg_catalog.regrole, CURRENT_USER),
            HINT = 'Drop it, or run this script as its owner.';
    END IF;
END
$guard$;

GRANT USAGE ON SCHEMA ulid_portable TO PUBLIC;

COMMENT ON SCHEMA ulid_portable IS
    'portable ULID functions (SQL and PL/pgSQL, values stored as uuid); see README "On managed services"';

-- ---------------------------------------------------------------------------------------------
-- Time: timestamptz <-> Unix milliseconds, with the native extension's range errors
-- ---------------------------------------------------------------------------------------------

-- The Unix millisecond holding ts (rounded down), from timestamptz_send's exact microsecond count
-- since 2000-01-01 UTC (independent of TimeZone and of floating point). 22008 when ts is infinite,
-- before 1970-01-01 UTC or after 10889-08-02 05:31:50.655 UTC (the 48-bit limit).
CREATE OR REPLACE FUNCTION ulid_portable.unix_ms(ts pg_catalog.timestamptz) RETURNS pg_catalog.int8
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
DECLARE
    -- microseconds since 2000-01-01 00:00:00 UTC
    us pg_catalog.int8 := (('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.timestamptz_send(ts), 'hex'))
                           ::pg_catalog.bit(64))::pg_catalog.int8;
    range_detail constant pg_catalog.text :=
        'A ULID holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.';
BEGIN
    IF NOT pg_catalog.isfinite(ts) THEN
        RAISE EXCEPTION USING ERRCODE = '22008', MESSAGE = 'timestamp out of range for ulid',
            DETAIL = 'An infinite timestamp has no ULID. ' OPERATOR(pg_catalog.||) range_detail;
    END IF;
    -- 946684800000000 = microseconds from 1970 to 2000; compare before adding (no int8 overflow:
    -- 9222425352054775807 = 2^63 - 1 - 946684800000000). OPERATOR(...) forms all share one
    -- precedence and associate to the left: every expression here is parenthesized.
    IF us OPERATOR(pg_catalog.<) -946684800000000
       OR us OPERATOR(pg_catalog.>) 9222425352054775807
       OR ((us OPERATOR(pg_catalog.+) 946684800000000) OPERATOR(pg_catalog./) 1000)
          OPERATOR(pg_catalog.>) 281474976710655 THEN
        RAISE EXCEPTION USING ERRCODE = '22008', MESSAGE = 'timestamp out of range for ulid',
            DETAIL = range_detail;
    END IF;
    RETURN (us OPERATOR(pg_catalog.+) 946684800000000) OPERATOR(pg_catalog./) 1000;
END
$fn$;

COMMENT ON FUNCTION ulid_portable.unix_ms(pg_catalog.timestamptz) IS
    'the Unix millisecond holding a time, as a ULID stores it (22008 outside the ULID range)';

-- The Unix millisecond stored in a ULID (its first 6 bytes).
CREATE OR REPLACE FUNCTION ulid_portable.ulid_ms(id pg_catalog.uuid) RETURNS pg_catalog.int8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT (('x' OPERATOR(pg_catalog.||) pg_catalog.left(pg_catalog.encode(pg_catalog.uuid_send($1), 'hex'), 12))
        ::pg_catalog.bit(48))::pg_catalog.int8
$fn$;

-- A Unix millisecond as timestamptz: whole seconds (exact in float8) plus the remaining
-- milliseconds, added to 1970-01-01 as a timestamp and read as UTC (all immutable, no rounding).
CREATE OR REPLACE FUNCTION ulid_portable.ms_to_timestamp(ms pg_catalog.int8) RETURNS pg_catalog.timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT pg_catalog.timezone('UTC', '1970-01-01 00:00:00'::pg_catalog.timestamp
    OPERATOR(pg_catalog.+) pg_catalog.make_interval(secs => ($1 OPERATOR(pg_catalog./) 1000)::pg_catalog.float8)
    OPERATOR(pg_catalog.+) (($1 OPERATOR(pg_catalog.%) 1000)::pg_catalog.float8
                            OPERATOR(pg_catalog.*) '0.001 seconds'::pg_catalog.interval))
$fn$;

CREATE OR REPLACE FUNCTION ulid_portable.ulid_to_timestamp(id pg_catalog.uuid) RETURNS pg_catalog.timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT ulid_portable.ms_to_timestamp(ulid_portable.ulid_ms($1))
$fn$;

CREATE OR REPLACE FUNCTION ulid_portable.ulid_min(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT (pg_catalog.encode(pg_catalog.substr(pg_catalog.int8send(ulid_portable.unix_ms($1)), 3, 6), 'hex')
        OPERATOR(pg_catalog.||) '00000000000000000000')::pg_catalog.uuid
$fn$;

CREATE OR REPLACE FUNCTION ulid_portable.ulid_max(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT (pg_catalog.encode(pg_catalog.substr(pg_catalog.int8send(ulid_portable.unix_ms($1)), 3, 6), 'hex')
        OPERATOR(pg_catalog.||) 'ffffffffffffffffffff')::pg_catalog.uuid
$fn$;

COMMENT ON FUNCTION ulid_portable.ulid_ms(pg_catalog.uuid) IS
    'the Unix millisecond stored in a ULID';
COMMENT ON FUNCTION ulid_portable.ms_to_timestamp(pg_catalog.int8) IS
    'a Unix millisecond as timestamptz (exact)';
COMMENT ON FUNCTION ulid_portable.ulid_to_timestamp(pg_catalog.uuid) IS
    'the time embedded in a ULID (millisecond precision)';
COMMENT ON FUNCTION ulid_portable.ulid_min(pg_catalog.timestamptz) IS
    'smallest ULID of the millisecond holding a time (range bound)';
COMMENT ON FUNCTION ulid_portable.ulid_max(pg_catalog.timestamptz) IS
    'largest ULID of the millisecond holding a time (range bound)';

-- ---------------------------------------------------------------------------------------------
-- Generators
-- ---------------------------------------------------------------------------------------------

-- A ULID at millisecond ms with 80 random bits: bytes 0-2 and 9-15 of a version-4 uuid from
-- gen_random_uuid() (pg_strong_random, the CSPRNG the native extension uses; the version and
-- variant bits of bytes 6 and 8 are skipped).
CREATE OR REPLACE FUNCTION ulid_portable.random_at(ms pg_catalog.int8) RETURNS pg_catalog.uuid
LANGUAGE sql VOLATILE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT pg_catalog.encode(pg_catalog.substr(pg_catalog.int8send($1), 3, 6)
                         OPERATOR(pg_catalog.||) pg_catalog.substr(r, 1, 3)
                         OPERATOR(pg_catalog.||) pg_catalog.substr(r, 10, 7), 'hex')::pg_catalog.uuid
FROM pg_catalog.uuid_send(pg_catalog.gen_random_uuid()) AS r
$fn$;

COMMENT ON FUNCTION ulid_portable.random_at(pg_catalog.int8) IS
    'a ULID at a Unix millisecond (0 to 2^48-1, not checked) with 80 fresh random bits';

-- random_at()'s expression, written out rather than called: the call (a SQL function with a FROM
-- clause is never inlined) doubled the cost per row (0.97 s against 0.49 s for 200,000 rows here).
CREATE OR REPLACE FUNCTION ulid_portable.gen_random_ulid() RETURNS pg_catalog.uuid
LANGUAGE plpgsql VOLATILE PARALLEL SAFE SECURITY INVOKER AS $fn$
DECLARE
    r pg_catalog.bytea := pg_catalog.uuid_send(pg_catalog.gen_random_uuid());
BEGIN
    RETURN pg_catalog.encode(pg_catalog.substr(pg_catalog.int8send(ulid_portable.unix_ms(pg_catalog.clock_timestamp())), 3, 6)
                             OPERATOR(pg_catalog.||) pg_catalog.substr(r, 1, 3)
                             OPERATOR(pg_catalog.||) pg_catalog.substr(r, 10, 7), 'hex')::pg_catalog.uuid;
END
$fn$;

CREATE OR REPLACE FUNCTION ulid_portable.gen_ulid(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
LANGUAGE sql VOLATILE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT ulid_portable.random_at(ulid_portable.unix_ms($1))
$fn$;

COMMENT ON FUNCTION ulid_portable.gen_random_ulid() IS
    'new ULID (as uuid) at the current time with fresh random entropy every call';
COMMENT ON FUNCTION ulid_portable.gen_ulid(pg_catalog.timestamptz) IS
    'new ULID (as uuid) at the given time with fresh random entropy (for backfills; not monotonic)';

-- The first call of a session (no state): create the state sequences and wait for the next
-- millisecond (a bounded spin), so that a state lost with a rolled-back first transaction does not
-- repeat a value of the current millisecond (while the clock has not gone back: see the top of
-- this file). Returns the millisecond to use.
CREATE OR REPLACE FUNCTION ulid_portable.gen_ulid_start(entry_ms pg_catalog.int8) RETURNS pg_catalog.int8
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SECURITY INVOKER AS $fn$
DECLARE
    now_ms pg_catalog.int8;
BEGIN
    CREATE TEMPORARY SEQUENCE IF NOT EXISTS ulid_portable_hi
        AS pg_catalog.int8 MINVALUE -9223372036854775808 MAXVALUE 9223372036854775807;
    CREATE TEMPORARY SEQUENCE IF NOT EXISTS ulid_portable_lo
        AS pg_catalog.int8 MINVALUE -9223372036854775808 MAXVALUE 9223372036854775807;
    -- Only this session ever sees its temporary objects; the grant lets every role it switches to
    -- (SET ROLE, SECURITY DEFINER functions, poolers that set a role per request) use the state.
    GRANT SELECT, UPDATE ON SEQUENCE pg_temp.ulid_portable_hi, pg_temp.ulid_portable_lo TO PUBLIC;
    FOR i IN 1 .. 1000000 LOOP
        now_ms := ulid_portable.unix_ms(pg_catalog.clock_timestamp());
        IF now_ms OPERATOR(pg_catalog.>) entry_ms THEN
            RETURN now_ms;
        END IF;
    END LOOP;
    -- the clock stepped back (or stands still): one millisecond after the entry time
    RETURN entry_ms OPERATOR(pg_catalog.+) 1;
END
$fn$;

COMMENT ON FUNCTION ulid_portable.gen_ulid_start(pg_catalog.int8) IS
    'gen_ulid() helper: create the session state and wait for a millisecond after the given one';

-- The monotonic generator, the native gen_ulid()'s rules (docs/monotonicity.md):
--  1. now_ms > last_ms: last_ms = now_ms and 80 fresh random bits;
--  2. otherwise (same millisecond, or the clock went back): keep last_ms, entropy + 1 (80-bit
--     add with carry);
--  3. an increment past 80 bits: ERROR 54000, state unchanged.
-- State: hi = ms << 16 | top 16 entropy bits, lo = low 64 entropy bits, both as signed int8 in
-- temporary sequences (setval is not rolled back). Writes go from the more significant word to the
-- less significant one, so an interrupted call only ever leaves a state above every value handed out.
CREATE OR REPLACE FUNCTION ulid_portable.gen_ulid() RETURNS pg_catalog.uuid
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SECURITY INVOKER AS $fn$
DECLARE
    hi_seq pg_catalog.regclass := pg_catalog.to_regclass('pg_temp.ulid_portable_hi');
    lo_seq pg_catalog.regclass := pg_catalog.to_regclass('pg_temp.ulid_portable_lo');
    now_ms pg_catalog.int8 := ulid_portable.unix_ms(pg_catalog.clock_timestamp());
    hi pg_catalog.int8;
    lo pg_catalog.int8;
    r pg_catalog.bytea;
BEGIN
    IF hi_seq IS NOT NULL AND lo_seq IS NOT NULL THEN
        hi := pg_catalog.pg_sequence_last_value(hi_seq);
        lo := pg_catalog.pg_sequence_last_value(lo_seq);
    END IF;
    IF hi IS NULL OR lo IS NULL THEN
        now_ms := ulid_portable.gen_ulid_start(now_ms);
        hi_seq := pg_catalog.to_regclass('pg_temp.ulid_portable_hi');
        lo_seq := pg_catalog.to_regclass('pg_temp.ulid_portable_lo');
    ELSIF now_ms OPERATOR(pg_catalog.<=) ((hi OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 281474976710655) THEN
        IF lo OPERATOR(pg_catalog.<>) -1 THEN
            -- lo + 1 as an unsigned 64-bit add: 2^63 - 1 is followed by -2^63
            lo := pg_catalog.setval(lo_seq, CASE WHEN lo OPERATOR(pg_catalog.=) 9223372036854775807
                                                 THEN -9223372036854775808
                                                 ELSE lo OPERATOR(pg_catalog.+) 1 END, true);
        ELSIF (hi OPERATOR(pg_catalog.&) 65535) OPERATOR(pg_catalog.<>) 65535 THEN
            hi := pg_catalog.setval(hi_seq, hi OPERATOR(pg_catalog.+) 1, true);
            lo := pg_catalog.setval(lo_seq, 0, true);
        ELSE
            RAISE EXCEPTION USING ERRCODE = '54000',
                MESSAGE = 'ulid entropy overflow within one millisecond',
                DETAIL = 'All 2^80 values after the first ULID of this millisecond were used.',
                HINT = 'Retry in the next millisecond.';
        END IF;
        RETURN pg_catalog.encode(pg_catalog.int8send(hi) OPERATOR(pg_catalog.||) pg_catalog.int8send(lo), 'hex')
               ::pg_catalog.uuid;
    END IF;
    r := pg_catalog.uuid_send(pg_catalog.gen_random_uuid());
    hi := pg_catalog.setval(hi_seq, (now_ms OPERATOR(pg_catalog.<<) 16)
                                    OPERATOR(pg_catalog.|) (pg_catalog.get_byte(r, 0) OPERATOR(pg_catalog.<<) 8)
                                    OPERATOR(pg_catalog.|) pg_catalog.get_byte(r, 1), true);
    lo := pg_catalog.setval(lo_seq, (('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(r, 3, 1)
                                      OPERATOR(pg_catalog.||) pg_catalog.substr(r, 10, 7), 'hex'))
                                     ::pg_catalog.bit(64))::pg_catalog.int8, true);
    RETURN pg_catalog.encode(pg_catalog.int8send(hi) OPERATOR(pg_catalog.||) pg_catalog.int8send(lo), 'hex')
           ::pg_catalog.uuid;
END
$fn$;

COMMENT ON FUNCTION ulid_portable.gen_ulid() IS
    'new ULID (as uuid), strictly increasing within this session, also across rollbacks (same millisecond: previous + 1)';

-- ---------------------------------------------------------------------------------------------
-- Text: Crockford Base32
-- ---------------------------------------------------------------------------------------------

-- Why a string is not a ULID, worded as the native extension words it (the first problem by
-- position; positions count bytes from 1, as the native decoder does).
CREATE OR REPLACE FUNCTION ulid_portable.decode_error(input pg_catalog.text) RETURNS pg_catalog.uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
DECLARE
    b pg_catalog.bytea := pg_catalog.convert_to(input, pg_catalog.getdatabaseencoding());
    n pg_catalog.int4 := pg_catalog.length(b);
    msg pg_catalog.text := pg_catalog.format('invalid input syntax for type %s: "%s"', 'ulid', input);
    c pg_catalog.int4;
    ch pg_catalog.text COLLATE pg_catalog."C";
BEGIN
    IF n OPERATOR(pg_catalog.<>) 26 THEN
        RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = msg,
            DETAIL = pg_catalog.format('A ULID is exactly 26 ASCII characters; the input is %s %s long.',
                                       n, CASE WHEN n OPERATOR(pg_catalog.=) 1 THEN 'byte' ELSE 'bytes' END);
    END IF;
    FOR i IN 0 .. 25 LOOP
        c := pg_catalog.get_byte(b, i);
        -- chr() only of ASCII bytes (a multibyte server encoding refuses chr(128..255)); "C"
        -- collation, since strpos() refuses a nondeterministic one that the input may carry
        ch := CASE WHEN c OPERATOR(pg_catalog.<) 128 THEN pg_catalog.chr(c) COLLATE pg_catalog."C" END;
        IF c OPERATOR(pg_catalog.>=) 128
           OR pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTVWXYZabcdefghijklmnopqrstvwxyz', ch)
              OPERATOR(pg_catalog.=) 0 THEN
            IF c OPERATOR(pg_catalog.>=) 33 AND c OPERATOR(pg_catalog.<=) 126 THEN
                RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = msg,
                    DETAIL = pg_catalog.format('Character "%s" at position %s is not in the Crockford Base32 alphabet.',
                                               ch, i OPERATOR(pg_catalog.+) 1);
            END IF;
            RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = msg,
                DETAIL = pg_catalog.format('Byte 0x%s at position %s is not in the Crockford Base32 alphabet.',
                                           pg_catalog.upper(pg_catalog.lpad(pg_catalog.to_hex(c), 2, '0')),
                                           i OPERATOR(pg_catalog.+) 1);
        END IF;
        IF i OPERATOR(pg_catalog.=) 0 AND pg_catalog.strpos('01234567IiLlOo', ch) OPERATOR(pg_catalog.=) 0 THEN
            RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = msg,
                DETAIL = pg_catalog.format('The first character "%s" is above "7": the value would not fit in 128 bits.', ch);
        END IF;
    END LOOP;
    RAISE EXCEPTION 'ulid_portable.decode_error: "%" is a valid ULID', input USING ERRCODE = 'XX000';
END
$fn$;

COMMENT ON FUNCTION ulid_portable.decode_error(pg_catalog.text) IS
    'raises the 22P02 error that says why a string is not a ULID (ulid_decode helper)';

-- Encoder and decoder, written by this block so that their tables are derived here rather than
-- pasted: the encoder looks up two characters per 10 bits in a 2048-byte table (the 1024 pairs of
-- the alphabet; bytea, so that a look-up is not a character count through multibyte text), the
-- decoder a character's 5-bit value in a 128-byte table indexed by ASCII code.
-- 128 bits = byte 0 (characters 1-2: 3 + 5 bits) + 3 groups of 40 bits (5 bytes, 8 characters).
DO $gen$
DECLARE
    alphabet constant pg_catalog.text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    pairs pg_catalog.text;
    dec pg_catalog.text;
    enc_groups pg_catalog.text;
    dec_groups pg_catalog.text;
BEGIN
    -- bytea literals, as hex: E'\\x....' (an E'' string reads the same whatever
    -- standard_conforming_strings says; format('%L') below writes them as E'' strings too)
    SELECT E'\\x' OPERATOR(pg_catalog.||) pg_catalog.string_agg(pg_catalog.encode(pg_catalog.convert_to(
               pg_catalog.substr(alphabet, (v OPERATOR(pg_catalog./) 32) OPERATOR(pg_catalog.+) 1, 1)
               OPERATOR(pg_catalog.||) pg_catalog.substr(alphabet, (v OPERATOR(pg_catalog.%) 32) OPERATOR(pg_catalog.+) 1, 1),
               'UTF8'), 'hex'), '' ORDER BY v)
    INTO pairs FROM pg_catalog.generate_series(0, 1023) AS v;
    -- 128 bytes: the value of each ASCII character (aliases I, L -> 1, O -> 0, either case), 255 otherwise
    SELECT E'\\x' OPERATOR(pg_catalog.||) pg_catalog.string_agg(pg_catalog.lpad(pg_catalog.to_hex(
               CASE WHEN pg_catalog.strpos('IiLl', ch) OPERATOR(pg_catalog.>) 0 THEN 1
                    WHEN pg_catalog.strpos('Oo', ch) OPERATOR(pg_catalog.>) 0 THEN 0
                    WHEN pg_catalog.strpos(alphabet, ch) OPERATOR(pg_catalog.>) 0
                        THEN pg_catalog.strpos(alphabet, ch) OPERATOR(pg_catalog.-) 1
                    WHEN pg_catalog.strpos(pg_catalog.lower(alphabet), ch) OPERATOR(pg_catalog.>) 0
                        THEN pg_catalog.strpos(pg_catalog.lower(alphabet), ch) OPERATOR(pg_catalog.-) 1
                    ELSE 255 END), 2, '0'), '' ORDER BY c)
    INTO dec
    FROM pg_catalog.generate_series(0, 127) AS c,
         LATERAL (SELECT CASE WHEN c OPERATOR(pg_catalog.>=) 33 AND c OPERATOR(pg_catalog.<=) 126
                              THEN pg_catalog.chr(c) END) AS x(ch);
    -- encoder: for group g (hex digits 3+10g .. 12+10g), four pairs of 10 bits
    SELECT pg_catalog.string_agg(pg_catalog.format(
               E'\n        OPERATOR(pg_catalog.||) pg_catalog.substr(%1$L::pg_catalog.bytea, (2 OPERATOR(pg_catalog.*) ((g%2$s OPERATOR(pg_catalog.>>) %3$s) OPERATOR(pg_catalog.&) 1023)::pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 2)',
               pairs, g, s), '' ORDER BY g, s DESC)
    INTO enc_groups FROM pg_catalog.generate_series(1, 3) AS g, (VALUES (30), (20), (10), (0)) AS s(s);
    EXECUTE pg_catalog.format($f$
CREATE OR REPLACE FUNCTION ulid_portable.ulid_encode(id pg_catalog.uuid) RETURNS pg_catalog.text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
DECLARE
    b pg_catalog.bytea := pg_catalog.uuid_send(id);
    h pg_catalog.text := pg_catalog.encode(b, 'hex');
    g1 pg_catalog.int8 := (('x' OPERATOR(pg_catalog.||) pg_catalog.substr(h, 3, 10))::pg_catalog.bit(40))::pg_catalog.int8;
    g2 pg_catalog.int8 := (('x' OPERATOR(pg_catalog.||) pg_catalog.substr(h, 13, 10))::pg_catalog.bit(40))::pg_catalog.int8;
    g3 pg_catalog.int8 := (('x' OPERATOR(pg_catalog.||) pg_catalog.substr(h, 23, 10))::pg_catalog.bit(40))::pg_catalog.int8;
BEGIN
    -- 26 ASCII bytes; 'escape' turns them into the same text (it only escapes \ and non-ASCII)
    RETURN pg_catalog.encode(
        pg_catalog.substr(%1$L::pg_catalog.bytea, (2 OPERATOR(pg_catalog.*) pg_catalog.get_byte(b, 0)) OPERATOR(pg_catalog.+) 1, 2)%2$s,
        'escape');
END
$fn$
$f$, pairs, enc_groups);

    -- decoder: d(i) = value of byte i; group g = characters 3+8(g-1) .. 10+8(g-1) (1-based)
    SELECT pg_catalog.string_agg(pg_catalog.format(
               E'\n            OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(%s), 10, ''0'')',
               (SELECT pg_catalog.string_agg(pg_catalog.format(
                           '(pg_catalog.get_byte(%1$L::pg_catalog.bytea, pg_catalog.get_byte(b, %2$s))::pg_catalog.int8 OPERATOR(pg_catalog.<<) %3$s)',
                           dec, (2 OPERATOR(pg_catalog.+) (8 OPERATOR(pg_catalog.*) (g OPERATOR(pg_catalog.-) 1))) OPERATOR(pg_catalog.+) k,
                           35 OPERATOR(pg_catalog.-) (5 OPERATOR(pg_catalog.*) k)), ' OPERATOR(pg_catalog.|) ' ORDER BY k)
                FROM pg_catalog.generate_series(0, 7) AS k)), '' ORDER BY g)
    INTO dec_groups FROM pg_catalog.generate_series(1, 3) AS g;
    EXECUTE pg_catalog.format($f$
CREATE OR REPLACE FUNCTION ulid_portable.ulid_decode(input pg_catalog.text) RETURNS pg_catalog.uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
DECLARE
    b pg_catalog.bytea;
BEGIN
    -- 26 bytes, first character 0-7 (or an alias of 0 or 1), then 25 of the alphabet, any case
    IF pg_catalog.octet_length(input) OPERATOR(pg_catalog.<>) 26
       OR NOT (input COLLATE pg_catalog."C") OPERATOR(pg_catalog.~) '^[01234567IiLlOo][0123456789ABCDEFGHIJKLMNOPQRSTVWXYZabcdefghijklmnopqrstvwxyz]{25}$' THEN
        RETURN ulid_portable.decode_error(input);
    END IF;
    b := pg_catalog.decode(input, 'escape'); -- letters and digits only: their bytes as they are
    RETURN (pg_catalog.lpad(pg_catalog.to_hex(
                (pg_catalog.get_byte(%1$L::pg_catalog.bytea, pg_catalog.get_byte(b, 0)) OPERATOR(pg_catalog.<<) 5)
                OPERATOR(pg_catalog.|) pg_catalog.get_byte(%1$L::pg_catalog.bytea, pg_catalog.get_byte(b, 1))), 2, '0')%2$s
           )::pg_catalog.uuid;
END
$fn$
$f$, dec, dec_groups);
END
$gen$;

COMMENT ON FUNCTION ulid_portable.ulid_encode(pg_catalog.uuid) IS
    'the 26-character Crockford Base32 form of a ULID held in a uuid (uppercase)';
COMMENT ON FUNCTION ulid_portable.ulid_decode(pg_catalog.text) IS
    'a 26-character ULID string as uuid: case-insensitive, I/L read as 1 and O as 0; 22P02 otherwise';

-- ---------------------------------------------------------------------------------------------
-- Public ids: AES of the 16 bytes through pgcrypto
-- ---------------------------------------------------------------------------------------------

-- One AES (FIPS-197) block: pgcrypto's encrypt()/decrypt(data, key, 'aes-ecb/pad:none') on 16
-- bytes, byte for byte what the native ulid_encrypt()/ulid_decrypt() compute with OpenSSL.
-- pgcrypto picks AES-128, -192 or -256 by the key's length and zero-pads or truncates any other
-- length, so the length is checked here first (16 or 32, else 22023 as natively). pgcrypto's
-- schema differs between servers (public, extensions, ...): its function is found at each call as a
-- member of the extension pgcrypto (pg_depend) in that extension's schema, written in C, with
-- exactly the signature (bytea, bytea, text), never through search_path, so a pgcrypto created or
-- moved later is found and a function of that name outside it never is. Without pgcrypto: 0A000
-- naming it. STABLE, not IMMUTABLE as natively: the result depends on what the catalog holds (no
-- pgcrypto, no result), and no index should hold an expression over it (nor its key).
CREATE OR REPLACE FUNCTION ulid_portable.aes_block(block pg_catalog.bytea, key pg_catalog.bytea, inverse pg_catalog.bool)
RETURNS pg_catalog.bytea
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
DECLARE
    fn pg_catalog.text;
    found pg_catalog.int8;
    result pg_catalog.bytea;
BEGIN
    IF pg_catalog.octet_length(key) OPERATOR(pg_catalog.<>) 16 AND pg_catalog.octet_length(key) OPERATOR(pg_catalog.<>) 32 THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'ulid key must be 16 or 32 bytes',
            DETAIL = pg_catalog.format(CASE WHEN pg_catalog.octet_length(key) OPERATOR(pg_catalog.=) 1
                                            THEN 'The key given is %s byte.' ELSE 'The key given is %s bytes.' END,
                                       pg_catalog.octet_length(key)),
            HINT = 'Use 16 bytes for AES-128 or 32 for AES-256, for instance gen_random_bytes(32) of pgcrypto, kept as bytea.';
    END IF;
    -- a member of pgcrypto, in pgcrypto's own schema, written in C (which only a superuser can
    -- create: the owner of a trusted pgcrypto may be an ordinary role that adds functions of its
    -- own to the extension), with exactly that signature; anything but one such function is refused
    SELECT pg_catalog.min(pg_catalog.format('%I.%I', n.nspname, p.proname)), pg_catalog.count(*) INTO fn, found
    FROM pg_catalog.pg_extension e
    JOIN pg_catalog.pg_depend d ON d.refobjid OPERATOR(pg_catalog.=) e.oid
    JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) d.objid
    JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
    JOIN pg_catalog.pg_language l ON l.oid OPERATOR(pg_catalog.=) p.prolang
    WHERE e.extname OPERATOR(pg_catalog.=) 'pgcrypto'
      AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
      AND d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
      AND d.deptype OPERATOR(pg_catalog.=) 'e'
      AND p.pronamespace OPERATOR(pg_catalog.=) e.extnamespace
      AND l.lanname OPERATOR(pg_catalog.=) 'c'
      AND p.proname OPERATOR(pg_catalog.=) CASE WHEN inverse THEN 'decrypt' ELSE 'encrypt' END
      AND p.proargtypes OPERATOR(pg_catalog.=) '17 17 25'::pg_catalog.oidvector;
    IF found OPERATOR(pg_catalog.<>) 1 THEN
        RAISE EXCEPTION USING ERRCODE = '0A000',
            MESSAGE = 'ulid_portable.ulid_encrypt() and ulid_decrypt() need the extension pgcrypto',
            DETAIL = 'No extension pgcrypto with encrypt(bytea, bytea, text) and decrypt(bytea, bytea, text) is installed in this database.',
            HINT = 'CREATE EXTENSION pgcrypto (in any schema); the other functions of ulid_portable work without it.';
    END IF;
    EXECUTE pg_catalog.format('SELECT %s($1, $2, $3)', fn) INTO result
        USING block, key, 'aes-ecb/pad:none'::pg_catalog.text;
    RETURN result;
END
$fn$;

CREATE OR REPLACE FUNCTION ulid_portable.ulid_encrypt(id pg_catalog.uuid, key pg_catalog.bytea) RETURNS pg_catalog.uuid
LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
    SELECT pg_catalog.encode(ulid_portable.aes_block(pg_catalog.uuid_send(id), key, false), 'hex')::pg_catalog.uuid
$fn$;

CREATE OR REPLACE FUNCTION ulid_portable.ulid_decrypt(public_id pg_catalog.uuid, key pg_catalog.bytea) RETURNS pg_catalog.uuid
LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
    SELECT pg_catalog.encode(ulid_portable.aes_block(pg_catalog.uuid_send(public_id), key, true), 'hex')::pg_catalog.uuid
$fn$;

COMMENT ON FUNCTION ulid_portable.ulid_encrypt(pg_catalog.uuid, pg_catalog.bytea) IS
    'public id of an id: AES of its 16 bytes with a 16- or 32-byte key (pgcrypto), as the native ulid_encrypt';
COMMENT ON FUNCTION ulid_portable.ulid_decrypt(pg_catalog.uuid, pg_catalog.bytea) IS
    'id of a public id: the inverse of ulid_portable.ulid_encrypt with the same key';

-- Before COMMIT: every object in the schema must be the installing role's own. An object of another
-- role that was there before (CREATE OR REPLACE FUNCTION kept its owner) or was planted while this
-- ran makes the whole script fail and roll back.
DO $guard_again$
DECLARE
    installer pg_catalog.oid := (SELECT r.oid FROM pg_catalog.pg_roles r
                                 WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER);
    portable_nsp pg_catalog.oid := (SELECT n.oid FROM pg_catalog.pg_namespace n
                           WHERE n.nspname OPERATOR(pg_catalog.=) 'ulid_portable'
                             AND n.nspowner OPERATOR(pg_catalog.=) installer);
    foreign_objects pg_catalog.text;
BEGIN
    foreign_objects := (SELECT pg_catalog.string_agg(o.what, ', ' ORDER BY o.what)
         FROM (SELECT pg_catalog.pg_describe_object(x.classid, x.objid, 0)
                      OPERATOR(pg_catalog.||) ' (owner ' OPERATOR(pg_catalog.||) x.owner::pg_catalog.regrole::pg_catalog.text
                      OPERATOR(pg_catalog.||) ')'
               FROM (SELECT 'pg_catalog.pg_proc'::pg_catalog.regclass, p.oid, p.proowner, p.pronamespace FROM pg_catalog.pg_proc p
                     UNION ALL SELECT 'pg_catalog.pg_class'::pg_catalog.regclass, c.oid, c.relowner, c.relnamespace FROM pg_catalog.pg_class c
                     UNION ALL SELECT 'pg_catalog.pg_type'::pg_catalog.regclass, t.oid, t.typowner, t.typnamespace FROM pg_catalog.pg_type t
                     UNION ALL SELECT 'pg_catalog.pg_operator'::pg_catalog.regclass, o.oid, o.oprowner, o.oprnamespace FROM pg_catalog.pg_operator o
                     UNION ALL SELECT 'pg_catalog.pg_opclass'::pg_catalog.regclass, c.oid, c.opcowner, c.opcnamespace FROM pg_catalog.pg_opclass c
                     UNION ALL SELECT 'pg_catalog.pg_opfamily'::pg_catalog.regclass, f.oid, f.opfowner, f.opfnamespace FROM pg_catalog.pg_opfamily f
                     UNION ALL SELECT 'pg_catalog.pg_collation'::pg_catalog.regclass, c.oid, c.collowner, c.collnamespace FROM pg_catalog.pg_collation c
                     UNION ALL SELECT 'pg_catalog.pg_conversion'::pg_catalog.regclass, c.oid, c.conowner, c.connamespace FROM pg_catalog.pg_conversion c
                     UNION ALL SELECT 'pg_catalog.pg_ts_config'::pg_catalog.regclass, c.oid, c.cfgowner, c.cfgnamespace FROM pg_catalog.pg_ts_config c
                     UNION ALL SELECT 'pg_catalog.pg_ts_dict'::pg_catalog.regclass, d.oid, d.dictowner, d.dictnamespace FROM pg_catalog.pg_ts_dict d
                     UNION ALL SELECT 'pg_catalog.pg_statistic_ext'::pg_catalog.regclass, e.oid, e.stxowner, e.stxnamespace FROM pg_catalog.pg_statistic_ext e
                    ) AS x(classid, objid, owner, in_schema)
               WHERE x.in_schema OPERATOR(pg_catalog.=) portable_nsp AND x.owner OPERATOR(pg_catalog.<>) installer) AS o(what));
    IF portable_nsp IS NULL OR foreign_objects IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = '42501',
            MESSAGE = 'schema ulid_portable holds objects that the installing role does not own',
            DETAIL = COALESCE(foreign_objects, 'The schema is not owned by the installing role.'),
            HINT = 'Drop them, or run this script as their owner.';
    END IF;
END
$guard_again$;

$ulid_tle_0_5_0$);

SELECT pg_temp.ulid_portable_register('install', NULL, '0.6.0', $ulid_tle_0_6_0$-- portable/tle/adopt.sql: the start of the current version's install script in pg_tle. Where
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

-- portable/ulid_portable.sql: ULIDs in plain SQL and PL/pgSQL, stored as uuid (PostgreSQL 13 and later).
-- Version 0.6.0 of the portable edition (its version is that of the ulid release that last changed it).
--
-- For servers that cannot load the native ulid extension (managed services). Install with
--     psql -v ON_ERROR_STOP=1 -f portable/ulid_portable.sql
-- (or paste it into any SQL console) as a role with CREATE on the database; it needs no
-- superuser, no C and no other extension (ulid_encrypt and ulid_decrypt use pgcrypto if it is
-- there). Everything lives in the schema ulid_portable, so it never collides with the native
-- extension, and it can be run again to update the functions.
--
-- A ULID is kept in a uuid column: the same 16 bytes the native type holds (48-bit Unix
-- milliseconds, then 80 bits of entropy, big-endian), so `ALTER TABLE ... ALTER COLUMN id TYPE ulid`
-- later moves a table to the native extension without rewriting it. The functions follow the
-- native extension's rules, errors (SQLSTATE, message and DETAIL) included:
--
--   gen_ulid() -> uuid                  strictly increasing within a session (VOLATILE, PARALLEL UNSAFE)
--   gen_random_ulid() -> uuid           current time, fresh random entropy (VOLATILE, PARALLEL SAFE)
--   gen_ulid(timestamptz) -> uuid       that millisecond, fresh random entropy (backfills)
--   ulid_encode(uuid) -> text           26 uppercase Crockford Base32 characters    (IMMUTABLE)
--   ulid_decode(text) -> uuid           case-insensitive, I/L -> 1, O -> 0; 22P02   (IMMUTABLE)
--   ulid_to_timestamp(uuid) -> timestamptz, ulid_min(timestamptz), ulid_max(timestamptz) (IMMUTABLE)
--   ulid_encrypt(uuid, key bytea) -> uuid, ulid_decrypt(uuid, key bytea) -> uuid   public ids: AES
--                                       of the 16 bytes through pgcrypto, if installed (STABLE)
--
-- gen_ulid() keeps its per-session state (the last value) in two temporary sequences,
-- pg_temp.ulid_portable_hi and pg_temp.ulid_portable_lo, written with setval(). Sequences are not
-- transactional: a value handed out by a transaction or savepoint that is rolled back is still the
-- state the next call increments, so no value is ever repeated and the order holds across ROLLBACK
-- (a custom setting would be rolled back with the transaction and could repeat values). The first
-- call of a session creates them (that needs the TEMP privilege and a writable transaction) and
-- waits for the next millisecond, so that a state lost with a rolled-back first transaction (or
-- DISCARD TEMP) does not repeat a value of the current millisecond. That holds only while the
-- clock does not go back: a state lost after the clock stepped back can give values below ones the
-- session handed out before. The sequences are granted to PUBLIC so that every role the session
-- switches to (SET ROLE, a pooler's role per request) shares one order; it follows that any of
-- those roles can also rewind or spoil that order (setval on them: lower or repeated values, or
-- 54000 on every later call). Where that matters, use the native extension, or gen_random_ulid().
-- Consequences: gen_ulid() is PARALLEL UNSAFE, does not run on a standby, and a transaction that
-- used it cannot be PREPAREd (two-phase commit); gen_random_ulid() has none of these limits.
--
-- Security: every function is SECURITY INVOKER and refers to built-ins as pg_catalog.name and
-- OPERATOR(pg_catalog.op), and to its own objects schema-qualified, so no search_path (a caller's
-- or a planted one) changes what they call. The script refuses (42501) a schema ulid_portable that
-- the installing role does not own itself, or that holds an object owned by another role: being a
-- superuser or a member of the owner's role is not enough (CREATE OR REPLACE FUNCTION keeps a
-- function's owner, who could rewrite it after a superuser "installed" it). The schema's owner is
-- checked first, every object in it last, before COMMIT. Where pg_tle is offered, the same
-- functions install as the extension ulid_portable (portable/ulid_portable_tle.sql, made from this
-- file by scripts/portable-tle: the lines between the two "loose file only" markers are left
-- out there); this file then refuses (55000) to touch a schema that an extension owns.


CREATE SCHEMA IF NOT EXISTS ulid_portable;

DO $guard$
DECLARE
    installer pg_catalog.oid := (SELECT r.oid FROM pg_catalog.pg_roles r
                                 WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER);
    nsp_owner pg_catalog.oid;
BEGIN
    IF (pg_catalog.current_setting('server_version_num')::pg_catalog.int4 OPERATOR(pg_catalog.>=) 130000) IS NOT TRUE THEN
        RAISE EXCEPTION USING ERRCODE = '0A000',
            MESSAGE = 'ulid_portable needs PostgreSQL 13 or later (core gen_random_uuid())';
    END IF;
    SELECT n.nspowner INTO nsp_owner
    FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) 'ulid_portable';
    IF (nsp_owner OPERATOR(pg_catalog.=) installer) IS NOT TRUE THEN
        RAISE EXCEPTION USING ERRCODE = '42501',
            MESSAGE = 'schema ulid_portable exists and is not owned by the installing role',
            DETAIL = pg_catalog.format('It is owned by %s; the installing role is %s.',
                                       nsp_owner::pg_catalog.regrole, CURRENT_USER),
            HINT = 'Drop it, or run this script as its owner.';
    END IF;
END
$guard$;

GRANT USAGE ON SCHEMA ulid_portable TO PUBLIC;

COMMENT ON SCHEMA ulid_portable IS
    'ulid_portable 0.6.0: portable ULID functions (SQL and PL/pgSQL, values stored as uuid); see README "On managed services"';

-- ---------------------------------------------------------------------------------------------
-- Time: timestamptz <-> Unix milliseconds, with the native extension's range errors
-- ---------------------------------------------------------------------------------------------

-- The Unix millisecond holding ts (rounded down), from timestamptz_send's exact microsecond count
-- since 2000-01-01 UTC (independent of TimeZone and of floating point). 22008 when ts is infinite,
-- before 1970-01-01 UTC or after 10889-08-02 05:31:50.655 UTC (the 48-bit limit).
CREATE OR REPLACE FUNCTION ulid_portable.unix_ms(ts pg_catalog.timestamptz) RETURNS pg_catalog.int8
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
DECLARE
    -- microseconds since 2000-01-01 00:00:00 UTC
    us pg_catalog.int8 := (('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.timestamptz_send(ts), 'hex'))
                           ::pg_catalog.bit(64))::pg_catalog.int8;
    range_detail constant pg_catalog.text :=
        'A ULID holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.';
BEGIN
    IF NOT pg_catalog.isfinite(ts) THEN
        RAISE EXCEPTION USING ERRCODE = '22008', MESSAGE = 'timestamp out of range for ulid',
            DETAIL = 'An infinite timestamp has no ULID. ' OPERATOR(pg_catalog.||) range_detail;
    END IF;
    -- 946684800000000 = microseconds from 1970 to 2000; compare before adding (no int8 overflow:
    -- 9222425352054775807 = 2^63 - 1 - 946684800000000). OPERATOR(...) forms all share one
    -- precedence and associate to the left: every expression here is parenthesized.
    IF us OPERATOR(pg_catalog.<) -946684800000000
       OR us OPERATOR(pg_catalog.>) 9222425352054775807
       OR ((us OPERATOR(pg_catalog.+) 946684800000000) OPERATOR(pg_catalog./) 1000)
          OPERATOR(pg_catalog.>) 281474976710655 THEN
        RAISE EXCEPTION USING ERRCODE = '22008', MESSAGE = 'timestamp out of range for ulid',
            DETAIL = range_detail;
    END IF;
    RETURN (us OPERATOR(pg_catalog.+) 946684800000000) OPERATOR(pg_catalog./) 1000;
END
$fn$;

COMMENT ON FUNCTION ulid_portable.unix_ms(pg_catalog.timestamptz) IS
    'the Unix millisecond holding a time, as a ULID stores it (22008 outside the ULID range)';

-- The Unix millisecond stored in a ULID (its first 6 bytes).
CREATE OR REPLACE FUNCTION ulid_portable.ulid_ms(id pg_catalog.uuid) RETURNS pg_catalog.int8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT (('x' OPERATOR(pg_catalog.||) pg_catalog.left(pg_catalog.encode(pg_catalog.uuid_send($1), 'hex'), 12))
        ::pg_catalog.bit(48))::pg_catalog.int8
$fn$;

-- A Unix millisecond as timestamptz: whole seconds (exact in float8) plus the remaining
-- milliseconds, added to 1970-01-01 as a timestamp and read as UTC (all immutable, no rounding).
CREATE OR REPLACE FUNCTION ulid_portable.ms_to_timestamp(ms pg_catalog.int8) RETURNS pg_catalog.timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT pg_catalog.timezone('UTC', '1970-01-01 00:00:00'::pg_catalog.timestamp
    OPERATOR(pg_catalog.+) pg_catalog.make_interval(secs => ($1 OPERATOR(pg_catalog./) 1000)::pg_catalog.float8)
    OPERATOR(pg_catalog.+) (($1 OPERATOR(pg_catalog.%) 1000)::pg_catalog.float8
                            OPERATOR(pg_catalog.*) '0.001 seconds'::pg_catalog.interval))
$fn$;

CREATE OR REPLACE FUNCTION ulid_portable.ulid_to_timestamp(id pg_catalog.uuid) RETURNS pg_catalog.timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT ulid_portable.ms_to_timestamp(ulid_portable.ulid_ms($1))
$fn$;

CREATE OR REPLACE FUNCTION ulid_portable.ulid_min(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT (pg_catalog.encode(pg_catalog.substr(pg_catalog.int8send(ulid_portable.unix_ms($1)), 3, 6), 'hex')
        OPERATOR(pg_catalog.||) '00000000000000000000')::pg_catalog.uuid
$fn$;

CREATE OR REPLACE FUNCTION ulid_portable.ulid_max(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT (pg_catalog.encode(pg_catalog.substr(pg_catalog.int8send(ulid_portable.unix_ms($1)), 3, 6), 'hex')
        OPERATOR(pg_catalog.||) 'ffffffffffffffffffff')::pg_catalog.uuid
$fn$;

COMMENT ON FUNCTION ulid_portable.ulid_ms(pg_catalog.uuid) IS
    'the Unix millisecond stored in a ULID';
COMMENT ON FUNCTION ulid_portable.ms_to_timestamp(pg_catalog.int8) IS
    'a Unix millisecond as timestamptz (exact)';
COMMENT ON FUNCTION ulid_portable.ulid_to_timestamp(pg_catalog.uuid) IS
    'the time embedded in a ULID (millisecond precision)';
COMMENT ON FUNCTION ulid_portable.ulid_min(pg_catalog.timestamptz) IS
    'smallest ULID of the millisecond holding a time (range bound)';
COMMENT ON FUNCTION ulid_portable.ulid_max(pg_catalog.timestamptz) IS
    'largest ULID of the millisecond holding a time (range bound)';

-- ---------------------------------------------------------------------------------------------
-- Generators
-- ---------------------------------------------------------------------------------------------

-- A ULID at millisecond ms with 80 random bits: bytes 0-2 and 9-15 of a version-4 uuid from
-- gen_random_uuid() (pg_strong_random, the CSPRNG the native extension uses; the version and
-- variant bits of bytes 6 and 8 are skipped).
CREATE OR REPLACE FUNCTION ulid_portable.random_at(ms pg_catalog.int8) RETURNS pg_catalog.uuid
LANGUAGE sql VOLATILE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT pg_catalog.encode(pg_catalog.substr(pg_catalog.int8send($1), 3, 6)
                         OPERATOR(pg_catalog.||) pg_catalog.substr(r, 1, 3)
                         OPERATOR(pg_catalog.||) pg_catalog.substr(r, 10, 7), 'hex')::pg_catalog.uuid
FROM pg_catalog.uuid_send(pg_catalog.gen_random_uuid()) AS r
$fn$;

COMMENT ON FUNCTION ulid_portable.random_at(pg_catalog.int8) IS
    'a ULID at a Unix millisecond (0 to 2^48-1, not checked) with 80 fresh random bits';

-- random_at()'s expression, written out rather than called: the call (a SQL function with a FROM
-- clause is never inlined) doubled the cost per row (0.97 s against 0.49 s for 200,000 rows here).
CREATE OR REPLACE FUNCTION ulid_portable.gen_random_ulid() RETURNS pg_catalog.uuid
LANGUAGE plpgsql VOLATILE PARALLEL SAFE SECURITY INVOKER AS $fn$
DECLARE
    r pg_catalog.bytea := pg_catalog.uuid_send(pg_catalog.gen_random_uuid());
BEGIN
    RETURN pg_catalog.encode(pg_catalog.substr(pg_catalog.int8send(ulid_portable.unix_ms(pg_catalog.clock_timestamp())), 3, 6)
                             OPERATOR(pg_catalog.||) pg_catalog.substr(r, 1, 3)
                             OPERATOR(pg_catalog.||) pg_catalog.substr(r, 10, 7), 'hex')::pg_catalog.uuid;
END
$fn$;

CREATE OR REPLACE FUNCTION ulid_portable.gen_ulid(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
LANGUAGE sql VOLATILE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT ulid_portable.random_at(ulid_portable.unix_ms($1))
$fn$;

COMMENT ON FUNCTION ulid_portable.gen_random_ulid() IS
    'new ULID (as uuid) at the current time with fresh random entropy every call';
COMMENT ON FUNCTION ulid_portable.gen_ulid(pg_catalog.timestamptz) IS
    'new ULID (as uuid) at the given time with fresh random entropy (for backfills; not monotonic)';

-- The first call of a session (no state): create the state sequences and wait for the next
-- millisecond (a bounded spin), so that a state lost with a rolled-back first transaction does not
-- repeat a value of the current millisecond (while the clock has not gone back: see the top of
-- this file). Returns the millisecond to use.
CREATE OR REPLACE FUNCTION ulid_portable.gen_ulid_start(entry_ms pg_catalog.int8) RETURNS pg_catalog.int8
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SECURITY INVOKER AS $fn$
DECLARE
    now_ms pg_catalog.int8;
BEGIN
    CREATE TEMPORARY SEQUENCE IF NOT EXISTS ulid_portable_hi
        AS pg_catalog.int8 MINVALUE -9223372036854775808 MAXVALUE 9223372036854775807;
    CREATE TEMPORARY SEQUENCE IF NOT EXISTS ulid_portable_lo
        AS pg_catalog.int8 MINVALUE -9223372036854775808 MAXVALUE 9223372036854775807;
    -- Only this session ever sees its temporary objects; the grant lets every role it switches to
    -- (SET ROLE, SECURITY DEFINER functions, poolers that set a role per request) use the state.
    GRANT SELECT, UPDATE ON SEQUENCE pg_temp.ulid_portable_hi, pg_temp.ulid_portable_lo TO PUBLIC;
    FOR i IN 1 .. 1000000 LOOP
        now_ms := ulid_portable.unix_ms(pg_catalog.clock_timestamp());
        IF now_ms OPERATOR(pg_catalog.>) entry_ms THEN
            RETURN now_ms;
        END IF;
    END LOOP;
    -- the clock stepped back (or stands still): one millisecond after the entry time
    RETURN entry_ms OPERATOR(pg_catalog.+) 1;
END
$fn$;

COMMENT ON FUNCTION ulid_portable.gen_ulid_start(pg_catalog.int8) IS
    'gen_ulid() helper: create the session state and wait for a millisecond after the given one';

-- The monotonic generator, the native gen_ulid()'s rules (docs/monotonicity.md):
--  1. now_ms > last_ms: last_ms = now_ms and 80 fresh random bits;
--  2. otherwise (same millisecond, or the clock went back): keep last_ms, entropy + 1 (80-bit
--     add with carry);
--  3. an increment past 80 bits: ERROR 54000, state unchanged.
-- State: hi = ms << 16 | top 16 entropy bits, lo = low 64 entropy bits, both as signed int8 in
-- temporary sequences (setval is not rolled back). Writes go from the more significant word to the
-- less significant one, so an interrupted call only ever leaves a state above every value handed out.
CREATE OR REPLACE FUNCTION ulid_portable.gen_ulid() RETURNS pg_catalog.uuid
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SECURITY INVOKER AS $fn$
DECLARE
    hi_seq pg_catalog.regclass := pg_catalog.to_regclass('pg_temp.ulid_portable_hi');
    lo_seq pg_catalog.regclass := pg_catalog.to_regclass('pg_temp.ulid_portable_lo');
    now_ms pg_catalog.int8 := ulid_portable.unix_ms(pg_catalog.clock_timestamp());
    hi pg_catalog.int8;
    lo pg_catalog.int8;
    r pg_catalog.bytea;
BEGIN
    IF hi_seq IS NOT NULL AND lo_seq IS NOT NULL THEN
        hi := pg_catalog.pg_sequence_last_value(hi_seq);
        lo := pg_catalog.pg_sequence_last_value(lo_seq);
    END IF;
    IF hi IS NULL OR lo IS NULL THEN
        now_ms := ulid_portable.gen_ulid_start(now_ms);
        hi_seq := pg_catalog.to_regclass('pg_temp.ulid_portable_hi');
        lo_seq := pg_catalog.to_regclass('pg_temp.ulid_portable_lo');
    ELSIF now_ms OPERATOR(pg_catalog.<=) ((hi OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 281474976710655) THEN
        IF lo OPERATOR(pg_catalog.<>) -1 THEN
            -- lo + 1 as an unsigned 64-bit add: 2^63 - 1 is followed by -2^63
            lo := pg_catalog.setval(lo_seq, CASE WHEN lo OPERATOR(pg_catalog.=) 9223372036854775807
                                                 THEN -9223372036854775808
                                                 ELSE lo OPERATOR(pg_catalog.+) 1 END, true);
        ELSIF (hi OPERATOR(pg_catalog.&) 65535) OPERATOR(pg_catalog.<>) 65535 THEN
            hi := pg_catalog.setval(hi_seq, hi OPERATOR(pg_catalog.+) 1, true);
            lo := pg_catalog.setval(lo_seq, 0, true);
        ELSE
            RAISE EXCEPTION USING ERRCODE = '54000',
                MESSAGE = 'ulid entropy overflow within one millisecond',
                DETAIL = 'All 2^80 values after the first ULID of this millisecond were used.',
                HINT = 'Retry in the next millisecond.';
        END IF;
        RETURN pg_catalog.encode(pg_catalog.int8send(hi) OPERATOR(pg_catalog.||) pg_catalog.int8send(lo), 'hex')
               ::pg_catalog.uuid;
    END IF;
    r := pg_catalog.uuid_send(pg_catalog.gen_random_uuid());
    hi := pg_catalog.setval(hi_seq, (now_ms OPERATOR(pg_catalog.<<) 16)
                                    OPERATOR(pg_catalog.|) (pg_catalog.get_byte(r, 0) OPERATOR(pg_catalog.<<) 8)
                                    OPERATOR(pg_catalog.|) pg_catalog.get_byte(r, 1), true);
    lo := pg_catalog.setval(lo_seq, (('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(r, 3, 1)
                                      OPERATOR(pg_catalog.||) pg_catalog.substr(r, 10, 7), 'hex'))
                                     ::pg_catalog.bit(64))::pg_catalog.int8, true);
    RETURN pg_catalog.encode(pg_catalog.int8send(hi) OPERATOR(pg_catalog.||) pg_catalog.int8send(lo), 'hex')
           ::pg_catalog.uuid;
END
$fn$;

COMMENT ON FUNCTION ulid_portable.gen_ulid() IS
    'new ULID (as uuid), strictly increasing within this session, also across rollbacks (same millisecond: previous + 1)';

-- ---------------------------------------------------------------------------------------------
-- Text: Crockford Base32
-- ---------------------------------------------------------------------------------------------

-- Why a string is not a ULID, worded as the native extension words it (the first problem by
-- position; positions count bytes from 1, as the native decoder does).
CREATE OR REPLACE FUNCTION ulid_portable.decode_error(input pg_catalog.text) RETURNS pg_catalog.uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
DECLARE
    b pg_catalog.bytea := pg_catalog.convert_to(input, pg_catalog.getdatabaseencoding());
    n pg_catalog.int4 := pg_catalog.length(b);
    msg pg_catalog.text := pg_catalog.format('invalid input syntax for type %s: "%s"', 'ulid', input);
    c pg_catalog.int4;
    ch pg_catalog.text COLLATE pg_catalog."C";
BEGIN
    IF n OPERATOR(pg_catalog.<>) 26 THEN
        RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = msg,
            DETAIL = pg_catalog.format('A ULID is exactly 26 ASCII characters; the input is %s %s long.',
                                       n, CASE WHEN n OPERATOR(pg_catalog.=) 1 THEN 'byte' ELSE 'bytes' END);
    END IF;
    FOR i IN 0 .. 25 LOOP
        c := pg_catalog.get_byte(b, i);
        -- chr() only of ASCII bytes (a multibyte server encoding refuses chr(128..255)); "C"
        -- collation, since strpos() refuses a nondeterministic one that the input may carry
        ch := CASE WHEN c OPERATOR(pg_catalog.<) 128 THEN pg_catalog.chr(c) COLLATE pg_catalog."C" END;
        IF c OPERATOR(pg_catalog.>=) 128
           OR pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTVWXYZabcdefghijklmnopqrstvwxyz', ch)
              OPERATOR(pg_catalog.=) 0 THEN
            IF c OPERATOR(pg_catalog.>=) 33 AND c OPERATOR(pg_catalog.<=) 126 THEN
                RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = msg,
                    DETAIL = pg_catalog.format('Character "%s" at position %s is not in the Crockford Base32 alphabet.',
                                               ch, i OPERATOR(pg_catalog.+) 1);
            END IF;
            RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = msg,
                DETAIL = pg_catalog.format('Byte 0x%s at position %s is not in the Crockford Base32 alphabet.',
                                           pg_catalog.upper(pg_catalog.lpad(pg_catalog.to_hex(c), 2, '0')),
                                           i OPERATOR(pg_catalog.+) 1);
        END IF;
        IF i OPERATOR(pg_catalog.=) 0 AND pg_catalog.strpos('01234567IiLlOo', ch) OPERATOR(pg_catalog.=) 0 THEN
            RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = msg,
                DETAIL = pg_catalog.format('The first character "%s" is above "7": the value would not fit in 128 bits.', ch);
        END IF;
    END LOOP;
    RAISE EXCEPTION 'ulid_portable.decode_error: "%" is a valid ULID', input USING ERRCODE = 'XX000';
END
$fn$;

COMMENT ON FUNCTION ulid_portable.decode_error(pg_catalog.text) IS
    'raises the 22P02 error that says why a string is not a ULID (ulid_decode helper)';

-- Encoder and decoder, written by this block so that their tables are derived here rather than
-- pasted: the encoder looks up two characters per 10 bits in a 2048-byte table (the 1024 pairs of
-- the alphabet; bytea, so that a look-up is not a character count through multibyte text), the
-- decoder a character's 5-bit value in a 128-byte table indexed by ASCII code.
-- 128 bits = byte 0 (characters 1-2: 3 + 5 bits) + 3 groups of 40 bits (5 bytes, 8 characters).
DO $gen$
DECLARE
    alphabet constant pg_catalog.text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    pairs pg_catalog.text;
    dec pg_catalog.text;
    enc_groups pg_catalog.text;
    dec_groups pg_catalog.text;
BEGIN
    -- bytea literals, as hex: E'\\x....' (an E'' string reads the same whatever
    -- standard_conforming_strings says; format('%L') below writes them as E'' strings too)
    SELECT E'\\x' OPERATOR(pg_catalog.||) pg_catalog.string_agg(pg_catalog.encode(pg_catalog.convert_to(
               pg_catalog.substr(alphabet, (v OPERATOR(pg_catalog./) 32) OPERATOR(pg_catalog.+) 1, 1)
               OPERATOR(pg_catalog.||) pg_catalog.substr(alphabet, (v OPERATOR(pg_catalog.%) 32) OPERATOR(pg_catalog.+) 1, 1),
               'UTF8'), 'hex'), '' ORDER BY v)
    INTO pairs FROM pg_catalog.generate_series(0, 1023) AS v;
    -- 128 bytes: the value of each ASCII character (aliases I, L -> 1, O -> 0, either case), 255 otherwise
    SELECT E'\\x' OPERATOR(pg_catalog.||) pg_catalog.string_agg(pg_catalog.lpad(pg_catalog.to_hex(
               CASE WHEN pg_catalog.strpos('IiLl', ch) OPERATOR(pg_catalog.>) 0 THEN 1
                    WHEN pg_catalog.strpos('Oo', ch) OPERATOR(pg_catalog.>) 0 THEN 0
                    WHEN pg_catalog.strpos(alphabet, ch) OPERATOR(pg_catalog.>) 0
                        THEN pg_catalog.strpos(alphabet, ch) OPERATOR(pg_catalog.-) 1
                    WHEN pg_catalog.strpos(pg_catalog.lower(alphabet), ch) OPERATOR(pg_catalog.>) 0
                        THEN pg_catalog.strpos(pg_catalog.lower(alphabet), ch) OPERATOR(pg_catalog.-) 1
                    ELSE 255 END), 2, '0'), '' ORDER BY c)
    INTO dec
    FROM pg_catalog.generate_series(0, 127) AS c,
         LATERAL (SELECT CASE WHEN c OPERATOR(pg_catalog.>=) 33 AND c OPERATOR(pg_catalog.<=) 126
                              THEN pg_catalog.chr(c) END) AS x(ch);
    -- encoder: for group g (hex digits 3+10g .. 12+10g), four pairs of 10 bits
    SELECT pg_catalog.string_agg(pg_catalog.format(
               E'\n        OPERATOR(pg_catalog.||) pg_catalog.substr(%1$L::pg_catalog.bytea, (2 OPERATOR(pg_catalog.*) ((g%2$s OPERATOR(pg_catalog.>>) %3$s) OPERATOR(pg_catalog.&) 1023)::pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 2)',
               pairs, g, s), '' ORDER BY g, s DESC)
    INTO enc_groups FROM pg_catalog.generate_series(1, 3) AS g, (VALUES (30), (20), (10), (0)) AS s(s);
    EXECUTE pg_catalog.format($f$
CREATE OR REPLACE FUNCTION ulid_portable.ulid_encode(id pg_catalog.uuid) RETURNS pg_catalog.text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
DECLARE
    b pg_catalog.bytea := pg_catalog.uuid_send(id);
    h pg_catalog.text := pg_catalog.encode(b, 'hex');
    g1 pg_catalog.int8 := (('x' OPERATOR(pg_catalog.||) pg_catalog.substr(h, 3, 10))::pg_catalog.bit(40))::pg_catalog.int8;
    g2 pg_catalog.int8 := (('x' OPERATOR(pg_catalog.||) pg_catalog.substr(h, 13, 10))::pg_catalog.bit(40))::pg_catalog.int8;
    g3 pg_catalog.int8 := (('x' OPERATOR(pg_catalog.||) pg_catalog.substr(h, 23, 10))::pg_catalog.bit(40))::pg_catalog.int8;
BEGIN
    -- 26 ASCII bytes; 'escape' turns them into the same text (it only escapes \ and non-ASCII)
    RETURN pg_catalog.encode(
        pg_catalog.substr(%1$L::pg_catalog.bytea, (2 OPERATOR(pg_catalog.*) pg_catalog.get_byte(b, 0)) OPERATOR(pg_catalog.+) 1, 2)%2$s,
        'escape');
END
$fn$
$f$, pairs, enc_groups);

    -- decoder: d(i) = value of byte i; group g = characters 3+8(g-1) .. 10+8(g-1) (1-based)
    SELECT pg_catalog.string_agg(pg_catalog.format(
               E'\n            OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(%s), 10, ''0'')',
               (SELECT pg_catalog.string_agg(pg_catalog.format(
                           '(pg_catalog.get_byte(%1$L::pg_catalog.bytea, pg_catalog.get_byte(b, %2$s))::pg_catalog.int8 OPERATOR(pg_catalog.<<) %3$s)',
                           dec, (2 OPERATOR(pg_catalog.+) (8 OPERATOR(pg_catalog.*) (g OPERATOR(pg_catalog.-) 1))) OPERATOR(pg_catalog.+) k,
                           35 OPERATOR(pg_catalog.-) (5 OPERATOR(pg_catalog.*) k)), ' OPERATOR(pg_catalog.|) ' ORDER BY k)
                FROM pg_catalog.generate_series(0, 7) AS k)), '' ORDER BY g)
    INTO dec_groups FROM pg_catalog.generate_series(1, 3) AS g;
    EXECUTE pg_catalog.format($f$
CREATE OR REPLACE FUNCTION ulid_portable.ulid_decode(input pg_catalog.text) RETURNS pg_catalog.uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
DECLARE
    b pg_catalog.bytea;
BEGIN
    -- 26 bytes, first character 0-7 (or an alias of 0 or 1), then 25 of the alphabet, any case
    IF pg_catalog.octet_length(input) OPERATOR(pg_catalog.<>) 26
       OR NOT (input COLLATE pg_catalog."C") OPERATOR(pg_catalog.~) '^[01234567IiLlOo][0123456789ABCDEFGHIJKLMNOPQRSTVWXYZabcdefghijklmnopqrstvwxyz]{25}$' THEN
        RETURN ulid_portable.decode_error(input);
    END IF;
    b := pg_catalog.decode(input, 'escape'); -- letters and digits only: their bytes as they are
    RETURN (pg_catalog.lpad(pg_catalog.to_hex(
                (pg_catalog.get_byte(%1$L::pg_catalog.bytea, pg_catalog.get_byte(b, 0)) OPERATOR(pg_catalog.<<) 5)
                OPERATOR(pg_catalog.|) pg_catalog.get_byte(%1$L::pg_catalog.bytea, pg_catalog.get_byte(b, 1))), 2, '0')%2$s
           )::pg_catalog.uuid;
END
$fn$
$f$, dec, dec_groups);
END
$gen$;

COMMENT ON FUNCTION ulid_portable.ulid_encode(pg_catalog.uuid) IS
    'the 26-character Crockford Base32 form of a ULID held in a uuid (uppercase)';
COMMENT ON FUNCTION ulid_portable.ulid_decode(pg_catalog.text) IS
    'a 26-character ULID string as uuid: case-insensitive, I/L read as 1 and O as 0; 22P02 otherwise';

-- ---------------------------------------------------------------------------------------------
-- Public ids: AES of the 16 bytes through pgcrypto
-- ---------------------------------------------------------------------------------------------

-- One AES (FIPS-197) block: pgcrypto's encrypt()/decrypt(data, key, 'aes-ecb/pad:none') on 16
-- bytes, byte for byte what the native ulid_encrypt()/ulid_decrypt() compute with OpenSSL.
-- pgcrypto picks AES-128, -192 or -256 by the key's length and zero-pads or truncates any other
-- length, so the length is checked here first (16 or 32, else 22023 as natively). pgcrypto's
-- schema differs between servers (public, extensions, ...): its function is found at each call as a
-- member of the extension pgcrypto (pg_depend) in that extension's schema, written in C, with
-- exactly the signature (bytea, bytea, text), never through search_path, so a pgcrypto created or
-- moved later is found and a function of that name outside it never is. Without pgcrypto: 0A000
-- naming it. STABLE, not IMMUTABLE as natively: the result depends on what the catalog holds (no
-- pgcrypto, no result), and no index should hold an expression over it (nor its key).
CREATE OR REPLACE FUNCTION ulid_portable.aes_block(block pg_catalog.bytea, key pg_catalog.bytea, inverse pg_catalog.bool)
RETURNS pg_catalog.bytea
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
DECLARE
    fn pg_catalog.text;
    found pg_catalog.int8;
    result pg_catalog.bytea;
BEGIN
    IF pg_catalog.octet_length(key) OPERATOR(pg_catalog.<>) 16 AND pg_catalog.octet_length(key) OPERATOR(pg_catalog.<>) 32 THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'ulid key must be 16 or 32 bytes',
            DETAIL = pg_catalog.format(CASE WHEN pg_catalog.octet_length(key) OPERATOR(pg_catalog.=) 1
                                            THEN 'The key given is %s byte.' ELSE 'The key given is %s bytes.' END,
                                       pg_catalog.octet_length(key)),
            HINT = 'Use 16 bytes for AES-128 or 32 for AES-256, for instance gen_random_bytes(32) of pgcrypto, kept as bytea.';
    END IF;
    -- a member of pgcrypto, in pgcrypto's own schema, written in C (which only a superuser can
    -- create: the owner of a trusted pgcrypto may be an ordinary role that adds functions of its
    -- own to the extension), with exactly that signature; anything but one such function is refused
    SELECT pg_catalog.min(pg_catalog.format('%I.%I', n.nspname, p.proname)), pg_catalog.count(*) INTO fn, found
    FROM pg_catalog.pg_extension e
    JOIN pg_catalog.pg_depend d ON d.refobjid OPERATOR(pg_catalog.=) e.oid
    JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) d.objid
    JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
    JOIN pg_catalog.pg_language l ON l.oid OPERATOR(pg_catalog.=) p.prolang
    WHERE e.extname OPERATOR(pg_catalog.=) 'pgcrypto'
      AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
      AND d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
      AND d.deptype OPERATOR(pg_catalog.=) 'e'
      AND p.pronamespace OPERATOR(pg_catalog.=) e.extnamespace
      AND l.lanname OPERATOR(pg_catalog.=) 'c'
      AND p.proname OPERATOR(pg_catalog.=) CASE WHEN inverse THEN 'decrypt' ELSE 'encrypt' END
      AND p.proargtypes OPERATOR(pg_catalog.=) '17 17 25'::pg_catalog.oidvector;
    IF found OPERATOR(pg_catalog.<>) 1 THEN
        RAISE EXCEPTION USING ERRCODE = '0A000',
            MESSAGE = 'ulid_portable.ulid_encrypt() and ulid_decrypt() need the extension pgcrypto',
            DETAIL = 'No extension pgcrypto with encrypt(bytea, bytea, text) and decrypt(bytea, bytea, text) is installed in this database.',
            HINT = 'CREATE EXTENSION pgcrypto (in any schema); the other functions of ulid_portable work without it.';
    END IF;
    EXECUTE pg_catalog.format('SELECT %s($1, $2, $3)', fn) INTO result
        USING block, key, 'aes-ecb/pad:none'::pg_catalog.text;
    RETURN result;
END
$fn$;

CREATE OR REPLACE FUNCTION ulid_portable.ulid_encrypt(id pg_catalog.uuid, key pg_catalog.bytea) RETURNS pg_catalog.uuid
LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
    SELECT pg_catalog.encode(ulid_portable.aes_block(pg_catalog.uuid_send(id), key, false), 'hex')::pg_catalog.uuid
$fn$;

CREATE OR REPLACE FUNCTION ulid_portable.ulid_decrypt(public_id pg_catalog.uuid, key pg_catalog.bytea) RETURNS pg_catalog.uuid
LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
    SELECT pg_catalog.encode(ulid_portable.aes_block(pg_catalog.uuid_send(public_id), key, true), 'hex')::pg_catalog.uuid
$fn$;

COMMENT ON FUNCTION ulid_portable.ulid_encrypt(pg_catalog.uuid, pg_catalog.bytea) IS
    'public id of an id: AES of its 16 bytes with a 16- or 32-byte key (pgcrypto), as the native ulid_encrypt';
COMMENT ON FUNCTION ulid_portable.ulid_decrypt(pg_catalog.uuid, pg_catalog.bytea) IS
    'id of a public id: the inverse of ulid_portable.ulid_encrypt with the same key';

-- Before COMMIT: every object in the schema must be the installing role's own. An object of another
-- role that was there before (CREATE OR REPLACE FUNCTION kept its owner) or was planted while this
-- ran makes the whole script fail and roll back.
DO $guard_again$
DECLARE
    installer pg_catalog.oid := (SELECT r.oid FROM pg_catalog.pg_roles r
                                 WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER);
    portable_nsp pg_catalog.oid := (SELECT n.oid FROM pg_catalog.pg_namespace n
                           WHERE n.nspname OPERATOR(pg_catalog.=) 'ulid_portable'
                             AND n.nspowner OPERATOR(pg_catalog.=) installer);
    foreign_objects pg_catalog.text;
BEGIN
    foreign_objects := (SELECT pg_catalog.string_agg(o.what, ', ' ORDER BY o.what)
         FROM (SELECT pg_catalog.pg_describe_object(x.classid, x.objid, 0)
                      OPERATOR(pg_catalog.||) ' (owner ' OPERATOR(pg_catalog.||) x.owner::pg_catalog.regrole::pg_catalog.text
                      OPERATOR(pg_catalog.||) ')'
               FROM (SELECT 'pg_catalog.pg_proc'::pg_catalog.regclass, p.oid, p.proowner, p.pronamespace FROM pg_catalog.pg_proc p
                     UNION ALL SELECT 'pg_catalog.pg_class'::pg_catalog.regclass, c.oid, c.relowner, c.relnamespace FROM pg_catalog.pg_class c
                     UNION ALL SELECT 'pg_catalog.pg_type'::pg_catalog.regclass, t.oid, t.typowner, t.typnamespace FROM pg_catalog.pg_type t
                     UNION ALL SELECT 'pg_catalog.pg_operator'::pg_catalog.regclass, o.oid, o.oprowner, o.oprnamespace FROM pg_catalog.pg_operator o
                     UNION ALL SELECT 'pg_catalog.pg_opclass'::pg_catalog.regclass, c.oid, c.opcowner, c.opcnamespace FROM pg_catalog.pg_opclass c
                     UNION ALL SELECT 'pg_catalog.pg_opfamily'::pg_catalog.regclass, f.oid, f.opfowner, f.opfnamespace FROM pg_catalog.pg_opfamily f
                     UNION ALL SELECT 'pg_catalog.pg_collation'::pg_catalog.regclass, c.oid, c.collowner, c.collnamespace FROM pg_catalog.pg_collation c
                     UNION ALL SELECT 'pg_catalog.pg_conversion'::pg_catalog.regclass, c.oid, c.conowner, c.connamespace FROM pg_catalog.pg_conversion c
                     UNION ALL SELECT 'pg_catalog.pg_ts_config'::pg_catalog.regclass, c.oid, c.cfgowner, c.cfgnamespace FROM pg_catalog.pg_ts_config c
                     UNION ALL SELECT 'pg_catalog.pg_ts_dict'::pg_catalog.regclass, d.oid, d.dictowner, d.dictnamespace FROM pg_catalog.pg_ts_dict d
                     UNION ALL SELECT 'pg_catalog.pg_statistic_ext'::pg_catalog.regclass, e.oid, e.stxowner, e.stxnamespace FROM pg_catalog.pg_statistic_ext e
                    ) AS x(classid, objid, owner, in_schema)
               WHERE x.in_schema OPERATOR(pg_catalog.=) portable_nsp AND x.owner OPERATOR(pg_catalog.<>) installer) AS o(what));
    IF portable_nsp IS NULL OR foreign_objects IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = '42501',
            MESSAGE = 'schema ulid_portable holds objects that the installing role does not own',
            DETAIL = COALESCE(foreign_objects, 'The schema is not owned by the installing role.'),
            HINT = 'Drop them, or run this script as their owner.';
    END IF;
END
$guard_again$;


-- portable/tle/adopted.sql: the end of the current version's install script in pg_tle. After a
-- loose installation was taken over (portable/tle/adopt.sql), every function in the schema must be
-- one the loose installation had (same object), with the definition it had, and rewritten by this
-- script (so it is one this version makes, with its exact signature); else the whole CREATE
-- EXTENSION fails and nothing changes.

DO $adopted$
DECLARE
    said pg_catalog.text := pg_catalog.current_setting('ulid_portable.adopting', true);
    before pg_catalog.json := CASE WHEN said OPERATOR(pg_catalog.<>) '' THEN said::pg_catalog.json END;
    nsp pg_catalog.oid := (SELECT n.oid FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) 'ulid_portable');
    -- pg_proc.xmin of a row this transaction wrote (its top-level transaction id, modulo 2^32)
    mine pg_catalog.text := ((pg_catalog.pg_current_xact_id()::pg_catalog.text::pg_catalog.int8)
                             OPERATOR(pg_catalog.%) 4294967296)::pg_catalog.text;
    listed pg_catalog.text;
BEGIN
    IF before IS NULL THEN
        RETURN; -- a new installation
    END IF;
    SELECT pg_catalog.string_agg(x.what, '; ' ORDER BY x.what) INTO listed
    FROM (SELECT p.oid::pg_catalog.regprocedure::pg_catalog.text OPERATOR(pg_catalog.||)
                 CASE WHEN b.value IS NULL THEN ': missing from the loose installation'
                      WHEN p.xmin::pg_catalog.text OPERATOR(pg_catalog.<>) mine THEN ': not a function of this version'
                      ELSE ': defined otherwise in the loose installation' END
          FROM pg_catalog.pg_proc p
          LEFT JOIN pg_catalog.json_each_text(before) b ON b.key OPERATOR(pg_catalog.=) p.oid::pg_catalog.text
          WHERE p.pronamespace OPERATOR(pg_catalog.=) nsp
            AND (b.value IS NULL
                 OR p.xmin::pg_catalog.text OPERATOR(pg_catalog.<>) mine
                 OR b.value OPERATOR(pg_catalog.<>) pg_catalog.md5(pg_catalog.pg_get_functiondef(p.oid)))) AS x(what);
    IF listed IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = '55000',
            MESSAGE = 'the loose installation in schema ulid_portable is not this version of the portable edition',
            DETAIL = listed,
            HINT = 'Run portable/ulid_portable.sql of the version you are installing first (it updates a loose installation in place), then CREATE EXTENSION ulid_portable again.';
    END IF;
    PERFORM pg_catalog.set_config('ulid_portable.adopting', '', true);
END
$adopted$;
$ulid_tle_0_6_0$);

SELECT pg_temp.ulid_portable_register('update', '0.5.0', '0.6.0', $ulid_tle_0_5_0_to_0_6_0$-- portable/ulid_portable.sql: ULIDs in plain SQL and PL/pgSQL, stored as uuid (PostgreSQL 13 and later).
-- Version 0.6.0 of the portable edition (its version is that of the ulid release that last changed it).
--
-- For servers that cannot load the native ulid extension (managed services). Install with
--     psql -v ON_ERROR_STOP=1 -f portable/ulid_portable.sql
-- (or paste it into any SQL console) as a role with CREATE on the database; it needs no
-- superuser, no C and no other extension (ulid_encrypt and ulid_decrypt use pgcrypto if it is
-- there). Everything lives in the schema ulid_portable, so it never collides with the native
-- extension, and it can be run again to update the functions.
--
-- A ULID is kept in a uuid column: the same 16 bytes the native type holds (48-bit Unix
-- milliseconds, then 80 bits of entropy, big-endian), so `ALTER TABLE ... ALTER COLUMN id TYPE ulid`
-- later moves a table to the native extension without rewriting it. The functions follow the
-- native extension's rules, errors (SQLSTATE, message and DETAIL) included:
--
--   gen_ulid() -> uuid                  strictly increasing within a session (VOLATILE, PARALLEL UNSAFE)
--   gen_random_ulid() -> uuid           current time, fresh random entropy (VOLATILE, PARALLEL SAFE)
--   gen_ulid(timestamptz) -> uuid       that millisecond, fresh random entropy (backfills)
--   ulid_encode(uuid) -> text           26 uppercase Crockford Base32 characters    (IMMUTABLE)
--   ulid_decode(text) -> uuid           case-insensitive, I/L -> 1, O -> 0; 22P02   (IMMUTABLE)
--   ulid_to_timestamp(uuid) -> timestamptz, ulid_min(timestamptz), ulid_max(timestamptz) (IMMUTABLE)
--   ulid_encrypt(uuid, key bytea) -> uuid, ulid_decrypt(uuid, key bytea) -> uuid   public ids: AES
--                                       of the 16 bytes through pgcrypto, if installed (STABLE)
--
-- gen_ulid() keeps its per-session state (the last value) in two temporary sequences,
-- pg_temp.ulid_portable_hi and pg_temp.ulid_portable_lo, written with setval(). Sequences are not
-- transactional: a value handed out by a transaction or savepoint that is rolled back is still the
-- state the next call increments, so no value is ever repeated and the order holds across ROLLBACK
-- (a custom setting would be rolled back with the transaction and could repeat values). The first
-- call of a session creates them (that needs the TEMP privilege and a writable transaction) and
-- waits for the next millisecond, so that a state lost with a rolled-back first transaction (or
-- DISCARD TEMP) does not repeat a value of the current millisecond. That holds only while the
-- clock does not go back: a state lost after the clock stepped back can give values below ones the
-- session handed out before. The sequences are granted to PUBLIC so that every role the session
-- switches to (SET ROLE, a pooler's role per request) shares one order; it follows that any of
-- those roles can also rewind or spoil that order (setval on them: lower or repeated values, or
-- 54000 on every later call). Where that matters, use the native extension, or gen_random_ulid().
-- Consequences: gen_ulid() is PARALLEL UNSAFE, does not run on a standby, and a transaction that
-- used it cannot be PREPAREd (two-phase commit); gen_random_ulid() has none of these limits.
--
-- Security: every function is SECURITY INVOKER and refers to built-ins as pg_catalog.name and
-- OPERATOR(pg_catalog.op), and to its own objects schema-qualified, so no search_path (a caller's
-- or a planted one) changes what they call. The script refuses (42501) a schema ulid_portable that
-- the installing role does not own itself, or that holds an object owned by another role: being a
-- superuser or a member of the owner's role is not enough (CREATE OR REPLACE FUNCTION keeps a
-- function's owner, who could rewrite it after a superuser "installed" it). The schema's owner is
-- checked first, every object in it last, before COMMIT. Where pg_tle is offered, the same
-- functions install as the extension ulid_portable (portable/ulid_portable_tle.sql, made from this
-- file by scripts/portable-tle: the lines between the two "loose file only" markers are left
-- out there); this file then refuses (55000) to touch a schema that an extension owns.


CREATE SCHEMA IF NOT EXISTS ulid_portable;

DO $guard$
DECLARE
    installer pg_catalog.oid := (SELECT r.oid FROM pg_catalog.pg_roles r
                                 WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER);
    nsp_owner pg_catalog.oid;
BEGIN
    IF (pg_catalog.current_setting('server_version_num')::pg_catalog.int4 OPERATOR(pg_catalog.>=) 130000) IS NOT TRUE THEN
        RAISE EXCEPTION USING ERRCODE = '0A000',
            MESSAGE = 'ulid_portable needs PostgreSQL 13 or later (core gen_random_uuid())';
    END IF;
    SELECT n.nspowner INTO nsp_owner
    FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) 'ulid_portable';
    IF (nsp_owner OPERATOR(pg_catalog.=) installer) IS NOT TRUE THEN
        RAISE EXCEPTION USING ERRCODE = '42501',
            MESSAGE = 'schema ulid_portable exists and is not owned by the installing role',
            DETAIL = pg_catalog.format('It is owned by %s; the installing role is %s.',
                                       nsp_owner::pg_catalog.regrole, CURRENT_USER),
            HINT = 'Drop it, or run this script as its owner.';
    END IF;
END
$guard$;

GRANT USAGE ON SCHEMA ulid_portable TO PUBLIC;

COMMENT ON SCHEMA ulid_portable IS
    'ulid_portable 0.6.0: portable ULID functions (SQL and PL/pgSQL, values stored as uuid); see README "On managed services"';

-- ---------------------------------------------------------------------------------------------
-- Time: timestamptz <-> Unix milliseconds, with the native extension's range errors
-- ---------------------------------------------------------------------------------------------

-- The Unix millisecond holding ts (rounded down), from timestamptz_send's exact microsecond count
-- since 2000-01-01 UTC (independent of TimeZone and of floating point). 22008 when ts is infinite,
-- before 1970-01-01 UTC or after 10889-08-02 05:31:50.655 UTC (the 48-bit limit).
CREATE OR REPLACE FUNCTION ulid_portable.unix_ms(ts pg_catalog.timestamptz) RETURNS pg_catalog.int8
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
DECLARE
    -- microseconds since 2000-01-01 00:00:00 UTC
    us pg_catalog.int8 := (('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.timestamptz_send(ts), 'hex'))
                           ::pg_catalog.bit(64))::pg_catalog.int8;
    range_detail constant pg_catalog.text :=
        'A ULID holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.';
BEGIN
    IF NOT pg_catalog.isfinite(ts) THEN
        RAISE EXCEPTION USING ERRCODE = '22008', MESSAGE = 'timestamp out of range for ulid',
            DETAIL = 'An infinite timestamp has no ULID. ' OPERATOR(pg_catalog.||) range_detail;
    END IF;
    -- 946684800000000 = microseconds from 1970 to 2000; compare before adding (no int8 overflow:
    -- 9222425352054775807 = 2^63 - 1 - 946684800000000). OPERATOR(...) forms all share one
    -- precedence and associate to the left: every expression here is parenthesized.
    IF us OPERATOR(pg_catalog.<) -946684800000000
       OR us OPERATOR(pg_catalog.>) 9222425352054775807
       OR ((us OPERATOR(pg_catalog.+) 946684800000000) OPERATOR(pg_catalog./) 1000)
          OPERATOR(pg_catalog.>) 281474976710655 THEN
        RAISE EXCEPTION USING ERRCODE = '22008', MESSAGE = 'timestamp out of range for ulid',
            DETAIL = range_detail;
    END IF;
    RETURN (us OPERATOR(pg_catalog.+) 946684800000000) OPERATOR(pg_catalog./) 1000;
END
$fn$;

COMMENT ON FUNCTION ulid_portable.unix_ms(pg_catalog.timestamptz) IS
    'the Unix millisecond holding a time, as a ULID stores it (22008 outside the ULID range)';

-- The Unix millisecond stored in a ULID (its first 6 bytes).
CREATE OR REPLACE FUNCTION ulid_portable.ulid_ms(id pg_catalog.uuid) RETURNS pg_catalog.int8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT (('x' OPERATOR(pg_catalog.||) pg_catalog.left(pg_catalog.encode(pg_catalog.uuid_send($1), 'hex'), 12))
        ::pg_catalog.bit(48))::pg_catalog.int8
$fn$;

-- A Unix millisecond as timestamptz: whole seconds (exact in float8) plus the remaining
-- milliseconds, added to 1970-01-01 as a timestamp and read as UTC (all immutable, no rounding).
CREATE OR REPLACE FUNCTION ulid_portable.ms_to_timestamp(ms pg_catalog.int8) RETURNS pg_catalog.timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT pg_catalog.timezone('UTC', '1970-01-01 00:00:00'::pg_catalog.timestamp
    OPERATOR(pg_catalog.+) pg_catalog.make_interval(secs => ($1 OPERATOR(pg_catalog./) 1000)::pg_catalog.float8)
    OPERATOR(pg_catalog.+) (($1 OPERATOR(pg_catalog.%) 1000)::pg_catalog.float8
                            OPERATOR(pg_catalog.*) '0.001 seconds'::pg_catalog.interval))
$fn$;

CREATE OR REPLACE FUNCTION ulid_portable.ulid_to_timestamp(id pg_catalog.uuid) RETURNS pg_catalog.timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT ulid_portable.ms_to_timestamp(ulid_portable.ulid_ms($1))
$fn$;

CREATE OR REPLACE FUNCTION ulid_portable.ulid_min(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT (pg_catalog.encode(pg_catalog.substr(pg_catalog.int8send(ulid_portable.unix_ms($1)), 3, 6), 'hex')
        OPERATOR(pg_catalog.||) '00000000000000000000')::pg_catalog.uuid
$fn$;

CREATE OR REPLACE FUNCTION ulid_portable.ulid_max(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT (pg_catalog.encode(pg_catalog.substr(pg_catalog.int8send(ulid_portable.unix_ms($1)), 3, 6), 'hex')
        OPERATOR(pg_catalog.||) 'ffffffffffffffffffff')::pg_catalog.uuid
$fn$;

COMMENT ON FUNCTION ulid_portable.ulid_ms(pg_catalog.uuid) IS
    'the Unix millisecond stored in a ULID';
COMMENT ON FUNCTION ulid_portable.ms_to_timestamp(pg_catalog.int8) IS
    'a Unix millisecond as timestamptz (exact)';
COMMENT ON FUNCTION ulid_portable.ulid_to_timestamp(pg_catalog.uuid) IS
    'the time embedded in a ULID (millisecond precision)';
COMMENT ON FUNCTION ulid_portable.ulid_min(pg_catalog.timestamptz) IS
    'smallest ULID of the millisecond holding a time (range bound)';
COMMENT ON FUNCTION ulid_portable.ulid_max(pg_catalog.timestamptz) IS
    'largest ULID of the millisecond holding a time (range bound)';

-- ---------------------------------------------------------------------------------------------
-- Generators
-- ---------------------------------------------------------------------------------------------

-- A ULID at millisecond ms with 80 random bits: bytes 0-2 and 9-15 of a version-4 uuid from
-- gen_random_uuid() (pg_strong_random, the CSPRNG the native extension uses; the version and
-- variant bits of bytes 6 and 8 are skipped).
CREATE OR REPLACE FUNCTION ulid_portable.random_at(ms pg_catalog.int8) RETURNS pg_catalog.uuid
LANGUAGE sql VOLATILE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT pg_catalog.encode(pg_catalog.substr(pg_catalog.int8send($1), 3, 6)
                         OPERATOR(pg_catalog.||) pg_catalog.substr(r, 1, 3)
                         OPERATOR(pg_catalog.||) pg_catalog.substr(r, 10, 7), 'hex')::pg_catalog.uuid
FROM pg_catalog.uuid_send(pg_catalog.gen_random_uuid()) AS r
$fn$;

COMMENT ON FUNCTION ulid_portable.random_at(pg_catalog.int8) IS
    'a ULID at a Unix millisecond (0 to 2^48-1, not checked) with 80 fresh random bits';

-- random_at()'s expression, written out rather than called: the call (a SQL function with a FROM
-- clause is never inlined) doubled the cost per row (0.97 s against 0.49 s for 200,000 rows here).
CREATE OR REPLACE FUNCTION ulid_portable.gen_random_ulid() RETURNS pg_catalog.uuid
LANGUAGE plpgsql VOLATILE PARALLEL SAFE SECURITY INVOKER AS $fn$
DECLARE
    r pg_catalog.bytea := pg_catalog.uuid_send(pg_catalog.gen_random_uuid());
BEGIN
    RETURN pg_catalog.encode(pg_catalog.substr(pg_catalog.int8send(ulid_portable.unix_ms(pg_catalog.clock_timestamp())), 3, 6)
                             OPERATOR(pg_catalog.||) pg_catalog.substr(r, 1, 3)
                             OPERATOR(pg_catalog.||) pg_catalog.substr(r, 10, 7), 'hex')::pg_catalog.uuid;
END
$fn$;

CREATE OR REPLACE FUNCTION ulid_portable.gen_ulid(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
LANGUAGE sql VOLATILE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
SELECT ulid_portable.random_at(ulid_portable.unix_ms($1))
$fn$;

COMMENT ON FUNCTION ulid_portable.gen_random_ulid() IS
    'new ULID (as uuid) at the current time with fresh random entropy every call';
COMMENT ON FUNCTION ulid_portable.gen_ulid(pg_catalog.timestamptz) IS
    'new ULID (as uuid) at the given time with fresh random entropy (for backfills; not monotonic)';

-- The first call of a session (no state): create the state sequences and wait for the next
-- millisecond (a bounded spin), so that a state lost with a rolled-back first transaction does not
-- repeat a value of the current millisecond (while the clock has not gone back: see the top of
-- this file). Returns the millisecond to use.
CREATE OR REPLACE FUNCTION ulid_portable.gen_ulid_start(entry_ms pg_catalog.int8) RETURNS pg_catalog.int8
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SECURITY INVOKER AS $fn$
DECLARE
    now_ms pg_catalog.int8;
BEGIN
    CREATE TEMPORARY SEQUENCE IF NOT EXISTS ulid_portable_hi
        AS pg_catalog.int8 MINVALUE -9223372036854775808 MAXVALUE 9223372036854775807;
    CREATE TEMPORARY SEQUENCE IF NOT EXISTS ulid_portable_lo
        AS pg_catalog.int8 MINVALUE -9223372036854775808 MAXVALUE 9223372036854775807;
    -- Only this session ever sees its temporary objects; the grant lets every role it switches to
    -- (SET ROLE, SECURITY DEFINER functions, poolers that set a role per request) use the state.
    GRANT SELECT, UPDATE ON SEQUENCE pg_temp.ulid_portable_hi, pg_temp.ulid_portable_lo TO PUBLIC;
    FOR i IN 1 .. 1000000 LOOP
        now_ms := ulid_portable.unix_ms(pg_catalog.clock_timestamp());
        IF now_ms OPERATOR(pg_catalog.>) entry_ms THEN
            RETURN now_ms;
        END IF;
    END LOOP;
    -- the clock stepped back (or stands still): one millisecond after the entry time
    RETURN entry_ms OPERATOR(pg_catalog.+) 1;
END
$fn$;

COMMENT ON FUNCTION ulid_portable.gen_ulid_start(pg_catalog.int8) IS
    'gen_ulid() helper: create the session state and wait for a millisecond after the given one';

-- The monotonic generator, the native gen_ulid()'s rules (docs/monotonicity.md):
--  1. now_ms > last_ms: last_ms = now_ms and 80 fresh random bits;
--  2. otherwise (same millisecond, or the clock went back): keep last_ms, entropy + 1 (80-bit
--     add with carry);
--  3. an increment past 80 bits: ERROR 54000, state unchanged.
-- State: hi = ms << 16 | top 16 entropy bits, lo = low 64 entropy bits, both as signed int8 in
-- temporary sequences (setval is not rolled back). Writes go from the more significant word to the
-- less significant one, so an interrupted call only ever leaves a state above every value handed out.
CREATE OR REPLACE FUNCTION ulid_portable.gen_ulid() RETURNS pg_catalog.uuid
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SECURITY INVOKER AS $fn$
DECLARE
    hi_seq pg_catalog.regclass := pg_catalog.to_regclass('pg_temp.ulid_portable_hi');
    lo_seq pg_catalog.regclass := pg_catalog.to_regclass('pg_temp.ulid_portable_lo');
    now_ms pg_catalog.int8 := ulid_portable.unix_ms(pg_catalog.clock_timestamp());
    hi pg_catalog.int8;
    lo pg_catalog.int8;
    r pg_catalog.bytea;
BEGIN
    IF hi_seq IS NOT NULL AND lo_seq IS NOT NULL THEN
        hi := pg_catalog.pg_sequence_last_value(hi_seq);
        lo := pg_catalog.pg_sequence_last_value(lo_seq);
    END IF;
    IF hi IS NULL OR lo IS NULL THEN
        now_ms := ulid_portable.gen_ulid_start(now_ms);
        hi_seq := pg_catalog.to_regclass('pg_temp.ulid_portable_hi');
        lo_seq := pg_catalog.to_regclass('pg_temp.ulid_portable_lo');
    ELSIF now_ms OPERATOR(pg_catalog.<=) ((hi OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 281474976710655) THEN
        IF lo OPERATOR(pg_catalog.<>) -1 THEN
            -- lo + 1 as an unsigned 64-bit add: 2^63 - 1 is followed by -2^63
            lo := pg_catalog.setval(lo_seq, CASE WHEN lo OPERATOR(pg_catalog.=) 9223372036854775807
                                                 THEN -9223372036854775808
                                                 ELSE lo OPERATOR(pg_catalog.+) 1 END, true);
        ELSIF (hi OPERATOR(pg_catalog.&) 65535) OPERATOR(pg_catalog.<>) 65535 THEN
            hi := pg_catalog.setval(hi_seq, hi OPERATOR(pg_catalog.+) 1, true);
            lo := pg_catalog.setval(lo_seq, 0, true);
        ELSE
            RAISE EXCEPTION USING ERRCODE = '54000',
                MESSAGE = 'ulid entropy overflow within one millisecond',
                DETAIL = 'All 2^80 values after the first ULID of this millisecond were used.',
                HINT = 'Retry in the next millisecond.';
        END IF;
        RETURN pg_catalog.encode(pg_catalog.int8send(hi) OPERATOR(pg_catalog.||) pg_catalog.int8send(lo), 'hex')
               ::pg_catalog.uuid;
    END IF;
    r := pg_catalog.uuid_send(pg_catalog.gen_random_uuid());
    hi := pg_catalog.setval(hi_seq, (now_ms OPERATOR(pg_catalog.<<) 16)
                                    OPERATOR(pg_catalog.|) (pg_catalog.get_byte(r, 0) OPERATOR(pg_catalog.<<) 8)
                                    OPERATOR(pg_catalog.|) pg_catalog.get_byte(r, 1), true);
    lo := pg_catalog.setval(lo_seq, (('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(r, 3, 1)
                                      OPERATOR(pg_catalog.||) pg_catalog.substr(r, 10, 7), 'hex'))
                                     ::pg_catalog.bit(64))::pg_catalog.int8, true);
    RETURN pg_catalog.encode(pg_catalog.int8send(hi) OPERATOR(pg_catalog.||) pg_catalog.int8send(lo), 'hex')
           ::pg_catalog.uuid;
END
$fn$;

COMMENT ON FUNCTION ulid_portable.gen_ulid() IS
    'new ULID (as uuid), strictly increasing within this session, also across rollbacks (same millisecond: previous + 1)';

-- ---------------------------------------------------------------------------------------------
-- Text: Crockford Base32
-- ---------------------------------------------------------------------------------------------

-- Why a string is not a ULID, worded as the native extension words it (the first problem by
-- position; positions count bytes from 1, as the native decoder does).
CREATE OR REPLACE FUNCTION ulid_portable.decode_error(input pg_catalog.text) RETURNS pg_catalog.uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
DECLARE
    b pg_catalog.bytea := pg_catalog.convert_to(input, pg_catalog.getdatabaseencoding());
    n pg_catalog.int4 := pg_catalog.length(b);
    msg pg_catalog.text := pg_catalog.format('invalid input syntax for type %s: "%s"', 'ulid', input);
    c pg_catalog.int4;
    ch pg_catalog.text COLLATE pg_catalog."C";
BEGIN
    IF n OPERATOR(pg_catalog.<>) 26 THEN
        RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = msg,
            DETAIL = pg_catalog.format('A ULID is exactly 26 ASCII characters; the input is %s %s long.',
                                       n, CASE WHEN n OPERATOR(pg_catalog.=) 1 THEN 'byte' ELSE 'bytes' END);
    END IF;
    FOR i IN 0 .. 25 LOOP
        c := pg_catalog.get_byte(b, i);
        -- chr() only of ASCII bytes (a multibyte server encoding refuses chr(128..255)); "C"
        -- collation, since strpos() refuses a nondeterministic one that the input may carry
        ch := CASE WHEN c OPERATOR(pg_catalog.<) 128 THEN pg_catalog.chr(c) COLLATE pg_catalog."C" END;
        IF c OPERATOR(pg_catalog.>=) 128
           OR pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTVWXYZabcdefghijklmnopqrstvwxyz', ch)
              OPERATOR(pg_catalog.=) 0 THEN
            IF c OPERATOR(pg_catalog.>=) 33 AND c OPERATOR(pg_catalog.<=) 126 THEN
                RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = msg,
                    DETAIL = pg_catalog.format('Character "%s" at position %s is not in the Crockford Base32 alphabet.',
                                               ch, i OPERATOR(pg_catalog.+) 1);
            END IF;
            RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = msg,
                DETAIL = pg_catalog.format('Byte 0x%s at position %s is not in the Crockford Base32 alphabet.',
                                           pg_catalog.upper(pg_catalog.lpad(pg_catalog.to_hex(c), 2, '0')),
                                           i OPERATOR(pg_catalog.+) 1);
        END IF;
        IF i OPERATOR(pg_catalog.=) 0 AND pg_catalog.strpos('01234567IiLlOo', ch) OPERATOR(pg_catalog.=) 0 THEN
            RAISE EXCEPTION USING ERRCODE = '22P02', MESSAGE = msg,
                DETAIL = pg_catalog.format('The first character "%s" is above "7": the value would not fit in 128 bits.', ch);
        END IF;
    END LOOP;
    RAISE EXCEPTION 'ulid_portable.decode_error: "%" is a valid ULID', input USING ERRCODE = 'XX000';
END
$fn$;

COMMENT ON FUNCTION ulid_portable.decode_error(pg_catalog.text) IS
    'raises the 22P02 error that says why a string is not a ULID (ulid_decode helper)';

-- Encoder and decoder, written by this block so that their tables are derived here rather than
-- pasted: the encoder looks up two characters per 10 bits in a 2048-byte table (the 1024 pairs of
-- the alphabet; bytea, so that a look-up is not a character count through multibyte text), the
-- decoder a character's 5-bit value in a 128-byte table indexed by ASCII code.
-- 128 bits = byte 0 (characters 1-2: 3 + 5 bits) + 3 groups of 40 bits (5 bytes, 8 characters).
DO $gen$
DECLARE
    alphabet constant pg_catalog.text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    pairs pg_catalog.text;
    dec pg_catalog.text;
    enc_groups pg_catalog.text;
    dec_groups pg_catalog.text;
BEGIN
    -- bytea literals, as hex: E'\\x....' (an E'' string reads the same whatever
    -- standard_conforming_strings says; format('%L') below writes them as E'' strings too)
    SELECT E'\\x' OPERATOR(pg_catalog.||) pg_catalog.string_agg(pg_catalog.encode(pg_catalog.convert_to(
               pg_catalog.substr(alphabet, (v OPERATOR(pg_catalog./) 32) OPERATOR(pg_catalog.+) 1, 1)
               OPERATOR(pg_catalog.||) pg_catalog.substr(alphabet, (v OPERATOR(pg_catalog.%) 32) OPERATOR(pg_catalog.+) 1, 1),
               'UTF8'), 'hex'), '' ORDER BY v)
    INTO pairs FROM pg_catalog.generate_series(0, 1023) AS v;
    -- 128 bytes: the value of each ASCII character (aliases I, L -> 1, O -> 0, either case), 255 otherwise
    SELECT E'\\x' OPERATOR(pg_catalog.||) pg_catalog.string_agg(pg_catalog.lpad(pg_catalog.to_hex(
               CASE WHEN pg_catalog.strpos('IiLl', ch) OPERATOR(pg_catalog.>) 0 THEN 1
                    WHEN pg_catalog.strpos('Oo', ch) OPERATOR(pg_catalog.>) 0 THEN 0
                    WHEN pg_catalog.strpos(alphabet, ch) OPERATOR(pg_catalog.>) 0
                        THEN pg_catalog.strpos(alphabet, ch) OPERATOR(pg_catalog.-) 1
                    WHEN pg_catalog.strpos(pg_catalog.lower(alphabet), ch) OPERATOR(pg_catalog.>) 0
                        THEN pg_catalog.strpos(pg_catalog.lower(alphabet), ch) OPERATOR(pg_catalog.-) 1
                    ELSE 255 END), 2, '0'), '' ORDER BY c)
    INTO dec
    FROM pg_catalog.generate_series(0, 127) AS c,
         LATERAL (SELECT CASE WHEN c OPERATOR(pg_catalog.>=) 33 AND c OPERATOR(pg_catalog.<=) 126
                              THEN pg_catalog.chr(c) END) AS x(ch);
    -- encoder: for group g (hex digits 3+10g .. 12+10g), four pairs of 10 bits
    SELECT pg_catalog.string_agg(pg_catalog.format(
               E'\n        OPERATOR(pg_catalog.||) pg_catalog.substr(%1$L::pg_catalog.bytea, (2 OPERATOR(pg_catalog.*) ((g%2$s OPERATOR(pg_catalog.>>) %3$s) OPERATOR(pg_catalog.&) 1023)::pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 2)',
               pairs, g, s), '' ORDER BY g, s DESC)
    INTO enc_groups FROM pg_catalog.generate_series(1, 3) AS g, (VALUES (30), (20), (10), (0)) AS s(s);
    EXECUTE pg_catalog.format($f$
CREATE OR REPLACE FUNCTION ulid_portable.ulid_encode(id pg_catalog.uuid) RETURNS pg_catalog.text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
DECLARE
    b pg_catalog.bytea := pg_catalog.uuid_send(id);
    h pg_catalog.text := pg_catalog.encode(b, 'hex');
    g1 pg_catalog.int8 := (('x' OPERATOR(pg_catalog.||) pg_catalog.substr(h, 3, 10))::pg_catalog.bit(40))::pg_catalog.int8;
    g2 pg_catalog.int8 := (('x' OPERATOR(pg_catalog.||) pg_catalog.substr(h, 13, 10))::pg_catalog.bit(40))::pg_catalog.int8;
    g3 pg_catalog.int8 := (('x' OPERATOR(pg_catalog.||) pg_catalog.substr(h, 23, 10))::pg_catalog.bit(40))::pg_catalog.int8;
BEGIN
    -- 26 ASCII bytes; 'escape' turns them into the same text (it only escapes \ and non-ASCII)
    RETURN pg_catalog.encode(
        pg_catalog.substr(%1$L::pg_catalog.bytea, (2 OPERATOR(pg_catalog.*) pg_catalog.get_byte(b, 0)) OPERATOR(pg_catalog.+) 1, 2)%2$s,
        'escape');
END
$fn$
$f$, pairs, enc_groups);

    -- decoder: d(i) = value of byte i; group g = characters 3+8(g-1) .. 10+8(g-1) (1-based)
    SELECT pg_catalog.string_agg(pg_catalog.format(
               E'\n            OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(%s), 10, ''0'')',
               (SELECT pg_catalog.string_agg(pg_catalog.format(
                           '(pg_catalog.get_byte(%1$L::pg_catalog.bytea, pg_catalog.get_byte(b, %2$s))::pg_catalog.int8 OPERATOR(pg_catalog.<<) %3$s)',
                           dec, (2 OPERATOR(pg_catalog.+) (8 OPERATOR(pg_catalog.*) (g OPERATOR(pg_catalog.-) 1))) OPERATOR(pg_catalog.+) k,
                           35 OPERATOR(pg_catalog.-) (5 OPERATOR(pg_catalog.*) k)), ' OPERATOR(pg_catalog.|) ' ORDER BY k)
                FROM pg_catalog.generate_series(0, 7) AS k)), '' ORDER BY g)
    INTO dec_groups FROM pg_catalog.generate_series(1, 3) AS g;
    EXECUTE pg_catalog.format($f$
CREATE OR REPLACE FUNCTION ulid_portable.ulid_decode(input pg_catalog.text) RETURNS pg_catalog.uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
DECLARE
    b pg_catalog.bytea;
BEGIN
    -- 26 bytes, first character 0-7 (or an alias of 0 or 1), then 25 of the alphabet, any case
    IF pg_catalog.octet_length(input) OPERATOR(pg_catalog.<>) 26
       OR NOT (input COLLATE pg_catalog."C") OPERATOR(pg_catalog.~) '^[01234567IiLlOo][0123456789ABCDEFGHIJKLMNOPQRSTVWXYZabcdefghijklmnopqrstvwxyz]{25}$' THEN
        RETURN ulid_portable.decode_error(input);
    END IF;
    b := pg_catalog.decode(input, 'escape'); -- letters and digits only: their bytes as they are
    RETURN (pg_catalog.lpad(pg_catalog.to_hex(
                (pg_catalog.get_byte(%1$L::pg_catalog.bytea, pg_catalog.get_byte(b, 0)) OPERATOR(pg_catalog.<<) 5)
                OPERATOR(pg_catalog.|) pg_catalog.get_byte(%1$L::pg_catalog.bytea, pg_catalog.get_byte(b, 1))), 2, '0')%2$s
           )::pg_catalog.uuid;
END
$fn$
$f$, dec, dec_groups);
END
$gen$;

COMMENT ON FUNCTION ulid_portable.ulid_encode(pg_catalog.uuid) IS
    'the 26-character Crockford Base32 form of a ULID held in a uuid (uppercase)';
COMMENT ON FUNCTION ulid_portable.ulid_decode(pg_catalog.text) IS
    'a 26-character ULID string as uuid: case-insensitive, I/L read as 1 and O as 0; 22P02 otherwise';

-- ---------------------------------------------------------------------------------------------
-- Public ids: AES of the 16 bytes through pgcrypto
-- ---------------------------------------------------------------------------------------------

-- One AES (FIPS-197) block: pgcrypto's encrypt()/decrypt(data, key, 'aes-ecb/pad:none') on 16
-- bytes, byte for byte what the native ulid_encrypt()/ulid_decrypt() compute with OpenSSL.
-- pgcrypto picks AES-128, -192 or -256 by the key's length and zero-pads or truncates any other
-- length, so the length is checked here first (16 or 32, else 22023 as natively). pgcrypto's
-- schema differs between servers (public, extensions, ...): its function is found at each call as a
-- member of the extension pgcrypto (pg_depend) in that extension's schema, written in C, with
-- exactly the signature (bytea, bytea, text), never through search_path, so a pgcrypto created or
-- moved later is found and a function of that name outside it never is. Without pgcrypto: 0A000
-- naming it. STABLE, not IMMUTABLE as natively: the result depends on what the catalog holds (no
-- pgcrypto, no result), and no index should hold an expression over it (nor its key).
CREATE OR REPLACE FUNCTION ulid_portable.aes_block(block pg_catalog.bytea, key pg_catalog.bytea, inverse pg_catalog.bool)
RETURNS pg_catalog.bytea
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
DECLARE
    fn pg_catalog.text;
    found pg_catalog.int8;
    result pg_catalog.bytea;
BEGIN
    IF pg_catalog.octet_length(key) OPERATOR(pg_catalog.<>) 16 AND pg_catalog.octet_length(key) OPERATOR(pg_catalog.<>) 32 THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'ulid key must be 16 or 32 bytes',
            DETAIL = pg_catalog.format(CASE WHEN pg_catalog.octet_length(key) OPERATOR(pg_catalog.=) 1
                                            THEN 'The key given is %s byte.' ELSE 'The key given is %s bytes.' END,
                                       pg_catalog.octet_length(key)),
            HINT = 'Use 16 bytes for AES-128 or 32 for AES-256, for instance gen_random_bytes(32) of pgcrypto, kept as bytea.';
    END IF;
    -- a member of pgcrypto, in pgcrypto's own schema, written in C (which only a superuser can
    -- create: the owner of a trusted pgcrypto may be an ordinary role that adds functions of its
    -- own to the extension), with exactly that signature; anything but one such function is refused
    SELECT pg_catalog.min(pg_catalog.format('%I.%I', n.nspname, p.proname)), pg_catalog.count(*) INTO fn, found
    FROM pg_catalog.pg_extension e
    JOIN pg_catalog.pg_depend d ON d.refobjid OPERATOR(pg_catalog.=) e.oid
    JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) d.objid
    JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
    JOIN pg_catalog.pg_language l ON l.oid OPERATOR(pg_catalog.=) p.prolang
    WHERE e.extname OPERATOR(pg_catalog.=) 'pgcrypto'
      AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
      AND d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
      AND d.deptype OPERATOR(pg_catalog.=) 'e'
      AND p.pronamespace OPERATOR(pg_catalog.=) e.extnamespace
      AND l.lanname OPERATOR(pg_catalog.=) 'c'
      AND p.proname OPERATOR(pg_catalog.=) CASE WHEN inverse THEN 'decrypt' ELSE 'encrypt' END
      AND p.proargtypes OPERATOR(pg_catalog.=) '17 17 25'::pg_catalog.oidvector;
    IF found OPERATOR(pg_catalog.<>) 1 THEN
        RAISE EXCEPTION USING ERRCODE = '0A000',
            MESSAGE = 'ulid_portable.ulid_encrypt() and ulid_decrypt() need the extension pgcrypto',
            DETAIL = 'No extension pgcrypto with encrypt(bytea, bytea, text) and decrypt(bytea, bytea, text) is installed in this database.',
            HINT = 'CREATE EXTENSION pgcrypto (in any schema); the other functions of ulid_portable work without it.';
    END IF;
    EXECUTE pg_catalog.format('SELECT %s($1, $2, $3)', fn) INTO result
        USING block, key, 'aes-ecb/pad:none'::pg_catalog.text;
    RETURN result;
END
$fn$;

CREATE OR REPLACE FUNCTION ulid_portable.ulid_encrypt(id pg_catalog.uuid, key pg_catalog.bytea) RETURNS pg_catalog.uuid
LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
    SELECT pg_catalog.encode(ulid_portable.aes_block(pg_catalog.uuid_send(id), key, false), 'hex')::pg_catalog.uuid
$fn$;

CREATE OR REPLACE FUNCTION ulid_portable.ulid_decrypt(public_id pg_catalog.uuid, key pg_catalog.bytea) RETURNS pg_catalog.uuid
LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY INVOKER AS $fn$
    SELECT pg_catalog.encode(ulid_portable.aes_block(pg_catalog.uuid_send(public_id), key, true), 'hex')::pg_catalog.uuid
$fn$;

COMMENT ON FUNCTION ulid_portable.ulid_encrypt(pg_catalog.uuid, pg_catalog.bytea) IS
    'public id of an id: AES of its 16 bytes with a 16- or 32-byte key (pgcrypto), as the native ulid_encrypt';
COMMENT ON FUNCTION ulid_portable.ulid_decrypt(pg_catalog.uuid, pg_catalog.bytea) IS
    'id of a public id: the inverse of ulid_portable.ulid_encrypt with the same key';

-- Before COMMIT: every object in the schema must be the installing role's own. An object of another
-- role that was there before (CREATE OR REPLACE FUNCTION kept its owner) or was planted while this
-- ran makes the whole script fail and roll back.
DO $guard_again$
DECLARE
    installer pg_catalog.oid := (SELECT r.oid FROM pg_catalog.pg_roles r
                                 WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER);
    portable_nsp pg_catalog.oid := (SELECT n.oid FROM pg_catalog.pg_namespace n
                           WHERE n.nspname OPERATOR(pg_catalog.=) 'ulid_portable'
                             AND n.nspowner OPERATOR(pg_catalog.=) installer);
    foreign_objects pg_catalog.text;
BEGIN
    foreign_objects := (SELECT pg_catalog.string_agg(o.what, ', ' ORDER BY o.what)
         FROM (SELECT pg_catalog.pg_describe_object(x.classid, x.objid, 0)
                      OPERATOR(pg_catalog.||) ' (owner ' OPERATOR(pg_catalog.||) x.owner::pg_catalog.regrole::pg_catalog.text
                      OPERATOR(pg_catalog.||) ')'
               FROM (SELECT 'pg_catalog.pg_proc'::pg_catalog.regclass, p.oid, p.proowner, p.pronamespace FROM pg_catalog.pg_proc p
                     UNION ALL SELECT 'pg_catalog.pg_class'::pg_catalog.regclass, c.oid, c.relowner, c.relnamespace FROM pg_catalog.pg_class c
                     UNION ALL SELECT 'pg_catalog.pg_type'::pg_catalog.regclass, t.oid, t.typowner, t.typnamespace FROM pg_catalog.pg_type t
                     UNION ALL SELECT 'pg_catalog.pg_operator'::pg_catalog.regclass, o.oid, o.oprowner, o.oprnamespace FROM pg_catalog.pg_operator o
                     UNION ALL SELECT 'pg_catalog.pg_opclass'::pg_catalog.regclass, c.oid, c.opcowner, c.opcnamespace FROM pg_catalog.pg_opclass c
                     UNION ALL SELECT 'pg_catalog.pg_opfamily'::pg_catalog.regclass, f.oid, f.opfowner, f.opfnamespace FROM pg_catalog.pg_opfamily f
                     UNION ALL SELECT 'pg_catalog.pg_collation'::pg_catalog.regclass, c.oid, c.collowner, c.collnamespace FROM pg_catalog.pg_collation c
                     UNION ALL SELECT 'pg_catalog.pg_conversion'::pg_catalog.regclass, c.oid, c.conowner, c.connamespace FROM pg_catalog.pg_conversion c
                     UNION ALL SELECT 'pg_catalog.pg_ts_config'::pg_catalog.regclass, c.oid, c.cfgowner, c.cfgnamespace FROM pg_catalog.pg_ts_config c
                     UNION ALL SELECT 'pg_catalog.pg_ts_dict'::pg_catalog.regclass, d.oid, d.dictowner, d.dictnamespace FROM pg_catalog.pg_ts_dict d
                     UNION ALL SELECT 'pg_catalog.pg_statistic_ext'::pg_catalog.regclass, e.oid, e.stxowner, e.stxnamespace FROM pg_catalog.pg_statistic_ext e
                    ) AS x(classid, objid, owner, in_schema)
               WHERE x.in_schema OPERATOR(pg_catalog.=) portable_nsp AND x.owner OPERATOR(pg_catalog.<>) installer) AS o(what));
    IF portable_nsp IS NULL OR foreign_objects IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = '42501',
            MESSAGE = 'schema ulid_portable holds objects that the installing role does not own',
            DETAIL = COALESCE(foreign_objects, 'The schema is not owned by the installing role.'),
            HINT = 'Drop them, or run this script as their owner.';
    END IF;
END
$guard_again$;

$ulid_tle_0_5_0_to_0_6_0$);

SELECT pg_temp.ulid_portable_register('default', NULL, '0.6.0', NULL);

COMMIT;
