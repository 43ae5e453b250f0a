# shellcheck shell=bash
# scripts/lib.sh: helpers shared by scripts/test and scripts/demo. Source it; don't run it.
#
#   ulid_ensure_packages [PKG..]  install whatever is missing among PKG.. (default: ULID_PACKAGES)
#                          with apt-get, as root or via sudo
#   ulid_build_install     make -j2 and make install against PostgreSQL $ULID_PG_MAJOR
#   ulid_virtualenv CMD..  run CMD inside a throwaway PostgreSQL cluster (pg_virtualenv), PG* env set
#   ulid_log/ulid_warn/ulid_die/ulid_section   logging
#
# Sourcing sets `set -euo pipefail` and ULID_ROOT (the repository root, whatever the caller's cwd).

set -euo pipefail

ULID_ROOT="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)"
ULID_PG_MAJOR="${ULID_PG_MAJOR:-15}"
ULID_PACKAGES=(
    "postgresql-$ULID_PG_MAJOR"
    "postgresql-server-dev-$ULID_PG_MAJOR"
    postgresql-contrib
    libgtest-dev
    build-essential
    g++
    clang-14
    llvm-14
    libclang-rt-14-dev # libFuzzer and the sanitizer runtimes for clang (test/fuzz)
    valgrind           # memcheck of the unit tests (make -C test/unit valgrind)
    make
)
# the drivers and ORMs of test/suites/clients.sh (npm packages come from clients/node/package-lock.json;
# nodejs from the machine or Debian, npm from Debian only where no npm is on PATH)
ULID_CLIENT_PACKAGES=(
    python3-psycopg python3-psycopg2 python3-asyncpg python3-sqlalchemy python3-django
    libpostgresql-jdbc-java default-jdk-headless
    golang-go golang-github-jackc-pgx-v4-dev
    ruby-pg
    nodejs
)
ULID_PACKAGES+=("${ULID_CLIENT_PACKAGES[@]}")
export ULID_ROOT ULID_PG_MAJOR

# ---------------------------------------------------------------------------------------------
# logging

ulid_log() { printf '==> %s\n' "$*"; }
ulid_warn() { printf 'WARNING: %s\n' "$*" >&2; }
ulid_die() {
    printf 'ERROR: %s\n' "$*" >&2
    exit 1
}
ulid_section() { printf '\n======== %s ========\n' "$*"; }

# Run a command as root: directly when we are root, otherwise through sudo (non-interactive sudo
# when there is no terminal to ask for a password on).
ulid_as_root() {
    if [[ $(id -u) -eq 0 ]]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        if [[ -t 0 ]]; then sudo -- "$@"; else sudo -n -- "$@"; fi
    else
        ulid_warn "not root and no sudo: cannot run: $*"
        return 1
    fi
}

# ulid_timeout SECONDS CMD...: run CMD with a time limit (a bound on a stage, not an assertion).
# Normally timeout(1) runs CMD in a process group of its own and, at the limit, stops the whole
# group. With ULID_INTERACTIVE=1 (set by scripts/test when started from a terminal) it stays in the
# terminal's foreground group instead, so that Ctrl-C reaches every process at once (and
# pg_virtualenv still drops its cluster).
ulid_timeout() {
    local secs="$1"
    shift
    if [[ ${ULID_INTERACTIVE:-} == 1 ]]; then
        timeout --foreground -k 30 "$secs" "$@"
    else
        timeout -k 30 "$secs" "$@"
    fi
}

# ---------------------------------------------------------------------------------------------
# packages

