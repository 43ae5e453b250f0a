#!/usr/bin/env bash
# Independent generators: 4 servers of its own (test/lib/cluster.sh), no coordination between them.
#
# Each server has one session that inserts 250,000 rows with id DEFAULT gen_ulid() into its own
# table, in 25 rounds of 10,000 rows. In each round the 4 servers run at the same time; the next
# round starts when all 4 have finished (a barrier: the only thing the servers share is the clock).
# All rows are then copied into one table on server 1 with binary COPY (ulid_send/ulid_recv).
# Checks:
#   - the union has 1,000,000 rows, 250,000 per server, no duplicate id (count and a unique index);
#   - each server's ids are strictly increasing in its insertion order;
#   - sorted by id, ulid_to_timestamp is non-decreasing and the servers interleave (the number of
#     times the server changes between neighbours, at least one per round);
#   - causality across servers: every id of round r carries a millisecond no earlier than every id
#     of round r-1 (round r started after round r-1 ended), so across servers id order is time
#     order, except inside one shared millisecond (those are counted and printed).
# Prints one line per check, exits non-zero on any violation.
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
source test/lib/cluster.sh
source test/lib/checks.sh
suite_isolate_env
suite_exit_on_signals

SERVERS=4
ROUNDS=25
BATCH=10000
PER_SERVER=$((ROUNDS * BATCH))
TOTAL=$((SERVERS * PER_SERVER))
WAIT="${ULID_GEN_WAIT:-300}" # bound on the whole generation, not an assertion

WORK="$(mktemp -d -t ulid-indep.XXXXXX)"
trap 'rm -rf "$WORK"; _cluster_cleanup' EXIT

q() { cluster_psql "$1" -d postgres -At <<<"$2"; }

echo "# setup: $SERVERS servers on 127.0.0.1"
for k in $(seq 1 $SERVERS); do
    must "start server g$k" cluster_up "g$k" --no-sync
    must "g$k: extension ulid, table ids (seq bigserial, round, id ulid PRIMARY KEY DEFAULT gen_ulid())" \
        q "g$k" "CREATE EXTENSION ulid;
                 CREATE TABLE ids (seq bigserial, round int NOT NULL, id ulid PRIMARY KEY DEFAULT gen_ulid())"
done
note "$(q g1 'SELECT version()')"

echo
echo "# generation: $ROUNDS rounds x $BATCH rows on each server, one session per server"
# one psql session per server, fed through a FIFO; "\echo round R" tells that round R is done
# (all readers start before any writer is opened, so that no session inherits another's FIFO)
declare -a FD PID
for k in $(seq 1 $SERVERS); do
    mkfifo "$WORK/in$k"
    cluster_psql "g$k" -d postgres -At <"$WORK/in$k" >"$WORK/out$k" 2>&1 &
    PID[k]=$!
done
for k in $(seq 1 $SERVERS); do
    exec {fd}>"$WORK/in$k"
    FD[k]=$fd
done
start=$SECONDS
failed=0
for r in $(seq 1 $ROUNDS); do
    for k in $(seq 1 $SERVERS); do
        printf 'INSERT INTO ids (round) SELECT %d FROM generate_series(1, %d);\n\\echo round %d\n' \
            "$r" "$BATCH" "$r" >&"${FD[k]}"
    done
    for k in $(seq 1 $SERVERS); do
        until grep -qx "round $r" "$WORK/out$k"; do
            if ! kill -0 "${PID[k]}" 2>/dev/null || ((SECONDS - start > WAIT)); then
                bad "g$k: session ended or timed out in round $r:"
                sed 's/^/#   /' "$WORK/out$k"
                failed=1
                break 3
            fi
            sleep 0.02
        done
    done
done
for k in $(seq 1 $SERVERS); do
    eval "exec ${FD[k]}>&-"
    wait "${PID[k]}" || failed=1
done
((failed)) && {
    checks_summary
    exit 1
}
ok "generation: $ROUNDS rounds on $SERVERS servers done in $((SECONDS - start)) s"
for k in $(seq 1 $SERVERS); do
    expect "g$k: rows" "$(q "g$k" 'SELECT count(*) FROM ids')" -eq $PER_SERVER
