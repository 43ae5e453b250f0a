
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
