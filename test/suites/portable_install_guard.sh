#!/usr/bin/env bash
# The portable edition's install guard (portable/ulid_portable.sql) against a planted schema:
#   - the attack: a role with only CREATE on the database makes schema ulid_portable and a function
#     ulid_portable.gen_random_ulid() in it; a superuser runs the script. Before 0.2.1 the script
#     went through (the schema and that function stayed the attacker's), and the attacker's rewrite
#     of the function made the attacker superuser at the superuser's next call — shown here with
#     the script of tag v0.2.0, so that the set-up is known to reproduce the hole. Now the script
#     refuses with 42501, and nothing in the schema changes;
#   - the same as a role that is a member of the owner's role (not a superuser): refused;
#   - a schema the installer owns, holding a function another role planted with a grant on it:
#     refused (42501 naming that function), and the whole script rolled back;
#   - the installer's own schema: installs, twice;
#   - no role attribute or membership changed by anything above (except the reproduction, which is
#     undone and checked).
# Runs in the throwaway cluster of scripts/test (PG* environment, a superuser). About 5 s.
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
source test/lib/checks.sh
suite_exit_on_signals
T0=$SECONDS
export PGOPTIONS="-c client_min_messages=warning"

PORTABLE=portable/ulid_portable.sql
DB="${PGDATABASE:-postgres}"
MALLORY="portable_mallory_$$"
DBA="portable_dba_$$"
OWNER="portable_owner_$$"
PASSWORD="portable-$$-$RANDOM"
WORK="$(mktemp -d -t ulid-portable-guard.XXXXXX)"
chmod 755 "$WORK"
cleanup() {
    psql -X -q -d postgres -c "DROP DATABASE IF EXISTS \"${DB}_old\"" >/dev/null 2>&1
    psql -X -q -d "$DB" -c "DROP SCHEMA IF EXISTS ulid_portable CASCADE" >/dev/null 2>&1
    psql -X -q -d "$DB" -c "DROP OWNED BY $MALLORY, $DBA, $OWNER CASCADE" >/dev/null 2>&1
    psql -X -q -d "$DB" -c "DROP ROLE IF EXISTS $MALLORY; DROP ROLE IF EXISTS $DBA; DROP ROLE IF EXISTS $OWNER" >/dev/null 2>&1
    rm -rf "$WORK"
}
trap cleanup EXIT

q() { psql -X -At -v ON_ERROR_STOP=1 -d "${2:-$DB}" <<<"$1"; }
as_role() { # ROLE DB psql-args...: connect over TCP as ROLE
    local role="$1" db="$2"
    shift 2
    PGUSER="$role" PGPASSWORD="$PASSWORD" PGHOST=127.0.0.1 psql -X -At -v ON_ERROR_STOP=1 -d "$db" "$@"
}
# install ROLE DB [script]: run the portable script as ROLE (superuser: the suite's own role);
# prints its ERROR and DETAIL lines (nothing when it went through)
install() {
    local role="$1" db="$2" script="${3:-$PORTABLE}"
    local -a env=()
    [[ $role == superuser ]] || env+=(PGUSER="$role" PGPASSWORD="$PASSWORD" PGHOST=127.0.0.1)
    env "${env[@]}" psql -X -q -v ON_ERROR_STOP=1 -v VERBOSITY=verbose -d "$db" -f "$script" 2>&1 >/dev/null |
        grep -E '^(psql:[^ ]* )?(ERROR|DETAIL):' | cut -c1-400
}
ROLES_SQL="SELECT string_agg(format('%s %s%s%s%s%s%s', rolname, rolsuper, rolcreaterole, rolcreatedb,
                                    rolreplication, rolbypassrls, rolinherit), ', ' ORDER BY rolname)
             || ' | ' || (SELECT coalesce(string_agg(roleid::regrole || '>' || member::regrole, ', '
                                                     ORDER BY roleid::regrole::text, member::regrole::text), '')
                          FROM pg_auth_members)
           FROM pg_roles"
# plant DB: as mallory, schema ulid_portable with mallory's gen_random_ulid()
plant() {
    as_role "$MALLORY" "$1" -q <<'SQL'
CREATE SCHEMA ulid_portable;
CREATE FUNCTION ulid_portable.gen_random_ulid() RETURNS uuid LANGUAGE sql AS 'SELECT pg_catalog.gen_random_uuid()';
SQL
}
# the attacker's rewrite: at a superuser's call, make mallory superuser
TRAP="CREATE OR REPLACE FUNCTION ulid_portable.gen_random_ulid() RETURNS uuid LANGUAGE plpgsql AS \$t\$
BEGIN
    IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
        EXECUTE 'ALTER ROLE $MALLORY SUPERUSER';
    END IF;
    RETURN pg_catalog.gen_random_uuid();
END \$t\$"

echo "# setup"
note "$(q 'SELECT version()')"
must "roles: mallory and an installer with CREATE on the database only, a dba who is a member of mallory" q "
    CREATE ROLE $MALLORY LOGIN NOSUPERUSER PASSWORD '$PASSWORD';
    CREATE ROLE $OWNER LOGIN NOSUPERUSER PASSWORD '$PASSWORD';
    CREATE ROLE $DBA LOGIN NOSUPERUSER PASSWORD '$PASSWORD' IN ROLE $MALLORY;
    GRANT CREATE ON DATABASE \"$DB\" TO $MALLORY, $OWNER, $DBA"
roles_before="$(q "$ROLES_SQL")"

