#!/usr/bin/env bash
# Hostile role names: installing (and updating) the trusted extension as a role whose name is SQL.
#
# PostgreSQL substitutes @extowner@ (and @extschema@) into an extension script's text before it
# parses it, comments included, and a trusted install runs that text as the bootstrap superuser: a
# role name holding a newline ends a `--` comment and the rest of the name runs as SQL. Our scripts
# therefore contain neither placeholder (checked statically here, in the tree and in the server's
# extension directory), and this suite proves it against the server: for each name below a
# non-superuser role with CREATE on the database (no other privilege) makes its own schema and runs
# CREATE EXTENSION ulid there (and, when older versions exist, CREATE ... VERSION + ALTER EXTENSION
# UPDATE; then the refresh round trip, UPDATE TO '<default>+refresh' + UPDATE, where it exists).
# Each name carries a payload that would make a victim role superuser, grant it a role,
# or create an object elsewhere if any of it ran as SQL. Checks per name: the extension installs
# (owned by that role, in its schema, working) or fails with a plain ERROR; no role's attributes,
# memberships or settings changed; nothing appeared outside the target schema; the schema guard
# still refuses a schema the role cannot create in (42501).
#
# Needs the PG* environment of a server with the ulid extension installed and a superuser. Creates
# and drops roles ulid_rn_* and a database next to PGDATABASE.
set -euo pipefail

here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
# shellcheck source-path=SCRIPTDIR source=../lib/checks.sh
source "$here/../lib/checks.sh"
root="$(cd -- "$here/../.." && pwd -P)"

pg_config="${PG_CONFIG:-pg_config}"
bindir="$("$pg_config" --bindir)"
sharedir="$("$pg_config" --sharedir)"
DB="${PGDATABASE:-postgres}_rn"
WORK="$(mktemp -d -t ulid-rolenames.XXXXXX)"

q() { "$bindir/psql" -X -qAt -v ON_ERROR_STOP=1 -d "$DB" "$@"; }
# as_role I SQL [psql args...]: run SQL in a session that first did SET ROLE to hostile name I
as_role() {
    local i="$1" sql="$2"
    shift 2
    printf '%s
\\gexec
%s
' \
        "SELECT pg_catalog.format('SET ROLE %I', name) FROM ulid_rn_names WHERE i = $i" "$sql" | q "$@" -f -
}
# gexec SQL: run every statement SQL's rows spell
gexec() { printf '%s
\\gexec
' "$1" | q -f - >/dev/null; }
drop_objects() {
    "$bindir/psql" -X -q -d postgres -c 'SET client_min_messages = warning' \
        -c "DROP DATABASE IF EXISTS \"$DB\" WITH (FORCE)" >/dev/null 2>&1 || true
    # the hostile roles are dropped by name from the table of names, which went with the database;
    # their names all start with the marker "ulid_rn" (checked below), so drop by prefix
    "$bindir/psql" -X -qAt -d postgres -c "SELECT pg_catalog.format('DROP ROLE %I;', rolname)
        FROM pg_catalog.pg_roles WHERE rolname LIKE 'ulid\_rn%'" 2>/dev/null |
        "$bindir/psql" -X -q -d postgres >/dev/null 2>&1 || true
}
trap 'drop_objects; rm -rf "$WORK"' EXIT

# ---------------------------------------------------------------------------------------------
# 1. The scripts hold no placeholder at all (comments included).
for dir in "$root" "$sharedir/extension"; do
    mapfile -t scripts < <(find "$dir" -maxdepth 1 -name 'ulid--*.sql' | sort)
    expect "ulid--*.sql scripts in $dir" "${#scripts[@]}" -ge 1
    for f in "${scripts[@]}"; do
        hits="$(grep -nE '@ext(owner|schema)@' "$f" || true)"
        if [[ -z $hits ]]; then
            ok "$f: no @extowner@ / @extschema@"
        else
            bad "$f: placeholder substituted by CREATE EXTENSION: $hits"
        fi
    done
done

# ---------------------------------------------------------------------------------------------
# 2. Set-up: the names (built in SQL, so that bash never has to carry them), their roles and schemas.
drop_objects
"$bindir/psql" -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE \"$DB\" TEMPLATE template0"
versions="$(ls "$sharedir/extension" | sed -nE 's/^ulid--([^-]+)\.sql$/\1/p' | sort -V)"
oldest="$(head -n 1 <<<"$versions")"
default="$(sed -nE "s/^[[:space:]]*default_version[[:space:]]*=[[:space:]]*'([^']+)'.*/\1/p" \
    "$sharedir/extension/ulid.control")"
