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
# Waypoints: '<v>+refresh' for each release that has the round trip (0.2.0 on; released ones stay).
mapfile -t waypoints < <(for e in "${edges[@]}"; do
    for x in "${e%%--*}" "${e#*--}"; do [[ $x == *+refresh ]] && printf '%s\n' "$x"; done
done | sort -uV)
if ((has_refresh)); then
    for w in "${waypoints[@]}"; do
        v="${w%+refresh}"
        for e in "$v--$w" "$w--$v"; do
            if [[ -f $root/ulid--$e.sql ]]; then ok "refresh edge ulid--$e.sql exists"; else bad "refresh edge ulid--$e.sql is missing"; fi
        done
        [[ -f $root/ulid--$w.sql ]] && bad "ulid--$w.sql: the refresh waypoint must have no install script"
    done
    for e in "${edges[@]}"; do
        a="${e%%--*}" b="${e#*--}"
        [[ $e == *+refresh* && $b != "$a+refresh" && $a != "$b+refresh" ]] &&
            bad "update script ulid--$e.sql: a refresh waypoint leads only from its version and back to it"
    done
    [[ " ${waypoints[*]} " == *" $refresh "* ]] ||
        bad "no refresh round trip for $default (ulid--$default--$refresh.sql and back; docs/upgrading.md)"
else
    bad "no refresh round trip for $default (ulid--$default--$refresh.sql and back; docs/upgrading.md)"
fi

