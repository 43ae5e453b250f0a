#!/usr/bin/env bash
# What "a session" means behind a pooler (docs/monotonicity.md, "Behind a connection pooler"):
# Debian's pgbouncer in transaction mode in front of a server of its own (test/lib/cluster.sh,
# shared_preload_libraries = 'ulid' so that gen_monotonic_ulid() runs on every major), run as the
# server's OS user on a free loopback port, 4 server connections in rotation (server_round_robin).
# One client (pgbench -c 1, simple protocol) runs 3,000 transactions of one INSERT each:
#   - its transactions run on several backends (pg_backend_pid() recorded with each row);
#   - gen_ulid(): strictly increasing within each backend, but not in the client's order: the
#     order breaks are counted and printed, and where consecutive transactions of different
#     backends shared a millisecond often enough (>= 20 times) for a break to be certain but for
#     a chance of 2^-20, at least one break is required; on a machine too slow for that the count
#     is only printed (no timing assertion);
#   - gen_monotonic_ulid(): no order break at all, whatever the timing;
#   - protocol-level prepared statements (pgbench -M prepared) fail in transaction mode before
#     pgbouncer 1.21 (a statement prepared on one backend is executed on another), while the
#     extended protocol with unnamed statements (-M extended) works; from 1.21 on,
#     max_prepared_statements lets pgbouncer prepare them where they run (checked only there).
# Skipped (exit 77) where pgbouncer is not installed. Prints one line per check, exits non-zero on
# any violation.
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
source test/lib/cluster.sh
source test/lib/checks.sh
suite_isolate_env
suite_exit_on_signals

PGBOUNCER="$(command -v pgbouncer || true)"
[[ -z $PGBOUNCER && -x /usr/sbin/pgbouncer ]] && PGBOUNCER=/usr/sbin/pgbouncer
if [[ -z $PGBOUNCER ]]; then
    echo "SKIPPED: pgbouncer is not installed (Debian: apt-get install pgbouncer)"
    exit 77
fi
TXNS=3000
POOL=4

echo "# setup: a server, and pgbouncer in transaction mode in front of it"
must "start server" cluster_init pool --no-sync
cluster_conf pool "shared_preload_libraries = 'ulid'"
must "... with shared_preload_libraries = 'ulid'" cluster_start pool
q() { cluster_psql pool -d postgres -At <<<"$1"; }
note "$(q 'SELECT version()')"
PGB_VERSION="$("$PGBOUNCER" --version | sed -n 's/^PgBouncer \([0-9.]*\).*/\1/p')"
note "pgbouncer $PGB_VERSION ($PGBOUNCER)"
must "extension and tables" q "CREATE EXTENSION ulid;
    CREATE TABLE per_txn (n bigserial PRIMARY KEY, pid int NOT NULL, id ulid NOT NULL);
    CREATE TABLE per_txn_mono (n bigserial PRIMARY KEY, pid int NOT NULL, id ulid NOT NULL)"

# pgbouncer's files in a directory of its own, owned by the server's OS user (pgbouncer refuses
# to run as root)
PGB_DIR="$(mktemp -d -t ulid-pgbouncer.XXXXXX)"
PGB_PID=""
stop_pgbouncer() { # pgbouncer itself (its pid file), and the runuser that started it
    local pid
    pid="$(cat "$PGB_DIR/pgbouncer.pid" 2>/dev/null)"
    [[ -n $pid ]] && kill "$pid" 2>/dev/null
    [[ -n $PGB_PID ]] && kill "$PGB_PID" 2>/dev/null
    PGB_PID=""
}
trap 'stop_pgbouncer; rm -rf "$PGB_DIR"; _cluster_cleanup' EXIT
PGB_PORT="$(cluster_free_port)"
cat >"$PGB_DIR/pgbouncer.ini" <<EOF
[databases]
postgres = host=127.0.0.1 port=$(cluster_port pool) dbname=postgres

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $PGB_PORT
unix_socket_dir =
auth_type = trust
auth_file = $PGB_DIR/userlist.txt
pool_mode = transaction
default_pool_size = $POOL
min_pool_size = $POOL
server_round_robin = 1
max_client_conn = 100
logfile = $PGB_DIR/pgbouncer.log
pidfile = $PGB_DIR/pgbouncer.pid
EOF
echo '"postgres" ""' >"$PGB_DIR/userlist.txt"
((EUID == 0)) && chown -R postgres: "$PGB_DIR"
start_pgbouncer() {
    if ((EUID == 0)); then
        runuser -u postgres -- "$PGBOUNCER" "$PGB_DIR/pgbouncer.ini" >>"$PGB_DIR/stdout.log" 2>&1 &
    else
        "$PGBOUNCER" "$PGB_DIR/pgbouncer.ini" >>"$PGB_DIR/stdout.log" 2>&1 &
    fi
    PGB_PID=$!
    for _ in $(seq 1 100); do # wait (bounded) until it accepts connections
        if "$ULID_PG_BINDIR/psql" -X -At -h 127.0.0.1 -p "$PGB_PORT" -U postgres -d postgres -c 'SELECT 1' >/dev/null 2>&1; then
            return 0
        fi
        kill -0 "$PGB_PID" 2>/dev/null || break
        sleep 0.1
    done
    cat "$PGB_DIR/pgbouncer.log" "$PGB_DIR/stdout.log" 2>/dev/null | tail -n 20 | sed 's/^/#   /'
    return 1
}
must "pgbouncer on 127.0.0.1:$PGB_PORT (pool_mode = transaction, $POOL server connections, server_round_robin = 1)" start_pgbouncer
via_pgb() { "$ULID_PG_BINDIR/psql" -X -At -h 127.0.0.1 -p "$PGB_PORT" -U postgres -d postgres "$@"; }
# open all server connections: $POOL clients holding a transaction at once
warm=()
for _ in $(seq 1 "$POOL"); do
    via_pgb -c "SELECT pg_sleep(0.5)" >/dev/null &
    warm+=($!)
