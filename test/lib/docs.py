#!/usr/bin/env python3
"""Executable documentation: the fenced blocks of README.md and docs/*.md (docs/development.md,
"Executable documentation", is the convention this enforces).

    docs.py check                      static checks: info strings, norun quotes, relative links
    docs.py ci                         the commands of the ```sh ci blocks, one per line
    docs.py run MAJOR [PAGE...]        run every page's sql blocks (psql, PG* environment) twice,
                                       each time in a fresh database, and compare the output blocks
    docs.py write MAJOR PAGE...        the same, but write the real output into the page's
                                       ```text blocks (how output blocks are made; never by hand)
    docs.py paths                      every path of this repository that a tracked file names, in
                                       its text or comments, exists (also part of check)
    docs.py suites [--write]           test/suites/README.md's index of the suites is the first
                                       paragraph of each suite's header, as made (--write makes it)
    docs.py reference MAJOR [--write]  every member of the installed extension has a COMMENT and a
                                       row in docs/sql-reference.md's object index that says what the
                                       catalog says, and every row there is a member (or says from
                                       which major on it is one); --write makes the rows from the
                                       catalog

Prints one line per check ("ok   ..." / "FAIL ...") and exits non-zero when any failed.
"""
import fnmatch
import glob
import os
import re
import subprocess
import sys
import unicodedata

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FENCE = re.compile(r"^( *)(`{3,})(.*)$")
SQL_WORDS = re.compile(r"^(error|norun|file=\S+|pg>=1[3-9]|pg<1[3-9])$")
SH_WORDS = re.compile(r"^(norun|file=\S+|ci)$")
MARK = "ulid-docs-block"

failed = 0


def ok(msg):
    print(f"ok   {msg}")


def bad(msg, detail=None):
    global failed
    failed += 1
    print(f"FAIL {msg}")
    if detail:
        for line in detail.rstrip("\n").split("\n"):
            print(f"#     {line}")


def pages(names=None):
    if names:
        return [os.path.relpath(os.path.abspath(n), ROOT) for n in names]
    return ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))


class Block:
    def __init__(self, page, line, indent, lang, words, lines, end):
        self.page, self.line, self.indent, self.lang, self.words = page, line, indent, lang, words
        self.lines, self.end = lines, end  # text lines (indent removed); index of the closing fence
        self.outputs = []  # the ```text blocks right after a sql block (one per range of majors)

    @property
    def text(self):
        return "\n".join(self.lines) + "\n"

    def flag(self, name):
        return name in self.words

    def file(self):
        for w in self.words:
            if w.startswith("file="):
                return w[5:]
        return None

    def runs_on(self, major):
        for w in self.words:
            if w.startswith("pg>=") and major < int(w[4:]):
                return False
            if w.startswith("pg<") and major >= int(w[3:]):
                return False
        return True

    def output(self, major):
        """The output block for this major (None when the block shows none; a list when the
        page gives several for it)."""
        fits = [o for o in self.outputs if o.runs_on(major)]
        return fits[0] if len(fits) == 1 else (fits or None)

    def where(self):
        return f"{self.page}:{self.line}"


def parse(page):
    """The fenced blocks of a page, in order; the text blocks right after a sql block (nothing but
    blank lines between) are that block's output (for majors as their pg>=N / pg<N words say)."""
    src = open(os.path.join(ROOT, page), encoding="utf-8").read().split("\n")
    blocks, i = [], 0
    while i < len(src):
        m = FENCE.match(src[i])
        if not m:
            i += 1
            continue
        indent, ticks, info = len(m.group(1)), m.group(2), m.group(3).strip()
        j = i + 1
        while j < len(src) and not re.match(r"^ *" + ticks + r"`*\s*$", src[j]):
            j += 1
        body = [l[indent:] if l[:indent].strip() == "" else l for l in src[i + 1:j]]
        words = info.split()
        blocks.append(Block(page, i + 1, indent, words[0] if words else "", words[1:], body, j))
        i = j + 1
    owner = None
    for prev, cur in zip(blocks, blocks[1:]):
        between = src[prev.end + 1:cur.line - 1]
        if prev.lang == "sql":
            owner = prev
        if owner and cur.lang == "text" and prev.lang in ("sql", "text") and all(not l.strip() for l in between):
            owner.outputs.append(cur)
        else:
            owner = None
    return blocks, src


