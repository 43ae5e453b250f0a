#!/usr/bin/env bash
# The portable edition (portable/ulid_portable.sql) against the native extension, in one database:
#   - installs as a role that is not a superuser (only CREATE on the database), twice (re-runnable);
#     every function SQL or PL/pgSQL, SECURITY INVOKER, with the expected volatility, strictness and
#     PARALLEL label; usable by a role with no privileges of its own;
#   - 100,000 random values plus the extremes: ulid_encode = native text, ulid_decode of the
#     canonical, lowercase and alias forms = native input, ulid_to_timestamp, ulid_min/ulid_max
#     and gen_ulid(ts)'s millisecond = native, all byte for byte;
#   - a list of bad strings (wrong length, bad and look-alike characters, a first character above 7)
#     and bad timestamps: the same SQLSTATE, message and DETAIL;
#   - gen_ulid() strictly increasing within a session across ROLLBACK (also of the session's first
#     transaction), ROLLBACK TO SAVEPOINT, errors, exception blocks, DISCARD TEMP/SEQUENCES/ALL; the
#     80-bit carry, the 2^63 step and the overflow (54000, native wording, state unchanged) from
#     planted states; unique and per-session increasing across 8 concurrent pgbench clients;
#   - public ids: without pgcrypto, ulid_encrypt/ulid_decrypt raise 0A000 naming it and the rest
#     works; with pgcrypto in a schema of its own, FIPS-197's AES-128 and AES-256 vectors from both
#     editions, 10,000 random ids x keys byte-identical to the native functions (both directions),
#     round trips, a wrong key, keys of bad lengths (the native 22023), NULLs; a look-alike
#     encrypt() first on the path is not called; pgcrypto moved to another schema is found;
#   - a search_path whose first schema plants look-alikes of every pg_catalog function and operator
#     the file names: none is ever called.
# With ULID_PORTABLE_FORM=tle, the same checks of the pg_tle form (portable/ulid_portable_tle.sql,
# then CREATE EXTENSION ulid_portable) on a server that preloads pg_tle (t/180_pg_tle.pl runs it
# so): the installer is in pgtle_admin; pgcrypto, which the extension requires, is created before
# it, so the check without pgcrypto is t/180_pg_tle.pl's (CREATE EXTENSION refuses); a re-run is
# the registration again and ALTER EXTENSION ... UPDATE.
# Runs in the throwaway cluster of scripts/test (PG* environment, a superuser). About 30 s.
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
source test/lib/checks.sh
suite_exit_on_signals

PORTABLE=portable/ulid_portable.sql
FORM="${ULID_PORTABLE_FORM:-loose}"
TLE=portable/ulid_portable_tle.sql
DB="${PGDATABASE:-postgres}"
INSTALLER="portable_installer_$$"
APP="portable_app_$$"
PASSWORD="portable-$$-$RANDOM"
BINDIR="$("${PG_CONFIG:-pg_config}" --bindir)"
WORK="$(mktemp -d -t ulid-portable.XXXXXX)"
chmod 755 "$WORK"
cleanup() {
    psql -X -q -d "$DB" -c "DROP EXTENSION IF EXISTS ulid_portable" >/dev/null 2>&1
    psql -X -q -d "$DB" -c "DROP SCHEMA IF EXISTS ulid_portable CASCADE; DROP SCHEMA IF EXISTS evil CASCADE" >/dev/null 2>&1
    psql -X -q -d "$DB" -c "DROP EXTENSION IF EXISTS pgcrypto; DROP SCHEMA IF EXISTS crypto_$$; DROP SCHEMA IF EXISTS crypto2_$$" >/dev/null 2>&1
    psql -X -q -d "$DB" -c "DROP OWNED BY $INSTALLER, $APP; DROP ROLE IF EXISTS $INSTALLER; DROP ROLE IF EXISTS $APP" >/dev/null 2>&1
    rm -rf "$WORK"
}
trap cleanup EXIT

q() { psql -X -At -v ON_ERROR_STOP=1 -d "$DB" <<<"$1"; } # (stdin: psql < 15 shows only the last result of -c)
as_role() { # ROLE psql-args...: connect over TCP as ROLE
    local role="$1"
    shift
    PGUSER="$role" PGPASSWORD="$PASSWORD" PGHOST=127.0.0.1 psql -X -At -v ON_ERROR_STOP=1 -d "$DB" "$@"
}

echo "# setup"
note "$(q 'SELECT version()')"
must "native extension" q "CREATE EXTENSION IF NOT EXISTS ulid"
must "roles: installer (CREATE on the database only) and an application role (nothing)" q "
    CREATE ROLE $INSTALLER LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '$PASSWORD';
    CREATE ROLE $APP LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '$PASSWORD';
    GRANT CREATE ON DATABASE \"$DB\" TO $INSTALLER"
expect_str "installer is not a superuser" "$(q "SELECT rolsuper FROM pg_roles WHERE rolname = '$INSTALLER'")" f
# install_into DB [psql args...]: the edition into DB as the caller (a superuser) or the role the
# arguments name; the pg_tle form first creates pg_tle in DB as the superuser
install_into() {
    local db="$1"
    shift
    if [[ $FORM == tle ]]; then
        psql -X -q -d "$db" -c "CREATE EXTENSION IF NOT EXISTS pg_tle" &&
            psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@" -f "$TLE" >/dev/null &&
            psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@" -c "CREATE EXTENSION ulid_portable CASCADE"
    else
        psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@" -f "$PORTABLE"
    fi
}
# the install as docs/portable.md shows it: test/suites/recipes/portable_install.sh (or
# portable_tle_install.sh), verbatim
install_recipe() {
    APP_DB="host=127.0.0.1 dbname=$DB user=$INSTALLER password=$PASSWORD" \
        bash -euo pipefail "test/suites/recipes/$1" >/dev/null
}
if [[ $FORM == tle ]]; then
    note "the pg_tle form: $(q "SELECT extversion FROM pg_extension WHERE extname = 'pg_tle'" 2>&1)"
    must "pg_tle; the installer in pgtle_admin; pgcrypto in schema crypto_$$, USAGE granted to the application role" q "
        CREATE EXTENSION IF NOT EXISTS pg_tle; GRANT pgtle_admin TO $INSTALLER;
        CREATE SCHEMA crypto_$$; CREATE EXTENSION pgcrypto SCHEMA crypto_$$; GRANT USAGE ON SCHEMA crypto_$$ TO $APP"
    must "register and create as the installer (recipes/portable_tle_install.sh)" install_recipe portable_tle_install.sh
    must "register again (re-runnable), and ALTER EXTENSION ... UPDATE" as_role "$INSTALLER" -q -f "$TLE" \
        -c "ALTER EXTENSION ulid_portable UPDATE"
    refusal="ERROR:  schema ulid_portable exists and is not owned by the role creating the extension"
