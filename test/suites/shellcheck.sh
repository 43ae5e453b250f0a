#!/usr/bin/env bash
# Shell scripts: shellcheck over every shell script of the tree, at severity warning, following
# the files each one sources. A shell script is a tracked file named *.sh, or one whose first line
# runs bash or sh, or names the shell for shellcheck (`# shellcheck shell=bash`: the libraries that
# are sourced); the recipes the docs quote have no #! line and are checked as bash. One check per script. The
# check can fail: a planted script with a `cd` whose failure goes unnoticed (SC2164) and a variable
# used as an array and then as a string (SC2178) is reported with both codes, and a clean planted
# script with nothing.
#
# Tier: static (checks of the tree itself, run once per run (scripts/test --tier static))
# Needs shellcheck (Debian's) and git. Prints one line per check, exits non-zero on any violation.
# shellcheck source=test/lib/checks.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/../lib/checks.sh"
set -uo pipefail
started=$SECONDS

must "shellcheck is installed (apt-get install shellcheck)" command -v shellcheck
must "the tree is a git checkout (its tracked files are the ones checked)" git rev-parse --git-dir

WORK="$(mktemp -d -t ulid-shellcheck.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

# shell_scripts: the tracked shell scripts, one a line
shell_scripts() {
    local f
    git ls-files | while IFS= read -r f; do
        [[ -f $f ]] || continue
        if [[ $f == *.sh ]] || head -n 1 -- "$f" | grep -qE '^#!.*[/ ](ba)?sh( |$)|^# shellcheck shell='; then
            printf '%s\n' "$f"
        fi
    done
}

# check_scripts FILE...: shellcheck at severity warning, one line "FILE:LINE:COL: LEVEL: TEXT [SCNNNN]" a finding
check_scripts() { shellcheck -x -S warning -f gcc "$@" 2>&1; }

mapfile -t scripts < <(shell_scripts)
expect "shell scripts found" "${#scripts[@]}" -ge 40
# the recipes the docs quote have no #! line (they are steps a reader types or pastes; the docs
# quote them whole): checked as bash, and a cd without a check is what a reader at a prompt sees fail
recipe=() others=()
for f in "${scripts[@]}"; do
    if head -n 1 -- "$f" | grep -qE '^#!|^# shellcheck shell='; then others+=("$f"); else recipe+=("$f"); fi
done
findings="$(check_scripts "${others[@]}")"
if ((${#recipe[@]})); then findings+=$'\n'"$(check_scripts -s bash -e SC2164 "${recipe[@]}")"; fi
findings="$(grep . <<<"$findings" || true)"
attributed=0
for f in "${scripts[@]}"; do
    mine="$(awk -v f="$f:" 'index($0, f) == 1' <<<"$findings")"
    if [[ -z $mine ]]; then
        ok "$f"
    else
        attributed=$((attributed + $(wc -l <<<"$mine")))
        bad "$f: $(wc -l <<<"$mine") finding(s)"
        while IFS= read -r line; do printf '#   %s\n' "$line"; done <<<"$mine"
    fi
done
# what shellcheck printed about no listed script (a file it could not read, its own failure)
expect "lines of shellcheck's output that name no listed script" "$(($(grep -c . <<<"$findings") - attributed))" -eq 0

echo
echo "# the check can fail (planted scripts)"
cat >"$WORK/planted.sh" <<'EOF'
#!/usr/bin/env bash
dirs=(a b)
cd "$1"
dirs="c"
echo "$dirs"
EOF
cat >"$WORK/clean.sh" <<'EOF'
#!/usr/bin/env bash
cd "$1" || exit
echo "${2:-}"
EOF
planted="$(check_scripts "$WORK/planted.sh")"
expect_contains "a cd without a check is reported" "$planted" "[SC2164]"
expect_contains "an array then a string is reported" "$planted" "[SC2178]"
expect_str "the clean script: nothing reported" "$(check_scripts "$WORK/clean.sh")" ""

note "shellcheck took $((SECONDS - started)) s"
checks_summary
