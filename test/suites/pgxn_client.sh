#!/usr/bin/env bash
# PGXN's client (Debian's pgxnclient) with the PGXN archive (docs/install.md "From PGXN"):
#   - `scripts/package pgxn` writes ulid-<version>.zip (make dist of the working tree);
#   - into a server that has no file of the extension -- on a source-built major a copy of its
#     install without them, on Debian's 15 that server with the source install moved aside (and
#     put back afterwards) -- `pgxn install ./ulid-<version>.zip` builds and installs it where
#     pg_config says, `pgxn load` creates the extension at default_version (the backend maps the
#     ulid.so pgxn installed), `pgxn check` runs the whole regression suite against it and passes,
#     `pgxn unload` drops the extension and `pgxn uninstall` removes every file it installed.
# About 30 s (a build of the extension).
# Tier: packaging (how the extension is built, packaged and installed (scripts/test --tier packaging))
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
ULID_SUITE_ROOT="$PWD"
source test/lib/checks.sh
source test/lib/pkg_install.sh
suite_exit_on_signals

pkgt_begin pgxn
ZIPNAME="ulid-$VERSION.zip"
ASIDE="$WORK/aside"
trap pkgt_end EXIT

command -v pgxn >/dev/null || {
    bad "pgxn is not installed (apt-get install pgxnclient)"
    checks_summary
    exit 1
}
must "scripts/package pgxn" pkgt_package "$WORK/pgxn.log" pgxn --out "$WORK/dist"
if [[ -f $WORK/dist/$ZIPNAME ]]; then ok "$ZIPNAME"; else bad "no $ZIPNAME"; fi

if ((SOURCE_BUILT)); then
    echo
    echo "# into a copy of the PostgreSQL $MAJOR install without the extension's files"
    prefix="$(cd "$("$PGC" --bindir)/.." && pwd -P)"
    must "copy of $prefix without the extension's files" pkgt_server_copy "$prefix" "$WORK/server"
    TPGC="$WORK/server/bin/pg_config"
    suite_isolate_env
    ULID_PG_BINDIR="$WORK/server/bin"
    source test/lib/cluster.sh
    must "a cluster of the copy" cluster_up pgxn
    PGPORT="$(cluster_port pgxn)"
    export PGHOST=127.0.0.1 PGPORT PGUSER=postgres PGDATABASE=postgres
else
    echo
    echo "# into Debian's PostgreSQL $MAJOR, the source install moved aside"
    TPGC="$PGC"
    must "move the source install aside ($(pkgt_installed_files "$PGC" | wc -l) files)" pkgt_aside "$PGC" "$ASIDE"
fi
PATH="$("$TPGC" --bindir):$PATH"
expect_str "no file of the extension in $("$TPGC" --pkglibdir) and $("$TPGC" --sharedir)/extension" "$(pkgt_installed_files "$TPGC")" ""

psql -X -q -c 'SET client_min_messages = warning' -c 'DROP DATABASE IF EXISTS mydb' -c 'CREATE DATABASE mydb' </dev/null
echo
echo "# a user's steps (docs/install.md), in the directory of the archive"
cd "$WORK/dist" || exit 1
PG_CONFIG="$TPGC"
t0=$SECONDS
(
    set -e
pgxn install --pg_config "$PG_CONFIG" ./ulid-*.zip
pgxn load --pg_config "$PG_CONFIG" -d mydb ./ulid-*.zip
pgxn check --pg_config "$PG_CONFIG" ./ulid-*.zip
) >"$WORK/steps.log" 2>&1
rc=$?
cd "$ULID_SUITE_ROOT" || exit 1
if ((rc == 0)); then
    ok "pgxn install, pgxn load -d mydb, pgxn check ($((SECONDS - t0)) s)"
else
    bad "the steps (exit $rc):"
    tail -n 60 "$WORK/steps.log" | sed 's/^/#   /'
fi
installed="$(pkgt_installed_files "$TPGC")"
expect_contains "pgxn install installed ulid.so" "$installed" "$("$TPGC" --pkglibdir)/ulid.so"
expect_contains "pgxn install installed ulid--$VERSION.sql" "$installed" "$("$TPGC" --sharedir)/extension/ulid--$VERSION.sql"
expect_contains "pgxn load ran CREATE EXTENSION" "$(cat "$WORK/steps.log")" "CREATE EXTENSION"
expect_str "the extension is at default_version" \
    "$(psql -X -At -d mydb -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid'" 2>&1)" "$VERSION"
expect_str "the backend maps the ulid.so pgxn installed" "$(pkgt_loaded_libs mydb)" "$("$TPGC" --pkglibdir)/ulid.so"
expect_match "pgxn check ran the regression suite: it passed" "$(grep -E 'tests passed' "$WORK/steps.log")" \
    "All [0-9]+ tests passed"

cd "$WORK/dist" || exit 1
if out="$(pgxn unload --pg_config "$TPGC" -d mydb "./$ZIPNAME" 2>&1)"; then ok "pgxn unload -d mydb: $out"; else bad "pgxn unload: $out"; fi
expect_str "no extension left in the database" "$(psql -X -At -d mydb -c "SELECT count(*) FROM pg_extension WHERE extname = 'ulid'")" 0
if out="$(pgxn uninstall --pg_config "$TPGC" "./$ZIPNAME" 2>&1)"; then ok "pgxn uninstall ./$ZIPNAME"; else bad "pgxn uninstall: $out"; fi
expect_str "no file of the extension left" "$(pkgt_installed_files "$TPGC")" ""
cd "$ULID_SUITE_ROOT" || exit 1
psql -X -q -c 'SET client_min_messages = warning' -c 'DROP DATABASE IF EXISTS mydb' -c 'DROP DATABASE IF EXISTS contrib_regression' </dev/null

if ((!SOURCE_BUILT)); then
    if pkgt_restore "$ASIDE"; then
        ok "the source install is back ($(pkgt_installed_files "$PGC" | wc -l) files)"
    else
        bad "could not put the source install back from $ASIDE"
    fi
fi
note "took $((SECONDS - START)) s"
checks_summary
