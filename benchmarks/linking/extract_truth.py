#!/usr/bin/env python3
"""Derives truth/<system>.tsv: which Java method implements which SEFF, from evidence that does
not come from names.

- teastore: the fork's hand-written CIPM instrumentation. Each SEFF's method opens with
  `enterService(TeastoreMonitoringMetadata.SERVICE_X, ...)` and SERVICE_X holds the SEFF's id (or
  it calls `enterService(getServiceId(), ...)` and a class overrides getServiceId()).
- cocome: CIPM's Vitruv correspondences, `java:method:<package>#<Class>#<sha1>` -> SEFF id, where
  the sha1 is of JavaParser's `MethodDeclaration.getDeclarationAsString()`, rebuilt here.

Reads the code fetched by fetch.sh (systems/<name>/) and the models in models/<name>/, and only
`src/main/java`: what score.py hands Beagle. Standard library only: the small Java scanner below
knows declarations and brace nesting, which is all both derivations need.

    python3 benchmarks/linking/extract_truth.py [SYSTEM ...]
"""
import hashlib
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

BENCH = Path(__file__).resolve().parent
SYSTEMS = {
    "teastore": {"repo": "dmonsch/TeaStore", "commit": "9205b5f7f8b235e2d61924314968a6251cc8b6f7",
                 "model": "models/teastore/teastore.repository"},
    "cocome": {"repo": "dmonsch/cocome-cloud-jee-platform-migration",
               "commit": "2c92360425e01bccbbf83f57914b94750ea9b5ba",
               "model": "models/cocome/cocome.repository",
               "correspondences": "models/cocome/cocome.correspondences"},
}
# The one hand fix of the teastore truth: the fork's metadata gives DummyRecommender's recommend
# the id of SlopeOneRecommender's (`_lSA1cjVgEeqPG_FgW3bi6Q`); DummyRecommender's own recommend
# SEFF in the model is this one, and no constant holds it.
TEASTORE_FIX = {"SERVICE_RECOMMENDER_DUMMY_RECOMMEND": "_qMzUcjVgEeqPG_FgW3bi6Q"}


# --- the model ------------------------------------------------------------------------------

def model_seffs(repository):
    """SEFF id -> (component name, "Interface.signature", signature id)."""
    root = ET.parse(repository).getroot()
    signatures = {}
    for interface in root.iter("interfaces__Repository"):
        for sig in interface.iter("signatures__OperationInterface"):
            signatures[sig.get("id")] = f"{interface.get('entityName')}.{sig.get('entityName')}"
    seffs = {}
    for component in root.iter("components__Repository"):
        for seff in component.findall("serviceEffectSpecifications__BasicComponent"):
            sig = seff.get("describedService__SEFF")
            seffs[seff.get("id")] = (component.get("entityName"), signatures.get(sig, sig), sig)
    return seffs


# --- a small Java scanner -------------------------------------------------------------------

TOKEN = re.compile(r"""
    (?P<skip>\s+|//[^\n]*|/\*.*?\*/)
  | (?P<tok>"(?:\\.|[^"\\\n])*" | '(?:\\.|[^'\\\n])*' | [A-Za-z_$][\w$]* | \d[\w.]*
      | \.\.\. | -> | :: | [^\s])
""", re.S | re.X)
MODIFIERS = {"public", "protected", "private", "static", "abstract", "final", "native",
             "synchronized", "default", "strictfp", "transient", "volatile"}
KEYWORDS_BEFORE_PARENS = {"if", "for", "while", "switch", "catch", "synchronized", "try",
                          "return", "new", "else", "do", "assert", "throw"}


def is_word(t):
    return bool(re.match(r"[A-Za-z_$]", t))


class Method:
    """A method or constructor: name, line of its name, enclosing type names (outermost first),
    JavaParser's declaration string (None for a constructor), and its `{`..`}` token span."""

    def __init__(self, name, line, types, decl, start):
        self.name, self.line, self.types, self.decl = name, line, types, decl
        self.start, self.end = start, None


