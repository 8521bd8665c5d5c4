#!/usr/bin/env python3
"""Fails if modules that share a parent import each other in a cycle, at any depth.

For every crate in the workspace, every module (`x.rs` or `x/mod.rs`) is a node. Each path a file
names — `crate::a::b`, `super::c`, `self::d`, `use` groups included — is resolved to the deepest
module it reaches, and becomes an edge between the two siblings where the importer's and the
target's module paths part: `agents::fencing` naming `crate::agents::llm::python_str` is the edge
fencing → llm among the children of `agents`. A module naming its own ancestor or descendant is not
an edge (a parent declares its children). A cycle means modules that cannot be understood, or
moved, apart; the layers are meant to point one way.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def module_path(src, file):
    """The module path of `file`: src/a/b.rs and src/a/b/mod.rs are ('a', 'b'); lib.rs is ()."""
    parts = file.relative_to(src).with_suffix("").parts
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


def use_trees(text, at):
    """The paths of the use tree starting at `at` (`a::b`, `a::{b, c::{d}}`), as segment lists."""
    paths, segments, i = [], [], at
    while True:
        m = re.compile(IDENT).match(text, i)
        if not m:
            break
        segments.append(m.group())
        i = m.end()
        if text.startswith("::{", i):
            depth, j = 1, i + 3
            while depth and j < len(text):
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            inner = text[i + 3 : j - 1]
            for item in split_top(inner):
                item = item.strip()
                if not item or item == "*":
                    paths.append(list(segments))
                    continue
                for sub in use_trees(item, 0) or [[]]:
                    paths.append(segments + [s for s in sub if s != "self"])
            return paths
        if text.startswith("::", i):
            i += 2
            continue
        break
    return [segments] if segments else paths


def split_top(text):
    """`a, b::{c, d}, e` split at the commas outside braces."""
    items, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += {"{": 1, "}": -1}.get(c, 0)
        if c == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    return items


def references(file, here):
    """The absolute module paths `file` (module `here`) names."""
    code = re.sub(r"//[^\n]*", "", file.read_text())
    found = []
    for m in re.finditer(r"\b(crate|self|(?:super::)*super)::", code):
        prefix = m.group(1)
        if prefix == "crate":
            base = ()
        elif prefix == "self":
            base = here
        else:
            # `super` in a/b.rs and in a/b/mod.rs alike is `a`.
            ups = prefix.count("super")
            base = here[: max(len(here) - ups, 0)]
        for path in use_trees(code, m.end()):
            found.append(base + tuple(path))
    return found


def main():
    crates = [ROOT / "src"] + sorted(p / "src" for p in (ROOT / "crates").iterdir())
    failed = False
    checked = 0
    for src in crates:
        files = sorted(src.rglob("*.rs"))
        modules = {module_path(src, f) for f in files}
        graphs = {}
        for f in files:
            here = module_path(src, f)
            for target in references(f, here):
                # The deepest module the path reaches.
                while target and target not in modules:
                    target = target[:-1]
                common = 0
                while common < min(len(here), len(target)) and here[common] == target[common]:
                    common += 1
                if common == len(here) or common == len(target):
                    continue
                parent = here[:common]
                graphs.setdefault(parent, {}).setdefault(here[common], set()).add(target[common])
        label = src.parent.name if src.parent != ROOT else "adk-wasm"
        for parent, graph in sorted(graphs.items()):
            checked += 1
            found = cycle(graph)
            if found:
                failed = True
                where = "::".join(("crate",) + parent)
                print(f"[layers] {label}: cycle among the modules of {where}: {' → '.join(found)}")
            elif "-v" in sys.argv:
                for node, deps in sorted(graph.items()):
                    print(f"[layers] {label} {'::'.join(('crate',) + parent)}: {node} → {', '.join(sorted(deps))}")
    if failed:
        sys.exit(1)
    print(f"[layers] ok: no cycles among sibling modules at any depth ({checked} parents in {len(crates)} crates)")


def cycle(graph):
    state = {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph.get(node, [])):
            if state.get(nxt) == "open":
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt, path + [nxt])
                if found:
                    return found
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [node])
            if found:
                return found
    return None


main()
