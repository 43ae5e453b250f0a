# shellcheck shell=bash
# scripts/lib/counts.sh: how scripts/test reads a result from the output of what it ran. Source it;
# don't run it. test/suites/result_counting.pl checks each on real output.
#
#   tap_verdict LOG RC     PASSED, SKIPPED or FAILED: the verdict on one TAP file that
#                          `make installcheck PROVE_TESTS=FILE PROVE_FLAGS=--verbose` ran, its
#                          output in LOG and its exit status RC
#   pass_summary LOG       the summary block of a pass of scripts/test that ran as a process of its
#                          own, its output in LOG: the last one, from "======== summary ========" to
#                          the end of LOG
#   pass_count SUMMARY     "P F S": the count in that block (returns 1, printing nothing, when it
#                          has none)

# A file that skips itself (plan skip_all) exits 0, as one that passed does; prove --verbose reports
# it as "t/FILE.pl .. skipped: REASON", or passes the raw plan line "1..0 # SKIP REASON" through.
# A skipped test inside a file that runs ("ok 3 # skip ...") is not a skipped file.
tap_verdict() {
    local log="$1" rc="$2"
    if ((rc != 0)); then
        echo FAILED
    elif grep -qE '^(1\.\.0 # (SKIP|skip)|[^ ]+\.pl \.+ skipped:)' "$log"; then
        echo SKIPPED
    else
        echo PASSED
    fi
}

pass_summary() {
    awk '/^======== summary ========$/ { n = NR } { l[NR] = $0 } END { if (n) for (i = n; i <= NR; i++) print l[i] }' "$1"
}

# The count is the summary's last "N passed, N failed[, N skipped]" line: a pass in the sid chroot
# prints the chroot's summary first, and scripts/sid-chroot may warn after the count (unmounting).
pass_count() {
    local line
    line="$(grep -E '^[0-9]+ passed, [0-9]+ failed' <<<"$1" | tail -n 1 || true)"
    if [[ $line =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)?$ ]]; then
        echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[4]:-0}"
    else
        return 1
    fi
}