# ulid_missing_packages [PKG..]: those of PKG.. (default: ULID_PACKAGES) that are not installed
ulid_missing_packages() {
    local p status
    local -a pkgs=("$@")
    ((${#pkgs[@]})) || pkgs=("${ULID_PACKAGES[@]}")
    for p in "${pkgs[@]}"; do
        status="$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)"
        [[ $status == ii* ]] || printf '%s\n' "$p"
    done
}

# ulid_ensure_packages [PKG..]: install those of PKG.. (default: ULID_PACKAGES) that are missing
# shellcheck disable=SC2120 # the arguments are optional
ulid_ensure_packages() {
    local missing=()
    local -a pkgs=("$@")
    ((${#pkgs[@]})) || pkgs=("${ULID_PACKAGES[@]}")
    mapfile -t missing < <(ulid_missing_packages "${pkgs[@]}")
    if ((${#missing[@]} == 0)); then
        ulid_log "packages: all present (${pkgs[*]})"
        return 0
    fi
    ulid_log "packages: installing ${missing[*]}"
    # (explicit "|| return": errexit is off when a caller tests this function with if/||)
    ulid_as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 update -qq </dev/null || return
    ulid_as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq \
        -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
        --no-install-recommends "${missing[@]}" </dev/null || return
    mapfile -t missing < <(ulid_missing_packages "${pkgs[@]}")
    if ((${#missing[@]} != 0)); then
        ulid_warn "packages still missing after apt-get install: ${missing[*]}"
        return 1
    fi
}

# ---------------------------------------------------------------------------------------------
# build

# The pg_config of PostgreSQL $ULID_PG_MAJOR, explicitly (never "whatever is newest").
ulid_pg_config() {
    local c
    for c in "/usr/lib/postgresql/$ULID_PG_MAJOR/bin/pg_config" /usr/bin/pg_config; do
        if [[ -x $c ]] && [[ "$("$c" --version 2>/dev/null)" == "PostgreSQL $ULID_PG_MAJOR."* ]]; then
            printf '%s\n' "$c"
            return 0
        fi
    done
    ulid_warn "no pg_config for PostgreSQL $ULID_PG_MAJOR found"
    return 1
}

ulid_pg_bindir() {
    local pgc
    pgc="$(ulid_pg_config)" || return 1
    "$pgc" --bindir
}

ulid_build_install() {
    local pgc
    pgc="$(ulid_pg_config)" || return 1
    ulid_log "build: make -j2 PG_CONFIG=$pgc"
    make -C "$ULID_ROOT" -j2 PG_CONFIG="$pgc" || return
    ulid_log "install: make install PG_CONFIG=$pgc"
    ulid_as_root make -C "$ULID_ROOT" install PG_CONFIG="$pgc" || return
}

# ---------------------------------------------------------------------------------------------
# throwaway clusters

# A TCP port that nothing listens on (random, to keep concurrent runs apart).
ulid_free_port() {
    local used=" " f laddr st port _
    for f in /proc/net/tcp /proc/net/tcp6; do
        [[ -r $f ]] || continue
        while read -r _ laddr _ st _; do
            [[ $st == 0A ]] && used+="$((16#${laddr##*:})) "
        done < <(tail -n +2 "$f")
    done
    for _ in $(seq 1 100); do
        port=$((20000 + RANDOM % 30000))
        [[ $used == *" $port "* ]] && continue
        [[ -e /var/run/postgresql/.s.PGSQL.$port.lock || -e /tmp/.s.PGSQL.$port.lock ]] && continue
        printf '%s\n' "$port"
        return 0
    done
    printf '5432\n'
}

# ulid_virtualenv CMD [ARGS...]
# Runs CMD inside a fresh PostgreSQL $ULID_PG_MAJOR cluster made by pg_virtualenv, with PGHOST,
# PGPORT, PGUSER (a superuser), PGPASSWORD, PGDATABASE and PG_CONFIG set. The cluster lives in a
# temporary directory (-t, also as root: no clash with /etc/postgresql/*/regress or with another run)
# and pg_virtualenv drops it when CMD exits, whatever the exit status. Returns CMD's status.
# The cluster is always created with locale C.UTF-8 and encoding UTF8, whatever the caller's locale
# (which could be unset, giving SQL_ASCII, or not installed, which pg_createcluster refuses); CMD
# runs with the caller's locale variables as they were.
# If the cluster itself fails to come up (e.g. a port taken in between), it retries on another port.
# ULID_PGVE_OPTS (array) adds pg_virtualenv options (e.g. -o guc=value); ULID_PGVE_TIMEOUT (seconds,
# 0 = none; default 1800) bounds the whole session.
ulid_virtualenv() {
    local marker attempt port rc
    local -a opts=() limit=()
    if declare -p ULID_PGVE_OPTS >/dev/null 2>&1; then opts=("${ULID_PGVE_OPTS[@]}"); fi
    if [[ ${ULID_PGVE_TIMEOUT:-1800} != 0 ]]; then limit=(ulid_timeout "${ULID_PGVE_TIMEOUT:-1800}"); fi
    marker="$(mktemp -t ulid-pgve.XXXXXX)"
    for attempt in 1 2 3; do
        rm -f "$marker"
        port="$(ulid_free_port)"
        rc=0
        # shellcheck disable=SC2016 # expanded by the inner bash, on purpose
        "${limit[@]}" env -u PGCLUSTER -u PGSERVICE -u PGSERVICEFILE -u PGOPTIONS -u PGHOSTADDR \
            -u PGDATA -u PGSYSCONFDIR -u PG_CLUSTER_CONF_ROOT \
            PGPORT="$port" ULID_PGVE_MARKER="$marker" \
            ULID_PGVE_LC_ALL="${LC_ALL-}" ULID_PGVE_HAD_LC_ALL="${LC_ALL+1}" LC_ALL=C.UTF-8 \
            pg_virtualenv -t -v "$ULID_PG_MAJOR" "${opts[@]}" \
            bash -c ': >"$ULID_PGVE_MARKER"
                     if [ -n "$ULID_PGVE_HAD_LC_ALL" ]; then export LC_ALL="$ULID_PGVE_LC_ALL"; else unset LC_ALL; fi
                     unset ULID_PGVE_MARKER ULID_PGVE_LC_ALL ULID_PGVE_HAD_LC_ALL
                     exec "$@"' ulid-virtualenv "$@" ||
            rc=$?
        if [[ -e $marker ]]; then
            rm -f "$marker"
            return "$rc"
        fi
        ulid_warn "throwaway cluster did not start (attempt $attempt, port $port, exit $rc)"
    done
    return "${rc:-1}"
}
