"""The minimal build: a VL53L0X on the Pi's own I2C pins, read with adafruit_vl53l0x through Blinka.

No tray microcontroller and no piezo discs: this backend knows the Heat
and nothing about thrown dice (the kiosk asks on the touchscreen where each
d10 landed). It runs the sensor in continuous mode at the configured timing
budget (``tray.timing_budget_ms``, 20-33 ms) and feeds every reading to the
same ``HeatTracker`` the tray firmware runs (``firmware/tray/heat.py``).

Nothing here lets a sensor problem stop the kiosk. A sensor that is not
there, or an I2C error while reading, becomes one ``HardwareFault`` (saying
what to check) and a ``LinkDown``; the backend then tries the sensor again
every ``retry_s`` and sends ``LinkUp`` when it answers. Only a machine with
no I2C support at all (a desktop) fails at construction, with the
ImportError or NotImplementedError that ``hardware.factory`` turns into
advice.

The calibration starts from the configured geometry (``sensor_height_mm``,
``die_size_mm``); ``calibrate(empty, stack, dice)`` replaces it with one
measured on this table.

Threads: a reading thread starts when the first listener subscribes (so it
hears the LinkUp). Tests can pass ``background=False`` and call ``poll()``.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Iterable

from firmware.tray.heat import Calibration, HeatTracker, calibrate_from

from ..config import Config
from ..events import DistanceSample, HardwareFault, Listener, LinkDown, LinkUp, heat_event
from ..ports import Tray


def _open_bus() -> Any:
    """The Pi's I2C bus 1 (GPIO2 = SDA, GPIO3 = SCL) through Blinka."""
    import board
    import busio

    return busio.I2C(board.SCL, board.SDA)


class I2CTray(Tray):
    link = "i2c"

    def __init__(self, config: Config, i2c: Any = None, *, background: bool = True, retry_s: float = 2.0,
                 io_timeout_s: float = 0.5, stream_distance: bool = True,
                 clock: Callable[[], float] = time.monotonic):
        super().__init__()
        self.config = config
        self.address = config.tray.i2c_address
        self.budget_us = config.tray.timing_budget_ms * 1000
        self.retry_s = retry_s
        self.io_timeout_s = io_timeout_s
        self.stream_distance = stream_distance
        self.clock = clock
        geometry = config.geometry
        self.tracker = HeatTracker(Calibration(geometry.sensor_height_mm, geometry.die_size_mm))
        self.faults = 0
        self.samples = 0
        self._bus_error: Exception | None = None
        if i2c is None:
            try:
                i2c = _open_bus()
            except (ImportError, NotImplementedError):
                raise  # no I2C on this machine at all: the factory says what to do instead
            except Exception as err:  # noqa: BLE001 - I2C not enabled, no /dev/i2c-1: an operator can fix it
                self._bus_error = err
        self.i2c = i2c
        self.sensor: Any = None
        self._up = False
        self._fault_reported = False
        self._next_try = 0.0
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._background = background

    # -- the Tray port ----------------------------------------------------------
    @property
    def heat(self) -> int | None:
        level: int | None = self.tracker.level
        return level

    @property
    def connected(self) -> bool:
        return self._up

    def subscribe(self, listener: Listener) -> None:
        super().subscribe(listener)
        if self._background and self._thread is None and not self._stop.is_set():
            self._thread = threading.Thread(target=self._run, name="i2c-tray", daemon=True)
            self._thread.start()

    def close(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        with self._lock:
            if self.sensor is not None:
                try:
                    self.sensor.stop_continuous()
                except Exception:  # noqa: BLE001 - the sensor may be gone; closing must not fail
                    pass
                self.sensor = None
            if self._up:
                self._up = False
                self.emit(LinkDown(self.link, "closed", self.clock()))

    def calibrate(self, empty_readings: Iterable[int | None], stack_readings: Iterable[int | None],
                  known_dice: int) -> Calibration:
        """Measure this table: readings of the empty tray and of a stack of ``known_dice``.
        Raises ValueError saying what is wrong; the old calibration stays until it succeeds."""
        calibration: Calibration = calibrate_from(list(empty_readings), list(stack_readings), known_dice)
        with self._lock:
            self.tracker.reset(calibration)
        return calibration

    # -- reading ------------------------------------------------------------------
    def _fault(self, what: str, err: Exception) -> None:
        """One HardwareFault and one LinkDown per outage, however often the retries fail."""
        self.faults += 1
        self.sensor = None
        now = self.clock()
        self._next_try = now + self.retry_s
        if not self._fault_reported:
            self._fault_reported = True
            self.emit(HardwareFault("i2c", f"{what}: {err}", now))
        if self._up or self.faults == 1:
            self._up = False
            self.emit(LinkDown(self.link, what, now))

    def _open_sensor(self) -> bool:
        if self.i2c is None:
            try:
                self.i2c = _open_bus()
            except Exception as err:  # noqa: BLE001 - any bus failure is a fault to show, not a crash
                self._fault("I2C bus unavailable (enable I2C with raspi-config, check /dev/i2c-1)",
                            self._bus_error or err)
                return False
        import adafruit_vl53l0x

        try:
            sensor = adafruit_vl53l0x.VL53L0X(self.i2c, address=self.address, io_timeout_s=self.io_timeout_s)
            sensor.measurement_timing_budget = self.budget_us
            sensor.start_continuous()
        except ValueError as err:  # adafruit_bus_device: nothing answered at the address
            self._fault(f"no VL53L0X at 0x{self.address:02x} (check its wiring and power, and XSHUT)", err)
            return False
        except (OSError, RuntimeError) as err:  # NACK mid-setup, timeouts, wrong chip id
            self._fault(f"the VL53L0X at 0x{self.address:02x} did not start", err)
            return False
        self.sensor = sensor
        self._up = True
        self._fault_reported = False
        budget_ms = sensor.measurement_timing_budget / 1000
        self.emit(LinkUp(self.link, f"VL53L0X at 0x{self.address:02x}, continuous, {budget_ms:.1f} ms budget",
                         self.clock()))
        return True

    def poll(self) -> bool:
        """Take one reading if the sensor has one ready (opening it first if need be).
        False when there was none."""
        with self._lock:
            if self._stop.is_set():
                return False
            if self.sensor is None:
                if self.clock() < self._next_try or not self._open_sensor():
                    return False
            try:
                if not self.sensor.data_ready:
                    return False  # not yet: the caller sleeps a little rather than spin on the bus
                mm = self.sensor.range
            except (OSError, RuntimeError) as err:
                self._fault("lost the VL53L0X while reading", err)
                return False
            t = self.clock()
            self.samples += 1
            out: list[Any] = []
            valid = mm if self.tracker.min_mm <= mm <= self.tracker.max_mm else None
            if self.stream_distance:
                out.append(DistanceSample(valid, t))
            out += [heat_event(e, t) for e in self.tracker.feed(valid, t)]
        for event in out:
            self.emit(event)
        return True

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self.poll() and not self._stop.is_set():
                # Waiting for a sample (a few ms at a time, a fifth of the shortest budget) or a retry.
                self._stop.wait(min(self.retry_s, 0.1) if self.sensor is None else 0.004)
