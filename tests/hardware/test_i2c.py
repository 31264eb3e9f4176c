"""The i2c backend, through the real adafruit_vl53l0x driver talking to an emulated VL53L0X."""

import random
import threading

import adafruit_vl53l0x
import pytest

from hardware.backends.i2c import I2CTray
from hardware.config import Config, TrayConfig
from hardware.events import Collapse, DieAdded, DistanceSample, HardwareFault, HeatHeight, LinkDown, LinkUp
from hardware.sim import TableSimulator

from .vl53l0x_emulator import FakeI2C, VL53L0XEmulator


def stack(dice, n, seed=0):
    rng = random.Random(seed)
    return [int(round(320 - 16 * dice + rng.gauss(0, 2))) for _ in range(n)]


def tray_on(emulator, budget_ms=33, **kwargs):
    config = Config(tray=TrayConfig(backend="i2c", timing_budget_ms=budget_ms))
    tray = I2CTray(config, FakeI2C(emulator), background=False, retry_s=0.0, **kwargs)
    got = []
    tray.subscribe(got.append)
    return tray, got


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


def test_the_real_driver_starts_the_emulated_sensor():
    emulator = VL53L0XEmulator([300, 301, None, 250])
    sensor = adafruit_vl53l0x.VL53L0X(FakeI2C(emulator), io_timeout_s=0.5)
    sensor.start_continuous()
    assert [sensor.range for _ in range(4)] == [300, 301, 8190, 250]


@pytest.mark.parametrize("budget_ms", [20, 33])
def test_the_configured_timing_budget_reaches_the_sensor(budget_ms):
    emulator = VL53L0XEmulator(stack(2, 10))
    tray, got = tray_on(emulator, budget_ms=budget_ms)
    assert tray.poll()
    # Read back by the driver from the registers it wrote: within a millisecond of the setting.
    assert tray.sensor.measurement_timing_budget == pytest.approx(budget_ms * 1000, abs=1000)
    assert tray.sensor.is_continuous_mode
    up, = of(got, LinkUp)
    assert up.link == "i2c" and "continuous" in up.detail


def test_heat_and_a_collapse_come_through_the_driver():
    emulator = VL53L0XEmulator(stack(6, 30) + stack(2, 20, seed=1))
    tray, got = tray_on(emulator)
    for _ in range(50):
        assert tray.poll()
    assert [e.dice for e in of(got, HeatHeight)] == [6, 2]
    fall, = of(got, Collapse)
    assert (fall.fell, fall.standing) == (4, 2)
    assert tray.heat == 2 and tray.connected
    assert len(of(got, DistanceSample)) == 50


def test_a_simulated_table_read_through_the_driver():
    sim = TableSimulator(Config().geometry, seed=5, start_dice=4)
    for _ in range(20):
        sim.tick()
    sim.add_die()
    trace = [sim.tick().distance_mm for _ in range(20)] + [s.distance_mm for s in sim.run_until_idle(extra=20)]
    emulator = VL53L0XEmulator(stack(4, 10) + trace)
    tray, got = tray_on(emulator)
    for _ in range(len(trace) + 10):
        tray.poll()
    assert [e.dice for e in of(got, DieAdded)] == [5]
    assert not of(got, Collapse)
    # Out-of-range codes (8190) never reach the listeners as distances.
    assert all(e.mm is None or e.mm < 1200 for e in of(got, DistanceSample))


def test_it_waits_for_the_next_sample_without_calling_it_a_fault():
    emulator = VL53L0XEmulator(stack(3, 20))
    tray, got = tray_on(emulator)
    assert tray.poll()
    emulator.paused = True
    assert not tray.poll() and not tray.poll()
    emulator.paused = False
    assert tray.poll()
    assert not of(got, HardwareFault) and tray.connected and tray.samples == 2


