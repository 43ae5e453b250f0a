#!/usr/bin/env bash
# Owner-driven updates: the owner of a trusted install (an ordinary role that owns the database)
# prepares the catalog so that the update scripts, which run as the bootstrap superuser, skip the
# extension's objects or adopt the owner's. Every update whose target is the default version (0.3.1
# or later) and the refresh round trip refuse, roll back, and leave the catalog as it was.
#
# The owner's moves, each alone and together ("variants"):
#   decoy      a function of its own named ulid_uuid_cmp (another signature), added to the
#              extension with ALTER EXTENSION ADD: the 0.3.0 body's by-name probe then skips
#              every object of 0.3.0;
#   operators  five SQL-function operators < <= = >= > on (ulid, uuid) in the extension's schema:
#              with the decoy, the 0.3.0 body puts them into the extension's BRIN families;
#   timeops    (for updates into 0.4.0 and later) an operator >= on (ulid, timestamptz) there, where
#              the 0.4.0 body makes its own: the update fails on it (42723), adopts nothing.
# For each target from 0.3.1 on and each release older than it, and for the refresh round trip on
# the default version, and with the update run by the owner and by a superuser: the update is refused (its SQLSTATE is
# checked: 42710 from the default version's check where the bodies before it went through, the
# error of the statement that stopped otherwise), extversion and the catalog description
# (test/lib/ulid_describe.sql, with the operator families' entries) are unchanged, and no
# operator of the owner is in a family.
# Then the attack of the released 0.2.1 -> 0.3.0 script is shown to work (why docs/security.md says
# UPDATE TO '0.3.0' stays unsafe there), the update to the default version refuses that database
# naming the foreign members, and the documented repair
# (test/suites/recipes/repair_foreign_members.sql) brings it to the default version with the
# catalog of a fresh install. On 18+ the 0.2.1 body's skip-support probe with a decoy
# ulid_skipsupport(integer) fails loudly instead of adopting (42883).
#
# Needs the PG* environment of a superuser on a server with this tree installed; creates and drops
# its own roles and databases. Prints one line per check, exits non-zero on any violation.
set -euo pipefail

here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
# shellcheck source-path=SCRIPTDIR source=../lib/checks.sh
source "$here/../lib/checks.sh"
root="$(cd -- "$here/../.." && pwd -P)"
started=$SECONDS

pg_config="${PG_CONFIG:-pg_config}"
bindir="$("$pg_config" --bindir)"
BASE="${PGDATABASE:-postgres}"
OWNER=ulid_oug_owner
PASSWORD="oug-$RANDOM$RANDOM"
WORK="$(mktemp -d -t ulid-oug.XXXXXX)"
# drop_all: this suite's databases (fresh_db names them ${BASE}_oug_*: fresh_db runs in a command
# substitution, so no list of them survives) and its role
drop_all() {
    local db
    for db in $("$bindir/psql" -X -qAt -d postgres -c "SELECT datname FROM pg_database WHERE datname LIKE '${BASE//_/\\_}\\_oug\\_%'"); do
        "$bindir/psql" -X -q -d postgres -c 'SET client_min_messages = warning' \
            -c "DROP DATABASE IF EXISTS \"$db\"" >/dev/null 2>&1 || true
    done
    "$bindir/psql" -X -q -d postgres -c 'SET client_min_messages = warning' \
        -c "DROP ROLE IF EXISTS $OWNER" >/dev/null 2>&1 || true
}
cleanup() {
    drop_all
    rm -rf "$WORK"
}
trap cleanup EXIT

# q DB SQL as the caller's superuser; qo DB SQL as the owner
q() { "$bindir/psql" -X -qAt -v ON_ERROR_STOP=1 -d "$1" <<<"$2"; }
qo() { PGUSER="$OWNER" PGPASSWORD="$PASSWORD" "$bindir/psql" -X -qAt -v ON_ERROR_STOP=1 -d "$1" <<<"$2"; }

