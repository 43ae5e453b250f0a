#!/usr/bin/env bash
# Major upgrades by logical replication: the path where pg_upgrade cannot go (from Debian's
# packaged 15 to an upstream-built major pg_upgrade fails for any table: t/210_pg_upgrade.pl),
# and one with no downtime beyond the cut-over. docs/upgrading.md describes the procedure this
# suite runs, with the recipes test/suites/recipes/upgrade_*.{sql,sh} verbatim:
#   1. the old server runs with wal_level = logical and publishes the tables (upgrade_publish.sql);
#   2. the new server gets the schema from the old one (upgrade_schema.sh: the new major's pg_dump
#      --schema-only --no-publications --no-subscriptions, restored with psql: CREATE EXTENSION
#      ulid, the table with its DEFAULT gen_ulid());
#   3. CREATE SUBSCRIPTION on the new server (upgrade_subscribe.sql; text, or binary = true) while
#      the application keeps writing to the old one: before, during and after the initial copy;
#   4. cut-over: the old server refuses writes (upgrade_cutover.sql: default_transaction_read_only,
#      25006), the new one catches up to the old one's last WAL position, the rows are checked
#      identical, the subscription is dropped (upgrade_finish.sql; with it the slot on the old
#      server goes), the application moves; a ulid key needs no sequence to be carried over: the
#      new server's gen_ulid() keys sort after every replicated one (as long as its clock is not
#      behind the old one's).
# Runs: 15 -> 18 in text and in binary mode, 13 -> 17 in text mode and with binary = true asked
# for, 14 -> 16 and 16 -> 18 in binary mode (when 14 and 16 are built): what the publisher's log shows of the
# replication (log_replication_commands, log_statement = all) is checked and printed — a 13
# publisher gets no binary option (the subscriber sends it only to 14+), and the initial copy is
# binary only from a 16+ publisher (COPY ... WITH (FORMAT binary)); before 16 it is text even with
# binary = true, then the changes stream in binary. The table: ulid primary key DEFAULT gen_ulid(),
# ulid[] (NULL arrays, NULL elements, empty), 25,000 rows before the subscription; the new server
# holds other objects first, so the ulid type's OID differs from the old server's (printed), as
# it would on a real new server. Checks per upgrade: the initial copy and the writes during and
# after it arrive (rows identical: COPY text digest and the 16 bytes of every ulid, array elements
# included), no apply or sync error (pg_stat_subscription_stats), writes refused on the old
# server after the cut-over, the subscription and its slot gone, new keys above every replicated one.
#
# Once per CI run: in the PostgreSQL 18 pass (exit 77 in the others, or when 13, 17 or 18 is not
# built, or Debian's 15 is not installed); ULID_LOGICAL_UPGRADE_ANY_PASS=1 runs it in any pass.
# And in the pass of 19, inside the sid chroot (scripts/sid-chroot): 18 -> 19 in text and in binary
# mode between Debian's packages of both there, and 15 -> 19 in both modes from Debian 12's 15 on the
# host. A 19 server runs only inside the chroot and the host's 15 only outside it, so the suite in
# the chroot drives both: the chroot has the host's /proc mounted, and ULID_HOST_ROOT (set by
# scripts/sid-chroot run: /proc/PID/root of a process of its own that stays outside) is the host's
# root directory, into which root may chroot back; the host's 15 is built for, initialised, started
# and stopped that way (as the host's postgres user, in a directory of the host's /tmp), and both
# servers meet over loopback (they share the network). The old side's log is read through the same
# path. Every server started there is stopped on every exit path of the suite.
# It builds this tree against each server and installs it there, Debian's 15 included
# (ULID_DEBIAN_PG15_BINDIR: another copy of Debian's 15 instead of /usr/lib/postgresql/15/bin).
# Waiting for replication is bounded (ULID_REPL_WAIT seconds, default 120): a limit, not an assertion.
set -uo pipefail

