#!/usr/bin/env bash
# Fork-safety suite: with ulid preloaded into the postmaster, no two backends share random bits.
#
# A cluster of its own (test/lib/cluster.sh) runs with shared_preload_libraries = 'ulid', so every
# backend and parallel worker is forked from a postmaster that has the library (its static entropy
# pool and monotonic state) loaded. If the postmaster ever filled the read-ahead pool, or a child
# kept what it inherited, every child would hand out the same bytes.
#
#   1. the library is really mapped in the postmaster;
#   2. 60 backends are opened at once and held at a barrier (an advisory lock), then each generates
#      gen_ulid() x5, gen_random_ulid() x5, gen_ulid(timestamptz) x3 (and gen_monotonic_ulid() x5
#      where installed) into a table with pg_backend_pid(): 60 distinct pids, no duplicate id, no 80-bit entropy (substr(id::bytea, 7))
#      seen in two backends, the first gen_ulid() of each backend has its own entropy, gen_ulid()
#      strictly increasing within each backend;
#   3. gen_random_ulid() evaluated inside parallel workers (forked from the postmaster too, not from
#      the leader): workers launched, and no entropy repeated among the values they made.
#
# The suite is known to catch the failure it guards against: a scratch build that filled the pool
# in _PG_init (in the postmaster) and dropped the per-process check of src/pg/backend_random.hpp (a
# pid then; a fork generation since 0.3.1) failed 7 checks (207 duplicate ids, all 60 backends'
# first gen_ulid() with one entropy, 408 repeated values in the parallel workers); the same build
# with the check kept passed every check. Forks inside a backend: exception_wall.sh.
#
# Needs nothing from the caller's PG* environment (it is ignored). Prints one line per check and
# exits non-zero on any violation. ULID_FORK_BACKENDS (default 60) sets the number of backends.
set -euo pipefail

here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
# shellcheck source-path=SCRIPTDIR source=../lib/checks.sh
source "$here/../lib/checks.sh"
suite_isolate_env
# shellcheck source-path=SCRIPTDIR source=../lib/cluster.sh
source "$here/../lib/cluster.sh"

BACKENDS="${ULID_FORK_BACKENDS:-60}"
PER_GEN=5      # gen_ulid() and gen_random_ulid() values per backend
PER_AT=3       # gen_ulid(timestamptz) values per backend (all at one fixed time)
PAR_ROWS=200000
LOCK_KEY=4242

WORK="$(mktemp -d -t ulid-fork.XXXXXX)"
# cluster.sh owns the EXIT trap (it stops and removes its clusters); run ours before it.
prev_trap="$(trap -p EXIT | sed -E "s/^trap -- '(.*)' EXIT$/\1/")"
# shellcheck disable=SC2064 # expand now, on purpose
trap "rm -rf '$WORK'; $prev_trap" EXIT

q() { cluster_psql fork -d postgres -At <<<"$1"; }

echo "# cluster: shared_preload_libraries = 'ulid', $BACKENDS backends, binaries in $ULID_PG_BINDIR"
cluster_init fork
cluster_conf fork "shared_preload_libraries = 'ulid'" "max_connections = $((BACKENDS + 40))" \
    "max_worker_processes = 8" "max_parallel_workers = 4"
if ! cluster_start fork; then
    bad "cluster with shared_preload_libraries = 'ulid' starts"
    checks_summary
    exit 1
fi
ok "cluster with shared_preload_libraries = 'ulid' started"

expect_str "SHOW shared_preload_libraries" "$(q 'SHOW shared_preload_libraries')" "ulid"
postmaster_pid="$(head -n 1 "$(cluster_dir fork)/postmaster.pid")"
if grep -q '/ulid\.so$' "/proc/$postmaster_pid/maps" 2>/dev/null; then
    ok "ulid.so is mapped in the postmaster (pid $postmaster_pid) before any backend uses it"
else
    bad "ulid.so is not mapped in the postmaster (pid $postmaster_pid): the preload did not happen"
fi

q "CREATE EXTENSION ulid;
   CREATE TABLE fork_ids (pid int NOT NULL, kind text NOT NULL, n int NOT NULL, id ulid NOT NULL);" ||
    bad "create extension and table"
