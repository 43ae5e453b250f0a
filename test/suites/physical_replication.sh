#!/usr/bin/env bash
# Physical (streaming) replication: a primary and a hot standby of its own (test/lib/cluster.sh for
# the primary; the standby is a pg_basebackup -R of it, made here as the server's OS user, registered
# with cluster.sh so that it is stopped and removed on exit like the others).
#
# On the primary: a table with a ulid primary key (DEFAULT gen_ulid() and backfilled gen_ulid(ts)),
# a second ulid column with a hash index; a bulk insert, a delete of every 10th row and a VACUUM
# (index page deletions travel through WAL too), then another insert. After the standby has replayed
# up to the primary's WAL position (pg_last_wal_replay_lsn), with enable_seqscan, enable_bitmapscan
# and hash/merge joins off on the standby:
#   - the plans are index scans (EXPLAIN shows the primary key and the hash index);
#   - a full scan in id order, 500 point lookups, time ranges and hash-index lookups return exactly
#     the primary's rows; amcheck's bt_index_check passes on the standby; gen_ulid() runs there.
# Waiting for replay is bounded (ULID_REPL_WAIT seconds, default 90): a limit, not an assertion.
# Prints one line per check, exits non-zero on any violation.
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
source test/lib/cluster.sh
source test/lib/checks.sh
suite_isolate_env
suite_exit_on_signals

WAIT="${ULID_REPL_WAIT:-90}"
ROWS=200000

q() { cluster_psql "$1" -d postgres -At <<<"$2"; }
# qs SQL: on the standby, with only index scans allowed
qs() {
    q standby "SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_hashjoin = off;
               SET enable_mergejoin = off; $1"
}


echo "# setup: primary + streaming standby on 127.0.0.1"
must "start primary" cluster_up primary --no-sync
note "$(q primary 'SELECT version()')"
must "primary: extensions ulid and amcheck, table events (ulid primary key, ulid column with a hash index)" \
    q primary "CREATE EXTENSION ulid; CREATE EXTENSION amcheck;
               CREATE TABLE events (id ulid PRIMARY KEY DEFAULT gen_ulid(), ref ulid NOT NULL,
                                    n int NOT NULL, payload text NOT NULL);
               CREATE INDEX events_ref_hash ON events USING hash (ref);"
# pg_basebackup as docs/scaling-out.md shows it: test/suites/recipes/standby.sh, verbatim
standby_from_recipe() { CLUSTER_STANDBY_RECIPE=test/suites/recipes/standby.sh cluster_standby standby primary; }
must "standby: recipes/standby.sh (pg_basebackup -R -X stream from the primary, as the postgres OS user)" \
    standby_from_recipe