# ---------------------------------------------------------------------------------------------
# static checks

def suite_sources():
    """Files that CI runs (scripts/test, the suites) and the paths they name."""
    texts = {}
    for f in all_suites() + [os.path.join(ROOT, "scripts", "test"), os.path.join(ROOT, ".ci", "run")]:
        if os.path.exists(f):
            texts[os.path.relpath(f, ROOT)] = open(f, encoding="utf-8").read()
    return texts


def run_by_a_suite(path, texts):
    """path is a suite, or its name (or a glob that matches it) appears in a suite's text."""
    if path in texts:
        return True
    base = os.path.basename(path)
    for t in texts.values():
        if base in t:
            return True
        for pat in re.findall(r"[\w./-]*\*[\w./*-]*", t):
            if fnmatch.fnmatch(path, pat) or fnmatch.fnmatch(base, os.path.basename(pat)):
                return True
    return False


def slug(heading):
    """GitHub's anchor for a heading."""
    s = heading.strip().lower()
    s = re.sub(r"`", "", s)
    s = "".join(c for c in s if c in "-_ " or unicodedata.category(c)[0] in "LN")
    return s.replace(" ", "-")


def anchors(page):
    found, counts, fence = set(), {}, False
    for line in open(os.path.join(ROOT, page), encoding="utf-8").read().split("\n"):
        if FENCE.match(line):
            fence = not fence
            continue
        m = re.match(r"^#{1,6} (.*)$", line)
        if m and not fence:
            s = slug(m.group(1))
            n = counts.get(s, 0)
            counts[s] = n + 1
            found.add(s if n == 0 else f"{s}-{n}")
    return found


def check_links(page, src, blocks):
    inside = set()
    for b in blocks:
        inside.update(range(b.line - 1, b.end + 1))
    n = 0
    for i, line in enumerate(src):
        if i in inside:
            continue
        for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"`[^`]*`", "", line)):
            if re.match(r"^[a-z]+:", target):
                continue  # http:, https:, mailto:
            n += 1
            path, _, frag = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            if not os.path.exists(os.path.join(ROOT, dest)):
                bad(f"{page}:{i + 1}: link {target}: {dest} does not exist")
            elif frag and dest.endswith(".md") and frag not in anchors(dest):
                bad(f"{page}:{i + 1}: link {target}: no heading #{frag} in {dest}")
    return n


def ci_commands(block):
    """The commands of a ```sh ci block: each line without its comment, `bash ` dropped."""
    cmds = []
    for line in block.lines:
        words = line.split("#")[0].split()
        if words and words[0] == "bash":
            words = words[1:]
        if words:
            cmds.append(words)
    return cmds


def list_ci():
    """Every command of every ```sh ci block, one per line (docs.sh runs them)."""
    for page in pages():
        for b in parse(page)[0]:
            if b.lang == "sh" and b.flag("ci"):
                for c in ci_commands(b):
                    print(" ".join(c))


