#!/usr/bin/env bash
# Release binaries (scripts/package binaries; docs/install.md "From a release binary").
#
# On a source-built major (scripts/pins/pg-versions), into a server that never saw the build tree (a
# copy of the server install without any file of the extension):
#   - `scripts/package binaries <major>` writes ulid-<version>-pg<major>-linux-<arch>.tar.gz and
#     SHA256SUMS; a user's three steps (docs/install.md, run verbatim below) check the sum, unpack
#     and run install.sh with the copy's pg_config; install.sh refuses a pg_config of another major
#     and then copies nothing;
#   - the archive holds install.sh, README, LICENSE and, under pkglibdir/ and sharedir/, the same
#     files `make install` installs;
#   - what pkglibdir/ulid.so needs at run time: nothing but libstdc++.so.6, libm, libgcc_s and libc
#     (objdump -p; OpenSSL's EVP functions are weak, unversioned references), all found (ldd), no RPATH/RUNPATH, and no symbol version newer than GLIBC_2.17,
#     GLIBCXX_3.4 and CXXABI_1.3 (objdump -T): the floors docs/install.md states (checked too);
#   - a cluster of the copy creates the extension at default_version, its backend maps ulid.so from
#     the copy's directory and from nowhere else, and the whole regression suite passes (the copy's
#     pg_regress, sql/ and expected/ copied out of the tree).
# On Debian's packaged 15, whose users take the .deb (release binaries are made for the source-built
# majors): the same steps with DESTDIR stage exactly the files and contents of the source install,
# and the archive built against that server has the same layout and run-time needs.
# About 15 s per major.
# Tier: packaging (how the extension is built, packaged and installed (scripts/test --tier packaging))
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
ULID_SUITE_ROOT="$PWD"
source test/lib/checks.sh
source test/lib/pkg_install.sh
suite_exit_on_signals

pkgt_begin relbin
trap 'rm -rf "$WORK"' EXIT
NAME="ulid-$VERSION-pg$MAJOR-linux-$(uname -m)"
# the run-time floors docs/install.md states (checked below against the library and the page)
FLOOR_GLIBC=2.17
FLOOR_GLIBCXX=3.4
FLOOR_CXXABI=1.3

echo "# the archive of PostgreSQL $MAJOR ($("$PGC" --version))"
t0=$SECONDS
if [[ ${ULID_IN_CHROOT:-} == 1 ]]; then
    # 19 in the sid chroot: a library built against glibc 2.43 is above the floor, and scripts/package
    # refuses to make the archive, saying so (19's archive waits for 19.0 on Debian 12)
    if pkgt_package "$WORK/binaries.log" binaries "$MAJOR" --out "$WORK/dist" >/dev/null; then
        bad "scripts/package binaries $MAJOR in the sid chroot made an archive: check its floors like the other majors'"
    else
        expect_match "scripts/package binaries $MAJOR in the sid chroot: refused, naming the glibc floor" \
            "$(cat "$WORK/binaries.log")" "needs GLIBC_2\.(1[89]|[2-9][0-9])[.0-9]*, above the GLIBC_$FLOOR_GLIBC floor"
        expect "... and no archive was written" "$(find "$WORK/dist" -name '*.tar.gz' 2>/dev/null | wc -l)" -eq 0
    fi
    checks_summary
    exit
fi
must "scripts/package binaries $MAJOR" pkgt_package "$WORK/binaries.log" binaries "$MAJOR" --out "$WORK/dist"
if [[ -f $WORK/dist/$NAME.tar.gz ]]; then
    ok "$NAME.tar.gz, $(stat -c %s "$WORK/dist/$NAME.tar.gz") bytes ($((SECONDS - t0)) s)"
else
    bad "no $NAME.tar.gz"
fi
if grep -qE "^[0-9a-f]{64}  $NAME\.tar\.gz$" "$WORK/dist/SHA256SUMS" 2>/dev/null; then ok "SHA256SUMS lists it"; else bad "SHA256SUMS does not list $NAME.tar.gz"; fi

