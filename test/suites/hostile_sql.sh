#!/usr/bin/env bash
# Hostile-SQL suite: the install script resists planted look-alikes, and a trusted (non-superuser)
# install gives its owner no power it did not have.
#
# Look-alikes are planted for every pg_catalog function the extension's catalog entries or its
# install script reference (eqsel, scalarltsel, btequalimage, brin_minmax_*, current_setting, ...),
# same name and signature: plpgsql ones log the call in a table and raise a WARNING; those with
# `internal` in their signature (plpgsql cannot have that) are LANGUAGE internal aliases of
# internal_in, which raises "cannot accept a value of type internal" when called. Also operators on
# built-in types (>= on integer, = on text/oid), polymorphic overloads of the extension's own
# function names, domains named like pg_catalog types, functions named like casts, and in pg_temp
# tables/types named ulid, gen_ulid, ulid_ops.
#
# (a) malicious search_path: as the installing superuser, with look-alikes in a schema "evil"
#     (owned by another role) and in pg_temp, and search_path = pg_temp, evil, pg_catalog, public:
#     (a1) CREATE EXTENSION ulid SCHEMA ulid_home; (a2) with the look-alikes planted in the target
#     schema itself (a schema the attacker may create in), CREATE EXTENSION ulid SCHEMA shared.
#     Then: every function the extension's catalog entries reference (type I/O, operator code and
#     estimators, pg_amproc, aggregates, casts) and every operator they reference is in pg_catalog
#     or a member of the extension; every type in a member function's signature or a cast likewise;
#     after exercising everything (btree/hash/BRIN indexes, planner estimates, joins, casts,
#     aggregates) with the hostile search_path still set, no look-alike was ever called.
# (b) trusted install: a role with CREATE on the database only. Without CREATE it cannot install;
#     with it, it installs into its own schema (not into pg_catalog or public), owns the extension
#     but none of its objects (they belong to the bootstrap superuser); it cannot create a C
#     function (not even on ulid's symbols), replace, alter, rename, drop or detach an extension
#     function, create a base type on ulid_in/ulid_out, a binary-coercible cast from or to ulid, or
#     an operator class over ulid's support functions, LOAD the library, or move the extension into
#     pg_catalog; every member function taking `internal` is STRICT (NULL never reaches C code) and
#     `internal` values cannot be made in SQL; look-alikes it planted in its own schema (which would
#     make it superuser if the script, run as superuser, ever called one) were never called; it
#     can still use and drop the extension.
#
# Needs the PG* environment of a server with the ulid extension installed and a superuser; creates
# and drops roles ulid_hx_* and databases next to PGDATABASE. Prints one line per check, exits
# non-zero on any violation.
set -euo pipefail

here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
# shellcheck source-path=SCRIPTDIR source=../lib/checks.sh
source "$here/../lib/checks.sh"
root="$(cd -- "$here/../.." && pwd -P)"

bindir="$("${PG_CONFIG:-pg_config}" --bindir)" # the major under test (ulid_virtualenv sets PG_CONFIG)
BASE="${PGDATABASE:-postgres}"
DB_PROBE="${BASE}_hx_probe"
DB_A1="${BASE}_hx_a1"
DB_A2="${BASE}_hx_a2"
DB_B="${BASE}_hx_b"
ROLES=(ulid_hx_attacker ulid_hx_owner ulid_hx_nobody ulid_hx_user)
PASSWORD="hx-$RANDOM-$RANDOM-$$"

WORK="$(mktemp -d -t ulid-hostile.XXXXXX)"
drop_all() {
    local db r
    for db in "$DB_PROBE" "$DB_A1" "$DB_A2" "$DB_B"; do
        "$bindir/psql" -X -q -d postgres -c 'SET client_min_messages = warning' \
            -c "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >/dev/null 2>&1 || true
    done
    for r in "${ROLES[@]}"; do
        "$bindir/psql" -X -q -d postgres -c 'SET client_min_messages = warning' \
            -c "DROP ROLE IF EXISTS $r" >/dev/null 2>&1 || true
    done
}
trap 'drop_all; rm -rf "$WORK"' EXIT

# q DB SQL (as the caller's superuser); qas ROLE DB SQL (logged in as ROLE)
q() { "$bindir/psql" -X -qAt -v ON_ERROR_STOP=1 -d "$1" <<<"$2"; }
qas() { PGUSER="$1" PGPASSWORD="$PASSWORD" "$bindir/psql" -X -qAt -v ON_ERROR_STOP=1 -d "$2" <<<"$3"; }

# denied NAME ROLE DB SQL REGEX: the statement fails for ROLE with an error matching REGEX
denied() {
    local name="$1" role="$2" db="$3" sql="$4" re="$5" err
    if qas "$role" "$db" "$sql" >/dev/null 2>"$WORK/denied.err"; then
        bad "$name: succeeded (it must not)"
        return 0
    fi
    err="$(grep -m 1 -E 'ERROR' "$WORK/denied.err" || head -n 1 "$WORK/denied.err")"
    if [[ $err =~ $re ]]; then
        ok "$name: ${err#*ERROR:  }"
    else
        bad "$name: failed, but not as expected (/$re/): $err"
    fi
}