def scan(text):
    """(package, methods, token texts, {class: superclass}) of a Java file."""
    toks = [(m.group("tok"), text.count("\n", 0, m.start()) + 1)
            for m in TOKEN.finditer(text) if m.group("tok")]
    words = [t for t, _ in toks]
    package = ""
    if "package" in words:
        i = words.index("package") + 1
        package = "".join(words[i:words.index(";", i)])
    methods, extends = [], {}
    # A frame per open `{`: what it opens, and the paren depth and head start around it, restored
    # at its `}` (a lambda body or an annotation's `{...}` sits inside a head's parentheses).
    stack = [("file", None, 0, 0)]
    head_start, parens = 0, 0  # the head: the tokens since the last `;`, `{` or `}`
    for i, (t, line) in enumerate(toks):
        if t == "(":
            parens += 1
        elif t == ")":
            parens -= 1
        elif t == ";" and parens == 0:
            head_start = i + 1
        elif t == "{":
            kind, what = classify(words[head_start:i], stack[-1][0])
            if kind == "type" and what:
                head = words[head_start:i]
                extends[what] = head[head.index("extends") + 1] if "extends" in head else None
            elif kind == "method":
                name_at = head_start + what
                types = [w for k, w, _, _ in stack if k == "type" and w]
                what = Method(words[name_at], toks[name_at][1], types,
                              declaration(words[head_start:i], what), i)
                methods.append(what)
            stack.append((kind, what, parens, head_start))
            parens, head_start = 0, i + 1
        elif t == "}":
            kind, what, parens, outer_head = stack.pop()
            if kind == "method":
                what.end = i
            head_start = outer_head if parens else i + 1
    return package, methods, words, extends


def classify(head, parent):
    """What a `{` opens, from its head: ("type", name or None), ("method", index of the name in
    head) or ("block", None)."""
    for k, t in enumerate(head):
        if t in ("class", "interface", "enum") and (k == 0 or head[k - 1] != "."):
            return "type", head[k + 1] if k + 1 < len(head) else None
    body = head[:head.index("throws")] if "throws" in head else head
    if not body or body[-1] != ")" or "->" in body:
        return "block", None
    depth, k = 0, len(body) - 1
    while k > 0:  # back to the `(` matching the last `)`
        depth += (body[k] == ")") - (body[k] == "(")
        if depth == 0:
            break
        k -= 1
    name_at = k - 1
    if name_at < 0 or not is_word(body[name_at]) or body[name_at] in KEYWORDS_BEFORE_PARENS:
        return "block", None
    j = name_at - 1  # `new Foo<Bar>(...) {` opens an anonymous class
    while j >= 0 and (is_word(body[j]) or body[j] in ".<>,?[]") and body[j] != "new":
        j -= 1
    if j >= 0 and body[j] == "new":
        return "type", None
    if parent != "type":
        return "block", None
    return "method", name_at


def close_of(toks, i):
    """Index of the bracket that closes the one at i."""
    opener, closer = toks[i], {"(": ")", "<": ">", "[": "]"}[toks[i]]
    depth = 0
    for j in range(i, len(toks)):
        depth += (toks[j] == opener) - (toks[j] == closer)
        if depth == 0:
            return j
    return len(toks) - 1


def split_annotations(toks):
    """(the leading annotations, each a token list; the tokens after them)."""
    annotations, i = [], 0
    while i + 1 < len(toks) and toks[i] == "@" and toks[i + 1] != "interface":
        j = i + 2
        while j + 1 < len(toks) and toks[j] == ".":
            j += 2
        if j < len(toks) and toks[j] == "(":
            j = close_of(toks, j) + 1
        annotations.append(toks[i:j])
        i = j
    return annotations, toks[i:]


def pretty(toks):
    """Tokens as JavaParser's pretty printer writes them: a space between words (and after `]`,
    `>`, `)`, `?` before a word), after a comma and around `=`, none elsewhere."""
    out = ""
    for i, t in enumerate(toks):
        prev = toks[i - 1] if i else ""
        if i and (prev == "," or "=" in (t, prev)
                  or (is_word(t) and (is_word(prev) or prev in ("]", ">", ")", "?", "...")))):
            out += " "
        out += t
    return out