def check():
    texts = suite_sources()
    for page in pages():
        blocks, src = parse(page)
        problems = []
        counts = {"sql": 0, "output": 0, "norun": 0, "sh": 0}
        for b in blocks:
            if b.lang == "sql":
                counts["sql"] += 1
                bad_words = [w for w in b.words if not SQL_WORDS.match(w)]
                if bad_words:
                    problems.append(f"{b.where()}: unknown word(s) after ```sql: {' '.join(bad_words)}")
                if b.flag("norun"):
                    counts["norun"] += 1
                    if b.outputs:
                        problems.append(f"{b.where()}: a norun block cannot have an output block")
                elif b.file():
                    problems.append(f"{b.where()}: file= goes with norun")
                if b.flag("error") and not b.outputs:
                    problems.append(f"{b.where()}: an error block needs the ```text block with the error after it")
                for o in b.outputs:
                    bad_words = [w for w in o.words if not re.match(r"^pg(>=|<)1[3-9]$", w)]
                    if bad_words:
                        problems.append(f"{o.where()}: unknown word(s) after ```text: {' '.join(bad_words)}")
                for major in range(13, 20):
                    if b.runs_on(major) and isinstance(b.output(major), list):
                        problems.append(f"{b.where()}: {len(b.output(major))} output blocks for PostgreSQL {major}")
                    elif b.outputs and b.runs_on(major) and b.output(major) is None:
                        problems.append(f"{b.where()}: no output block for PostgreSQL {major}")
                if b.outputs:
                    counts["output"] += 1
                if not b.flag("norun"):
                    last = [re.sub(r"\s--[^']*$", "", l) for l in b.lines if l.strip() and not l.strip().startswith("--")]
                    if not last or not (last[-1].rstrip().endswith(";") or last[-1].lstrip().startswith("\\")):
                        problems.append(f"{b.where()}: a sql block must end with ';' or a psql meta-command")
            elif b.lang == "sh":
                counts["sh"] += 1
                bad_words = [w for w in b.words if not SH_WORDS.match(w)]
                if bad_words:
                    problems.append(f"{b.where()}: unknown word(s) after ```sh: {' '.join(bad_words)}")
                if b.flag("ci"):
                    for c in ci_commands(b):
                        if c[0] not in ("scripts/demo", "scripts/test"):
                            problems.append(f"{b.where()}: a ```sh ci block holds only scripts/demo and scripts/test, not {' '.join(c)}")
                elif not (b.flag("norun") and b.file()):
                    problems.append(f"{b.where()}: a ```sh block is `sh norun file=<script>` (quoted from a script a suite runs) or `sh ci`")
            if b.flag("norun") and b.lang in ("sql", "sh"):
                f = b.file()
                if not f:
                    problems.append(f"{b.where()}: norun needs file=<path>")
                elif not os.path.isfile(os.path.join(ROOT, f)):
                    problems.append(f"{b.where()}: file={f} does not exist")
                else:
                    if b.text.strip() not in open(os.path.join(ROOT, f), encoding="utf-8").read():
                        problems.append(f"{b.where()}: the block is not verbatim in {f}")
                    if not run_by_a_suite(f, texts):
                        problems.append(f"{b.where()}: no suite runs {f} (no suite, t/*.pl or test/suites/*.pl, names it)")
        for p in problems:
            bad(p)
        if not problems:
            ok(f"{page}: {counts['sql']} sql blocks ({counts['output']} with output, {counts['norun']} norun), "
               f"{counts['sh']} sh blocks: info strings and quotes as the convention says")
        before = failed
        nlinks = check_links(page, src, blocks)
        if failed == before:
            ok(f"{page}: {nlinks} relative links resolve")


# ---------------------------------------------------------------------------------------------
# paths named anywhere: every reference to a file of this repository resolves

# a path under one of the repository's top-level directories, as prose and comments write it
PATH_REF = re.compile(r"(?<![\w./$-])((?:docs|src|test|scripts|bench|portable|clients|debian|sql|expected|\.ci)"
                      r"/[\w.+/-]*[\w+/])")
# a component that is a placeholder: one capital (update-to-V.sql, postgresql-N-ulid) or one letter
PLACEHOLDER = re.compile(r"(^|[-_/])[A-Z]([-_.]|$)|/[a-z]\.\w+$")