drop_all
"$bindir/psql" -X -q -v ON_ERROR_STOP=1 -d postgres \
    -c "CREATE ROLE ulid_hx_attacker NOLOGIN" \
    -c "CREATE ROLE ulid_hx_owner LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '$PASSWORD'" \
    -c "CREATE ROLE ulid_hx_nobody LOGIN NOSUPERUSER PASSWORD '$PASSWORD'" \
    -c "CREATE ROLE ulid_hx_user LOGIN NOSUPERUSER PASSWORD '$PASSWORD'" \
    -c "CREATE DATABASE \"$DB_PROBE\" TEMPLATE template0" -c "CREATE DATABASE \"$DB_A1\" TEMPLATE template0" \
    -c "CREATE DATABASE \"$DB_A2\" TEMPLATE template0" -c "CREATE DATABASE \"$DB_B\" TEMPLATE template0"
echo "# server ${PGHOST:-?}:${PGPORT:-?}; roles ${ROLES[*]}; databases $DB_A1 $DB_A2 $DB_B"

# ---------------------------------------------------------------------------------------------
# What to imitate: pg_catalog functions the extension's catalog references (from a clean install),
# and every pg_catalog function named in the install script.
script="$root/ulid--$(sed -nE "s/^[[:space:]]*default_version[[:space:]]*=[[:space:]]*'([^']+)'.*/\1/p" "$root/ulid.control").sql"
names="$(grep -oE 'pg_catalog\.[a-z_0-9]+\(' "$script" | sed -E 's/^pg_catalog\.//; s/\($//' | sort -u | tr '\n' ',' | sed 's/,$//')"
q "$DB_PROBE" "CREATE EXTENSION ulid" >/dev/null
# PostgreSQL 13 has no pg_type.typsubscript (the subscripting handler) and no minmax-multi or bloom
# BRIN operator classes
SUBSCRIPT_REF=", ('subscript', t.typsubscript)"
BRIN14_SQL="CREATE INDEX hx_t_multi ON hx_t USING brin (r ulid_minmax_multi_ops);
        CREATE INDEX hx_t_bloom ON hx_t USING brin (r ulid_bloom_ops);"
if (($(q "$DB_PROBE" "SHOW server_version_num") < 140000)); then
    SUBSCRIPT_REF=""
    BRIN14_SQL=""
    note "PostgreSQL 13: no typsubscript to check, no minmax-multi/bloom BRIN indexes to exercise"
fi
# REFS_SQL: (kind, function oid) for every function the extension's catalog entries point to
REFS_SQL="
WITH ext AS (SELECT e.oid, e.extnamespace FROM pg_extension e WHERE e.extname = 'ulid'),
mem AS (SELECT d.classid, d.objid FROM pg_depend d, ext
        WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid AND d.deptype = 'e'),
fams AS (SELECT objid AS oid FROM mem WHERE classid = 'pg_opfamily'::regclass
         UNION SELECT c.opcfamily FROM pg_opclass c JOIN mem ON mem.classid = 'pg_opclass'::regclass
                                                             AND mem.objid = c.oid),
refs(kind, fn) AS (
    SELECT 'type ' || x.k, x.f FROM pg_type t JOIN mem ON mem.classid = 'pg_type'::regclass AND mem.objid = t.oid,
        LATERAL (VALUES ('input', t.typinput::oid), ('output', t.typoutput), ('receive', t.typreceive),
                        ('send', t.typsend), ('analyze', t.typanalyze)$SUBSCRIPT_REF,
                        ('modin', t.typmodin), ('modout', t.typmodout)) x(k, f)
    UNION ALL
    SELECT 'operator ' || x.k, x.f FROM pg_operator o JOIN mem ON mem.classid = 'pg_operator'::regclass AND mem.objid = o.oid,
        LATERAL (VALUES ('code', o.oprcode::oid), ('restrict', o.oprrest), ('join', o.oprjoin)) x(k, f)
    UNION ALL
    SELECT 'amproc', a.amproc FROM pg_amproc a WHERE a.amprocfamily IN (SELECT oid FROM fams)
    UNION ALL
    SELECT 'aggregate ' || x.k, x.f FROM pg_aggregate g JOIN mem ON mem.classid = 'pg_proc'::regclass AND mem.objid = g.aggfnoid,
        LATERAL (VALUES ('transfn', g.aggtransfn::oid), ('finalfn', g.aggfinalfn), ('combinefn', g.aggcombinefn),
                        ('serialfn', g.aggserialfn), ('deserialfn', g.aggdeserialfn), ('mtransfn', g.aggmtransfn),
                        ('minvtransfn', g.aggminvtransfn), ('mfinalfn', g.aggmfinalfn)) x(k, f)
    UNION ALL
    SELECT 'cast', c.castfunc FROM pg_cast c JOIN mem ON mem.classid = 'pg_cast'::regclass AND mem.objid = c.oid
    UNION ALL
    SELECT 'function support', p.prosupport FROM pg_proc p JOIN mem ON mem.classid = 'pg_proc'::regclass AND mem.objid = p.oid
)"
oids="$(q "$DB_PROBE" "$REFS_SQL
    SELECT string_agg(DISTINCT p.oid::text, ',') FROM refs JOIN pg_proc p ON p.oid = refs.fn
    WHERE refs.fn <> 0 AND p.pronamespace = 'pg_catalog'::regnamespace")"
own_fns="$(q "$DB_PROBE" "SELECT string_agg(DISTINCT p.proname || ':' || p.pronargs, ',')
    FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid'
    JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
    WHERE d.deptype = 'e' AND p.pronargs > 0 AND p.prokind = 'f'
      AND NOT 'internal'::regtype = ANY (p.proargtypes::oid[])")"
note "look-alikes of pg_catalog functions named in $(basename "$script") ($names) and of $(tr ',' '\n' <<<"$oids" | grep -c .) functions the catalog references"

