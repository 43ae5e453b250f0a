#!/usr/bin/env bash
# Upgrade-path harness: every released version reaches default_version through ALTER EXTENSION
# UPDATE, and ends with exactly the objects of a fresh install.
#
# Versions are discovered from the repository root (this file's ../..): install scripts
# ulid--<v>.sql, update scripts ulid--<a>--<b>.sql, and default_version in ulid.control. Checks:
#   - the default version has an install script, no version is newer than the default, and the
#     server has exactly the repository's scripts installed (same versions, identical files under
#     `pg_config --sharedir`/extension), so the checks below test this tree;
#   - a fresh install's catalog description (below) is the same twice and non-empty, and
#     ALTER EXTENSION ulid UPDATE on it is a no-op;
#   - for every version older than the default: pg_extension_update_paths('ulid') has a path to
#     the default version, and in a fresh database CREATE EXTENSION ulid VERSION '<old>' followed by
#     ALTER EXTENSION ulid UPDATE ends at the default version with a catalog description identical
#     to the fresh install's; also when the old version was installed on an older major (what
#     pg_upgrade carries over): the objects some majors lack (BRIN minmax-multi/bloom before 14,
#     skip support before 18) are taken out of the extension first, and the update adds them back;
#   - the refresh round trip after pg_upgrade (docs/upgrading.md): '<default>+refresh' is a
#     waypoint, not a release (update scripts <default>--<default>+refresh and back, no install
#     script); ALTER EXTENSION ulid UPDATE TO '<default>+refresh' then UPDATE gives the fresh
#     install's description, on a fresh install and with the major-dependent objects taken out; it
#     refuses (42710, version unchanged) when an operator class of one of those names that is not
#     the extension's own sits in its schema.
# The description: every member object (pg_describe_object, with its comment); every member
# function's signature, result, language, symbol, volatility, strictness, parallel safety,
# leakproofness, cost, owner and ACL; the type's definition; operators with their functions,
# estimators, commutator, negator, merge/hash flags; operator classes and families with every
# pg_amop/pg_amproc entry; casts; aggregates; the extension row.
#
# Needs the PG* environment of a server with the extension installed from this tree and a
# superuser; creates and drops one database per version next to PGDATABASE. Prints one line per
# check, exits non-zero on any violation.
set -euo pipefail

here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
# shellcheck source-path=SCRIPTDIR source=../lib/checks.sh
source "$here/../lib/checks.sh"
root="$(cd -- "$here/../.." && pwd -P)"

pg_config="${PG_CONFIG:-pg_config}" # the major under test (ulid_virtualenv sets PG_CONFIG)
bindir="$("$pg_config" --bindir)"
extdir="$("$pg_config" --sharedir 2>/dev/null)/extension"
BASE="${PGDATABASE:-postgres}"