def paths():
    """Every repository path that a tracked text file names exists: relative to the repository or
    to the naming file's directory, or is a path git ignores (a build output). A path followed by
    <, *, {, $ or - is a pattern (ulid--<v>.sql, docs/clients-*.md), and a src/ path whose
    directory this tree lacks (src/backend/...) is PostgreSQL's or another project's. A released
    SQL script (pinned in test/lib/released_scripts.sha256) never changes: the paths its comments
    name are those of its release, and are not checked."""
    files = subprocess.run(["git", "-C", ROOT, "ls-files"], capture_output=True, text=True).stdout.split()
    if not files:
        ok("paths: not a git checkout, nothing to check")
        return
    with open(os.path.join(ROOT, "test", "lib", "released_scripts.sha256"), encoding="utf-8") as manifest:
        released = {line.split()[1] for line in manifest if line.strip() and not line.startswith("#")}
    missing = {}
    named = 0
    for f in files:
        if f.startswith(("expected/", "test/fuzz/corpus/")) or f in released or not os.path.isfile(os.path.join(ROOT, f)):
            continue
        try:
            text = open(os.path.join(ROOT, f), encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue
        for m in PATH_REF.finditer(text):
            ref = m.group(1).rstrip(".")
            if text[m.end():m.end() + 1] in "<*{$-" or PLACEHOLDER.search(ref):
                continue
            parts = ref.rstrip("/").split("/")
            if parts[0] == "src" and "." not in parts[1] and not os.path.isdir(os.path.join(ROOT, "src", parts[1])):
                continue  # src/backend/..., src/include/...: PostgreSQL's or another project's tree
            named += 1
            if any(os.path.exists(os.path.join(base, ref)) for base in (ROOT, os.path.join(ROOT, os.path.dirname(f)))):
                continue
            if subprocess.run(["git", "-C", ROOT, "check-ignore", "-q", "--no-index", ref.rstrip("/") + "/"]).returncode == 0 or \
               subprocess.run(["git", "-C", ROOT, "check-ignore", "-q", "--no-index", ref]).returncode == 0:
                continue
            line = text.count("\n", 0, m.start()) + 1
            missing.setdefault(ref, []).append(f"{f}:{line}")
    for ref, where in sorted(missing.items()):
        bad(f"{ref} does not exist (named in {', '.join(where[:5])}{' ...' if len(where) > 5 else ''})")
    if not missing:
        ok(f"paths: the {named} mentions of this repository's files in its tracked files all resolve")


# ---------------------------------------------------------------------------------------------
# the suites' index (test/suites/README.md), made from the suites' own headers

SUITES_README = "test/suites/README.md"
SUITES_START = ("<!-- the index: made by `python3 test/lib/docs.py suites --write` from the first paragraph of each "
                "suite's header comment; edit the headers, not this table -->")
SUITES_END = "<!-- end of the index -->"


def listed_suites():
    """The suites with their tiers, [(tier, path)], in the order a pass runs them: from
    `scripts/test --list`, the one reader of their "# Tier: NAME" header lines."""
    out = subprocess.run(["bash", os.path.join(ROOT, "scripts", "test"), "--list"], capture_output=True,
                         text=True, check=True).stdout
    return [(tier, os.path.join(ROOT, rel)) for tier, rel in (line.split("\t", 1) for line in out.splitlines())]


def all_suites():
    """The suites, all TAP files: t/NNN_*.pl (on PostgreSQL::Test::Cluster) and test/suites/*.pl
    (no server of their own)."""
    return [path for _, path in listed_suites()]


def suite_summary(path):
    """The first paragraph of a suite's header comment (after a #! line), as one line."""
    para = []
    lines = open(path, encoding="utf-8").read().split("\n")
    for line in lines[1:] if lines and lines[0].startswith("#!") else lines:
        if not line.startswith("#"):
            break
        text = line[1:].strip()
        if not text:
            if para:
                break
            continue
        if text.startswith("shellcheck ") or text.startswith("Tier: "):
            continue
        para.append(text)
    return " ".join(para)


def suites_index(listed):
    rows = ["| suite | tier | what it tests (the first paragraph of its header) |", "|---|---|---|"]
    readme_dir = os.path.dirname(os.path.join(ROOT, SUITES_README))
    for tier, path in listed:
        name = os.path.relpath(path, ROOT) if path.startswith(os.path.join(ROOT, "t", "")) else os.path.basename(path)
        rows.append(f"| [`{name}`]({os.path.relpath(path, readme_dir)}) | {tier} "
                    f"| {cell(suite_summary(path)) or '(no header)'} |")
    return "\n".join(rows)


def suites(write=False):
    path = os.path.join(ROOT, SUITES_README)
    text = open(path, encoding="utf-8").read()
    if SUITES_START not in text or SUITES_END not in text:
        bad(f"{SUITES_README}: no index markers (the lines {SUITES_START!r} and {SUITES_END!r})")
        return
    head, rest = text.split(SUITES_START, 1)
    _, tail = rest.split(SUITES_END, 1)
    listed = listed_suites()
    made = head + SUITES_START + "\n" + suites_index(listed) + "\n" + SUITES_END + tail
    n = len(listed)
    if made == text:
        ok(f"{SUITES_README}: the index of the {n} suites is their headers' first paragraphs")
    elif write:
        open(path, "w", encoding="utf-8").write(made)
        ok(f"{SUITES_README}: index of the {n} suites written from their headers")
    else:
        bad(f"{SUITES_README}: the index differs from the suites' headers (python3 test/lib/docs.py suites --write)")


# ---------------------------------------------------------------------------------------------
# running the examples

def psql(args, stdin=None):
    return subprocess.run(["psql", "-X"] + args, input=stdin, capture_output=True, text=True)


def script(blocks, major):
    """One psql script for a page: each block between markers, LAST_ERROR_SQLSTATE reset before it
    and printed after it."""
    out = ["\\set VERBOSITY default", "\\pset pager off"]
    for i, b in enumerate(blocks):
        if b.lang != "sql" or b.flag("norun") or not b.runs_on(major):
            continue
        out += [f"\\echo '<<<{MARK} {i}>>>'", "\\set LAST_ERROR_SQLSTATE 00000"]
        out += b.lines
        out += [f"\\echo '<<<{MARK}-end {i}' :LAST_ERROR_SQLSTATE '>>>'"]
    return "\n".join(out) + "\n"


def run_page(page, blocks, major, db):
    r = psql(["-q", "-d", "postgres", "-c", f'DROP DATABASE IF EXISTS "{db}"', "-c", f'CREATE DATABASE "{db}"'])
    if r.returncode != 0:
        raise RuntimeError(f"could not create database {db}: {r.stderr}")
    p = subprocess.run(["psql", "-X", "-q", "-d", db], input=script(blocks, major),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    psql(["-q", "-d", "postgres", "-c", f'DROP DATABASE IF EXISTS "{db}"'])
    results, cur, buf = {}, None, []
    for line in p.stdout.split("\n"):
        m = re.match(rf"^<<<{MARK} (\d+)>>>$", line)
        e = re.match(rf"^<<<{MARK}-end (\d+) (\S+) >>>$", line)
        if m:
            cur, buf = int(m.group(1)), []
        elif e and cur is not None:
            results[cur] = ("\n".join(buf).rstrip("\n") + "\n" if buf else "", e.group(2))
            cur = None
        elif cur is not None:
            buf.append(line)
    return results


# Values that vary from run to run have these shapes; a token of such a shape that differs between
# the two runs of a page is masked (any value of its shape matches), one that is equal in both
# runs must be exactly what the page shows. Timings are always masked.
VOLATILE = re.compile(
    r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d(?::\d\d)?)?"  # timestamps
    r"|\b[0-7][0-9A-HJKMNP-TV-Z]{25}\b"  # ULIDs
    r"|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"  # uuids
    r"|\\x[0-9a-f]{32}\b"  # 16 bytes as bytea
    r"|\b\d+(?:\.\d+)?\b"  # numbers (counts that depend on the clock, ...)
)
TIMING = re.compile(r"(actual time=|Time: |Planning Time: |Execution Time: |time=)[0-9.]+(\.\.[0-9.]+)?( ms)?")


def normalise(text):
    """psql's alignment depends on the widths of values: compare with runs of blanks folded and
    rules of dashes (---+---) made one."""
    lines = []
    for line in TIMING.sub(lambda m: m.group(1) + "<t>", text).split("\n"):
        line = line.rstrip()
        if re.fullmatch(r"[-+]+", line.strip()):
            line = "---"
        lines.append(re.sub(r" +", " ", line).strip())
    return "\n".join(lines).strip("\n")


def split_tokens(text):
    parts, pos = [], 0
    for m in VOLATILE.finditer(text):
        parts.append(("lit", text[pos:m.start()]))
        parts.append(("tok", m.group(0)))
        pos = m.end()
    parts.append(("lit", text[pos:]))
    return parts


def shape(tok):
    if re.fullmatch(r"\d+(?:\.\d+)?", tok):
        return r"\d+(?:\.\d+)?"
    if tok.startswith("\\x"):
        return r"\\x[0-9a-f]{32}"
    if re.fullmatch(r"[0-9a-f]{8}-.*", tok):
        return r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    if len(tok) == 26 and "-" not in tok:
        return r"[0-7][0-9A-HJKMNP-TV-Z]{25}"
    return r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d(?::\d\d)?)?"