# Released scripts never change: test/lib/released_scripts.sha256 pins every script of every
# released version (default_version included: it is released once it lands), committed or made by
# the Makefile; a script of such a version that is not pinned is an error too.
manifest="$here/../lib/released_scripts.sha256"
pinned=0
while read -r sum file; do
    [[ -z $sum || $sum == \#* ]] && continue
    pinned=$((pinned + 1))
    if [[ ! -f $root/$file ]]; then
        bad "released script $file is missing (built? make)"
    elif [[ "$(sha256sum "$root/$file" | cut -d' ' -f1)" != "$sum" ]]; then
        bad "released script $file changed (a released script never changes: make a new release)"
    fi
done <"$manifest"
for f in "$root"/ulid--*.sql; do
    b="$(basename "$f")"
    grep -q " $b\$" "$manifest" && continue
    bad "$b is not pinned in test/lib/released_scripts.sha256 (a script of a released version)"
done
expect "released scripts pinned and unchanged" "$pinned" -gt 0

# ---------------------------------------------------------------------------------------------
# what the server has
echo
echo "# server: ${PGHOST:-?}:${PGPORT:-?}, scripts under $extdir"
server_versions="$(q "$BASE" "SELECT string_agg(version, ' ' ORDER BY version) FROM pg_available_extension_versions WHERE name = 'ulid'")"
# (the server also lists versions it reaches by an update path from an installable one: the waypoint)
repo_versions="$(printf '%s\n' "${installs[@]}" "${waypoints[@]}" | grep -v '^$' | sort | tr '\n' ' ' | sed 's/ $//')"
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

# ---------------------------------------------------------------------------------------------
# A lone operator family of a name the scripts create, not the extension's own (left by hand, or
# by a class dropped as a refusal told): the install and every update into the default version
# refuse it (42710, naming the family) and change nothing; after the documented fix (drop that
# family) they go through, and pg_dump | psql of the database works.
FAMILIES_14=("ulid_minmax_multi_ops brin" "ulid_bloom_ops brin")
FAMILIES=("ulid_ops btree" "ulid_ops hash" "ulid_minmax_ops brin")
server_num="$(q "$BASE" "SHOW server_version_num")"
((server_num >= 140000)) && FAMILIES+=("${FAMILIES_14[@]}")

# refused DB WHAT SQL NAME AM: SQL fails with 42710 naming the family NAME for AM
refused() {
    local err
    err="$("$bindir/psql" -X -qAt -v ON_ERROR_STOP=1 -v VERBOSITY=verbose -d "$1" <<<"$3" 2>&1 >/dev/null || true)"
    expect_match "$2: refused with 42710 naming operator family $4 ($5)" "$err" \
        "ERROR:  42710: operator family \"?$4\"? for access method \"?$5\"? already exists"
}

# dump_restores DB WHAT: pg_dump DB | psql into a fresh database without an error; same catalog
dump_restores() {
    local copy
    copy="$(fresh_db "${1}_restored")"
    if "$bindir/pg_dump" -d "$1" >"$WORK/dump.sql" 2>"$WORK/dump.err" &&
        "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -d "$copy" -f "$WORK/dump.sql" >/dev/null 2>"$WORK/restore.err"; then
        ok "$2: pg_dump | psql into a fresh database"
        describe "$1" >"$WORK/dumped.txt"
        describe "$copy" >"$WORK/restored.txt"
        if cmp -s "$WORK/dumped.txt" "$WORK/restored.txt"; then
            ok "$2: the restored catalog equals the dumped one"
        else
            bad "$2: the restored catalog differs from the dumped one"
        fi
    else
        bad "$2: pg_dump | psql failed: $(cat "$WORK/dump.err" "$WORK/restore.err" | grep -m 1 ERROR)"
    fi
}

echo
echo "# a lone foreign operator family of each name the scripts create"
for fa in "${FAMILIES[@]}"; do
    read -r fam am <<<"$fa"
    db="$(fresh_db "lone_${fam}_$am")"
    q "$db" "CREATE OPERATOR FAMILY public.$fam USING $am"
    refused "$db" "CREATE EXTENSION ulid with a foreign $fam ($am) in its schema" "CREATE EXTENSION ulid" "$fam" "$am"
    expect_str "nothing installed after the refusal ($fam, $am)" \
        "$(q "$db" "SELECT count(*) FROM pg_extension WHERE extname = 'ulid'")/$(q "$db" "SELECT count(*) FROM pg_type WHERE typname = 'ulid'")/$(q "$db" "SELECT count(*) FROM pg_opfamily WHERE opfname = '$fam'")" \
        "0/0/1"
    q "$db" "DROP OPERATOR FAMILY public.$fam USING $am"
    if q "$db" "CREATE EXTENSION ulid"; then ok "after DROP OPERATOR FAMILY $fam: CREATE EXTENSION ulid"; else bad "after DROP OPERATOR FAMILY $fam: CREATE EXTENSION ulid"; fi
    same_as_fresh "$db" "installed after the foreign $fam ($am) was dropped"
done

if ((server_num >= 140000)); then
    # every update into the default version, from each older release and through the refresh
    # round trip, with the BRIN classes missing (as after pg_upgrade from 13) and a foreign family
    for fa in "${FAMILIES_14[@]}"; do
        read -r fam am <<<"$fa"
        for from in "${older[@]}" "$refresh"; do
            db="$(fresh_db "lone_update_${fam}_${from}")"
            if [[ $from == "$refresh" ]]; then
                q "$db" "CREATE EXTENSION ulid"
                step="ALTER EXTENSION ulid UPDATE TO '$refresh'"
                was="$default"
            else
                q "$db" "CREATE EXTENSION ulid VERSION '$from'"
                step="ALTER EXTENSION ulid UPDATE"
                was="$from"
            fi
            as_if_older_major "$db" >/dev/null
            # the reported sequence: a same-named class made by hand (refused as before: 42710),
            # dropped as told, leaving its implicit family behind
            q "$db" "CREATE OPERATOR CLASS public.$fam FOR TYPE public.ulid USING brin AS
                     OPERATOR 1 public.= (public.ulid, public.ulid),
                     FUNCTION 1 pg_catalog.brin_minmax_opcinfo(pg_catalog.internal),
                     FUNCTION 2 pg_catalog.brin_minmax_add_value(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
                     FUNCTION 3 pg_catalog.brin_minmax_consistent(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
                     FUNCTION 4 pg_catalog.brin_minmax_union(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal)"
            err="$("$bindir/psql" -X -qAt -v VERBOSITY=verbose -d "$db" -c "$step" 2>&1 >/dev/null || true)"
            expect_match "update from $from with a foreign class $fam: refused (42710)" "$err" \
                "ERROR:  42710: operator class $fam for access method brin already exists and is not part of extension ulid"
            q "$db" "DROP OPERATOR CLASS public.$fam USING brin"
            describe "$db" >"$WORK/before_refusal.txt"
            refused "$db" "update from $from after the class was dropped, its family left" "$step" "$fam" "$am"
            expect_str "update from $from: version unchanged after the refusal" \
                "$(q "$db" "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")" "$was"
            describe "$db" >"$WORK/after_refusal.txt"
            if cmp -s "$WORK/before_refusal.txt" "$WORK/after_refusal.txt"; then
                ok "update from $from: catalog unchanged by the refusal"
            else
                bad "update from $from: the refusal changed the catalog"
            fi
            q "$db" "DROP OPERATOR FAMILY public.$fam USING brin"
            if q "$db" "SET client_min_messages = warning; $step; ALTER EXTENSION ulid UPDATE" 2>"$WORK/update.err"; then
                ok "update from $from after DROP OPERATOR FAMILY $fam"
            else
                bad "update from $from after DROP OPERATOR FAMILY $fam: $(head -n 1 "$WORK/update.err")"
            fi
            same_as_fresh "$db" "after the update from $from with $fam fixed"
            dump_restores "$db" "update from $from with $fam fixed"
        done
    done
else
    note "this major has no BRIN minmax-multi/bloom: foreign families of those names are not touched"
    db="$(fresh_db lone_13)"
    q "$db" "CREATE OPERATOR FAMILY public.ulid_bloom_ops USING brin"
    if q "$db" "CREATE EXTENSION ulid"; then ok "CREATE EXTENSION ulid beside an unrelated ulid_bloom_ops family (13)"; else bad "CREATE EXTENSION ulid beside ulid_bloom_ops (13)"; fi
    expect_str "the foreign ulid_bloom_ops stays outside the extension (13)" \
        "$(q "$db" "SELECT count(*) FROM pg_depend WHERE classid = 'pg_opfamily'::regclass AND deptype = 'e'
                    AND objid = (SELECT oid FROM pg_opfamily WHERE opfname = 'ulid_bloom_ops')")" "0"
fi

checks_summary
