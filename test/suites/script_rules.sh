#!/usr/bin/env bash
# Static rules of the SQL scripts (docs/security.md): in every install and update script from 0.2.1
# on (in the tree and in the server's extension directory) and in the portable edition
# (portable/ulid_portable.sql, portable/tle/*.sql, and the pg_tle file made of them, which must be
# what scripts/portable-tle makes now), every built-in function, operator and cast type is
# pg_catalog-qualified (test/lib/sql_qualified.py,
# against this server's own pg_catalog names). 0.1.0 and 0.2.0 are released and exempt; the
# checker must still find the two bare >= of ulid--0.2.0.sql, and report each line of a fixture of
# violations and nothing in a fixture of allowed syntax, so that it is known to work.
# A server's script identical to the tree's is checked once. Runs in the throwaway cluster of
# scripts/test.
# Tier: static (checks of the tree itself, run once per run (scripts/test --tier static))
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
source test/lib/checks.sh
T0=$SECONDS
WORK="$(mktemp -d -t ulid-script-rules.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
CHECKER=(python3 test/lib/sql_qualified.py --builtins "$WORK/builtins.txt")
extdir="$("${PG_CONFIG:-pg_config}" --sharedir)/extension"

must "pg_catalog's function and type names from the server" \
    psql -X -At -v ON_ERROR_STOP=1 -o "$WORK/builtins.txt" -c \
    "SELECT 'f ' || proname FROM pg_proc WHERE pronamespace = 'pg_catalog'::regnamespace
     UNION SELECT 't ' || typname FROM pg_type WHERE typnamespace = 'pg_catalog'::regnamespace"
expect "pg_catalog names" "$(wc -l <"$WORK/builtins.txt")" -gt 1000