if ((SOURCE_BUILT)); then
    prefix="$(cd "$("$PGC" --bindir)/.." && pwd -P)"
    SERVER="$WORK/server"
    must "a copy of the server install $prefix without the extension's files" pkgt_server_copy "$prefix" "$SERVER"
    expect_match "the copy's pg_config reports the copy's directories" \
        "$("$SERVER/bin/pg_config" --pkglibdir) $("$SERVER/bin/pg_config" --sharedir)" "^$SERVER/[^ ]+ $SERVER/"
    DESTDIR=""
else
    echo "# Debian's $MAJOR: the steps stage the files under DESTDIR (nothing is installed into the server)"
    SERVER=""
    DESTDIR="$WORK/stage"
fi
TPGC="${SERVER:+$SERVER/bin/pg_config}"
TPGC="${TPGC:-$PGC}"

other=""
for c in /usr/lib/postgresql/*/bin/pg_config /var/cache/ulid-pg/*/bin/pg_config; do
    [[ -x $c && "$("$c" --version)" != "PostgreSQL $MAJOR."* ]] && other="$c" && break
done

echo
echo "# a user's steps, in the directory of the downloaded files"
cd "$WORK/dist" || exit 1
ARCHIVE="$NAME.tar.gz"
if [[ -n $other ]]; then
    tar -xzf "$ARCHIVE" -C "$WORK"
    rc=0
    out="$(DESTDIR="$WORK/wrong" "$WORK/$NAME/install.sh" "$other" 2>&1)" || rc=$?
    if ((rc != 0)) && [[ ! -e $WORK/wrong ]]; then
        ok "install.sh refuses the pg_config of $("$other" --version) and copies nothing: ${out#install.sh: }"
    else
        bad "install.sh with $other: exit $rc, $out"
    fi
else
    note "no server of another major here to show that install.sh refuses it"
fi
PG_CONFIG="$TPGC"
export DESTDIR
if (
    set -e
sha256sum --check --ignore-missing SHA256SUMS
tar -xzf "$ARCHIVE"
"${ARCHIVE%.tar.gz}/install.sh" "$PG_CONFIG"
) >"$WORK/steps.log" 2>&1; then
    ok "sha256sum --check, tar -xzf, install.sh $PG_CONFIG${DESTDIR:+ (DESTDIR=$DESTDIR)}: $(grep -c "^  /" "$WORK/steps.log") files"
else
    bad "the user's steps:"
    sed 's/^/#   /' "$WORK/steps.log"
fi
unset DESTDIR
cd "$ULID_SUITE_ROOT" || exit 1
TOP="$WORK/dist/$NAME"
if [[ -x $TOP/install.sh ]]; then ok "install.sh (executable)"; else bad "no executable install.sh"; fi
for f in README LICENSE pkglibdir/ulid.so sharedir/extension/ulid.control "sharedir/extension/ulid--$VERSION.sql"; do
    if [[ -f $TOP/$f ]]; then ok "$f"; else bad "missing: $f"; fi
done
expect_contains "README names the major" "$(cat "$TOP/README")" "major=$MAJOR"
# the archive's extension files (but JIT bitcode) = those `make install` installs for this major
relative() { sed -e "s|^$("$1" --pkglibdir)/|pkglibdir/|" -e "s|^$("$1" --sharedir)/|sharedir/|" | grep -v '/bitcode/' | sort; }
want="$(pkgt_expected_files "$PGC" | relative "$PGC")"
expect_str "the archive's files are those make install installs ($(count_lines "$want" /) files)" \
    "$(cd "$TOP" && find pkglibdir sharedir -type f | relative "$PGC")" "$want"
if ((SOURCE_BUILT)); then
    expect_str "install.sh put them where the copy's pg_config says" "$(pkgt_installed_files "$TPGC" | relative "$TPGC")" "$want"
else
    expect_str "install.sh staged them where Debian's pg_config says" \
        "$(cd "$WORK/stage" && find . -type f | sed 's|^\.||' | grep -v '/bitcode/' | sort)" "$(pkgt_expected_files "$PGC")"
    same=0
    while IFS= read -r f; do cmp -s "$f" "$WORK/stage$f" && same=$((same + 1)); done < <(pkgt_expected_files "$PGC" | grep -v '\.so$')
    expect "staged SQL scripts and control file identical to the source install's" "$same" -eq \
        "$(pkgt_expected_files "$PGC" | grep -vc '\.so$')"
