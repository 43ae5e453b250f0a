# shellcheck shell=bash
# scripts/lib/package.sh: how scripts/package makes each artefact (source it after common.sh).
#
#   pkg_version DIR                 default_version in DIR/ulid.control
#   pkg_changelog_check DIR         "" when debian/changelog's newest entry is default_version's
#                                   release, else what is wrong and how to fix it
#   pkg_previous_tag                the tag of the release before default_version (see below)
#   pkg_tree DEST [REF]             the source without debian/ into DEST: the working tree (tracked
#                                   and untracked-but-not-ignored files) or the commit REF
#   pkg_deb OUT [TAG]               Debian source and binary packages (TAG: that release's source)
#   pkg_lintian OUT                 lintian on the last pkg_deb's .changes: no error, no warning
#   pkg_binary OUT MAJOR            the release binary archive for MAJOR
#   pkg_pgxn OUT                    the PGXN archive (make dist of a snapshot of the working tree)
#   pkg_sums OUT                    OUT/SHA256SUMS over every artefact in OUT

PKG_TMP=()
trap 'for d in "${PKG_TMP[@]}"; do rm -rf "$d"; done' EXIT
PKG_LAST_CHANGES=""

# pkg_tmpdir: a temporary directory removed on exit, readable by the postgres user (the servers of
# the packages' tests read debian/<package>/ and the release binaries through it)
pkg_tmpdir() {
    local d
    d="$(mktemp -d -t ulid-package.XXXXXX)" || return 1
    chmod 755 "$d"
    PKG_TMP+=("$d")
    printf '%s\n' "$d"
}

pkg_version() { sed -n "s/^default_version = '\(.*\)'$/\1/p" "$1/ulid.control"; }

# the upstream part of a Debian version: no epoch, no Debian revision
pkg_upstream() {
    local v="${1#*:}"
    printf '%s\n' "${v%-*}"
}

pkg_changelog_check() {
    local dir="$1" want top
    want="$(pkg_version "$dir")"
    top="$(dpkg-parsechangelog -l "$dir/debian/changelog" -S Version 2>/dev/null)" || {
        echo "debian/changelog cannot be parsed (dpkg-parsechangelog)"
        return 0
    }
    [[ "$(pkg_upstream "$top")" == "$want" ]] && return 0
    echo "debian/changelog's newest entry is $top but ulid.control's default_version is $want:" \
        "add an entry for the release at the top of debian/changelog, e.g." \
        "dch -v $want-1 -D unstable 'New upstream release $want.' (devscripts), or by hand"
}

# pkg_changelog_versions DIR: the upstream versions of debian/changelog's entries, newest first
pkg_changelog_versions() {
    local v
    dpkg-parsechangelog -l "$1/debian/changelog" --format rfc822 --all 2>/dev/null | sed -n 's/^Version: //p' |
        while read -r v; do pkg_upstream "$v"; done | awk '!seen[$0]++'
}

# The previous release: the newest tag v<version> with <version> below default_version. When
# debian/changelog names an older release (its first entry of another upstream version), that
# release's tag must be in the clone too: a clone without it (shallow, or tags not fetched) would
# otherwise test the upgrade from an older release than the last one, so this refuses instead.
pkg_previous_tag() {
    local cur best="" t v listed=""
    cur="$(pkg_version "$ULID_ROOT")"
    git -C "$ULID_ROOT" rev-parse --git-dir >/dev/null 2>&1 ||
        ulid_die "package: $ULID_ROOT is not a git checkout: the previous release comes from its tag"
    ulid_ensure_release_tags >&2 || true # tags from scripts/pins/releases where the clone has the commits
    while read -r t; do
        v="${t#v}"
        dpkg --compare-versions "$v" lt "$cur" 2>/dev/null || continue
        if [[ -z $best ]] || dpkg --compare-versions "$v" gt "${best#v}"; then best="$t"; fi
    done < <(git -C "$ULID_ROOT" tag -l 'v[0-9]*')
    while read -r v; do
        if dpkg --compare-versions "$v" lt "$cur"; then
            listed="$v"
            break
        fi
    done < <(pkg_changelog_versions "$ULID_ROOT")
    if [[ -n $listed ]] && ! git -C "$ULID_ROOT" rev-parse -q --verify "refs/tags/v$listed" >/dev/null; then
        ulid_die "package: debian/changelog lists release $listed, but this clone has no tag v$listed" \
            "(fetch the tags: git fetch --tags; a shallow clone has none)"
    fi
    [[ -n $best ]] || ulid_die "package: this clone has no release tag v* older than $cur (fetch the tags:" \
        "git fetch --tags; a shallow clone has none)"
    v="$(git -C "$ULID_ROOT" show "$best:ulid.control" | sed -n "s/^default_version = '\(.*\)'$/\1/p")"
    [[ $v == "${best#v}" ]] || ulid_die "package: tag $best has default_version '$v' in its ulid.control"
    printf '%s\n' "$best"
}

