# shellcheck shell=bash
# test/lib/checks.sh: check counting for integration suites (source it; bash only).
#
#   ok MSG / bad MSG                  print "ok   MSG" / "FAIL MSG" and count it
#   expect NAME ACTUAL OP WANT        integers; OP is -eq, -ne, -gt, -ge or -le
#   expect_str NAME ACTUAL WANT       exact string equality (shows both on failure)
#   expect_match NAME TEXT REGEX      TEXT matches the extended REGEX (shows TEXT on failure)
#   expect_no_match NAME TEXT REGEX   TEXT does not match REGEX
#   expect_contains NAME TEXT STRING  TEXT contains STRING (fixed string)
#   expect_lacks NAME TEXT STRING     TEXT does not contain STRING
#   count_lines TEXT STRING           how many lines of TEXT contain STRING (fixed string)
#   note MSG                          print "# MSG" (information, not a check)
#   must DESCRIPTION CMD...           run CMD (a set-up step): ok when it succeeds; otherwise FAIL,
#                                     the summary, and exit 1 (nothing after it can be checked)
#   checks_summary                    print "# N checks, M failed"; returns non-zero when M > 0
#   suite_isolate_env                 unset the PG* variables of the caller's server, so that only
#                                     the clusters a suite starts itself (test/lib/cluster.sh) are used
#   suite_exit_on_signals             turn SIGTERM/SIGINT/SIGHUP (a time limit, Ctrl-C) into an exit,
#                                     so that the EXIT trap (cluster.sh's clean-up) runs

CHECKS=0
VIOLATIONS=0

ok() {
    CHECKS=$((CHECKS + 1))
    printf 'ok   %s\n' "$*"
}

bad() {
    CHECKS=$((CHECKS + 1))
    VIOLATIONS=$((VIOLATIONS + 1))
    printf 'FAIL %s\n' "$*"
}

note() { printf '# %s\n' "$*"; }

expect() {
    local name="$1" actual="$2" op="$3" want="$4" good=0
    if [[ $actual =~ ^-?[0-9]+$ && $want =~ ^-?[0-9]+$ ]]; then
        case $op in
            -eq) ((actual == want)) && good=1 ;;
            -ne) ((actual != want)) && good=1 ;;
            -gt) ((actual > want)) && good=1 ;;
            -ge) ((actual >= want)) && good=1 ;;
            -le) ((actual <= want)) && good=1 ;;
        esac
    fi
    if ((good)); then
        ok "$name: $actual"
    else
        bad "$name: ${actual:-<none>} (expected $op $want)"
    fi
}

expect_str() {
    local name="$1" actual="$2" want="$3"
    if [[ $actual == "$want" ]]; then
        ok "$name"
    else
        bad "$name: got [${actual}] expected [${want}]"
    fi
}

expect_match() {
    local name="$1" text="$2" re="$3"
    if [[ $text =~ $re ]]; then
        ok "$name"
    else
        bad "$name: /$re/ not found in:"
        printf '%s\n' "$text" | sed 's/^/#     /'
    fi
}

expect_no_match() {
    local name="$1" text="$2" re="$3"
    if [[ $text =~ $re ]]; then
        bad "$name: /$re/ unexpectedly found in:"
        printf '%s\n' "$text" | sed 's/^/#     /'
    else
        ok "$name"
    fi
}

expect_contains() {
    local name="$1" text="$2" str="$3"
    if [[ $text == *"$str"* ]]; then
        ok "$name"
    else
        bad "$name: [$str] not found in:"
        printf '%s\n' "$text" | sed 's/^/#     /'
    fi
}

expect_lacks() {
    local name="$1" text="$2" str="$3"
    if [[ $text == *"$str"* ]]; then
        bad "$name: [$str] unexpectedly found in:"
        printf '%s\n' "$text" | sed 's/^/#     /'
    else
        ok "$name"
    fi
}

count_lines() { printf '%s\n' "$1" | grep -cF -- "$2" || true; }

must() {
    local what="$1"
    shift
    if "$@"; then
        ok "$what"
    else
        bad "$what"
        checks_summary
        exit 1
    fi
}

checks_summary() {
    echo
    echo "# $CHECKS checks, $VIOLATIONS failed"
    ((VIOLATIONS == 0))
}

suite_isolate_env() {
    unset PGHOST PGHOSTADDR PGPORT PGUSER PGPASSWORD PGDATABASE PGSERVICE PGSERVICEFILE PGOPTIONS \
        PGPASSFILE PGSSLMODE PGCONNECT_TIMEOUT PGTARGETSESSIONATTRS PGDATA PGCLUSTER
}

suite_exit_on_signals() {
    trap 'echo "# interrupted"; exit 143' TERM INT HUP
}