fi

echo
echo "# what pkglibdir/ulid.so needs at run time"
SO="$TOP/pkglibdir/ulid.so"
needed="$(objdump -p "$SO" | awk '$1 == "NEEDED" { print $2 }' | sort | xargs)"
note "NEEDED (objdump -p): $needed"
extra=""
for lib in $needed; do
    case "$lib" in libstdc++.so.6 | libm.so.6 | libgcc_s.so.1 | libc.so.6) ;; *) extra+=" $lib" ;; esac
done
expect_str "it needs nothing but libstdc++.so.6, libm.so.6, libgcc_s.so.1 and libc.so.6" "$extra" ""
# ulid_encrypt/ulid_decrypt use the server's OpenSSL: weak references without a symbol version,
# bound to whichever libcrypto (1.1 or 3) the server process has, and none at all where it has none
expect_str "OpenSSL's EVP functions: 9 weak references, none with a symbol version (no libcrypto needed)" \
    "$(nm -D "$SO" | awk '$1 == "w" && $2 ~ /^EVP_/' | wc -l) $(nm -D "$SO" | grep -c 'EVP_.*@' || true)" "9 0"
expect_str "no RPATH or RUNPATH (nothing points into the build server)" "$(objdump -p "$SO" | grep -E 'R(UN)?PATH')" ""
expect_lacks "ldd finds every library" "$(ldd "$SO" 2>&1)" "not found"
top() { objdump -T "$SO" | grep -oE "\($1_[0-9.]+\)" | tr -d '()' | sed "s/^$1_//" | sort -uV | tail -n 1; }
for pair in "GLIBC $FLOOR_GLIBC" "GLIBCXX $FLOOR_GLIBCXX" "CXXABI $FLOOR_CXXABI"; do
    read -r sym floor <<<"$pair"
    v="$(top "$sym")"
    if [[ -z $v ]] || dpkg --compare-versions "$v" le "$floor"; then
        ok "newest ${sym}_ symbol version used: ${v:-none} (<= ${sym}_$floor)"
    else
        bad "ulid.so uses ${sym}_$v, above the floor ${sym}_$floor that docs/install.md states"
    fi
    if grep -qF "${sym}_$floor" docs/install.md 2>/dev/null; then ok "docs/install.md states ${sym}_$floor"; else bad "docs/install.md does not state ${sym}_$floor"; fi
done

if ((SOURCE_BUILT)); then
    echo
    echo "# the copy's server with the installed archive"
    suite_isolate_env
    ULID_PG_BINDIR="$SERVER/bin"
    source test/lib/cluster.sh
    must "a cluster of the copy" cluster_up relbin
    PGPORT="$(cluster_port relbin)"
    export PGHOST=127.0.0.1 PGPORT PGUSER=postgres PGDATABASE=postgres
    PATH="$SERVER/bin:$PATH"
    expect_str "CREATE EXTENSION ulid: version $VERSION" \
        "$(psql -X -q -At -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION ulid' -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid'" 2>&1)" "$VERSION"
    expect_str "the backend maps ulid.so from the copy only" "$(pkgt_loaded_libs postgres)" "$("$TPGC" --pkglibdir)/ulid.so"
    t0=$SECONDS
    if out="$(pkgt_regress "$SERVER/bin" "$(dirname "$(dirname "$("$TPGC" --pgxs)")")/test/regress/pg_regress" "$WORK/regress" 2>&1)"; then
        ok "pg_regress of the copy, against the installed archive: $(printf '%s\n' "$out" | grep -E 'tests passed' | xargs) ($((SECONDS - t0)) s)"
    else
        bad "pg_regress against the installed archive:"
        printf '%s\n' "$out" | tail -n 30 | sed 's/^/#   /'
        [[ -f $WORK/regress/regression.diffs ]] && head -n 80 "$WORK/regress/regression.diffs" | sed 's/^/#   /'
    fi
fi
note "took $((SECONDS - START)) s"
checks_summary