# plant_sql SCHEMA LOG_TABLE ALLOW_INTERNAL ESCALATE_ROLE: SQL that plants look-alikes in SCHEMA.
# ALLOW_INTERNAL=1 also makes the `internal`-signature tripwires (needs a superuser).
# ESCALATE_ROLE (may be empty): a logger also tries ALTER ROLE ... SUPERUSER (as whoever calls it).
plant_sql() {
    local s="$1" log="$2" allow_internal="$3" escalate="$4"
    cat <<SQL
CREATE TABLE $log (fn text, by_user name DEFAULT current_user, at timestamptz DEFAULT clock_timestamp());
GRANT INSERT, SELECT ON $log TO PUBLIC;
DO \$plant\$
DECLARE
    r record;
    body text;
BEGIN
    FOR r IN
        SELECT DISTINCT p.proname, pg_get_function_identity_arguments(p.oid) AS args,
               pg_get_function_result(p.oid) AS ret,
               EXISTS (SELECT FROM unnest(p.proargtypes::oid[] || p.prorettype) t(oid)
                       JOIN pg_type ty ON ty.oid = t.oid
                       WHERE ty.typtype = 'p' AND ty.typname NOT IN ('void', 'anyelement', 'cstring')) AS pseudo
        FROM pg_proc p
        WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.prokind = 'f' AND p.proretset = false
          AND (p.oid = ANY ('{$oids}'::oid[]) OR p.proname = ANY (string_to_array('$names', ',')))
    LOOP
        IF r.pseudo THEN
            CONTINUE WHEN NOT $allow_internal::bool;
            BEGIN
                EXECUTE format('CREATE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE internal AS %L',
                               '$s', r.proname, r.args, r.ret, 'internal_in');
            EXCEPTION WHEN invalid_function_definition THEN
                -- 17+ refuses a polymorphic result without a polymorphic argument (array_in's
                -- anyarray from cstring): nobody, superuser or not, can plant that look-alike
                RAISE NOTICE 'not plantable on this server: %.%(%): %', '$s', r.proname, r.args, SQLERRM;
            END;
        ELSE
            body := format('BEGIN INSERT INTO $log (fn) VALUES (%L); %s RAISE WARNING %L; RETURN%s; END',
                           '$s.' || r.proname || '(' || r.args || ')',
                           CASE WHEN '$escalate' <> '' THEN
                               'BEGIN ALTER ROLE $escalate SUPERUSER; EXCEPTION WHEN others THEN NULL; END;' ELSE '' END,
                           'look-alike $s.' || r.proname || ' called',
                           CASE WHEN r.ret = 'void' THEN '' ELSE ' NULL' END);
            EXECUTE format('CREATE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE plpgsql AS %L',
                           '$s', r.proname, r.args, r.ret, body);
        END IF;
    END LOOP;
    -- polymorphic overloads of the extension's own function names (same number of arguments)
    FOR r IN SELECT split_part(x, ':', 1) AS name, split_part(x, ':', 2)::int AS n
             FROM unnest(string_to_array('$own_fns', ',')) x
    LOOP
        EXECUTE format('CREATE FUNCTION %I.%I(%s) RETURNS anyelement LANGUAGE plpgsql AS %L', '$s', r.name,
                       array_to_string(array_fill('anyelement'::text, ARRAY[r.n]), ','),
                       format('BEGIN INSERT INTO $log (fn) VALUES (%L); RAISE WARNING %L; RETURN NULL; END',
                              '$s.' || r.name || '(anyelement...)', 'look-alike $s.' || r.name || ' called'));
    END LOOP;
    -- functions named like the casts' targets and like our type
    FOREACH body IN ARRAY ARRAY['text', 'timestamptz', 'uuid', 'bytea', 'int4', 'ulid'] LOOP
        EXECUTE format('CREATE FUNCTION %I.%I(anyelement) RETURNS text LANGUAGE plpgsql AS %L', '$s', body,
                       format('BEGIN INSERT INTO $log (fn) VALUES (%L); RAISE WARNING %L; RETURN NULL; END',
                              '$s.' || body || '(anyelement)', 'look-alike $s.' || body || ' called'));
    END LOOP;
END
\$plant\$;
-- operators on built-in types (the DO block of the script compares integers)
CREATE FUNCTION $s.evil_int4_ge(integer, integer) RETURNS boolean LANGUAGE plpgsql AS
    \$f\$BEGIN INSERT INTO $log (fn) VALUES ('$s.>=(integer,integer)'); RAISE WARNING 'look-alike $s.>= called'; RETURN NULL; END\$f\$;
CREATE FUNCTION $s.evil_text_eq(text, text) RETURNS boolean LANGUAGE plpgsql AS
    \$f\$BEGIN INSERT INTO $log (fn) VALUES ('$s.=(text,text)'); RAISE WARNING 'look-alike $s.= called'; RETURN NULL; END\$f\$;
CREATE FUNCTION $s.evil_oid_eq(oid, oid) RETURNS boolean LANGUAGE plpgsql AS
    \$f\$BEGIN INSERT INTO $log (fn) VALUES ('$s.=(oid,oid)'); RAISE WARNING 'look-alike $s.= called'; RETURN NULL; END\$f\$;
CREATE OPERATOR $s.>= (LEFTARG = integer, RIGHTARG = integer, FUNCTION = $s.evil_int4_ge);
CREATE OPERATOR $s.= (LEFTARG = text, RIGHTARG = text, FUNCTION = $s.evil_text_eq);
CREATE OPERATOR $s.= (LEFTARG = oid, RIGHTARG = oid, FUNCTION = $s.evil_oid_eq);
SQL
}

