# shellcheck shell=bash
# test/lib/servers.sh: for the suites that run servers of several majors side by side
# (logical_upgrade.sh; t/210_pg_upgrade.pl finds the pinned servers the same way, in Perl). Source it
# after checks.sh.
#
#   skip_suite REASON...         print "SKIPPED: REASON" and exit 77
#   pinned_server MAJOR          the prefix of MAJOR's server built by scripts/build/pg-build (in
#                                ULID_PG_CACHE, default /var/cache/ulid-pg); when it is not pinned or
#                                not built, prints why instead and returns 1
#   install_tree PG_CONFIG WORK [ROOT]
#                                build this tree in a scratch copy under WORK against PG_CONFIG and
#                                install it there, unless the server has these very files already
#                                (the tracked files of a checkout; anything else,
#                                e.g. an unpacked release archive, as it is, cleaned): an ok line;
#                                on failure the build log's tail, a FAIL line, the summary, exit 1.
#                                With ROOT, PG_CONFIG and WORK are paths under the root directory
#                                ROOT, where make runs (chroot ROOT): logical_upgrade.sh builds for
#                                the host's server from inside the sid chroot that way
#   BIN[MAJOR], MAJOR_OF[NAME]   the suite's servers (major -> bin directory) and clusters (name ->
#                                major), filled by the suite
#   on CLUSTER FUNCTION ARGS...  a test/lib/cluster.sh function, run with CLUSTER's own server
#   stop_clusters                stop every cluster of MAJOR_OF that runs, with its own pg_ctl
#                                (immediate): for the suite's EXIT trap, before cluster.sh's clean-up

_SERVERS_ROOT="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)"
declare -A BIN=()
declare -A MAJOR_OF=()

skip_suite() {
    echo "SKIPPED: $*"
    exit 77
}

pinned_server() {
    local cache="${ULID_PG_CACHE:-/var/cache/ulid-pg}" version
    version="$(awk -v m="$1" '$1 == m { print $2 }' "$_SERVERS_ROOT/scripts/pins/pg-versions" 2>/dev/null || true)"
    if [[ -z $version ]]; then
        echo "scripts/pins/pg-versions pins no PostgreSQL $1"
        return 1
    elif [[ ! -x $cache/$version/bin/pg_config ]]; then
        echo "PostgreSQL $version is not built in $cache (scripts/build/pg-build $1)"
        return 1
    fi
    echo "$cache/$version"
}

install_tree() {
    local pgc="$1" work="$2" root="${3:-}" src log run=()
    [[ -z $root ]] || run=(chroot "$root")
    src="$(mktemp -d "$root$work/build.XXXXXX")"
    src="${src#"$root"}" # (the path under ROOT, where make runs)
    log="$root$src.log"
    (cd "$_SERVERS_ROOT" && { git ls-files -z 2>/dev/null || find . -type f -print0; } |
        tar --null -T - -cf - 2>/dev/null) | tar -xf - -C "$root$src"
    if "${run[@]}" make -C "$src" -s clean PG_CONFIG="$pgc" >"$log" 2>&1 &&
        "${run[@]}" make -C "$src" -j2 PG_CONFIG="$pgc" >>"$log" 2>&1 &&
        "${run[@]}" make -C "$src" install PG_CONFIG="$pgc" DESTDIR="$src.stage" >>"$log" 2>&1 &&
        if same_as_installed "$root$src.stage"; then
            ok "built; $("${run[@]}" "$pgc" --version) has these very files installed already${root:+ (under $root)}"
        else
            "${run[@]}" make -C "$src" install PG_CONFIG="$pgc" >>"$log" 2>&1 &&
                ok "built and installed into $("${run[@]}" "$pgc" --version)${root:+ (under $root)}"
        fi
    then
        rm -rf "$root$src" "$root$src.stage"
    else
        tail -n 20 "$log" | sed 's/^/#     /'
        bad "build/install against $("${run[@]}" "$pgc" --version)${root:+ (under $root)}"
        checks_summary
        exit 1
    fi
}

# same_as_installed STAGE: true when every file staged under STAGE (make install DESTDIR=STAGE) is
# installed, byte for byte, at its place under ROOT (a global of install_tree's caller, empty on
# the host). Then install_tree leaves the server's files alone: another pass may be using them.
same_as_installed() {
    local stage="$1" f
    while IFS= read -r -d '' f; do
        cmp -s "$f" "${root:-}${f#"$stage"}" || return 1
    done < <(find "$stage" -type f -print0)
}

on() {
    local c="$1" f="$2"
    shift 2
    ULID_PG_BINDIR="${BIN[${MAJOR_OF[$c]}]}" "$f" "$c" "$@"
}

stop_clusters() {
    local name
    for name in "${!MAJOR_OF[@]}"; do
        if [[ -f "$(cluster_dir "$name")/postmaster.pid" ]]; then
            on "$name" cluster_stop immediate >/dev/null 2>&1 || true
        fi
    done
}
