#!/usr/bin/env bash
# The Debian package, installed as a user installs it (docs/install.md "From a Debian package").
#
# On every major, the source package's own checks:
#   - debian/changelog's newest entry is ulid.control's default_version (`scripts/package check`),
#     and that check fails, naming the fix, in a copy whose default_version was bumped;
#   - debian/control is what debian/control.in gives for Debian 12's PostgreSQL (pg_buildext
#     checkcontrol);
#   - the previous release's tag is found (`scripts/package previous-tag`: the newest v* tag older
#     than default_version); a checkout without tags, or without the tag of the release that
#     debian/changelog names before the current one, is refused with a message saying so.
# In the pass of Debian's own PostgreSQL 15 (the .debs are built for Debian's servers), with the
# source install of scripts/test moved aside first and put back at the end:
#   - `scripts/package deb`: source package and postgresql-15-ulid, built, installed into debian/
#     and regression-tested by pg_buildext, and lintian with no error and no warning; the .deb holds
#     the files `make install` installs, and its Depends come from ${postgresql:Depends}
#     (postgresql-15) and ${shlibs:Depends} (libc6, libstdc++6);
#   - `apt-get install ./postgresql-15-ulid_*.deb` on a server without the extension: installed,
#     CREATE EXTENSION ulid gives default_version, the backend maps the package's ulid.so, and the
#     whole regression suite (pg_regress) passes against the packaged files; `apt-get purge` leaves
#     no file of the package behind;
#   - upgrade: the package of the previous release (built from its tag with this debian/), a
#     database with the extension at that version and a table keyed by ulid, then the new package
#     over it and ALTER EXTENSION ulid UPDATE: default_version, the rows unchanged, the index
#     clean (amcheck), new keys above the old, and the extension's catalog that of a fresh install;
#   - autopkgtest (debian/tests: pg_buildext installcheck against the installed package) with the
#     null runner passes; a final purge leaves nothing behind;
#   - as root, dpkg-buildpackage in a directory the user postgres cannot read (mktemp -d) stops
#     before compiling, saying why and what to change (debian/rules).
# The same in the pass of 19, in the sid chroot (scripts/sid-chroot), for postgresql-19-ulid (built
# for 19 alone, though 18's headers are there too), the upgrade from 0.5.0's package (the first
# release that builds against 19) included.
# About 3 minutes in the 15 pass (two package builds), a few seconds in the others.
# Tier: packaging (how the extension is built, packaged and installed (scripts/test --tier packaging))
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
ULID_SUITE_ROOT="$PWD"
source test/lib/checks.sh
source test/lib/pkg_install.sh
suite_exit_on_signals

pkgt_begin deb
PKG=postgresql-15-ulid # Debian 12's PostgreSQL is 15: the literal commands below are a user's
DEB_MAJOR=15
if [[ ${ULID_IN_CHROOT:-} == 1 ]]; then
    # the sid chroot of 19 (scripts/sid-chroot): the same steps for postgresql-19-ulid, the literal
    # commands below run with 15 read as 19. The chroot has 18's headers too: the package is built
    # for this major alone, as a packager targets one (pg_buildext's PG_SUPPORTED_VERSIONS).
    export PG_SUPPORTED_VERSIONS="$MAJOR"
    DEB_MAJOR="$MAJOR"
    PKG="postgresql-$DEB_MAJOR-ulid"
    as_major() { # as_major CMD ARG...: CMD with postgresql-15-ulid in its arguments read as $PKG
        local a
        local -a args=()
        for a in "${@:2}"; do
            a="${a//postgresql-15-ulid/$PKG}"
            if [[ $a == *'*'* ]]; then mapfile -t -O "${#args[@]}" args < <(compgen -G "$a"); else args+=("$a"); fi
        done
        command "$1" "${args[@]}"
    }
    apt-get() { as_major apt-get "$@"; }
    autopkgtest() { as_major autopkgtest "$@"; }
fi
ASIDE="$WORK/aside"
installed() { [[ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$PKG" 2>/dev/null)" == [ir]* ]]; }
# the package is this pass's only in the pass that builds and installs it: the pass of another
# major, which scripts/test may run at the same time, must not purge it on its way out
OURS=0
cleanup() {
    if ((OURS)) && installed; then apt-get purge "$PKG" >/dev/null 2>&1 || echo "# WARNING: could not purge $PKG"; fi
    pkgt_end
}
trap cleanup EXIT
# apt-get as a user types it, without questions (the commands below are quoted in docs/install.md)
printf 'APT::Get::Assume-Yes "true";\nDPkg::Lock::Timeout "900";\n' >"$WORK/apt.conf"
export APT_CONFIG="$WORK/apt.conf" DEBIAN_FRONTEND=noninteractive

