#!/usr/bin/env python3
"""Static check: every built-in function, operator and cast type a SQL script uses is pg_catalog-qualified.

    sql_qualified.py --builtins FILE SCRIPT...

FILE lists the server's pg_catalog names, one per line as "f <function>", "t <type>" (the suite
t/360_script_rules.pl writes it from pg_proc and pg_type). Each SCRIPT is read as PostgreSQL
lexes it: comments and string constants are skipped, dollar-quoted bodies (DO blocks, function
bodies, EXECUTEd templates) are read as code too. Reported, with file and line:

  - a call name(...) of a pg_catalog function without a schema: not one the script defines itself
    (CREATE FUNCTION/AGGREGATE), and not SQL syntax that names pg_catalog itself (COALESCE,
    EXTRACT, POSITION, ...);
  - an operator outside OPERATOR(pg_catalog.op), except where it is syntax (PL/pgSQL :=, named
    arguments =>, option = value, count(*), SELECT *, a minus sign before a number) or names one of
    the script's own operators in DDL (CREATE/COMMENT ON/ALTER OPERATOR, an operator class or family
    member, COMMUTATOR/NEGATOR/SORTOP): a DDL operator with an argument list must take one of the
    script's own types;
  - syntax that runs an operator found through search_path: IN (...) outside a FOR loop, BETWEEN,
    LIKE/ILIKE/SIMILAR TO, IS [NOT] DISTINCT FROM, NULLIF, CASE expr WHEN;
  - a cast ::type or RETURNS type naming a pg_catalog type without a schema.
psql meta-commands (lines starting with a backslash) are skipped. Exits 1 when anything is found.
"""
import re
import sys

OP_CHARS = set("+-*/<>=~!@#%^&|`?")
# SQL constructs written like calls that the grammar itself maps to pg_catalog (or to no function)
SYNTAX_CALLS = {
    "coalesce", "greatest", "least", "exists", "in", "any", "all", "some", "array", "row", "values",
    "cast", "extract", "position", "substring", "overlay", "trim", "filter", "over", "within",
    "grouping", "collation", "normalize", "xmlelement", "xmlforest", "xmlconcat", "xmlpi",
    "xmlroot", "xmlparse", "xmlserialize", "xmlexists", "treat", "current_date", "user",
    "if", "elsif", "while", "when", "then", "else", "and", "or", "not", "on", "using", "as",
    "return", "returns", "select", "from", "where", "loop", "perform", "raise", "execute", "into",
    "join", "lateral", "table", "unnest_syntax", "window", "partition", "by", "having", "case",
}
# identifiers directly before "=" that make it an option assignment, not the = operator
OPTION_WORDS = {
    "leftarg", "rightarg", "function", "procedure", "commutator", "negator", "restrict", "join",
    "input", "output", "receive", "send", "typmod_in", "typmod_out", "analyze", "subscript",
    "internallength", "alignment", "storage", "sfunc", "stype", "sspace", "combinefunc",
    "finalfunc", "finalfunc_extra", "finalfunc_modify", "serialfunc", "deserialfunc", "initcond",
    "msfunc", "minvfunc", "mstype", "msspace", "mfinalfunc", "minitcond", "sortop", "parallel",
    "category", "preferred", "default", "element", "delimiter", "like", "collatable",
    "passedbyvalue", "errcode", "message", "detail", "hint", "column", "constraint", "datatype",
    "table", "schema", "search_path", "basetype", "hypothetical",
}
# DDL where the operator after the keyword(s) is a name, not an operation
DDL_OPERATOR_REF = {"commutator", "negator", "sortop"}
# tokens after which a minus sign is unary (so "-123" is a negative constant, not an operator)
UNARY_CONTEXT = {
    "(", ",", "=", ":=", "=>", "[", "then", "else", "when", "return", "minvalue", "maxvalue",
    "select", "and", "or", "not", "in", "by", "start", "increment", "values", "default", "is",
    "operator",
}


class Token:
    __slots__ = ("kind", "text", "line")

    def __init__(self, kind, text, line):
        self.kind, self.text, self.line = kind, text, line

    @property
    def low(self):
        return self.text.lower()