# planted_calls DB LOG: how many look-alike calls were logged
planted_calls() { q "$1" "SELECT count(*) FROM $2"; }

# check_catalog LABEL DB SCHEMA: the extension's catalog references only pg_catalog and itself
check_catalog() {
    local l="$1" db="$2" schema="$3" out total badrefs
    expect_str "$l: the extension is in schema $schema" \
        "$(q "$db" "SELECT extnamespace::regnamespace FROM pg_extension WHERE extname = 'ulid'")" "$schema"
    out="$(q "$db" "$REFS_SQL,
        checked AS (
            SELECT refs.kind, p.oid::regprocedure::text AS fn, p.pronamespace,
                   EXISTS (SELECT FROM mem WHERE mem.classid = 'pg_proc'::regclass AND mem.objid = p.oid) AS member
            FROM refs JOIN pg_proc p ON p.oid = refs.fn WHERE refs.fn <> 0)
        SELECT count(*) || ' ' || count(*) FILTER (WHERE NOT member AND pronamespace <> 'pg_catalog'::regnamespace)
        FROM checked")"
    read -r total badrefs <<<"$out"
    expect "$l: function references (type I/O, operator code/restrict/join, amproc, aggregates, casts, support) outside pg_catalog and the extension (of $total)" \
        "$badrefs" -eq 0
    q "$db" "$REFS_SQL SELECT '#     ' || refs.kind || ' -> ' || p.oid::regprocedure FROM refs JOIN pg_proc p ON p.oid = refs.fn
             WHERE refs.fn <> 0 AND p.pronamespace <> 'pg_catalog'::regnamespace
               AND NOT EXISTS (SELECT FROM mem WHERE mem.classid = 'pg_proc'::regclass AND mem.objid = p.oid)"
    out="$(q "$db" "
        WITH ext AS (SELECT e.oid FROM pg_extension e WHERE e.extname = 'ulid'),
        mem AS (SELECT d.classid, d.objid FROM pg_depend d, ext
                WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid AND d.deptype = 'e'),
        fams AS (SELECT objid AS oid FROM mem WHERE classid = 'pg_opfamily'::regclass
                 UNION SELECT c.opcfamily FROM pg_opclass c JOIN mem ON mem.classid = 'pg_opclass'::regclass
                                                                     AND mem.objid = c.oid),
        ops(kind, op) AS (
            SELECT 'amop', a.amopopr FROM pg_amop a WHERE a.amopfamily IN (SELECT oid FROM fams)
            UNION ALL SELECT 'commutator', o.oprcom FROM pg_operator o JOIN mem ON mem.classid = 'pg_operator'::regclass AND mem.objid = o.oid
            UNION ALL SELECT 'negator', o.oprnegate FROM pg_operator o JOIN mem ON mem.classid = 'pg_operator'::regclass AND mem.objid = o.oid
            UNION ALL SELECT 'sortop', g.aggsortop FROM pg_aggregate g JOIN mem ON mem.classid = 'pg_proc'::regclass AND mem.objid = g.aggfnoid),
        types(kind, t) AS (
            SELECT 'argument', unnest(p.proargtypes::oid[]) FROM pg_proc p JOIN mem ON mem.classid = 'pg_proc'::regclass AND mem.objid = p.oid
            UNION ALL SELECT 'result', p.prorettype FROM pg_proc p JOIN mem ON mem.classid = 'pg_proc'::regclass AND mem.objid = p.oid
            UNION ALL SELECT 'cast source', c.castsource FROM pg_cast c JOIN mem ON mem.classid = 'pg_cast'::regclass AND mem.objid = c.oid
            UNION ALL SELECT 'cast target', c.casttarget FROM pg_cast c JOIN mem ON mem.classid = 'pg_cast'::regclass AND mem.objid = c.oid
            UNION ALL SELECT 'opclass input', c.opcintype FROM pg_opclass c JOIN mem ON mem.classid = 'pg_opclass'::regclass AND mem.objid = c.oid)
        SELECT (SELECT count(*) FROM ops WHERE op <> 0) || ' ' ||
               (SELECT count(*) FROM ops JOIN pg_operator o ON o.oid = ops.op
                WHERE o.oprnamespace <> 'pg_catalog'::regnamespace
                  AND NOT EXISTS (SELECT FROM mem WHERE mem.classid = 'pg_operator'::regclass AND mem.objid = o.oid)) || ' ' ||
               (SELECT count(*) FROM types) || ' ' ||
               (SELECT count(*) FROM types JOIN pg_type ty ON ty.oid = types.t
                WHERE ty.typnamespace <> 'pg_catalog'::regnamespace
                  AND NOT EXISTS (SELECT FROM mem WHERE mem.classid = 'pg_type'::regclass AND mem.objid = ty.oid))")"
    local nops badops ntypes badtypes
    read -r nops badops ntypes badtypes <<<"$out"
    expect "$l: operator references (opclass members, commutators, negators, aggregate sort operators) outside pg_catalog and the extension (of $nops)" \
        "$badops" -eq 0
    expect "$l: types in member signatures, casts and opclasses outside pg_catalog and the extension (of $ntypes)" \
        "$badtypes" -eq 0
}

