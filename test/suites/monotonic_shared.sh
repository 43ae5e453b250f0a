#!/usr/bin/env bash
# gen_monotonic_ulid() with shared_preload_libraries = 'ulid': one order for the whole server.
#
# Round 1 (order witness): 8 pgbench clients; each call runs in a transaction that first takes the
#   same advisory lock and records nextval() of one sequence under it, so the sequence numbers give
#   the true order of the calls. The ulid order must equal that order exactly; no duplicate; no
#   failed transaction.
# Round 2 (contention, no lock): 8 clients calling it as fast as they can: no duplicate, no error,
#   and within each backend strictly increasing.
# Round 3 (happens-before, no lock): 8 clients, each call between two nextval() of one sequence
#   (before, id, after); whenever one call's `after` is below another's `before`, the first call
#   ended before the second began, so its id must be smaller. Thousands of milliseconds are
#   crossed while backends race (the lock-free millisecond hint and the no-entropy path).
# Restart: after a restart the generator starts from the clock again; values stay unique.
# Without the preload: on PostgreSQL 17+ the state lives in the dynamic shared memory registry,
#   created by the first call: round 1 again (8 clients, lock order = ulid order, no duplicate). On
#   13-16 the call fails with 55000 and the hint naming shared_preload_libraries.
# Starts its own server (test/lib/cluster.sh); prints one line per check; exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=test/lib/cluster.sh
source test/lib/cluster.sh

DURATION="${ULID_MONO_SECONDS:-5}"
# shellcheck source=test/lib/checks.sh
source test/lib/checks.sh
check() { # check DESCRIPTION ACTUAL EXPECTED: exact match, showing the value
    expect_str "$1: $2" "$2" "$3"
}
q() { cluster_psql mono -d postgres -At <<<"$1"; }

WORK="$(mktemp -d -t ulid-mono.XXXXXX)"
chmod 755 "$WORK"
trap 'rm -rf "$WORK"; _cluster_cleanup' EXIT

cluster_init mono
cluster_conf mono "shared_preload_libraries = 'ulid'" "max_connections = 40"
cluster_start mono
q "CREATE EXTENSION ulid; CREATE EXTENSION amcheck;"
check "preloaded" "$(q "SHOW shared_preload_libraries")" "ulid"

# ---- round 1: advisory-lock witness
q "CREATE SEQUENCE witness; CREATE TABLE ordered (seq bigint PRIMARY KEY, pid int, id ulid NOT NULL);"
cat >"$WORK/ordered.sql" <<'EOF'
BEGIN;
SELECT pg_advisory_xact_lock(4242);
INSERT INTO ordered VALUES (nextval('witness'), pg_backend_pid(), gen_monotonic_ulid());
COMMIT;
EOF
# pgbench_round LOG SCRIPT: 8 clients for $DURATION s; prints the number of failed transactions
# (pgbench 15+ counts them; before 15 a failed transaction aborts its client and pgbench exits
# non-zero, printed as 1)
pgbench_round() {
    local log="$1" script="$2" rc=0 failed
    cluster_run mono "$ULID_PG_BINDIR/pgbench" -n -c 8 -j 2 -T "$DURATION" -f "$script" postgres \
        >"$log" 2>&1 || rc=$?
    sed 's/^/#   pgbench: /' "$log" | grep -E 'processed|failed|abort|tps' >&2 || true
    failed="$(sed -nE 's/.*number of failed transactions: ([0-9]+).*/\1/p' "$log")"
    if [[ -z $failed ]]; then failed=$((rc != 0)); elif ((rc != 0)); then failed=$((failed + 1)); fi
    echo "$failed"
}
check "witness: failed transactions" "$(pgbench_round "$WORK/round1.log" "$WORK/ordered.sql")" "0"
rows="$(q "SELECT count(*) FROM ordered")"
if ((rows > 1000)); then ok "witness: calls recorded: $rows"; else bad "witness: only $rows calls"; fi
check "witness: backends taking part" "$(q "SELECT count(DISTINCT pid) FROM ordered")" "8"
check "witness: ulid order differs from lock order (pairs)" \
    "$(q "SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY seq) AS prev FROM ordered) x WHERE prev >= id")" "0"
