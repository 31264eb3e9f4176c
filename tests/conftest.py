"""Marks that say what a test needs, so a run can pick or skip them (``-m "not ui"``).

The markers are registered in ``pyproject.toml`` (unknown markers are errors). They
are put on here, by what a test needs, so the test files themselves need not change:

* ``ui``: the end-to-end kiosk tests in ``tests/kiosk/test_ui.py`` (a display).
* ``openscad``: the enclosure tests skipped without OpenSCAD (``needs_openscad``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

UI_TESTS = Path(__file__).parent / "kiosk" / "test_ui.py"


def _needs_openscad(item: pytest.Item) -> bool:
    return any("OpenSCAD" in str(mark.kwargs.get("reason", "")) for mark in item.iter_markers("skipif"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if Path(str(item.path)) == UI_TESTS:
            item.add_marker(pytest.mark.ui)
        if _needs_openscad(item):
            item.add_marker(pytest.mark.openscad)
