#!/usr/bin/env bash
# Crash-recovery suite: kill the server (pg_ctl stop -m immediate) while clients insert ulid keys.
#
# A cluster of its own (test/lib/cluster.sh). Table crash_t: id ulid PRIMARY KEY DEFAULT gen_ulid()
# (btree), a hash index and a BRIN index on id, 20,000 rows loaded and checkpointed first. Each round:
#   - 4 clients insert with DEFAULT gen_ulid(): two single-row autocommit INSERT ... RETURNING id,
#     one 5-row explicit transactions, one alternating committed and rolled-back 3-row transactions.
#     A client appends an id to its log only after psql got the INSERT's result (autocommit) or
#     after its COMMIT returned (an \echo after COMMIT; ON_ERROR_STOP), so the log holds exactly
#     the ids the client saw committed; ids of a transaction still open at the crash are "in doubt";
#   - a CHECKPOINT in the middle, then pg_ctl stop -m immediate while the clients run; restart
#     (crash recovery must be in the server log);
#   - every id a client saw committed is in the table (counted), no rolled-back id is, no
#     duplicate; amcheck bt_index_parent_check(heapallindexed) on the primary key; every row is
#     found through the hash index (amcheck has no hash checker on 15: with the primary key dropped
#     inside a rolled-back transaction and seq/bitmap scans off, each row is looked up by id and
#     must come back with its own ctid); brin_summarize_new_values() works and BRIN scans find
#     every row; new inserts after recovery work.
#
# fsync stays off (cluster.sh's default): an immediate stop kills processes, not the kernel, so WAL
# written before COMMIT returned survives either way. Needs nothing from the caller's PG*
# environment. Prints one line per check and exits non-zero on any violation.
# ULID_CRASH_ROUNDS (default 2) and ULID_CRASH_SECONDS (default 4, load time before the crash).
set -euo pipefail

here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
# shellcheck source-path=SCRIPTDIR source=../lib/checks.sh
source "$here/../lib/checks.sh"
suite_isolate_env
# shellcheck source-path=SCRIPTDIR source=../lib/cluster.sh
source "$here/../lib/cluster.sh"

ROUNDS="${ULID_CRASH_ROUNDS:-2}"
SECONDS_BEFORE_CRASH="${ULID_CRASH_SECONDS:-4}"
PRELOAD=20000

WORK="$(mktemp -d -t ulid-crash.XXXXXX)"
prev_trap="$(trap -p EXIT | sed -E "s/^trap -- '(.*)' EXIT$/\1/")"
# shellcheck disable=SC2064 # expand now, on purpose
trap "rm -rf '$WORK'; $prev_trap" EXIT

q() { cluster_psql crash -d postgres -At <<<"$1"; }

echo "# cluster of its own, $ROUNDS round(s), ${SECONDS_BEFORE_CRASH}s of inserts before each crash"
cluster_init crash
cluster_conf crash "max_connections = 50" "checkpoint_timeout = 30min" "max_wal_size = 1GB" \
    "log_min_messages = log" # for the recovery messages (LOG level)
cluster_start crash || {
    bad "cluster starts"
    checks_summary
    exit 1
}
if q "CREATE EXTENSION ulid; CREATE EXTENSION amcheck;
   CREATE TABLE crash_t (id ulid PRIMARY KEY DEFAULT gen_ulid(), client int NOT NULL,
                         payload text NOT NULL DEFAULT repeat('x', 100));
   CREATE INDEX crash_t_id_hash ON crash_t USING hash (id);
   CREATE INDEX crash_t_id_brin ON crash_t USING brin (id) WITH (pages_per_range = 4);
   INSERT INTO crash_t (client) SELECT 0 FROM generate_series(1, $PRELOAD);" && q "CHECKPOINT"; then
    ok "table with btree, hash and BRIN indexes on a ulid key, $PRELOAD rows"
else
    bad "set-up of crash_t"
fi
echo "# ulid $(q "SELECT extversion FROM pg_extension WHERE extname = 'ulid'"), $(q 'SELECT version()')"

# client N MODE: feed psql an endless stream of statements; its stdout is the client's log.
client() {
    local n="$1" mode="$2" stmt
    case $mode in
        single) stmt="INSERT INTO crash_t (client) VALUES ($n) RETURNING id;" ;;
        txn) stmt=$'BEGIN;\n'"INSERT INTO crash_t (client) SELECT $n FROM generate_series(1, 5) RETURNING id;"$'\nCOMMIT;\n\\echo C' ;;
        mixed) stmt=$'BEGIN;\n'"INSERT INTO crash_t (client) SELECT $n FROM generate_series(1, 3) RETURNING id;"$'\nCOMMIT;\n\\echo C\nBEGIN;\n'"INSERT INTO crash_t (client) SELECT $n FROM generate_series(1, 3) RETURNING id;"$'\nROLLBACK;\n\\echo R' ;;
    esac
    yes "$stmt" | cluster_psql crash -d postgres -At >"$WORK/client.$n.log" 2>"$WORK/client.$n.err"
}