echo "# debian/ (checked in every pass)"
if out="$(scripts/package check 2>&1)"; then ok "scripts/package check: ${out#==> package: }"; else bad "$out"; fi
mkdir -p "$WORK/bumped" && cp -a scripts debian ulid.control "$WORK/bumped/"
sed -i "s/^default_version = .*/default_version = '9.9.9'/" "$WORK/bumped/ulid.control"
rc=0
out="$("$WORK/bumped/scripts/package" check 2>&1)" || rc=$?
if ((rc != 0)) && [[ $out == *"default_version is 9.9.9"*"dch -v 9.9.9-1"* ]]; then
    ok "with default_version bumped to 9.9.9 and no changelog entry, it fails and names the fix"
else
    bad "scripts/package check with a bumped default_version: exit $rc: $out"
fi
mkdir -p "$WORK/control" && cp -a debian "$WORK/control/"
if [[ ${ULID_IN_CHROOT:-} == 1 ]]; then
    # the sid chroot of 19: its control, generated from debian/control.in by pg_buildext, lists 19
    if (cd "$WORK/control" && PG_SUPPORTED_VERSIONS="$MAJOR" pg_buildext updatecontrol >/dev/null 2>&1); then
        expect_str "debian/control generated for PostgreSQL $MAJOR (pg_buildext updatecontrol): its binary packages" \
            "$(sed -n 's/^Package: //p' "$WORK/control/debian/control" | paste -sd' ')" "postgresql-$MAJOR-ulid"
    else
        bad "pg_buildext updatecontrol for PostgreSQL $MAJOR failed"
    fi
elif out="$(cd "$WORK/control" && PG_SUPPORTED_VERSIONS=default pg_buildext checkcontrol 2>&1)"; then
    ok "debian/control is what debian/control.in gives for Debian 12 ($(grep -c '^Package:' debian/control) binary package)"
else
    bad "debian/control is not what debian/control.in gives (pg_buildext updatecontrol):"
    printf '%s\n' "$out" | sed 's/^/#   /'
fi
if PREV="$(scripts/package previous-tag 2>&1)" && [[ $PREV == v* ]] && dpkg --compare-versions "${PREV#v}" lt "$VERSION"; then
    ok "the previous release: $PREV (default_version $VERSION)"
else
    bad "scripts/package previous-tag: $PREV"
    PREV=""
fi
# a checkout without tags: the same files in a repository of their own
mkdir -p "$WORK/notags" && cp -a scripts debian ulid.control "$WORK/notags/" &&
    git -C "$WORK/notags" init -q && git -C "$WORK/notags" add -A &&
    git -C "$WORK/notags" -c user.name=t -c user.email=t@localhost commit -q -m notags
# refused WHAT MESSAGE: previous-tag in $WORK/notags fails and says MESSAGE
refused() {
    local rc=0 out
    out="$("$WORK/notags/scripts/package" previous-tag 2>&1)" || rc=$?
    if ((rc != 0)) && [[ $out == *"$2"* ]]; then ok "$1"; else bad "$1: exit $rc: $out"; fi
}
refused "a checkout without tags: refused, saying to fetch them" "git fetch --tags"
# ... and one whose changelog names release X (here: default_version bumped to 9.9.9 with its
# entry, so X is today's release) while only an older tag is there: refused, naming the tag
sed -i "s/^default_version = .*/default_version = '9.9.9'/" "$WORK/notags/ulid.control"
{
    printf 'postgresql-ulid (9.9.9-1) unstable; urgency=medium\n\n  * Test.\n\n'
    printf ' -- %s  %s\n\n' "$(dpkg-parsechangelog -l debian/changelog -S Maintainer)" "$(date -R)"
    cat debian/changelog
} >"$WORK/notags/debian/changelog"
git -C "$WORK/notags" -c user.name=t -c user.email=t@localhost commit -q -am bump && git -C "$WORK/notags" tag v0.0.1
refused "a checkout that lacks the tag of the release the changelog names before 9.9.9: refused, naming v$VERSION" \
    "lists release $VERSION, but this clone has no tag v$VERSION"

