#!/usr/bin/env bash
# The install steps README.md and docs/install.md show, run as they are written
# (test/suites/recipes/install_from_source.sh and install_from_archive.sh), each in a scratch copy
# of the working tree, with DESTDIR and PG_CONFIG in the environment (make reads both) so that
# `make install` stages the files instead of writing into the server, and apt-get a shell function
# that runs `apt-get --simulate` (the package names must resolve; nothing is installed or upgraded):
#   - from source: apt-get install of the named packages, make, make install: ulid.so,
#     ulid.control and the install script staged;
#   - from a release archive: make dist, unzip, make && make install in the unpacked directory: the
#     same files staged.
# The recipes name Debian's PostgreSQL 15; README says every other major builds the same way with
# its own pg_config, so in every pass they run against the major under test (PG_CONFIG), staging
# only. Needs git and unzip (scripts/test installs them; a failure without). Two full builds:
# about 60 s.
# Tier: packaging (how the extension is built, packaged and installed (scripts/test --tier packaging))
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
source test/lib/checks.sh
suite_exit_on_signals

PG_CONFIG="${PG_CONFIG:-pg_config}"
MAJOR="$("$PG_CONFIG" --version | sed -n 's/^PostgreSQL \([0-9]*\).*/\1/p')"
RECIPES="$PWD/test/suites/recipes"
wanted="$(sed -n 's/^apt-get install //p' "$RECIPES/install_from_source.sh")"
note "PostgreSQL $MAJOR; the recipes' packages: $wanted"
for tool in git unzip; do
    command -v "$tool" >/dev/null || must "$tool is installed (scripts/test installs it)" false
done
WORK="$(mktemp -d -t ulid-install-steps.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

# snapshot DIR: the working tree's tracked and not-ignored files, committed in a new repository
snapshot() {
    mkdir -p "$1" &&
        git ls-files -z --cached --others --exclude-standard | xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' _ |
        tar --null -T - -cf - | tar -xf - -C "$1" &&
        git -C "$1" init -q && git -C "$1" add -A &&
        git -C "$1" -c user.name=install-steps -c user.email=install-steps@localhost commit -q -m snapshot
}
# staged DESTDIR: which of the extension's files make install staged (one line each), missing ones named
staged() {
    local f
    for f in "$("$PG_CONFIG" --pkglibdir)/ulid.so" "$("$PG_CONFIG" --sharedir)/extension/ulid.control" \
        "$("$PG_CONFIG" --sharedir)/extension/ulid--$(sed -n "s/^default_version = '\(.*\)'$/\1/p" ulid.control).sql"; do
        [[ -f $1$f ]] || echo "missing: $f"
    done
}
# apt-get as the recipes run it: simulated (resolves the names, changes nothing)
# On a system whose archive has no PostgreSQL 15 (the sid chroot of 19), the recipe's names are
# those of the major under test, as a user there would write them (README: another major, its own
# packages and pg_config).
if command apt-cache show postgresql-15 >/dev/null 2>&1 && [[ -n "$(command apt-cache show postgresql-15 2>/dev/null)" ]]; then
    apt-get() { command apt-get --simulate "$@"; }
else
    note "this archive has no postgresql-15: the recipe's apt-get line names postgresql-$MAJOR's packages instead"
    # (the major written into the function: the recipes run it in shells of their own)
    eval "apt-get() { command apt-get --simulate \"\${@//-15/-$MAJOR}\"; }"
fi
export -f apt-get
# recipe NAME DIR: run recipes/NAME in DIR as written, DESTDIR and PG_CONFIG in the environment
recipe() {
    (cd "$2" && env DESTDIR="$WORK/stage-${1%.sh}" PG_CONFIG="$PG_CONFIG" \
        bash -euo pipefail "$RECIPES/$1" </dev/null >"$WORK/${1%.sh}.log" 2>&1)
}

for name in install_from_source.sh install_from_archive.sh; do
    echo
    echo "# recipes/$name (PG_CONFIG=$PG_CONFIG, DESTDIR=$WORK/stage-${name%.sh})"
    must "a snapshot of the working tree" snapshot "$WORK/tree-${name%.sh}"
    if recipe "$name" "$WORK/tree-${name%.sh}"; then
        ok "recipes/$name ran without an error"
        grep -q '^apt-get ' "$RECIPES/$name" &&
            expect "apt-get --simulate: packages it would install or upgrade (the names resolve)" \
                "$(grep -c '^Inst \|is already the newest version' "$WORK/${name%.sh}.log")" -ge 1
    else
        bad "recipes/$name failed; its output ends:"
        tail -n 20 "$WORK/${name%.sh}.log" | sed 's/^/#   /'
    fi
    out="$(staged "$WORK/stage-${name%.sh}")"
    if [[ -z $out ]]; then
        ok "make install staged ulid.so, ulid.control and the install script"
    else
        bad "make install did not stage everything:"
        printf '%s\n' "$out" | sed 's/^/#   /'
    fi
done
checks_summary
