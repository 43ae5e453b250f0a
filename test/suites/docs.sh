#!/usr/bin/env bash
# Executable documentation (docs/development.md, "Executable documentation"): README.md and
# docs/*.md as the convention says.
#
#   - static (test/lib/docs.py check, which also checks that test/suites/README.md's index is the
#     suites' headers' first paragraphs): every ```sql and ```sh block's info string uses only the
#     convention's words; a `norun file=<path>` block is verbatim in <path> and some suite runs
#     <path>; an `error` block has its output block; every relative link (file and #anchor) resolves;
#   - the examples and the SQL reference's object index, which need a server of their own, are
#     t/200_docs_examples.pl's;
#   - the two commands of README.md (its ```sh ci block): .ci/run runs scripts/test, and
#     scripts/demo without a terminal (ULID_SKIP_PACKAGES=1 ULID_SKIP_BUILD=1: the extension is
#     installed already) prints its tour and exits 0.
# Prints one line per check, exits non-zero on any violation.
# Tier: static (checks of the tree itself, run once per run (scripts/test --tier static))
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
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

# the major under test (scripts/test exports it; else the pg_config first on PATH, which scripts/test
# makes the major under test's)
MAJOR="${ULID_PG_MAJOR:-$(pg_config --version | sed -nE 's/^PostgreSQL ([0-9]+).*/\1/p')}"

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
