"""docs/architecture.md stays true: every path it names exists, and every function, class or
table it names is defined in the code (where it gives a file, in that file)."""

from __future__ import annotations

import ast
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
CODE = ("kiosk", "hardware", "firmware", "enclosure", "testkit", "tests/rules")
NOT_OURS = {"Screen"}  # Kivy's, which a new screen subclasses
PARAMETERS = {"post"}  # Controller's parameter, checked below
ATTRIBUTES = {"tag"}  # set on widgets at run time, read by testkit.drive.find


def defined_in(path: pathlib.Path) -> set[str]:
    """Names defined in a file: functions, classes and assignments anywhere, and ``Class.member``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(f"{node.name}.{item.name}")
                elif isinstance(item, (ast.Assign, ast.AnnAssign)):
                    targets = item.targets if isinstance(item, ast.Assign) else [item.target]
                    names |= {f"{node.name}.{t.id}" for t in targets if isinstance(t, ast.Name)}
    return names


def quoted() -> list[str]:
    return re.findall(r"`([^`\s]+)`", DOC.read_text())


def is_path(text: str) -> bool:
    return "/" in text or text.split(":")[0].endswith((".py", ".md", ".toml"))


def test_every_path_the_architecture_page_names_exists():
    paths = [q.split(":")[0] for q in quoted() if is_path(q)]
    assert len(paths) > 30
    assert [p for p in paths if not (ROOT / p.rstrip("/")).exists()] == []


def test_every_name_it_gives_with_a_file_is_defined_in_that_file():
    pinned = [q.split(":", 1) for q in quoted() if ":" in q and is_path(q)]
    assert len(pinned) >= 8
    assert [f"{path}:{name}" for path, name in pinned if name not in defined_in(ROOT / path)] == []


def test_every_other_name_it_gives_is_defined_in_the_code():
    everywhere: set[str] = set()
    for folder in CODE:
        for path in (ROOT / folder).rglob("*.py"):
            everywhere |= defined_in(path)
    names = [q for q in quoted() if not is_path(q) and re.fullmatch(r"[A-Za-z_][\w.]*", q)]
    names = [n for n in names if n not in NOT_OURS | PARAMETERS | ATTRIBUTES]
    assert len(names) > 20
    assert [n for n in names if n not in everywhere] == []
    controller = ast.parse((ROOT / "kiosk" / "controller.py").read_text())
    init = next(n for n in ast.walk(controller) if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    assert PARAMETERS <= {a.arg for a in init.args.args}
