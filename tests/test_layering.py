"""The rules engines stay pure: no UI, pin, serial or sensor imports anywhere in kiosk/rules."""

import ast
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
