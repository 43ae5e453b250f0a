#!/usr/bin/env bash
# The portable edition as the pg_tle extension ulid_portable (portable/ulid_portable_tle.sql), on a
# cluster of its own that preloads pg_tle, run as managed services run it: the superuser only
# creates pg_tle and grants pgtle_admin; a role "admin" (pgtle_admin, CREATE on the database, not a
# superuser) registers and creates; a role "app" has nothing but USAGE on the schema and TEMP.
#
#   - registering: without pg_tle (0A000) and without pgtle_admin (42501) it is refused; the
#     versions 0.5.0 and the current one, the update between them, the current one the default,
#     pgcrypto required; run again it changes nothing; a registration of the name with another
#     description, or of a version with another text, is refused (55000);
#   - CREATE EXTENSION: without pgcrypto it is refused, CASCADE makes it; the functions are the
#     loose file's, definition for definition; app uses them; the loose file then refuses (55000);
#   - ALTER EXTENSION ulid_portable UPDATE from 0.5.0 gives the functions of a new install of the
#     current version; DROP EXTENSION is refused while a table's default needs gen_ulid() and
#     removes the schema with CASCADE, the table kept;
#   - pg_dump and restore: by a superuser, and by admin where the superuser created pg_tle first
#     (two errors, both expected); a restore gets the default version the dump registers;
#   - adopting a loose installation with CREATE EXTENSION: the functions become members, the table
#     that uses gen_ulid() is not rewritten; refused, with nothing changed, when a function's body
#     differs, one is missing or extra, the schema holds a table, or the schema or a function is
#     owned by another role;
#   - from the extension to the native type and back, with ALTER TABLE ... TYPE: no rewrite;
#   - test/suites/portable_differential.sh against the extension (ULID_PORTABLE_FORM=tle).
# Skipped (77) where pg_tle is not installed for the server (scripts/pgtle-build MAJOR builds it;
# scripts/pgtle-version says for which majors). Needs nothing from the caller's PG* environment
# but PG_CONFIG.
set -uo pipefail

here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
# shellcheck source-path=SCRIPTDIR source=../lib/checks.sh
source "$here/../lib/checks.sh"
suite_isolate_env
cd "$here/../.." || exit 1
T0=$SECONDS
PG_CONFIG="${PG_CONFIG:-pg_config}"
if [[ ! -f "$("$PG_CONFIG" --pkglibdir)/pg_tle.so" || ! -f "$("$PG_CONFIG" --sharedir)/extension/pg_tle.control" ]]; then
    echo "SKIPPED: pg_tle is not installed for $("$PG_CONFIG" --version) (scripts/pgtle-build MAJOR builds it" \
        "from the shared sources, for the majors scripts/pgtle-version names)"
    exit 77
fi
# shellcheck source-path=SCRIPTDIR source=../lib/cluster.sh
source "$here/../lib/cluster.sh"
TLE=portable/ulid_portable_tle.sql
LOOSE=portable/ulid_portable.sql
WORK="$(mktemp -d -t ulid-pg-tle.XXXXXX)"
chmod 755 "$WORK"
prev_trap="$(trap -p EXIT | sed -E "s/^trap -- '(.*)' EXIT$/\1/")"
# shellcheck disable=SC2064 # expand now, on purpose
trap "rm -rf '$WORK'; $prev_trap" EXIT