# split_log FILE MODE: write FILE.committed, FILE.rolledback, FILE.doubt (ids, one per line)
split_log() {
    local f="$1" mode="$2"
    if [[ $mode == single ]]; then
        grep -E '^[0-9A-Z]{26}$' "$f" >"$f.committed" || true
        : >"$f.rolledback"
        : >"$f.doubt"
        return
    fi
    awk -v c="$f.committed" -v r="$f.rolledback" -v d="$f.doubt" '
        /^[0-9A-Z]+$/ && length($0) == 26 { buf[n++] = $0; next }  # (mawk: no {26})
        $0 == "C" || $0 == "R" { for (i = 0; i < n; i++) print buf[i] > ($0 == "C" ? c : r); n = 0; next }
        END { for (i = 0; i < n; i++) print buf[i] > d; printf "" > c; printf "" > r; printf "" > d }
    ' "$f"
}

MODES=(single single txn mixed)
total_committed=0

for ((round = 1; round <= ROUNDS; round++)); do
    echo
    echo "# round $round: ${#MODES[@]} clients (${MODES[*]}), CHECKPOINT midway, then pg_ctl stop -m immediate"
    before="$(q 'SELECT count(*) FROM crash_t')"
    pids=()
    for ((c = 1; c <= ${#MODES[@]}; c++)); do
        client "$((round * 10 + c))" "${MODES[$((c - 1))]}" &
        pids+=("$!")
    done
    sleep "$((SECONDS_BEFORE_CRASH / 2))"
    q 'CHECKPOINT' || bad "round $round: CHECKPOINT during the load"
    sleep "$((SECONDS_BEFORE_CRASH - SECONDS_BEFORE_CRASH / 2))"
    alive=0
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
    expect "round $round: clients still inserting when the server is killed" "$alive" -eq "${#MODES[@]}"
    if cluster_stop crash immediate; then
        ok "round $round: pg_ctl stop -m immediate"
    else
        bad "round $round: pg_ctl stop -m immediate"
    fi
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    lost=0
    for ((c = 1; c <= ${#MODES[@]}; c++)); do
        grep -qiE 'server closed the connection|connection to server .* (lost|failed)|terminating connection|no connection to the server' \
            "$WORK/client.$((round * 10 + c)).err" && lost=$((lost + 1))
    done
    expect "round $round: clients that saw their connection die" "$lost" -eq "${#MODES[@]}"

    log_lines_before="$(wc -l <"$(cluster_log crash)")"
    if cluster_start crash; then ok "round $round: restart"; else
        bad "round $round: restart"
        break
    fi
    recovery="$(tail -n +"$((log_lines_before + 1))" "$(cluster_log crash)")"
    expect_match "round $round: the start-up ran crash recovery (server log)" "$recovery" \
        'automatic recovery in progress'
    expect_match "round $round: redo replayed WAL (server log)" "$recovery" 'redo done at'
    expect_no_match "round $round: no PANIC or FATAL during recovery" "$recovery" 'PANIC|FATAL'

    # what the clients saw
    : >"$WORK/committed.$round"
    : >"$WORK/rolledback.$round"
    : >"$WORK/doubt.$round"
    for ((c = 1; c <= ${#MODES[@]}; c++)); do
        f="$WORK/client.$((round * 10 + c)).log"
        split_log "$f" "${MODES[$((c - 1))]}"
        cat "$f.committed" >>"$WORK/committed.$round"
        cat "$f.rolledback" >>"$WORK/rolledback.$round"
        cat "$f.doubt" >>"$WORK/doubt.$round"
        note "round $round client $((round * 10 + c)) (${MODES[$((c - 1))]}): $(wc -l <"$f.committed") committed, $(wc -l <"$f.rolledback") rolled back, $(wc -l <"$f.doubt") in doubt"
    done
    n_committed="$(wc -l <"$WORK/committed.$round")"
    n_rolledback="$(wc -l <"$WORK/rolledback.$round")"
    total_committed=$((total_committed + n_committed))
    expect "round $round: ids the clients saw committed" "$n_committed" -gt 0
    expect "round $round: ids the clients saw rolled back" "$n_rolledback" -gt 0

    q "SET client_min_messages = warning; DROP TABLE IF EXISTS seen, gone; CREATE TABLE seen (id ulid); CREATE TABLE gone (id ulid);"
    cluster_psql crash -d postgres -c '\copy seen FROM STDIN' <"$WORK/committed.$round"
    cluster_psql crash -d postgres -c '\copy gone FROM STDIN' <"$WORK/rolledback.$round"
    expect "round $round: committed ids loaded for the check" "$(q 'SELECT count(*) FROM seen')" -eq "$n_committed"
    expect "round $round: committed ids missing after recovery (of $n_committed)" \
        "$(q 'SELECT count(*) FROM seen s WHERE NOT EXISTS (SELECT FROM crash_t t WHERE t.id = s.id)')" -eq 0
    expect "round $round: rolled-back ids present after recovery (of $n_rolledback)" \
        "$(q 'SELECT count(*) FROM gone g WHERE EXISTS (SELECT FROM crash_t t WHERE t.id = g.id)')" -eq 0
    after="$(q 'SELECT count(*) FROM crash_t')"
    note "round $round: table rows $before before, $after after recovery"
    expect "round $round: rows gained at least the committed ids" "$((after - before - n_committed))" -ge 0
    expect "round $round: duplicate ids" "$(q 'SELECT count(*) - count(DISTINCT id) FROM crash_t')" -eq 0

    if q "SELECT bt_index_parent_check('crash_t_pkey'::regclass, true)" >/dev/null; then
        ok "round $round: bt_index_parent_check(crash_t_pkey, heapallindexed) passes"
    else
        bad "round $round: bt_index_parent_check(crash_t_pkey, heapallindexed)"
    fi

    # hash: every row looked up by its id through the hash index comes back (with its own ctid)
    hash_sql="BEGIN;
        ALTER TABLE crash_t DROP CONSTRAINT crash_t_pkey;
        SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off;
        SET LOCAL enable_tidscan = off; SET LOCAL enable_hashjoin = off;
        SET LOCAL enable_mergejoin = off; SET LOCAL enable_material = off;"
    plan="$(q "$hash_sql EXPLAIN (COSTS OFF) SELECT count(*) FROM crash_t a
               WHERE NOT EXISTS (SELECT FROM crash_t b WHERE b.id = a.id AND b.ctid = a.ctid); ROLLBACK;")" || plan=""
    expect_match "round $round: the lookup runs as an index scan of crash_t_id_hash" "$plan" \
        'Index Scan using crash_t_id_hash'
    expect "round $round: rows not found through the hash index (of $after)" \
        "$(q "$hash_sql SELECT count(*) FROM crash_t a
              WHERE NOT EXISTS (SELECT FROM crash_t b WHERE b.id = a.id AND b.ctid = a.ctid); ROLLBACK;")" -eq 0
    expect "round $round: committed ids not found through the hash index (of $n_committed)" \
        "$(q "$hash_sql SELECT count(*) FROM seen s
              WHERE NOT EXISTS (SELECT FROM crash_t b WHERE b.id = s.id); ROLLBACK;")" -eq 0

    # BRIN: summarise what the crash left unsummarised, then scan through it
    summarized="$(q "SELECT brin_summarize_new_values('crash_t_id_brin')")" || summarized=""
    expect "round $round: brin_summarize_new_values(crash_t_id_brin) ranges summarised" "$summarized" -ge 0
    brin_sql="BEGIN;
        ALTER TABLE crash_t DROP CONSTRAINT crash_t_pkey; DROP INDEX crash_t_id_hash;
        SET LOCAL enable_seqscan = off;"
    plan="$(q "$brin_sql EXPLAIN (COSTS OFF) SELECT count(*) FROM crash_t
               WHERE id BETWEEN '00000000000000000000000000' AND '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'; ROLLBACK;")" ||
        plan=""
    expect_match "round $round: the range count runs through crash_t_id_brin" "$plan" \
        'Bitmap Index Scan on crash_t_id_brin'
    expect "round $round: rows found by a BRIN range scan (of $after)" \
        "$(q "$brin_sql SELECT count(*) FROM crash_t
              WHERE id BETWEEN (SELECT min(id) FROM crash_t) AND (SELECT max(id) FROM crash_t); ROLLBACK;")" \
        -eq "$after"
    expect "round $round: 200 committed ids not found by BRIN point lookups" \
        "$(q "$brin_sql SELECT count(*) FROM (SELECT id FROM seen ORDER BY id LIMIT 200) s
              WHERE NOT EXISTS (SELECT FROM crash_t b WHERE b.id = s.id); ROLLBACK;")" -eq 0

    # the generator and all indexes keep working
    if q "INSERT INTO crash_t (client) SELECT -$round FROM generate_series(1, 1000)" >/dev/null; then
        ok "round $round: 1000 inserts with DEFAULT gen_ulid() after recovery"
    else
        bad "round $round: inserts after recovery"
    fi
    expect "round $round: duplicate ids after the new inserts" \
        "$(q 'SELECT count(*) - count(DISTINCT id) FROM crash_t')" -eq 0
done

echo
note "ids seen committed over all rounds: $total_committed; rows now: $(q 'SELECT count(*) FROM crash_t')"
checks_summary