default="$(sed -nE "s/^[[:space:]]*default_version[[:space:]]*=[[:space:]]*'([^']+)'.*/\1/p" "$root/ulid.control")"
refresh="$default+refresh"
mapfile -t older < <(for f in "$root"/ulid--*.sql; do
    b="$(basename "$f" .sql)"
    b="${b#ulid--}"
    [[ $b == *--* || $b == "$default" ]] || printf '%s\n' "$b"
done | sort -V)
server_num="$(q "$BASE" "SHOW server_version_num")"
DESCRIBE_SQL="$(cat "$here/../lib/ulid_describe.sql")"
note "default version $default; older releases: ${older[*]}; server $server_num"

drop_all
q postgres "CREATE ROLE $OWNER LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '$PASSWORD'"

# fresh_db TAG: a database owned by the owner (so that it may install the trusted extension)
fresh_db() {
    local db="${BASE}_oug_${1//[^A-Za-z0-9_]/_}"
    "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -d postgres -c 'SET client_min_messages = warning' \
        -c "DROP DATABASE IF EXISTS \"$db\"" -c "CREATE DATABASE \"$db\" OWNER $OWNER TEMPLATE template0" >/dev/null
    printf '%s\n' "$db"
}

# state DB: the catalog description, the version and the owner's operators in the families (one
# session: this suite makes about a hundred databases and looks at each twice)
state() {
    q "$1" "$DESCRIBE_SQL
            SELECT 'extversion ' || extversion FROM pg_extension WHERE extname = 'ulid';
            SELECT 'foreign family entries ' || count(*) FROM pg_amop a JOIN pg_operator o ON o.oid = a.amopopr
            WHERE o.oprowner = '$OWNER'::regrole;"
}

PLANT_DECOY="CREATE FUNCTION public.ulid_uuid_cmp(integer) RETURNS integer LANGUAGE sql AS 'SELECT 0';
ALTER EXTENSION ulid ADD FUNCTION public.ulid_uuid_cmp(integer);"
PLANT_OPERATORS="CREATE FUNCTION public.owner_says_yes(public.ulid, uuid) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR public.< (LEFTARG = public.ulid, RIGHTARG = uuid, FUNCTION = public.owner_says_yes);
CREATE OPERATOR public.<= (LEFTARG = public.ulid, RIGHTARG = uuid, FUNCTION = public.owner_says_yes);
CREATE OPERATOR public.= (LEFTARG = public.ulid, RIGHTARG = uuid, FUNCTION = public.owner_says_yes);
CREATE OPERATOR public.>= (LEFTARG = public.ulid, RIGHTARG = uuid, FUNCTION = public.owner_says_yes);
CREATE OPERATOR public.> (LEFTARG = public.ulid, RIGHTARG = uuid, FUNCTION = public.owner_says_yes);"

# 0.4.0's operators of ulid and timestamptz, planted before the update that makes them
PLANT_TIME_OPERATORS="CREATE FUNCTION public.owner_says_later(public.ulid, timestamptz) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR public.>= (LEFTARG = public.ulid, RIGHTARG = timestamptz, FUNCTION = public.owner_says_later);"