# version_ge A B: A >= B in version order
version_ge() { [[ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n 1)" == "$2" ]]; }

echo "# the scripts"
checked=0
for dir in . "$extdir"; do
    for f in "$dir"/ulid--*.sql; do
        [[ -e $f ]] || continue
        b="$(basename "$f" .sql)"
        target="${b##*--}"        # the version a script installs or updates to
        target="${target%+refresh}"
        version_ge "$target" 0.2.1 || continue
        checked=$((checked + 1))
        if [[ $dir != . ]] && cmp -s "$f" "./$(basename "$f")"; then
            ok "$f: the tree's file byte for byte (checked above)"
            continue
        fi
        out="$("${CHECKER[@]}" "$f" 2>&1)"
        if [[ -z $out ]]; then ok "$f: every built-in qualified"; else bad "$f:"$'\n'"$out"; fi
    done
done
expect "install and update scripts from 0.2.1 on checked (tree and server)" "$checked" -ge 4
for f in portable/ulid_portable.sql portable/tle/*.sql portable/ulid_portable_tle.sql; do
    out="$("${CHECKER[@]}" "$f" 2>&1)"
    if [[ -z $out ]]; then ok "$f: every built-in qualified"; else bad "$f:"$'\n'"$out"; fi
done
must "portable/ulid_portable_tle.sql is what scripts/portable-tle makes of its sources" python3 scripts/portable-tle --check

echo "# the checker finds what it must"
out="$("${CHECKER[@]}" ulid--0.2.0.sql 2>&1)"
expect_str "ulid--0.2.0.sql (released, exempt): its two bare >= are found" \
    "$(grep -c 'unqualified operator >=' <<<"$out")" 2

# Each line marked "-- bad" holds exactly one violation; nothing else may be reported.
cat >"$WORK/bad.sql" <<'SQL'
SELECT lower('A');                                           -- bad
SELECT 1 + 2;                                                -- bad
SELECT x FROM t WHERE a = 1;                                 -- bad
SELECT 'x'::text;                                            -- bad
SELECT a FROM t WHERE a IN (1, 2);                           -- bad
SELECT a FROM t WHERE a BETWEEN 1 AND 2;                     -- bad
SELECT a FROM t WHERE a LIKE 'x%';                           -- bad
SELECT a IS DISTINCT FROM b FROM t;                          -- bad
SELECT NULLIF(a, b) FROM t;                                  -- bad
SELECT CASE a WHEN 1 THEN 2 END FROM t;                      -- bad
SELECT -a FROM t;                                            -- bad
CREATE FUNCTION f() RETURNS int4 LANGUAGE sql AS 'SELECT 1'; -- bad
DO $x$ BEGIN IF pg_catalog.now() >= pg_catalog.now() THEN NULL; END IF; END $x$; -- bad
DO $x$ BEGIN EXECUTE pg_catalog.format($f$SELECT %L || 'x'$f$, 1); END $x$; -- bad
CREATE OPERATOR CLASS c FOR TYPE pg_catalog.uuid USING btree FAMILY ulid_ops AS OPERATOR 1 < (pg_catalog.uuid, pg_catalog.uuid); -- bad
ALTER OPERATOR FAMILY ulid_ops USING btree ADD OPERATOR 3 = (uuid, uuid);   -- bad
COMMENT ON OPERATOR =(pg_catalog.uuid, pg_catalog.uuid) IS 'x';             -- bad
SQL
expected_lines="$(grep -n -- '-- bad$' "$WORK/bad.sql" | cut -d: -f1 | tr '\n' ' ')"
out="$("${CHECKER[@]}" "$WORK/bad.sql" 2>&1)"
got_lines="$(sed -nE 's/^[^:]+:([0-9]+): .*/\1/p' <<<"$out" | tr '\n' ' ')"
expect_str "each violation of the fixture reported once, on its line" "$got_lines" "$expected_lines"

cat >"$WORK/good.sql" <<'SQL'
\echo Use "CREATE EXTENSION x" to load this file. \quit
-- a comment with lower(x) and a = b; /* a block comment with 1 + 1 */
CREATE TYPE ulid;
CREATE FUNCTION ulid_eq(ulid, ulid) RETURNS pg_catalog.bool AS 'MODULE_PATHNAME', 'ulid_eq' LANGUAGE C;
CREATE OPERATOR = (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_eq, COMMUTATOR = =, NEGATOR = <>,
                   RESTRICT = pg_catalog.eqsel, MERGES, HASHES);
COMMENT ON OPERATOR =(ulid, ulid) IS 'equal: a = b';
CREATE AGGREGATE min(ulid) (SFUNC = ulid_smaller, STYPE = ulid, SORTOP = <, PARALLEL = SAFE);
CREATE OPERATOR CLASS ulid_ops DEFAULT FOR TYPE ulid USING btree AS OPERATOR 1 < , OPERATOR 3 = ,
    OPERATOR 1 pg_catalog.< (pg_catalog.uuid, pg_catalog.uuid), FUNCTION 1 ulid_cmp(ulid, ulid),
    FUNCTION 2 pg_catalog.uuid_cmp(pg_catalog.uuid, pg_catalog.uuid);
ALTER OPERATOR FAMILY ulid_ops USING btree ADD OPERATOR 1 < (ulid, pg_catalog.uuid);
CREATE OPERATOR = (LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_eq, COMMUTATOR = =);
COMMENT ON OPERATOR <>(pg_catalog.uuid, ulid) IS 'not equal';
SELECT pg_catalog.count(*), x.* FROM t AS x WHERE x.a OPERATOR(pg_catalog.=) -1
   AND COALESCE(x.b, 0) OPERATOR(pg_catalog.<>) OPERATOR(pg_catalog.-) x.c;
DO $d$
DECLARE
    v pg_catalog.int4 := -2147483648;
    s pg_catalog.text := pg_catalog.format('%s', 'a = b');
BEGIN
    FOR i IN 1 .. 10 LOOP NULL; END LOOP;
    FOREACH s IN ARRAY ARRAY['a']::pg_catalog.text[] LOOP NULL; END LOOP;
    FOR s IN (SELECT 'x') LOOP NULL; END LOOP;
    RAISE EXCEPTION 'x %', v USING ERRCODE = '42501', DETAIL = 'y', HINT = 'z';
    EXECUTE pg_catalog.format($f$SELECT %1$L::pg_catalog.bytea, pg_catalog.lower(%2$s)$f$, 'a', 'b');
    PERFORM pg_catalog.set_config('search_path', 'a', true) WHERE EXISTS (SELECT FROM t) AND v IS NOT NULL;
END
$d$;
SELECT CASE WHEN a OPERATOR(pg_catalog.=) 1 THEN 'x' ELSE 'y' END, pg_catalog.lower(b => 'x') FROM t;
SQL
out="$("${CHECKER[@]}" "$WORK/good.sql" 2>&1)"
expect_str "nothing reported in the fixture of allowed syntax" "$out" ""

note "took $((SECONDS - T0)) s"
checks_summary