WORK="$(mktemp -d -t ulid-upgrade.XXXXXX)"
DBS=()
cleanup() {
    local db
    for db in "${DBS[@]}"; do
        "$bindir/psql" -X -q -d postgres -c 'SET client_min_messages = warning' \
            -c "DROP DATABASE IF EXISTS \"$db\"" >/dev/null 2>&1 || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

q() { "$bindir/psql" -X -qAt -v ON_ERROR_STOP=1 -d "$1" <<<"$2"; }

# fresh_db SUFFIX: create an empty database, print its name
fresh_db() {
    local db="${BASE}_upg_${1//[^A-Za-z0-9_]/_}"
    DBS+=("$db")
    "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -d postgres -c 'SET client_min_messages = warning' \
        -c "DROP DATABASE IF EXISTS \"$db\"" -c "CREATE DATABASE \"$db\" TEMPLATE template0" >/dev/null
    printf '%s\n' "$db"
}

# The catalog description of the installed ulid extension (test/lib/ulid_describe.sql).
DESCRIBE_SQL="$(cat "$here/../lib/ulid_describe.sql")"

# describe DB > FILE; a failing query is a FAIL line
describe() {
    q "$1" "$DESCRIBE_SQL" 2>"$WORK/describe.err" || {
        bad "catalog description query failed in $1: $(head -n 1 "$WORK/describe.err")"
        return 0
    }
}

# as_if_older_major DB: take out of the extension (and drop) what only newer majors have, as a
# database carried over by pg_upgrade from an older major lacks it: BRIN minmax-multi and bloom
# (14+), b-tree skip support (18+). Prints how many of these objects there were.
AS_IF_OLDER_SQL="$(
    cat <<'SQL'
SET search_path = pg_catalog;
SELECT format('ALTER EXTENSION ulid DROP OPERATOR CLASS %1$s USING brin;
               ALTER EXTENSION ulid DROP OPERATOR FAMILY %1$s USING brin;
               DROP OPERATOR FAMILY %1$s USING brin;', quote_ident(n.nspname) || '.' || quote_ident(c.opcname))
FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod JOIN pg_namespace n ON n.oid = c.opcnamespace
WHERE a.amname = 'brin' AND c.opcname IN ('ulid_minmax_multi_ops', 'ulid_bloom_ops')
UNION ALL
SELECT format('ALTER OPERATOR FAMILY %1$s.ulid_ops USING btree DROP FUNCTION 6 (%1$s.ulid, %1$s.ulid);
               ALTER EXTENSION ulid DROP FUNCTION %2$s;
               DROP FUNCTION %2$s;', quote_ident(n.nspname), p.oid::regprocedure)
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE p.proname = 'ulid_skipsupport'
\gexec
SQL
)"
as_if_older_major() {
    local n
    n="$(q "$1" "SELECT (SELECT count(*) FROM pg_opclass WHERE opcname IN ('ulid_minmax_multi_ops', 'ulid_bloom_ops'))
                      + (SELECT count(*) FROM pg_proc WHERE proname = 'ulid_skipsupport')")"
    "$bindir/psql" -X -qAt -v ON_ERROR_STOP=1 -d "$1" >/dev/null <<<"$AS_IF_OLDER_SQL" || {
        bad "could not take the major-dependent objects out of the extension in $1"
        return 0
    }
    printf '%s\n' "$n"
}

# ---------------------------------------------------------------------------------------------
# what the repository says
default="$(sed -nE "s/^[[:space:]]*default_version[[:space:]]*=[[:space:]]*'([^']+)'.*/\1/p" "$root/ulid.control")"
installs=()
edges=()
has_refresh=0
for f in "$root"/ulid--*.sql; do
    [[ -e $f ]] || continue
    b="$(basename "$f" .sql)"
    b="${b#ulid--}"
    if [[ $b == *--* ]]; then edges+=("$b"); else installs+=("$b"); fi
    [[ $b == *+refresh* ]] && has_refresh=1
done
mapfile -t versions < <(
    {
        printf '%s\n' "${installs[@]}"
        for e in "${edges[@]}"; do printf '%s\n%s\n' "${e%%--*}" "${e#*--}"; done
        [[ -n $default ]] && printf '%s\n' "$default"
    } | grep -v '^$' | grep -v '+refresh$' | sort -uV
)
echo "# repository $root"
echo "# default_version ${default:-<none>}; install scripts: ${installs[*]:-none}; update scripts: ${edges[*]:-none}"
echo "# versions: ${versions[*]}"
if [[ -n $default ]]; then ok "ulid.control names default_version $default"; else bad "ulid.control has no default_version"; fi
if [[ -f $root/ulid--$default.sql ]]; then
    ok "install script ulid--$default.sql exists"
else
    bad "no install script ulid--$default.sql for the default version"
fi
older=()
for v in "${versions[@]}"; do
    [[ $v == "$default" ]] && continue
    if [[ "$(printf '%s\n%s\n' "$v" "$default" | sort -V | head -n 1)" == "$v" ]]; then
        older+=("$v")
    else
        bad "version $v is newer than default_version $default (bump default_version or drop the script)"
    fi
done
note "released versions older than $default: ${older[*]:-none} (${#older[@]})"
refresh="$default+refresh"
if ((has_refresh)); then
    for e in "$default--$refresh" "$refresh--$default"; do
        if [[ -f $root/ulid--$e.sql ]]; then ok "refresh edge ulid--$e.sql exists"; else bad "refresh edge ulid--$e.sql is missing"; fi
    done
    for e in "${edges[@]}"; do
        [[ $e == *+refresh* && $e != "$default--$refresh" && $e != "$refresh--$default" && $e != *--"$default" ]] &&
            bad "update script ulid--$e.sql: a refresh waypoint of another version must lead back to $default"
    done
    [[ -f $root/ulid--$refresh.sql ]] && bad "ulid--$refresh.sql: the refresh waypoint must have no install script"