# update_refused FROM VARIANT UPDATER STEP WANT_STATE: install FROM as the owner, plant VARIANT,
# run STEP as UPDATER: refused with WANT_STATE (a SQLSTATE), nothing changed
update_refused() {
    local from="$1" variant="$2" updater="$3" step="$4" want="$5" db err got plant=""
    db="$(fresh_db "${from}_${target:-}_${variant}_$updater")"
    if [[ $from == "$refresh" ]]; then qo "$db" "CREATE EXTENSION ulid"; else qo "$db" "CREATE EXTENSION ulid VERSION '$from'"; fi
    case $variant in
    decoy) plant="$PLANT_DECOY" ;;
    operators) plant="$PLANT_OPERATORS" ;;
    both) plant="$PLANT_DECOY$PLANT_OPERATORS" ;;
    timeops) plant="$PLANT_TIME_OPERATORS" ;;
    esac
    if ! qo "$db" "$plant" >/dev/null 2>"$WORK/plant.err"; then
        bad "from $from, $variant: the owner could not plant ($(grep -m 1 ERROR "$WORK/plant.err"))"
        return 0
    fi
    state "$db" >"$WORK/before.txt"
    if [[ $updater == owner ]]; then
        err="$(PGUSER="$OWNER" PGPASSWORD="$PASSWORD" "$bindir/psql" -X -qAt -v VERBOSITY=verbose -d "$db" -c "$step" 2>&1 >/dev/null)" && err=""
    else
        err="$("$bindir/psql" -X -qAt -v VERBOSITY=verbose -d "$db" -c "$step" 2>&1 >/dev/null)" && err=""
    fi
    got="$(sed -nE 's/^ERROR:  ([0-9A-Z]{5}): .*/\1/p' <<<"$err" | head -n 1)"
    if [[ -z $err ]]; then
        bad "from $from, $variant, updated by the $updater: '$step' went through"
    else
        expect_str "from $from, $variant, updated by the $updater: refused with $want ($(grep -m 1 -o 'ERROR:.*' <<<"$err" | cut -c1-120))" "$got" "$want"
    fi
    state "$db" >"$WORK/after.txt"
    if cmp -s "$WORK/before.txt" "$WORK/after.txt"; then
        ok "from $from, $variant, updated by the $updater: version, catalog and families unchanged"
    else
        bad "from $from, $variant, updated by the $updater: the refusal changed the catalog:"
        { diff "$WORK/before.txt" "$WORK/after.txt" || true; } | head -n 10 | sed 's/^/#     /'
    fi
    [[ $variant == both && $want == 42710 ]] && {
        expect_contains "from $from, both, $updater: the error names the foreign member" "$err" \
            "function ulid_uuid_cmp(integer) is a member of extension ulid but is owned by $OWNER"
        expect_match "from $from, both, $updater: the error names the owner's operators" "$err" \
            "operator [0-9] \(ulid, uuid\) of operator family ulid_minmax_ops for access method brin: [<=>]+\(ulid,uuid\) is owned by $OWNER"
    }
    return 0
}

# cannot_plant_operators FROM: with FROM installed (the cross-type operators are the extension's),
# the owner's CREATE OPERATOR of their signatures in the extension's schema fails
cannot_plant_operators() {
    local db err
    db="$(fresh_db "${1}_plant")"
    if [[ $1 == "$refresh" ]]; then qo "$db" "CREATE EXTENSION ulid"; else qo "$db" "CREATE EXTENSION ulid VERSION '$1'"; fi
    err="$(PGUSER="$OWNER" PGPASSWORD="$PASSWORD" "$bindir/psql" -X -qAt -v VERBOSITY=verbose -d "$db" <<<"$PLANT_OPERATORS" 2>&1 >/dev/null || true)"
    expect_match "from $1: the owner cannot plant operators of the extension's signatures (operators, both)" "$err" \
        'ERROR:  42723: operator < already exists'
}

echo "# owner-driven updates into $default"
# every target from 0.3.1 on (the releases whose scripts end with the check), from every release
# before it
mapfile -t targets < <(printf '%s\n' "${older[@]}" "$default" | sort -uV | while read -r v; do
    [[ "$(printf '%s\n' "$v" 0.3.1 | sort -V | head -n 1)" == 0.3.1 ]] && printf '%s\n' "$v"
done)
note "targets: ${targets[*]}"
for target in "${targets[@]}"; do
    for from in "${older[@]}"; do
        [[ $from != "$target" && "$(printf '%s\n' "$from" "$target" | sort -V | head -n 1)" == "$from" ]] || continue
        for variant in decoy operators both; do
            # what stops each: a release before 0.3.0 lacks the cross-type objects, so the 0.3.0
            # body makes them (the owner's operators are in the way: 42723) or skips them for the
            # decoy (then adding the missing operators to the BRIN families fails: 42883), unless
            # both steer it past, where the 0.3.1 check refuses (42710); from 0.3.0 on the objects
            # exist and the check finds the foreign member
            want=42710
            if [[ "$(printf '%s\n' "$from" 0.3.0 | sort -V | head -n 1)" != 0.3.0 ]]; then
                case $variant in decoy) want=42883 ;; operators) want=42723 ;; esac
            elif [[ $variant != decoy ]]; then
                # the operators exist (the extension's): the owner cannot plant them in its schema
                [[ $target == "$default" ]] && cannot_plant_operators "$from"
                continue
            fi
            for updater in owner superuser; do
                update_refused "$from" "$variant" "$updater" "ALTER EXTENSION ulid UPDATE TO '$target'" "$want"
            done
        done
    done