# exercise DB SEARCH_PATH [ROLE]: use every kind of catalog entry (planner estimates, index builds
# and scans, sorts, hash joins, aggregates, casts); prints psql's stderr. Built-in type names are
# written pg_catalog-qualified: a look-alike domain named text earlier in the path captures a bare
# ::text in the caller's own query (PostgreSQL name resolution, not the extension's catalog).
exercise() {
    local db="$1" path="$2" role="${3:-}" runner=(q)
    [[ -n $role ]] && runner=(qas "$role")
    "${runner[@]}" "$db" "SET search_path = $path;
        CREATE TABLE hx_t (id ulid PRIMARY KEY DEFAULT gen_ulid(), r ulid DEFAULT gen_random_ulid(), n int);
        INSERT INTO hx_t (n) SELECT g FROM generate_series(1, 3000) g;
        CREATE INDEX hx_t_hash ON hx_t USING hash (id);
        CREATE INDEX hx_t_brin ON hx_t USING brin (id);
        $BRIN14_SQL
        ANALYZE hx_t;
        SELECT count(*) FROM hx_t a JOIN hx_t b ON a.id = b.id WHERE a.id > ulid_min(now() - interval '1 day');
        SELECT count(*) FROM hx_t a JOIN hx_t b ON a.r = b.r WHERE a.r <> b.id AND a.id <= b.id AND a.id >= b.id;
        SET enable_seqscan = off;
        SELECT count(*) FROM hx_t WHERE id < ulid_max(now());
        SELECT min(id) < max(id), min(r) <= max(r) FROM hx_t;
        SELECT count(DISTINCT id::pg_catalog.text), count(DISTINCT id::pg_catalog.uuid),
               count(DISTINCT id::pg_catalog.bytea), count(DISTINCT id::pg_catalog.timestamptz) > 0,
               count(DISTINCT ('2020-01-01'::pg_catalog.timestamptz)::ulid),
               count(DISTINCT (id::pg_catalog.text)::ulid), count(DISTINCT (id::pg_catalog.uuid)::ulid),
               count(DISTINCT (id::pg_catalog.bytea)::ulid)
        FROM hx_t;
        SELECT id FROM hx_t ORDER BY id DESC LIMIT 1;
        SELECT count(*) FROM (SELECT id FROM hx_t GROUP BY id) s;
        DROP TABLE hx_t;" >/dev/null
}

# ---------------------------------------------------------------------------------------------
echo
echo "# (a1) look-alikes in schema evil (owned by ulid_hx_attacker) and pg_temp; search_path = pg_temp, evil, pg_catalog, public; CREATE EXTENSION ulid SCHEMA ulid_home"
{
    echo "CREATE SCHEMA evil; CREATE SCHEMA ulid_home;"
    plant_sql evil evil.calls true ""
    for t in text int4 int8 bool oid float8 void internal cstring bytea timestamptz uuid; do
        echo "CREATE DOMAIN evil.$t AS pg_catalog.int2;"
    done
    echo "ALTER SCHEMA evil OWNER TO ulid_hx_attacker;"
} >"$WORK/plant_a1.sql"
if q "$DB_A1" "$(cat "$WORK/plant_a1.sql")" >/dev/null 2>"$WORK/plant_a1.err"; then
    ok "(a1) planted $(q "$DB_A1" "SELECT count(*) FROM pg_proc WHERE pronamespace = 'evil'::regnamespace") look-alike functions, $(q "$DB_A1" "SELECT count(*) FROM pg_operator WHERE oprnamespace = 'evil'::regnamespace") operators, $(q "$DB_A1" "SELECT count(*) FROM pg_type WHERE typnamespace = 'evil'::regnamespace AND typtype = 'd'") domains in evil"
else
    bad "(a1) planting look-alikes: $(head -n 6 "$WORK/plant_a1.err")"
fi
rc=0
q "$DB_A1" "CREATE TEMP TABLE ulid (x int);
            CREATE TEMP TABLE gen_ulid (x int);
            CREATE TYPE pg_temp.ulid_ops AS (x int);
            CREATE FUNCTION pg_temp.btequalimage(oid) RETURNS boolean LANGUAGE plpgsql AS
                \$\$BEGIN INSERT INTO evil.calls (fn) VALUES ('pg_temp.btequalimage'); RETURN NULL; END\$\$;
            CREATE FUNCTION pg_temp.eqsel(internal, oid, internal, integer) RETURNS float8
                LANGUAGE internal AS 'internal_in';
            SET search_path = pg_temp, evil, pg_catalog, public;
            CREATE EXTENSION ulid SCHEMA ulid_home;" >"$WORK/a1.out" 2>"$WORK/a1.err" || rc=$?
expect "(a1) CREATE EXTENSION ulid SCHEMA ulid_home under the hostile search_path: exit status" "$rc" -eq 0
expect_str "(a1) ... and it printed nothing on stderr (no look-alike WARNING)" "$(cat "$WORK/a1.err")" ""
check_catalog "(a1)" "$DB_A1" ulid_home
expect "(a1) look-alike calls logged during CREATE EXTENSION" "$(planted_calls "$DB_A1" evil.calls)" -eq 0
rc=0
exercise "$DB_A1" "ulid_home, evil, pg_catalog, public" 2>"$WORK/a1x.err" || rc=$?
expect "(a1) exercising indexes, estimates, joins, aggregates and casts with evil before pg_catalog: exit status" "$rc" -eq 0
expect_str "(a1) ... and no look-alike WARNING or tripwire error" "$(cat "$WORK/a1x.err")" ""
expect "(a1) look-alike calls logged after the exercise" "$(planted_calls "$DB_A1" evil.calls)" -eq 0

