"""The layers hold: the rules engines stay pure (no UI, pin, serial or sensor imports anywhere
in kiosk/rules), no module imports a layer above its own, and no modules import each other
in a circle. The graph is read by ``scripts/imports.py``, the command anyone can run to see it."""

import ast
import importlib.util
import pathlib


FORBIDDEN = {"kivy", "gpiozero", "serial", "RPi", "board", "busio", "adafruit_vl53l0x", "hardware", "firmware", "lgpio"}
RULES = pathlib.Path(__file__).resolve().parents[1] / "kiosk" / "rules"


def imported_roots(path: pathlib.Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_rules_import_no_ui_or_hardware():
    files = sorted(RULES.rglob("*.py"))
    assert files, "kiosk/rules has no Python files"
    offenders = {str(p.relative_to(RULES)): sorted(imported_roots(p) & FORBIDDEN) for p in files}
    assert {k: v for k, v in offenders.items() if v} == {}


def _imports_script():
    path = RULES.parents[1] / "scripts" / "imports.py"
    spec = importlib.util.spec_from_file_location("project_imports", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


IMPORTS = _imports_script()
EDGES = IMPORTS.graph()


def test_the_graph_is_read_from_every_package():
    assert {name.split(".")[0] for name in EDGES} == set(IMPORTS.PACKAGES)
    assert "kiosk.rules.core" in EDGES["kiosk.rules.hell_for_leather.engine"]  # "from ..core import" resolved
    assert "kiosk.launch" in EDGES["kiosk.cli"]  # a late import (inside a function) counts too
    assert "kiosk.app" in EDGES["kiosk.launch"]


def test_no_module_imports_a_layer_above_its_own():
    assert IMPORTS.upward(EDGES) == []


def test_no_import_circles():
    assert IMPORTS.circles(EDGES) == []


def test_the_tools_that_drive_the_app_are_not_shipped():
    import tomllib

    import setuptools

    root = RULES.parents[1]
    find = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    shipped = setuptools.find_packages(str(root), include=find["include"])
    assert "kiosk" in shipped and "kiosk.rules" in shipped
    assert not [name for name in shipped if name.split(".")[0] in ("testkit", "tests", "benchmarks", "scripts")]
    assert not [name for name in EDGES if name in ("kiosk.drive", "kiosk.screenshots", "kiosk.lessonshots")]
    assert all(IMPORTS.layer(name) == 5 for name in EDGES if name.startswith("testkit"))


def test_the_kiosks_command_line_and_the_apps_parts_import_no_kivy():
    """Kivy reads its Config when its window module is first imported, so the command line must
    set it before anything imports Kivy; and the app's parts are tested without a window."""
    import subprocess
    import sys

    code = ("import importlib, pkgutil, sys\n"
            "import kiosk.cli, kiosk.launch, kiosk.parts\n"
            "for m in pkgutil.iter_modules(kiosk.parts.__path__, 'kiosk.parts.'):\n"
            "    importlib.import_module(m.name)\n"
            "print(len(list(pkgutil.iter_modules(kiosk.parts.__path__))), "
            "sorted(n for n in sys.modules if n.split('.')[0] == 'kivy'))")
    done = subprocess.run([sys.executable, "-c", code], cwd=RULES.parents[1], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    parts, kivy = done.stdout.split(" ", 1)
    assert int(parts) >= 5 and kivy.strip() == "[]"
