#!/usr/bin/env bash
# Release binaries (scripts/package binaries; docs/install.md "From a release binary"):
#
# On a source-built major (scripts/pg-versions):
#   - `scripts/package binaries <major>` writes ulid-<version>-pg<major>-linux-<arch>.tar.gz and a
#     SHA256SUMS that `sha256sum -c` accepts; the archive holds install.sh, README, LICENSE,
#     pkglibdir/ulid.so and sharedir/extension/ with the same files `make install` installs;
#   - what ulid.so needs at run time: only libstdc++.so.6, libm, libgcc_s and libc (objdump -p), all
#     found (ldd), no RPATH/RUNPATH, and no symbol version newer than GLIBC_2.17, GLIBCXX_3.4 and CXXABI_1.3
#     (objdump -T) -- the floors docs/install.md states, which this checks it does;
#   - a copy of the server install without any file of the extension (a server that never saw the
#     build tree): install.sh refuses another major's pg_config and copies nothing, then installs
#     with the copy's pg_config; a cluster of the copy creates the extension at default_version,
#     its backend maps ulid.so from the copy's directory and from nowhere else, and the whole
#     regression suite (pg_regress of the copy, sql/ and expected/ copied out) passes.
# On Debian's packaged 15 (whose users take the .deb): the archive built against it has the same
# layout and run-time needs, and install.sh with DESTDIR stages exactly the files and contents of
# the source install (nothing is installed into that server here).
# About 15 s per major.
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
ULID_SUITE_ROOT="$PWD"
source test/lib/checks.sh
source test/lib/pkg_install.sh
suite_exit_on_signals

MAJOR="${ULID_PG_MAJOR:-15}"
PGC="${PG_CONFIG:-pg_config}" # the major under test (scripts/test's cluster)
VERSION="$(sed -n "s/^default_version = '\(.*\)'$/\1/p" ulid.control)"
ARCH="$(uname -m)"
NAME="ulid-$VERSION-pg$MAJOR-linux-$ARCH"
# the run-time floors docs/install.md states (checked below against the library and the page)
FLOOR_GLIBC=2.17
FLOOR_GLIBCXX=3.4
FLOOR_CXXABI=1.3
WORK="$(mktemp -d -t ulid-relbin.XXXXXX)"
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT
SOURCE_BUILT=0
awk -v m="$MAJOR" '$1 == m { f = 1 } END { exit !f }' scripts/pg-versions && SOURCE_BUILT=1

echo "# the archive of PostgreSQL $MAJOR ($("$PGC" --version))"
t0=$SECONDS
must "scripts/package binaries $MAJOR" bash -c 'scripts/package binaries "$1" --out "$2" >"$2.log" 2>&1 || { cat "$2.log"; exit 1; }' \
    _ "$MAJOR" "$WORK/dist"
note "built in $((SECONDS - t0)) s"
ARCHIVE="$WORK/dist/$NAME.tar.gz"
if [[ -f $ARCHIVE ]]; then ok "$NAME.tar.gz ($(stat -c %s "$ARCHIVE") bytes)"; else bad "no $NAME.tar.gz"; fi
expect_match "SHA256SUMS lists it" "$(cat "$WORK/dist/SHA256SUMS" 2>/dev/null)" "^[0-9a-f]{64}  $NAME\.tar\.gz$"
if out="$(cd "$WORK/dist" && sha256sum -c SHA256SUMS 2>&1)"; then ok "sha256sum -c SHA256SUMS: $(count_lines "$out" ': OK') OK"; else bad "sha256sum -c: $out"; fi
must "unpack" tar -xzf "$ARCHIVE" -C "$WORK"
TOP="$WORK/$NAME"
[[ -x $TOP/install.sh ]] && ok "install.sh (executable)" || bad "no executable install.sh"
for f in README LICENSE pkglibdir/ulid.so sharedir/extension/ulid.control "sharedir/extension/ulid--$VERSION.sql"; do
    [[ -f $TOP/$f ]] && ok "$f" || bad "missing: $f"
done
expect_contains "README names the major" "$(cat "$TOP/README")" "major=$MAJOR"
# the extension files of the archive = those `make install` installed for this major (scripts/test)
want="$(pkgt_installed_files "$PGC" | sed -e "s|^$("$PGC" --pkglibdir)/|pkglibdir/|" -e "s|^$("$PGC" --sharedir)/|sharedir/|")"
got="$(cd "$TOP" && find pkglibdir sharedir -type f | sort)"
expect_str "the archive's files are the source install's ($(count_lines "$want" /) files)" "$got" "$want"

echo
echo "# what pkglibdir/ulid.so needs at run time"
SO="$TOP/pkglibdir/ulid.so"
needed="$(objdump -p "$SO" | awk '$1 == "NEEDED" { print $2 }' | sort | xargs)"
note "NEEDED: $needed"
extra=""
for lib in $needed; do
    case "$lib" in libstdc++.so.6 | libm.so.6 | libgcc_s.so.1 | libc.so.6) ;; *) extra+=" $lib" ;; esac
