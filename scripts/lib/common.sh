# shellcheck shell=bash disable=SC2034 # (the lists and settings here are for the scripts that source it)
# scripts/lib/common.sh: helpers shared by scripts/test and scripts/demo. Source it; don't run it.
#
#   ulid_ensure_packages [PKG..]  install whatever is missing among PKG.. (default: ULID_PACKAGES)
#                          with apt-get, as root or via sudo
#   ulid_pg_source_built MAJOR    true when MAJOR is one scripts/build/pg-build makes (scripts/pins/pg-versions)
#   ulid_pg_ensure_server  make sure PostgreSQL $ULID_PG_MAJOR is there (scripts/build/pg-build if needed)
#   ulid_pg_config / ulid_pg_bindir   pg_config / bindir of PostgreSQL $ULID_PG_MAJOR
#   ulid_build_tree NAME   a new directory to compile a source tree in (in RAM when there is room)
#   ulid_build_install [PG_CONFIG [TREE]]   make -j2 and make install against PostgreSQL
#                          $ULID_PG_MAJOR (or PG_CONFIG's server; in TREE), and remove the
#                          ulid--*.sql there that this tree does not have
#   ulid_copy_tree DEST [TAR-OPTION...]   this tree, without build outputs, copied to DEST
#   ulid_tap_tree DEST / ulid_tap_ports   the copy the TAP suites run in (postgres's when root) /
#                          the directory their nodes note their ports in
#   ulid_virtualenv CMD..  run CMD inside a throwaway PostgreSQL $ULID_PG_MAJOR cluster, PG* env set
#   ulid_log/ulid_warn/ulid_die/ulid_section   logging
#
# Sourcing sets `set -euo pipefail` and ULID_ROOT (the repository root, whatever the caller's cwd).
# ULID_PG_MAJOR (default 15, Debian 12's own server) picks the PostgreSQL major; the majors pinned in
# scripts/pins/pg-versions (13, 14, 16, 17, 18) are built from pinned upstream sources into $ULID_PG_CACHE.

set -euo pipefail

ULID_ROOT="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)"
ULID_PG_MAJOR="${ULID_PG_MAJOR:-15}"
# The test tiers (scripts/test --tier; docs/development.md, "Tiers") and the Debian packages each
# needs. Every tier but unit also needs the server under test with its headers (ulid_pg_packages).
ULID_TIERS=(unit static server packaging clients)
# what builds the extension (and the C++ core's tests)
ULID_BUILD_TOOLS=(build-essential g++ make)
# unit: the C++ core's unit tests (GoogleTest, sanitizers), valgrind memcheck, a short fuzz (clang's libFuzzer)
ULID_UNIT_PACKAGES=(libgtest-dev "${ULID_BUILD_TOOLS[@]}" clang-14 llvm-14 libclang-rt-14-dev valgrind)
# static: checks of the tree's text (test/suites/*.pl whose header says "Tier: static"; TAP files,
# on Perl's IPC::Run like every suite)
ULID_STATIC_PACKAGES=(shellcheck python3 git libipc-run-perl)
# server: pg_regress and the TAP suites t/*.pl (PostgreSQL::Test::Cluster needs Perl's IPC::Run)
ULID_SERVER_PACKAGES=("${ULID_BUILD_TOOLS[@]}" libipc-run-perl)
# what some server-tier suites use besides, each skipping with the package's name without it:
# pgbouncer (t/060_pooler.pl), sqlsmith (t/220_sqlsmith.pl), and for Debian's servers pg_cron and
# pg_partman (t/100_partitioning.pl; scripts/test adds those per major). A run of every tier installs them.
ULID_SERVER_EXTRA_PACKAGES=(pgbouncer sqlsmith)
# clients: the drivers and ORMs of t/350_clients.pl (npm packages come from
# clients/node/package-lock.json; nodejs from the machine or Debian, npm from Debian only where no
# npm is on PATH)
ULID_CLIENT_PACKAGES=(
    python3-psycopg python3-psycopg2 python3-asyncpg python3-sqlalchemy python3-django
    libpostgresql-jdbc-java default-jdk-headless
    golang-go golang-github-jackc-pgx-v4-dev
    ruby-pg ruby-activerecord
    librust-tokio-postgres-dev librust-postgres-types-dev librust-futures-util-dev librust-tokio-dev cargo
    nodejs
)
# The tiers whose suites run on the host's servers only, never in the pass of a major in the sid
# chroot (19): the clients tier. The drivers meet the server only through the wire protocol and the
# type's text and binary I/O, the same C on every major, which pg_regress checks in every pass;
# running them in the chroot too would install the six languages' toolchains there (most of its
# packages) and compile every check program a second time. scripts/pins/sid-packages therefore
# carries none of ULID_CLIENT_PACKAGES (test/suites/version_gates.pl checks both).
ULID_HOST_ONLY_TIERS=(clients)
# ulid_tier_in_chroot TIER: true when the suites of TIER run in a pass inside the sid chroot
ulid_tier_in_chroot() { [[ " ${ULID_HOST_ONLY_TIERS[*]} " != *" $1 "* ]]; }
# packaging: scripts/package and the suites of the packages: building the Debian packages
# (debhelper, pg_buildext from postgresql-server-dev-all, the server and its contrib for the
# build-time tests from postgresql-all), checking them (lintian, autopkgtest), PGXN's client
# (pgxnclient), the install steps the docs show (unzip, git); the suites are TAP files (IPC::Run)
ULID_PACKAGING_PACKAGES=(dpkg-dev debhelper postgresql-server-dev-all postgresql-all lintian autopkgtest pgxnclient
    unzip git libipc-run-perl)
