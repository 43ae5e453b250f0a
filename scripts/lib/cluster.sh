# shellcheck shell=bash
# scripts/lib/cluster.sh: throwaway PostgreSQL servers for scripts/demo (through cluster_env.sh, on
# the servers built from source) and scripts/bench, bench-uuidv7 (source it; bash only). The tests
# use PostgreSQL's own: PostgreSQL::Test::Cluster (t/*.pl) and pg_regress --temp-instance.
#
# Each cluster lives in a temporary directory, listens on 127.0.0.1 and a Unix socket in that
# directory, on a free port, with trust authentication for the superuser "postgres". As root the
# server runs as the "postgres" OS user (initdb refuses root). Every cluster started here is stopped
# and removed when the sourcing shell exits.
#
#   cluster_init NAME [initdb args...]    create (not start); prints nothing
#   cluster_conf NAME 'guc = value' ...   append lines to postgresql.conf
#   cluster_start NAME | cluster_stop NAME [fast|immediate] | cluster_restart NAME
#                                         (cluster_start moves to another free port and retries when
#                                         the server cannot bind its port)
#   cluster_port NAME | cluster_dir NAME (data directory) | cluster_host NAME (socket directory)
#   cluster_psql NAME [psql args...]      psql -X -q -v ON_ERROR_STOP=1 as postgres on NAME
#   cluster_run NAME CMD...               run CMD as the server's OS user with PG* set for NAME
#   cluster_log NAME                      the server log file
#
# Needs scripts/lib/common.sh sourced first (ulid_free_port).
# Environment: ULID_PG_BINDIR, the server's bin directory (ulid_virtualenv and the bench scripts set
# it to the major they run; default: $PG_CONFIG --bindir, else Debian's PostgreSQL 15, else the pg_config
# on PATH).

if [[ -z ${ULID_PG_BINDIR:-} ]]; then
    if [[ -n ${PG_CONFIG:-} ]]; then
        ULID_PG_BINDIR="$("$PG_CONFIG" --bindir)"
    elif [[ -x /usr/lib/postgresql/15/bin/pg_config ]]; then
        ULID_PG_BINDIR=/usr/lib/postgresql/15/bin
    else
        ULID_PG_BINDIR="$(pg_config --bindir)"
    fi
fi

_CLUSTER_ROOT="$(mktemp -d -t ulid-clusters.XXXXXX)"
chmod 755 "$_CLUSTER_ROOT"
declare -A _CLUSTER_PORT=()
_CLUSTER_NAMES=()

_cluster_as_owner() {
    if ((EUID == 0)); then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

cluster_dir() { echo "$_CLUSTER_ROOT/$1/data"; }
cluster_host() { echo "$_CLUSTER_ROOT/$1"; }
cluster_port() { echo "${_CLUSTER_PORT[$1]}"; }
cluster_log() { echo "$_CLUSTER_ROOT/$1/server.log"; }

cluster_init() {
    local name="$1" port
    shift
    port="$(ulid_free_port)" || {
        echo "cluster_init: no free port" >&2
        return 1
    }
    mkdir -p "$_CLUSTER_ROOT/$name"
    ((EUID == 0)) && chown postgres: "$_CLUSTER_ROOT/$name"
    _cluster_as_owner "$ULID_PG_BINDIR/initdb" -D "$(cluster_dir "$name")" -U postgres -A trust \
        --locale=C.UTF-8 -E UTF8 "$@" >"$_CLUSTER_ROOT/$name/initdb.log" 2>&1 || {
        cat "$_CLUSTER_ROOT/$name/initdb.log" >&2
        return 1
    }
    _CLUSTER_PORT[$name]="$port"
    _CLUSTER_NAMES+=("$name")
    cluster_conf "$name" "port = $port" "listen_addresses = '127.0.0.1'" \
        "unix_socket_directories = '$(cluster_host "$name")'" "fsync = off" \
        "log_min_messages = warning"
}

cluster_conf() {
    local name="$1" line
    shift
    for line in "$@"; do
        _cluster_as_owner sh -c 'printf "%s\n" "$1" >> "$2"' _ "$line" "$(cluster_dir "$name")/postgresql.conf"
    done
}

cluster_start() {
    local name="$1" attempt port
    for attempt in 1 2 3 4 5; do
        if _cluster_as_owner "$ULID_PG_BINDIR/pg_ctl" -D "$(cluster_dir "$name")" \
            -l "$(cluster_log "$name")" -w -t 60 start >/dev/null; then
            return 0
        fi
        if ! tail -n 20 "$(cluster_log "$name")" | grep -q "could not bind\|could not create any TCP/IP sockets" ||
            ((attempt == 5)); then
            break
        fi
        port="$(ulid_free_port)" || break
        echo "# $name: port ${_CLUSTER_PORT[$name]} was taken; moving to $port" >&2
        _CLUSTER_PORT[$name]="$port"
        cluster_conf "$name" "port = $port"
    done
    echo "cluster_start $name: failed; log follows" >&2
    tail -n 30 "$(cluster_log "$name")" >&2
    return 1
}

cluster_stop() {
    _cluster_as_owner "$ULID_PG_BINDIR/pg_ctl" -D "$(cluster_dir "$1")" -m "${2:-fast}" -w -t 60 \
        stop >/dev/null
}

cluster_restart() {
    cluster_stop "$1" && cluster_start "$1"
}

cluster_psql() {
    local name="$1"
    shift
    "$ULID_PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "${_CLUSTER_PORT[$name]}" \
        -U postgres "$@"
}

cluster_run() {
    local name="$1"
    shift
    PGHOST=127.0.0.1 PGPORT="${_CLUSTER_PORT[$name]}" PGUSER=postgres PGDATABASE=postgres "$@"
}

_cluster_cleanup() {
    local name
    for name in "${_CLUSTER_NAMES[@]}"; do
        if [[ -f "$(cluster_dir "$name")/postmaster.pid" ]]; then
            _cluster_as_owner "$ULID_PG_BINDIR/pg_ctl" -D "$(cluster_dir "$name")" -m immediate -w \
                stop >/dev/null 2>&1 || true
        fi
    done
    rm -rf "$_CLUSTER_ROOT"
}
trap _cluster_cleanup EXIT