if [[ $MAJOR != "$DEB_MAJOR" ]] || ((SOURCE_BUILT)); then
    note "PostgreSQL $MAJOR: the .deb is built and installed in the pass of Debian's PostgreSQL 15"
    note "took $((SECONDS - START)) s"
    checks_summary
    exit
fi
OURS=1

echo
echo "# dpkg-buildpackage as root in a directory the user postgres cannot read (docs/install.md)"
if (($(id -u) == 0)); then
    private="$(mktemp -d)" # mode 700, as mktemp makes it
    mkdir "$private/postgresql-ulid" &&
        cp -a Makefile ulid.control ulid--*.sql META.json README.md LICENSE src sql expected debian "$private/postgresql-ulid/"
    find "$private/postgresql-ulid" \( -name '*.o' -o -name '*.bc' -o -name '*.so' -o -name .build-flavour \) -delete
    t0=$SECONDS
    rc=0
    # debian/control for the majors built here, as scripts/package makes it (the same file on Debian 12)
    (cd "$private/postgresql-ulid" && PG_SUPPORTED_VERSIONS="${PG_SUPPORTED_VERSIONS:-installed}" pg_buildext updatecontrol) \
        >"$WORK/private.log" 2>&1
    (cd "$private/postgresql-ulid" && PG_SUPPORTED_VERSIONS="${PG_SUPPORTED_VERSIONS:-installed}" timeout 600 dpkg-buildpackage -us -uc -b) \
        >>"$WORK/private.log" 2>&1 || rc=$?
    expect "dpkg-buildpackage in $(stat -c %a "$private") $private: exit status" "$rc" -ne 0
    expect_contains "it says why and what to change" "$(cat "$WORK/private.log")" \
        "debian/rules: the build-time tests run the server as the user postgres, who cannot read $private/postgresql-ulid."
    expect "it stopped before compiling (object files made)" \
        "$(find "$private/postgresql-ulid" -name '*.o' | wc -l)" -eq 0
    note "it stopped after $((SECONDS - t0)) s"
    rm -rf "$private"
else
    note "not root: pg_virtualenv runs the build-time server as this user, who reads the tree"
fi

echo
echo "# scripts/package deb (the source install moved aside: the package's own tests see only its files)"
must "move the source install aside ($(pkgt_installed_files "$PGC" | wc -l) files)" pkgt_aside "$PGC" "$ASIDE"
t0=$SECONDS
rc=0
scripts/package deb --out "$WORK/dist" >"$WORK/deb.log" 2>&1 || rc=$?
if ((rc == 0)); then
    ok "scripts/package deb: built, tested by pg_buildext, lintian clean ($((SECONDS - t0)) s)"
else
    bad "scripts/package deb (exit $rc):"
    tail -n 60 "$WORK/deb.log" | sed 's/^/#   /'
fi
grep -E '^(### PostgreSQL|.*tests passed|[EWI]: |==> package: lintian)' "$WORK/deb.log" | sed 's/^/#   /'
DEB="$(find "$WORK/dist" -maxdepth 1 -name "${PKG}_${VERSION}-*.deb" | head -n 1)"
[[ -n $DEB ]] || {
    bad "no ${PKG}_$VERSION-*.deb"
    checks_summary
    exit 1
}
deps="$(dpkg-deb -f "$DEB" Depends)"
note "Depends: $deps"
expect_match "Depends: postgresql-$DEB_MAJOR (\${postgresql:Depends})" "$deps" "(^|, )postgresql-$DEB_MAJOR(,|\$| )"
expect_match "Depends: libc6 and libstdc++6 (\${shlibs:Depends})" "$deps" 'libc6 \(>= [0-9.]+\).*libstdc\+\+6|libstdc\+\+6.*libc6 \(>= [0-9.]+\)'
files="$(dpkg-deb -c "$DEB" | awk '$1 !~ /^d/ { print $6 }' | sed 's|^\./|/|' | grep -E '/ulid\.so$|/extension/ulid' | sort)"
expect_str "the .deb holds the files make install installs ($(pkgt_expected_files "$PGC" | wc -l), and JIT bitcode)" "$files" "$(pkgt_expected_files "$PGC")"

echo
echo "# install, use, purge"
cd "$WORK/dist" || exit 1
if out="$(apt-get install ./postgresql-15-ulid_*.deb 2>&1)" && installed; then
    ok "apt-get install ./postgresql-15-ulid_*.deb"
