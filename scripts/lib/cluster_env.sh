#!/usr/bin/env bash
# scripts/lib/cluster_env.sh: run a command inside a throwaway cluster of the server in ULID_PG_BINDIR.
#
#   ULID_PG_BINDIR=/var/cache/ulid-pg/17.11/bin scripts/lib/cluster_env.sh [-o 'guc = value']... CMD [ARGS...]
#
# What pg_virtualenv does for Debian's packaged servers, for servers built from source (scripts/lib/common.sh's
# ulid_virtualenv calls it for those): one cluster from scripts/lib/cluster.sh (loopback, trust, the
# postgres superuser, locale C.UTF-8, UTF8), CMD run as the caller with PGHOST, PGPORT, PGUSER,
# PGPASSWORD, PGDATABASE and PG_CONFIG set for it, the cluster stopped and removed when CMD ends
# (or this script is stopped). -o adds a postgresql.conf line. Exits with CMD's status.
set -euo pipefail
: "${ULID_PG_BINDIR:?set ULID_PG_BINDIR to the bin directory of the server}"
conf=()
while [[ ${1:-} == -o ]]; do
    conf+=("$2")
    shift 2
done
(($# > 0)) || {
    echo "usage: $0 [-o 'guc = value']... CMD [ARGS...]" >&2
    exit 2
}

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/common.sh"
# shellcheck source-path=SCRIPTDIR source=cluster.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/cluster.sh"
trap 'exit 143' TERM # so that cluster.sh's EXIT trap removes the cluster on timeout(1) too
trap 'exit 130' INT

cluster_init venv
((${#conf[@]} == 0)) || cluster_conf venv "${conf[@]}"
cluster_start venv
rc=0
PGHOST=127.0.0.1 PGPORT="$(cluster_port venv)" PGUSER=postgres PGPASSWORD=unused PGDATABASE=postgres \
    PG_CONFIG="$ULID_PG_BINDIR/pg_config" "$@" || rc=$?
exit "$rc"