echo "# ulid $(q "SELECT extversion FROM pg_extension WHERE extname = 'ulid'"), $(q 'SELECT version()')"

# ---------------------------------------------------------------------------------------------
echo
echo "# round 1: $BACKENDS backends opened at once, released together from an advisory-lock barrier"

# The barrier: a session of our own holds the exclusive lock until every client waits on it.
coproc HOLDER { cluster_psql fork -d postgres -At 2>&1; }
# Bash unsets HOLDER as soon as the coprocess exits: keep its descriptors and pid ourselves.
holder_in="${HOLDER[1]}"
holder_out="${HOLDER[0]}"
holder_pid="$HOLDER_PID"
echo "SELECT 'held', pg_advisory_lock($LOCK_KEY);" >&"$holder_in"
read -r -t 60 held <&"$holder_out" || held=""
expect_str "barrier lock taken" "$held" "held|"

# gen_monotonic_ulid() (shared state, when the installed version has it) joins in as well
HAS_MONOTONIC="$(q "SELECT to_regprocedure('gen_monotonic_ulid()') IS NOT NULL")"
[[ $HAS_MONOTONIC == t ]] && note "gen_monotonic_ulid() x$PER_GEN per backend as well"
cat >"$WORK/client.sql" <<SQL
SELECT pg_advisory_lock_shared($LOCK_KEY);
INSERT INTO fork_ids SELECT pg_backend_pid(), 'gen_ulid', g, gen_ulid() FROM generate_series(1, $PER_GEN) g;
INSERT INTO fork_ids SELECT pg_backend_pid(), 'gen_random_ulid', g, gen_random_ulid() FROM generate_series(1, $PER_GEN) g;
INSERT INTO fork_ids SELECT pg_backend_pid(), 'gen_ulid_at', g, gen_ulid('2020-02-02 02:02:02.002+00') FROM generate_series(1, $PER_AT) g;
SQL
if [[ $HAS_MONOTONIC == t ]]; then
    echo "INSERT INTO fork_ids SELECT pg_backend_pid(), 'gen_monotonic_ulid', g, gen_monotonic_ulid() FROM generate_series(1, $PER_GEN) g;" \
        >>"$WORK/client.sql"
fi
pids=()
for ((i = 1; i <= BACKENDS; i++)); do
    cluster_psql fork -d postgres -f "$WORK/client.sql" >"$WORK/client.$i.out" 2>&1 &
    pids+=("$!")
done

# Wait (bounded; not an assertion on time) until every client's backend is blocked on the barrier.
waiting=0
for _ in $(seq 1 600); do
    waiting="$(q "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")" || waiting=0
    ((waiting >= BACKENDS)) && break
    sleep 0.1
done
expect "backends waiting at the barrier at the same time" "$waiting" -eq "$BACKENDS"
echo "SELECT 'released', pg_advisory_unlock($LOCK_KEY);" >&"$holder_in"
read -r -t 60 released <&"$holder_out" || released=""
expect_str "barrier released" "$released" "released|t"
eval "exec ${holder_in}>&-" 2>/dev/null || true # close our end: psql sees end of input and quits
wait "$holder_pid" 2>/dev/null || true