# ---------------------------------------------------------------------------------------------
echo
echo "# (a2) look-alikes planted in the target schema itself (shared, where ulid_hx_attacker may create); CREATE EXTENSION ulid SCHEMA shared"
{
    echo "CREATE SCHEMA shared; GRANT USAGE, CREATE ON SCHEMA shared TO ulid_hx_attacker;"
    plant_sql shared shared.calls true ""
} >"$WORK/plant_a2.sql"
if q "$DB_A2" "$(cat "$WORK/plant_a2.sql")" >/dev/null 2>"$WORK/plant_a2.err"; then
    ok "(a2) planted $(q "$DB_A2" "SELECT count(*) FROM pg_proc WHERE pronamespace = 'shared'::regnamespace") look-alike functions, $(q "$DB_A2" "SELECT count(*) FROM pg_operator WHERE oprnamespace = 'shared'::regnamespace") operators in shared"
else
    bad "(a2) planting look-alikes: $(head -n 3 "$WORK/plant_a2.err")"
fi
rc=0
q "$DB_A2" "SET search_path = shared, pg_catalog; CREATE EXTENSION ulid SCHEMA shared;" >"$WORK/a2.out" 2>"$WORK/a2.err" || rc=$?
expect "(a2) CREATE EXTENSION ulid SCHEMA shared next to the look-alikes: exit status" "$rc" -eq 0
expect_str "(a2) ... and it printed nothing on stderr" "$(cat "$WORK/a2.err")" ""
check_catalog "(a2)" "$DB_A2" shared
expect "(a2) look-alike calls logged during CREATE EXTENSION" "$(planted_calls "$DB_A2" shared.calls)" -eq 0
rc=0
exercise "$DB_A2" "shared, pg_catalog, public" 2>"$WORK/a2x.err" || rc=$?
expect "(a2) exercising everything with shared first: exit status" "$rc" -eq 0
expect_str "(a2) ... and no look-alike WARNING or tripwire error" "$(cat "$WORK/a2x.err")" ""
expect "(a2) look-alike calls logged after the exercise" "$(planted_calls "$DB_A2" shared.calls)" -eq 0

# ---------------------------------------------------------------------------------------------
echo
echo "# (b) trusted install by ulid_hx_owner (CREATE on the database only, not a superuser)"
q "$DB_B" "GRANT CREATE ON DATABASE \"$DB_B\" TO ulid_hx_owner;" >/dev/null
expect_str "(b) ulid_hx_owner is not a superuser" "$(q postgres "SELECT rolsuper FROM pg_roles WHERE rolname = 'ulid_hx_owner'")" "f"
denied "(b) a role without CREATE on the database cannot install it" ulid_hx_nobody "$DB_B" \
    "CREATE EXTENSION ulid" 'permission denied'
qas ulid_hx_owner "$DB_B" "CREATE SCHEMA owned; CREATE SCHEMA plant;" >/dev/null
# install_denied NAME SCHEMA: ulid_hx_owner has no CREATE on SCHEMA and must not get ulid's objects
# into it (PostgreSQL itself does not check the target schema, and a trusted script runs as the
# bootstrap superuser: the script has to refuse). Cleans up when it wrongly succeeds.
install_denied() {
    local name="$1" schema="$2" err
    if qas ulid_hx_owner "$DB_B" "CREATE EXTENSION ulid SCHEMA $schema" >/dev/null 2>"$WORK/install.err"; then
        bad "$name: CREATE EXTENSION ulid SCHEMA $schema succeeded for ulid_hx_owner, which has no CREATE on $schema ($(q "$DB_B" "SELECT count(*) FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid' WHERE d.deptype = 'e'") objects created there as the bootstrap superuser)"
        q "$DB_B" "DROP EXTENSION ulid" >/dev/null
        return 0
    fi
    err="$(grep -m 1 -E 'ERROR' "$WORK/install.err" || head -n 1 "$WORK/install.err")"
    if [[ $err =~ permission\ denied|must\ have ]]; then ok "$name: ${err#*ERROR:  }"; else
        bad "$name: failed, but not as expected: $err"
    fi
}
q "$DB_B" "CREATE SCHEMA victim AUTHORIZATION ulid_hx_user" >/dev/null
install_denied "(b) it cannot install into pg_catalog" pg_catalog
# public: no CREATE for everybody from PostgreSQL 15 on; up to 14 everybody may create there, and
# so may the installing role (the guard follows the privilege, not the schema's name).
if [[ "$(q "$DB_B" "SELECT has_schema_privilege('ulid_hx_owner', 'public', 'CREATE')")" == t ]]; then
    expect_str "(b) public is writable by everybody only before PostgreSQL 15" \
        "$(q "$DB_B" "SELECT current_setting('server_version_num')::int < 150000")" t
    note "(b) ulid_hx_owner may create in public on this major: installing there is allowed, not checked"
else
    install_denied "(b) ... nor into public (no CREATE there for everybody since PostgreSQL 15)" public
fi
install_denied "(b) ... nor into another role's schema" victim
# Look-alikes in its own schemas that would make it superuser if the superuser-run script called one.
{
    plant_sql owned plant.calls false ulid_hx_owner
} >"$WORK/plant_b.sql"
if qas ulid_hx_owner "$DB_B" "$(cat "$WORK/plant_b.sql")" >/dev/null 2>"$WORK/plant_b.err"; then
    ok "(b) ulid_hx_owner planted $(q "$DB_B" "SELECT count(*) FROM pg_proc WHERE pronamespace = 'owned'::regnamespace") escalating look-alike functions and $(q "$DB_B" "SELECT count(*) FROM pg_operator WHERE oprnamespace = 'owned'::regnamespace") operators in its schema"
else
    bad "(b) planting look-alikes as ulid_hx_owner: $(head -n 3 "$WORK/plant_b.err")"
