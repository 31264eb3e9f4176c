"""A real Mosquitto for each test that asks for ``broker`` (tests/fleet/broker.py)."""

from __future__ import annotations

import pytest

from .broker import Broker


@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path)
    b.start()
    yield b
    b.stop()
