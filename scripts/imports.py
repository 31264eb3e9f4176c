#!/usr/bin/env python3
"""The project's import graph, read from the code: circles and imports that run up the layers.

    python3 scripts/imports.py            # the summary: modules, imports, circles, upward imports
    python3 scripts/imports.py --edges    # every import edge too, one per line
    python3 scripts/imports.py --sizes    # the largest modules and classes of kiosk/, in lines

Every ``import`` and ``from ... import`` counts, at module level or inside a function (a
late import still ties two modules together). Tests, benchmarks and scripts are left out:
they sit above everything and may import anything.

The layers, lowest first. A module may import its own layer and the ones below, never above:

    0  firmware.tray, kiosk.rules     what runs on the tray; the pure rules engines
    1  hardware                       ports, backends, the sensing models, config
    2  enclosure                      printable parts, built on hardware's numbers
    3  kiosk (the rest)               the controller, store, screens and ports around the engines
    4  kiosk.app, kiosk.launch,       the composition root and the entry points: nothing imports them
       kiosk.cli
    5  testkit                        tools that drive the app from outside (tests, screenshots);
                                      not shipped (pyproject.toml's packages.find leaves it out)

The exit status is the number of problems found (0: no circle, nothing upward), capped at 100.
"""

from __future__ import annotations

import argparse
import ast
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = ("kiosk", "hardware", "firmware", "enclosure", "testkit")

LAYERS = (
    (5, ("testkit",)),
    (4, ("kiosk.app", "kiosk.launch", "kiosk.cli")),
    (0, ("firmware", "kiosk.rules")),
    (1, ("hardware",)),
    (2, ("enclosure",)),
    (3, ("kiosk",)),
)


def layer(module: str) -> int:
    for level, prefixes in LAYERS:
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return level
    raise ValueError(f"{module} is in no layer")


def modules() -> dict[str, pathlib.Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def imports_of(name: str, path: pathlib.Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports, each resolved to the longest known module name."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            candidates = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for candidate in candidates:
            while candidate and candidate not in known:
                candidate = candidate.rpartition(".")[0]
            if candidate and candidate != name:
                targets.add(candidate)
                break
    return targets


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imports_of(name, path, known) for name, path in found.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of two or more modules (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(groups)


def upward(edges: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted((a, b) for a, targets in edges.items() for b in targets if layer(b) > layer(a))


def sizes(package: str = "kiosk", most: int = 5) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The longest modules and classes under ``package``, in lines, longest first (classes
    defined inside functions count: they are as hard to read there)."""
    files, classes = [], []
    for path in sorted((ROOT / package).rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        files.append((len(path.read_text().splitlines()), rel))
        for node in ast.walk(ast.parse(path.read_text(), rel)):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                classes.append((node.end_lineno - node.lineno + 1, f"{rel}:{node.name}"))
    return sorted(files, reverse=True)[:most], sorted(classes, reverse=True)[:most]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edges", action="store_true", help="print every import edge too")
    parser.add_argument("--sizes", action="store_true", help="the largest modules and classes in kiosk/")
    args = parser.parse_args(argv)
    edges = graph()
    found_circles = circles(edges)
    found_upward = upward(edges)
    print(f"modules: {len(edges)}, imports between them: {sum(map(len, edges.values()))}")
    if args.edges:
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print(f"  {a} -> {b}")
    print(f"circles: {len(found_circles)}")
    for group in found_circles:
        print("  " + " <-> ".join(group))
    print(f"upward imports: {len(found_upward)}")
    for a, b in found_upward:
        print(f"  {a} (layer {layer(a)}) -> {b} (layer {layer(b)})")
    if args.sizes:
        longest_files, longest_classes = sizes()
        print("largest modules in kiosk/ (lines):")
        for lines, name in longest_files:
            print(f"  {lines:5d}  {name}")
        print("largest classes in kiosk/ (lines):")
        for lines, name in longest_classes:
            print(f"  {lines:5d}  {name}")
    return min(100, len(found_circles) + len(found_upward))


if __name__ == "__main__":
    sys.exit(main())