done
target=""

echo
echo "# the operators of ulid and timestamptz (0.4.0), planted before the update that makes them"
if [[ "$(printf '%s\n' 0.4.0 "$default" | sort -V | head -n 1)" == 0.4.0 ]]; then
    for from in "${older[@]}"; do
        [[ "$(printf '%s\n' "$from" 0.4.0 | sort -V | head -n 1)" == "$from" && $from != 0.4.0 ]] || continue
        for updater in owner superuser; do
            update_refused "$from" timeops "$updater" "ALTER EXTENSION ulid UPDATE TO '$default'" 42723
        done
    done
    db="$(fresh_db timeops_plant)"
    qo "$db" "CREATE EXTENSION ulid"
    err="$(PGUSER="$OWNER" PGPASSWORD="$PASSWORD" "$bindir/psql" -X -qAt -v VERBOSITY=verbose -d "$db" <<<"$PLANT_TIME_OPERATORS" 2>&1 >/dev/null || true)"
    expect_match "on $default: the owner cannot plant an operator >= (ulid, timestamptz) in its schema" "$err" \
        'ERROR:  42723: operator >= already exists'
fi

echo
echo "# the refresh round trip on $default"
for updater in owner superuser; do
    update_refused "$refresh" decoy "$updater" "ALTER EXTENSION ulid UPDATE TO '$refresh'" 42710
done
cannot_plant_operators "$refresh"

echo
echo "# a database that took the steered update to 0.3.0, and its repair"
if [[ -f $root/ulid--0.2.1--0.3.0.sql ]]; then
    db="$(fresh_db steered)"
    qo "$db" "CREATE EXTENSION ulid VERSION '0.2.1'"
    qo "$db" "$PLANT_DECOY$PLANT_OPERATORS"
    if qo "$db" "ALTER EXTENSION ulid UPDATE TO '0.3.0'"; then
        ok "the released 0.2.1 -> 0.3.0 script takes the owner's bait (documented as unsafe)"
    else
        bad "the released 0.2.1 -> 0.3.0 script refused the owner's bait (the attack this suite guards against is gone?)"
    fi
    n="$(q "$db" "SELECT count(*) FROM pg_amop a JOIN pg_operator o ON o.oid = a.amopopr WHERE o.oprowner = '$OWNER'::regrole")"
    note "the owner's operators in the extension's families after it: $n"
    expect "the steered 0.3.0 holds operators of the owner in its families" "$n" -gt 0
    state "$db" >"$WORK/before.txt"
    err="$("$bindir/psql" -X -qAt -v VERBOSITY=verbose -d "$db" -c "ALTER EXTENSION ulid UPDATE TO '$default'" 2>&1 >/dev/null || true)"
    expect_match "the update of the steered database to $default is refused (42710)" "$err" \
        "ERROR:  42710: extension ulid is not as its scripts made it: function ulid_uuid_cmp\(integer\) is a member of extension ulid but is owned by $OWNER"
    expect "the refusal names each of the owner's operators in the families" \
        "$(grep -c "is owned by $OWNER (its function owner_says_yes(ulid,uuid) by $OWNER)" <<<"$err" || true)" -eq "$n"
    state "$db" >"$WORK/after.txt"
    if cmp -s "$WORK/before.txt" "$WORK/after.txt"; then ok "the refusal changed nothing"; else bad "the refusal changed the catalog"; fi
    if "$bindir/psql" -X -q -d "$db" -f "$here/recipes/repair_foreign_members.sql" >"$WORK/repair.out" 2>&1; then
        ok "the documented repair (recipes/repair_foreign_members.sql) ran"
    else
        bad "the documented repair failed: $(grep -m 1 ERROR "$WORK/repair.out")"
    fi
    expect_str "extversion after the repair" "$(q "$db" "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")" "$default"
    fresh="$(fresh_db fresh)"
    qo "$fresh" "CREATE EXTENSION ulid"
    q "$fresh" "$DESCRIBE_SQL" >"$WORK/fresh.txt"
    q "$db" "$DESCRIBE_SQL" >"$WORK/repaired.txt"
    if diff -u "$WORK/fresh.txt" "$WORK/repaired.txt" >"$WORK/repaired.diff"; then
        ok "the repaired catalog is a fresh $default install's"
    else
        bad "the repaired catalog differs from a fresh install:"
        grep -E '^[-+][^-+]' "$WORK/repaired.diff" | head -n 20 | sed 's/^/#     /'
    fi
    expect_str "the owner's decoy is the owner's own object again, outside the extension" \
        "$(q "$db" "SELECT count(*) FROM pg_proc p WHERE p.oid = 'public.ulid_uuid_cmp(integer)'::regprocedure
                    AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')")" 1