done
expect_str "it needs nothing but libstdc++.so.6, libm.so.6, libgcc_s.so.1 and libc.so.6" "$extra" ""
expect_str "no RPATH or RUNPATH (nothing points into the build server)" "$(objdump -p "$SO" | grep -E 'R(UN)?PATH')" ""
lddout="$(ldd "$SO" 2>&1)"
expect_lacks "ldd finds every library" "$lddout" "not found"
top() { objdump -T "$SO" | grep -oE "\($1_[0-9.]+\)" | tr -d '()' | sed "s/^$1_//" | sort -uV | tail -n 1; }
for pair in "GLIBC $FLOOR_GLIBC" "GLIBCXX $FLOOR_GLIBCXX" "CXXABI $FLOOR_CXXABI"; do
    read -r sym floor <<<"$pair"
    v="$(top "$sym")"
    if [[ -z $v ]] || dpkg --compare-versions "$v" le "$floor"; then
        ok "newest ${sym}_ symbol version used: ${v:-none} (<= ${sym}_$floor)"
    else
        bad "ulid.so uses ${sym}_$v, above the floor ${sym}_$floor that docs/install.md states"
    fi
    expect_contains "docs/install.md states ${sym}_$floor" "$(cat docs/install.md 2>/dev/null)" "${sym}_$floor"
done

if ((!SOURCE_BUILT)); then
    echo
    echo "# install.sh on Debian's $MAJOR, staged (DESTDIR): release binaries are made for the source-built majors"
    if out="$(DESTDIR="$WORK/stage" "$TOP/install.sh" "$PGC" 2>&1)"; then ok "install.sh with DESTDIR"; else bad "install.sh: $out"; fi
    staged="$(cd "$WORK/stage" && find . -type f | sed 's|^\.||' | sort)"
    expect_str "it stages the source install's files, under pg_config's directories" "$staged" "$(pkgt_installed_files "$PGC")"
    same=0
    while IFS= read -r f; do cmp -s "$f" "$WORK/stage$f" && same=$((same + 1)); done < <(pkgt_installed_files "$PGC" | grep -v '\.so$\|\.bc$')
    expect "staged SQL scripts and control file identical to the source install's" "$same" -eq "$(pkgt_installed_files "$PGC" | grep -vc '\.so$\|\.bc$')"
    checks_summary
    exit
fi

echo
echo "# a server of PostgreSQL $MAJOR that never saw the build tree"
prefix="$(cd "$("$PGC" --bindir)/.." && pwd -P)"
SERVER="$WORK/server"
must "copy of the server install $prefix without the extension's files" pkgt_server_copy "$prefix" "$SERVER"
SPGC="$SERVER/bin/pg_config"
expect_match "the copy's pg_config reports its own directories" "$("$SPGC" --pkglibdir) $("$SPGC" --sharedir)" "^$SERVER/[^ ]+ $SERVER/"
other=""
for c in /usr/lib/postgresql/*/bin/pg_config /var/cache/ulid-pg/*/bin/pg_config; do
    [[ -x $c && "$("$c" --version)" != "PostgreSQL $MAJOR."* ]] && other="$c" && break
done
if [[ -n $other ]]; then
    rc=0
    out="$(DESTDIR="$WORK/wrong" "$TOP/install.sh" "$other" 2>&1)" || rc=$?
    if ((rc != 0)) && [[ ! -e $WORK/wrong ]]; then
        ok "install.sh refuses $("$other" --version) and copies nothing: $out"
    else
        bad "install.sh with $other: exit $rc, $out"
    fi
else
    note "no server of another major here to show that install.sh refuses it"
fi
if out="$("$TOP/install.sh" "$SPGC" 2>&1)"; then
    ok "install.sh $SPGC ($(count_lines "$out" "  $SERVER/") files)"
else
    bad "install.sh: $out"
fi
expect_str "the copy now has the archive's files" "$(pkgt_installed_files "$SPGC" | wc -l)" "$(cd "$TOP" && find pkglibdir sharedir -type f | wc -l)"

suite_isolate_env
ULID_PG_BINDIR="$SERVER/bin"
source test/lib/cluster.sh
must "a cluster of the copy" cluster_up relbin
export PGHOST=127.0.0.1 PGPORT="$(cluster_port relbin)" PGUSER=postgres PGDATABASE=postgres
PATH="$SERVER/bin:$PATH"
ver="$(psql -X -q -At -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION ulid' -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid'" 2>&1)"
expect_str "CREATE EXTENSION ulid: version $VERSION" "$ver" "$VERSION"
libs="$(pkgt_loaded_libs)"
expect_str "the backend maps ulid.so from the copy only" "$libs" "$("$SPGC" --pkglibdir)/ulid.so"
t0=$SECONDS
if out="$(pkgt_regress "$SERVER/bin" "$(dirname "$(dirname "$("$SPGC" --pgxs)")")/test/regress/pg_regress" "$WORK/regress" 2>&1)"; then
    ok "pg_regress of the copy, against the installed archive: $(printf '%s\n' "$out" | grep -E 'tests passed|^# All' | xargs) ($((SECONDS - t0)) s)"
else
    bad "pg_regress against the installed archive:"
    printf '%s\n' "$out" | tail -n 30 | sed 's/^/#   /'
    [[ -f $WORK/regress/regression.diffs ]] && head -n 80 "$WORK/regress/regression.diffs" | sed 's/^/#   /'
fi

checks_summary
