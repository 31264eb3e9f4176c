"""Two VL53L0X on one I2C bus (design "post", docs/sensing.md): the board layer holds both off
with their XSHUT pins, wakes them one at a time and moves the first to its own address, so each
answers alone. Against a fake bus where every chip wakes at 0x29 and two chips at one address
garble the bus, as real ones do."""

from __future__ import annotations

import sys
import types

import pytest

from tests.firmware.test_board import board  # noqa: F401 (the fixture: fake CircuitPython modules)

FACTORY = 0x29


class Chip:
    """One VL53L0X: powered while its XSHUT is high, back at 0x29 whenever it is held off."""

    def __init__(self, name: str, readings: list):
        self.name = name
        self.powered = True  # XSHUT has a pull-up on the breakouts: on until a pin holds it low
        self.address = FACTORY
        self.readings = list(readings)


class FakeBus:
    def __init__(self, chips: list[Chip]):
        self.chips = chips

    def at(self, address: int) -> Chip:
        here = [c for c in self.chips if c.powered and c.address == address]
        if len(here) > 1:
            raise OSError("[Errno 5] Input/output error: %d devices answer at 0x%x" % (len(here), address))
        if not here:
            raise ValueError("No I2C device at address: 0x%x" % address)
        return here[0]


class BusSensor:
    """adafruit_vl53l0x.VL53L0X on the fake bus: talks to whichever chip answers at its address."""

    bus: FakeBus

    def __init__(self, i2c, address=FACTORY, io_timeout_s=0):
        self.chip = BusSensor.bus.at(address)
        self.address = address
        self.measurement_timing_budget = 33000
        self.signal_rate_limit = 0.25

    def set_address(self, new_address):
        if any(c.powered and c.address == new_address for c in BusSensor.bus.chips):
            raise OSError("0x%x is taken" % new_address)
        self.chip.address = self.address = new_address

    def _mine(self) -> Chip:
        return BusSensor.bus.at(self.address)  # raises, as a garbled or empty bus does

    def start_continuous(self):
        self._mine()

    def stop_continuous(self):
        self._mine()

    @property
    def data_ready(self):
        return bool(self._mine().readings)

    @property
    def range(self):
        value = self._mine().readings.pop(0)
        if isinstance(value, Exception):
            raise value
        return value


class XshutPin:
    """digitalio.DigitalInOut wired to one chip's XSHUT."""

    wiring: dict = {}

    def __init__(self, pin):
        self.chip = XshutPin.wiring.get(pin)
        self._value = True

    def switch_to_output(self, value=False):
        self.value = value

    @property
    def value(self):
        return self._value

    @value.setter
    def value(self, on):
        self._value = on
        if self.chip is not None:
            self.chip.powered = on
            if not on:
                self.chip.address = FACTORY  # held in reset: it forgets its new address


@pytest.fixture
def two(board, monkeypatch):  # noqa: F811
    """The arm's sensor on XSHUT D2, the post's on D3, raw samples on."""
    arm = Chip("arm", [300] * 12)
    post = Chip("post", [231] * 12)
    BusSensor.bus = FakeBus([arm, post])
    XshutPin.wiring = {"D2": arm, "D3": post}
    monkeypatch.setitem(sys.modules, "adafruit_vl53l0x", types.SimpleNamespace(VL53L0X=BusSensor))
    monkeypatch.setitem(sys.modules, "digitalio", types.SimpleNamespace(DigitalInOut=XshutPin))
    monkeypatch.setattr(board.hw.board, "D2", "D2", raising=False)
    monkeypatch.setattr(board.hw.board, "D3", "D3", raising=False)
    monkeypatch.setenv("TRAY_XSHUT_PINS", "D2,D3")
    monkeypatch.setenv("TRAY_RAW", "1")
    return types.SimpleNamespace(board=board, arm=arm, post=post)


def samples(serial):
    return [m for m in serial.messages() if m["type"] == "sample"]


def errors(serial):
    return [m for m in serial.messages() if m["type"] == "error"]


def test_both_sensors_start_at_their_own_addresses_and_both_readings_reach_the_pi(two):
    two.board.hw.run(loops=10)
    assert (two.arm.address, two.post.address) == (0x29, 0x30)
    hello = [m for m in two.board.serial.messages() if m["type"] == "hello"][0]
    assert hello["sensor"] == "ok" and errors(two.board.serial) == []
    got = samples(two.board.serial)
    assert got and all((m["mm"], m["mm2"]) == (300, 231) for m in got[1:])  # each chip's own readings


def test_without_xshut_pins_two_sensors_at_0x29_garble_the_bus(two, monkeypatch):
    monkeypatch.setenv("TRAY_XSHUT_PINS", "")  # a second sensor wired, but the tray not told of it
    two.board.hw.run(loops=3)
    assert any("no VL53L0X at 0x29" in e["detail"] for e in errors(two.board.serial))


def test_a_missing_second_sensor_is_named_and_the_arms_readings_go_on(two):
    BusSensor.bus.chips.remove(two.post)
    XshutPin.wiring["D3"] = None
    two.board.hw.run(loops=10)
    assert any("XSHUT D3" in e["detail"] for e in errors(two.board.serial))
    got = samples(two.board.serial)
    assert got and all(m["mm"] == 300 and m["mm2"] is None for m in got)
    assert [m["dice"] for m in two.board.serial.messages() if m["type"] == "height"] == [1]  # the Heat still read


def test_a_restart_after_a_fault_wakes_both_again_at_their_addresses(two, monkeypatch):
    two.arm.readings = [300, 300, OSError("bus glitch")] + [300] * 20
    monkeypatch.setattr(two.board.hw, "RETRY_SENSOR_MS", 0)
    two.board.hw.run(loops=30)
    assert any(e["code"] == "i2c_fault" for e in errors(two.board.serial))
    assert (two.arm.address, two.post.address) == (0x29, 0x30)
    after = samples(two.board.serial)[-3:]
    assert after and all((m["mm"], m["mm2"]) == (300, 231) for m in after)


def test_an_xshut_pin_the_board_does_not_have_is_named(two, monkeypatch):
    monkeypatch.setenv("TRAY_XSHUT_PINS", "D2,D9")
    two.board.hw.run(loops=3)
    assert any("D9" in e["detail"] for e in errors(two.board.serial))
