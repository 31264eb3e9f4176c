"""Shared set-up for the kiosk tests: the toy game is available as an extra engine."""

import os

os.environ.setdefault("TABLE_NOIR_EXTRA_GAMES", "toy=tests.rules.toy")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")


import pytest  # noqa: E402


@pytest.fixture
def store(tmp_path):
    """A fresh session store in a temporary folder."""
    from kiosk import games
    from kiosk.store import Store

    s = Store(tmp_path / "s.sqlite3", engines=games.engine_for)
    yield s
    s.close()
