"""The factory picks each backend from the config, imports it only when chosen, and says what to do
when the machine cannot run it."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from hardware.backends.gpio import GpioPads
from hardware.backends.sim_pads import SimPads
from hardware.config import BackendUnavailable, ConfigError, load_config, parse_config
from hardware.factory import open_pads, open_tray

ROOT = pathlib.Path(__file__).resolve().parents[2]
ON_A_PI = "Raspberry Pi" in (pathlib.Path("/proc/device-tree/model").read_text(errors="ignore")
                             if pathlib.Path("/proc/device-tree/model").exists() else "")


def gpio_config():
    return load_config().model_copy(update={"pads": load_config().pads.model_copy(update={"backend": "gpio"})})


def test_sim_pads_by_default_one_per_configured_pad():
    pads = open_pads(load_config())
    assert isinstance(pads, SimPads) and pads.players == 6


def test_gpio_pads_open_on_the_pin_factory_gpiozero_is_given():
    previous, Device.pin_factory = Device.pin_factory, MockFactory()
    try:
        pads = open_pads(gpio_config())
        assert isinstance(pads, GpioPads) and pads.players == 6
        pads.close()
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = previous


@pytest.mark.skipif(ON_A_PI, reason="this machine has real GPIO pins")
def test_gpio_pads_on_a_desktop_say_to_use_the_sim(monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    previous, Device.pin_factory = Device.pin_factory, None
    try:
        with pytest.raises(BackendUnavailable, match='set pads.backend = "sim"') as caught:
            open_pads(gpio_config())
    finally:
        Device.pin_factory = previous
    assert isinstance(caught.value, ConfigError)  # start-up treats it like any bad setting


def test_a_tray_backend_that_cannot_load_says_to_use_the_sim(monkeypatch):
    monkeypatch.setitem(sys.modules, "hardware.backends.i2c", None)  # as if its driver were missing
    config = parse_config({"tray": {"backend": "i2c"}})
    with pytest.raises(BackendUnavailable, match='tray.backend = "i2c" cannot start.*set tray.backend = "sim"'):
        open_tray(config)


def test_the_sim_tray_is_chosen_by_default():
    sim = pytest.importorskip("hardware.sim", reason="the simulated table is not built yet")
    tray = open_tray(parse_config({}))
    try:
        assert isinstance(tray, sim.SimTray)
    finally:
        tray.close()


def test_opening_the_factory_imports_no_backend():
    probe = (
        "import sys, hardware.factory\n"
        "print(sorted(m for m in ('gpiozero', 'serial', 'adafruit_vl53l0x', 'board', 'kivy', 'hardware.sim') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
