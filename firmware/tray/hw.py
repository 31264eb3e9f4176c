"""The thin hardware layer of the tray: pins, I2C, USB serial, non-volatile memory.

Only the board imports this file (``code.py`` calls ``run()``). Everything it
does is read a sensor, write a line, or keep a few bytes; every decision is
made in ``app.py``, which the desktop tests exercise.

Wiring (see firmware/README.md): the VL53L0X on the board's STEMMA QT / I2C
pins, one to three piezo discs on analog pins (each with a 1 MOhm resistor
across it). Settings come from ``settings.toml`` on the CIRCUITPY drive.

A second VL53L0X (design ``post`` in docs/sensing.md: on the arm's post,
looking across the bottom of the Heat) shares the bus. Every VL53L0X wakes
at address 0x29, so each has its XSHUT pin wired to the board
(``TRAY_XSHUT_PINS``, the arm's sensor first): at start-up all are held off,
then released one at a time, and each but the arm's is moved to its own
address (0x30, 0x31, ...) before the next wakes; the arm's, released last,
keeps ``TRAY_I2C_ADDRESS``. A restart does it all again (holding XSHUT low
puts a sensor back at 0x29).

Nothing here may stop the tray without a word or hang it: the sensor driver
gives up on a silent bus after ``IO_TIMEOUT_S``, a watchdog resets the board
if the main loop stops for ``WATCHDOG_S``, and every start-up problem is sent
to the Pi as an ``error`` line (repeated after each hello) while the tray
keeps answering and tries again.
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
from .boards import i2c_pins
from .impact import level_from_counts
from .piezo import PeakHold, burst
from .protocol import MAX_BOOT

NVM_MAGIC = b"TNC1"  # marks a calibration the tray measured itself
NVM_SIZE = 64
NVM_WEIGH_MAGIC = b"TNW1"  # the load cell's calibration, in the next 64 bytes
SENSOR_TIMEOUT_MS = 1000  # no reading for this long: the sensor is in trouble
RETRY_SENSOR_MS = 2000
# The driver's wait for the sensor (0 in the driver: forever). A reading takes one
# timing budget (at most 33 ms) and a start-up calibration step a few of them.
IO_TIMEOUT_S = 0.5
# No feed for this long and the board resets. The slowest honest pause is starting
# the sensor (three waits of at most IO_TIMEOUT_S) plus the piezo baselines (64 ms
# a disc); the RP2040's watchdog cannot count past 8.3 s.
WATCHDOG_S = 5.0
RETRY_START_MS = 5000  # a board that failed to start tries again this often
WATCHDOG_NOTE = "restarted by the watchdog: the main loop hung"
SIGNAL_RATE_LIMIT_MCPS = 0.06  # see docs/sensing.md: the as-built shroud passes too little light for 0.25
FACTORY_ADDRESS = 0x29  # every VL53L0X wakes here
FIRST_EXTRA_ADDRESS = 0x30  # the sensors beside the arm's: 0x30, 0x31, ...
XSHUT_WAKE_S = 0.01  # the VL53L0X boots within 1.2 ms of XSHUT going high (DS11555); 10 ms to be sure
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
        self.xshut_names = [n.strip() for n in setting("TRAY_XSHUT_PINS", "").split(",") if n.strip()]
        self._xshut = []  # DigitalInOut of each sensor's XSHUT pin, the arm's first
        self.sensor = None
        self.others = []  # the sensors beside the arm's, in TRAY_XSHUT_PINS order
        self.other_mm = []  # each one's latest reading (None: none yet, or it failed)
        self.fault = None
        self._i2c = None
        self._retry_at = 0
        self._start_sensor()
        self.scale = None  # the load cell's NAU7802 (firmware/tray/scale.py), on the same bus
        self.scale_state = "none"
        self.scale_fault = None
        if setting("TRAY_SCALE", False):  # the kit's settings.toml turns it on; older trays have no load cell
            self._start_scale()
        self.piezos = []
        self._loudest = None
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
        values["scale"] = self.scale_state
        weighing = self.load_weighing()
        if weighing:
            values["weigh_zero"], values["weigh_per_die"], values["weigh_spread"] = weighing
        return values

    # -- the load cell ---------------------------------------------------------
    def _start_scale(self):
        """The NAU7802 on the sensor's bus; blocks about 1.6 s (the driver's power-up waits), once."""
        if self._i2c is None:
            self.scale_state, self.scale_fault = "missing", ("scale_missing", "no I2C bus for the load cell")
            return
        try:
            import cedargrove_nau7802  # noqa: PLC0415 (only on a tray with a load cell)
            from .scale import Scale  # noqa: PLC0415

            self.scale = Scale(self._i2c, cedargrove_nau7802)
            self.scale_state, self.scale_fault = "ok", None
        except ImportError:
            self.scale_state, self.scale_fault = "missing", ("scale_missing",
                                                             "cedargrove_nau7802 is not in lib/: run circup install")
        except Exception as err:  # an optional part: whatever went wrong, the tray runs without it and says so
            self.scale_state, self.scale_fault = "missing", ("scale_missing", "no NAU7802 at 0x2a: %s" % err)

    def poll_weight(self):
        """(True, code) when a conversion waits, else (False, None): never waits for the ADC."""
        if self.scale is None:
            return False, None
        return self.scale.poll()

    # -- the distance sensor -------------------------------------------------
    def _start_sensor(self):
        try:
            import adafruit_vl53l0x
        except ImportError:
            self.fault = ("sensor_missing", "adafruit_vl53l0x is not in lib/: run circup install")
            return
        try:
            how, pins = i2c_pins(setting("TRAY_I2C", "stemma"), getattr(board, "board_id", ""), dir(board))
        except ValueError as err:
            self.sensor = None
            self.fault = ("bad_settings", str(err))
            return
        try:
            if self._i2c is None:
                if how == "stemma":
                    self._i2c = board.STEMMA_I2C()
                elif how == "default":
                    self._i2c = board.I2C()
                else:
                    self._i2c = busio.I2C(getattr(board, pins[0]), getattr(board, pins[1]))
            if self.xshut_names:
                self._start_several(adafruit_vl53l0x)
                return
            self.sensor = self._configured(adafruit_vl53l0x.VL53L0X(self._i2c, address=self.address,
                                                                    io_timeout_s=IO_TIMEOUT_S))
            self.fault = None
        except Exception as err:  # OSError, RuntimeError (the driver's timeout), ValueError...: never stop here
            self.sensor = None
            self.fault = ("sensor_missing", "no VL53L0X at 0x%02x: %s" % (self.address, err))

    def _configured(self, sensor):
        """Budget, signal limit, continuous ranging: the same for every VL53L0X on the tray."""
        sensor.measurement_timing_budget = self.budget_ms * 1000
        # The dark floor through the shroud returns less than the driver's default 0.25 MCPS
        # floor for a valid reading (docs/sensing.md, design "low-limit").
        sensor.signal_rate_limit = SIGNAL_RATE_LIMIT_MCPS
        sensor.start_continuous()
        return sensor

    def _start_several(self, driver):
        """Several VL53L0X on one bus, told apart by address (see the module docstring).

        The arm's sensor must start, or the tray has no Heat: its failure is the fault. A sensor
        beside it that does not answer is left out and named in the fault's place, so the Pi
        hears of it, while the arm's readings go on.
        """
        import digitalio

        if not self._xshut:
            for name in self.xshut_names:
                if not hasattr(board, name):
                    raise ValueError("TRAY_XSHUT_PINS names pin %s, which this board does not have" % name[:20])
                self._xshut.append(digitalio.DigitalInOut(getattr(board, name)))
        for pin in self._xshut:
            pin.switch_to_output(value=False)  # every sensor off: none answers at 0x29
        time.sleep(XSHUT_WAKE_S)
        self.others, self.other_mm = [], []
        missing = None
        for i, pin in enumerate(self._xshut[1:]):
            address = FIRST_EXTRA_ADDRESS + i
            pin.value = True  # this one wakes, alone at 0x29
            time.sleep(XSHUT_WAKE_S)
            try:
                sensor = driver.VL53L0X(self._i2c, address=FACTORY_ADDRESS, io_timeout_s=IO_TIMEOUT_S)
                sensor.set_address(address)
                self.others.append(self._configured(sensor))
                self.other_mm.append(None)
            except Exception as err:  # that sensor is absent or broken: hold it off, go on without it
                pin.value = False
                self.others.append(None)  # its place kept: its readings are null, so the Pi sees it gone
                self.other_mm.append(None)
                missing = "no VL53L0X on XSHUT %s: %s" % (self.xshut_names[i + 1], err)
        self._xshut[0].value = True  # the arm's sensor last, so 0x29 is free for it
        time.sleep(XSHUT_WAKE_S)
        try:
            sensor = driver.VL53L0X(self._i2c, address=FACTORY_ADDRESS, io_timeout_s=IO_TIMEOUT_S)
            if self.address != FACTORY_ADDRESS:
                sensor.set_address(self.address)
            self.sensor = self._configured(sensor)
        except Exception as err:
            self.sensor = None
            self.fault = ("sensor_missing", "no VL53L0X on XSHUT %s: %s" % (self.xshut_names[0], err))
            return
        self.fault = ("sensor_missing", missing) if missing else None

    def poll_others(self):
        """Read each sensor beside the arm's that has a new reading; a failed one reads None from then on
        (its fault shows in the raw samples as null, and a restart of the sensors tries it again)."""
        for i, sensor in enumerate(self.others):
            if sensor is None:
                continue
            try:
                if sensor.data_ready:
                    self.other_mm[i] = sensor.range
            except (OSError, RuntimeError):
                self.others[i] = None
                self.other_mm[i] = None

    def poll_distance(self):
        """(True, mm) when a new reading is ready, else (False, None).

        Raises OSError on an I2C fault, RuntimeError when the driver gave up
        waiting (IO_TIMEOUT_S)."""
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
        """One reading of every disc: the largest swing among them (``loudest()`` names its disc)."""
        level = 0.0
        self._loudest = None
        for disc, (pin, baseline) in enumerate(zip(self.piezos, self.baselines)):
            reading = level_from_counts(pin.value, baseline)
            if reading > level:
                level = reading
                self._loudest = disc
        return level

    def loudest(self):
        """The 0-based index of the disc that read the largest swing in the last ``piezo_level()``."""
        return self._loudest

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

    def save_weighing(self, zero, per_die, spread):
        record = json.dumps([int(zero), round(per_die, 2), round(spread, 5)]).encode()
        record = NVM_WEIGH_MAGIC + record + b" " * (NVM_SIZE - len(NVM_WEIGH_MAGIC) - len(record))
        microcontroller.nvm[NVM_SIZE:2 * NVM_SIZE] = record

    def load_weighing(self):
        try:
            raw = bytes(microcontroller.nvm[NVM_SIZE:2 * NVM_SIZE])
            if raw[: len(NVM_WEIGH_MAGIC)] != NVM_WEIGH_MAGIC:
                return None
            zero, per_die, spread = json.loads(raw[len(NVM_WEIGH_MAGIC):].decode().strip())
            return int(zero), float(per_die), float(spread)
        except (ValueError, TypeError):
            return None

    def reboot(self):
        time.sleep(0.2)  # let the ack leave over USB first
        microcontroller.reset()


def start_watchdog():
    """Arm the board's watchdog in RESET mode, or return None on a port without one."""
    try:
        from watchdog import WatchDogMode

        dog = microcontroller.watchdog
        dog.timeout = WATCHDOG_S
        dog.mode = WatchDogMode.RESET
        dog.feed()
        return dog
    except (ImportError, AttributeError, NotImplementedError, RuntimeError, ValueError):
        return None