# su_q DB psql-args: as the superuser; as ROLE DB psql-args: as ROLE (no NOTICEs)
su_q() { local db="$1"; shift; PGOPTIONS='-c client_min_messages=warning' cluster_psql tle -d "$db" -At "$@"; }
as() { local role="$1" db="$2"; shift 2; PGOPTIONS='-c client_min_messages=warning' cluster_psql tle -U "$role" -d "$db" -At "$@"; }
# err ROLE DB SQL: SQLSTATE and message of the error SQL raises (or "no error")
err() {
    local out
    out="$(as "$1" "$2" -v VERBOSITY=verbose -c "$3" 2>&1 >/dev/null)" && { echo "no error"; return; }
    sed -nE 's/^(psql:[^ ]* )?ERROR:  ([0-9A-Z]{5}): (.*)$/\2 \3/p' <<<"$out" | head -n 1
}
# defs DB: every function of the schema ulid_portable with a digest of its definition, and the
# schema's comment
defs() {
    su_q "$1" -c "SELECT p.oid::regprocedure || ' ' || md5(pg_get_functiondef(p.oid)) FROM pg_proc p
                  WHERE pronamespace = 'ulid_portable'::regnamespace ORDER BY 1" \
         -c "SELECT obj_description('ulid_portable'::regnamespace, 'pg_namespace')"
}
# newdb NAME: a database of the superuser's where admin has CREATE, a schema app of admin's, and
# the superuser's part of pg_tle (recipes/pg_tle_enable.sql: pg_tle, pgtle_admin granted to admin)
newdb() {
    su_q postgres -c "CREATE DATABASE $1" -c "GRANT CREATE ON DATABASE $1 TO admin" >/dev/null &&
        su_q "$1" -f test/suites/recipes/pg_tle_enable.sql -c "CREATE SCHEMA app AUTHORIZATION admin" >/dev/null
}
# recipe FILE DB: the recipe FILE of test/suites/recipes/ as admin, APP_DB naming DB (only the host, port and names
# substituted)
recipe() {
    APP_DB="host=127.0.0.1 port=$(cluster_port tle) dbname=$2 user=admin" PGOPTIONS='-c client_min_messages=warning' \
        PATH="$ULID_PG_BINDIR:$PATH" bash -euo pipefail "test/suites/recipes/$1" >/dev/null
}
register() { as admin "$1" -q -f "$TLE" >/dev/null; }
CURRENT="$(sed -nE '2s/^-- Version ([0-9.]+) of the portable edition.*/\1/p' "$LOOSE")"

echo "# a cluster that preloads pg_tle; roles admin (pgtle_admin) and app"
cluster_init tle
cluster_conf tle "shared_preload_libraries = 'pg_tle'"
must "cluster starts" cluster_start tle
note "$(su_q postgres -c 'SELECT version()')"
must "roles" su_q postgres -c "CREATE ROLE admin LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE" \
    -c "CREATE ROLE app LOGIN NOSUPERUSER" -c "CREATE ROLE outsider LOGIN NOSUPERUSER"
expect_str "current version from the loose file's second line" "$CURRENT" "$(sed -nE 's/^-- Version ([0-9.]+) .*/\1/p' "$LOOSE" | head -1)"

echo "# registering"
su_q postgres -c "CREATE DATABASE bare" -c "GRANT CREATE ON DATABASE bare TO admin" >/dev/null
expect_str "without pg_tle in the database: 0A000" \
    "$(as admin bare -v VERBOSITY=verbose -f "$TLE" 2>&1 | sed -nE 's/.*ERROR:  ([0-9A-Z]{5}): (.*)/\1 \2/p')" \
    "0A000 pg_tle is not installed in this database"
must "database main: pg_tle created by the superuser" newdb main
expect_match "a role without pgtle_admin: refused by pg_tle (42501)" \
    "$(as outsider main -v VERBOSITY=verbose -f "$TLE" 2>&1 | sed -nE 's/.*ERROR:  ([0-9A-Z]{5}): (.*)/\1 \2/p')" \
    '^42501 '
expect_str "admin is no superuser" "$(su_q postgres -c "SELECT rolsuper FROM pg_roles WHERE rolname = 'admin'")" f
must "admin registers (recipes/portable_tle_install.sh registers and creates; here: the first half)" register main
expect_str "versions, what they require, the default" \
    "$(as admin main -c "SELECT string_agg(version || ':' || array_to_string(requires, '+'), ' ' ORDER BY version)
                         FROM pgtle.available_extension_versions() WHERE name = 'ulid_portable'" \
                     -c "SELECT default_version FROM pgtle.available_extensions() WHERE name = 'ulid_portable'" \
                     -c "SELECT string_agg(source || '>' || target, ' ') FROM pgtle.extension_update_paths('ulid_portable')
                         WHERE path IS NOT NULL")" \
    "0.5.0:pgcrypto+pg_tle $CURRENT:pgcrypto+pg_tle