must "start standby" cluster_start standby
expect_str "standby: pg_is_in_recovery()" "$(q standby 'SELECT pg_is_in_recovery()')" t
# the WAL sender shows up once the standby has connected
for _ in $(seq 1 "$WAIT"); do
    [[ "$(q primary "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'")" == 1 ]] && break
    sleep 1
done
expect "primary: streaming WAL senders" \
    "$(q primary "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'")" -eq 1

echo
echo "# bulk insert, delete, VACUUM and insert on the primary"
must "primary: $ROWS rows (half DEFAULT gen_ulid(), half backfilled over 29 days)" q primary "
    INSERT INTO events (ref, n, payload)
        SELECT gen_random_ulid(), g, 'live ' || g FROM generate_series(1, $ROWS / 2) g;
    INSERT INTO events (id, ref, n, payload)
        SELECT gen_ulid(timestamptz '2025-06-01 00:00:00+00' + g * interval '25 seconds'),
               gen_random_ulid(), g + $ROWS / 2, 'backfill ' || g
        FROM generate_series(1, $ROWS / 2) g"
churn() {
    q primary "CREATE TABLE deleted_ids AS SELECT id FROM events WHERE n % 10 = 0;
               DELETE FROM events WHERE n % 10 = 0" &&
        q primary "VACUUM events" &&
        q primary "INSERT INTO events (ref, n, payload)
                   SELECT gen_random_ulid(), $ROWS + g, 'after vacuum ' || g FROM generate_series(1, 10000) g"
}
must "primary: delete every 10th row (ids kept in deleted_ids), VACUUM, insert 10000 more" churn
EXPECTED=$((ROWS - ROWS / 10 + 10000))
expect "primary: rows" "$(q primary 'SELECT count(*) FROM events')" -eq "$EXPECTED"

LSN="$(q primary 'SELECT pg_current_wal_lsn()')"
start=$SECONDS
until [[ "$(q standby "SELECT pg_last_wal_replay_lsn() >= '$LSN'::pg_lsn")" == t ]] || ((SECONDS - start >= WAIT)); do
    sleep 0.2
done
expect_str "standby: replayed up to the primary's WAL position $LSN (after $((SECONDS - start)) s)" \
    "$(q standby "SELECT pg_last_wal_replay_lsn() >= '$LSN'::pg_lsn")" t

echo
echo "# index scans on the standby"
digest="count(*) || ' ' || md5(string_agg(id::text || ':' || ref::text || ':' || n || ':' || payload, ',' ORDER BY id))"
plan="$(qs "EXPLAIN (COSTS OFF) SELECT * FROM events ORDER BY id")"
expect_contains "standby plan for ORDER BY id: the primary key index" "$plan" "Index Scan using events_pkey on events"
a="$(q primary "SELECT $digest FROM events")"
b="$(qs "SELECT $digest FROM (SELECT * FROM events ORDER BY id) s")"
expect_str "standby: full scan in id order through the primary key equals the primary's rows (${a%% *} rows)" "$b" "$a"

# 500 point lookups: the ids and rows sampled on the primary, looked up one by one on the standby
SAMPLE="$(q primary "SELECT string_agg(format('(%L::ulid, %L::ulid, %s, %L)', id, ref, n, payload), ',')
                     FROM (SELECT * FROM events ORDER BY md5(id::text) LIMIT 500) s")"
plan="$(qs "EXPLAIN (COSTS OFF) SELECT * FROM (VALUES $SAMPLE) v(id, ref, n, payload) JOIN events e USING (id)")"
expect_contains "standby plan for point lookups: nested loop over the primary key index" "$plan" \
    "Index Scan using events_pkey on events e"
expect "standby: point lookups of 500 sampled ids returning the primary's row" \
    "$(qs "SELECT count(*) FROM (VALUES $SAMPLE) v(id, ref, n, payload)
           JOIN events e ON e.id = v.id AND e.ref = v.ref AND e.n = v.n AND e.payload = v.payload")" -eq 500
plan="$(qs "EXPLAIN (COSTS OFF) SELECT * FROM (VALUES $SAMPLE) v(id, ref, n, payload) JOIN events e USING (ref)")"
expect_contains "standby plan for lookups by ref: the hash index" "$plan" "Index Scan using events_ref_hash on events e"
expect "standby: lookups of 500 sampled refs through the hash index returning the primary's row" \
    "$(qs "SELECT count(*) FROM (VALUES $SAMPLE) v(id, ref, n, payload)
           JOIN events e ON e.ref = v.ref AND e.id = v.id AND e.n = v.n")" -eq 500
expect "standby: deleted ids (every 10th row, kept in deleted_ids) found through the primary key" \
    "$(qs "SELECT count(*) FROM deleted_ids d JOIN events e USING (id)")" -eq 0
expect "standby: deleted_ids rows" "$(qs "SELECT count(*) FROM deleted_ids")" -eq $((ROWS / 10))

for range in "2025-06-03 00:00:00+00|2025-06-04 00:00:00+00" "2025-06-10 12:00:00+00|2025-06-10 12:30:00+00" \
    "2025-06-28 00:00:00+00|2100-01-01 00:00:00+00" "2000-01-01 00:00:00+00|2000-01-02 00:00:00+00"; do
    lo="${range%|*}" hi="${range#*|}"
    where="id >= timestamptz '$lo'::ulid AND id < timestamptz '$hi'::ulid"
    plan="$(qs "EXPLAIN (COSTS OFF) SELECT * FROM events WHERE $where ORDER BY id")"
    a="$(q primary "SELECT coalesce($digest, '0') FROM events WHERE $where")"
    b="$(qs "SELECT coalesce($digest, '0') FROM (SELECT * FROM events WHERE $where ORDER BY id) s")"
    if [[ $plan == *"Index Scan using events_pkey on events"* && -n $a && $a == "$b" ]]; then
        ok "standby: range [$lo, $hi) through the primary key index equals the primary's rows (${a%% *} rows)"
    else
        bad "standby: range [$lo, $hi): standby [$b] vs primary [$a]; plan:"
        printf '%s\n' "$plan" | sed 's/^/#     /'
    fi
done
expect "standby: rows in the backfilled month (range scan)" \
    "$(qs "SELECT count(*) FROM events WHERE id >= timestamptz '2025-06-01+00'::ulid AND id < timestamptz '2025-07-01+00'::ulid")" \
    -eq $((ROWS / 2 - ROWS / 20))
if q standby "SELECT bt_index_check('events_pkey', true)" >/dev/null; then
    ok "standby: bt_index_check(events_pkey, heapallindexed) passes"
else
    bad "standby: bt_index_check(events_pkey, heapallindexed)"
fi
expect_match "standby: gen_ulid() runs on the hot standby" "$(q standby 'SELECT gen_ulid()')" '^[0-7][0-9A-Z]{25}$'

checks_summary