def pattern(a, b):
    """A regex from run A's output in which what differs from run B is masked; None if the two
    runs differ in more than the values of volatile tokens."""
    pa, pb = split_tokens(a), split_tokens(b)
    if len(pa) != len(pb) or any(x[0] != y[0] or (x[0] == "lit" and x[1] != y[1]) for x, y in zip(pa, pb)):
        return None
    return "".join(re.escape(x[1]) if x[0] == "lit" or x[1] == y[1] else shape(x[1]) for x, y in zip(pa, pb))


def run(major, names, write=False):
    for page in pages(names):
        blocks, src = parse(page)
        todo = [b for b in blocks if b.lang == "sql" and not b.flag("norun")]
        if not todo:
            continue
        skipped = [b for b in todo if not b.runs_on(major)]
        db = "docs_" + re.sub(r"\W", "_", os.path.splitext(os.path.basename(page))[0])
        try:
            first = run_page(page, blocks, major, db)
            second = run_page(page, blocks, major, db)
        except RuntimeError as e:
            bad(f"{page}: {e}")
            continue
        n_ok, n_bad, replace = 0, 0, {}
        for i, b in enumerate(blocks):
            if b not in todo or not b.runs_on(major):
                continue
            if i not in first or i not in second:
                bad(f"{b.where()}: the block did not finish (an unterminated statement or string before it?)")
                n_bad += 1
                continue
            (out_a, state_a), (out_b, _) = first[i], second[i]
            if b.flag("error") and state_a == "00000":
                bad(f"{b.where()}: marked error, but it ran without an error", out_a)
                n_bad += 1
                continue
            if not b.flag("error") and state_a != "00000":
                bad(f"{b.where()}: SQLSTATE {state_a} (mark the block `sql error` if the page shows this error)", out_a)
                n_bad += 1
                continue
            shown = b.output(major)
            if shown is None or isinstance(shown, list):
                n_ok += 1
                continue
            if write:
                replace[shown] = out_a
                n_ok += 1
                continue
            want = normalise(shown.text)
            got_a, got_b = normalise(out_a), normalise(out_b)
            pat = pattern(got_a, got_b)
            if pat is None:
                bad(f"{b.where()}: the output differs between two runs in more than ids, times and numbers", f"{out_a}---\n{out_b}")
                n_bad += 1
            elif re.fullmatch(pat, want):
                n_ok += 1
            else:
                import difflib
                diff = "\n".join(difflib.unified_diff(shown.text.rstrip("\n").split("\n"),
                                                      out_a.rstrip("\n").split("\n"), "page", "psql", lineterm=""))
                bad(f"{b.where()}: the output is not what the page shows", diff)
                n_bad += 1
        if write and replace:
            lines = list(src)
            for blk in sorted(replace, key=lambda x: -x.line):
                body = [(" " * blk.indent + l) if l else l for l in replace[blk].rstrip("\n").split("\n")]
                lines[blk.line:blk.end] = body
            open(os.path.join(ROOT, page), "w", encoding="utf-8").write("\n".join(lines))
            ok(f"{page}: wrote {len(replace)} output block(s) from the run on PostgreSQL {major}")
        if n_bad == 0:
            ok(f"{page}: {n_ok} sql blocks ran as shown on PostgreSQL {major}"
               + (f" ({len(skipped)} for other majors not run)" if skipped else ""))


