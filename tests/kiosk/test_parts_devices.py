"""The pads and the tray (kiosk.parts.devices), without a window: what the operator is told
when a part is missing or only simulated, and that opening again keeps the game."""

from __future__ import annotations

import pytest

from hardware.config import parse_config
from kiosk.controller import Controller
from kiosk.parts.devices import Devices


@pytest.fixture
def opened():
    """Devices made by a test, closed after it (a simulated tray runs a thread)."""
    made: list[Devices] = []
    yield made.append
    for devices in made:
        devices.close()


def devices_for(config_data: dict, opened, **kw) -> Devices:
    config = parse_config(config_data)
    devices = Devices(lambda: config, lambda pads, tray: Controller(pads, tray), realtime_sim=False, **kw)
    opened(devices)
    return devices


def test_a_tray_on_a_port_that_is_not_there_is_named_and_the_kiosk_runs_on(opened):
    devices = devices_for({"tray": {"backend": "serial", "serial_port": "/dev/tn-no-such-port"}}, opened)
    controller = devices.open()
    assert controller.pads is not None and devices.problems == []  # the simulated pads work; the tray keeps looking
    assert devices.missing_tray() == ["The config asks for the tray on /dev/tn-no-such-port, and there is no such port."]


def test_on_a_pi_a_simulated_part_is_named_until_the_operator_chooses_it(opened):
    confirmed: dict[str, str] = {}
    devices = devices_for({}, opened, is_pi=True, confirmed=lambda: confirmed)
    devices.open()
    assert devices.simulated and [p.split(":")[0] for p in devices.problems] == ["Simulated pads", "Simulated tray"]
    confirmed.update(pads="sim", tray="sim")  # chosen in the hardware setup
    devices.reopen()
    assert devices.problems == []
    off_pi = devices_for({}, opened)
    off_pi.open()
    assert off_pi.problems == []  # a desktop is expected to simulate


def test_opening_again_closes_the_old_ports_and_keeps_the_game_on_screen(opened):
    devices = devices_for({}, opened)
    first = devices.open()
    old_tray = devices.sim_tray
    first.runner = game = object()  # the game on screen (only carried over, never used here)
    second = devices.reopen()
    assert second is devices.controller and second is not first
    assert second.runner is game
    assert devices.sim_tray is not old_tray
