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


@pytest.fixture
def pins():
    """gpiozero's mock pins for the test (the hardware setup watches the pins itself)."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    old = Device.pin_factory
    Device.pin_factory = factory = MockFactory()
    yield factory
    factory.reset()
    Device.pin_factory = old


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """One driven kiosk for a test module (animations off, frames not drawn), with its
    own data folder; taken off the shared window when the module is done."""
    from kiosk.ui import overlays
    from testkit import drive

    overlays.ANIMATION_SCALE["value"] = 0
    drive.DRAW["value"] = False
    app = drive.start(str(tmp_path_factory.mktemp("kiosk-data")))
    yield app
    drive.stop(app)
