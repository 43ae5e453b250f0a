#!/usr/bin/env bash
# Packaging: META.json for PGXN, one version everywhere, `make dist`, and a build from the archive.
#
#   - META.json is valid against the PGXN Meta Spec v1.0.0 (test/lib/pgxn_meta.py, Python stdlib:
#     required keys and types, semantic versions, licenses, prereqs, ...), and that checker rejects
#     every one of a set of broken copies of it;
#   - one version: META.json's version, provides.ulid.version and default_version in ulid.control
#     agree, provides.ulid.file is ulid--<version>.sql and exists, the docfile exists, the name is
#     the extension's, the abstract is the control file's comment, PostgreSQL >= 13 is required;
#     CHANGELOG.md has a dated section for that version;
#   - the scripts' lists: no ulid--*.sql is both made (src/sql/assemble.sh --list, the Makefile's
#     BUILT_SCRIPTS) and committed, .gitignore ignores every made one and no committed one, and the
#     list holds this version's install script and its refresh round trip both ways;
#   - `make dist` on a snapshot of the working tree (its tracked and not-ignored files committed in a
#     throwaway repository, so that this checks the tree as it is, also before a commit) writes
#     dist/ulid-<version>.zip with every path under ulid-<version>/, holding ulid.control, the
#     SQL script, src/, Makefile, META.json and README.md and no build output; it refuses a commit
#     whose META.json has another version;
#   - the archive builds with PGXS and `make install DESTDIR=...` stages the control file, the SQL
#     script and ulid.so where pg_config says;
#   - the recipes (test/suites/recipes/*.sql and *.sh: migration, partitioning, Citus, portable
#     edition) and the client recipes (clients/: all but the check* programs, package manifests and
#     tool-written migrations) are quoted verbatim in README.md or a page of docs/.
# Needs python3, and for make dist a git checkout, git and the PostgreSQL server headers (outside a
# git checkout, e.g. in an unpacked release, those checks are skipped with a note). Prints one line
# per check, exits non-zero on any violation.
# Tier: packaging (how the extension is built, packaged and installed (scripts/test --tier packaging))
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
source test/lib/checks.sh
suite_exit_on_signals

PG_CONFIG="${PG_CONFIG:-pg_config}" # the major under test (ulid_virtualenv sets it)
WORK="$(mktemp -d -t ulid-pkg.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