note "server $("$bindir/postgres" --version); install versions: $(tr '\n' ' ' <<<"$versions")(default $default)"

# Every payload would, if run as SQL by the bootstrap superuser, make ulid_rn_victim a superuser,
# a member of pg_read_server_files, or create a table pg_catalog.ulid_rn_p or public.ulid_rn_p.
q <<'SQL'
CREATE ROLE ulid_rn_victim NOLOGIN;
CREATE SCHEMA ulid_rn_locked;            -- owned by the superuser: nobody else may create in it
REVOKE CREATE ON SCHEMA public FROM PUBLIC;  -- as on 15+, also on older majors
CREATE TABLE ulid_rn_names (i int PRIMARY KEY, what text NOT NULL, name text NOT NULL);
INSERT INTO ulid_rn_names VALUES
 (1,  'newline',        E'ulid_rn\nALTER ROLE ulid_rn_victim SUPERUSER;--'),
 (2,  'carriage return', E'ulid_rn\rALTER ROLE ulid_rn_victim SUPERUSER;--'),
 (3,  'double dash',    'ulid_rn -- ALTER ROLE ulid_rn_victim SUPERUSER'),
 (4,  'comment open',   'ulid_rn /* ALTER ROLE ulid_rn_victim SUPERUSER'),
 (5,  'comment close',  'ulid_rn */ ALTER ROLE ulid_rn_victim SUPERUSER; /*'),
 (6,  'semicolon',      'ulid_rn; GRANT pg_read_server_files TO ulid_rn_victim;'),
 (7,  'double quote',   'ulid_rn"; ALTER ROLE ulid_rn_victim SUPERUSER; --'),
 (8,  'dollar',         'ulid_rn$owner$;CREATE TABLE pg_catalog.ulid_rn_p();$owner$'),
 (9,  'backslash',      E'ulid_rn\\'';\\\\ ALTER ROLE ulid_rn_victim SUPERUSER; --'),
 (10, 'single quote',   'ulid_rn''); CREATE TABLE public.ulid_rn_p(); --'),
 (11, 'unicode',        'ulid_rn_ülïd_名前_🔑'),
 (12, 'all at once',    E'ulid_rn"\n\r--/**/;$$''\\ ALTER ROLE ulid_rn_victim SUPERUSER;--'),
 (13, '63 bytes',       'ulid_rn_' || pg_catalog.repeat('x', 55));
SQL
expect "63-byte name is 63 bytes" "$(q -c "SELECT octet_length(name) FROM ulid_rn_names WHERE i = 13")" -eq 63
# 19 refuses a role name holding a newline or a carriage return: there those names are checked to
# be refused, and the rest of the suite goes on without them.
if (($(q -c "SHOW server_version_num") >= 190000)); then
    for i in $(q -c "SELECT i FROM ulid_rn_names WHERE name ~ '[\n\r]' ORDER BY i"); do
        what="$(q -c "SELECT what FROM ulid_rn_names WHERE i = $i")"
        if out="$(gexec "SELECT pg_catalog.format('CREATE ROLE %I', name) FROM ulid_rn_names WHERE i = $i" 2>&1)"; then
            bad "19: a role name with a $what was accepted"
        else
            expect_contains "19: a role name with a $what is refused" "$out" "contains a newline or carriage return character"
        fi
    done
    expect "19: names with a newline or carriage return left out" \
        "$(q -c "WITH d AS (DELETE FROM ulid_rn_names WHERE name ~ '[\n\r]' RETURNING 1) SELECT count(*) FROM d")" -eq 3