def declaration(head, name_at):
    """JavaParser's MethodDeclaration.getDeclarationAsString() (modifiers, throws and parameter
    names included) of a method head: the tokens from its first annotation to its `{`."""
    _, rest = split_annotations(head)
    i = len(head) - len(rest)
    mods = set()
    while head[i] in MODIFIERS:
        mods.add(head[i])
        i += 1
    if head[i] == "<":  # the method's own type parameters are not in the string
        i = close_of(head, i) + 1
    if i == name_at:
        return None  # a constructor: not a MethodDeclaration
    close_at = close_of(head, name_at + 1)
    params, depth, current = [], 0, []
    for t in head[name_at + 2:close_at]:
        depth += (t in "(<[") - (t in ")>]")
        if t == "," and depth == 0:
            params.append(current)
            current = []
        else:
            current.append(t)
    params += [current] if current else []
    # The access specifier's text ("" for package-private) and a space, then these in this order.
    text = next((m for m in ("public", "private", "protected") if m in mods), "") + " "
    text += "".join(m + " " for m in ("static", "abstract", "final", "native", "synchronized")
                    if m in mods)
    text += f"{pretty(head[i:name_at])} {head[name_at]}("
    for n, p in enumerate(params):
        annotations, p = split_annotations(p)  # a parameter's annotations are printed, each + " "
        text += (", " if n else "") + "".join(pretty(a) + " " for a in annotations) + pretty(p)
    text += ")"
    if head[close_at + 1:close_at + 2] == ["throws"]:
        text += " throws " + pretty(head[close_at + 2:])
    return text


def java_files(code):
    """(path relative to the code root, text) of every file under a src/main/java."""
    for path in sorted(code.rglob("*.java")):
        rel = path.relative_to(code)
        if "src/main/java/" in rel.as_posix():
            yield rel.as_posix(), path.read_text(encoding="utf-8", errors="replace")


def innermost(methods, index):
    """The innermost method whose body holds token `index`."""
    around = [m for m in methods if m.start < index < m.end]
    return max(around, key=lambda m: m.start) if around else None


# --- the truths -----------------------------------------------------------------------------

def teastore_truth(code):
    constants, sites, overrides, extends = {}, [], {}, {}
    for rel, text in java_files(code):
        if rel.endswith("/TeastoreMonitoringMetadata.java"):
            constants = dict(re.findall(r'String\s+(SERVICE_\w+)\s*=\s*"([^"]+)"', text))
        _, methods, words, ext = scan(text)
        extends.update(ext)
        for i, w in enumerate(words[:-3]):
            if w != "enterService" or words[i + 1] != "(":
                continue
            m = innermost(methods, i)
            if m is None:
                continue  # the controller's own declaration of enterService
            arg = words[i + 2:i + 5]
            if arg[:2] == ["TeastoreMonitoringMetadata", "."]:
                sites.append((arg[2], rel, m))
            elif arg[0] == "getServiceId":
                sites.append((("getServiceId", m.types[-1]), rel, m))
        for m in methods:  # getServiceId() overrides name the constant for their class
            body = words[m.start:m.end]
            if m.name == "getServiceId" and "TeastoreMonitoringMetadata" in body:
                overrides[m.types[-1]] = body[body.index("TeastoreMonitoringMetadata") + 2]
    rows = []
    for key, rel, m in sites:
        if isinstance(key, str):
            names = [key]
        else:  # enterService(getServiceId()): every class that is or extends this one
            names = [c for cls, c in overrides.items() if inherits(cls, key[1], extends)]
        for name in names:
            seff = TEASTORE_FIX.get(name, constants[name])
            rows.append((seff, rel, m.types[-1], m.name, m.line, name))
    return rows


def inherits(cls, base, extends):
    while cls:
        if cls == base:
            return True
        cls = extends.get(cls)
    return False


def cocome_truth(code, seffs):
    root = ET.parse(BENCH / SYSTEMS["cocome"]["correspondences"]).getroot()
    index = {}  # (package, Outer#Inner, sha1 of declaration) -> [(file, Method)]
    for rel, text in java_files(code):
        package, methods, _, _ = scan(text)
        for m in methods:
            if m.decl is not None:
                sha = hashlib.sha1(m.decl.encode()).hexdigest()
                index.setdefault((package, "#".join(m.types), sha), []).append((rel, m))
    by_signature = {}
    for seff, (_, _, sig) in seffs.items():
        by_signature.setdefault(sig, []).append(seff)
    rows, notes = [], []
    for c in root.iter("correspondences"):
        a, b = c.findtext("aUuids"), c.findtext("bUuids")
        if not a.startswith("java:method:"):
            continue  # calls, loops, statements and the resource environment
        parts = a[len("java:method:"):].split("#")  # package, the class path, the sha1
        package, cls, sha = parts[0], "#".join(parts[1:-1]), parts[-1]
        found = index.get((package, cls, sha), [])
        if not found:
            sys.exit(f"cocome: {a} resolves to no method")
        if b not in seffs:  # a signature id: its SEFF, if exactly one describes it
            if len(by_signature.get(b, [])) != 1:
                sys.exit(f"cocome: {b} is neither a SEFF nor a signature with one SEFF")
            notes.append(f"{a} names signature {b} ({seffs[by_signature[b][0]][1]}), "
                         f"not a SEFF: mapped to its only SEFF {by_signature[b][0]}")
            b = by_signature[b][0]
        for rel, m in found:
            rows.append((b, rel, m.types[-1], m.name, m.line, a))
    return rows, notes