else
    bad "apt-get install: $(printf '%s\n' "$out" | tail -n 20)"
fi
cd "$ULID_SUITE_ROOT" || exit 1
expect_match "dpkg: installed at ${VERSION}-N" "$(dpkg-query -W -f='${db:Status-Abbrev} ${Version}' "$PKG")" "^ii  ${VERSION//./\\.}-[0-9]+$"
mapfile -t OWNED < <(dpkg -L "$PKG")
psql -X -q -c 'SET client_min_messages = warning' -c 'DROP DATABASE IF EXISTS deb_fresh' -c 'CREATE DATABASE deb_fresh' </dev/null
expect_str "CREATE EXTENSION ulid: version $VERSION" \
    "$(psql -X -q -At -d deb_fresh -c 'CREATE EXTENSION ulid' -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid'" 2>&1)" "$VERSION"
expect_str "the backend maps the package's ulid.so" "$(pkgt_loaded_libs deb_fresh)" "$("$PGC" --pkglibdir)/ulid.so"
t0=$SECONDS
if out="$(pkgt_regress "$("$PGC" --bindir)" "$(dirname "$(dirname "$("$PGC" --pgxs)")")/test/regress/pg_regress" "$WORK/regress" 2>&1)"; then
    ok "pg_regress against the packaged files: $(printf '%s\n' "$out" | grep -E 'tests passed' | xargs) ($((SECONDS - t0)) s)"
else
    bad "pg_regress against the packaged files:"
    printf '%s\n' "$out" | tail -n 30 | sed 's/^/#   /'
    [[ -f $WORK/regress/regression.diffs ]] && head -n 80 "$WORK/regress/regression.diffs" | sed 's/^/#   /'
fi
psql -X -q -c 'SET client_min_messages = warning' -c 'DROP DATABASE deb_fresh' -c 'DROP DATABASE IF EXISTS contrib_regression' </dev/null

# purged: no file dpkg -L listed, no directory of its own, not even a dpkg record left
purged_clean() {
    local f left=""
    for f in "${OWNED[@]}"; do
        [[ $f != /. && -e $f ]] || continue
        [[ -d $f && -n "$(dpkg -S "$f" 2>/dev/null)" ]] && continue # a directory other packages share
        left+=" $f"
    done
    expect_str "$1: no file or directory of the package left" "$left" ""
    expect_str "$1: no file of the extension left" "$(pkgt_installed_files "$PGC")" ""
    local st
    st="$(dpkg-query -W -f='${db:Status-Abbrev}' "$PKG" 2>/dev/null | tr -d ' ')"
    if [[ -z $st || $st == [pu]n ]]; then ok "$1: dpkg: not installed, no configuration left (${st:-forgotten})"; else bad "$1: dpkg status $st"; fi
}
if out="$(apt-get purge postgresql-15-ulid 2>&1)"; then ok "apt-get purge postgresql-15-ulid"; else bad "apt-get purge: $out"; fi
purged_clean "after the purge"

echo
echo "# upgrade from the previous release's package ($PREV)"
if [[ -z $PREV ]]; then
    bad "no previous release: the upgrade is not tested"
