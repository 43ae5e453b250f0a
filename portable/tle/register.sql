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
