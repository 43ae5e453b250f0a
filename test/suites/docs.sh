#!/usr/bin/env bash
# Executable documentation (docs/development.md, "Executable documentation"): README.md and
# docs/*.md as the convention says.
#
#   - static (test/lib/docs.py check, which also checks that test/suites/README.md's index is the
#     suites' headers' first paragraphs): every ```sql and ```sh block's info string uses only the
#     convention's words; a `norun file=<path>` block is verbatim in <path> and some suite runs
#     <path>; an `error` block has its output block; every relative link (file and #anchor) resolves;
#   - the examples (test/lib/docs.py run): on a server of its own of the major under test
#     (shared_preload_libraries = 'ulid', as docs/monotonicity.md asks for gen_monotonic_ulid() on
#     13-16; TimeZone UTC; ulid.public_id_key, the key of docs/public-ids.md's examples), each page's runnable sql blocks run in order, twice, each time in a
#     fresh empty database, through psql -X -q: a block fails on any error unless marked `error`
#     (then it must fail), and a ```text block after it must be its output — values that differ
#     between the two runs (generated ids, times, numbers) match any value of their shape, timings
#     always do, everything else must be as shown;
#   - complete by construction (test/lib/docs.py reference): every member of the installed
#     extension (pg_depend, deptype 'e') has a COMMENT and a row, with that comment, in
#     docs/sql-reference.md's object index, and every row there is a member on this major or says
#     from which major it is one;
#   - the two commands of README.md (its ```sh ci block): .ci/run runs scripts/test, and
#     scripts/demo without a terminal (ULID_SKIP_PACKAGES=1 ULID_SKIP_BUILD=1: the extension is
#     installed already) prints its tour and exits 0.
# Prints one line per check, exits non-zero on any violation.
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
source test/lib/cluster.sh
source test/lib/checks.sh
suite_isolate_env
suite_exit_on_signals
START=$SECONDS

# docs_py ARGS...: run test/lib/docs.py, echo its lines and count its ok/FAIL lines as checks
docs_py() {
    local out line
    out="$(python3 test/lib/docs.py "$@" 2>&1)"
    while IFS= read -r line; do
        case $line in
        "ok   "*) ok "${line#ok   }" ;;
        "FAIL "*) bad "${line#FAIL }" ;;
        *) printf '%s\n' "$line" ;;
        esac
    done <<<"$out"
}

echo "# static: info strings, quotes, links"
docs_py check

echo
echo "# the examples"
must "create a server" cluster_init docs --no-sync
# the key of docs/public-ids.md's examples, which shows the server-held form with it
cluster_conf docs "shared_preload_libraries = 'ulid'" "timezone = 'UTC'" "ulid.public_id_key = '5a0f8d3e2b6c41a79e1d0c3b4a596877'"
must "start it with shared_preload_libraries = 'ulid' and TimeZone UTC" cluster_start docs
MAJOR="$(cluster_psql docs -d postgres -Atc "SELECT current_setting('server_version_num')::int / 10000")"
note "$(cluster_psql docs -d postgres -Atc 'SELECT version()')"
export PATH="$ULID_PG_BINDIR:$PATH" PGHOST=127.0.0.1 PGPORT="$(cluster_port docs)" PGUSER=postgres PGDATABASE=postgres
docs_py run "$MAJOR"

echo
echo "# the SQL reference is complete"
must "a database with the extension" cluster_psql docs -d postgres -c "CREATE DATABASE docs_reference"
must "CREATE EXTENSION ulid" cluster_psql docs -d docs_reference -c "CREATE EXTENSION ulid"
PGDATABASE=docs_reference docs_py reference "$MAJOR"

echo
echo "# README's two commands"
if grep -qE '(^|/)scripts/test"? ' .ci/run; then
    ok ".ci/run runs scripts/test"
else
    bad ".ci/run does not run scripts/test"
fi
# every scripts/test command line the docs show parses (run with --help appended: it stops there)
while read -r -a cmd; do
    [[ ${cmd[0]} == scripts/test ]] || continue
    if out="$(bash "${cmd[@]}" --help </dev/null 2>&1)" && [[ $out == *"scripts/test"* ]]; then
        ok "the docs' command '${cmd[*]}' is one scripts/test takes"
    else
        bad "the docs' command '${cmd[*]}': scripts/test refuses it: $(tail -n 1 <<<"$out")"
    fi
done < <(python3 test/lib/docs.py ci)
out="$(ULID_SKIP_PACKAGES=1 ULID_SKIP_BUILD=1 ULID_PG_MAJOR="$MAJOR" timeout 300 scripts/demo </dev/null 2>&1)"
rc=$?
if ((rc == 0)) && [[ $out == *"ulid_to_timestamp"* ]]; then
    ok "scripts/demo without a terminal shows its tour and exits 0"
else
    bad "scripts/demo exited with status $rc; its output ends:"
    printf '%s\n' "$out" | tail -n 20 | sed 's/^/#   /'
fi

note "took $((SECONDS - START)) s"
checks_summary