fi
count="$(q -c "SELECT count(*) FROM ulid_rn_names")"
gexec "SELECT pg_catalog.format('CREATE ROLE %I NOSUPERUSER NOCREATEDB NOCREATEROLE', name) FROM ulid_rn_names ORDER BY i"
gexec "SELECT pg_catalog.format('GRANT CREATE ON DATABASE %I TO %I', current_database(), name) FROM ulid_rn_names ORDER BY i"
gexec "SELECT pg_catalog.format('CREATE SCHEMA ulid_rn_s%s AUTHORIZATION %I', i, name) FROM ulid_rn_names ORDER BY i"
expect "hostile roles created with their exact names" \
    "$(q -c "SELECT count(*) FROM ulid_rn_names n JOIN pg_roles r ON r.rolname = n.name")" -eq "$count"

# What must not change: roles' attributes and settings, memberships, and every object outside the
# ulid_rn_s* schemas (by catalog, namespace and name), casts and extensions excepted only where they
# belong to the extension being installed.
SNAPSHOT_SQL="
SELECT 'role ' || ROW(rolname, rolsuper, rolinherit, rolcreaterole, rolcreatedb, rolcanlogin,
                      rolreplication, rolbypassrls, rolconnlimit, rolvaliduntil)::text FROM pg_roles
UNION ALL SELECT 'member ' || ROW(roleid::regrole, member::regrole, admin_option)::text FROM pg_auth_members
UNION ALL SELECT 'setting ' || ROW(setrole, setdatabase, setconfig)::text FROM pg_db_role_setting
UNION ALL SELECT 'database ' || ROW(datname, datdba::regrole, datacl)::text FROM pg_database
UNION ALL SELECT 'namespace ' || ROW(nspname, nspowner::regrole, nspacl)::text FROM pg_namespace
          WHERE nspname NOT LIKE 'ulid\_rn\_s%'
UNION ALL SELECT 'object ' || ROW(x.cat, n.nspname, x.name)::text
FROM (SELECT 'class', relnamespace, relname::text || coalesce(relacl::text, '') FROM pg_class
      UNION ALL SELECT 'proc', pronamespace, proname::text || '(' || proargtypes::text || ')' || coalesce(proacl::text, '') FROM pg_proc
      UNION ALL SELECT 'type', typnamespace, typname::text FROM pg_type
      UNION ALL SELECT 'operator', oprnamespace, oprname::text || oprleft || ',' || oprright FROM pg_operator
      UNION ALL SELECT 'opclass', opcnamespace, opcname::text FROM pg_opclass
      UNION ALL SELECT 'opfamily', opfnamespace, opfname::text FROM pg_opfamily
      UNION ALL SELECT 'collation', collnamespace, collname::text FROM pg_collation
      UNION ALL SELECT 'conversion', connamespace, conname::text FROM pg_conversion) x(cat, nsp, name)
JOIN pg_namespace n ON n.oid = x.nsp
WHERE n.nspname NOT LIKE 'ulid\_rn\_s%' AND n.nspname NOT LIKE 'pg\_temp%' AND n.nspname NOT LIKE 'pg\_toast%'
UNION ALL SELECT 'cast ' || ROW(castsource::regtype, casttarget::regtype, castfunc, castcontext)::text FROM pg_cast
          WHERE NOT EXISTS (SELECT 1 FROM pg_depend d
                            WHERE d.classid = 'pg_cast'::regclass AND d.objid = pg_cast.oid AND d.deptype = 'e')