pkg_tree() {
    local dest="$1" ref="${2:-}"
    git -C "$ULID_ROOT" rev-parse --git-dir >/dev/null 2>&1 ||
        ulid_die "package: $ULID_ROOT is not a git checkout (the source is taken from git)"
    mkdir -p "$dest"
    if [[ -n $ref ]]; then
        git -C "$ULID_ROOT" archive --format=tar "$ref" | tar -xf - -C "$dest" || return 1
    else
        (cd "$ULID_ROOT" && git ls-files -z --cached --others --exclude-standard |
            python3 -c 'import os, sys
names = sorted({n for n in sys.stdin.buffer.read().split(b"\0") if n and os.path.lexists(n)})
sys.stdout.buffer.write(b"\0".join(names))' |
            tar --null -T - -cf -) | tar -xf - -C "$dest" || return 1
    fi
    rm -rf "$dest/debian"
}

# pkg_changelog_for VERSION TAG: debian/changelog for the package of release VERSION: this tree's
# changelog from VERSION's entry on when it has one, else one entry saying where the packaging is from
pkg_changelog_for() {
    local ver="$1" tag="$2" cl="$ULID_ROOT/debian/changelog" when maint cur
    if pkg_changelog_versions "$ULID_ROOT" | grep -qxF -- "$ver"; then
        awk -v v="$ver" '
            /^[a-z0-9][a-z0-9.+-]* \(/ { h = $2; gsub(/[()]/, "", h); sub(/^[0-9]+:/, "", h); sub(/-[^-]*$/, "", h)
                                         if (h == v) on = 1 }
            on' "$cl"
        return
    fi
    when="$(date -R -u -d "@$(git -C "$ULID_ROOT" log -1 --format=%ct "$tag")")"
    maint="$(dpkg-parsechangelog -l "$cl" -S Maintainer)"
    cur="$(dpkg-parsechangelog -l "$cl" -S Version)"
    cat <<EOF
postgresql-ulid ($ver-1) unstable; urgency=medium

  * Release $ver (tag $tag), packaged with debian/ of $cur: the tag
    predates the Debian packaging.

 -- $maint  $when
EOF
}

pkg_deb() {
    local out="$1" tag="${2:-}" work src ver msg majors mtime f
    local -a files
    for f in dpkg-buildpackage pg_buildext dh; do
        command -v "$f" >/dev/null ||
            ulid_die "package deb: $f is missing (apt-get install dpkg-dev debhelper postgresql-server-dev-all postgresql-all)"
    done
    work="$(pkg_tmpdir)" || return 1
    if [[ -n $tag ]]; then
        ver="${tag#v}"
    else
        ver="$(pkg_version "$ULID_ROOT")"
        msg="$(pkg_changelog_check "$ULID_ROOT")"
        [[ -z $msg ]] || ulid_die "package deb: $msg"
    fi
    src="$work/postgresql-ulid-$ver"
    pkg_tree "$src" "$tag" || ulid_die "package deb: could not copy the source${tag:+ of $tag}"
    # the orig tarball: the release's tree without debian/, reproducible (sorted, owner 0, the
    # commit's time)
    mtime="$(git -C "$ULID_ROOT" log -1 --format=%ct "${tag:-HEAD}")"
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" -C "$work" -cf - "postgresql-ulid-$ver" |
        gzip -9n >"$work/postgresql-ulid_$ver.orig.tar.gz"
    cp -a "$ULID_ROOT/debian" "$src/debian"
    if [[ -n $tag ]]; then
        pkg_changelog_for "$ver" "$tag" >"$src/debian/changelog"
    fi
    # debian/control lists one binary package per major that is built here: every installed
    # postgresql-server-dev-N, or the majors the caller names in PG_SUPPORTED_VERSIONS (pg_buildext's
    # own variable, e.g. PG_SUPPORTED_VERSIONS=19)
    local versions="${PG_SUPPORTED_VERSIONS:-installed}"
    (cd "$src" && PG_SUPPORTED_VERSIONS="$versions" pg_buildext updatecontrol) ||
        ulid_die "package deb: pg_buildext updatecontrol failed"
    majors="$(cd "$src" && PG_SUPPORTED_VERSIONS="$versions" pg_buildext supported-versions | xargs)"
    [[ -n $majors ]] || ulid_die "package deb: no postgresql-server-dev-N (N >= 13) is installed"
    ulid_log "package deb: postgresql-ulid $(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)${tag:+ (the source of $tag)} for PostgreSQL $majors (log: dpkg-buildpackage.log in $out)"
    # A previous release is built without its regression tests: they ran when it was released, and
    # an older release's tests need not run in this packaging's build-time set-up (0.2.1's read
    # pg_available_extensions, which does not see the files of debian/<package> there).
    local opts="${DEB_BUILD_OPTIONS:-}"
    [[ -z $tag ]] || opts="${opts:+$opts }nocheck"
    if ! (cd "$src" && PG_SUPPORTED_VERSIONS="$versions" DEB_BUILD_OPTIONS="$opts" dpkg-buildpackage -us -uc) \
        >"$work/build.log" 2>&1; then
        tail -n 100 "$work/build.log"
        cp "$work/build.log" "$out/dpkg-buildpackage.log"
        ulid_die "package deb: dpkg-buildpackage failed (log: $out/dpkg-buildpackage.log)"
    fi
    cp "$work/build.log" "$out/dpkg-buildpackage.log"
    # what the build says of each major: pg_buildext's steps and pg_regress's results
    grep -E '^(### |test |ok [0-9]|not ok |All [0-9]+ tests|# All|dpkg-deb: building)' "$work/build.log" || true
    mapfile -t files < <(find "$work" -maxdepth 1 -type f \( -name '*.dsc' -o -name '*.orig.tar.gz' \
        -o -name '*.debian.tar.xz' -o -name '*.deb' -o -name '*.changes' -o -name '*.buildinfo' \))
    cp "${files[@]}" "$out/"
    PKG_LAST_CHANGES="$(find "$out" -maxdepth 1 -name "postgresql-ulid_$(pkg_upstream "$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)")-*.changes" | sort | tail -n 1)"
}

pkg_lintian() {
    local rc=0
    [[ -n $PKG_LAST_CHANGES ]] || ulid_die "package: no .changes to check"
    command -v lintian >/dev/null || ulid_die "package: lintian is missing (apt-get install lintian)"
    ulid_log "package: lintian --fail-on error,warning --display-info $(basename "$PKG_LAST_CHANGES")"
    lintian --fail-on error,warning --display-info "$PKG_LAST_CHANGES" || rc=$?
    ((rc == 0)) || ulid_die "package: lintian reports errors or warnings (exit $rc)"
    ulid_log "package: lintian: no error, no warning"
}

# pkg_binary_needs SO: one line per library SO needs at run time, with the newest symbol versions
# it uses from glibc and libstdc++
pkg_binary_needs() {
    local so="$1" lib top
    for lib in $(objdump -p "$so" | awk '$1 == "NEEDED" { print $2 }'); do
        top=""
        case "$lib" in
        libc.so.*) top="$(pkg_symbol_top "$so" GLIBC)" ;;
        libstdc++.so.*) top="$(pkg_symbol_top "$so" CXXABI), $(pkg_symbol_top "$so" GLIBCXX)" ;;
        esac
        printf '%s%s\n' "$lib" "${top:+ (newest symbol versions used: $top)}"
    done
}