check "witness: rank by id equals rank by sequence" \
    "$(q "SELECT count(*) FROM (SELECT rank() OVER (ORDER BY id) AS a, rank() OVER (ORDER BY seq) AS b FROM ordered) x WHERE a <> b")" "0"
check "witness: duplicate ids" "$(q "SELECT count(*) - count(DISTINCT id) FROM ordered")" "0"
# The order crosses backends: consecutive calls come from different backends most of the time.
switches="$(q "SELECT count(*) FROM (SELECT pid, lag(pid) OVER (ORDER BY seq) AS p FROM ordered) x WHERE p <> pid")"
if ((switches > 100)); then ok "witness: consecutive calls switched backend $switches times"; else bad "witness: only $switches backend switches"; fi

# ---- round 2: contention without a lock
q "CREATE TABLE raced (seq bigserial PRIMARY KEY, pid int DEFAULT pg_backend_pid(), id ulid NOT NULL DEFAULT gen_monotonic_ulid());"
cat >"$WORK/raced.sql" <<'EOF'
INSERT INTO raced (id) SELECT gen_monotonic_ulid() FROM generate_series(1, 50);
EOF
check "race: failed transactions" "$(pgbench_round "$WORK/round2.log" "$WORK/raced.sql")" "0"
check "race: duplicate ids" "$(q "SELECT count(*) - count(DISTINCT id) FROM raced")" "0"
check "race: per-backend order violations" \
    "$(q "SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY pid ORDER BY seq) AS prev FROM raced) x WHERE prev >= id")" "0"
check "race: amcheck bt_index_parent_check on both keys" \
    "$(q "SELECT 'clean' FROM (SELECT bt_index_parent_check('ordered_pkey', true),
                                      bt_index_parent_check('raced_pkey', true)) x")" "clean"
# Every value from round 2 is above every value from round 1: the order is global and continues.
check "race: continues above round 1" "$(q "SELECT (SELECT min(id) FROM raced) > (SELECT max(id) FROM ordered)")" "t"

# ---- round 3: happens-before across backends racing over millisecond boundaries
q "CREATE SEQUENCE hb_seq; CREATE TABLE hb (before bigint NOT NULL, id ulid NOT NULL, after bigint NOT NULL, pid int NOT NULL);"
cat >"$WORK/hb.sql" <<'EOF'
INSERT INTO hb SELECT nextval('hb_seq'), gen_monotonic_ulid(), nextval('hb_seq'), pg_backend_pid() FROM generate_series(1, 20);
EOF
check "happens-before: failed transactions" "$(pgbench_round "$WORK/round3.log" "$WORK/hb.sql")" "0"
check "happens-before: the sequence brackets every call (before < after)" "$(q "SELECT count(*) FROM hb WHERE before >= after")" "0"
# For each call b: the largest id among the calls that ended before b began (after < b.before),
# as a running maximum over the calls' ends and beginnings in sequence order (all positions differ).
hb="$(q "WITH events AS (
             SELECT after AS pos, false AS begins, id, pid FROM hb
             UNION ALL SELECT before, true, id, pid FROM hb),
         scan AS (
             SELECT begins, id, pid,
                    max(id) FILTER (WHERE NOT begins) OVER (ORDER BY pos ROWS UNBOUNDED PRECEDING) AS max_ended
             FROM events)
         SELECT count(*), count(max_ended), count(*) FILTER (WHERE max_ended >= id),
                count(DISTINCT ulid_to_timestamp(id)), count(DISTINCT pid)
         FROM scan WHERE begins")"
IFS='|' read -r hb_rows hb_with_pred hb_bad hb_ms hb_pids <<<"$hb"
if ((hb_rows > 10000)); then ok "happens-before: calls recorded: $hb_rows"; else bad "happens-before: only $hb_rows calls"; fi
check "happens-before: backends taking part" "$hb_pids" "8"
if ((hb_ms > 500)); then ok "happens-before: milliseconds crossed: $hb_ms"; else bad "happens-before: only $hb_ms milliseconds"; fi
if ((hb_with_pred > hb_rows / 2)); then ok "happens-before: calls with an earlier finished call: $hb_with_pred"; else bad "happens-before: only $hb_with_pred calls had a predecessor"; fi
check "happens-before: a call not above every call that ended before it began" "$hb_bad" "0"
check "happens-before: duplicate ids" "$(q "SELECT count(*) - count(DISTINCT id) FROM hb")" "0"
check "happens-before: above rounds 1 and 2" "$(q "SELECT (SELECT min(id) FROM hb) > (SELECT max(id) FROM raced)")" "t"