def feed(dog):
    if dog is not None:
        dog.feed()


def _boot_id():
    """A random id for this start, so the Pi can tell a restart from a replayed hello."""
    try:
        return int.from_bytes(os.urandom(4), "big") % MAX_BOOT
    except (AttributeError, NotImplementedError, OSError):  # a port without a random source
        return now_ms() % MAX_BOOT


def _restarted_by_watchdog():
    try:
        return microcontroller.cpu.reset_reason == microcontroller.ResetReason.WATCHDOG
    except AttributeError:
        return False


class _Loops:
    """Counts main-loop turns against ``run``'s limit (None: forever)."""

    def __init__(self, limit):
        self.limit = limit
        self.count = 0

    def more(self):
        self.count += 1
        return self.limit is None or self.count <= self.limit


def _start_failure(err):
    """An error line's words for a failed start (80 characters: the message matters most)."""
    return "start-up failed, retrying: %s" % (str(err) or type(err).__name__)


def _start_board(dog, loops):
    """The Board, once one starts; until then a tray with no parts that says why.

    A board that cannot start (a pin named in settings.toml that it does not
    have, a fault we did not foresee) must not stop in silence: the tray
    answers the Pi, sends the reason as an error line after every hello, and
    tries again every RETRY_START_MS. Returns ``(board, app)``: ``board`` is
    None if ``loops`` ran out first; ``app`` is the stand-in, whose count of
    sequence numbers the real tray carries on.
    """
    try:
        return Board(), None
    except Exception as err:  # any start-up failure; only a missing data port cannot be reported
        if usb_cdc.data is None:
            raise
        problem = err
    port = usb_cdc.data

    def write(line):
        return port.connected and port.write(line) == len(line)

    app = TrayApp(write, {"boot_id": _boot_id()})
    app.sensor = "missing"
    start = now_ms()
    if _restarted_by_watchdog():
        app.set_problem("watchdog", "internal", WATCHDOG_NOTE)
    app.set_problem("start", "internal", _start_failure(problem))
    app.start(start)
    retry_at = start + RETRY_START_MS
    was_connected = port.connected
    while loops.more():
        feed(dog)
        t = now_ms()
        if port.connected and not was_connected:
            app.on_connect(t)
        was_connected = port.connected
        waiting = port.in_waiting
        if waiting:
            app.on_bytes(port.read(waiting), t)
        app.tick(t)
        if t >= retry_at:
            retry_at = t + RETRY_START_MS
            try:
                return Board(), app
            except Exception as err:  # still failing: say the newest reason
                app.set_problem("start", "internal", _start_failure(err), t)
        time.sleep(0.01)
    return None, app


