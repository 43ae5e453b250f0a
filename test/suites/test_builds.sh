#!/usr/bin/env bash
# Test-only builds never reach an installed library. `make ULID_TEST_THROW=1` (ulid_test_throw.so,
# with functions that throw and fork on demand), `make ULID_TEST_LAYOUT=N` (a shared-memory
# layout that is not ours) and `make ULID_TEST_NO_OPENSSL=1` (AES as on a server without OpenSSL)
# compile the same sources with other flags; the Makefile records what the
# objects in a tree were made for (.build-flavour) and compiles again when that changes. In a
# scratch copy of the tree, as a developer who ran a suite would:
#   make clean; make ULID_TEST_THROW=1 && make && make install DESTDIR=d1
#   make clean; make ULID_TEST_LAYOUT=99 && make && make install DESTDIR=d2
#   make clean; make ULID_TEST_NO_OPENSSL=1 && make && make install DESTDIR=d3
# then: no installed ulid.so exports a test function, no installed JIT bitcode file (.bc, where
# the server was built with LLVM) names one, d1, d2 and d3 install the same bytes (the layout and
# no-OpenSSL builds left nothing), and the test builds' own install is refused. With the Makefile before
# the flavour stamp, d1's ulid.so and 2 of its bitcode files held the test functions, d2's the layout
# of 99 (4 checks failed).
#
# Needs PG_CONFIG (or pg_config on PATH) of the server under test; installs nothing into it.
# Prints one line per check, exits non-zero on any violation.
# Tier: packaging (how the extension is built, packaged and installed (scripts/test --tier packaging))
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=test/lib/checks.sh
source test/lib/checks.sh
started=$SECONDS

PG_CONFIG="${PG_CONFIG:-pg_config}"
WORK="$(mktemp -d -t ulid-testbuilds.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
mk() { make -s -C "$WORK/tree" -j2 PG_CONFIG="$PG_CONFIG" "$@" >"$WORK/make.log" 2>&1; }

scratch_tree "$WORK/tree"
llvm="$(make -s -C "$WORK/tree" PG_CONFIG="$PG_CONFIG" -f - print-llvm <<'EOF' 2>/dev/null || true
include Makefile
print-llvm:
	@echo $(with_llvm)
EOF
)"
note "server $("$PG_CONFIG" --version); with_llvm=${llvm:-?}"

# installed DESTDIR: what make install put there of ours (the library and its bitcode)
installed() { find "$1" -type f \( -name 'ulid.so' -o -name '*.bc' -o -name '*.index.bc' \) | sort; }

for variant in "ULID_TEST_THROW=1 d1" "ULID_TEST_LAYOUT=99 d2" "ULID_TEST_NO_OPENSSL=1 d3"; do
    read -r flag dest <<<"$variant"
    must "make clean" mk clean
    must "make $flag" mk "$flag"
    if mk "$flag" install DESTDIR="$WORK/refused"; then bad "make $flag install was not refused"; else ok "make $flag install is refused"; fi
    must "make (after make $flag)" mk
    must "make install DESTDIR=$dest (after make $flag)" mk install DESTDIR="$WORK/$dest"
    so="$(find "$WORK/$dest" -name ulid.so | head -n 1)"
    must "$dest: ulid.so installed" test -n "$so"
    expect "$dest ($flag first): test functions exported by the installed ulid.so" \
        "$(nm -D --defined-only "$so" | grep -cE 'ulid_test_(throw|fork)' || true)" -eq 0
    nbc=0
    hits=0
    while IFS= read -r f; do
        [[ $f == *.bc ]] || continue
        nbc=$((nbc + 1))
        if grep -aqE 'ulid_test_(throw|fork)|ULID_TEST' "$f"; then hits=$((hits + 1)); fi
    done < <(installed "$WORK/$dest")
    note "$dest: $nbc bitcode file(s) installed"
    [[ $llvm == yes ]] && expect "$dest: bitcode files installed (the server has LLVM)" "$nbc" -gt 0
    expect "$dest ($flag first): installed bitcode files naming a test function" "$hits" -eq 0
done

# the layout and no-OpenSSL builds' objects left nothing: d2 and d3 hold the same files, byte for
# byte, as d1
for dest in d2 d3; do
    differ=0
    while IFS= read -r f; do
        rel="${f#"$WORK/d1"}"
        cmp -s "$f" "$WORK/$dest$rel" || { differ=$((differ + 1)); note "differs: $rel"; }
    done < <(installed "$WORK/d1")
    expect "installed files that differ between d1 and $dest (ulid.so and bitcode)" "$differ" -eq 0
    expect_str "the same set of files installed in d1 and $dest" \
        "$(installed "$WORK/d1" | sed "s|^$WORK/d1||")" "$(installed "$WORK/$dest" | sed "s|^$WORK/$dest||")"
done
expect_str "the tree's flavour after the last make" "$(cut -d' ' -f1 "$WORK/tree/.build-flavour")" normal

note "test_builds took $((SECONDS - started)) s"
checks_summary