UNION ALL SELECT 'event trigger ' || ROW(evtname, evtevent, evtowner::regrole)::text FROM pg_event_trigger
UNION ALL SELECT 'extension ' || ROW(extname, extnamespace::regnamespace)::text FROM pg_extension WHERE extname <> 'ulid'
ORDER BY 1"
q -c "$SNAPSHOT_SQL" >"$WORK/before"
expect "snapshot lines before" "$(wc -l <"$WORK/before")" -gt 1000

# ---------------------------------------------------------------------------------------------
# 3. Each name installs the extension into its own schema as itself.
for i in $(q -c "SELECT i FROM ulid_rn_names ORDER BY i"); do
    what="$(q -c "SELECT what FROM ulid_rn_names WHERE i = $i")"
    if [[ $oldest != "$default" ]]; then
        install="CREATE EXTENSION ulid SCHEMA ulid_rn_s$i VERSION '$oldest'; ALTER EXTENSION ulid UPDATE;"
    else
        install="CREATE EXTENSION ulid SCHEMA ulid_rn_s$i;"
    fi
    # and the refresh round trip after pg_upgrade (docs/upgrading.md), where the release has it
    if [[ -f "$sharedir/extension/ulid--$default--$default+refresh.sql" ]]; then
        install+=" ALTER EXTENSION ulid UPDATE TO '$default+refresh'; ALTER EXTENSION ulid UPDATE;"
    fi
    rc=0
    as_role "$i" "$install" -v VERBOSITY=verbose >"$WORK/out" 2>"$WORK/err" || rc=$?
    if ((rc == 0)); then
        row="$(q -c "SELECT e.extowner = r.oid, e.extnamespace::regnamespace::text, e.extversion,
                            (SELECT count(*) FROM pg_depend d WHERE d.refobjid = e.oid AND d.deptype = 'e')
                     FROM pg_extension e, ulid_rn_names n JOIN pg_roles r ON r.rolname = n.name
                     WHERE e.extname = 'ulid' AND n.i = $i")"
        expect_match "[$what] installed, owned by the role, in its schema, at $default" "$row" \
            "^t\|ulid_rn_s$i\|$default\|[0-9]+$"
        works="$(as_role "$i" "SELECT ulid_rn_s$i.ulid_to_timestamp(ulid_rn_s$i.gen_ulid()) <= pg_catalog.clock_timestamp()
                     AND '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid_rn_s$i.ulid::text = '01ARZ3NDEKTSV4RRFFQ69G5FAV'")"
        expect_str "[$what] the role uses it" "$works" "t"
    else
        msg="$(grep -m 1 -E '^(psql:.*)?ERROR' "$WORK/err" || true)"
        expect_match "[$what] refused with a plain error" "$msg" 'ERROR:  [0-9A-Z]{5}: .+'
        note "[$what] $(tr '\n' ' ' <"$WORK/err")"
    fi
    denied="$(as_role "$i" "DROP EXTENSION IF EXISTS ulid; CREATE EXTENSION ulid SCHEMA ulid_rn_locked;" \
        -v VERBOSITY=verbose 2>&1 >/dev/null || true)"
    expect_match "[$what] guard refuses a schema the role cannot create in" "$denied" \
        'ERROR:  42501: permission denied for schema ulid_rn_locked'
    q -c "$SNAPSHOT_SQL" >"$WORK/after"
    if cmp -s "$WORK/before" "$WORK/after"; then
        ok "[$what] no role, membership, setting or object outside the role's schema changed"
    else
        bad "[$what] something changed outside the role's schema:"
        diff "$WORK/before" "$WORK/after" | sed 's/^/#     /' | head -n 20
    fi
done

victim="$(q -c "SELECT rolsuper::text || ',' || (SELECT count(*) FROM pg_auth_members m WHERE m.member = r.oid)
               FROM pg_roles r WHERE rolname = 'ulid_rn_victim'")"
expect_str "victim role is still no superuser and a member of nothing" "$victim" "false,0"
planted="$(q -c "SELECT count(*) FROM pg_class WHERE relname = 'ulid_rn_p'")"
expect "tables planted by payloads" "$planted" -eq 0

checks_summary