else
    t0=$SECONDS
    if scripts/package deb --previous --no-lintian --out "$WORK/prev" >"$WORK/prev.log" 2>&1; then
        ok "scripts/package deb --previous: $(basename "$(find "$WORK/prev" -name "${PKG}_*.deb")") ($((SECONDS - t0)) s)"
    else
        bad "scripts/package deb --previous:"
        tail -n 40 "$WORK/prev.log" | sed 's/^/#   /'
    fi
    cd "$WORK/prev" || exit 1
    out="$(apt-get install ./postgresql-15-ulid_*.deb 2>&1)" || bad "apt-get install (previous): $out"
    cd "$ULID_SUITE_ROOT" || exit 1
    expect_match "installed: ${PREV#v}-N" "$(dpkg-query -W -f='${db:Status-Abbrev} ${Version}' "$PKG")" "^ii  ${PREV#v}-[0-9]+$"
    psql -X -q -c 'SET client_min_messages = warning' -c 'DROP DATABASE IF EXISTS deb_upgrade' -c 'CREATE DATABASE deb_upgrade' </dev/null
    q() { psql -X -q -At -v ON_ERROR_STOP=1 -d deb_upgrade "$@" 2>&1; }
    expect_str "CREATE EXTENSION ulid with the previous package: ${PREV#v}" \
        "$(q -c 'CREATE EXTENSION ulid' -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")" "${PREV#v}"
    q -c 'CREATE TABLE t (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int)' -c 'INSERT INTO t (n) SELECT g FROM generate_series(1, 20000) g' >/dev/null
    before="$(q -c 'SELECT count(*), md5(string_agg(id::text, $$,$$ ORDER BY id)), max(id) FROM t')"
    cd "$WORK/dist" || exit 1
    out="$(apt-get install ./postgresql-15-ulid_*.deb 2>&1)" || bad "apt-get install (upgrade): $out"
    cd "$ULID_SUITE_ROOT" || exit 1
    expect_match "upgraded to ${VERSION}-N" "$(dpkg-query -W -f='${db:Status-Abbrev} ${Version}' "$PKG")" "^ii  ${VERSION//./\\.}-[0-9]+$"
    expect_str "ALTER EXTENSION ulid UPDATE: $VERSION" \
        "$(q -c 'ALTER EXTENSION ulid UPDATE' -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")" "$VERSION"
    expect_str "the rows are unchanged" "$(q -c 'SELECT count(*), md5(string_agg(id::text, $$,$$ ORDER BY id)), max(id) FROM t')" "$before"
    expect_str "the primary key index is clean (amcheck)" \
        "$(q -c 'CREATE EXTENSION IF NOT EXISTS amcheck' -c "SELECT bt_index_check('t_pkey', true)")" ""
    expect_str "new keys sort above the old ones" \
        "$(q -c 'INSERT INTO t (n) VALUES (0)' -c "SELECT (SELECT id FROM t WHERE n = 0) > '${before##*|}'::ulid")" "t"
    psql -X -q -c 'SET client_min_messages = warning' -c 'DROP DATABASE IF EXISTS deb_fresh' -c 'CREATE DATABASE deb_fresh' </dev/null
    psql -X -q -d deb_fresh -c 'CREATE EXTENSION ulid' </dev/null
    upgraded="$(q -f test/lib/ulid_describe.sql)"
    fresh="$(psql -X -q -At -d deb_fresh -f test/lib/ulid_describe.sql 2>&1)"
    expect_str "after the update the catalog is a fresh install's ($(count_lines "$fresh" " ") lines)" "$upgraded" "$fresh"
    psql -X -q -c 'DROP DATABASE deb_upgrade' -c 'DROP DATABASE deb_fresh' </dev/null
fi

echo
echo "# autopkgtest (debian/tests) against the installed package, null runner"
installed || (cd "$WORK/dist" && apt-get install ./postgresql-15-ulid_*.deb >/dev/null 2>&1)
mapfile -t OWNED < <(dpkg -L "$PKG")
cd "$WORK/dist" || exit 1
t0=$SECONDS
rc=0
(
    # the test makes its own cluster (pg_virtualenv): none of this suite's server settings
    unset PGHOST PGPORT PGUSER PGPASSWORD PGDATABASE PG_CONFIG PGCLUSTER PG_CLUSTER_CONF_ROOT PGSYSCONFDIR
    autopkgtest ./postgresql-ulid_*.dsc ./postgresql-15-ulid_*.deb -- null
) >"$WORK/autopkgtest.log" 2>&1 || rc=$?
cd "$ULID_SUITE_ROOT" || exit 1
summary="$(sed -n '/@@@@@@@@@@@@@@@@@@@@ summary/,$p' "$WORK/autopkgtest.log" | grep -E '^[^ ]+ +(PASS|FAIL|SKIP|FLAKY)')"
if ((rc == 0)) && [[ $summary =~ installcheck\ +PASS ]]; then
    ok "autopkgtest: $(echo "$summary" | xargs) ($((SECONDS - t0)) s)"
else
    bad "autopkgtest (exit $rc):"
    tail -n 60 "$WORK/autopkgtest.log" | sed 's/^/#   /'
fi
grep -E 'tests passed' "$WORK/autopkgtest.log" | sed 's/^/#   /'
if out="$(apt-get purge postgresql-15-ulid 2>&1)"; then ok "apt-get purge postgresql-15-ulid"; else bad "apt-get purge: $out"; fi
purged_clean "after the upgrade and autopkgtest"

if pkgt_restore "$ASIDE"; then
    ok "the source install is back ($(pkgt_installed_files "$PGC" | wc -l) files)"
else
    bad "could not put the source install back from $ASIDE"
fi
note "took $((SECONDS - START)) s"
checks_summary