else
    bad "no refresh round trip for $default (ulid--$default--$refresh.sql and back; docs/upgrading.md)"
fi

# ---------------------------------------------------------------------------------------------
# what the server has
echo
echo "# server: ${PGHOST:-?}:${PGPORT:-?}, scripts under $extdir"
server_versions="$(q "$BASE" "SELECT string_agg(version, ' ' ORDER BY version) FROM pg_available_extension_versions WHERE name = 'ulid'")"
# (the server also lists versions it reaches by an update path from an installable one: the waypoint)
repo_versions="$( (printf '%s\n' "${installs[@]}" && ((has_refresh)) && printf '%s\n' "$refresh") | grep -v '^$' | sort | tr '\n' ' ' | sed 's/ $//')"
expect_str "versions the server can install = the repository's ($repo_versions)" \
    "$server_versions" "$repo_versions"
expect_str "the server's default_version" \
    "$(q "$BASE" "SELECT default_version FROM pg_available_extensions WHERE name = 'ulid'")" "$default"
differ=0
for f in "$root"/ulid.control "$root"/ulid--*.sql; do
    if ! cmp -s "$f" "$extdir/$(basename "$f")"; then
        differ=$((differ + 1))
        note "not installed or different: $(basename "$f") (run make install)"
    fi
done
for f in "$extdir"/ulid--*.sql; do
    [[ -e $f && ! -e $root/$(basename "$f") ]] && {
        differ=$((differ + 1))
        note "installed but not in the repository: $(basename "$f")"
    }
done
expect "repository scripts missing from or different on the server, or extra there" "$differ" -eq 0

# ---------------------------------------------------------------------------------------------
echo
echo "# fresh install of $default"
db="$(fresh_db fresh)"
if q "$db" "CREATE EXTENSION ulid"; then ok "CREATE EXTENSION ulid (fresh, $db)"; else bad "CREATE EXTENSION ulid (fresh)"; fi
describe "$db" >"$WORK/fresh.txt"
describe "$db" >"$WORK/fresh2.txt"
expect "catalog description lines of the fresh install" "$(wc -l <"$WORK/fresh.txt")" -gt 50
note "  $(grep -c '^member ' "$WORK/fresh.txt") members, $(grep -c '^function ' "$WORK/fresh.txt") functions, $(grep -c '^operator ' "$WORK/fresh.txt") operators, $(grep -c '^amop ' "$WORK/fresh.txt") amop and $(grep -c '^amproc ' "$WORK/fresh.txt") amproc entries, $(grep -c '^cast ' "$WORK/fresh.txt") casts, $(grep -c '^aggregate ' "$WORK/fresh.txt") aggregates"
if cmp -s "$WORK/fresh.txt" "$WORK/fresh2.txt"; then ok "the description is deterministic"; else bad "the description differs between two runs"; fi
expect_str "extversion after the fresh install" "$(q "$db" "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")" "$default"
q "$db" "SET client_min_messages = warning; ALTER EXTENSION ulid UPDATE" || bad "ALTER EXTENSION ulid UPDATE on the default version"
describe "$db" >"$WORK/fresh3.txt"
if cmp -s "$WORK/fresh.txt" "$WORK/fresh3.txt"; then
    ok "ALTER EXTENSION ulid UPDATE on $default changes nothing"
else
    bad "ALTER EXTENSION ulid UPDATE on $default changed the catalog"
fi

# ---------------------------------------------------------------------------------------------
# same_as_fresh DB WHAT: DB's catalog description equals the fresh install's
same_as_fresh() {
    local tag="${1//[^A-Za-z0-9_]/_}"
    describe "$1" >"$WORK/$tag.txt"
    if diff -u "$WORK/fresh.txt" "$WORK/$tag.txt" >"$WORK/$tag.diff"; then
        ok "catalog $2 identical to a fresh $default install ($(wc -l <"$WORK/$tag.txt") lines)"
    else
        bad "catalog $2 differs from a fresh install (- fresh, + this one):"
        grep -E '^[-+][^-+]' "$WORK/$tag.diff" | head -n 30 | sed 's/^/#     /'
    fi
}