ULID_PG_CACHE="${ULID_PG_CACHE:-/var/cache/ulid-pg}" # servers built by scripts/build/pg-build
# What scripts/build/pg-build and scripts/build/citus-build build with (each installs them itself;
# scripts/test installs them before the rest, so that the background builds start early)
ULID_PG_BUILD_DEPS=(build-essential bison flex pkg-config libreadline-dev zlib1g-dev libssl-dev libicu-dev
    curl ca-certificates debian-archive-keyring xz-utils libipc-run-perl)
ULID_CITUS_BUILD_DEPS=(build-essential liblz4-dev libzstd-dev xz-utils)
# The majors CI runs (`scripts/test --pg all`, .ci/run); scripts/version-gates checks every
# version gate in the tree against this list.
ULID_CI_MAJORS=(13 14 15 16 17 18 19)
# The light pass of 13, 14, 16, 17 and 18 (scripts/test). The full passes, which run every suite,
# are Debian's 15 (the server the packages are built for, on the host) and 19 (the next, in the sid
# chroot).
# In a light pass a suite runs when the major is a side of one of the suite's own version gates
# (N - 1 or N for a gate at N, as scripts/version-gates --sides lists them), so that each branch
# a suite takes by the server's version runs on both sides; a suite without such a gate tests what
# is the same code on every major (drivers, replication, random SQL, the generators' concurrency,
# memory and fork safety, packaging tools, crash recovery, a pooler, the install recipes, pg_tle),
# and the full passes run it. The suites of ULID_EVERY_MAJOR run in every pass all the same:
#   - upgrade_paths, owner_update_guard: every install and update script on every major (their
#     gates at 14 and 18 are in the scripts, not in the suites);
#   - monotonic_shared: the shared memory of src/pg/shared_state.cpp, whose gates are in C (in a
#     light pass its pgbench rounds last 2 s, not 5: ULID_MONO_SECONDS, set by scripts/test);
#   - docs_examples: every page's examples, whose output differs between majors;
#   - portable_*: the portable edition, plain SQL that each major's parser and catalog take or not;
#   - release_binaries: the release binary of that major;
#   - pg_upgrade, logical_upgrade: they run across majors, in the pass of the newest source-built
#     major (18) on the host and of 19 in the chroot, and skip themselves in the others;
#   - citus: Citus is built for 17 only (scripts/pins/citus-version).
# pg_regress runs in every pass. A suite left out is counted as skipped, saying so; neither pg_tle
# nor pg_partman is built for a pass that leaves its suite out. ULID_FULL_PASS=1 runs every suite on
# every major.
ULID_LIGHT_MAJORS=(13 14 16 17 18)
ULID_EVERY_MAJOR=(upgrade_paths owner_update_guard monotonic_shared docs_examples portable_differential
    portable_install_guard portable_migration release_binaries pg_upgrade logical_upgrade citus)