here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
root="$(cd -- "$here/../.." && pwd -P)"
# shellcheck source-path=SCRIPTDIR source=../lib/checks.sh
source "$here/../lib/checks.sh"
# shellcheck source-path=SCRIPTDIR source=../lib/servers.sh
source "$here/../lib/servers.sh"

WAIT="${ULID_REPL_WAIT:-120}"
declare -A ON_HOST=() # majors whose server runs on the host, outside the sid chroot (under HOST_ROOT)
HOST_ROOT=""
ROWS=25000
this="$("${PG_CONFIG:-pg_config}" --version 2>/dev/null | sed -nE 's/^PostgreSQL ([0-9]+).*/\1/p')"
if [[ ${ULID_IN_CHROOT:-} == 1 ]]; then
    # the pass of 19, in the sid chroot (scripts/sid-chroot): Debian's 18 and 19 packages there
    [[ $this == 19 ]] || skip_suite "in the sid chroot this suite runs in the pass of 19 (this pass: ${this:-unknown})"
    for major in 18 19; do
        [[ -x /usr/lib/postgresql/$major/bin/pg_config ]] || skip_suite "no postgresql-$major in the chroot (scripts/pins/sid-packages)"
        BIN[$major]="/usr/lib/postgresql/$major/bin"
    done
    HOST_ROOT="${ULID_HOST_ROOT:-}" # the host's root directory, seen from inside (scripts/sid-chroot)
    BIN[15]=/usr/lib/postgresql/15/bin # Debian 12's 15 on the host: a path under HOST_ROOT
    ON_HOST[15]=1
else
    for major in 13 14 16 17 18; do
        if prefix="$(pinned_server "$major")"; then
            BIN[$major]="$prefix/bin"
        elif [[ $major != 14 && $major != 16 ]]; then # version-gates: not a gate (optional servers)
            skip_suite "$prefix"
        fi
    done
    BIN[15]="${ULID_DEBIAN_PG15_BINDIR:-/usr/lib/postgresql/15/bin}"
    [[ -x ${BIN[15]}/pg_config ]] || skip_suite "Debian's PostgreSQL 15 is not installed (no ${BIN[15]}/pg_config)"
    if [[ $this != 18 && ${ULID_LOGICAL_UPGRADE_ANY_PASS:-} != 1 ]]; then
        skip_suite "runs once, in the PostgreSQL 18 pass (this pass: ${this:-unknown}; ULID_LOGICAL_UPGRADE_ANY_PASS=1 runs it anyway)"
    fi
fi
NEWEST="$(printf '%s\n' "${!BIN[@]}" | sort -n | tail -n 1)" # its psql runs the recipes

