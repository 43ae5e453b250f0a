#!/usr/bin/env bash
# The C++/PostgreSQL wall (src/pg/entry.hpp): a C++ exception thrown in a SQL-callable body becomes
# a PostgreSQL ERROR with the right SQLSTATE (53200 for std::bad_alloc, XX000 otherwise), and the
# backend and its session live on.
#
# Builds the test-only library (make ULID_TEST_THROW=1: ulid_test_throw.so, the whole extension plus
# ulid_test_throw(text), src/pg/test_throw.cpp, and ulid_test_fork(integer), src/pg/test_fork.cpp)
# in a scratch copy of the tree and installs nothing:
# this suite's database declares the function from the scratch path. The normal build and install
# script must not have it. Without the catch-all, the throw aborts the backend (std::terminate) and
# the server restarts every session: the same-backend and session checks below fail.
# Last, a process forked inside the backend (ulid_test_fork) never hands out the backend's entropy:
# with the pid check that the library used before 0.3.1 (the child inherits MyProcPid) in place of
# the fork generation, the shared-entropy check failed (1,609 entropies handed out by both).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=test/lib/checks.sh
source test/lib/checks.sh

PG_CONFIG="${PG_CONFIG:-pg_config}"
PSQL="$("$PG_CONFIG" --bindir)/psql"
WORK="$(mktemp -d -t ulid-wall.XXXXXX)"
chmod 755 "$WORK" # the server's OS user loads the library from here
trap 'rm -rf "$WORK"' EXIT
q() { "$PSQL" -X -At -v ON_ERROR_STOP=1 -c "$1"; }

# ---- the normal build and install have no such function
normal_so="$("$PG_CONFIG" --pkglibdir)/ulid.so"
must "the normal build is installed ($normal_so)" test -f "$normal_so"
expect "installed ulid.so: exported ulid_test_throw symbols" \
    "$(nm -D --defined-only "$normal_so" | grep -c ulid_test_throw || true)" -eq 0
installed_sql=("$("$PG_CONFIG" --sharedir)"/extension/ulid--*.sql)
expect "install scripts (tree and installed) mentioning ulid_test_throw" \
    "$(grep -l ulid_test_throw ulid--*.sql "${installed_sql[@]}" | wc -l)" -eq 0

# ---- the test-only build, in a scratch copy (no object of the normal build is reused)
scratch_tree "$WORK/tree"
must "make ULID_TEST_THROW=1 in a scratch copy" \
    make -s -C "$WORK/tree" -j2 ULID_TEST_THROW=1 with_llvm=no PG_CONFIG="$PG_CONFIG"
lib="$WORK/tree/ulid_test_throw.so"
expect "ulid_test_throw.so exports ulid_test_throw" \
    "$(nm -D --defined-only "$lib" | grep -cw ulid_test_throw || true)" -eq 1
if make -s -C "$WORK/tree" ULID_TEST_THROW=1 with_llvm=no PG_CONFIG="$PG_CONFIG" install DESTDIR="$WORK/dest" >/dev/null 2>&1; then
    bad "make install of the test-only build was not refused"
else
    ok "make install of the test-only build is refused"
fi

q "CREATE FUNCTION ulid_test_throw(text) RETURNS text AS '$lib', 'ulid_test_throw' LANGUAGE C STRICT" >/dev/null

# ---- one session: each kind of throw is an ERROR, and the same backend carries on
out="$("$PSQL" -X -At -v ON_ERROR_STOP=0 2>&1 <<'SQL' || true
\set VERBOSITY verbose
SELECT pg_backend_pid() AS pid \gset
\echo before: ok
SELECT ulid_test_throw('bad_alloc');
\echo RESULT bad_alloc :LAST_ERROR_SQLSTATE
SELECT ulid_test_throw('operator_new');
\echo RESULT operator_new :LAST_ERROR_SQLSTATE
SELECT ulid_test_throw('runtime_error');
\echo RESULT runtime_error :LAST_ERROR_SQLSTATE
SELECT ulid_test_throw('int');
\echo RESULT int :LAST_ERROR_SQLSTATE
-- an ordinary PostgreSQL error raised inside the same body (ereport's longjmp through the wrapper)
SELECT ulid_test_throw('no such kind');
\echo RESULT ereport :LAST_ERROR_SQLSTATE
SELECT 'SAME ' || (pg_backend_pid() = :pid);
SELECT 'NONE ' || ulid_test_throw('none');
-- inside a transaction: the savepoint rolls back the error, the transaction commits
CREATE TEMP TABLE kept (x int);
BEGIN;
INSERT INTO kept VALUES (1);
SAVEPOINT s;
SELECT ulid_test_throw('runtime_error');
ROLLBACK TO SAVEPOINT s;
INSERT INTO kept VALUES (2);
COMMIT;
SELECT 'KEPT ' || count(*) FROM kept;
-- PL/pgSQL catches them by condition name, 1,000 times in one backend
DO $$
DECLARE
    oom int := 0;
    internal int := 0;
BEGIN
    FOR i IN 1..1000 LOOP
        BEGIN
            PERFORM ulid_test_throw(CASE WHEN i % 2 = 0 THEN 'bad_alloc' ELSE 'runtime_error' END);
        EXCEPTION
            WHEN out_of_memory THEN oom := oom + 1;
            WHEN internal_error THEN internal := internal + 1;
        END;
    END LOOP;
    RAISE NOTICE 'CAUGHT % %', oom, internal;
END
$$;
SELECT 'SAME2 ' || (pg_backend_pid() = :pid);
SQL
)"
printf '%s\n' "$out" | sed 's/^/#   /'