# ---------------------------------------------------------------------------------------------
# completeness of the SQL reference

# Every member of the extension with what the catalog says of it: its identity, its properties
# (signature and volatility of a function, what implements an operator, a cast's context and
# method, ...) and its COMMENT.
MEMBERS = """
SELECT pg_describe_object(d.classid, d.objid, d.objsubid),
       coalesce(CASE d.classid
       WHEN 'pg_proc'::regclass THEN (
           SELECT concat_ws(', ',
                  CASE p.prokind WHEN 'a' THEN 'aggregate → ' ELSE '→ ' END || format_type(p.prorettype, NULL),
                  CASE p.provolatile WHEN 'i' THEN 'IMMUTABLE' WHEN 's' THEN 'STABLE' ELSE 'VOLATILE' END,
                  CASE WHEN p.proisstrict THEN 'STRICT' END,
                  CASE p.proparallel WHEN 's' THEN 'PARALLEL SAFE' WHEN 'r' THEN 'PARALLEL RESTRICTED'
                                     ELSE 'PARALLEL UNSAFE' END,
                  CASE WHEN p.proleakproof THEN 'LEAKPROOF' END,
                  (SELECT 'sort operator ' || o.oprname FROM pg_aggregate a JOIN pg_operator o ON o.oid = a.aggsortop
                   WHERE a.aggfnoid = p.oid))
           FROM pg_proc p WHERE p.oid = d.objid)
       WHEN 'pg_operator'::regclass THEN (
           SELECT concat_ws(', ', '→ ' || format_type(o.oprresult, NULL), 'function ' || o.oprcode::text,
                  (SELECT 'commutator ' || c.oprname FROM pg_operator c WHERE c.oid = o.oprcom),
                  (SELECT 'negator ' || n.oprname FROM pg_operator n WHERE n.oid = o.oprnegate),
                  CASE WHEN o.oprrest <> 0 THEN o.oprrest::text || '/' || o.oprjoin::text END,
                  CASE WHEN o.oprcanmerge THEN 'MERGES' END,
                  CASE WHEN o.oprcanhash THEN 'HASHES' END)
           FROM pg_operator o WHERE o.oid = d.objid)
       WHEN 'pg_cast'::regclass THEN (
           SELECT concat_ws(', ',
                  CASE c.castcontext WHEN 'e' THEN 'explicit' WHEN 'a' THEN 'assignment' ELSE 'implicit' END,
                  CASE c.castmethod WHEN 'b' THEN 'binary-coercible' WHEN 'i' THEN 'through text I/O'
                                    ELSE 'function ' || c.castfunc::regprocedure::text END)
           FROM pg_cast c WHERE c.oid = d.objid)
       WHEN 'pg_opclass'::regclass THEN (
           SELECT concat_ws(', ', CASE WHEN c.opcdefault THEN 'default' ELSE 'not default' END,
                  'for ' || format_type(c.opcintype, NULL))
           FROM pg_opclass c WHERE c.oid = d.objid)
       WHEN 'pg_type'::regclass THEN (
           SELECT CASE WHEN t.typcategory = 'A' THEN 'array of ' || format_type(t.typelem, NULL)
                  ELSE format('%s bytes, %s, align %s, storage %s', t.typlen,
                       CASE WHEN t.typbyval THEN 'by value' ELSE 'by reference' END,
                       CASE t.typalign WHEN 'c' THEN 'char' WHEN 's' THEN 'short' WHEN 'i' THEN 'int' ELSE 'double' END,
                       CASE t.typstorage WHEN 'p' THEN 'plain' WHEN 'e' THEN 'external' WHEN 'm' THEN 'main'
                                         ELSE 'extended' END) END
           FROM pg_type t WHERE t.oid = d.objid)
       END, '—'),
       coalesce(obj_description(d.objid, d.classid::regclass::name), ''),
       coalesce((SELECT t.typcategory = 'A' FROM pg_type t
                 WHERE d.classid = 'pg_type'::regclass AND t.oid = d.objid), false)
FROM pg_depend d
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid'
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
ORDER BY 1
"""
INDEX_PAGE = "docs/sql-reference.md"
INDEX_ROW = re.compile(r"^\| `((?:type|function|operator|cast|operator class|operator family) [^`]+)` "
                       r"\| ([^|]*) \| ([^|]*) \| (.*) \|$")