else
    must "install as the installer (recipes/portable_install.sh)" install_recipe portable_install.sh
    must "install again (re-runnable)" as_role "$INSTALLER" -q -f "$PORTABLE"
    refusal="ERROR:  schema ulid_portable exists and is not owned by the installing role"
fi
out="$(q "CREATE DATABASE \"${DB}_guard\"" && psql -X -q -d "${DB}_guard" -c "CREATE SCHEMA ulid_portable AUTHORIZATION $APP; GRANT CREATE ON DATABASE \"${DB}_guard\" TO $INSTALLER" &&
      { [[ $FORM != tle ]] || psql -X -q -d "${DB}_guard" -c "GRANT pgtle_admin TO $INSTALLER"; } &&
      PGPASSWORD="$PASSWORD" install_into "${DB}_guard" -U "$INSTALLER" -h 127.0.0.1 2>&1;
      psql -X -At -d "${DB}_guard" -c "SELECT count(*) FROM pg_proc WHERE pronamespace = 'ulid_portable'::regnamespace")"
q "DROP DATABASE \"${DB}_guard\"" >/dev/null
expect_contains "a schema ulid_portable owned by another role is refused" "$out" "$refusal"
expect_str "... and nothing is created in it" "$(tail -1 <<<"$out")" 0

# ---------------------------------------------------------------------------------------------
echo "# catalog: owner, language, security, labels"
expect_str "schema ulid_portable owned by the installer" \
    "$(q "SELECT nspowner::regrole FROM pg_namespace WHERE nspname = 'ulid_portable'")" "$INSTALLER"
expect_str "functions: owner, SQL/PL/pgSQL only, SECURITY INVOKER, no SET" \
    "$(q "SELECT count(*) FILTER (WHERE proowner::regrole::text <> '$INSTALLER' OR l.lanname NOT IN ('sql', 'plpgsql')
                                  OR prosecdef OR proconfig IS NOT NULL)
          FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
          WHERE pronamespace = 'ulid_portable'::regnamespace")" 0
expect_str "public functions: volatility, strictness, parallel label" \
    "$(q "SELECT string_agg(p.oid::regprocedure || ' ' || provolatile::text || proisstrict::int || proparallel::text, ', ' ORDER BY 1)
          FROM pg_proc p WHERE pronamespace = 'ulid_portable'::regnamespace
          AND proname IN ('gen_ulid', 'gen_random_ulid', 'ulid_encode', 'ulid_decode', 'ulid_to_timestamp',
                          'ulid_min', 'ulid_max')")" \
    "ulid_portable.gen_random_ulid() v0s, ulid_portable.gen_ulid() v0u, ulid_portable.gen_ulid(timestamp with time zone) v1s, ulid_portable.ulid_decode(text) i1s, ulid_portable.ulid_encode(uuid) i1s, ulid_portable.ulid_max(timestamp with time zone) i1s, ulid_portable.ulid_min(timestamp with time zone) i1s, ulid_portable.ulid_to_timestamp(uuid) i1s"
expect_str "the application role (no privileges) generates, encodes and decodes" \
    "$(as_role "$APP" -c "SELECT count(DISTINCT ulid_portable.ulid_decode(ulid_portable.ulid_encode(ulid_portable.gen_ulid())))
                          + count(DISTINCT ulid_portable.gen_random_ulid()) FROM generate_series(1, 100)")" 200

expect_str "one session switching roles (SET ROLE) keeps one increasing state" \
    "$(psql -X -q -At -d "$DB" <<<"CREATE TEMP TABLE v (n serial, id uuid);
          INSERT INTO v (id) SELECT ulid_portable.gen_ulid() FROM generate_series(1, 10);
          GRANT SELECT ON v TO $APP;
          SET ROLE $APP;
          SELECT ulid_portable.gen_ulid() > (SELECT max(id::text)::uuid FROM v);
          RESET ROLE;
          INSERT INTO v (id) SELECT ulid_portable.gen_ulid();
          SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS back FROM v) s WHERE back" 2>&1 | tr '\n' ' ')" \
    "t 0 "

# ---------------------------------------------------------------------------------------------
echo "# 100,000 random values + extremes: byte-identical to the native extension"
must "values" q "
    CREATE TABLE diff_values AS
    SELECT g, u, t, ts FROM (
        SELECT g, CASE g WHEN 1 THEN '00000000-0000-0000-0000-000000000000'::uuid
                         WHEN 2 THEN 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid
                         WHEN 3 THEN '00000000-0000-ffff-ffff-ffffffffffff'::uuid
                         WHEN 4 THEN 'ffffffff-ffff-0000-0000-000000000000'::uuid
                         ELSE gen_random_uuid() END AS u
        FROM generate_series(1, 100000) g) s,
    LATERAL (SELECT CASE g % 4 WHEN 0 THEN u::ulid::text
                               WHEN 1 THEN lower(u::ulid::text)
                               WHEN 2 THEN translate(u::ulid::text, '10', 'IO')
                               ELSE translate(lower(u::ulid::text), '10', 'lo') END) AS x(t),
    -- a time in the value's millisecond (0-999 us into it), and one anywhere in the ULID range
    LATERAL (SELECT CASE WHEN g % 2 = 0 THEN ulid_to_timestamp(u::ulid) + (g % 1000) * interval '1 microsecond'
                         ELSE timestamptz '1970-01-01 00:00:00+00'
                              + (random() * 281474976710.655) * interval '1 second' END) AS y(ts)"