$CURRENT
0.5.0>$CURRENT"
expect_str "run again: every script already registered, the default set again" \
    "$(as admin main -f "$TLE" 2>&1 | grep -c 'already registered\|default version')" 4
must "a database where ulid_portable was registered by someone else" newdb other
as admin other -q -c "SELECT pgtle.install_extension('ulid_portable', '9.9', 'something else', 'SELECT 1')" >/dev/null
expect_contains "... with another description: refused (55000)" \
    "$(as admin other -v VERBOSITY=verbose -f "$TLE" 2>&1)" \
    "55000: an extension named ulid_portable is registered with pg_tle, and it is not this one"
as admin other -q -c "SELECT pgtle.uninstall_extension('ulid_portable')" >/dev/null
sed "s/^SELECT pg_temp.ulid_portable_register('install', NULL, '0.5.0', \$ulid_tle_0_5_0\$-- portable/&-- changed\n/" "$TLE" >"$WORK/changed.sql"
expect "the changed copy differs in one line" "$(diff "$TLE" "$WORK/changed.sql" | grep -c '^>')" -eq 2
as admin other -q -f "$WORK/changed.sql" >/dev/null
expect_contains "... a version registered with another text: refused (55000)" \
    "$(as admin other -v VERBOSITY=verbose -f "$TLE" 2>&1)" \
    "55000: ulid_portable--0.5.0.sql is registered with pg_tle with another text"

echo "# CREATE EXTENSION"
expect_contains "without pgcrypto and without CASCADE: refused" \
    "$(as admin main -c "CREATE EXTENSION ulid_portable" 2>&1)" 'required extension "pgcrypto" is not installed'
must "CREATE EXTENSION ulid_portable CASCADE, as admin" as admin main -q -c "CREATE EXTENSION ulid_portable CASCADE"
expect_str "versions, owner" "$(su_q main -c "SELECT string_agg(extname || ' ' || extowner::regrole, ', ' ORDER BY 1) || ' ' || (SELECT extversion FROM pg_extension WHERE extname = 'ulid_portable')
    FROM pg_extension WHERE extname IN ('pgcrypto', 'ulid_portable')")" "pgcrypto admin, ulid_portable admin $CURRENT"
must "the loose file in a database of its own, as admin" su_q postgres -c "CREATE DATABASE loose" -c "GRANT CREATE ON DATABASE loose TO admin"
as admin loose -q -f "$LOOSE" >/dev/null
expect_str "the extension's functions are the loose file's (definitions, schema comment)" "$(defs main)" "$(defs loose)"
expect "... and there are 17 + the comment" "$(defs main | wc -l)" -eq 18
expect_str "every function and the schema belong to the extension" \
    "$(su_q main -c "SELECT count(*) FILTER (WHERE e.extname IS DISTINCT FROM 'ulid_portable') || ' ' || count(*)
        FROM (SELECT 'pg_proc'::regclass c, oid o FROM pg_proc WHERE pronamespace = 'ulid_portable'::regnamespace
              UNION ALL SELECT 'pg_namespace'::regclass, 'ulid_portable'::regnamespace) x
        LEFT JOIN pg_depend d ON d.classid = x.c AND d.objid = x.o AND d.deptype = 'e'
        LEFT JOIN pg_extension e ON e.oid = d.refobjid")" "0 18"
must "app: USAGE on schema app only" su_q main -c "GRANT USAGE ON SCHEMA app TO app"
expect_str "app (no privilege but the schema's USAGE and TEMP) generates, encodes, decodes, encrypts" \
    "$(as app main -c "SELECT count(DISTINCT ulid_portable.ulid_decode(ulid_portable.ulid_encode(ulid_portable.gen_ulid())))
                        + count(DISTINCT ulid_portable.ulid_decrypt(ulid_portable.ulid_encrypt(ulid_portable.gen_random_ulid(),
                                                                    '\\x000102030405060708090a0b0c0d0e0f'), '\\x000102030405060708090a0b0c0d0e0f'))
                       FROM generate_series(1, 100)")" 200