HEADERS = {
    "teastore": """\
# TeaStore truth: SEFF id -> the Java method implementing it.
# Derived by extract_truth.py from the hand-written CIPM instrumentation of dmonsch/TeaStore @ {commit}:
# the method that calls enterService(TeastoreMonitoringMetadata.SERVICE_X, ...) implements the SEFF whose
# id is SERVICE_X's value (TeastoreMonitoringMetadata.java); for enterService(getServiceId(), ...), every
# class overriding getServiceId() with a constant gets the method that makes that call (inherited, so
# PreprocessedSlopeOneRecommender's recommend SEFF is SlopeOneRecommender.execute).
# Hand fix: SERVICE_RECOMMENDER_DUMMY_RECOMMEND holds SlopeOneRecommender's recommend id
# (_lSA1cjVgEeqPG_FgW3bi6Q); its row here carries DummyRecommender's own recommend SEFF, _qMzUcjVgEeqPG_FgW3bi6Q.
# n:m: one SEFF may have several methods (getRecommendations), one method several SEFFs (sendEntityForCreation).
# Not every SEFF of the model is instrumented; those have no row.
# line: 1-based line of the method's name; file: relative to the code root (systems/teastore).
""",
    "cocome": """\
# CoCoME truth: SEFF id -> the Java method implementing it.
# Derived by extract_truth.py from CIPM's hand-made Vitruv correspondences (models/cocome/cocome.correspondences,
# CIPM-tools/CIPM-Pipeline): each `java:method:<package>#<Class>#<sha1>` entry, resolved in
# dmonsch/cocome-cloud-jee-platform-migration @ {commit} to the method whose JavaParser
# getDeclarationAsString() has that sha1. All 27 entries resolve; CloudPersistence is one class in two
# modules (store-logic-ejb, enterprise-logic-ejb) with the same declaration, so its entry gives two rows.
# n:m: CloudPersistence and CloudPersistenceContext share a SEFF, as do EnterpriseQueryProvider and
# StoreEnterpriseQueryProvider. Calls, loops and statements in the correspondences are not used.
# Hand fix: {notes}
# line: 1-based line of the method's name; file: relative to the code root (systems/cocome).
""",
}


def main(names):
    for name in names or SYSTEMS:
        system = SYSTEMS[name]
        code = BENCH / "systems" / name
        if not code.is_dir():
            sys.exit(f"{code} is missing: run fetch.sh first")
        seffs = model_seffs(BENCH / system["model"])
        if name == "teastore":
            rows, header = teastore_truth(code), HEADERS[name].format(commit=system["commit"])
        else:
            rows, notes = cocome_truth(code, seffs)
            header = HEADERS[name].format(commit=system["commit"], notes="; ".join(notes) or "none")
        unknown = sorted({r[0] for r in rows} - seffs.keys())
        if unknown:
            sys.exit(f"{name}: SEFF ids not in the model: {unknown}")
        rows = sorted(set(r[:5] for r in rows), key=lambda r: (r[0], r[1], r[4]))
        out = BENCH / "truth" / f"{name}.tsv"
        out.parent.mkdir(exist_ok=True)
        lines = [f"{s}\t{f}\t{c}\t{m}\t{line}" for s, f, c, m, line in rows]
        out.write_text(header + "seff_id\tfile\tclass\tmethod\tline\n" + "\n".join(lines) + "\n")
        print(f"{out.relative_to(BENCH)}: {len(rows)} rows, {len({r[0] for r in rows})} of "
              f"{len(seffs)} SEFFs")


if __name__ == "__main__":
    main(sys.argv[1:])