expect_str "encode, decode (canonical, lower, aliases), timestamps, bounds: differences" \
    "$(q "SELECT count(*) || ' rows: '
                 || count(*) FILTER (WHERE ulid_portable.ulid_encode(u) IS DISTINCT FROM u::ulid::text) || ' '
                 || count(*) FILTER (WHERE ulid_portable.ulid_decode(t) IS DISTINCT FROM t::ulid::uuid) || ' '
                 || count(*) FILTER (WHERE ulid_portable.ulid_decode(ulid_portable.ulid_encode(u)) IS DISTINCT FROM u) || ' '
                 || count(*) FILTER (WHERE ulid_portable.ulid_to_timestamp(u) IS DISTINCT FROM ulid_to_timestamp(u::ulid)) || ' '
                 || count(*) FILTER (WHERE ulid_portable.ulid_min(ts) IS DISTINCT FROM ulid_min(ts)::uuid) || ' '
                 || count(*) FILTER (WHERE ulid_portable.ulid_max(ts) IS DISTINCT FROM ulid_max(ts)::uuid) || ' '
                 || count(*) FILTER (WHERE ulid_portable.ulid_ms(ulid_portable.gen_ulid(ts))
                                           IS DISTINCT FROM ulid_portable.ulid_ms(gen_ulid(ts)::uuid))
          FROM diff_values")" "100000 rows: 0 0 0 0 0 0 0"
