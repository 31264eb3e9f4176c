"""The thin hardware layer of the tray: pins, I2C, USB serial, non-volatile memory.

Only the board imports this file (``code.py`` calls ``run()``). Everything it
does is read a sensor, write a line, or keep a few bytes; every decision is
made in ``app.py``, which the desktop tests exercise.

Wiring (see firmware/README.md): the VL53L0X on the board's STEMMA QT / I2C
pins, one to three piezo discs on analog pins (each with a 1 MOhm resistor
across it). Settings come from ``settings.toml`` on the CIRCUITPY drive.
"""

import json
import os
import time

import analogio
import board
import busio
import microcontroller
import usb_cdc

from .app import Hooks, TrayApp
from .impact import level_from_counts
from .piezo import PeakHold, burst

NVM_MAGIC = b"TNC1"  # marks a calibration the tray measured itself
NVM_SIZE = 64
SENSOR_TIMEOUT_MS = 1000  # no reading for this long: the sensor is in trouble
RETRY_SENSOR_MS = 2000
PIEZO_BURST = 8  # reads of the discs at each of three points of a pass (see piezo.py)


def setting(name, default):
    """A value from settings.toml (CircuitPython reads it for os.getenv), as the default's type."""
    value = os.getenv(name)
    if value is None:
        return default
    try:
        if isinstance(default, bool):
            return str(value).lower() in ("1", "true", "yes", "on")
        if isinstance(default, int):
            return value if isinstance(value, int) else int(str(value), 0)
        if isinstance(default, float):
            return float(str(value))
        return str(value)
    except ValueError:
        print("settings.toml: %s = %r is not a %s; using %r" % (name, value, type(default).__name__, default))
        return default


def now_ms():
    return time.monotonic_ns() // 1000000


class Board(Hooks):
    """The tray's parts. ``fault`` holds (code, detail) if the sensor did not start."""

    def __init__(self):
        self.serial = usb_cdc.data
        if self.serial is None:
            raise RuntimeError("the USB data port is off: copy boot.py to CIRCUITPY and reset the board")
        self.serial.timeout = 0
        self.serial.write_timeout = 0  # never hang when the Pi is not reading
        self.budget_ms = setting("TRAY_BUDGET_MS", 33)
        self.address = setting("TRAY_I2C_ADDRESS", 0x29)
        self.sensor = None
        self.fault = None
        self._i2c = None
        self._retry_at = 0
        self._start_sensor()
        self.piezos = []
        for name in setting("TRAY_PIEZO_PINS", "A0,A1,A2").split(","):
            name = name.strip()
            if name:
                self.piezos.append(analogio.AnalogIn(getattr(board, name)))
        self.baselines = [self._baseline(pin) for pin in self.piezos]

    # -- settings ------------------------------------------------------------
    def settings(self):
        values = {
            "budget_ms": self.budget_ms,
            "settle_ms": setting("TRAY_SETTLE_MS", 600),
            "empty_mm": setting("TRAY_EMPTY_MM", 320.0),
            "die_mm": setting("TRAY_DIE_MM", 16.0),
            "impact_threshold": setting("TRAY_IMPACT_THRESHOLD", 0.25),
            "quiet_level": setting("TRAY_QUIET_LEVEL", 0.08),
            "raw": setting("TRAY_RAW", False),
        }
        saved = self.load_calibration()
        if saved:
            values["empty_mm"], values["die_mm"] = saved
            values["calibrated"] = True
        return values

    # -- the distance sensor -------------------------------------------------
    def _start_sensor(self):
        try:
            import adafruit_vl53l0x
        except ImportError:
            self.fault = ("sensor_missing", "adafruit_vl53l0x is not in lib/: run circup install")
            return
        try:
            if self._i2c is None:
                pins = setting("TRAY_I2C", "stemma")
                if pins == "stemma":
                    self._i2c = board.STEMMA_I2C() if hasattr(board, "STEMMA_I2C") else board.I2C()
                else:
                    scl, sda = [getattr(board, p.strip()) for p in pins.split(",")]
                    self._i2c = busio.I2C(scl, sda)
            sensor = adafruit_vl53l0x.VL53L0X(self._i2c, address=self.address)
            sensor.measurement_timing_budget = self.budget_ms * 1000
            sensor.start_continuous()
            self.sensor = sensor
            self.fault = None
        except (OSError, ValueError, RuntimeError) as err:
            self.sensor = None
            self.fault = ("sensor_missing", "no VL53L0X at 0x%02x: %s" % (self.address, err))

    def poll_distance(self):
        """(True, mm) when a new reading is ready, else (False, None). Raises OSError on an I2C fault."""
        if self.sensor is None or not self.sensor.data_ready:
            return False, None
        return True, self.sensor.range

    def recover(self, t_ms):
        """Try to bring a failed sensor back, now and then."""
        if t_ms < self._retry_at:
            return False
        self._retry_at = t_ms + RETRY_SENSOR_MS
        self._start_sensor()
        return self.sensor is not None

    def set_budget(self, ms):
        if self.sensor is None:
            return "no distance sensor"
        try:
            self.sensor.stop_continuous()
            self.sensor.measurement_timing_budget = ms * 1000
            self.sensor.start_continuous()
        except (OSError, ValueError, RuntimeError) as err:
            return "sensor refused %d ms: %s" % (ms, err)
        self.budget_ms = ms
        return None

    # -- the piezo discs -----------------------------------------------------
    @staticmethod
    def _baseline(pin):
        total = 0
        for _ in range(64):
            total += pin.value
            time.sleep(0.001)
        return total // 64

    def piezo_level(self):
        """One reading of every disc: the largest swing among them."""
        level = 0.0
        for pin, baseline in zip(self.piezos, self.baselines):
            reading = level_from_counts(pin.value, baseline)
            if reading > level:
                level = reading
        return level

    # -- the USB data port ---------------------------------------------------
    def connected(self):
        return self.serial.connected

    def write(self, line):
        if not self.serial.connected:
            return False
        return self.serial.write(line) == len(line)

    def read(self):
        waiting = self.serial.in_waiting
        return self.serial.read(waiting) if waiting else b""

    # -- memory and reset ----------------------------------------------------
    def save_calibration(self, empty_mm, die_mm):
        record = json.dumps([round(empty_mm, 1), round(die_mm, 3)]).encode()
        record = NVM_MAGIC + record + b" " * (NVM_SIZE - len(NVM_MAGIC) - len(record))
        microcontroller.nvm[0:NVM_SIZE] = record

    def load_calibration(self):
        try:
            raw = bytes(microcontroller.nvm[0:NVM_SIZE])
            if raw[: len(NVM_MAGIC)] != NVM_MAGIC:
                return None
            empty_mm, die_mm = json.loads(raw[len(NVM_MAGIC):].decode().strip())
            return float(empty_mm), float(die_mm)
        except (ValueError, TypeError):
            return None

    def reboot(self):
        time.sleep(0.2)  # let the ack leave over USB first
        microcontroller.reset()