# ---- restart: unique, order follows the clock
before="$(q "SELECT max(id) FROM raced")"
cluster_restart mono
sleep 0.01
after="$(q "SELECT gen_monotonic_ulid()")"
check "restart: first value after restart is new" "$(q "SELECT '$after'::ulid <> ALL (SELECT id FROM raced UNION ALL SELECT id FROM ordered)")" "t"
check "restart: clock moved on, so the new value is above the old maximum" \
    "$(q "SELECT '$after'::ulid > '$before'::ulid")" "t"

# ---- libraries of another state layout in one server (17+, the registry; docs/upgrading.md):
# after `make install` of a new version, sessions that load the new library meet a segment made by
# the old one. One name for every version: they meet in one segment, and the library that finds
# the other's layout refuses (55000, a HINT to restart) instead of serving an order of its own or
# reading a state it does not know. Test libraries, built in scratch copies and never installed:
# this tree with ULID_TEST_LAYOUT=99 (same segment size, another layout number), and the release
# v0.2.0 (its state had no layout header and another size).
layout_mismatch() {
    local err v
    scratch_tree "$WORK/tree99"
    must "make ULID_TEST_LAYOUT=99 (ulid_test_layout.so)" \
        make -s -C "$WORK/tree99" -j2 ULID_TEST_LAYOUT=99 with_llvm=no PG_CONFIG="$ULID_PG_BINDIR/pg_config"
    q "CREATE FUNCTION layout99_gen() RETURNS ulid AS '$WORK/tree99/ulid_test_layout.so', 'gen_monotonic_ulid' LANGUAGE C" >/dev/null
    v="$(q "SELECT gen_monotonic_ulid()")"
    err="$(cluster_psql mono -d postgres -Atc '\set VERBOSITY verbose' -c "SELECT layout99_gen()" 2>&1 >/dev/null || true)"
    expect_contains "a library of layout 99 beside this one's segment: 55000" "$err" \
        "ERROR:  55000: gen_monotonic_ulid() cannot use this server's shared state"
    expect_contains "... naming both layouts" "$err" "made it with state layout 2; this library uses state layout 99"
    expect_contains "... with the hint to restart" "$err" "HINT:  Restart the server after installing another version of ulid"
    check "this library's sessions go on, above the earlier values" "$(q "SELECT gen_monotonic_ulid() > '$v'::ulid")" "t"

    # a server whose segment the test library made first: this library refuses it
    cluster_restart mono
    q "SELECT layout99_gen()" >/dev/null
    err="$(cluster_psql mono -d postgres -Atc '\set VERBOSITY verbose' -c "SELECT gen_monotonic_ulid()" 2>&1 >/dev/null || true)"
    expect_contains "this library beside a layout-99 segment: 55000 naming both layouts" "$err" \
        "made it with state layout 99; this library uses state layout 2"

    # the release v0.2.0 made the segment (96 bytes, no header): this library refuses it
    if ! git archive v0.2.0 >"$WORK/v020.tar" 2>/dev/null; then
        bad "no tag v0.2.0 in this clone: the test with the previous release's library cannot run"
        return 0
    fi
    mkdir -p "$WORK/v020"
    tar -xf "$WORK/v020.tar" -C "$WORK/v020"
    if (($(q "SHOW server_version_num") >= 190000)); then
        # 19 changed GetNamedDSMSegment()'s signature: v0.2.0 does not build against it, so no 19
        # server ever meets its segment. Shown, and the rest left out.
        if make -s -C "$WORK/v020" -j2 MODULE_big=ulid_v020 with_llvm=no PG_CONFIG="$ULID_PG_BINDIR/pg_config" >"$WORK/v020.log" 2>&1; then
            bad "19: the release v0.2.0 builds against 19: test its segment here as on 17 and 18"
        else
            expect_contains "19: the release v0.2.0 does not build against 19 (no server of 19 meets its segment)" \
                "$(cat "$WORK/v020.log")" "GetNamedDSMSegment"
        fi
        q "DROP FUNCTION layout99_gen()" >/dev/null
        return 0
    fi
    must "make MODULE_big=ulid_v020 of the release v0.2.0" \
        make -s -C "$WORK/v020" -j2 MODULE_big=ulid_v020 with_llvm=no PG_CONFIG="$ULID_PG_BINDIR/pg_config"
    q "CREATE FUNCTION v020_gen() RETURNS ulid AS '$WORK/v020/ulid_v020.so', 'gen_monotonic_ulid' LANGUAGE C" >/dev/null
    cluster_restart mono
    q "SELECT v020_gen()" >/dev/null
    err="$(cluster_psql mono -d postgres -Atc '\set VERBOSITY verbose' -c "SELECT gen_monotonic_ulid()" 2>&1 >/dev/null || true)"
    expect_contains "this library beside v0.2.0's segment: 55000" "$err" \
        "ERROR:  55000: gen_monotonic_ulid() cannot use this server's shared state"
    expect_contains "... saying why" "$err" "Attaching it failed: requested DSM segment size does not match size of existing segment"
    expect_contains "... with the hint to restart" "$err" "HINT:  Restart the server after installing another version of ulid"
    # and the other way round: v0.2.0's code cannot say more than the registry does, but it refuses
    cluster_restart mono
    v="$(q "SELECT gen_monotonic_ulid()")"
    err="$(cluster_psql mono -d postgres -Atc '\set VERBOSITY verbose' -c "SELECT v020_gen()" 2>&1 >/dev/null || true)"
    expect_contains "v0.2.0's library beside this one's segment: refused by the registry" "$err" \
        "requested DSM segment size does not match size of existing segment"
    check "... and this library's order goes on" "$(q "SELECT gen_monotonic_ulid() > '$v'::ulid")" "t"
    q "DROP FUNCTION layout99_gen(); DROP FUNCTION v020_gen()" >/dev/null
}