expect_str "the data set has every case: lowercase, aliases, extremes, times before/after 2^47 ms" \
    "$(q "SELECT bool_and(x) FROM (VALUES
            ((SELECT count(*) > 10000 FROM diff_values WHERE t ~ '[a-z]')),
            ((SELECT count(*) > 10000 FROM diff_values WHERE t ~ '[IlOo]')),
            ((SELECT count(*) = 1 FROM diff_values WHERE t = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ')),
            ((SELECT count(*) > 10000 FROM diff_values WHERE ulid_to_timestamp(ts::ulid) > timestamptz '6429-01-01')),
            ((SELECT count(*) > 10000 FROM diff_values WHERE ts < timestamptz '6429-01-01'))) v(x)")" t
expect_str "gen_random_ulid() and gen_ulid(): the current millisecond, version bits not forced" \
    "$(q "SELECT bool_and(abs(extract(epoch FROM ulid_portable.ulid_to_timestamp(id) - now())) < 60)
                 AND count(DISTINCT get_byte(uuid_send(id), 6) >> 4) > 1
          FROM (SELECT ulid_portable.gen_random_ulid() id FROM generate_series(1, 500)
                UNION ALL SELECT ulid_portable.gen_ulid() FROM generate_series(1, 500)) s")" t

# ---------------------------------------------------------------------------------------------
echo "# bad input: the same SQLSTATE, message and DETAIL as the native extension"
must "error catcher" q "
    CREATE FUNCTION err(q text) RETURNS text LANGUAGE plpgsql AS \$\$
    DECLARE s text; m text; d text;
    BEGIN
        EXECUTE q;
        RETURN 'no error';
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL;
        RETURN s || ' | ' || m || ' | ' || coalesce(d, '');
    END \$\$"
must "bad strings" q "
    CREATE TABLE bad_text (label text, t text);
    INSERT INTO bad_text VALUES
        ('empty', ''), ('1 char', 'A'), ('25 chars', repeat('0', 25)), ('27 chars', repeat('0', 27)),
        ('100 chars', repeat('Z', 100)),
        ('U first', 'U' || repeat('0', 25)), ('U middle', repeat('0', 12) || 'U' || repeat('0', 13)),
        ('u last', repeat('0', 25) || 'u'),
        ('hyphen', '01ARZ3NDEK-TSV4RRFFQ69G5FA'), ('exclamation', repeat('0', 25) || '!'),
        ('quote', repeat('0', 5) || '\"' || repeat('0', 20)), ('backslash', repeat('0', 25) || E'\\\\'),
        ('space inside', repeat('0', 10) || ' ' || repeat('0', 15)), ('leading space', ' ' || repeat('0', 25)),
        ('trailing space', repeat('0', 25) || ' '), ('padded 26 + space', repeat('0', 26) || ' '),
        ('tab', repeat('0', 25) || chr(9)), ('newline', chr(10) || repeat('0', 25)),
        ('control 0x01', repeat('0', 25) || chr(1)), ('DEL 0x7F', chr(127) || repeat('0', 25)),
        ('e-acute, 27 bytes', repeat('0', 25) || 'é'), ('e-acute, 26 bytes', repeat('0', 24) || 'é'),
        ('e-acute first, 26 bytes', 'é' || repeat('0', 24)), ('euro, 26 bytes', repeat('0', 23) || '€'),
        ('26 non-ASCII chars', repeat('é', 26)), ('emoji', repeat('0', 22) || '😀'),
        ('first 8', '8' || repeat('0', 25)), ('first Z', 'Z' || repeat('Z', 25)),
        ('first z (lower)', 'z' || repeat('0', 25)), ('first 8 and bad later', '8' || repeat('0', 24) || '!'),
        ('bad first, also 8', '!8' || repeat('0', 24)), ('max + U', '7ZZZZZZZZZZZZZZZZZZZZZZZZU')"
expect_str "bad strings: native and portable differ on" \
    "$(q "SELECT count(*) || ' of ' || (SELECT count(*) FROM bad_text) || ': ' || coalesce(string_agg(label, ', '), '')
          FROM bad_text WHERE err(format('SELECT %L::ulid', t)) IS DISTINCT FROM err(format('SELECT ulid_portable.ulid_decode(%L)', t))")" \
    "0 of 32: "
expect_str "bad strings: every native error is 22P02 with a DETAIL" \
    "$(q "SELECT count(*) FROM bad_text WHERE err(format('SELECT %L::ulid', t)) !~ '^22P02 \| invalid input syntax for type ulid: .* \| .+$'")" 0
note "e.g. $(q "SELECT err(format('SELECT ulid_portable.ulid_decode(%L)', t)) FROM bad_text WHERE label = 'e-acute, 26 bytes'")"
if q "CREATE COLLATION nd (provider = icu, locale = 'und-u-ks-level2', deterministic = false)" >/dev/null 2>&1; then
    expect_str "input with a nondeterministic collation: values and bad strings as native" \
        "$(q "SELECT (SELECT count(*) FROM diff_values WHERE g <= 1000 AND ulid_portable.ulid_decode(t COLLATE nd) IS DISTINCT FROM t::ulid::uuid)
                     || ' ' || count(*) FROM bad_text
              WHERE err(format('SELECT %L::text COLLATE nd::ulid', t)) IS DISTINCT FROM err(format('SELECT ulid_portable.ulid_decode(%L COLLATE nd)', t))")" "0 0"
else
    note "no ICU here: the nondeterministic-collation check is skipped"
fi
must "bad and edge timestamps" q "
    CREATE TABLE bad_ts (label text, ts timestamptz);
    INSERT INTO bad_ts VALUES ('infinity', 'infinity'), ('-infinity', '-infinity'),
        ('1 us before 1970', '1969-12-31 23:59:59.999999+00'), ('4713 BC', '4714-11-24 00:00:00+00 BC'),
        ('1 ms after the last', '10889-08-02 05:31:50.656+00'), ('294276 AD', '294276-12-31 23:59:59.999999+00'),
        ('first (ok)', '1970-01-01 00:00:00+00'), ('last (ok)', '10889-08-02 05:31:50.655999+00'),
        ('2^47 ms (ok)', '6429-10-17 02:45:55.328+00')"
expect_str "timestamps: native and portable (ulid_min, ulid_max, gen_ulid(ts)) differ on" \
    "$(q "SELECT count(*) || ': ' || coalesce(string_agg(label || ' ' || f, ', '), '')
          FROM bad_ts, unnest(array['ulid_min', 'ulid_max']) f
          WHERE err(format('SELECT %s(%L::timestamptz)', f, ts))
                IS DISTINCT FROM err(format('SELECT ulid_portable.%s(%L::timestamptz)', f, ts))
             OR (label LIKE '%(ok)' AND (ulid_portable.ulid_min(ts) IS DISTINCT FROM ulid_min(ts)::uuid
                                         OR ulid_portable.ulid_max(ts) IS DISTINCT FROM ulid_max(ts)::uuid))")" "0: "
expect_str "timestamps: gen_ulid(ts) errors equal" \
    "$(q "SELECT count(*) FROM bad_ts WHERE regexp_replace(err(format('SELECT gen_ulid(%L::timestamptz)', ts)), '^no error$', 'ok')
          IS DISTINCT FROM regexp_replace(err(format('SELECT ulid_portable.gen_ulid(%L::timestamptz)', ts)), '^no error$', 'ok')")" 0
expect_str "timestamps: 6 of 9 are 22008 errors" \
    "$(q "SELECT count(*) FROM bad_ts WHERE err(format('SELECT ulid_portable.ulid_max(%L::timestamptz)', ts)) LIKE '22008 | timestamp out of range for ulid | %A ULID holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.'")" 6

# Other server encodings: a non-ASCII character is one byte in LATIN1, SQL_ASCII takes any byte,
# EUC_JP is multibyte but not UTF-8 (chr() of a byte above 127 is an error there).
declare -A NONASCII=([LATIN1]=é [SQL_ASCII]=é [EUC_JP]=あ)
for enc in LATIN1 SQL_ASCII EUC_JP; do
    x="${NONASCII[$enc]}"
    edb="${DB}_$(tr 'A-Z' 'a-z' <<<"$enc")"
    if ! q "CREATE DATABASE \"$edb\" TEMPLATE template0 ENCODING '$enc' LC_COLLATE 'C' LC_CTYPE 'C'" >/dev/null; then
        bad "$enc: database not created"
        continue
    fi
    psql -X -q -d "$edb" -c "CREATE EXTENSION ulid" && install_into "$edb"
    expect_str "$enc: 1,000 values and 7 bad strings with non-ASCII bytes: differences" \
        "$(PGCLIENTENCODING=UTF8 psql -X -At -d "$edb" -c "$(cat <<SQL
        CREATE FUNCTION err(q text) RETURNS text LANGUAGE plpgsql AS \$\$
        DECLARE s text; m text; d text;
        BEGIN EXECUTE q; RETURN 'no error';
        EXCEPTION WHEN OTHERS THEN
            GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL;
            RETURN s || ' | ' || m || ' | ' || coalesce(d, '');
        END \$\$;
        SELECT (SELECT count(*) FROM (SELECT gen_random_uuid() u FROM generate_series(1, 1000)) s
                WHERE ulid_portable.ulid_encode(u) <> u::ulid::text OR ulid_portable.ulid_decode(lower(u::ulid::text)) <> u)
               || ' ' ||
               (SELECT count(*) FROM unnest(ARRAY[repeat('0', 25) || '$x', repeat('0', 24) || '$x', '$x' || repeat('0', 25),
                                                  repeat('0', 23) || '$x', repeat('$x', 26), repeat('0', 25) || chr(127),
                                                  repeat('0', 25) || '!']) t
                WHERE err(format('SELECT %L::ulid', t)) IS DISTINCT FROM err(format('SELECT ulid_portable.ulid_decode(%L)', t)))
SQL
)" 2>&1 | tail -1)" "0 0"
    note "$enc: $(PGCLIENTENCODING=UTF8 psql -X -At -d "$edb" -c "SELECT err(format('SELECT ulid_portable.ulid_decode(%L)', '$x' || repeat('0', 24)))")"
    q "DROP DATABASE \"$edb\"" >/dev/null
done

# standard_conforming_strings = off (backslashes in plain literals are escapes) at install and use;
# 19 no longer has that mode: there the setting is refused, which is checked instead.
sdb="${DB}_scs"
q "CREATE DATABASE \"$sdb\"" >/dev/null && psql -X -q -d "$sdb" -c "CREATE EXTENSION ulid"
if (($(q "SHOW server_version_num") >= 190000)); then
    expect_contains "19: standard_conforming_strings = off is refused" \
        "$(PGOPTIONS='-c standard_conforming_strings=off' psql -X -q -d "$sdb" -c "SELECT 1" 2>&1)" \
        "non-standard string literals are not supported"
else expect_str "standard_conforming_strings = off: install, then 1,000 values and the bounds as native" \
    "$(PGOPTIONS='-c standard_conforming_strings=off -c escape_string_warning=off' install_into "$sdb" 2>&1 | grep -v 'already exists\|installing required extension'
       PGOPTIONS='-c standard_conforming_strings=off -c escape_string_warning=off' psql -X -At -d "$sdb" -c "
       SELECT count(*) FROM (SELECT gen_random_uuid() u, now() - random() * interval '50 years' ts FROM generate_series(1, 1000)) s
       WHERE ulid_portable.ulid_encode(u) <> u::ulid::text OR ulid_portable.ulid_decode(lower(u::ulid::text)) <> u
          OR ulid_portable.ulid_min(ts) <> ulid_min(ts)::uuid OR ulid_portable.ulid_max(ts) <> ulid_max(ts)::uuid" 2>&1)" 0
fi
q "DROP DATABASE \"$sdb\"" >/dev/null

# ---------------------------------------------------------------------------------------------
echo "# gen_ulid(): strictly increasing within a session, across rollbacks"
# Every value a session is handed (also in transactions rolled back later) is printed, in order.
cat >"$WORK/session.sql" <<'SQL'
\set ON_ERROR_STOP 0
-- the first transaction of the session (it creates the state) is rolled back
BEGIN;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 50);
ROLLBACK;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 2000);
BEGIN;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 500);
ROLLBACK;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 500);
BEGIN;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 200);
SAVEPOINT a;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 200);
ROLLBACK TO SAVEPOINT a;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 200);
SAVEPOINT b;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 200);
SELECT 1 / 0;
ROLLBACK TO SAVEPOINT b;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 200);
COMMIT;
BEGIN;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 100);
SELECT 1 / 0;
ROLLBACK;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 100);
-- values handed out inside exception blocks that are rolled back (plpgsql variables survive that)
CREATE FUNCTION pg_temp.in_rolled_back_blocks(n int) RETURNS SETOF uuid LANGUAGE plpgsql AS $$
DECLARE v uuid;
BEGIN
    FOR i IN 1 .. n LOOP
        BEGIN
            v := ulid_portable.gen_ulid();
            RAISE EXCEPTION 'roll back this block';
        EXCEPTION WHEN raise_exception THEN RETURN NEXT v;
        END;
    END LOOP;