def lex(src, line=1):
    """Tokens of src: ident, qident, num, op, punct, str (content dropped); dollar bodies inlined."""
    toks = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif src.startswith("--", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            line += src.count("\n", i, j)
            i = j
        elif c == "\\" and (i == 0 or src[i - 1] == "\n"):  # psql meta-command line
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif c == "'" or (c in "eE" and i + 1 < n and src[i + 1] == "'"):
            escapes = c in "eE"
            j = i + (2 if escapes else 1)
            while j < n:
                if escapes and src[j] == "\\":
                    j += 2
                elif src[j] == "'":
                    if j + 1 < n and src[j + 1] == "'":
                        j += 2
                    else:
                        break
                else:
                    j += 1
            toks.append(Token("str", "", line))
            line += src.count("\n", i, j + 1)
            i = j + 1
        elif c == "$" and re.match(r"\$([A-Za-z_][A-Za-z0-9_]*)?\$", src[i:]):
            tag = re.match(r"\$([A-Za-z_][A-Za-z0-9_]*)?\$", src[i:]).group(0)
            j = src.find(tag, i + len(tag))
            if j < 0:
                raise SyntaxError(f"line {line}: unterminated {tag}")
            body = src[i + len(tag):j]
            toks.append(Token("punct", "$body", line))
            toks.extend(lex(body, line))
            toks.append(Token("punct", "$end", line))
            line += src.count("\n", i, j + len(tag))
            i = j + len(tag)
        elif c == '"':
            j = src.find('"', i + 1)
            while j >= 0 and j + 1 < n and src[j + 1] == '"':
                j = src.find('"', j + 2)
            toks.append(Token("qident", src[i + 1:j], line))
            i = j + 1
        elif c.isalpha() or c == "_":
            m = re.match(r"[A-Za-z_][A-Za-z0-9_$]*", src[i:])
            toks.append(Token("ident", m.group(0), line))
            i += len(m.group(0))
        elif c.isdigit():
            m = re.match(r"[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?", src[i:])
            if src.startswith("..", i + len(m.group(0)) - 1) and "." in m.group(0):
                m = re.match(r"[0-9]+", src[i:])  # "1..25": the integer, then ".."
            toks.append(Token("num", m.group(0), line))
            i += len(m.group(0))
        elif src.startswith("::", i) or src.startswith(":=", i) or src.startswith("..", i):
            toks.append(Token("punct", src[i:i + 2], line))
            i += 2
        elif src.startswith("=>", i):
            toks.append(Token("punct", "=>", line))
            i += 2
        elif c in "(),;[].:":
            toks.append(Token("punct", c, line))
            i += 1
        elif c == "%" and re.match(r"%([0-9]+\$)?[sIL](?![A-Za-z0-9_])", src[i:]):
            # a format() placeholder in an EXECUTEd template (%s, %1$L): stands for a value
            m = re.match(r"%([0-9]+\$)?[sIL]", src[i:])
            toks.append(Token("num", m.group(0), line))
            i += len(m.group(0))
        elif c in OP_CHARS:
            j = i
            while j < n and src[j] in OP_CHARS and not src.startswith("--", j) and not src.startswith("/*", j):
                j += 1
            toks.append(Token("op", src[i:j], line))
            i = j
        else:
            toks.append(Token("punct", c, line))
            i += 1
    return toks


def own_names(toks):
    """Functions, aggregates, operators' types and types the script creates."""
    funcs, types = set(), set()
    for k, t in enumerate(toks):
        if t.kind == "ident" and t.low == "create":
            j = k + 1
            if j + 1 < len(toks) and toks[j].low == "or" and toks[j + 1].low == "replace":
                j += 2
            if j + 1 < len(toks) and toks[j].low in ("function", "aggregate", "procedure"):
                name = toks[j + 1]
                if not (j + 2 < len(toks) and toks[j + 2].text == "."):
                    funcs.add(name.low)
            elif j + 1 < len(toks) and toks[j].low in ("type", "domain"):
                types.add(toks[j + 1].low)
    return funcs, types


def check(path, builtin_funcs, builtin_types):
    src = open(path, encoding="utf-8").read()
    toks = lex(src)
    funcs, types = own_names(toks)
    findings = []

    def report(tok, msg):
        findings.append(f"{path}:{tok.line}: {msg}")

    def prev(k, back=1):
        return toks[k - back] if k - back >= 0 else Token("punct", "", 0)

    def nxt(k, ahead=1):
        return toks[k + ahead] if k + ahead < len(toks) else Token("punct", "", 0)

    def qualified(k):
        return prev(k).text == "."

    def arg_list_types(k):
        """The type names inside the parenthesized list starting at toks[k] == '(' (a schema
        qualifier is not a name of its own; a pg_catalog-qualified name counts as built-in)."""
        depth, out, j = 0, [], k
        while j < len(toks):
            if toks[j].text == "(":
                depth += 1
            elif toks[j].text == ")":
                depth -= 1
                if depth == 0:
                    break
            elif toks[j].kind in ("ident", "qident") and toks[j + 1].text != ".":
                schema = toks[j - 2].low if toks[j - 1].text == "." else None
                out.append((toks[j].low, schema))
            j += 1
        return out

    def own_type(name, schema):
        """A type of the extension: made by this script, or not a pg_catalog type at all."""
        if schema == "pg_catalog":
            return False
        return name in types or name not in builtin_types

    def ddl_operator_context(k):
        """Is the operator at k an operator's name in DDL (CREATE/COMMENT ON/DROP/ALTER OPERATOR, a
        class or family member 'OPERATOR n op', COMMUTATOR/NEGATOR/SORTOP = op)?"""
        p = prev(k)
        if p.low == "operator" and p.kind == "ident":
            return True  # CREATE OPERATOR op, COMMENT ON OPERATOR op(...), ALTER/DROP OPERATOR op
        if p.kind == "num" and prev(k, 2).low == "operator":
            return True  # OPERATOR 1 op [(types)]
        if p.text == "=" and prev(k, 2).low in DDL_OPERATOR_REF:
            return True
        return False

    for k, t in enumerate(toks):
        # --- function calls
        if t.kind == "ident" and nxt(k).text == "(" and not qualified(k):
            name = t.low
            if name in builtin_funcs and name not in SYNTAX_CALLS:
                definer = prev(k).low in ("function", "aggregate", "procedure")
                if name in funcs and (definer or name not in builtin_funcs):
                    pass
                elif name in funcs and prev(k).kind == "num" and prev(k, 2).low == "function":
                    pass  # FUNCTION n own_name(...) in an operator class
                elif name in types:
                    pass  # the script's own type
                else:
                    report(t, f"unqualified built-in function {t.text}(...): write pg_catalog.{t.text}")
            if name == "nullif":
                report(t, "NULLIF runs = found through search_path: write CASE WHEN a OPERATOR(pg_catalog.=) b ...")
        # --- operators
        elif t.kind == "op":
            p = prev(k)
            if p.text == "." and prev(k, 2).low == "pg_catalog" and prev(k, 3).text == "(" \
                    and prev(k, 4).low == "operator":
                continue  # OPERATOR(pg_catalog.op)
            if p.text == "." and prev(k, 2).low == "pg_catalog":
                continue  # pg_catalog.op in DDL (an operator family member)
            if t.text == "=" and p.kind in ("ident", "qident") and p.low in OPTION_WORDS:
                continue
            if t.text == "*" and (p.text in ("(", ".", ",") or p.low == "select"):
                continue
            after_operator = p.text == ")" and [x.low for x in (prev(k, 6), prev(k, 5), prev(k, 4), prev(k, 3))] \
                == ["operator", "(", "pg_catalog", "."]
            if t.text == "-" and nxt(k).kind == "num" and (p.kind in ("op", "punct") and p.text not in (")", "]")
                                                         or p.low in UNARY_CONTEXT or after_operator):
                continue  # a negative constant
            if ddl_operator_context(k):
                defining = prev(k).low == "operator" and prev(k, 2).low == "create"
                if nxt(k).text == "(" and not defining:  # CREATE OPERATOR op (...) defines one
                    argtypes = arg_list_types(k + 1)
                    if not any(own_type(n, sch) for n, sch in argtypes):
                        report(t, f"operator {t.text} ({', '.join(n for n, _ in argtypes)}) names built-in types "
                                  f"only: write pg_catalog.{t.text}")
                continue
            report(t, f"unqualified operator {t.text}: write OPERATOR(pg_catalog.{t.text})")
        # --- implicit operators in syntax
        if t.kind == "ident":
            w = t.low
            if w == "in" and nxt(k).text == "(" and not (prev(k, 2).low in ("for", "foreach")):
                report(t, "IN (...) runs = found through search_path: write OPERATOR(pg_catalog.=) ANY (ARRAY[...])")
            elif w in ("between", "ilike", "similar"):
                report(t, f"{t.text.upper()} runs operators found through search_path")
            elif w == "like" and nxt(k).text != "=":
                report(t, "LIKE runs ~~ found through search_path: write OPERATOR(pg_catalog.~~)")
            elif w == "distinct" and prev(k).low in ("is", "not") and nxt(k).low == "from":
                report(t, "IS [NOT] DISTINCT FROM runs = found through search_path")
            elif w == "case" and nxt(k).low != "when":
                report(t, "CASE expr WHEN runs = found through search_path: write CASE WHEN expr OPERATOR(pg_catalog.=) ...")
            elif (prev(k).text == "::" or prev(k).low == "returns") and nxt(k).text != "." \
                    and w in builtin_types and w not in types and t.kind == "ident":
                report(t, f"unqualified built-in type {t.text}: write pg_catalog.{t.text}")
    return findings


def main(argv):
    if len(argv) < 4 or argv[1] != "--builtins":
        print(__doc__, file=sys.stderr)
        return 2
    funcs, types = set(), set()
    for ln in open(argv[2], encoding="utf-8"):
        kind, _, name = ln.strip().partition(" ")
        (funcs if kind == "f" else types).add(name.lower())
    findings = []
    for path in argv[3:]:
        findings += check(path, funcs, types)
    for f in findings:
        print(f)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