def test_changing_the_address_moves_the_emulated_chip_as_xshut_setups_do():
    emulator = VL53L0XEmulator(stack(2, 10))
    bus = FakeI2C(emulator)
    sensor = adafruit_vl53l0x.VL53L0X(bus)
    sensor.set_address(0x31)
    assert bus.scan() == [0x31]
    config = Config(tray=TrayConfig(backend="i2c", i2c_address=0x31))
    assert I2CTray(config, bus, background=False).poll()


def test_a_missing_sensor_is_a_fault_and_a_link_down_not_a_crash():
    emulator = VL53L0XEmulator(stack(3, 20))
    emulator.unplug()
    tray, got = tray_on(emulator)
    for _ in range(5):
        assert not tray.poll()
    fault, = of(got, HardwareFault)
    assert "no VL53L0X at 0x29" in fault.message
    assert len(of(got, LinkDown)) == 1 and not tray.connected
    emulator.plug_in()
    while not tray.poll():
        pass
    assert tray.connected and of(got, LinkUp)


def test_an_i2c_error_while_reading_recovers_by_itself():
    emulator = VL53L0XEmulator(stack(5, 200))
    tray, got = tray_on(emulator)
    for _ in range(10):
        tray.poll()
    emulator.fail_next(3)
    results = [tray.poll() for _ in range(10)]
    assert results.count(False) >= 1 and results[-1]
    assert len(of(got, HardwareFault)) == 1 and "lost the VL53L0X" in of(got, HardwareFault)[0].message
    assert [type(e).__name__ for e in got if isinstance(e, (LinkUp, LinkDown))] == ["LinkUp", "LinkDown", "LinkUp"]
    assert tray.heat == 5


def test_a_sensor_at_another_address_is_found_where_the_config_says():
    emulator = VL53L0XEmulator(stack(2, 20), address=0x30)
    config = Config(tray=TrayConfig(backend="i2c", i2c_address=0x30))
    tray = I2CTray(config, FakeI2C(emulator), background=False)
    assert tray.poll()


def test_calibration_replaces_the_nominal_geometry():
    emulator = VL53L0XEmulator([int(400 - 3 * 18)] * 20)
    tray, got = tray_on(emulator)
    with pytest.raises(ValueError, match="not closer"):
        tray.calibrate([400] * 10, [405] * 10, 2)
    tray.calibrate([400] * 10, [400 - 2 * 18] * 10, 2)
    for _ in range(10):
        tray.poll()
    assert tray.heat == 3


def test_in_the_background_it_reads_on_its_own_and_closes_cleanly():
    emulator = VL53L0XEmulator(stack(4, 10_000))
    config = Config(tray=TrayConfig(backend="i2c"))
    tray = I2CTray(config, FakeI2C(emulator))
    seen = threading.Event()
    got = []

    def listener(event):
        got.append(event)
        if isinstance(event, HeatHeight):
            seen.set()

    tray.subscribe(listener)
    assert seen.wait(5.0)
    tray.close()
    tray.close()
    assert isinstance(got[0], LinkUp) and isinstance(got[-1], LinkDown)
    assert not emulator._continuous  # continuous ranging stopped on close


def test_a_machine_without_i2c_fails_at_once_but_a_disabled_bus_is_only_a_fault(monkeypatch):
    import hardware.backends.i2c as backend

    def no_blinka():
        raise ImportError("cannot import name 'i2cPorts'")

    monkeypatch.setattr(backend, "_open_bus", no_blinka)
    with pytest.raises(ImportError):
        I2CTray(Config(tray=TrayConfig(backend="i2c")))

    def bus_off():
        raise OSError(2, "No such file or directory: '/dev/i2c-1'")

    monkeypatch.setattr(backend, "_open_bus", bus_off)
    tray = I2CTray(Config(tray=TrayConfig(backend="i2c")), background=False, retry_s=0.0)
    got = []
    tray.subscribe(got.append)
    assert not tray.poll()
    fault, = of(got, HardwareFault)
    assert "raspi-config" in fault.message and "/dev/i2c-1" in fault.message
    assert of(got, LinkDown)