expect_str "FIPS-197 C.1 through pgcrypto, as app" \
    "$(as app main -c "SELECT ulid_portable.ulid_encrypt('00112233-4455-6677-8899-aabbccddeeff', '\\x000102030405060708090a0b0c0d0e0f')")" \
    "69c4e0d8-6a7b-0430-d8cd-b78070b4c55a"
expect_str "the loose file refuses a schema the extension owns (55000), and changes nothing" \
    "$(as admin main -v VERBOSITY=verbose -f "$LOOSE" 2>&1 | sed -nE 's/.*ERROR:  ([0-9A-Z]{5}): (.*)/\1 \2/p')
$(defs main | md5sum)" "55000 schema ulid_portable belongs to an extension; this file does not change it
$(defs loose | md5sum)"

echo "# ALTER EXTENSION UPDATE, DROP EXTENSION"
must "a database at 0.5.0" newdb upd
register upd
must "CREATE EXTENSION ulid_portable VERSION '0.5.0' CASCADE" as admin upd -q -c "CREATE EXTENSION ulid_portable VERSION '0.5.0' CASCADE"
must "v0.5.0's loose file, in a database of its own" su_q postgres -c "CREATE DATABASE loose050" -c "GRANT CREATE ON DATABASE loose050 TO admin"
git show "$(awk '$1 == "0.5.0" {print $2}' scripts/releases):portable/ulid_portable.sql" >"$WORK/loose050.sql"
as admin loose050 -q -f "$WORK/loose050.sql" >/dev/null
expect_str "0.5.0 of the extension is v0.5.0's loose file" "$(defs upd)" "$(defs loose050)"
must "a table whose default calls gen_ulid(), 100 rows" as admin upd -q -c "
    CREATE TABLE app.t (id uuid PRIMARY KEY DEFAULT ulid_portable.gen_ulid(), n int);
    INSERT INTO app.t (n) SELECT generate_series(1, 100)"
must "register again and ALTER EXTENSION ulid_portable UPDATE (recipes/portable_tle_update.sh)" recipe portable_tle_update.sh upd
expect_str "... to $CURRENT, with the functions of a new install of $CURRENT" \
    "$(su_q upd -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid_portable'")
$(defs upd)" "$CURRENT
$(defs main)"
expect_str "... and the default still works" "$(as admin upd -c "INSERT INTO app.t (n) VALUES (101) RETURNING id > ALL (SELECT id FROM app.t WHERE n <= 100)")" t
expect_contains "DROP EXTENSION while the table's default needs gen_ulid(): refused" \
    "$(as admin upd -c "DROP EXTENSION ulid_portable" 2>&1)" "cannot drop extension ulid_portable because other objects depend on it"
must "DROP EXTENSION ulid_portable CASCADE" as admin upd -q -c "DROP EXTENSION ulid_portable CASCADE"
expect_str "... the schema is gone, the table and its rows kept, the default dropped" \
    "$(su_q upd -c "SELECT count(*) FROM pg_namespace WHERE nspname = 'ulid_portable'" -c "SELECT count(*) FROM app.t" \
        -c "SELECT count(*) FROM pg_attrdef WHERE adrelid = 'app.t'::regclass")" "0
101
0"

echo "# pg_dump and restore"
must "a database at 0.5.0 with a table, the default version $CURRENT" newdb dumped
register dumped
as admin dumped -q -c "CREATE EXTENSION ulid_portable VERSION '0.5.0' CASCADE;
    CREATE TABLE app.t (id uuid PRIMARY KEY DEFAULT ulid_portable.gen_ulid(), n int);
    INSERT INTO app.t (n) SELECT generate_series(1, 100)" >/dev/null
must "pg_dump" "$ULID_PG_BINDIR/pg_dump" -h 127.0.0.1 -p "$(cluster_port tle)" -U postgres -f "$WORK/dump.sql" dumped
expect_str "the dump creates the extension without a version, and carries pg_tle's copies of the scripts" \
    "$(grep -c '^CREATE EXTENSION IF NOT EXISTS ulid_portable WITH SCHEMA' "$WORK/dump.sql") $(grep -c '^CREATE FUNCTION pgtle."ulid_portable' "$WORK/dump.sql")" "1 4"