else
    bad "no ulid--0.2.1--0.3.0.sql: the released update to 0.3.0 is missing"
fi

echo
echo "# the 0.2.1 body's skip-support probe"
if ((server_num >= 180000)); then
    db="$(fresh_db skipsupport)"
    qo "$db" "CREATE EXTENSION ulid VERSION '0.2.0'"
    # as after pg_upgrade from an older major: no skip support (a superuser's step)
    q "$db" "ALTER OPERATOR FAMILY ulid_ops USING btree DROP FUNCTION 6 (ulid, ulid);
             ALTER EXTENSION ulid DROP FUNCTION ulid_skipsupport(internal); DROP FUNCTION ulid_skipsupport(internal)"
    qo "$db" "CREATE FUNCTION public.ulid_skipsupport(integer) RETURNS void LANGUAGE sql AS '';
              ALTER EXTENSION ulid ADD FUNCTION public.ulid_skipsupport(integer)"
    err="$(PGUSER="$OWNER" PGPASSWORD="$PASSWORD" "$bindir/psql" -X -qAt -v VERBOSITY=verbose -d "$db" \
        -c "CREATE FUNCTION public.ulid_skipsupport(internal) RETURNS void LANGUAGE sql AS ''" 2>&1 >/dev/null || true)"
    expect_match "the owner cannot create a function taking internal" "$err" 'ERROR:  42P13: SQL functions cannot have arguments of type internal'
    state "$db" >"$WORK/before.txt"
    for target in 0.2.1 "$default"; do
        err="$(PGUSER="$OWNER" PGPASSWORD="$PASSWORD" "$bindir/psql" -X -qAt -v VERBOSITY=verbose -d "$db" \
            -c "ALTER EXTENSION ulid UPDATE TO '$target'" 2>&1 >/dev/null || true)"
        expect_match "update to $target with a decoy ulid_skipsupport(integer): fails loudly (42883), adopts nothing" "$err" \
            'ERROR:  42883: function ulid_skipsupport\(internal\) does not exist'
    done
    state "$db" >"$WORK/after.txt"
    if cmp -s "$WORK/before.txt" "$WORK/after.txt"; then ok "skip-support decoy: nothing changed"; else bad "skip-support decoy: the catalog changed"; fi
else
    note "PostgreSQL before 18 has no b-tree skip support: the 0.2.1 body's skip-support probe does not run here"
fi

note "owner_update_guard took $((SECONDS - started)) s"
checks_summary