END $$;
SELECT pg_temp.in_rolled_back_blocks(100);
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 100);
DISCARD SEQUENCES;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 100);
DISCARD TEMP;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 100);
BEGIN;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 100);
DISCARD ALL;
SQL
# (DISCARD ALL cannot run in a transaction block: that error aborts it, a rollback once more)
printf 'ROLLBACK;\nDISCARD ALL;\nSELECT ulid_portable.gen_ulid() FROM generate_series(1, 100);\n' >>"$WORK/session.sql"
psql -X -At -d "$DB" -f "$WORK/session.sql" >"$WORK/session.out" 2>"$WORK/session.err"
grep -E '^[0-9a-f]{8}-' "$WORK/session.out" >"$WORK/values"
expect "values printed by the session" "$(wc -l <"$WORK/values")" -eq 4850
if LC_ALL=C sort -u "$WORK/values" | cmp -s - "$WORK/values"; then
    ok "strictly increasing in the order handed out (sort -u leaves the list unchanged)"
else
    bad "not strictly increasing: $(LC_ALL=C sort -u "$WORK/values" | diff - "$WORK/values" | head -5 | tr '\n' ' ')"
fi
expect "errors in the session script (2 divisions by zero, DISCARD ALL in a transaction)" \
    "$(grep -c ERROR "$WORK/session.err")" -eq 3
expect_contains "a session's first gen_ulid() in a read-only transaction: 25006 (creating its state needs a write)" \
    "$(psql -X -At -d "$DB" -c "\\set VERBOSITY verbose" -c "BEGIN READ ONLY; SELECT ulid_portable.gen_ulid();" 2>&1)" \
    "ERROR:  25006: cannot execute CREATE SEQUENCE in a read-only transaction"
expect_str "after a first call, read-only transactions generate (setval of a temporary sequence)" \
    "$(psql -X -q -At -d "$DB" <<<"SELECT ulid_portable.gen_ulid() IS NOT NULL;
        BEGIN READ ONLY; SELECT ulid_portable.gen_ulid() IS NOT NULL; COMMIT;" 2>&1 | tr '\n' ' ')" "t t "

echo "# gen_ulid(): increment, carry and overflow from planted states"
# STATE hi lo -> setval; ms 2^47 + 5 is far in the future, so the next call increments
FUT=$(((1 << 47) + 5))
plant() { printf "SELECT ulid_portable.gen_ulid() \\\\g /dev/null\nSELECT setval('pg_temp.ulid_portable_hi', %s, true), setval('pg_temp.ulid_portable_lo', %s, true) \\\\g /dev/null\n" "$1" "$2"; }
hex_of() { q "SELECT encode(int8send($1) || int8send($2), 'hex')::uuid"; }
out="$(psql -X -At -d "$DB" <<SQL 2>&1
$(plant "$((FUT << 16 | 5))" -1)
SELECT ulid_portable.gen_ulid();
$(plant "$((FUT << 16 | 5))" 9223372036854775806)
SELECT ulid_portable.gen_ulid();
SELECT ulid_portable.gen_ulid();
$(plant "$((FUT << 16 | 65535))" -2)
SELECT ulid_portable.gen_ulid();
\set VERBOSITY verbose
SELECT ulid_portable.gen_ulid();
\set VERBOSITY default
SELECT pg_sequence_last_value('pg_temp.ulid_portable_hi') || ' ' || pg_sequence_last_value('pg_temp.ulid_portable_lo');
SELECT ulid_portable.gen_ulid();
SQL
)"
mapfile -t lines <<<"$out"
expect_str "carry: entropy ...05 FFFF FFFF FFFF FFFF + 1 = ...06 0000 0000 0000 0000 (same future ms)" \
    "${lines[0]}" "$(hex_of "$((FUT << 16 | 6))" 0)"
expect_str "2^63 - 2 + 1, then 2^63 - 1 + 1 = 2^63 (the signed step)" \
    "${lines[1]} ${lines[2]}" "$(hex_of "$((FUT << 16 | 5))" 9223372036854775807) $(hex_of "$((FUT << 16 | 5))" '(-9223372036854775808)::bigint')"
expect_str "the largest entropy of the millisecond is handed out" "${lines[3]}" "$(hex_of "$((FUT << 16 | 65535))" -1)"
expect_contains "overflow: SQLSTATE 54000 and the native message" "$out" \
    "ERROR:  54000: ulid entropy overflow within one millisecond"
expect_contains "overflow: native DETAIL" "$out" "DETAIL:  All 2^80 values after the first ULID of this millisecond were used."
expect_contains "overflow: native HINT" "$out" "HINT:  Retry in the next millisecond."
expect_contains "overflow: state unchanged" "$out" "$((FUT << 16 | 65535)) -1"
expect "overflow: the next call fails again (no wrap, no repeat)" "$(count_lines "$out" 'ulid entropy overflow')" -eq 2