# pkg_symbol_top SO PREFIX: the newest PREFIX_<version> among the symbols SO imports (objdump -T)
pkg_symbol_top() {
    objdump -T "$1" | grep -oE "\($2_[0-9.]+\)" | tr -d '()' | sort -uV | tail -n 1
}

PKG_GLIBC_FLOOR=2.17 # the newest glibc symbol version a release archive's ulid.so may need
pkg_binary() {
    local out="$1" major="$2" pgc prefix work src stage ver arch name pkglib share left glibc
    if ulid_pg_source_built "$major"; then
        prefix="$(bash "$ULID_ROOT/scripts/build/pg-build" "$major" | tail -n 1)" ||
            ulid_die "package binaries: PostgreSQL $major could not be built (scripts/build/pg-build $major)"
        pgc="$prefix/bin/pg_config"
    else
        pgc="$(ULID_PG_MAJOR="$major" ulid_pg_config)" ||
            ulid_die "package binaries: no PostgreSQL $major (not in scripts/pins/pg-versions, no Debian package)"
    fi
    [[ "$("$pgc" --version)" =~ ^PostgreSQL\ $major(\.|beta|rc) ]] || ulid_die "package binaries: $pgc is not PostgreSQL $major"
    ver="$(pkg_version "$ULID_ROOT")"
    arch="$(uname -m)"
    name="ulid-$ver-pg$major-linux-$arch"
    work="$(pkg_tmpdir)" || return 1
    src="$work/src"
    stage="$work/stage"
    pkg_tree "$src" || ulid_die "package binaries: could not copy the source"
    ulid_log "package binaries: $name.tar.gz ($("$pgc" --version), $pgc)"
    # rpath= : no RUNPATH to the build server's lib directory (a source-built server's PGXS adds one)
    if ! { make -C "$src" -s -j2 PG_CONFIG="$pgc" rpath= && make -C "$src" -s install PG_CONFIG="$pgc" DESTDIR="$stage"; } \
        >"$work/build.log" 2>&1; then
        tail -n 40 "$work/build.log"
        ulid_die "package binaries: the build for PostgreSQL $major failed"
    fi
    # laid out relative to pg_config's directories: pkglibdir/ and sharedir/
    pkglib="$("$pgc" --pkglibdir)"
    share="$("$pgc" --sharedir)"
    mkdir -p "$work/$name"
    mv "$stage$pkglib" "$work/$name/pkglibdir"
    mv "$stage$share" "$work/$name/sharedir"
    left="$(find "$stage" -type f)"
    [[ -z $left ]] || ulid_die "package binaries: make install wrote files outside pkglibdir and sharedir: $left"
    [[ -f $work/$name/pkglibdir/ulid.so ]] || ulid_die "package binaries: no ulid.so was installed"
    # the glibc floor every archive states (docs/install.md): a library built on a newer system than
    # Debian 12 (19's, in the sid chroot) may need more, and is not released
    glibc="$(pkg_symbol_top "$work/$name/pkglibdir/ulid.so" GLIBC)"
    if [[ "$(printf '%s\n' "GLIBC_$PKG_GLIBC_FLOOR" "$glibc" | sort -V | tail -n 1)" != "GLIBC_$PKG_GLIBC_FLOOR" ]]; then
        ulid_die "package binaries: this ulid.so needs $glibc, above the GLIBC_$PKG_GLIBC_FLOOR floor of the release archives: no archive for PostgreSQL $major from this system (19's waits until 19.0 builds from source on Debian 12)"
    fi
    install -m 755 "$ULID_ROOT/scripts/lib/release-install.sh" "$work/$name/install.sh"
    install -m 644 "$ULID_ROOT/LICENSE" "$work/$name/LICENSE"
    {
        echo "ulid $ver for PostgreSQL $major on Linux $arch (a release binary; docs/install.md)"
        echo
        echo "major=$major"
        echo "built_against=$("$pgc" --version)"
        echo
        echo "Install: ./install.sh [/path/to/pg_config]   (as the owner of the server's files, often root)"
        echo "then CREATE EXTENSION ulid; in a database."
        echo
        echo "pkglibdir/ goes to \`pg_config --pkglibdir\`, sharedir/ to \`pg_config --sharedir\`."
        echo "pkglibdir/ulid.so needs at run time (objdump -p, objdump -T):"
        pkg_binary_needs "$work/$name/pkglibdir/ulid.so" | sed 's/^/  /'
    } >"$work/$name/README"
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$(git -C "$ULID_ROOT" log -1 --format=%ct HEAD)" \
        -C "$work" -cf - "$name" | gzip -9n >"$out/$name.tar.gz"
    ulid_log "package binaries: $out/$name.tar.gz"
}