fi
rc=0
qas ulid_hx_owner "$DB_B" "CREATE TEMP TABLE ulid (x int);
                           SET search_path = owned, pg_temp, pg_catalog;
                           CREATE EXTENSION ulid SCHEMA owned;" >/dev/null 2>"$WORK/b.err" || rc=$?
expect "(b) CREATE EXTENSION ulid SCHEMA owned as ulid_hx_owner: exit status" "$rc" -eq 0
expect_str "(b) ... and it printed nothing on stderr" "$(cat "$WORK/b.err")" ""
expect "(b) look-alike calls logged during the trusted install" "$(planted_calls "$DB_B" plant.calls)" -eq 0
expect_str "(b) ulid_hx_owner is still not a superuser" "$(q postgres "SELECT rolsuper FROM pg_roles WHERE rolname = 'ulid_hx_owner'")" "f"
check_catalog "(b)" "$DB_B" owned
expect_str "(b) the extension is owned by ulid_hx_owner" \
    "$(q "$DB_B" "SELECT extowner::regrole FROM pg_extension WHERE extname = 'ulid'")" "ulid_hx_owner"
owners="$(q "$DB_B" "SELECT string_agg(DISTINCT owner, ',') FROM (
    SELECT pg_get_userbyid(p.proowner) AS owner FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
        JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid' WHERE d.deptype = 'e'
    UNION ALL SELECT pg_get_userbyid(t.typowner) FROM pg_type t JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = t.oid
        JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid' WHERE d.deptype = 'e'
    UNION ALL SELECT pg_get_userbyid(o.oprowner) FROM pg_operator o JOIN pg_depend d ON d.classid = 'pg_operator'::regclass AND d.objid = o.oid
        JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid' WHERE d.deptype = 'e'
    UNION ALL SELECT pg_get_userbyid(c.opcowner) FROM pg_opclass c JOIN pg_depend d ON d.classid = 'pg_opclass'::regclass AND d.objid = c.oid
        JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid' WHERE d.deptype = 'e') s")"
expect_str "(b) owners of the member functions, type, operators and operator classes: the bootstrap superuser only" \
    "$owners" "$(q postgres "SELECT rolname FROM pg_roles WHERE oid = 10")"

rc=0
exercise "$DB_B" "owned, pg_catalog" ulid_hx_owner 2>"$WORK/bx.err" || rc=$?
expect "(b) ulid_hx_owner uses the type, indexes, casts and aggregates: exit status" "$rc" -eq 0
expect_str "(b) ... and no look-alike WARNING" "$(cat "$WORK/bx.err")" ""
q "$DB_B" "GRANT USAGE ON SCHEMA owned TO ulid_hx_user" >/dev/null
expect_str "(b) another plain role can use it too" \
    "$(qas ulid_hx_user "$DB_B" "SET TimeZone = 'UTC'; SELECT owned.ulid_to_timestamp('01ARZ3NDEKTSV4RRFFQ69G5FAV'::owned.ulid)")" \
    "2016-07-30 23:54:10.259+00"

S="SET search_path = owned, pg_catalog;"
denied "(b) CREATE FUNCTION ... LANGUAGE C on ulid's own symbol" ulid_hx_owner "$DB_B" \
    "$S CREATE FUNCTION owned.my_eq(ulid, ulid) RETURNS bool AS '\$libdir/ulid', 'ulid_eq' LANGUAGE C" \
    'permission denied for language c'
denied "(b) CREATE OR REPLACE FUNCTION ulid_eq ... LANGUAGE C pointing to another symbol" ulid_hx_owner "$DB_B" \
    "$S CREATE OR REPLACE FUNCTION owned.ulid_eq(ulid, ulid) RETURNS bool AS '\$libdir/ulid', 'ulid_ne' LANGUAGE C IMMUTABLE STRICT" \
    'permission denied for language c|must be owner'
denied "(b) CREATE OR REPLACE FUNCTION ulid_eq ... LANGUAGE sql" ulid_hx_owner "$DB_B" \
    "$S CREATE OR REPLACE FUNCTION owned.ulid_eq(ulid, ulid) RETURNS bool LANGUAGE sql AS 'SELECT true'" \
    'must be owner'
denied "(b) CREATE OR REPLACE FUNCTION gen_ulid() as a SQL function" ulid_hx_owner "$DB_B" \
    "$S CREATE OR REPLACE FUNCTION owned.gen_ulid() RETURNS ulid LANGUAGE sql AS \$\$SELECT '00000000000000000000000000'::owned.ulid\$\$" \
    'must be owner'
denied "(b) ALTER FUNCTION ulid_eq NOT LEAKPROOF" ulid_hx_owner "$DB_B" \
    "$S ALTER FUNCTION owned.ulid_eq(ulid, ulid) NOT LEAKPROOF" 'must be owner|superuser'
denied "(b) ALTER FUNCTION ulid_cmp SECURITY DEFINER" ulid_hx_owner "$DB_B" \
    "$S ALTER FUNCTION owned.ulid_cmp(ulid, ulid) SECURITY DEFINER" 'must be owner'
denied "(b) ALTER FUNCTION gen_ulid() RENAME" ulid_hx_owner "$DB_B" \
    "$S ALTER FUNCTION owned.gen_ulid() RENAME TO gen_ulid_old" 'must be owner'
denied "(b) ALTER FUNCTION ulid_in OWNER TO itself" ulid_hx_owner "$DB_B" \
    "$S ALTER FUNCTION owned.ulid_in(cstring) OWNER TO ulid_hx_owner" 'must be owner'
denied "(b) DROP FUNCTION ulid_hash CASCADE" ulid_hx_owner "$DB_B" \
    "$S DROP FUNCTION owned.ulid_hash(ulid) CASCADE" 'must be owner|extension ulid requires it'
denied "(b) ALTER EXTENSION ulid DROP FUNCTION ulid_cmp (detach, then replace)" ulid_hx_owner "$DB_B" \
    "$S ALTER EXTENSION ulid DROP FUNCTION owned.ulid_cmp(ulid, ulid)" 'must be owner'
denied "(b) ALTER TYPE ulid SET (SEND = NONE)" ulid_hx_owner "$DB_B" \
    "$S ALTER TYPE owned.ulid SET (SEND = NONE)" 'must be owner|superuser'
denied "(b) ALTER OPERATOR = (ulid, ulid) SET (RESTRICT = ...)" ulid_hx_owner "$DB_B" \
    "$S ALTER OPERATOR owned.= (ulid, ulid) SET (RESTRICT = neqsel)" 'must be owner'
denied "(b) CREATE TYPE with ulid_in/ulid_out and a shorter length" ulid_hx_owner "$DB_B" \
    "$S CREATE TYPE owned.short_t (INPUT = owned.ulid_in, OUTPUT = owned.ulid_out, INTERNALLENGTH = 4)" \
    'must be superuser|must be owner|permission denied'
denied "(b) CREATE CAST (ulid AS int8) WITHOUT FUNCTION" ulid_hx_owner "$DB_B" \
    "$S CREATE CAST (owned.ulid AS int8) WITHOUT FUNCTION" 'must be owner|must be superuser'
denied "(b) CREATE CAST (bytea AS ulid) WITHOUT FUNCTION" ulid_hx_owner "$DB_B" \
    "$S CREATE CAST (bytea AS owned.ulid) WITHOUT FUNCTION" 'must be owner|must be superuser'
denied "(b) CREATE OPERATOR CLASS (reversed b-tree over ulid's support functions)" ulid_hx_owner "$DB_B" \
    "$S CREATE OPERATOR CLASS owned.rev_ops FOR TYPE owned.ulid USING btree AS
        OPERATOR 1 owned.>, OPERATOR 3 owned.=, OPERATOR 5 owned.<, FUNCTION 1 owned.ulid_cmp(owned.ulid, owned.ulid)" \
    'must be superuser'
denied "(b) LOAD the library" ulid_hx_owner "$DB_B" "LOAD 'ulid'" \
    'access to library .* is not allowed|permission denied'
denied "(b) ALTER EXTENSION ulid SET SCHEMA pg_catalog" ulid_hx_owner "$DB_B" \
    "ALTER EXTENSION ulid SET SCHEMA pg_catalog" 'permission denied|cannot move'

nonstrict="$(q "$DB_B" "SELECT count(*) || ' ' || coalesce(string_agg(p.oid::regprocedure::text, ', ') FILTER (WHERE NOT p.proisstrict), '-')
    FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid'
    WHERE d.deptype = 'e' AND 'internal'::regtype = ANY (p.proargtypes::oid[])")"
expect_str "(b) member functions taking internal that are not STRICT (of ${nonstrict%% *})" "${nonstrict#* }" "-"
calls="$(q "$DB_B" "SELECT string_agg(p.oid::regprocedure::text, ', ' ORDER BY 1)
    FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid'
    WHERE d.deptype = 'e' AND 'internal'::regtype = ANY (p.proargtypes::oid[])")"
# Each must be impossible to call from SQL (no value of type internal can be written), or at most
# return NULL for NULL (STRICT: the C code is never entered).
uncallable=0
while IFS= read -r fn; do
    [[ -z $fn ]] && continue
    if r="$(qas ulid_hx_owner "$DB_B" "$S SELECT ($fn) IS NULL" 2>"$WORK/call.err")"; then
        [[ $r == t ]] && uncallable=$((uncallable + 1))
    elif grep -qE 'does not exist|cannot cast|cannot accept' "$WORK/call.err"; then
        uncallable=$((uncallable + 1))
    fi
done < <(q "$DB_B" "SELECT format('owned.%I(%s)', p.proname, array_to_string(array_fill('NULL'::text, ARRAY[p.pronargs]), ', '))
    FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid'
    WHERE d.deptype = 'e' AND 'internal'::regtype = ANY (p.proargtypes::oid[])")
expect "(b) of those, not callable from SQL (no internal value can be written) or NULL for NULL ($calls)" \
    "$uncallable" -eq "${nonstrict%% *}"
denied "(b) making a non-NULL internal value in SQL ('x'::internal)" ulid_hx_owner "$DB_B" \
    "$S SELECT owned.ulid_recv('x'::internal)" 'cannot accept a value of type internal|cannot cast'
denied "(b) ... or through a function that returns internal" ulid_hx_owner "$DB_B" \
    "$S SELECT owned.ulid_sortsupport(brin_minmax_opcinfo('x'::internal))" \
    'cannot accept a value of type internal|cannot cast'
expect "(b) look-alike calls logged after all of (b)" "$(planted_calls "$DB_B" plant.calls)" -eq 0
expect_str "(b) ulid_hx_owner is still not a superuser at the end" \
    "$(q postgres "SELECT rolsuper FROM pg_roles WHERE rolname = 'ulid_hx_owner'")" "f"
if qas ulid_hx_owner "$DB_B" "DROP EXTENSION ulid" >/dev/null 2>&1; then
    ok "(b) the owner can drop the extension again"
else
    bad "(b) the owner cannot drop its extension"
fi

checks_summary