echo "# gen_ulid(): the limits docs/portable.md states"
# A state an hour ahead of the clock (as after the clock stepped back), then lost with DISCARD
# TEMP: the next value is below the one handed out before. The wait for the next millisecond
# protects only the current millisecond.
AHEAD=$(($(q "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint") + 3600000))
out="$(psql -X -q -At -d "$DB" <<SQL 2>&1
$(plant "$((AHEAD << 16))" 0)
SELECT ulid_portable.gen_ulid();
DISCARD TEMP;
SELECT ulid_portable.gen_ulid();
SQL
)"
mapfile -t lines <<<"$out"
expect_str "a state lost after the clock went back: the next value is lower than an earlier one" \
    "$(q "SELECT '${lines[1]:-x}'::uuid < '${lines[0]:-x}'::uuid")" t
# The PUBLIC grant lets another role in the same session set the state: here to the largest
# entropy of a future millisecond, so the session's next call fails with 54000.
out="$(psql -X -At -d "$DB" <<SQL 2>&1
SELECT ulid_portable.gen_ulid() \g /dev/null
SET ROLE $APP;
SELECT setval('pg_temp.ulid_portable_hi', $((FUT << 16 | 65535)), true) \g /dev/null
SELECT setval('pg_temp.ulid_portable_lo', -1, true) \g /dev/null
RESET ROLE;
SELECT ulid_portable.gen_ulid();
SQL
)"
expect_contains "another role of the session spoils the state: 54000 on the next call" "$out" \
    "ulid entropy overflow within one millisecond"

echo "# gen_ulid(): 8 concurrent sessions"
must "log table" q "CREATE TABLE gen_log (n bigserial PRIMARY KEY, pid int NOT NULL, id uuid NOT NULL)"
cat >"$WORK/pgbench.sql" <<'SQL'
INSERT INTO gen_log (pid, id) SELECT pg_backend_pid(), ulid_portable.gen_ulid() FROM generate_series(1, 5);
BEGIN;
INSERT INTO gen_log (pid, id) SELECT pg_backend_pid(), ulid_portable.gen_ulid();
ROLLBACK;
SQL
if "$BINDIR/pgbench" -n -c 8 -j 2 -t 400 -f "$WORK/pgbench.sql" "$DB" >"$WORK/pgbench.out" 2>&1; then
    ok "pgbench: 8 clients x 400 transactions"
else
    bad "pgbench failed: $(tail -3 "$WORK/pgbench.out")"
fi
# (pgbench 15 and later print failed transactions; before, a failed one aborts its client and pgbench)
failed="$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' "$WORK/pgbench.out")"
expect_str "rows, distinct ids, sessions, failed transactions" \
    "$(q "SELECT count(*) || ' ' || count(DISTINCT id) || ' ' || count(DISTINCT pid) FROM gen_log") ${failed:-0}" \
    "16000 16000 8 0"
expect "rows out of order within a session" \
    "$(q "SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY pid ORDER BY n) AS back FROM gen_log) s WHERE back")" -eq 0

# ---------------------------------------------------------------------------------------------
echo "# public ids: ulid_encrypt/ulid_decrypt through pgcrypto, byte-identical to the native ones"
if [[ $FORM != tle ]]; then # the pg_tle form requires pgcrypto: made in schema crypto_$$ above
    expect_contains "without pgcrypto: 0A000 naming it (the rest of the edition is installed and works)" \
        "$(q "SELECT err(\$q\$SELECT ulid_portable.ulid_encrypt(gen_random_uuid(), '\\x000102030405060708090a0b0c0d0e0f')\$q\$),
                     ulid_portable.ulid_decode(ulid_portable.ulid_encode('$(q "SELECT gen_random_uuid()")')) IS NOT NULL")" \
        "0A000 | ulid_portable.ulid_encrypt() and ulid_decrypt() need the extension pgcrypto"
    # pgcrypto in a schema of its own, not on anybody's search_path (as one managed service does)
    must "pgcrypto in schema crypto_$$, USAGE granted to the application role" q "CREATE SCHEMA crypto_$$; CREATE EXTENSION pgcrypto SCHEMA crypto_$$; GRANT USAGE ON SCHEMA crypto_$$ TO $APP"
fi
FIPS_PLAIN="00112233-4455-6677-8899-aabbccddeeff"
K128='\x000102030405060708090a0b0c0d0e0f'
K256='\x000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f'
expect_str "FIPS-197 C.1 (AES-128) and C.3 (AES-256) from the portable edition, as the application role" \
    "$(as_role "$APP" -c "SELECT ulid_portable.ulid_encrypt('$FIPS_PLAIN', '$K128'), ulid_portable.ulid_encrypt('$FIPS_PLAIN', '$K256'),
                                 ulid_portable.ulid_decrypt('69c4e0d8-6a7b-0430-d8cd-b78070b4c55a', '$K128'),
                                 ulid_portable.ulid_decrypt('8ea2b7ca-5167-45bf-eafc-49904b496089', '$K256')")" \
    "69c4e0d8-6a7b-0430-d8cd-b78070b4c55a|8ea2b7ca-5167-45bf-eafc-49904b496089|$FIPS_PLAIN|$FIPS_PLAIN"
expect_str "FIPS-197 C.1 and C.3 from the native extension" \
    "$(q "SELECT ulid_encrypt('$FIPS_PLAIN'::uuid::ulid, '$K128')::uuid, ulid_encrypt('$FIPS_PLAIN'::uuid::ulid, '$K256')::uuid")" \
    "69c4e0d8-6a7b-0430-d8cd-b78070b4c55a|8ea2b7ca-5167-45bf-eafc-49904b496089"
must "10,000 random ids and keys (half AES-128, half AES-256)" q "
    CREATE TABLE aes_cases AS
    SELECT i, gen_random_uuid() AS id, crypto_$$.gen_random_bytes(CASE WHEN i % 2 = 0 THEN 16 ELSE 32 END) AS k
    FROM generate_series(1, 10000) i"
expect_str "native and portable differ (encrypt, decrypt of random blocks), round trips failed, keys of each length" \
    "$(q "SELECT count(*) FILTER (WHERE ulid_portable.ulid_encrypt(id, k) IS DISTINCT FROM ulid_encrypt(id::ulid, k)::uuid)
                 || ' ' || count(*) FILTER (WHERE ulid_portable.ulid_decrypt(id, k) IS DISTINCT FROM ulid_decrypt(id::ulid, k)::uuid)
                 || ' ' || count(*) FILTER (WHERE ulid_portable.ulid_decrypt(ulid_portable.ulid_encrypt(id, k), k) IS DISTINCT FROM id)
                 || ' ' || count(*) FILTER (WHERE length(k) = 16) || ' ' || count(*) FILTER (WHERE length(k) = 32)
          FROM aes_cases")" "0 0 0 5000 5000"