# ulid_suite_file SUITE: the file of the suite SUITE in the tree, t/NNN_<name>.pl or test/suites/<name>.pl
# (the names of scripts/test's suite_files)
ulid_suite_file() {
    local f
    for f in "$ULID_ROOT"/t/[0-9][0-9][0-9]_"$1".pl "$ULID_ROOT/test/suites/$1.pl"; do
        [[ -f $f ]] && printf '%s\n' "${f#"$ULID_ROOT"/}" && return 0
    done
    return 1
}
# ulid_light_major MAJOR: true when MAJOR's pass is a light one (ULID_FULL_PASS=1 makes none light)
ulid_light_major() { [[ ${ULID_FULL_PASS:-} != 1 && " ${ULID_LIGHT_MAJORS[*]} " == *" $1 "* ]]; }
# ulid_light_pass SUITE MAJOR: true when SUITE is left out of MAJOR's pass. When the suite's gates
# cannot be read (no such suite, version-gates failed), it is not left out.
ulid_light_pass() {
    local file sides
    ulid_light_major "$2" || return 1
    [[ " ${ULID_EVERY_MAJOR[*]} " != *" $1 "* ]] || return 1
    file="$(ulid_suite_file "$1")" || return 1
    sides="$(python3 "$ULID_ROOT/scripts/version-gates" --root "$ULID_ROOT" --sides "$file")" || return 1
    [[ $'\n'$sides$'\n' != *$'\n'$2$'\n'* ]]
}
export ULID_ROOT ULID_PG_MAJOR ULID_PG_CACHE

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
# PostgreSQL majors built from source (scripts/pins/pg-versions, scripts/build/pg-build)

# ulid_pg_pin MAJOR: prints "version suite sha256" of MAJOR's line in scripts/pins/pg-versions
ulid_pg_pin() {
    awk -v m="$1" '$1 == m { print $2, $3, $4; found = 1; exit } END { exit !found }' \
        "$ULID_ROOT/scripts/pins/pg-versions"
}

ulid_pg_source_built() { ulid_pg_pin "$1" >/dev/null; }

# ulid_pg_in_chroot MAJOR: true when MAJOR's server runs in the sid chroot (scripts/sid-chroot:
# its postgresql-MAJOR is pinned in scripts/pins/sid-packages and it is not built here from source),
# and we are not inside that chroot already (ULID_IN_CHROOT=1, set by scripts/test there)
ulid_pg_in_chroot() {
    [[ ${ULID_IN_CHROOT:-} != 1 ]] && ! ulid_pg_source_built "$1" &&
        awk -v p="postgresql-$1" '$1 == p { f = 1 } END { exit !f }' "$ULID_ROOT/scripts/pins/sid-packages"
}

# ulid_pg_packages MAJOR: the Debian packages MAJOR needs. Debian 12's own server (15) comes with
# its headers and contrib; a source-built major needs none (scripts/build/pg-build installs its build
# dependencies itself).
ulid_pg_packages() {
    ulid_pg_source_built "$1" && return 0
    printf '%s\n' "postgresql-$1" "postgresql-server-dev-$1" postgresql-contrib
}

# ulid_citus_pin: prints "version source sha256 supports built-for" of scripts/pins/citus-version
ulid_citus_pin() {
    awk '!/^#/ && NF >= 5 { print $1, $2, $3, $4, $5; found = 1; exit } END { exit !found }' \
        "$ULID_ROOT/scripts/pins/citus-version"
}

