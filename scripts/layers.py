#!/usr/bin/env python3
"""Fails if the top-level modules of a crate import each other in a cycle.

For every crate in the workspace, each top-level module (`src/x.rs` or `src/x/`) is a node and
every `crate::y` path in its files an edge x → y. A cycle means two modules that cannot be
understood (or moved) apart; the layers are meant to point one way.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def modules(src):
    for entry in sorted(src.iterdir()):
        if entry.name in ("lib.rs", "main.rs"):
            continue
        name = entry.stem if entry.suffix == ".rs" else entry.name
        files = [entry] if entry.is_file() else sorted(entry.rglob("*.rs"))
        yield name, files


def edges(src):
    names = {name for name, _ in modules(src)}
    graph = {}
    for name, files in modules(src):
        text = ""
        for f in files:
            code = re.sub(r"//[^\n]*", "", f.read_text())
            # In `src/x.rs` and `src/x/mod.rs`, `super::` is the crate root.
            if f.parent == src or f.name == "mod.rs" and f.parent.parent == src:
                code = re.sub(r"\bsuper::", "crate::", code)
            text += code + "\n"
        # `crate::x` and `crate::{x, y::z}` both name top-level modules.
        used = set(re.findall(r"\bcrate::([a-z_][a-z0-9_]*)", text))
        for group in re.findall(r"\bcrate::\{([^}]*)\}", text):
            used.update(re.findall(r"(?:^|,)\s*([a-z_][a-z0-9_]*)", group))
        graph[name] = sorted((used & names) - {name})
    return graph


def cycle(graph):
    state = {}

    def visit(node, path):
        state[node] = "open"
        for nxt in graph.get(node, []):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, path + [nxt])
                if found:
                    return found
        state[node] = "done"
        return None

    for node in graph:
        if node not in state:
            found = visit(node, [node])
            if found:
                return found
    return None


def main():
    crates = [ROOT / "src"] + sorted(p / "src" for p in (ROOT / "crates").iterdir())
    failed = False
    for src in crates:
        graph = edges(src)
        found = cycle(graph)
        label = src.parent.name if src.parent != ROOT else "adk-wasm"
        if found:
            failed = True
            print(f"[layers] {label}: cycle {' → '.join(found)}")
        elif "-v" in sys.argv:
            for node, deps in graph.items():
                print(f"[layers] {label}: {node} → {', '.join(deps) or '(nothing)'}")
    if failed:
        sys.exit(1)
    print(f"[layers] ok: no cycles among the top-level modules of {len(crates)} crates")


main()