done

echo
echo "# union on g1 (binary COPY out of every server, into g1)"
must "g1: table all_ids (server, seq, round, id)" \
    q g1 "CREATE TABLE all_ids (server int NOT NULL, seq bigint NOT NULL, round int NOT NULL, id ulid NOT NULL)"
for k in $(seq 1 $SERVERS); do
    copy() {
        cluster_psql "g$k" -d postgres -c "COPY (SELECT $k, seq, round, id FROM ids) TO STDOUT (FORMAT binary)" |
            cluster_psql g1 -d postgres -c "COPY all_ids FROM STDIN (FORMAT binary)"
    }
    must "COPY g$k.ids TO STDOUT (FORMAT binary) | COPY g1.all_ids FROM STDIN (FORMAT binary)" copy
done
expect "union: rows" "$(q g1 'SELECT count(*) FROM all_ids')" -eq $TOTAL
expect "union: servers with $PER_SERVER rows" \
    "$(q g1 "SELECT count(*) FROM (SELECT server FROM all_ids GROUP BY 1 HAVING count(*) = $PER_SERVER) s")" -eq $SERVERS
expect "union: duplicate ids" "$(q g1 'SELECT count(*) - count(DISTINCT id) FROM all_ids')" -eq 0
if q g1 "CREATE UNIQUE INDEX all_ids_id ON all_ids (id)" >/dev/null; then
    ok "union: CREATE UNIQUE INDEX on id succeeds"
else
    bad "union: CREATE UNIQUE INDEX on id"
fi
for k in $(seq 1 $SERVERS); do
    expect_str "union: server $k's rows in all_ids equal g$k's table (ids in seq order)" \
        "$(q g1 "SELECT md5(string_agg(id::text || ':' || round, ',' ORDER BY seq)) FROM all_ids WHERE server = $k")" \
        "$(q "g$k" "SELECT md5(string_agg(id::text || ':' || round, ',' ORDER BY seq)) FROM ids")"
done

echo
echo "# order"
expect "per server: ids not strictly increasing in insertion order (seq)" \
    "$(q g1 "SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY server ORDER BY seq) AS prev
                                   FROM all_ids) s WHERE prev >= id")" -eq 0
read -r back switches shared <<<"$(q g1 "
    SELECT count(*) FILTER (WHERE ts < prev_ts), count(*) FILTER (WHERE server <> prev_server),
           (SELECT count(*) FROM (SELECT 1 FROM all_ids GROUP BY ulid_to_timestamp(id)
                                  HAVING count(DISTINCT server) > 1) m)
    FROM (SELECT server, ulid_to_timestamp(id) AS ts,
                 lag(ulid_to_timestamp(id)) OVER w AS prev_ts, lag(server) OVER w AS prev_server
          FROM all_ids WINDOW w AS (ORDER BY id)) s" | tr '|' ' ')"
expect "union sorted by id: ulid_to_timestamp going backwards" "${back:-x}" -eq 0
expect "union sorted by id: neighbours from different servers (interleaving; at least one per round)" \
    "${switches:-x}" -ge $ROUNDS
note "milliseconds holding ids of more than one server: ${shared:-?}"
expect "causality: ids of round r with an earlier millisecond than an id of round r-1 (any servers)" \
    "$(q g1 "SELECT count(*) FROM all_ids a
             JOIN (SELECT round + 1 AS next_round, max(ulid_to_timestamp(id)) AS prev_max
                   FROM all_ids GROUP BY round) p ON a.round = p.next_round
             WHERE ulid_to_timestamp(a.id) < p.prev_max")" -eq 0
note "rounds whose lowest id sorts below the previous round's highest (possible only inside a shared millisecond): $(
    q g1 "SELECT count(*) FROM (SELECT round, min(id) AS lo, max(id) AS hi FROM all_ids GROUP BY round) r
          JOIN (SELECT round, min(id) AS lo FROM all_ids GROUP BY round) n ON n.round = r.round + 1
          WHERE n.lo < r.hi")"

checks_summary