suite_isolate_env
suite_exit_on_signals
ULID_PG_BINDIR="${BIN[$NEWEST]}" # cluster.sh's default; every server call below names its major
# shellcheck source-path=SCRIPTDIR source=../lib/cluster.sh
source "$here/../lib/cluster.sh"
RECIPES="$root/test/suites/recipes"
WORK="$(mktemp -d -t ulid-logical-upgrade.XXXXXX)"
chmod 755 "$WORK"
HOST_WORK="" # the host's servers' directory, a path under HOST_ROOT
declare -A HOST_DIR=() # cluster name -> its directory there (data/, server.log, the socket)
cleanup() {
    touch "$WORK/stop" 2>/dev/null # (the writer, if one runs)
    wait 2>/dev/null
    local c
    for c in "${!HOST_DIR[@]}"; do host_stop "$c" immediate >/dev/null 2>&1; done
    [[ -z $HOST_WORK ]] || rm -rf "${HOST_ROOT:?}$HOST_WORK"
    stop_clusters
    _cluster_cleanup
    rm -rf "$WORK"
}
trap cleanup EXIT
T0=$SECONDS
if ((${#ON_HOST[@]})); then
    [[ -x $HOST_ROOT${BIN[15]}/pg_config ]] ||
        { bad "the host's PostgreSQL 15 is not reachable from the chroot (no ${HOST_ROOT:-\$ULID_HOST_ROOT}${BIN[15]}/pg_config)"; checks_summary; exit 1; }
    if ! HOST_WORK="$(chroot "$HOST_ROOT" mktemp -d -t ulid-logical-upgrade-host.XXXXXX)" ||
        ! chmod 755 "$HOST_ROOT$HOST_WORK"; then
        bad "no directory in the host's /tmp"
        checks_summary
        exit 1
    fi
fi

# host_as_postgres CMD...: CMD on the host (outside the chroot) as the host's postgres user
host_as_postgres() { chroot "$HOST_ROOT" runuser -u postgres -- "$@"; }
# host_start CLUSTER GUC...: initdb and start a server of the host's major MAJOR_OF[CLUSTER] in a
# directory of the host's /tmp, on a free loopback port that cluster.sh's psql and connection
# strings then use; its log is read as server_log CLUSTER
host_start() {
    local c="$1" port d line
    shift
    port="$(cluster_free_port)" || return 1
    d="$HOST_WORK/$c"
    HOST_DIR[$c]="$d"
    chroot "$HOST_ROOT" install -d -o postgres -g postgres "$d" || return 1
    if ! host_as_postgres "${BIN[${MAJOR_OF[$c]}]}/initdb" -D "$d/data" -U postgres -A trust --no-sync \
        --locale=C.UTF-8 -E UTF8 >"$HOST_ROOT$d/initdb.log" 2>&1; then
        cat "$HOST_ROOT$d/initdb.log" >&2
        return 1
    fi
    for line in "port = $port" "listen_addresses = '127.0.0.1'" "unix_socket_directories = '$d'" "fsync = off" \
        "log_min_messages = warning" "$@"; do
        printf '%s\n' "$line" >>"$HOST_ROOT$d/data/postgresql.conf"
    done
    _CLUSTER_PORT[$c]="$port"
    host_as_postgres "${BIN[${MAJOR_OF[$c]}]}/pg_ctl" -D "$d/data" -l "$d/server.log" -w -t 60 start >/dev/null ||
        { tail -n 30 "$HOST_ROOT$d/server.log" >&2; return 1; }
}
# host_stop CLUSTER [fast|immediate]
host_stop() {
    [[ -f $HOST_ROOT${HOST_DIR[$1]}/data/postmaster.pid ]] || return 0
    host_as_postgres "${BIN[${MAJOR_OF[$1]}]}/pg_ctl" -D "${HOST_DIR[$1]}/data" -m "${2:-fast}" -w -t 60 stop >/dev/null
}
server_log() { if [[ -n ${HOST_DIR[$1]:-} ]]; then echo "$HOST_ROOT${HOST_DIR[$1]}/server.log"; else cluster_log "$1"; fi; }

# q CLUSTER SQL: rows of database app, unaligned (SQL on standard input: 13's psql -c shows only
# the last result)
q() { cluster_psql "$1" -d app -qAt -f - <<<"$2"; }

# ---------------------------------------------------------------------------------------------
echo "# build and install this tree into $(printf '%s\n' "${!BIN[@]}" | sort -n | paste -sd' ') (15: Debian's$( ((${#ON_HOST[@]})) && echo ", on the host"))"
for major in $(printf '%s\n' "${!BIN[@]}" | sort -n); do
    if [[ -n ${ON_HOST[$major]:-} ]]; then
        install_tree "${BIN[$major]}/pg_config" "$HOST_WORK" "$HOST_ROOT"
    else
        install_tree "${BIN[$major]}/pg_config" "$WORK"
    fi
done

SCHEMA_SQL="
SET client_min_messages = warning;
CREATE EXTENSION ulid;
CREATE TABLE items (
    id   ulid PRIMARY KEY DEFAULT gen_ulid(),
    refs ulid[],
    n    int NOT NULL,
    note text NOT NULL
);
INSERT INTO items (refs, n, note)
SELECT CASE g % 4 WHEN 0 THEN NULL WHEN 1 THEN '{}'
                  WHEN 2 THEN ARRAY[gen_random_ulid(), NULL, gen_ulid()] ELSE ARRAY[gen_random_ulid()] END,
       g, 'initial ' || g
FROM generate_series(1, $ROWS) g;"
# one batch of the application's writes on the old server: 20 inserts, an update and a delete by key
WRITE_SQL="
INSERT INTO items (refs, n, note)
SELECT ARRAY[gen_random_ulid(), NULL], -g, 'written during the upgrade' FROM generate_series(1, 20) g;
UPDATE items SET note = 'updated during the upgrade', refs = ARRAY[gen_ulid()]
 WHERE id = (SELECT id FROM items WHERE n > 0 ORDER BY id OFFSET (random() * 1000)::int LIMIT 1);
DELETE FROM items WHERE id = (SELECT id FROM items WHERE n > 0 ORDER BY id DESC OFFSET (random() * 1000)::int LIMIT 1);"
# digest: row count, md5 of the text COPY in key order, md5 of the 16 bytes of every ulid (arrays'
# elements included, in order), the same on every major
DIGEST_SQL="
SELECT count(*) FROM items;
COPY (SELECT * FROM items ORDER BY id) TO STDOUT;
SELECT md5(string_agg(ulid_send(id) || coalesce((SELECT string_agg(coalesce(ulid_send(e), '\\x00'), '' ORDER BY o)
                                                 FROM unnest(refs) WITH ORDINALITY u(e, o)), '\\x01'), '' ORDER BY id))
  FROM items;"
digest() { q "$1" "$DIGEST_SQL" | md5sum | cut -d' ' -f1; }

# writer CLUSTER: the application, writing batches until $WORK/stop exists; the number of batches
# done so far is in $WORK/batches, failures in $WORK/writer.err
writer() {
    local i=0
    while [[ ! -e $WORK/stop ]]; do
        q "$1" "$WRITE_SQL" >/dev/null 2>>"$WORK/writer.err" || echo "batch $i failed" >>"$WORK/writer.err"
        i=$((i + 1))
        echo "$i" >"$WORK/batches.new" && mv "$WORK/batches.new" "$WORK/batches" # (read while written)
    done
}
batches() { cat "$WORK/batches" 2>/dev/null || echo 0; }

# start_server CLUSTER GUC...: initdb, the postgresql.conf lines, start, CREATE DATABASE app (on
# the host for a major of ON_HOST)
start_server() {
    local c="$1"
    shift
    if [[ -n ${ON_HOST[${MAJOR_OF[$c]}]:-} ]]; then # (the chroot's psql: the host's runs only there)
        host_start "$c" "$@" && cluster_psql "$c" -d postgres -c "CREATE DATABASE app" >/dev/null
    else
        on "$c" cluster_init --no-sync && on "$c" cluster_conf "$@" && on "$c" cluster_start &&
            on "$c" cluster_psql -d postgres -c "CREATE DATABASE app" >/dev/null
    fi
}
stop_server() { if [[ -n ${HOST_DIR[$1]:-} ]]; then host_stop "$1"; else on "$1" cluster_stop; fi; }

# wait_for CLUSTER SQL: until SQL returns t on CLUSTER (at most WAIT seconds); true when it did
wait_for() {
    local start=$SECONDS
    until [[ $(q "$1" "$2" 2>/dev/null) == t ]]; do
        ((SECONDS - start >= WAIT)) && return 1
        sleep 0.2
    done
}

# upgrade OLD NEW MODE: the whole procedure from an OLD major server to a NEW one, MODE text|binary
upgrade() {
    local old="$1" new="$2" mode="$3" label="$1 -> $2, $3" t0=$SECONDS
    local o="old${old}_${new}_$mode" n="new${new}_${old}_$mode" conn before ready after lsn
    echo
    echo "# ==== $label ===="
    MAJOR_OF[$o]="$old"
    MAJOR_OF[$n]="$new"
    rm -f "$WORK/stop" "$WORK/batches" "$WORK/writer.err"
    must "$label: old server ($old, wal_level = logical) with database app" \
        start_server "$o" "wal_level = logical" "log_replication_commands = on" "log_statement = all"
    must "$label: old: CREATE EXTENSION ulid, items with $ROWS rows (ulid key DEFAULT gen_ulid(), ulid[])" \
        q "$o" "$SCHEMA_SQL"
    must "$label: old: upgrade_publish.sql" cluster_psql "$o" -d app -o /dev/null -f "$RECIPES/upgrade_publish.sql"
    must "$label: new server ($new) with database app" start_server "$n" "wal_retrieve_retry_interval = 200ms"
    must "$label: new: other objects first (so that the ulid type's OID differs)" \
        q "$n" "CREATE TABLE other_app_table (k int); CREATE TYPE other_app_type AS (a int, b text)"
    # Debian's 15 (15.20-0+deb12u1) stores a pg_attver option on every column (what also stops
    # pg_upgrade from it): an upstream pg_dump writes it out and an upstream server refuses it
    local attver out rc=0
    "${BIN[$new]}/pg_dump" --schema-only --no-publications --no-subscriptions --file="$WORK/raw.sql" \
        "$(cluster_connstr "$o" app)"
    attver="$(grep -c '^ALTER TABLE ONLY .* ALTER COLUMN .* SET (pg_attver=[0-9]*);$' "$WORK/raw.sql")"
    if [[ $old == 15 ]]; then # Debian's 15; version-gates: not a gate
        expect "$label: pg_dump $new of Debian's 15: columns with a pg_attver option" "$attver" -eq 4
        note "$label: e.g. $(grep -m1 'pg_attver' "$WORK/raw.sql")"
        expect_contains "$label: ... which the new server refuses as it is (tried in a scratch database)" \
            "$(cluster_psql "$n" -d postgres -c 'CREATE DATABASE scratch' &&
                cluster_psql "$n" -d scratch -f "$WORK/raw.sql" 2>&1 >/dev/null)" 'unrecognized parameter "pg_attver"'
        cluster_psql "$n" -d postgres -c 'DROP DATABASE scratch' >/dev/null
    else
        expect "$label: pg_dump $new of upstream $old: pg_attver options" "$attver" -eq 0
    fi
    # the recipe, in a directory of its own, with the new major's programs first on PATH
    mkdir -p "$WORK/schema-$o"
    out="$(cd "$WORK/schema-$o" && OLD_DB="$(cluster_connstr "$o" app)" NEW_DB="$(cluster_connstr "$n" app)" \
        PATH="${BIN[$new]}:$PATH" bash -euo pipefail "$RECIPES/upgrade_schema.sh" 2>&1)" || rc=$?
    expect "$label: upgrade_schema.sh (pg_dump $new, pg_attver lines out, psql): exit status" "$rc" -eq 0
    expect_str "$label: ... its output (no error, no warning)" "$out" ""
    expect "$label: ... pg_attver lines left in its schema.sql" "$(grep -c 'pg_attver' "$WORK/schema-$o/schema.sql")" -eq 0
    note "$label: ulid type OID on the old server $(q "$o" "SELECT 'ulid'::regtype::oid"), on the new one $(q "$n" "SELECT 'ulid'::regtype::oid")"
    expect_str "$label: new: items' id default" \
        "$(q "$n" "SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'items'::regclass")" "gen_ulid()"

    writer "$o" &
    local wpid=$!
    until (($(batches) >= 3)); do sleep 0.1; done
    before="$(batches)"
    conn="host=127.0.0.1 port=$(cluster_port "$o") dbname=app user=postgres"
    must "$label: new: upgrade_subscribe.sql with binary=$([[ $mode == binary ]] && echo true || echo false), while the old one takes writes" \
        env PGOPTIONS="-c client_min_messages=warning" "${BIN[$NEWEST]}/psql" -X -q -v ON_ERROR_STOP=1 \
        -v old="$conn" -v binary="$([[ $mode == binary ]] && echo true || echo false)" \
        -f "$RECIPES/upgrade_subscribe.sql" "$(cluster_connstr "$n" app)"
    if wait_for "$n" "SELECT count(*) = 1 AND bool_and(srsubstate = 'r') FROM pg_subscription_rel"; then
        ok "$label: the initial copy is done (table state ready) after $((SECONDS - t0)) s"
    else
        bad "$label: the initial copy did not finish within ${WAIT}s: $(q "$n" "SELECT srsubstate FROM pg_subscription_rel")"
    fi
    ready="$(batches)"
    until (($(batches) >= ready + 10)); do sleep 0.1; done # writes after the initial copy too
    touch "$WORK/stop"
    wait "$wpid"
    after="$(batches)"
    note "$label: write batches (20 inserts, 1 update, 1 delete each): $before before CREATE SUBSCRIPTION, $((ready - before)) until the initial copy was done, $((after - ready)) after it"
    expect "$label: write batches after the initial copy" "$((after - ready))" -ge 10
    expect "$label: failed write batches" "$(grep -c 'failed' < <(cat "$WORK/writer.err" 2>/dev/null))" -eq 0
    [[ ! -s $WORK/writer.err ]] || sed 's/^/#     writer: /' "$WORK/writer.err" | head -n 10

    # cut-over: the old server refuses writes; the new one catches up to its last WAL position
    lsn="$(cluster_psql "$o" -d app -At -f "$RECIPES/upgrade_cutover.sql" | tail -n 1)"
    expect_match "$label: old: upgrade_cutover.sql (read-only from now on; the WAL position: $lsn)" "$lsn" '^[0-9A-F]+/[0-9A-F]+$'
    sleep 0.5
    expect_contains "$label: old: a write after the cut-over is refused (25006)" \
        "$(cluster_psql "$o" -d app -v VERBOSITY=verbose -c "INSERT INTO items (n, note) VALUES (0, 'late')" 2>&1)" "25006"
    if wait_for "$o" "SELECT confirmed_flush_lsn >= '$lsn' FROM pg_replication_slots WHERE slot_name = 'upgrade'"; then
        ok "$label: the new server confirmed the old one's last WAL position ($lsn)"
    else
        bad "$label: the new server did not reach $lsn within ${WAIT}s"
    fi
    local want got
    want="$(q "$o" "SELECT count(*) || ' rows, ' || count(*) FILTER (WHERE n < 0) || ' written during the upgrade, ' ||
                    count(*) FILTER (WHERE note LIKE 'updated%') || ' updated' FROM items")"
    expect_str "$label: new: rows ($want)" "$(q "$n" "SELECT count(*) || ' rows, ' || count(*) FILTER (WHERE n < 0) ||
        ' written during the upgrade, ' || count(*) FILTER (WHERE note LIKE 'updated%') || ' updated' FROM items")" "$want"
    want="$(digest "$o")"
    got="$(digest "$n")"
    if [[ -n $want && $want == "$got" ]]; then
        ok "$label: new: rows identical to the old server's (COPY text, and the 16 bytes of every ulid and ulid[] element)"
    else
        bad "$label: new: rows differ from the old server's ($got, old $want)"
    fi
    expect_str "$label: new: apply and sync errors (pg_stat_subscription_stats)" \
        "$(q "$n" "SELECT sum(e.value::bigint) FROM pg_stat_subscription_stats s, jsonb_each_text(to_jsonb(s)) e
                   WHERE e.key LIKE '%error_count' AND s.subname = 'upgrade'")" "0" # 19: two sync counts

    # what the old server's log shows of the replication
    local slot_cmd copy_cmd
    slot_cmd="$(grep -o 'START_REPLICATION SLOT "upgrade".*' "$(server_log "$o")" | head -n 1)"
    copy_cmd="$(grep -oE 'statement: COPY .*items.* TO STDOUT.*' "$(server_log "$o")" | head -n 1)"
    note "$label: old server's log: $slot_cmd"
    note "$label: old server's log: $copy_cmd"
    if [[ $mode == binary ]] && ((old >= 14)); then
        expect_contains "$label: the changes stream in binary (START_REPLICATION with binary 'true')" "$slot_cmd" "binary 'true'"
    else
        expect_lacks "$label: the changes stream in text (START_REPLICATION without binary$([[ $mode == binary ]] && echo "; the subscriber sends it only to a 14+ publisher"))" \
            "$slot_cmd" "binary"
        expect_contains "$label: ... (the START_REPLICATION command was logged)" "$slot_cmd" "START_REPLICATION"
    fi
    if [[ $mode == binary ]] && ((old >= 16)); then
        expect_contains "$label: the initial copy is binary (a 16+ publisher)" "$copy_cmd" "FORMAT binary"
    else
        expect_lacks "$label: the initial copy is text$([[ $mode == binary ]] && echo " (binary only from a 16+ publisher)")" \
            "$copy_cmd" "binary"
        expect_contains "$label: ... (the COPY command was logged)" "$copy_cmd" "TO STDOUT"
    fi

    # the application moves: the subscription goes, with its slot on the old server
    local top
    top="$(q "$n" "SELECT max(id) FROM items")"
    must "$label: new: upgrade_finish.sql (DROP SUBSCRIPTION)" \
        env PGOPTIONS="-c client_min_messages=warning" "${BIN[$NEWEST]}/psql" -X -q -v ON_ERROR_STOP=1 \
        -f "$RECIPES/upgrade_finish.sql" "$(cluster_connstr "$n" app)"
    expect "$label: old: replication slots left" "$(q "$o" "SELECT count(*) FROM pg_replication_slots")" -eq 0
    must "$label: new: 1000 rows with DEFAULT gen_ulid() after the cut-over" \
        q "$n" "INSERT INTO items (n, note) SELECT g, 'after the cut-over' FROM generate_series(1, 1000) g"
    expect "$label: new: keys made after the cut-over not above every replicated key ($top)" \
        "$(q "$n" "SELECT count(*) FROM items WHERE note = 'after the cut-over' AND id <= '$top'")" -eq 0
    expect "$label: new: replicated keys at or above the first key made after it" \
        "$(q "$n" "SELECT count(*) FROM items WHERE note <> 'after the cut-over'
                   AND id >= (SELECT min(id) FROM items WHERE note = 'after the cut-over')")" -eq 0
    stop_server "$o"
    stop_server "$n"
    note "$label: took $((SECONDS - t0)) s"
}

if [[ ${ULID_IN_CHROOT:-} == 1 ]]; then
    upgrade 18 19 text
    upgrade 18 19 binary
    upgrade 15 19 text
    upgrade 15 19 binary
    note "logical-upgrade suite took $((SECONDS - T0)) s"
    checks_summary
    exit
fi
upgrade 15 18 text
upgrade 15 18 binary
upgrade 13 17 text
upgrade 13 17 binary
if [[ -n ${BIN[14]:-} && -n ${BIN[16]:-} ]]; then
    upgrade 14 16 binary
    upgrade 16 18 binary
else
    note "14 -> 16 and 16 -> 18 (binary) not run: PostgreSQL 14 or 16 is not built (scripts/build/pg-build, ULID_PG_SRC_DIR)"
fi

note "logical-upgrade suite took $((SECONDS - T0)) s"
checks_summary