# update_from VERSION [older-major]: CREATE EXTENSION ulid VERSION, (take out what older majors
# lack,) ALTER EXTENSION ulid UPDATE: at the default version, as a fresh install
update_from() {
    local v="$1" mode="${2:-}" db n label="$1"
    [[ -n $mode ]] && label="$v (as if installed on an older major)"
    db="$(fresh_db "$v$mode")"
    if ! q "$db" "CREATE EXTENSION ulid VERSION '$v'" 2>"$WORK/create.err"; then
        bad "CREATE EXTENSION ulid VERSION '$v': $(head -n 1 "$WORK/create.err")"
        return 0
    fi
    ok "CREATE EXTENSION ulid VERSION '$v'"
    if [[ -n $mode ]]; then
        n="$(as_if_older_major "$db")"
        note "  took $n major-dependent object(s) out of the extension"
    fi
    if q "$db" "SET client_min_messages = warning; ALTER EXTENSION ulid UPDATE" 2>"$WORK/update.err"; then
        ok "ALTER EXTENSION ulid UPDATE from $label"
    else
        bad "ALTER EXTENSION ulid UPDATE from $label: $(head -n 1 "$WORK/update.err")"
    fi
    expect_str "extversion after updating from $label" \
        "$(q "$db" "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")" "$default"
    same_as_fresh "$db" "after $label -> $default"
}

for v in "${older[@]}"; do
    echo
    echo "# upgrade from $v"
    path="$(q "$BASE" "SELECT coalesce(path, '<none>') FROM pg_extension_update_paths('ulid')
                       WHERE source = '$v' AND target = '$default'")" || path=""
    if [[ -n $path && $path != "<none>" ]]; then
        ok "update path $v -> $default: $path"
    else
        bad "no update path from $v to $default (add ulid--$v--<next>.sql up to $default)"
    fi
    update_from "$v"
    update_from "$v" older-major
done
((${#older[@]} > 0)) || note "no released version before $default: no upgrade to check yet"

# ---------------------------------------------------------------------------------------------
# refresh_round_trip DB WHAT: UPDATE TO '<default>+refresh', UPDATE: back at default, as fresh
refresh_round_trip() {
    if q "$1" "SET client_min_messages = warning; ALTER EXTENSION ulid UPDATE TO '$refresh'" 2>"$WORK/refresh.err"; then
        ok "ALTER EXTENSION ulid UPDATE TO '$refresh' ($2)"
    else
        bad "ALTER EXTENSION ulid UPDATE TO '$refresh' ($2): $(head -n 1 "$WORK/refresh.err")"
    fi
    expect_str "extversion at the waypoint ($2)" \
        "$(q "$1" "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")" "$refresh"
    q "$1" "SET client_min_messages = warning; ALTER EXTENSION ulid UPDATE" ||
        bad "ALTER EXTENSION ulid UPDATE from $refresh ($2)"
    expect_str "extversion after the round trip ($2)" \
        "$(q "$1" "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")" "$default"
    same_as_fresh "$1" "after the refresh round trip ($2)"
}

if ((has_refresh)); then
    echo
    echo "# the refresh round trip (the step after pg_upgrade)"
    db="$(fresh_db refresh)"
    q "$db" "CREATE EXTENSION ulid"
    refresh_round_trip "$db" "on a fresh install: nothing to add"
    n="$(as_if_older_major "$db")"
    note "took $n major-dependent object(s) out of the extension, as after pg_upgrade from an older major"
    refresh_round_trip "$db" "after taking $n object(s) out"
    # an operator class of one of those names that is not the extension's: refused, not adopted
    if ((n > 0)) && [[ -n "$(q "$db" "SELECT 1 FROM pg_opclass WHERE opcname = 'ulid_bloom_ops'")" ]]; then
        q "$db" "ALTER EXTENSION ulid DROP OPERATOR CLASS ulid_bloom_ops USING brin;
                 ALTER EXTENSION ulid DROP OPERATOR FAMILY ulid_bloom_ops USING brin"
        err="$("$bindir/psql" -X -qAt -v VERBOSITY=verbose -d "$db" \
            -c "ALTER EXTENSION ulid UPDATE TO '$refresh'" 2>&1 >/dev/null || true)"
        expect_match "the round trip refuses a ulid_bloom_ops that is not the extension's" "$err" \
            'ERROR:  42710: operator class ulid_bloom_ops for access method brin already exists and is not part of extension ulid'
        expect_str "extversion unchanged after the refusal" \
            "$(q "$db" "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")" "$default"
    else
        note "this major has no BRIN bloom: the refusal of a foreign ulid_bloom_ops is not checked here"
    fi
fi

checks_summary
