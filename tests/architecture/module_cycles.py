#!/usr/bin/env python3
"""Module cycles inside a crate (issue 20): fails when a module depends, through `use crate::`,
`crate::` paths or `super::`, on a module that depends back on it. Modules are files
(`a/b.rs` and `a/b/mod.rs` are `a::b`). A module's edges to its own submodules do not count:
declaring and re-exporting children is structure, and children may use their parent. Test code
(`#[cfg(test)]` to the end of the file, the usual layout) does not count either.

    python3 tests/architecture/module_cycles.py server/*/src

A folder that does not exist fails (an unmatched glob would otherwise check nothing), and so
does a call without folders.
"""
import re
import sys
from pathlib import Path


def module_of(src: Path, f: Path) -> tuple:
    parts = list(f.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main") and (len(parts) > 1 or parts[-1] != "mod"):
        parts = parts[:-1]
    return tuple(parts)


def strip(text: str) -> str:
    text = re.sub(r"//[^\n]*", "", text)
    i = text.find("#[cfg(test)]")
    return text if i < 0 else text[:i]


PATH = re.compile(r"\b(crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)+|::\{)")
USE_GROUP = re.compile(r"\buse\s+(crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)*)::\{([^;]*)\};", re.S)


def targets(module: tuple, text: str, modules: set) -> set:
    def resolve(kind: str, path: list) -> tuple | None:
        base = list(module) if kind == "super" else []
        if kind == "super":
            base = base[:-1]
            while path and path[0] == "super":
                base, path = base[:-1], path[1:]
        full = base + path
        # the longest prefix that is a module
        for n in range(len(full), -1, -1):
            if tuple(full[:n]) in modules:
                return tuple(full[:n])
        return None

    found = set()
    for m in PATH.finditer(text):
        segs = [s for s in m.group(2).split("::") if s and s != "{"]
        t = resolve(m.group(1), segs)
        if t is not None:
            found.add(t)
    for m in USE_GROUP.finditer(text):
        prefix = [s for s in m.group(2).split("::") if s]
        for item in re.split(r",(?![^{]*\})", m.group(3)):
            head = re.split(r"::|\s|\{", item.strip())[0]
            if head and head not in ("self",):
                t = resolve(m.group(1), prefix + [head])
                if t is not None:
                    found.add(t)
    return found


def cycles(src: Path) -> list:
    files = sorted(src.rglob("*.rs"))
    modules = {module_of(src, f): f for f in files}
    names = set(modules)
    graph = {}
    for mod, f in modules.items():
        deps = targets(mod, strip(f.read_text(encoding="utf-8")), names)
        # not itself, not its own submodules (structure), not the crate root (re-exports)
        graph[mod] = {d for d in deps if d != mod and d[: len(mod)] != mod and d != ()}
    # Tarjan's strongly connected components
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    shown = []
    for comp in out:
        members = set(comp)
        edges = sorted(
            f"{'::'.join(a) or 'crate'} -> {'::'.join(b) or 'crate'}"
            for a in comp for b in graph[a] if b in members
        )
        shown.append(edges)
    return shown


def main() -> int:
    if len(sys.argv) < 2:
        print("usage: module_cycles.py SRC_DIR...", file=sys.stderr)
        return 2
    failed = False
    for arg in sys.argv[1:]:
        if not Path(arg).is_dir():
            print(f"{arg}: not a folder", file=sys.stderr)
            failed = True
            continue
        found = cycles(Path(arg))
        if found:
            failed = True
            for edges in found:
                print(f"{arg}: module cycle: " + "; ".join(edges))
        else:
            print(f"{arg}: no module cycles")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