su_q postgres -c "CREATE DATABASE restored_su" >/dev/null
expect_str "restored by the superuser into an empty database: no error" \
    "$(cluster_psql tle -d restored_su -f "$WORK/dump.sql" 2>&1 | grep -c ERROR)" 0
expect_str "... it gets the default version, not the one the dumped database had; 100 rows; the default works" \
    "$(su_q restored_su -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid_portable'" \
        -c "INSERT INTO app.t (n) VALUES (101) RETURNING (SELECT count(*) FROM app.t WHERE n <= 100)")" "$CURRENT
100"
su_q postgres -c "CREATE DATABASE restored OWNER admin" >/dev/null
su_q restored -f test/suites/recipes/pg_tle_enable.sql >/dev/null
out="$(cd "$WORK" && SOURCE_DB="host=127.0.0.1 port=$(cluster_port tle) dbname=dumped user=postgres" \
    TARGET_DB="host=127.0.0.1 port=$(cluster_port tle) dbname=restored user=admin" PATH="$ULID_PG_BINDIR:$PATH" \
    bash -euo pipefail "$OLDPWD/test/suites/recipes/portable_tle_restore.sh" 2>&1 | grep ERROR)"
expect_str "restored by admin (recipes/portable_tle_restore.sh) where the superuser created pg_tle: two errors about pg_tle's own objects" \
    "$(sed -E 's/^psql:[^ ]* //' <<<"$out")" 'ERROR:  schema "pgtle" already exists
ERROR:  must be owner of extension pg_tle'
expect_str "... the extension (owner admin), the rows, the functions of $CURRENT" \
    "$(su_q restored -c "SELECT extversion || ' ' || extowner::regrole FROM pg_extension WHERE extname = 'ulid_portable'" \
        -c "SELECT count(*) FROM app.t")
$(defs restored)" "$CURRENT admin
100
$(defs main)"

echo "# adopting a loose installation"
adopt_db() { # NAME: a database with v0.5.0's loose file installed by admin and a table using it
    newdb "$1" && as admin "$1" -q -f "$WORK/loose050.sql" >/dev/null &&
        as admin "$1" -q -c "CREATE TABLE app.t (id uuid PRIMARY KEY DEFAULT ulid_portable.gen_ulid(), n int);
            INSERT INTO app.t (n) SELECT generate_series(1, 100)"
}
must "a database with v0.5.0's loose file and a table using gen_ulid()" adopt_db adopt
before="$(su_q adopt -c "SELECT pg_relation_filenode('app.t')")"
must "update the loose file, register, CREATE EXTENSION ulid_portable CASCADE (recipes/portable_tle_adopt.sh)" \
    recipe portable_tle_adopt.sh adopt
expect_str "adopted: the schema and 17 functions are members; definitions as a new install; the table not rewritten" \
    "$(su_q adopt -c "SELECT count(*) FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
                      WHERE e.extname = 'ulid_portable' AND d.deptype = 'e'" -c "SELECT pg_relation_filenode('app.t')")
$(defs adopt)" "18
$before
$(defs main)"
expect_str "... the default goes on increasing" \
    "$(as admin adopt -c "INSERT INTO app.t (n) VALUES (101) RETURNING id > ALL (SELECT id FROM app.t WHERE n <= 100)")" t
# refused_adoption NAME SETUP-SQL (as SETUP-ROLE) EXPECTED: nothing changes
refused_adoption() {
    local name="$1" role="$2" setup="$3" expected="$4" before_defs got
    if ! adopt_db "$name" || ! as admin "$name" -q -f "$LOOSE" -f "$TLE" -c "CREATE EXTENSION pgcrypto" >/dev/null; then
        bad "$name: setup"
        return
    fi
    su_q "$name" -q -c "SET ROLE $role; $setup" >/dev/null || { bad "$name: setup SQL"; return; }
    before_defs="$(defs "$name")"
    got="$(err admin "$name" "CREATE EXTENSION ulid_portable")"
    expect_str "refused: $name" "$got" "$expected"
    expect_str "... nothing changed (no extension, the same functions)" \
        "$(su_q "$name" -c "SELECT count(*) FROM pg_extension WHERE extname = 'ulid_portable'")
$(defs "$name")" "0
$before_defs"
}
refused_adoption body_differs admin "CREATE OR REPLACE FUNCTION ulid_portable.ulid_ms(id uuid) RETURNS int8 LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT 0::int8'" \
    "55000 the loose installation in schema ulid_portable is not this version of the portable edition"