def run(loops=None):
    """The main loop. ``loops`` limits it (for a test); the board runs it forever."""
    hw = Board()
    app = TrayApp(hw.write, hw.settings(), hw)
    start = now_ms()
    if hw.fault:
        app.sensor = "missing"  # so the hello already says so
    app.start(start)
    if hw.fault:
        app.error(hw.fault[0], hw.fault[1], start)
    was_connected = hw.connected()
    last_reading = start
    count = 0
    hold = PeakHold()
    while loops is None or count < loops:
        count += 1
        t = now_ms()
        try:
            burst(hw.piezo_level, hold, PIEZO_BURST)
            connected = hw.connected()
            if connected and not was_connected:
                app.hello(t)  # the Pi has just opened the port
            was_connected = connected
            data = hw.read()
            if data:
                app.on_bytes(data, t)
            burst(hw.piezo_level, hold, PIEZO_BURST)
            app.on_piezo(hold.take(), t)  # the peak since the last pass, not one random moment
            if hw.sensor is None:
                if hw.recover(t):
                    last_reading = t
            else:
                try:
                    ready, mm = hw.poll_distance()
                    if ready:
                        last_reading = t
                        app.on_sample(mm, t)
                    elif t - last_reading > SENSOR_TIMEOUT_MS:
                        last_reading = t
                        app.on_sensor_fault("sensor_timeout", "no reading for %d ms" % SENSOR_TIMEOUT_MS, t)
                        hw.sensor = None
                except OSError as err:
                    app.on_sensor_fault("i2c_fault", "read failed: %s" % err, t)
                    hw.sensor = None
            burst(hw.piezo_level, hold, PIEZO_BURST)  # after the sensor and the serial work: held for the next pass
            app.tick(t)
        except Exception as err:  # keep the tray alive; say what went wrong
            app.error("internal", "loop: %r" % err, t)
            time.sleep(0.05)
    return app