failed_clients=0
for ((i = 0; i < ${#pids[@]}; i++)); do
    if ! wait "${pids[$i]}"; then
        failed_clients=$((failed_clients + 1))
        sed "s/^/#   client $((i + 1)): /" "$WORK/client.$((i + 1)).out"
    fi
done
expect "clients that failed" "$failed_clients" -eq 0

per_backend=$((2 * PER_GEN + PER_AT))
[[ $HAS_MONOTONIC == t ]] && per_backend=$((per_backend + PER_GEN))
expect "rows" "$(q 'SELECT count(*) FROM fork_ids')" -eq $((BACKENDS * per_backend))
expect "distinct backend pids" "$(q 'SELECT count(DISTINCT pid) FROM fork_ids')" -eq "$BACKENDS"
expect "backends with all $per_backend values" \
    "$(q "SELECT count(*) FROM (SELECT pid FROM fork_ids GROUP BY pid HAVING count(*) = $per_backend) s")" \
    -eq "$BACKENDS"
expect "duplicate ids" "$(q 'SELECT count(*) - count(DISTINCT id) FROM fork_ids')" -eq 0
expect "80-bit entropy values found in more than one backend (any generator)" \
    "$(q 'SELECT count(*) FROM (SELECT substr(id::bytea, 7) FROM fork_ids GROUP BY 1
                                 HAVING count(DISTINCT pid) > 1) s')" -eq 0
expect "pairs of backends sharing an entropy value" \
    "$(q 'SELECT count(*) FROM (SELECT DISTINCT a.pid, b.pid FROM fork_ids a JOIN fork_ids b
                                  ON substr(a.id::bytea, 7) = substr(b.id::bytea, 7) AND a.pid < b.pid) s')" \
    -eq 0
expect "distinct entropies among the first gen_ulid() of each backend (of $BACKENDS)" \
    "$(q "SELECT count(DISTINCT substr(id::bytea, 7)) FROM fork_ids WHERE kind = 'gen_ulid' AND n = 1")" \
    -eq "$BACKENDS"
expect "repeated entropies among gen_random_ulid() values" \
    "$(q "SELECT count(*) - count(DISTINCT substr(id::bytea, 7)) FROM fork_ids WHERE kind = 'gen_random_ulid'")" \
    -eq 0
expect "repeated entropies among gen_ulid(timestamptz) values (all at one time)" \
    "$(q "SELECT count(*) - count(DISTINCT substr(id::bytea, 7)) FROM fork_ids WHERE kind = 'gen_ulid_at'")" \
    -eq 0
expect "gen_ulid() values not above the previous one of the same backend" \
    "$(q "SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY pid ORDER BY n) AS prev
                                 FROM fork_ids WHERE kind = 'gen_ulid') s
          WHERE prev IS NOT NULL AND NOT id > prev")" -eq 0
if [[ $HAS_MONOTONIC == t ]]; then
    expect "gen_monotonic_ulid() values not above the previous one of the same backend" \
        "$(q "SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY pid ORDER BY n) AS prev
                                     FROM fork_ids WHERE kind = 'gen_monotonic_ulid') s
              WHERE prev IS NOT NULL AND NOT id > prev")" -eq 0
fi
echo "# sample (3 backends, first gen_ulid and gen_random_ulid):"
q "SELECT '#   pid ' || pid || ' ' || string_agg(kind || ' ' || id::text, ', ' ORDER BY kind)
   FROM fork_ids WHERE n = 1 AND kind <> 'gen_ulid_at' AND pid IN (SELECT DISTINCT pid FROM fork_ids ORDER BY pid LIMIT 3)
   GROUP BY pid ORDER BY pid"

# ---------------------------------------------------------------------------------------------
echo
echo "# round 2: gen_random_ulid() inside parallel workers ($PAR_ROWS rows, leader not participating)"
q "CREATE TABLE par_src AS SELECT g FROM generate_series(1, $PAR_ROWS) g" >/dev/null
q "VACUUM ANALYZE par_src" >/dev/null
plan="$(cluster_psql fork -d postgres -At \
    -c 'SET max_parallel_workers_per_gather = 2' -c 'SET parallel_setup_cost = 0' \
    -c 'SET parallel_tuple_cost = 0' -c 'SET min_parallel_table_scan_size = 0' \
    -c 'SET parallel_leader_participation = off' \
    -c 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF)
        CREATE TABLE par_out AS SELECT gen_random_ulid() AS id FROM par_src' 2>&1)" || true
printf '%s\n' "$plan" | sed 's/^/#   /'
expect_match "parallel workers launched" "$plan" 'Workers Launched: [1-9]'
expect_contains "gen_random_ulid() evaluated below the Gather (in the workers)" "$plan" \
    'Output: gen_random_ulid()'
expect "rows made by the workers" "$(q 'SELECT count(*) FROM par_out')" -eq "$PAR_ROWS"
expect "repeated entropies among the workers' values" \
    "$(q 'SELECT count(*) - count(DISTINCT substr(id::bytea, 7)) FROM par_out')" -eq 0

# ---------------------------------------------------------------------------------------------
echo
crashes="$(grep -cE 'terminated by signal|was terminated|PANIC' "$(cluster_log fork)" || true)"
expect "server log lines reporting a crashed process" "$crashes" -eq 0

checks_summary
