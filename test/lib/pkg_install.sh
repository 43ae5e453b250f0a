# shellcheck shell=bash
# test/lib/pkg_install.sh: helpers of the bash suite that installs the extension the way users do
# (package_deb.sh; the TAP suites t/330_release_binaries.pl and t/340_pgxn_client.pl have theirs in
# t/lib/PkgInstall.pm). Source it after test/lib/checks.sh.
#
#   pkgt_begin NAME                  sets MAJOR (the major under test), PGC (its pg_config), VERSION
#                                    (default_version), SOURCE_BUILT (1 when scripts/pins/pg-versions
#                                    builds MAJOR), START, and WORK: a temporary directory that the
#                                    postgres user can read (the servers read installed files there)
#   pkgt_package LOG ARG...          scripts/package ARG..., its output in LOG (shown if it fails)
#   pkgt_installed_files PG_CONFIG   the extension's files installed in that server (ulid.so, its JIT
#                                    bitcode, ulid.control, ulid--*.sql), one absolute path a line
#   pkgt_expected_files PG_CONFIG    the files `make install` of this tree installs there, but the
#                                    JIT bitcode (from the Makefile's own variables: stale files
#                                    of older installs in that server do not count)
#   pkgt_aside PG_CONFIG DIR         move those files into DIR (the source install of scripts/test),
#                                    so that only what a suite installs is there; pkgt_restore DIR
#                                    puts them back; pkgt_end (the suites' EXIT trap, after their own
#                                    clean-up) puts back what is still aside and removes WORK
#   pkgt_regress BINDIR PGXS_PG_REGRESS OUTDIR   the regression suite (sql/, expected/ copied to
#                                    OUTDIR) with that server's pg_regress against PGHOST/PGPORT
#   pkgt_loaded_libs                 the ulid libraries mapped by a backend of PGHOST/PGPORT

# shellcheck disable=SC2034 # the variables are for the suite that sources this file
pkgt_begin() {
    MAJOR="${ULID_PG_MAJOR:-15}"
    PGC="${PG_CONFIG:-pg_config}"
    VERSION="$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$ULID_SUITE_ROOT/ulid.control")"
    WORK="$(mktemp -d -t "ulid-$1.XXXXXX")" && chmod 755 "$WORK" || exit 1
    SOURCE_BUILT=0
    awk -v m="$MAJOR" '$1 == m { f = 1 } END { exit !f }' "$ULID_SUITE_ROOT/scripts/pins/pg-versions" && SOURCE_BUILT=1
    START=$SECONDS
}

pkgt_package() {
    local log="$1"
    shift
    "$ULID_SUITE_ROOT/scripts/package" "$@" >"$log" 2>&1 || {
        cat "$log"
        return 1
    }
}

pkgt_installed_files() {
    local pkglib share
    pkglib="$("$1" --pkglibdir)" && share="$("$1" --sharedir)" || return 1
    {
        [[ -e $pkglib/ulid.so ]] && echo "$pkglib/ulid.so"
        [[ -e $pkglib/bitcode/ulid.index.bc ]] && echo "$pkglib/bitcode/ulid.index.bc"
        [[ -d $pkglib/bitcode/ulid ]] && find "$pkglib/bitcode/ulid" -type f
        find "$share/extension" -maxdepth 1 -type f \( -name ulid.control -o -name 'ulid--*.sql' \)
    } | sort
}

pkgt_expected_files() {
    local pkglib share module ext f
    local -a data
    pkglib="$("$1" --pkglibdir)" && share="$("$1" --sharedir)" || return 1
    {
        read -r module ext
        echo "$pkglib/$module.so"
        echo "$share/extension/$ext.control"
        read -r -a data
        for f in "${data[@]}"; do echo "$share/extension/$(basename "$f")"; done
    } < <(make -s -C "$ULID_SUITE_ROOT" -f Makefile -f - PG_CONFIG="$1" print-install-files <<'MK'
print-install-files:
	@echo "$(MODULE_big) $(EXTENSION)"
	@echo "$(DATA) $(DATA_built)"
MK
    ) | sort
}

pkgt_aside() {
    local pgc="$1" dir="$2" f pkglib
    pkglib="$("$pgc" --pkglibdir)" || return 1
    mkdir -p "$dir" || return 1
    pkgt_installed_files "$pgc" >"$dir/.list" || return 1
    while IFS= read -r f; do
        mkdir -p "$dir$(dirname "$f")" && mv "$f" "$dir$f" || return 1
    done <"$dir/.list"
    [[ ! -d $pkglib/bitcode/ulid ]] || find "$pkglib/bitcode/ulid" -depth -type d -empty -delete
}

pkgt_restore() {
    local dir="$1" f rc=0
    [[ -f $dir/.list ]] || return 0
    while IFS= read -r f; do
        [[ -e $dir$f ]] || continue
        mkdir -p "$(dirname "$f")" && mv -f "$dir$f" "$f" || rc=1
    done <"$dir/.list"
    ((rc == 0)) && rm -f "$dir/.list"
    return "$rc"
}

pkgt_end() {
    if [[ -f $WORK/aside/.list ]]; then
        pkgt_restore "$WORK/aside" || echo "# WARNING: could not put the source install back from $WORK/aside"
    fi
    [[ -f $WORK/aside/.list ]] || rm -rf "$WORK"
}

# the REGRESS and REGRESS_OPTS of the Makefile (printed by make itself, whatever they hold)
pkgt_regress_vars() {
    make -s -C "$ULID_SUITE_ROOT" -f Makefile -f - PG_CONFIG="$1" print-regress <<'MK'
print-regress:
	@echo "$(REGRESS_OPTS)"
	@echo "$(REGRESS)"
MK
}

pkgt_regress() {
    local bindir="$1" pg_regress="$2" out="$3" opts tests
    mkdir -p "$out" && cp -a "$ULID_SUITE_ROOT/sql" "$ULID_SUITE_ROOT/expected" "$out/" || return 1
    chmod -R a+rX "$out"
    { read -r opts && read -r tests; } < <(pkgt_regress_vars "$bindir/pg_config")
    [[ -n $tests ]] || {
        echo "pkgt_regress: no REGRESS in the Makefile" >&2
        return 1
    }
    # shellcheck disable=SC2086 # word splitting of the two make variables is meant
    (cd "$out" && "$pg_regress" --inputdir=. --outputdir=. --bindir="$bindir" --host="$PGHOST" \
        --port="$PGPORT" --user="$PGUSER" $opts $tests)
}

pkgt_loaded_libs() {
    psql -X -At -v ON_ERROR_STOP=1 -d "${1:-postgres}" <<'SQL' | grep -oE '/[^ ]*ulid[^ ]*\.so' | sort -u
SELECT gen_ulid() IS NOT NULL;
SELECT pg_read_file('/proc/self/maps');
SQL
}