VERSION="$(sed -n "s/^default_version = '\(.*\)'$/\1/p" ulid.control)"
COMMENT="$(sed -n "s/^comment = '\(.*\)'$/\1/p" ulid.control)"
note "ulid.control: default_version $VERSION"
# meta KEY...: a value from META.json (a path of keys)
meta() { python3 -c 'import json, sys
v = json.load(open("META.json"))
for k in sys.argv[1:]: v = v[k]
print(json.dumps(v) if not isinstance(v, str) else v)' "$@" 2>/dev/null; }

echo
echo "# META.json against the PGXN Meta Spec v1.0.0"
if out="$(python3 test/lib/pgxn_meta.py META.json 2>&1)"; then
    ok "META.json is valid (test/lib/pgxn_meta.py)"
else
    bad "META.json is not valid:"
    printf '%s\n' "$out" | sed 's/^/#   /'
fi
if out="$(python3 test/lib/pgxn_meta.py --self-test META.json 2>&1)"; then
    ok "the checker rejects broken copies of META.json: ${out##*$'\n'}"
else
    bad "the checker accepts broken copies of META.json:"
    printf '%s\n' "$out" | sed 's/^/#   /'
fi
expect_str "META.json name is the extension's" "$(meta name)" ulid
expect_str "META.json version = ulid.control default_version ($VERSION)" "$(meta version)" "$VERSION"
expect_str "META.json provides.ulid.version = ulid.control default_version" "$(meta provides ulid version)" "$VERSION"
expect_str "META.json provides.ulid.file is the install script of that version" \
    "$(meta provides ulid file)" "ulid--$VERSION.sql"
if [[ -f "ulid--$VERSION.sql" ]]; then ok "ulid--$VERSION.sql exists"; else bad "ulid--$VERSION.sql is missing"; fi
docfile="$(meta provides ulid docfile)"
if [[ -n $docfile && -f $docfile ]]; then ok "provides.ulid.docfile $docfile exists"; else bad "provides.ulid.docfile [$docfile] is missing"; fi
expect_str "META.json abstract = the control file's comment" "$(meta abstract)" "$COMMENT"
expect_str "META.json provides.ulid.abstract = the control file's comment" "$(meta provides ulid abstract)" "$COMMENT"
expect_str "META.json requires PostgreSQL >= 13 at run time" "$(meta prereqs runtime requires PostgreSQL)" "13.0.0"
expect_str "META.json meta-spec version" "$(meta meta-spec version)" "1.0.0"

expect_str "CHANGELOG.md has a section for default_version ($VERSION)" \
    "$(grep -cE "^## ${VERSION//./\\.} — [0-9]{4}-[0-9]{2}-[0-9]{2}\$" CHANGELOG.md)" 1

# the SQL scripts' lists: the Makefile's BUILT_SCRIPTS is derived from the bodies in src/sql
# (assemble.sh --list), .gitignore ignores every ulid--*.sql but the committed ones
echo "# made and committed scripts"
built="$(sh src/sql/assemble.sh --list . | sed 's/.*/ulid--&.sql/' | sort)"
committed="$(git ls-files 'ulid--*.sql' 2>/dev/null | sort)"
if [[ -n $committed ]]; then
    expect_str "scripts both made (assemble.sh --list) and committed" "$(comm -12 <(echo "$built") <(echo "$committed") | paste -sd' ')" ""
    expect_str "made scripts that .gitignore does not ignore" \
        "$(for f in $built; do git check-ignore -q --no-index "$f" || echo "$f"; done | paste -sd' ')" ""
    expect_str "committed scripts that .gitignore ignores" \
        "$(for f in $committed; do git check-ignore -q --no-index "$f" && echo "$f"; done | paste -sd' ')" ""
else
    note "not a git checkout: the committed scripts are not known here"
fi
for f in "ulid--$VERSION.sql" "ulid--$VERSION--$VERSION+refresh.sql" "ulid--$VERSION+refresh--$VERSION.sql"; do
    expect_str "made for this release ($VERSION): $f" "$(grep -cx "$f" <<<"$built")" 1
done

# quoted FILE: FILE's whole text (trimmed) appears verbatim in README.md or in one of docs/*.md (in
# a fenced block indented under a list item: with the fence's indentation taken off its lines)
quoted() {
    python3 - "$1" README.md docs/*.md <<'PY'
import os, re, sys
recipe = open(sys.argv[1], encoding="utf-8").read().strip()
def texts(path):
    text = open(path, encoding="utf-8").read()
    yield text
    for indent, body in re.findall(r"(?m)^( +)```[^\n]*\n(.*?)^ *```", text, re.S):
        yield "".join(l[len(indent):] if l.startswith(indent) else l for l in body.splitlines(True))
sys.exit(0 if any(os.path.exists(d) and any(recipe in t for t in texts(d)) for d in sys.argv[2:]) else 1)
PY
}
echo
echo "# documentation quotes every recipe (migration, partitioning, Citus, portable edition) and the client recipes verbatim"
# client recipes: every file in clients/ but the checks (check*, Check*, check/), package manifests, package
# markers and the migrations that the ORM tools write (t/350_clients.pl checks those against the tools)
mapfile -t client_recipes < <(find clients -type f ! -iname 'check*' ! -path '*/check/*' ! -name '__init__.py' \
    ! -name 'package*.json' ! -path '*/migrations/*' ! -path '*/node_modules/*' ! -name '*.pyc' \
    ! -path '*/generated/*' ! -path '*/target/*' ! -name Cargo.lock | sort)
client_recipes+=(clients/node/prisma/migrations/*/migration.sql) # written by hand (Prisma would write TEXT)
if ((${#client_recipes[@]} >= 10)); then
    ok "${#client_recipes[@]} client recipes in clients/"
else
    bad "only ${#client_recipes[@]} client recipes in clients/: ${client_recipes[*]}"
fi
for f in test/suites/recipes/*.sql test/suites/recipes/*.sh "${client_recipes[@]}"; do
    if quoted "$f"; then
        ok "$f is quoted in README.md or docs/"
    else
        bad "$f is not quoted verbatim in README.md or docs/*.md"
    fi
done

# make dist and the build from its archive need a git checkout (not, e.g., an unpacked release)
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    note "not a git checkout: make dist and the build from its archive are not checked"
    checks_summary
    exit
fi

echo
echo "# releases: scripts/pins/releases names each release's commit; a clone without tags gets them from it"
# list_releases: "version commit" per release, as scripts/lib/common.sh reads it
list_releases() { (ULID_ROOT="$PWD" && source scripts/lib/common.sh && ulid_release_list); }
RELEASES="$(list_releases)"
expect_match "scripts/pins/releases lists 0.1.0, 0.2.0 and 0.2.1 first (the releases before this list)" "$(printf '%s\n' "$RELEASES" | head -n 3 | cut -d' ' -f1 | paste -sd' ')" '^0\.1\.0 0\.2\.0 0\.2\.1$'
problems=""
prev=""
while read -r v c; do
    if ! git cat-file -e "$c^{commit}" 2>/dev/null; then
        problems+=" $v:commit-missing"
        continue
    fi
    git merge-base --is-ancestor "$c" HEAD || problems+=" $v:not-on-this-branch"
    [[ "$(git show "$c:ulid.control" | sed -n "s/^default_version = '\(.*\)'$/\1/p")" == "$v" ]] || problems+=" $v:default_version"
    [[ -z $prev ]] || dpkg --compare-versions "$prev" lt "$v" || problems+=" $v:order"
    dpkg --compare-versions "$v" le "$VERSION" || problems+=" $v:above-$VERSION"
    t="$(git rev-parse -q --verify "refs/tags/v$v^{commit}" 2>/dev/null)" && [[ $t != "$c" ]] && problems+=" $v:tag-is-$t"
    prev="$v"
done <<<"$RELEASES"
expect_str "each release is a commit of this branch, with that default_version, in order, agreeing with its tag" "$problems" ""
unlisted=""
for t in $(git tag -l 'v[0-9]*'); do
    v="${t#v}"
    dpkg --compare-versions "$v" le "$VERSION" || continue
    printf '%s\n' "$RELEASES" | grep -q "^$v " || unlisted+=" $t"
done
expect_str "every release tag up to $VERSION is listed in scripts/pins/releases" "$unlisted" ""
# a clone of this branch without its tags (as CI's clone is): scripts/lib/common.sh makes them
notags() {
    git clone -q --no-tags "file://$PWD" "$WORK/notags" &&
        cp scripts/lib/common.sh "$WORK/notags/scripts/lib/" && cp scripts/pins/releases "$WORK/notags/scripts/pins/" &&
        (ULID_ROOT="$WORK/notags" && source "$WORK/notags/scripts/lib/common.sh" && ulid_ensure_release_tags) >/dev/null
}
if must "a clone without tags: ulid_ensure_release_tags succeeds" notags; then
    expect_str "... and its tags are exactly the releases listed, at their commits" \
        "$(git -C "$WORK/notags" for-each-ref refs/tags --format='%(refname:short) %(objectname)' | sed 's/^v//')" "$RELEASES"
    # the first release's tag moved to the clone's HEAD, a later commit
    git -C "$WORK/notags" tag -f "v$(printf '%s\n' "$RELEASES" | head -n 1 | cut -d' ' -f1)" HEAD >/dev/null
    out="$( (ULID_ROOT="$WORK/notags" && source "$WORK/notags/scripts/lib/common.sh" && ulid_ensure_release_tags) 2>&1)"
    rc=$?
    expect "... a tag that names another commit: refused, not moved; exit status" "$rc" -eq 1
    expect_contains "... naming both commits" "$out" "names $(git -C "$WORK/notags" rev-parse HEAD), scripts/pins/releases says $(printf '%s\n' "$RELEASES" | head -n 1 | cut -d' ' -f2)"
fi

echo
echo "# make dist"
SNAP="$WORK/snapshot"
snapshot() {
    mkdir -p "$SNAP" &&
        git ls-files -z --cached --others --exclude-standard |
        python3 -c 'import os, sys
names = sorted({n for n in sys.stdin.buffer.read().split(b"\0") if n and os.path.lexists(n)})
sys.stdout.buffer.write(b"\0".join(names))' |
        tar --null -T - -cf - | tar -xf - -C "$SNAP" &&
        git -C "$SNAP" init -q &&
        git -C "$SNAP" add -A &&
        git -C "$SNAP" -c user.name=packaging -c user.email=packaging@localhost commit -q -m snapshot
}
must "a snapshot of the working tree (tracked and not-ignored files) committed in a throwaway repository" snapshot
ZIP="$SNAP/dist/ulid-$VERSION.zip"
if out="$(make -C "$SNAP" -s dist PG_CONFIG="$PG_CONFIG" 2>&1)" && [[ -f $ZIP ]]; then
    ok "make dist writes dist/ulid-$VERSION.zip ($(stat -c %s "$ZIP") bytes)"
else
    bad "make dist:"
    printf '%s\n' "$out" | sed 's/^/#   /'
fi
# zipcheck: the archive's problems, one per line (nothing when it is as it should be)
zipcheck() {
    python3 - "$ZIP" "ulid-$VERSION/" "$VERSION" <<'PY'
import json, re, sys, zipfile
path, prefix, version = sys.argv[1:]
z = zipfile.ZipFile(path)
names = z.namelist()
print(f"#entries {len(names)}", file=sys.stderr)
for n in names:
    if not n.startswith(prefix):
        print(f"entry outside {prefix}: {n}")
    if re.search(r"(\.o|\.bc|\.so)$|^dist/|^results/", n[len(prefix):]):
        print(f"build output or ignored file in the archive: {n}")
for want in ("ulid.control", "Makefile", "META.json", "README.md", "test/suites/packaging.sh"):
    if prefix + want not in names:
        print(f"missing: {prefix}{want}")
# the install script of the version: committed, or made by the Makefile from its body (src/sql)
if prefix + f"ulid--{version}.sql" not in names and prefix + f"src/sql/update-to-{version}.sql" not in names:
    print(f"missing: {prefix}ulid--{version}.sql or its body src/sql/update-to-{version}.sql")
if not any(n.startswith(prefix + "src/") and n.endswith(".cpp") for n in names):
    print(f"missing: {prefix}src/**.cpp")
if prefix + "META.json" in names and json.loads(z.read(prefix + "META.json"))["version"] != version:
    print("the archived META.json has another version")
if prefix + "ulid.control" in names and f"default_version = '{version}'" not in z.read(prefix + "ulid.control").decode():
    print("the archived ulid.control has another default_version")
PY
}
if [[ -f $ZIP ]]; then
    out="$(zipcheck 2>"$WORK/zipcheck.err")"
    if [[ -z $out ]]; then
        ok "the archive: $(sed -n 's/^#entries //p' "$WORK/zipcheck.err") entries, all under ulid-$VERSION/, with ulid.control, ulid--$VERSION.sql or its body, src/, Makefile, META.json, README.md and no build output"
    else
        bad "the archive:"
        printf '%s\n' "$out" | sed 's/^/#   /'
    fi
fi
mismatch() {
    sed -i "0,/\"version\": \"$VERSION\"/s//\"version\": \"9.9.9\"/" "$SNAP/META.json" &&
        git -C "$SNAP" -c user.name=packaging -c user.email=packaging@localhost commit -q -am mismatch &&
        ! make -C "$SNAP" -s dist PG_CONFIG="$PG_CONFIG" DIST_DIR="$WORK/mismatch" >/dev/null 2>&1 &&
        [[ ! -e "$WORK/mismatch/ulid-$VERSION.zip" ]]
}
if mismatch; then
    ok "make dist refuses a commit whose META.json version is not ulid.control's"
else
    bad "make dist built an archive with a META.json version that is not ulid.control's"
fi

echo
echo "# build and staged install from the archive"
unpack() {
    python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$ZIP" "$WORK/unpacked"
}
BUILD="$WORK/unpacked/ulid-$VERSION"
if [[ -f $ZIP ]] && must "unpack the archive" unpack &&
    out="$(make -C "$BUILD" -s -j2 PG_CONFIG="$PG_CONFIG" 2>&1)" && [[ -f $BUILD/ulid.so ]]; then
    ok "the unpacked archive builds with PGXS (ulid.so)"
    if out="$(make -C "$BUILD" -s install PG_CONFIG="$PG_CONFIG" DESTDIR="$WORK/stage" 2>&1)"; then
        unstaged=""
        for f in "$("$PG_CONFIG" --sharedir)/extension/ulid.control" \
            "$("$PG_CONFIG" --sharedir)/extension/ulid--$VERSION.sql" "$("$PG_CONFIG" --pkglibdir)/ulid.so"; do
            [[ -f "$WORK/stage$f" ]] || unstaged+=" $f"
        done
        if [[ -z $unstaged ]]; then
            ok "make install DESTDIR=... stages ulid.control, ulid--$VERSION.sql and ulid.so under $("$PG_CONFIG" --sharedir) and $("$PG_CONFIG" --pkglibdir)"
        else
            bad "make install DESTDIR=... did not stage:$unstaged"
        fi
    else
        bad "make install DESTDIR=... from the archive:"
        printf '%s\n' "$out" | tail -n 20 | sed 's/^/#   /'
    fi
else
    bad "build from the archive:"
    printf '%s\n' "${out:-}" | tail -n 20 | sed 's/^/#   /'
fi

checks_summary