def cell(text):
    return text.replace("|", "\\|")


def reference(major, write=False):
    """Every member has a COMMENT and a row "| `identity` | since | properties | comment |" in the
    object index of docs/sql-reference.md that says what the catalog says; every row is a member
    (on this major, or its 'since' names a later major). write: rewrite the rows from the catalog."""
    r = psql(["-At", "-F", "\t", "-c", MEMBERS])
    if r.returncode != 0:
        bad("could not list the extension's members", r.stderr)
        return
    members = {}
    for line in r.stdout.rstrip("\n").split("\n"):
        name, props, comment, is_array = line.split("\t")
        members[name] = (props, comment, is_array == "t")
    if len(members) < 40:
        bad(f"only {len(members)} members found: is the extension created?")
        return
    uncommented = [m for m, (_, c, arr) in members.items() if not c and not arr]
    if uncommented:
        bad(f"{len(uncommented)} member(s) without a COMMENT", "\n".join(uncommented))
    else:
        ok(f"every one of the {len(members)} members has a COMMENT (an array type aside: it cannot have one)")
    path = os.path.join(ROOT, INDEX_PAGE)
    src = open(path, encoding="utf-8").read().split("\n")
    rows = {}
    for i, line in enumerate(src):
        m = INDEX_ROW.match(line)
        if m:
            rows[m.group(1)] = (i, m.group(2).strip(), m.group(3).strip(), m.group(4).strip())
    if not rows:
        bad(f"{INDEX_PAGE} has no object index (rows | `identity` | since | properties | comment |)")
        return
    if write:
        first, last = min(v[0] for v in rows.values()), max(v[0] for v in rows.values())
        keep = {n: v for n, v in rows.items() if n not in members}
        out = {n: f"| `{n}` | {rows[n][1] if n in rows else '13+'} | {cell(p)} | {cell(c)} |"
               for n, (p, c, arr) in members.items()}
        out.update({n: src[v[0]] for n, v in keep.items()})
        src[first:last + 1] = [out[n] for n in sorted(out)]
        open(path, "w", encoding="utf-8").write("\n".join(src))
        ok(f"wrote {len(out)} rows of {INDEX_PAGE}'s object index from PostgreSQL {major}'s catalog")
        return
    missing = [m for m in members if m not in rows]
    if missing:
        bad(f"{len(missing)} member(s) have no row in {INDEX_PAGE}'s object index", "\n".join(missing))
    before = failed
    for name, (line, since, props, comment) in rows.items():
        if name in members:
            want_props, want_comment, _ = members[name]
            if props != cell(want_props) or comment != cell(want_comment):
                bad(f"{INDEX_PAGE}:{line + 1}: {name}: the row is not what the catalog says",
                    f"row:     {props} | {comment}\ncatalog: {cell(want_props)} | {cell(want_comment)}")
            continue
        m = re.fullmatch(r"(\d+)\+", since)
        if m and major < int(m.group(1)):
            continue  # a member from a later major only
        bad(f"{INDEX_PAGE}:{line + 1}: {name} is in the index but not a member of the extension on PostgreSQL {major}")
    if not missing and failed == before:
        ok(f"{INDEX_PAGE}'s object index has a row for each of the {len(members)} members on PostgreSQL {major}, "
           f"each as the catalog says")


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("check", "run", "write", "reference", "ci", "suites", "paths"):
        print(__doc__, file=sys.stderr)
        return 2
    cmd = sys.argv[1]
    if cmd == "check":
        check()
        suites()
        paths()
    elif cmd == "paths":
        paths()
    elif cmd == "suites":
        suites(write="--write" in sys.argv[2:])
    elif cmd == "ci":
        list_ci()
    elif cmd == "reference":
        reference(int(sys.argv[2]), write="--write" in sys.argv[3:])
    else:
        run(int(sys.argv[2]), sys.argv[3:], write=(cmd == "write"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