pkg_pgxn() {
    local out="$1" work pgc
    work="$(pkg_tmpdir)" || return 1
    pgc="$(ulid_pg_config 2>/dev/null || command -v pg_config)" ||
        ulid_die "package pgxn: make dist needs a pg_config (PGXS), and none was found"
    # make dist archives a commit: a throwaway repository holding the working tree as it is
    if ! { pkg_tree "$work/snap" && cp -a "$ULID_ROOT/debian" "$work/snap/debian" &&
        git -C "$work/snap" init -q && git -C "$work/snap" add -A &&
        git -C "$work/snap" -c user.name=package -c user.email=package@localhost commit -q -m snapshot; }; then
        ulid_die "package pgxn: could not snapshot the working tree"
    fi
    make -C "$work/snap" -s dist PG_CONFIG="$pgc" DIST_DIR="$out" || ulid_die "package pgxn: make dist failed"
    ulid_log "package pgxn: $out/ulid-$(pkg_version "$ULID_ROOT").zip"
}

pkg_sums() {
    local out="$1"
    local sums
    sums="$(cd "$out" && find . -maxdepth 1 -type f ! -name SHA256SUMS ! -name '*.log' -printf '%f\n' | sort |
        xargs -r sha256sum --)" || return 1
    printf '%s\n' "$sums" >"$out/SHA256SUMS"
}