expect_str "a wrong key (one bit off) gives another id, in both editions alike" \
    "$(q "SELECT count(*) FILTER (WHERE ulid_portable.ulid_decrypt(ulid_portable.ulid_encrypt(id, k), set_byte(k, 0, get_byte(k, 0) # 1)) = id)
                 || ' ' || count(*) FILTER (WHERE ulid_portable.ulid_decrypt(id, set_byte(k, 0, get_byte(k, 0) # 1))
                                               IS DISTINCT FROM ulid_decrypt(id::ulid, set_byte(k, 0, get_byte(k, 0) # 1))::uuid)
          FROM aes_cases WHERE i <= 1000")" "0 0"
expect_str "keys of 0, 1, 15, 17, 24, 31, 33 and 64 bytes: the native error (22023, message and DETAIL) in both" \
    "$(q "SELECT count(*) FILTER (WHERE err(format('SELECT ulid_portable.ulid_encrypt(gen_random_uuid(), %L::bytea)', k))
                                   IS DISTINCT FROM err(format('SELECT ulid_encrypt(gen_random_ulid(), %L::bytea)', k)))
                 || ' ' || count(*) FILTER (WHERE err(format('SELECT ulid_portable.ulid_decrypt(gen_random_uuid(), %L::bytea)', k))
                                   LIKE '22023 | ulid key must be 16 or 32 bytes | The key given is % byte%')
          FROM (SELECT ('\\x' || repeat('ab', n))::bytea AS k FROM unnest(ARRAY[0, 1, 15, 17, 24, 31, 33, 64]) n) s")" "0 8"
expect_str "NULL id, NULL key: NULL (STRICT), in both" \
    "$(q "SELECT ulid_portable.ulid_encrypt(NULL, '$K128') IS NULL, ulid_portable.ulid_decrypt('$FIPS_PLAIN', NULL) IS NULL,
                 ulid_encrypt(NULL, '$K128'::bytea) IS NULL, ulid_decrypt('$FIPS_PLAIN'::uuid::ulid, NULL) IS NULL")" "t|t|t|t"
expect_str "public functions: ulid_encrypt and ulid_decrypt are STABLE (they read the catalog), STRICT, PARALLEL SAFE" \
    "$(q "SELECT string_agg(p.oid::regprocedure || ' ' || provolatile::text || proisstrict::int || proparallel::text, ', ' ORDER BY 1)
          FROM pg_proc p WHERE pronamespace = 'ulid_portable'::regnamespace AND proname IN ('ulid_encrypt', 'ulid_decrypt')")" \
    "ulid_portable.ulid_decrypt(uuid,bytea) s1s, ulid_portable.ulid_encrypt(uuid,bytea) s1s"
# an encrypt(bytea, bytea, text) that is not pgcrypto's, first on the path: never called
must "a look-alike encrypt() and decrypt() in schema public" q "
    CREATE FUNCTION public.encrypt(bytea, bytea, text) RETURNS bytea LANGUAGE sql AS \$\$ SELECT '\\x00'::bytea \$\$;
    CREATE FUNCTION public.decrypt(bytea, bytea, text) RETURNS bytea LANGUAGE sql AS \$\$ SELECT '\\x00'::bytea \$\$"
expect_str "... with it first on the search_path, the portable edition still uses pgcrypto's" \
    "$(PGOPTIONS="-c search_path=public,crypto_$$" q "SELECT ulid_portable.ulid_encrypt('$FIPS_PLAIN', '$K128')")" \
    "69c4e0d8-6a7b-0430-d8cd-b78070b4c55a"
# pgcrypto's owner (an ordinary role where pgcrypto is trusted) adds a function of its own to the
# extension: not in pgcrypto's schema, and not C: never called
must "a look-alike made a member of pgcrypto (ALTER EXTENSION ... ADD FUNCTION)" q "
    CREATE SCHEMA aaa_$$;
    CREATE TABLE aaa_$$.calls (n int);
    CREATE FUNCTION aaa_$$.encrypt(bytea, bytea, text) RETURNS bytea LANGUAGE plpgsql AS \$\$
        BEGIN INSERT INTO aaa_$$.calls VALUES (1); RETURN '\\x00'::bytea; END \$\$;
    ALTER EXTENSION pgcrypto ADD FUNCTION aaa_$$.encrypt(bytea, bytea, text)"
expect_str "... the portable edition still uses pgcrypto's own, and the member is never called" \
    "$(q "SELECT ulid_portable.ulid_encrypt('$FIPS_PLAIN', '$K128'), (SELECT count(*) FROM aaa_$$.calls)")" \
    "69c4e0d8-6a7b-0430-d8cd-b78070b4c55a|0"
must "take it out again" q "ALTER EXTENSION pgcrypto DROP FUNCTION aaa_$$.encrypt(bytea, bytea, text); DROP SCHEMA aaa_$$ CASCADE"
must "drop the look-alikes" q "DROP FUNCTION public.encrypt(bytea, bytea, text), public.decrypt(bytea, bytea, text)"
if [[ $FORM == tle ]] && (($(q "SHOW server_version_num") >= 160000)); then
    # From 16 on, moving an extension reads the control file of each extension that requires it
    # (its no_relocate list), and a pg_tle extension has none on disk (docs/portable.md says so).
    expect_contains "16 and later: pgcrypto cannot move while the pg_tle form requires it (pg_tle has no control file)" \
        "$(q "CREATE SCHEMA crypto2_$$; ALTER EXTENSION pgcrypto SET SCHEMA crypto2_$$" 2>&1)" \
        'ERROR:  extension "ulid_portable" is not available'
    expect_str "... it stays where it was, and is used" \
        "$(q "SELECT extnamespace::regnamespace FROM pg_extension WHERE extname = 'pgcrypto'; SELECT ulid_portable.ulid_encrypt('$FIPS_PLAIN', '$K256')")" \
        "crypto_$$
8ea2b7ca-5167-45bf-eafc-49904b496089"
else
    must "pgcrypto moved to another schema (ALTER EXTENSION SET SCHEMA)" q "CREATE SCHEMA crypto2_$$; ALTER EXTENSION pgcrypto SET SCHEMA crypto2_$$"
    expect_str "... is found there" "$(q "SELECT ulid_portable.ulid_encrypt('$FIPS_PLAIN', '$K256')")" "8ea2b7ca-5167-45bf-eafc-49904b496089"
fi

# ---------------------------------------------------------------------------------------------
echo "# a hostile search_path: look-alikes of every pg_catalog function and operator the file names"
mapfile -t fnames < <(grep -o 'pg_catalog\.[a-z_0-9]*(' "$PORTABLE" | sed 's/pg_catalog\.//; s/($//' | sort -u)
mapfile -t opnames < <(grep -o 'OPERATOR(pg_catalog\.[^)]*)' "$PORTABLE" | sed 's/OPERATOR(pg_catalog\.//; s/)$//' | sort -u)
fnlist="$(printf "'%s'," "${fnames[@]}")"
oplist="$(printf "'%s'," "${opnames[@]}")"
must "plant look-alikes in schema evil" q "
    CREATE SCHEMA evil;
    CREATE TABLE evil.calls (what text);
    CREATE FUNCTION evil.trap() RETURNS void LANGUAGE sql AS \$\$ INSERT INTO evil.calls VALUES ('called') \$\$;
    DO \$\$
    DECLARE p record; made int := 0;
    BEGIN
        FOR p IN SELECT proname, pg_get_function_arguments(oid) AS args, pg_get_function_result(oid) AS res
                 FROM pg_proc WHERE pronamespace = 'pg_catalog'::regnamespace AND proname IN (${fnlist%,})
                 AND prokind = 'f' AND NOT proretset LOOP
            BEGIN
                EXECUTE format('CREATE FUNCTION evil.%I(%s) RETURNS %s LANGUAGE plpgsql AS %L',
                               p.proname, p.args, p.res,
                               'BEGIN INSERT INTO evil.calls VALUES (' || quote_literal(p.proname) || '); RETURN NULL; END');
                made := made + 1;
            EXCEPTION WHEN others THEN NULL; -- pseudo-type arguments (\"any\", internal): not plantable
            END;
        END LOOP;
        FOR p IN SELECT oprname, oprleft::regtype AS l, oprright::regtype AS r, oprresult::regtype AS res
                 FROM pg_operator WHERE oprnamespace = 'pg_catalog'::regnamespace AND oprname IN (${oplist%,})
                 AND oprleft <> 0 AND 'anyelement'::regtype NOT IN (oprleft, oprright) LOOP
            BEGIN
                EXECUTE format('CREATE FUNCTION evil.op_%s(%s, %s) RETURNS %s LANGUAGE plpgsql AS %L',
                               made, p.l, p.r, p.res,
                               'BEGIN INSERT INTO evil.calls VALUES (' || quote_literal(p.oprname) || '); RETURN NULL; END');
                EXECUTE format('CREATE OPERATOR evil.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = evil.op_%s)',
                               p.oprname, p.l, p.r, made);
                made := made + 1;
            EXCEPTION WHEN others THEN NULL;
            END;
        END LOOP;
        RAISE NOTICE 'planted %', made;
    END \$\$"
note "planted $(q "SELECT count(*) FROM pg_proc WHERE pronamespace = 'evil'::regnamespace") functions for ${#fnames[@]} names and ${#opnames[@]} operators"
expect_str "the trap works for unqualified calls" \
    "$(q "SET search_path = evil, pg_catalog; SELECT encode('\\x00'::bytea, 'hex') IS NULL, 1::bigint + 1::bigint IS NULL" | tr '\n' ' ')" "SET t|t "
expect "look-alikes called by the trap check" "$(q "SELECT count(*) FROM evil.calls")" -eq 2
q "TRUNCATE evil.calls"
# Under the hostile path only the portable functions are called (on literals); the results are
# compared with the native ones in an ordinary session.
U="$(q "SELECT gen_random_uuid()")"
T="2024-02-29 12:34:56.789876+00"
hostile="$(PGOPTIONS='-c search_path=evil,pg_catalog,public -c TimeZone=UTC' psql -X -At -d "$DB" -c "
    SELECT ulid_portable.ulid_encode('$U'), ulid_portable.ulid_decode(ulid_portable.ulid_encode('$U')),
           ulid_portable.ulid_to_timestamp('$U'), ulid_portable.ulid_min('$T'), ulid_portable.ulid_max('$T'),
           ulid_portable.ulid_to_timestamp(ulid_portable.gen_ulid('$T'))" \
    -c "SELECT ulid_portable.gen_ulid() FROM generate_series(1, 3)" -c "SELECT ulid_portable.gen_random_ulid()" \
    -c "SELECT ulid_portable.ulid_decode('8ZZZZZZZZZZZZZZZZZZZZZZZZZ')" \
    -c "SELECT ulid_portable.ulid_decode('000000000000000000000000é')" -c "SELECT ulid_portable.ulid_decode('')" \
    -c "SELECT ulid_portable.ulid_min('infinity')" -c "SELECT ulid_portable.ulid_max('20000-01-01')" \
    -c "SELECT ulid_portable.ulid_decrypt(ulid_portable.ulid_encrypt('$FIPS_PLAIN', '$K256'), '$K256')" 2>&1)"
mapfile -t hl <<<"$hostile"
expect_str "every function works under it: encode, decode, timestamps, bounds, gen_ulid(ts)" "${hl[0]}" \
    "$(PGOPTIONS='-c TimeZone=UTC' q "SELECT '$U'::uuid::ulid::text, '$U'::uuid, ulid_to_timestamp('$U'::uuid::ulid), ulid_min('$T')::uuid, ulid_max('$T')::uuid,
          ulid_to_timestamp(ulid_min('$T'))")"
expect_str "gen_ulid() increasing and gen_random_ulid() under it (first calls of the session)" \
    "$(printf '%s\n' "${hl[@]:1:3}" | LC_ALL=C sort -u | wc -l) $(printf "%s\n" "${hl[@]:1:3}" | LC_ALL=C sort -c && echo sorted) ${#hl[4]}" "3 sorted 36"
expect "errors under it are the native ones (messages)" \
    "$(grep -c '^ERROR:  invalid input syntax for type ulid\|^ERROR:  timestamp out of range for ulid' <<<"$hostile")" -eq 5
expect_contains "error details under it" "$hostile" "Byte 0xC3 at position 25 is not in the Crockford Base32 alphabet."
expect_str "ulid_encrypt and ulid_decrypt under it (through pgcrypto)" "${hl[-1]}" "$FIPS_PLAIN"
expect_str "look-alikes called" "$(q "SELECT count(*) || ' ' || coalesce(string_agg(DISTINCT what, ','), '') FROM evil.calls")" "0 "

checks_summary
