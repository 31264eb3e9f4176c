"""The real cedargrove_nau7802 driver on an emulated NAU7802, and the tray's Scale on top of it."""

from __future__ import annotations

import cedargrove_nau7802
import pytest

from firmware.tray.heat import Calibration
from firmware.tray.scale import Scale
from firmware.tray.weight import WeightTracker, calibrate_weighing
from hardware.weighing import WeighingChain

from .nau7802_emulator import NAU7802Emulator
from .vl53l0x_emulator import FakeI2C


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch):
    """The driver sleeps 1.6 s while the chip powers up; the emulated chip needs no time."""
    monkeypatch.setattr(cedargrove_nau7802.time, "sleep", lambda s: None)


def test_the_tray_starts_the_chip_at_80_samples_a_second_gain_128_converting():
    chip = NAU7802Emulator([1000])
    scale = Scale(FakeI2C(chip), cedargrove_nau7802)
    assert chip.rate_sps == 80 and chip.gain == 128
    assert chip.converting and chip.calibrations == 1
    assert scale.adc.chip_revision == 0x0F


def test_the_driver_alone_never_sets_the_start_bit_so_the_tray_does():
    chip = NAU7802Emulator([1000])
    cedargrove_nau7802.NAU7802(FakeI2C(chip))
    assert not chip.convert()  # no CS bit: no conversion, ever
    chip2 = NAU7802Emulator([1000])
    Scale(FakeI2C(chip2), cedargrove_nau7802)
    assert chip2.convert()


def test_poll_reads_one_register_while_nothing_waits_and_the_code_when_one_does():
    chip = NAU7802Emulator([123456, -654321])
    scale = Scale(FakeI2C(chip), cedargrove_nau7802)
    before = chip.transactions
    assert scale.poll() == (False, None)
    assert chip.transactions - before <= 2  # one register read (index written, byte read)
    chip.convert()
    assert scale.poll() == (True, 2 * 123456)  # the driver reads twice the chip's code (see firmware/tray/scale.py)
    assert scale.poll() == (False, None)  # read once: CR cleared
    chip.convert()
    assert scale.poll() == (True, 2 * -654321)


def test_a_bus_fault_reaches_the_caller_as_an_oserror():
    chip = NAU7802Emulator([1])
    scale = Scale(FakeI2C(chip), cedargrove_nau7802)
    chip.fail_next()
    with pytest.raises(OSError):
        scale.poll()


def test_no_chip_on_the_bus_fails_at_start_naming_the_address():
    with pytest.raises(ValueError, match="0x2a"):
        Scale(FakeI2C(), cedargrove_nau7802)


def test_the_model_s_codes_through_the_real_driver_count_the_heat_and_see_it_fall():
    chain = WeighingChain(seed=11, start_dice=7)
    calibration_codes = [[2 * c for c in chain.still_codes(k, 30)] for k in range(15)]
    tracker = WeightTracker(calibrate_weighing(calibration_codes), distance=Calibration(320, 16))
    chip = NAU7802Emulator()
    scale = Scale(FakeI2C(chip), cedargrove_nau7802)
    events = []
    chain.fall(1.0, 3)
    for t, code in chain.codes_until(2.0):
        chip._code = code  # the model's conversion, finished on the chip
        chip.regs[0x00] |= 0x20
        ready, value = scale.poll()
        assert ready
        events += tracker.feed(value, t)
    assert [e["type"] for e in events] == ["height", "falling", "collapse", "height"]
    assert events[2] == {"type": "collapse", "fell": 3, "standing": 4}
