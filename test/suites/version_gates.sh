#!/usr/bin/env bash
# Version gates: every PG_VERSION_NUM / server_version_num test (and every bare-major comparison in
# shell code) in the code, the SQL scripts, the suites and the scripts names a major N whose both
# sides CI runs: N - 1 (the newest major on the old side) and N (the first on the new side); a side
# below 13, the supported floor, is exempt. scripts/version-gates lists them and checks them against
# ULID_CI_MAJORS (scripts/lib/common.sh), the majors `scripts/test --pg all` (.ci/run) runs.
# Checks:
#   - scripts/test's --pg all is ULID_CI_MAJORS and .ci/run runs --pg all (the list checked is CI's);
#   - the tree: gates found, none with a side CI does not run (the table is printed);
#   - the check can fail: in a scratch copy of the tree, a planted C gate at 20, a planted
#     server_version_num gate at 20 in a suite and a planted shell comparison with 20 are each
#     reported, and nothing else is; with 14 left out of the majors, every gate naming 14 or 15
#     (14 is the old side of 15's) is reported, and nothing else.
# Static: needs no server (it runs in every major's pass; about 1 s).
# Tier: static (checks of the tree itself, run once per run (scripts/test --tier static))
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
source test/lib/checks.sh

WORK="$(mktemp -d -t ulid-gates.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

echo "# the majors checked are CI's"
# shellcheck disable=SC2016 # the text of scripts/test, not an expansion
expect_contains "scripts/test: --pg all is ULID_CI_MAJORS" "$(cat scripts/test)" 'ALL_MAJORS=("${ULID_CI_MAJORS[@]}")'
expect_match ".ci/run runs scripts/test --pg all" "$(cat .ci/run)" 'scripts/test"? --pg all'
majors="$(bash -c 'source scripts/lib/common.sh; echo "${ULID_CI_MAJORS[*]}"')"
note "ULID_CI_MAJORS: $majors"

echo
echo "# the tree"
rc=0
scripts/version-gates >"$WORK/tree.txt" 2>&1 || rc=$?
sed 's/^/#   /' "$WORK/tree.txt"
expect "scripts/version-gates on the tree: exit status" "$rc" -eq 0
expect "gates found" "$(grep -cE '^(ok  |FAIL) ' "$WORK/tree.txt")" -ge 40
expect "gates with a side CI does not run" "$(grep -c '^FAIL ' "$WORK/tree.txt")" -eq 0

echo
echo "# the check fails on a gate CI cannot prove (a scratch copy of the tree)"
copy="$WORK/tree"
mkdir -p "$copy"
{ git ls-files -z 2>/dev/null || find . -path ./.git -prune -o -type f -print0; } | tar --null -T - -cf - | tar -xf - -C "$copy"
# planted: 20 is a major CI does not run (the numbers are built here so this file holds none)
printf '#if PG_VERSION_NUM >= %s\n#endif\n' "$((20 * 10000))" >>"$copy/src/pg/compat.h"
# a line of Perl (a TAP suite's), written out
printf 'if (query(q{SHOW server_version_num}) >= %s) { }\n' "$((20 * 10000))" >>"$copy/t/210_pg_upgrade.pl"
# a line of bash, written out (scripts/test: a shell file that stays)
printf 'if ((major >= %s)); then :; fi\n' "$((19 + 1))" >>"$copy/scripts/test"
rc=0
scripts/version-gates --root "$copy" >"$WORK/planted.txt" 2>&1 || rc=$?
expect "planted gates: exit status" "$rc" -eq 1
fails="$(grep '^FAIL ' "$WORK/planted.txt" | sed -E 's/^FAIL ([^:]+):[0-9]+: gate at ([0-9]+);.*/\1 \2/' | sort | tr '\n' ' ')"
expect_str "planted gates: exactly the three planted lines are reported" "$fails" \
    "scripts/test 20 src/pg/compat.h 20 t/210_pg_upgrade.pl 20 "
grep '^FAIL ' "$WORK/planted.txt" | sed 's/^/#   /'

rc=0
without14="$(tr ' ' '\n' <<<"$majors" | grep -vx 14 | paste -sd,)"
scripts/version-gates --majors "$without14" >"$WORK/no14.txt" 2>&1 || rc=$?
expect "CI without 14 ($without14): exit status" "$rc" -eq 1
expect_str "CI without 14: the gates reported are those naming 14 or 15" \
    "$(grep '^FAIL ' "$WORK/no14.txt" | grep -cvE 'gate at 1[45];')" "0"
expect_str "CI without 14: ... all of them" "$(grep -c '^FAIL ' "$WORK/no14.txt")" \
    "$(grep -cE '^ok   .*gate at 1[45];' "$WORK/tree.txt")"

checks_summary