expect_contains "bad_alloc: SQLSTATE 53200" "$out" "RESULT bad_alloc 53200"
expect_contains "bad_alloc: message and detail" "$out" "DETAIL:  C++ allocation failed in ulid_test_throw."
expect_contains "operator new failing: SQLSTATE 53200" "$out" "RESULT operator_new 53200"
expect_contains "runtime_error: SQLSTATE XX000" "$out" "RESULT runtime_error XX000"
expect_contains "runtime_error: message" "$out" "ERROR:  XX000: unexpected C++ exception in ulid_test_throw"
expect_contains "runtime_error: what() in the detail" "$out" "DETAIL:  thrown on purpose by ulid_test_throw"
expect_contains "a non-std exception: SQLSTATE XX000" "$out" "RESULT int XX000"
expect_contains "ereport inside the body: SQLSTATE 22023" "$out" "RESULT ereport 22023"
expect "errors reported as out of memory" "$(count_lines "$out" "ERROR:  53200: out of memory")" -eq 2
expect_contains "same backend after the throws" "$out" "SAME true"
expect_contains "session continues: a normal call returns" "$out" "NONE returned"
expect_contains "savepoint rolled back the throw, the transaction committed" "$out" "KEPT 2"
expect_contains "PL/pgSQL caught 500 out_of_memory and 500 internal_error" "$out" "CAUGHT 500 500"
expect_contains "same backend after 1,000 more" "$out" "SAME2 true"
expect_lacks "no lost connection" "$out" "server closed the connection"

# ---- a process forked inside a backend (src/pg/test_fork.cpp): ulid_test_fork(n) makes one
# gen_ulid() and one gen_random_ulid() in the backend, forks, and returns the child's n values of
# each, then the backend's next n of each. A child that kept the backend's read-ahead pool or
# generator state would hand out the backend's next entropy (or its next increment).
q "CREATE EXTENSION IF NOT EXISTS ulid" >/dev/null
q "CREATE FUNCTION ulid_test_fork(integer) RETURNS ulid[] AS '$lib', 'ulid_test_fork' LANGUAGE C STRICT" >/dev/null
fork_out="$(q "CREATE TEMP TABLE forked (round int, i int, id ulid);
DO \$\$ BEGIN
    FOR r IN 1..5 LOOP
        INSERT INTO forked SELECT r, a.i, a.id FROM unnest(ulid_test_fork(200)) WITH ORDINALITY a(id, i);
    END LOOP;
END \$\$;
SELECT count(*), count(DISTINCT id),
       (SELECT count(*) FROM (SELECT substr(id::bytea, 7) FROM forked WHERE i <= 400
                              INTERSECT SELECT substr(id::bytea, 7) FROM forked WHERE i > 400) s),
       (SELECT count(*) FROM (SELECT id > lag(id) OVER (PARTITION BY round ORDER BY i) AS up
                              FROM forked WHERE i <= 200) s WHERE NOT up)
FROM forked" | tail -n 1)"
IFS='|' read -r f_all f_distinct f_shared f_down <<<"$fork_out"
expect "fork inside a backend: values made (5 forks x 2 processes x 400)" "${f_all:-0}" -eq 4000
expect "fork inside a backend: distinct values" "${f_distinct:-0}" -eq 4000
expect "fork inside a backend: 80-bit entropies the child and the backend both handed out" "${f_shared:-x}" -eq 0
expect "fork inside a backend: the child's gen_ulid() values not increasing" "${f_down:-x}" -eq 0
expect_str "the backend lives on after the forks" "$(q "SELECT gen_ulid() IS NOT NULL")" "t"

checks_summary