# ---- without the preload
cluster_stop mono
cluster_conf mono "shared_preload_libraries = ''"
cluster_start mono
check "not preloaded" "$(q "SHOW shared_preload_libraries")" ""
server_num="$(q "SHOW server_version_num")"
if ((server_num >= 170000)); then
    note "PostgreSQL $(q "SHOW server_version"): state in the dynamic shared memory registry"
    q "TRUNCATE ordered" >/dev/null
    check "registry witness: failed transactions" "$(pgbench_round "$WORK/round4.log" "$WORK/ordered.sql")" "0"
    rows="$(q "SELECT count(*) FROM ordered")"
    if ((rows > 1000)); then ok "registry witness: calls recorded: $rows"; else bad "registry witness: only $rows calls"; fi
    check "registry witness: backends taking part" "$(q "SELECT count(DISTINCT pid) FROM ordered")" "8"
    check "registry witness: rank by id equals rank by sequence" \
        "$(q "SELECT count(*) FROM (SELECT rank() OVER (ORDER BY id) AS a, rank() OVER (ORDER BY seq) AS b FROM ordered) x WHERE a <> b")" "0"
    check "registry witness: duplicate ids" "$(q "SELECT count(*) - count(DISTINCT id) FROM ordered")" "0"
    check "registry witness: continues above the values before the restart" \
        "$(q "SELECT (SELECT min(id) FROM ordered) > '$after'::ulid")" "t"
    if ((server_num >= 190000)); then # 19's view of the registry
        check "registry: pg_dsm_registry_allocations shows the segment, of its fixed size" \
            "$(q "SELECT type || ' ' || size FROM pg_dsm_registry_allocations WHERE name = 'ulid monotonic generator'")" "segment 4096"
    fi
    layout_mismatch
else
    note "PostgreSQL $(q "SHOW server_version"): shared memory only at server start, so the call must fail"
    err="$(cluster_psql mono -d postgres -Atc '\set VERBOSITY verbose' -c "SELECT gen_monotonic_ulid()" 2>&1 >/dev/null || true)"
    expect_contains "no preload: SQLSTATE 55000" "$err" "ERROR:  55000: gen_monotonic_ulid() needs the ulid library in shared_preload_libraries"
    expect_contains "no preload: the hint names the setting" "$err" "HINT:  Add 'ulid' to shared_preload_libraries"
fi

checks_summary