# ulid_citus_supports MAJOR: true when the pinned Citus supports MAJOR ("15-17")
ulid_citus_supports() {
    local _ supports
    read -r _ _ _ supports _ < <(ulid_citus_pin) || return 1
    (($1 >= ${supports%-*} && $1 <= ${supports#*-}))
}

# ulid_pgtle_pin MAJOR: "tarball sha256 majors" of scripts/pins/pgtle-version's tree for MAJOR (none:
# status 1)
ulid_pgtle_pin() {
    awk -v m="$1" '!/^#/ && NF >= 3 { split($3, r, "-"); if (m + 0 >= r[1] + 0 && m + 0 <= r[2] + 0) { print; found = 1; exit } }
                   END { exit !found }' "$ULID_ROOT/scripts/pins/pgtle-version"
}

# ulid_pgtle_built_for MAJOR: true when scripts/test builds pg_tle for MAJOR (a tree is pinned for
# it, and t/180_pg_tle.pl is not left out of its pass by the light pass)
ulid_pgtle_built_for() { ulid_pgtle_pin "$1" >/dev/null && ! ulid_light_pass pg_tle "$1"; }

# ulid_citus_built_for MAJOR: true when scripts/test builds and installs Citus for MAJOR
ulid_citus_built_for() {
    local _ for
    read -r _ _ _ _ for < <(ulid_citus_pin) || return 1
    [[ ,$for, == *",$1,"* ]]
}

mapfile -t ULID_PACKAGES < <(ulid_pg_packages "$ULID_PG_MAJOR")
# What building and installing the extension alone needs (scripts/demo): no test tools, no clients.
ULID_BUILD_PACKAGES=("${ULID_PACKAGES[@]}" "${ULID_BUILD_TOOLS[@]}")

# ulid_build_tree NAME: make a new empty directory to unpack and compile a source tree in, and print
# its path: under $ULID_BUILD_TMP (default /dev/shm, a RAM filesystem) when that is a writable
# directory with 4 GiB free, else under ${TMPDIR:-/tmp}. A compile writes and removes thousands of
# files, which on a disk costs CPU too: a 16.13 build took 13% less CPU in RAM
# (bench/results/ci.md). The builders stage their install on the cache's
# own disk, so that the last step stays an atomic rename; the caller removes the directory.
ulid_build_tree() {
    local ram="${ULID_BUILD_TMP-/dev/shm}" free
    if [[ -n $ram && -d $ram && -w $ram ]]; then
        free="$(df -Pk -- "$ram" 2>/dev/null | awk 'NR == 2 { print $4 }')" || free=0 # (df failed)
        if ((${free:-0} >= 4 * 1024 * 1024)); then
            mktemp -d "$ram/ulid-build-$1.XXXXXX"
            return
        fi
    fi
    mktemp -d "${TMPDIR:-/tmp}/ulid-build-$1.XXXXXX"
}

# ulid_pg_ensure_server: build PostgreSQL $ULID_PG_MAJOR when it is a source-built major (cached:
# instant when done before); Debian's packaged majors come from ulid_ensure_packages. Returns 77
# when the major cannot be built here (a local source without ULID_PG_SRC_DIR; pg-build says why).
ulid_pg_ensure_server() {
    ulid_pg_source_built "$ULID_PG_MAJOR" || return 0
    bash "$ULID_ROOT/scripts/build/pg-build" "$ULID_PG_MAJOR" >/dev/null
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
# release tags: some suites build earlier releases from their tags (v0.1.0, v0.2.0, ...): the
# previous release's Debian package, v0.2.0's library beside this one. scripts/pins/releases lists each
# release with its commit on main; a clone that has the commits but not the tags (CI's clone of
# main, a mirror of branches only) gets the missing tags made from that list. A listed commit
# that is not in the clone (a shallow clone) is fetched with the tags from its remote when there
# is one. Returns 1, naming the tag, when a tag names another commit than the list or stays
# missing (the suites that need it then fail saying which one).
ulid_release_list() {
    sed -e 's/#.*//' "$ULID_ROOT/scripts/pins/releases" | awk 'NF >= 2 { print $1, $2 }'
}

ulid_ensure_release_tags() {
    local version commit have rc=0
    git -C "$ULID_ROOT" rev-parse --git-dir >/dev/null 2>&1 || return 0
    # a listed commit missing (a shallow clone): the remote's tags bring the commits, once
    while read -r version commit; do
        git -C "$ULID_ROOT" cat-file -e "$commit^{commit}" 2>/dev/null && continue
        ulid_log "release tags: commit $commit of $version is not in this clone; git fetch --tags"
        git -C "$ULID_ROOT" fetch --quiet --tags 2>/dev/null || ulid_warn "release tags: git fetch --tags failed"
        break
    done < <(ulid_release_list)
    while read -r version commit; do
        if have="$(git -C "$ULID_ROOT" rev-parse -q --verify "refs/tags/v$version^{commit}" 2>/dev/null)"; then
            if [[ $have != "$commit" ]]; then
                ulid_warn "release tags: v$version names $have, scripts/pins/releases says $commit"
                rc=1
            fi
        elif git -C "$ULID_ROOT" cat-file -e "$commit^{commit}" 2>/dev/null &&
            git -C "$ULID_ROOT" tag "v$version" "$commit"; then
            ulid_log "release tags: v$version made at $commit (scripts/pins/releases)"
        else
            ulid_warn "release tags: v$version is missing and its commit $commit is not in this clone"
            rc=1
        fi
    done < <(ulid_release_list)
    return "$rc"
}

# ---------------------------------------------------------------------------------------------
# build

# The pg_config of PostgreSQL $ULID_PG_MAJOR, explicitly (never "whatever is newest"): the
# source-built server of the pinned version for majors in scripts/pins/pg-versions, else Debian's.
ulid_pg_config() {
    local c version _
    if ulid_pg_source_built "$ULID_PG_MAJOR"; then
        read -r version _ < <(ulid_pg_pin "$ULID_PG_MAJOR")
        c="$ULID_PG_CACHE/$version/bin/pg_config"
        if [[ -x $c ]]; then
            printf '%s\n' "$c"
            return 0
        fi
        ulid_warn "PostgreSQL $version is not built yet (scripts/build/pg-build $ULID_PG_MAJOR makes $c)"
        return 1
    fi
    for c in "/usr/lib/postgresql/$ULID_PG_MAJOR/bin/pg_config" /usr/bin/pg_config; do
        if [[ -x $c ]] && [[ "$("$c" --version 2>/dev/null)" =~ ^PostgreSQL\ $ULID_PG_MAJOR(\.|beta|rc) ]]; then # 19rc1 too
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

# ulid_build_install [PG_CONFIG [TREE]]: make and make install in TREE (default: this tree) against
# PG_CONFIG's server (default: PostgreSQL $ULID_PG_MAJOR's), then remove the server's stale
# scripts. (Objects built against another server's headers are compiled again by the Makefile
# itself: .build-flavour.) ULID_WERROR=1 makes warnings errors (scripts/test sets it).
ulid_build_install() {
    local pgc="${1:-}" tree="${2:-$ULID_ROOT}"
    if [[ -z $pgc ]]; then pgc="$(ulid_pg_config)" || return 1; fi
    ulid_log "build: make -j2 PG_CONFIG=$pgc ULID_WERROR=${ULID_WERROR:-0}$([[ $tree == "$ULID_ROOT" ]] || echo " (in $tree)")"
    make -C "$tree" -j2 PG_CONFIG="$pgc" ULID_WERROR="${ULID_WERROR:-0}" || return
    ulid_log "install: make install PG_CONFIG=$pgc"
    ulid_as_root make -C "$tree" install PG_CONFIG="$pgc" ULID_WERROR="${ULID_WERROR:-0}" || return
    ulid_remove_stale_scripts "$pgc"
}

# ulid_copy_tree DEST [TAR-OPTION...]: a copy of this tree (the working tree as it is, with .git
# unless an option excludes it) in DEST, without build outputs (objects, libraries, bitcode, the
# unit and fuzz builds, pg_regress's and the TAP suites' results, the clients' dependencies)
ulid_copy_tree() {
    local dest="$1"
    shift
    mkdir -p "$dest" || return
    tar -C "$ULID_ROOT" --exclude='*.o' --exclude='*.bc' --exclude='*.so' --exclude=./tmp_check \
        --exclude=./results --exclude=node_modules --exclude=target --exclude=./test/unit/build \
        --exclude=./test/fuzz/build "$@" -cf - . | tar -C "$dest" -xf -
}

# ulid_tap_tree DEST: a copy of this tree in DEST for the TAP suites (t/*.pl): with .git
# (t/160_monotonic_shared.pl builds an earlier release from its tag), owned by the user postgres
# when run as root (initdb refuses root; the suites then run as postgres). scripts/test's run_tap
# and scripts/sqlsmith-long run them there.
ulid_tap_tree() {
    ulid_copy_tree "$1" || return
    if (($(id -u) == 0)); then chown -R postgres: "$1"; fi
}

# ulid_tap_ports: prints the directory where PostgreSQL::Test::Cluster notes the ports its nodes
# take (PG_TEST_PORT_DIR), one for every TAP run on the machine (scripts/test's passes that run at
# the same time, scripts/sqlsmith-long), so that their nodes never pick the same port
ulid_tap_ports() {
    local ports=/tmp/ulid-tap-ports
    mkdir -p "$ports" || return
    chmod 1777 "$ports" 2>/dev/null || true
    printf '%s\n' "$ports"
}

# ulid_remove_stale_scripts PG_CONFIG: delete the ulid--*.sql scripts in the server's extension
# directory that this tree does not install (left there by another tree or an abandoned version):
# the server would offer them as versions and update paths of this extension. A file a Debian
# package owns is left alone, with a warning.
ulid_remove_stale_scripts() {
    local dir f
    dir="$("$1" --sharedir)/extension"
    for f in "$dir"/ulid--*.sql; do
        [[ -f $f && ! -f $ULID_ROOT/$(basename "$f") ]] || continue
        if dpkg-query -S "$f" >/dev/null 2>&1; then
            ulid_warn "install: $f is not this tree's but a package's: left in place"
        else
            ulid_log "install: removing $f (not this tree's)"
            ulid_as_root rm -f "$f" || return
        fi
    done
}

# ---------------------------------------------------------------------------------------------
# throwaway clusters

# ulid_free_port: a loopback TCP port that nothing listens on and no server's socket lock names,
# picked at random (to keep concurrent runs apart) from 10000-32767: below Linux's ephemeral range
# (net.ipv4.ip_local_port_range, 32768-60999 by default), where busy loopback clients could hold a
# port the server then cannot bind. Fails when 100 tries found none.
ulid_free_port() {
    local used=" " f laddr st port _
    for f in /proc/net/tcp /proc/net/tcp6; do
        [[ -r $f ]] || continue
        while read -r _ laddr _ st _; do
            [[ $st == 0A ]] && used+="$((16#${laddr##*:})) "
        done < <(tail -n +2 "$f")
    done
    for _ in $(seq 1 100); do
        port=$((10000 + RANDOM % 22768))
        [[ $used == *" $port "* ]] && continue
        [[ -e /var/run/postgresql/.s.PGSQL.$port.lock || -e /tmp/.s.PGSQL.$port.lock ]] && continue
        printf '%s\n' "$port"
        return 0
    done
    return 1
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
# A source-built major (scripts/pins/pg-versions) cannot use pg_virtualenv: scripts/lib/cluster_env.sh gives
# the same contract from the server's bindir (PGPASSWORD is set but unused: trust authentication),
# with only -o GUC=VALUE options taken from ULID_PGVE_OPTS.
ulid_virtualenv() {
    local marker attempt port rc bindir i
    local -a opts=() limit=() conf=()
    if declare -p ULID_PGVE_OPTS >/dev/null 2>&1; then opts=("${ULID_PGVE_OPTS[@]}"); fi
    if [[ ${ULID_PGVE_TIMEOUT:-1800} != 0 ]]; then limit=(ulid_timeout "${ULID_PGVE_TIMEOUT:-1800}"); fi
    bindir="$(ulid_pg_bindir)" || return 1 # for scripts/lib/cluster.sh in CMD: the same major
    if ulid_pg_source_built "$ULID_PG_MAJOR"; then
        for ((i = 0; i < ${#opts[@]}; i++)); do
            if [[ ${opts[i]} == -o ]] && ((i + 1 < ${#opts[@]})); then
                conf+=(-o "${opts[i + 1]}")
                i=$((i + 1))
            else
                ulid_warn "ulid_virtualenv: pg_virtualenv option ${opts[i]} has no equivalent for a source-built server"
                return 1
            fi
        done
        "${limit[@]}" env -u PGCLUSTER -u PGSERVICE -u PGSERVICEFILE -u PGOPTIONS -u PGHOSTADDR \
            -u PGDATA -u PGSYSCONFDIR -u PG_CLUSTER_CONF_ROOT ULID_PG_BINDIR="$bindir" \
            bash "$ULID_ROOT/scripts/lib/cluster_env.sh" "${conf[@]}" "$@"
        return
    fi
    marker="$(mktemp -t ulid-pgve.XXXXXX)"
    for attempt in 1 2 3; do
        rm -f "$marker"
        port="$(ulid_free_port)" || {
            ulid_warn "ulid_virtualenv: no free port"
            break
        }
        rc=0
        # shellcheck disable=SC2016 # expanded by the inner bash, on purpose
        "${limit[@]}" env -u PGCLUSTER -u PGSERVICE -u PGSERVICEFILE -u PGOPTIONS -u PGHOSTADDR \
            -u PGDATA -u PGSYSCONFDIR -u PG_CLUSTER_CONF_ROOT \
            PGPORT="$port" ULID_PGVE_MARKER="$marker" ULID_PG_BINDIR="$bindir" \
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