done
wait "${warm[@]}"
expect "server connections pgbouncer keeps open (other client backends of the server)" \
    "$(q "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")" -ge 2

# pgbench_client GENERATOR TABLE [pgbench options]: one client, $TXNS transactions of one INSERT each
pgbench_client() {
    local fn="$1" table="$2"
    shift 2
    printf 'INSERT INTO %s (pid, id) VALUES (pg_backend_pid(), %s());\n' "$table" "$fn" >"$PGB_DIR/$table.sql"
    "$ULID_PG_BINDIR/pgbench" -n -c 1 -t "$TXNS" -f "$PGB_DIR/$table.sql" "$@" \
        -h 127.0.0.1 -p "$PGB_PORT" -U postgres postgres 2>&1
}
# order_report TABLE: rows, backends, breaks of the client's order, same-millisecond neighbours on
# different backends, per-backend breaks
order_report() {
    q "SELECT count(*), count(DISTINCT pid),
              count(*) FILTER (WHERE id < prev),
              count(*) FILTER (WHERE pid <> prev_pid AND ulid_to_timestamp(id) = ulid_to_timestamp(prev)),
              (SELECT count(*) FROM (SELECT id < lag(id) OVER (PARTITION BY pid ORDER BY n) AS b FROM $1) s WHERE b)
       FROM (SELECT n, pid, id, lag(id) OVER (ORDER BY n) AS prev, lag(pid) OVER (ORDER BY n) AS prev_pid FROM $1) s" |
        tr '|' ' '
}

# one_client GENERATOR TABLE: the one client's $TXNS transactions with GENERATOR(), through pgbouncer;
# sets rows, backends, breaks, same_ms and per_backend (order_report) and checks what holds for both
one_client() {
    pgbench_client "$1" "$2" -M simple >/dev/null
    expect "pgbench -M simple through pgbouncer, $1(): exit status" "$?" -eq 0
    read -r rows backends breaks same_ms per_backend < <(order_report "$2")
    expect "$1(): rows (one per transaction of the one client)" "$rows" -eq "$TXNS"
    expect "$1(): backends that ran the client's transactions" "$backends" -ge 2
    expect "$1(): order breaks within each backend" "$per_backend" -eq 0
    note "$1(): the client's $TXNS values in its own order: $breaks order breaks;" \
        "$same_ms neighbours came from different backends in the same millisecond"
}

echo
echo "# gen_ulid(): strictly increasing within a backend, not within the client's connection"
one_client gen_ulid per_txn
if ((same_ms >= 20)); then
    expect "order breaks in the client's order (>= 20 same-millisecond neighbours from different backends)" "$breaks" -ge 1
else
    note "fewer than 20 same-millisecond neighbours on different backends (a slow run): the break count is not checked"
fi

echo
echo "# gen_monotonic_ulid(): one order for the whole server, so for the client too"
one_client gen_monotonic_ulid per_txn_mono
expect "order breaks in the client's order with gen_monotonic_ulid()" "$breaks" -eq 0

echo
echo "# protocol-level prepared statements in transaction mode (pgbouncer $PGB_VERSION)"
q "TRUNCATE per_txn" >/dev/null
out="$(pgbench_client gen_ulid per_txn -M extended)"
expect "pgbench -M extended (unnamed statements) through pgbouncer: exit status" "$?" -eq 0
expect "pgbench -M extended (unnamed statements) through pgbouncer: rows" "$(q 'SELECT count(*) FROM per_txn')" -eq "$TXNS"
q "TRUNCATE per_txn" >/dev/null
out="$(pgbench_client gen_ulid per_txn -M prepared)"
IFS=. read -r pgb_major pgb_minor _ <<<"$PGB_VERSION"
if ((pgb_major == 1 && pgb_minor < 21)); then # pgbouncer 1.21; version-gates: not a gate
    expect_match "pgbench -M prepared through pgbouncer $PGB_VERSION: a prepared statement is not there on the next backend" \
        "$out" 'prepared statement "P[_0-9]*" does not exist'
    note "pgbench: $(grep -m1 -o 'ERROR: .*' <<<"$out")"
    note "rows inserted before the failure: $(q 'SELECT count(*) FROM per_txn') of $TXNS"
    note "pgbouncer 1.21 and later (max_prepared_statements) prepare them where they run; Debian 12 has $PGB_VERSION"
else
    note "pgbouncer $PGB_VERSION >= 1.21: with max_prepared_statements, prepared statements work in transaction mode"
fi

stop_pgbouncer
checks_summary