def run(loops=None):
    """The main loop. ``loops`` limits it (for a test); the board runs it forever."""
    if usb_cdc.data is None:  # nothing to report on, and only a reset turns the port on: say so and stop
        raise RuntimeError("the USB data port is off: copy boot.py to CIRCUITPY and reset the board")
    dog = start_watchdog()
    turns = _Loops(loops)
    hw, stand_in = _start_board(dog, turns)
    if hw is None:
        return stand_in
    feed(dog)
    settings = hw.settings()
    settings["boot_id"] = _boot_id()
    app = TrayApp(hw.write, settings, hw)
    if stand_in is not None:  # the same boot: carry on its count, agreed version and boot id
        app.sequencer = stand_in.sequencer
        app.boot_id = stand_in.boot_id
    start = now_ms()
    if _restarted_by_watchdog():
        app.set_problem("watchdog", "internal", WATCHDOG_NOTE)
    if hw.fault:
        app.sensor = "missing"  # so the hello already says so
        app.set_problem("sensor", hw.fault[0], hw.fault[1])
    if hw.scale_fault:
        app.set_problem("scale", hw.scale_fault[0], hw.scale_fault[1])
    app.start(start)
    was_connected = hw.connected()
    last_reading = start
    hold = PeakHold()
    while turns.more():
        feed(dog)
        t = now_ms()
        try:
            burst(hw.piezo_level, hold, PIEZO_BURST, hw.loudest)
            connected = hw.connected()
            if connected and not was_connected:
                app.on_connect(t)  # the Pi has just opened the port
            was_connected = connected
            data = hw.read()
            if data:
                app.on_bytes(data, t)
            burst(hw.piezo_level, hold, PIEZO_BURST, hw.loudest)
            app.on_piezo(hold.take(), t, hold.taken_disc)  # the peak since the last pass, not one random moment
            if hw.sensor is None:
                if hw.recover(t):
                    last_reading = t
                    app.clear_problem("sensor")
            else:
                try:
                    ready, mm = hw.poll_distance()
                    if ready:
                        last_reading = t
                        hw.poll_others()
                        app.on_sample(mm, t, hw.other_mm)
                    elif t - last_reading > SENSOR_TIMEOUT_MS:
                        last_reading = t
                        app.on_sensor_fault("sensor_timeout", "no reading for %d ms" % SENSOR_TIMEOUT_MS, t)
                        hw.sensor = None
                except OSError as err:
                    app.on_sensor_fault("i2c_fault", "read failed: %s" % err, t)
                    hw.sensor = None
                except RuntimeError as err:  # the driver gave up after IO_TIMEOUT_S
                    app.on_sensor_fault("sensor_timeout", "driver timeout: %s" % err, t)
                    hw.sensor = None
            if hw.scale is not None:
                try:
                    ready, code = hw.poll_weight()  # one register read unless a conversion waits
                    if ready:
                        app.on_weight(code, t)
                except OSError as err:
                    app.on_scale_fault("scale_fault", "load cell read failed: %s" % err, t)
                    hw.scale = None
            burst(hw.piezo_level, hold, PIEZO_BURST, hw.loudest)  # after the sensor and the serial work: held for the next pass
            app.tick(t)
        except Exception as err:  # keep the tray alive; say what went wrong
            app.error("internal", "loop: %r" % err, t)
            time.sleep(0.05)
    return app