# ---------------------------------------------------------------------------------------------
echo "# the reproduction: the script of tag v0.2.0 hands the planted schema to a superuser"
if old="$(git show v0.2.0:portable/ulid_portable.sql 2>/dev/null)"; then
    printf '%s\n' "$old" >"$WORK/old.sql"
    q "CREATE DATABASE \"${DB}_old\"" postgres >/dev/null
    q "GRANT CREATE ON DATABASE \"${DB}_old\" TO $MALLORY" postgres >/dev/null
    plant "${DB}_old"
    err="$(install superuser "${DB}_old" "$WORK/old.sql")"
    expect_str "v0.2.0's script runs as a superuser in mallory's schema" "$err" ""
    expect_str "... and mallory still owns the schema and gen_random_ulid()" \
        "$(q "SELECT n.nspowner::regrole || ' ' || p.proowner::regrole FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
              WHERE n.nspname = 'ulid_portable' AND p.proname = 'gen_random_ulid'" "${DB}_old")" "$MALLORY $MALLORY"
    as_role "$MALLORY" "${DB}_old" -q <<<"$TRAP"
    q "SELECT ulid_portable.gen_random_ulid()" "${DB}_old" >/dev/null
    expect_str "... so the superuser's next call makes mallory superuser (the hole)" \
        "$(q "SELECT rolsuper FROM pg_roles WHERE rolname = '$MALLORY'")" t
    q "ALTER ROLE $MALLORY NOSUPERUSER" >/dev/null
    q "DROP DATABASE \"${DB}_old\"" postgres >/dev/null
else
    note "no tag v0.2.0 in this clone: the reproduction with the old script is not run"
fi

# ---------------------------------------------------------------------------------------------
echo "# the attack against this script"
plant "$DB"
src_before="$(q "SELECT prosrc FROM pg_proc WHERE proname = 'gen_random_ulid' AND pronamespace = 'ulid_portable'::regnamespace")"
err="$(install superuser "$DB")"
expect_contains "as a superuser: refused with 42501" "$err" \
    "ERROR:  42501: schema ulid_portable exists and is not owned by the installing role"
expect_contains "... naming the owner" "$err" "It is owned by $MALLORY"
err="$(install "$DBA" "$DB")"
expect_contains "as a member of the owner's role: refused with 42501" "$err" \
    "ERROR:  42501: schema ulid_portable exists and is not owned by the installing role"
expect_str "nothing created or replaced in mallory's schema" \
    "$(q "SELECT count(*) || ' ' || string_agg(proowner::regrole::text, ',') || ' ' || (prosrc = \$\$$src_before\$\$)::text
          FROM pg_proc WHERE pronamespace = 'ulid_portable'::regnamespace GROUP BY prosrc")" "1 $MALLORY true"
as_role "$MALLORY" "$DB" -q <<<"$TRAP"
expect_str "mallory is still not a superuser" "$(q "SELECT rolsuper FROM pg_roles WHERE rolname = '$MALLORY'")" f
q "DROP SCHEMA ulid_portable CASCADE" >/dev/null

# ---------------------------------------------------------------------------------------------
echo "# the installer's own schema, with an object another role planted in it"
must "owner's schema, CREATE on it granted to mallory, mallory's ulid_encode(text) inside" as_role "$OWNER" "$DB" -q -c \
    "CREATE SCHEMA ulid_portable; GRANT USAGE, CREATE ON SCHEMA ulid_portable TO $MALLORY"
as_role "$MALLORY" "$DB" -q -c "CREATE FUNCTION ulid_portable.ulid_encode(text) RETURNS text LANGUAGE sql AS 'SELECT ''x'''"
err="$(install "$OWNER" "$DB")"
expect_contains "refused with 42501" "$err" \
    "ERROR:  42501: schema ulid_portable holds objects that the installing role does not own"
expect_contains "... naming the planted function and its owner" "$err" \
    "function ulid_portable.ulid_encode(text) (owner $MALLORY)"
expect_str "... and the whole script rolled back (no function of the installer)" \
    "$(q "SELECT count(*) FROM pg_proc WHERE pronamespace = 'ulid_portable'::regnamespace AND proowner = '$OWNER'::regrole")" 0
err="$(install superuser "$DB")"
expect_contains "a superuser in the owner's schema: refused too (not the owner)" "$err" \
    "ERROR:  42501: schema ulid_portable exists and is not owned by the installing role"
q "DROP FUNCTION ulid_portable.ulid_encode(text)" >/dev/null

echo "# the installer's own schema"
err="$(install "$OWNER" "$DB")"
expect_str "installs" "$err" ""
err="$(install "$OWNER" "$DB")"
expect_str "installs again (re-runnable)" "$err" ""
expect_str "every object in the schema is the installer's" \
    "$(q "SELECT count(*) FILTER (WHERE proowner <> '$OWNER'::regrole) || '/' || (count(*) > 10)::text
          FROM pg_proc WHERE pronamespace = 'ulid_portable'::regnamespace")" "0/true"
expect_str "and works" "$(q "SELECT ulid_portable.ulid_encode(ulid_portable.ulid_decode('01ARZ3NDEKTSV4RRFFQ69G5FAV'))")" \
    "01ARZ3NDEKTSV4RRFFQ69G5FAV"

roles_after="$(q "$ROLES_SQL")"
expect_str "no role attribute or membership changed" "$roles_after" "$roles_before"
note "took $((SECONDS - T0)) s"
checks_summary