refused_adoption missing admin "DROP FUNCTION ulid_portable.gen_ulid_start(int8)" \
    "55000 the loose installation in schema ulid_portable is not this version of the portable edition"
refused_adoption extra admin "CREATE FUNCTION ulid_portable.mine() RETURNS int LANGUAGE sql AS 'SELECT 1'" \
    "55000 the loose installation in schema ulid_portable is not this version of the portable edition"
refused_adoption holds_table admin "CREATE TABLE ulid_portable.keep_me (x int); INSERT INTO ulid_portable.keep_me VALUES (1)" \
    "55000 schema ulid_portable holds objects that are not functions of the portable edition"
refused_adoption schema_owner postgres "ALTER SCHEMA ulid_portable OWNER TO outsider" \
    "42501 schema ulid_portable exists and is not owned by the role creating the extension"
refused_adoption function_owner postgres "ALTER FUNCTION ulid_portable.ulid_ms(uuid) OWNER TO outsider" \
    "42501 schema ulid_portable holds functions that the role creating the extension does not own"
expect_str "... the refused table still holds its row" "$(su_q holds_table -c "SELECT count(*) FROM ulid_portable.keep_me")" 1

echo "# from the extension to the native type and back"
if [[ -f "$("$PG_CONFIG" --sharedir)/extension/ulid.control" ]]; then
    before="$(su_q adopt -c "SELECT pg_relation_filenode('app.t')")"
    must "CREATE EXTENSION ulid; ALTER TABLE ... TYPE ulid" su_q adopt -q -c "CREATE EXTENSION ulid" \
        -c "ALTER TABLE app.t ALTER COLUMN id DROP DEFAULT, ALTER COLUMN id TYPE ulid, ALTER COLUMN id SET DEFAULT gen_ulid()"
    expect_str "... not rewritten; the values are the portable edition's text" \
        "$(su_q adopt -c "SELECT pg_relation_filenode('app.t')" \
            -c "SELECT count(*) FROM app.t WHERE id::text <> ulid_portable.ulid_encode(id::uuid)")" "$before
0"
    must "and back: ALTER TABLE ... TYPE uuid, the portable default" su_q adopt -q -c \
        "ALTER TABLE app.t ALTER COLUMN id DROP DEFAULT, ALTER COLUMN id TYPE uuid, ALTER COLUMN id SET DEFAULT ulid_portable.gen_ulid()"
    expect_str "... not rewritten; 101 rows; a new row sorts last" \
        "$(su_q adopt -c "SELECT pg_relation_filenode('app.t')" -c "SELECT count(*) FROM app.t" \
            -c "INSERT INTO app.t (n) VALUES (102) RETURNING id > ALL (SELECT id FROM app.t WHERE n <= 101)")" "$before
101
t"
else
    note "the native extension is not installed for this server: its round trip is not checked here"
fi

echo "# the differential checks against the extension (portable_differential.sh, ULID_PORTABLE_FORM=tle)"
must "a database for them" newdb differential
out="$(cluster_run tle env PGDATABASE=differential ULID_PORTABLE_FORM=tle PG_CONFIG="$PG_CONFIG" \
    bash test/suites/portable_differential.sh 2>&1)"
rc=$?
printf "%s\n" "$out" | sed "s/^/    /" | grep -E "^    (FAIL|# [0-9]+ checks)" || true
expect_str "portable_differential.sh (pg_tle form) passes: exit status" "$rc" 0
expect_match "... and ran its checks" "$(tail -n 3 <<<"$out")" '# [0-9]{2,} checks, 0 failed'

note "took $((SECONDS - T0)) s"
checks_summary
