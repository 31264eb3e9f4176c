"""The tray's main-loop logic: commands, streaming, heartbeat and calibration. Pure Python.

``TrayApp`` is everything the tray does except touching hardware. The board's
``code.py`` (through ``hw.py``) and the Pi's virtual tray both drive it the
same way, so the tests on a desktop exercise the code that runs on the board:

    app = TrayApp(write, settings, hooks)
    app.start(now_ms)                 # says hello
    loop:
        app.on_bytes(data, now_ms)    # bytes that arrived from the Pi
        app.on_piezo(level, now_ms)   # as often as the loop can (0..1)
        app.on_sample(mm, now_ms)     # each VL53L0X reading (None if invalid)
        app.tick(now_ms)              # heartbeat

``write(line_bytes)`` sends one encoded line and returns False if it had to
drop it (no host listening). The board calls ``app.on_connect(now_ms)`` when
the Pi opens the port: a new listener starts in protocol version 1 and is
greeted with a hello. ``hooks`` is the hardware side: ``set_budget``,
``save_calibration`` and ``reboot`` (see ``Hooks``). Times are integer
milliseconds since boot, because CircuitPython's floats lose milliseconds
after a few hours of uptime.

The protocol version is agreed per connection: the Pi's ``hello`` command
offers its highest (``max_v``), the tray answers in the highest both speak
and from then on sends that version (v2: every line with its CRC). Once v2
is agreed, a v1 command is refused, except ``hello``, which starts over.

Start-up problems (a sensor that did not answer, impossible settings, a
restart by the watchdog) are kept in ``problems`` and repeated after every
hello the tray sends, so a Pi that connects late still learns why.

Calibration is a small state machine driven by the ``calibrate`` command:
``empty`` measures the bare tray, then ``stack`` (with the number of dice
standing) measures a known stack; from both, ``heat.calibrate_from`` works
out the empty distance and the die size, and the Heat tracker starts afresh.
"""

import time

from . import protocol
from .heat import KNOCK_LEVEL, Calibration, HeatTracker, calibrate_from
from .impact import ImpactDetector
from .weight import WeighCalibration, WeightTracker

# Heat messages only a Pi that asked for them in its hello (``weigh: true``) is sent: an older Pi
# would reject them as unknown types.
WEIGHT_ONLY = ("falling", "mismatch")

FIRMWARE_VERSION = "0.3.1"

# The VL53L0X reports 8190/8191 (and sometimes 8192+) when it sees nothing in range.
OUT_OF_RANGE_MM = 8190
MAX_VALID_MM = 2000

CALIBRATION_SAMPLES = 30  # valid readings averaged per calibration step (about 1 s)
CALIBRATION_MAX_MISSES = 60  # invalid readings tolerated per step before giving up

DEFAULTS = {
    "budget_ms": 33,
    "settle_ms": 600,
    "heartbeat_ms": 1000,
    "raw": False,
    "empty_mm": 320,
    "die_mm": 16.0,
    "calibrated": False,
    "impact_threshold": 0.25,
    "quiet_level": 0.08,
}

IDLE = "idle"
MEASURING_EMPTY = "empty"
WAITING_FOR_STACK = "waiting"
MEASURING_STACK = "stack"


class Hooks:
    """What the logic asks of the hardware. The defaults do nothing (for tests)."""

    def set_budget(self, ms):
        """Change the VL53L0X timing budget; return None, or a reason it failed."""
        return None

    def save_calibration(self, empty_mm, die_mm):
        """Keep a calibration across power cycles (nvm on the board)."""

    def save_weighing(self, zero, per_die, spread):
        """Keep the load cell's calibration (the empty plinth's code, one die's codes, the set's spread)."""

    def reboot(self):
        """Restart the board. Called after the ack has been written."""


def valid_mm(raw):
    """A raw range reading -> whole millimetres, or None for no/invalid reading."""
    if raw is None or isinstance(raw, bool):
        return None
    try:
        mm = int(raw)
    except (TypeError, ValueError, OverflowError):
        return None
    if mm <= 0 or mm >= OUT_OF_RANGE_MM or mm > MAX_VALID_MM:
        return None
    return mm


def _median(values):
    ordered = sorted(values)
    n = len(ordered)
    middle = n // 2
    return ordered[middle] if n % 2 else (ordered[middle - 1] + ordered[middle]) / 2


class TrayApp:
    def __init__(self, write, settings=None, hooks=None):
        self.write = write
        self.hooks = hooks if hooks is not None else Hooks()
        self.settings = dict(DEFAULTS)
        if settings:
            for key in settings:
                self.settings[key] = settings[key]
        self.sequencer = protocol.Sequencer()
        # The newest protocol version this tray speaks (settings "max_version": 1 plays an old tray).
        self.max_version = self.settings.get("max_version", protocol.PROTOCOL_VERSION)
        # Chosen anew at each start, so the Pi can tell a restarted tray from a replayed hello.
        self.boot_id = self.settings.get("boot_id")
        if self.boot_id is None:
            self.boot_id = time.monotonic_ns() % protocol.MAX_BOOT
        self.problems = []  # (part, code, detail): start-up problems, repeated after every hello
        self.rejects = protocol.Rejects()
        self.reader = protocol.LineReader(self.rejects)
        self.dropped = 0  # lines write() could not send
        self.sensor = "ok"
        self.started_ms = 0
        self._next_heartbeat_ms = 0
        self._settings_problem = None
        try:
            self.impact = ImpactDetector(
                self.settings["impact_threshold"], self.settings["quiet_level"], self.settings["settle_ms"]
            )
        except ValueError as err:
            self._settings_problem = "piezo levels ignored: %s" % err
            self.impact = ImpactDetector(DEFAULTS["impact_threshold"], DEFAULTS["quiet_level"], self.settings["settle_ms"])
        try:
            self.calibration = Calibration(self.settings["empty_mm"], self.settings["die_mm"])
        except ValueError as err:  # a bad settings.toml must not stop the tray: fall back, and say so
            self._settings_problem = "calibration settings ignored: %s" % err
            self.calibration = Calibration(DEFAULTS["empty_mm"], DEFAULTS["die_mm"])
            self.settings["calibrated"] = False
        self.tracker = HeatTracker(self.calibration)
        # The load cell (docs/sensing.md): "none" on a tray built without one. With the set's
        # weights learnt, the weight tracker counts the Heat and the VL53L0X only watches.
        self.scale = self.settings.get("scale", "none")
        self.weight = None
        self.last_code = None
        self.weigh_ok = False  # the Pi asked for the weighing messages in this connection's hello
        if self.settings.get("weigh_per_die"):
            try:
                self._use_weighing(self.settings["weigh_zero"], self.settings["weigh_per_die"],
                                   self.settings.get("weigh_spread", 0.0))
            except (KeyError, ValueError) as err:
                self._settings_problem = "load cell calibration ignored: %s" % err
        self.cal_state = IDLE
        self._cal_readings = []
        self._cal_misses = 0
        self._cal_empty = None
        self._cal_dice = 0

    # -- sending ---------------------------------------------------------
    def send(self, kind, t_ms, fields=None):
        try:
            line = protocol.encode(self.sequencer.message(kind, t_ms, fields))
        except ValueError:  # cannot happen for the messages we build; never crash if it does
            line = protocol.encode(
                self.sequencer.message("error", t_ms, {"code": "internal", "detail": "oversized %s message" % kind})
            )
        if self.write(line) is False:
            self.dropped += 1

    def _use_weighing(self, zero, per_die, spread):
        self.weight = WeightTracker(WeighCalibration(zero, per_die, spread), distance=self.calibration)

    def heat_level(self):
        return self.weight.level if self.weight is not None else self.tracker.level

    def send_heat(self, events, t_ms):
        """Send Heat events; the weighing-only ones only to a Pi that asked for them."""
        for event in events:
            kind = event.pop("type")
            if kind in WEIGHT_ONLY and not self.weigh_ok:
                continue
            self.send(kind, t_ms, event)

    def hello(self, t_ms, command_id=None):
        fields = {
            "fw": FIRMWARE_VERSION,
            "sensor": self.sensor,
            "budget_ms": self.settings["budget_ms"],
            "settle_ms": self.impact.settle_ms,
            "raw": bool(self.settings["raw"]),
            "calibrated": bool(self.settings["calibrated"]),
            "empty_mm": int(round(self.calibration.empty_mm)),
            "die_mm": round(float(self.calibration.die_mm), 2),
            "dice": self.heat_level(),
        }
        if self.scale != "none":  # a tray without a load cell says nothing new
            fields["scale"] = self.scale
            fields["weighed"] = self.weight is not None
        if command_id is not None:
            fields["id"] = command_id
        if self.max_version >= 2:  # a version 1 tray knew neither field
            fields["max_v"] = self.max_version
            fields["boot"] = self.boot_id
        self.send("hello", t_ms, fields)
        for _, code, detail in self.problems:
            self.error(code, detail, t_ms)

    def on_connect(self, t_ms):
        """The Pi has just opened the port: a new listener, so start again from version 1 and say hello."""
        self.sequencer.version = 1
        self.weigh_ok = False
        self.hello(t_ms)

    def set_problem(self, part, code, detail, t_ms=None):
        """Remember a start-up problem with ``part`` (and say it now if ``t_ms`` is given)."""
        self.clear_problem(part)
        detail = protocol.text(detail, 80)
        self.problems.append((part, code, detail))
        if t_ms is not None:
            self.error(code, detail, t_ms)

    def clear_problem(self, part):
        self.problems = [p for p in self.problems if p[0] != part]

    def start(self, t_ms):
        self.started_ms = t_ms
        self._next_heartbeat_ms = t_ms + self.settings["heartbeat_ms"]
        if self._settings_problem:
            self.set_problem("settings", "bad_settings", self._settings_problem)
        self.hello(t_ms)

    def error(self, code, detail, t_ms):
        self.send("error", t_ms, {"code": code, "detail": protocol.text(detail, 80)})

    # -- inputs ----------------------------------------------------------
    def on_bytes(self, data, t_ms):
        before = self.rejects.by_code.get("too_long", 0)
        lines = self.reader.feed(data)
        for _ in range(min(3, self.rejects.by_code.get("too_long", 0) - before)):
            self.error("bad_line", "too_long: line over %d bytes" % protocol.MAX_LINE, t_ms)
        # A "partial" line (the tail of one sent before we listened) is only counted: it is routine.
        for line in lines:
            command, code, detail = protocol.decode_command(line)
            if command is not None:
                code, detail = self._version_problem(command)
                if code:
                    command = None
            if command is None:
                self.rejects.count(code, detail)
                self.error("bad_line", "%s: %s" % (code, detail), t_ms)
                continue
            try:
                self.handle(command, t_ms)
            except Exception as err:  # a bug must not stop the tray; report it instead
                self.error("internal", "%s failed: %r" % (command["cmd"], err), t_ms)

    def _version_problem(self, command):
        """(code, detail) if ``command`` came in a version this connection does not accept, else (None, None)."""
        version = command["v"]
        if version > self.max_version:
            return "version", "protocol version %d, this tray speaks up to %d" % (version, self.max_version)
        if version < self.sequencer.version and command["cmd"] != "hello":
            return "version", "a version %d command after version %d was agreed" % (version, self.sequencer.version)
        return None, None

    def on_piezo(self, level, t_ms, disc=None):
        """The piezo level (0..1); ``disc``: the 0-based disc that read it, told in ``impact`` as ``piezo``."""
        if level is not None and level >= KNOCK_LEVEL:
            self.tracker.knock(t_ms / 1000.0)  # helps the Heat tracker tell a fall from a hand
            if self.weight is not None:
                self.weight.knock(t_ms / 1000.0)
        for event in self.impact.feed(level, t_ms):
            kind = event.pop("type")
            if kind == "impact" and disc is not None:
                event["piezo"] = disc
            self.send(kind, t_ms, event)

    def on_sample(self, raw_mm, t_ms, others=()):
        """One reading of the arm's sensor; ``others``: the latest reading of each sensor beside it
        (design "post"), passed on in raw samples (as ``mm2``) for the bench and calibration. The
        Heat events come from the arm's sensor alone: fusing them needs each sensor's measured
        curve on the tray (docs/sensing.md, not done)."""
        mm = valid_mm(raw_mm)
        if mm is not None and self.sensor != "ok":
            self.sensor = "ok"
        if self.settings["raw"]:
            fields = {"mm": mm}
            if others:
                fields["mm2"] = valid_mm(others[0])
            if self.scale != "none":
                fields["w"] = self.last_code
            self.send("sample", t_ms, fields)
        if self.cal_state in (MEASURING_EMPTY, MEASURING_STACK):
            self._calibration_sample(mm, t_ms)
            return
        if self.cal_state == WAITING_FOR_STACK:
            return  # the operator is building the known stack: no Heat events meanwhile
        if self.weight is not None:  # the Heat is weighed: the VL53L0X sees hands and watches the height
            self.send_heat(self.weight.see(mm, t_ms / 1000.0), t_ms)
            return
        self.send_heat(self.tracker.feed(mm, t_ms / 1000.0), t_ms)

    def on_weight(self, code, t_ms):
        """One NAU7802 conversion (the driver's reading). Counts the Heat once the set is weighed."""
        self.last_code = code
        if self.scale != "ok":
            self.scale = "ok"
        if self.weight is None or self.cal_state != IDLE:
            return
        self.send_heat(self.weight.feed(code, t_ms / 1000.0), t_ms)

    def on_scale_fault(self, code, detail, t_ms):
        """The load cell's ADC did not answer (code: scale_missing, scale_fault)."""
        self.scale = "missing" if code == "scale_missing" else "fault"
        self.error(code, detail, t_ms)

    def on_sensor_fault(self, code, detail, t_ms):
        """The hardware layer could not read the sensor (code: sensor_missing, i2c_fault, sensor_timeout)."""
        self.sensor = "missing" if code == "sensor_missing" else "fault"
        self.error(code, detail, t_ms)

    def tick(self, t_ms):
        if t_ms >= self._next_heartbeat_ms:
            self._next_heartbeat_ms = t_ms + self.settings["heartbeat_ms"]
            self.send(
                "heartbeat",
                t_ms,
                {
                    "up_s": (t_ms - self.started_ms) // 1000,
                    "sensor": self.sensor,
                    "rejected": self.rejects.total,
                    "dropped": self.dropped,
                },
            )

    # -- commands --------------------------------------------------------
    def ack(self, command, t_ms, ok=True, reason=None):
        fields = {"id": command["id"], "cmd": command["cmd"], "ok": ok}
        if reason:
            fields["reason"] = protocol.text(reason, 80)
        self.send("ack", t_ms, fields)

    def handle(self, command, t_ms):
        cmd = command["cmd"]
        if cmd == "hello":
            offered = max(command["v"], command.get("max_v") or 1)
            self.sequencer.version = min(offered, self.max_version)
            self.weigh_ok = bool(command.get("weigh"))
            self.hello(t_ms, command["id"])
        elif cmd == "tare":
            if self.weight is None:
                self.ack(command, t_ms, False, "no load cell calibration: weigh the set on the bench first")
            else:
                problem = self.weight.tare()
                if problem:
                    self.ack(command, t_ms, False, problem)
                else:
                    cal = self.weight.calibration
                    self.hooks.save_weighing(cal.zero, cal.per_die, cal.spread)
                    self.ack(command, t_ms)
        elif cmd == "weighcal":
            spread = command.get("spread", 0.0)
            self._use_weighing(command["zero"], command["per_die"], spread)
            self.settings["weigh_zero"], self.settings["weigh_per_die"] = command["zero"], command["per_die"]
            self.settings["weigh_spread"] = spread
            self.hooks.save_weighing(command["zero"], command["per_die"], spread)
            self.ack(command, t_ms)
        elif cmd == "ping":
            self.ack(command, t_ms)
        elif cmd == "budget":
            problem = self.hooks.set_budget(command["ms"])
            if problem:
                self.ack(command, t_ms, False, problem)
            else:
                self.settings["budget_ms"] = command["ms"]
                self.ack(command, t_ms)
        elif cmd == "settle":
            self.impact.settle_ms = command["ms"]
            self.settings["settle_ms"] = command["ms"]
            self.ack(command, t_ms)
        elif cmd == "raw":
            self.settings["raw"] = command["on"]
            self.ack(command, t_ms)
        elif cmd == "reboot":
            self.ack(command, t_ms)
            self.hooks.reboot()
        elif cmd == "calibrate":
            self._calibrate_command(command, t_ms)

    def _calibrate_command(self, command, t_ms):
        step = command["step"]
        if step == "cancel":
            self.cal_state = IDLE
            self._cal_empty = None
            self.tracker.reset()  # the stack may have changed meanwhile: measure it afresh
            self.ack(command, t_ms)
        elif step == "empty":
            self._start_measuring(MEASURING_EMPTY)
            self.ack(command, t_ms)
        elif self.cal_state != WAITING_FOR_STACK:
            self.ack(command, t_ms, False, "measure the empty tray first (calibrate step empty)")
        elif not command.get("dice"):
            self.ack(command, t_ms, False, "say how many dice the known stack has (dice 1-30)")
        else:
            self._cal_dice = command["dice"]
            self._start_measuring(MEASURING_STACK)
            self.ack(command, t_ms)

    def _start_measuring(self, state):
        self.cal_state = state
        self._cal_readings = []
        self._cal_misses = 0

    def _calibration_sample(self, mm, t_ms):
        step = "empty" if self.cal_state == MEASURING_EMPTY else "stack"
        if mm is None:
            self._cal_misses += 1
            if self._cal_misses > CALIBRATION_MAX_MISSES:
                self.cal_state = IDLE
                self._cal_empty = None
                self.tracker.reset()
                self.send("calibration", t_ms, {"step": step, "ok": False, "reason": "no steady reading from the sensor"})
            return
        self._cal_readings.append(mm)
        if len(self._cal_readings) < CALIBRATION_SAMPLES:
            return
        readings = self._cal_readings
        self._cal_readings = []
        if step == "empty":
            self._cal_empty = readings
            self.cal_state = WAITING_FOR_STACK
            self.send("calibration", t_ms, {"step": "empty", "ok": True, "empty_mm": int(round(_median(readings)))})
            return
        self.cal_state = IDLE
        try:
            calibration = calibrate_from(self._cal_empty, readings, self._cal_dice)
        except ValueError as err:
            self._cal_empty = None
            self.tracker.reset()
            self.send("calibration", t_ms, {"step": "stack", "ok": False, "reason": protocol.text(err, 80)})
            return
        self._cal_empty = None
        self.calibration = calibration
        self.tracker = HeatTracker(calibration)
        if self.weight is not None:
            self.weight.distance = calibration  # the watchman's idea of where the top is
        self.settings["empty_mm"] = calibration.empty_mm
        self.settings["die_mm"] = calibration.die_mm
        self.settings["calibrated"] = True
        self.hooks.save_calibration(calibration.empty_mm, calibration.die_mm)
        self.send(
            "calibration",
            t_ms,
            {
                "step": "stack",
                "ok": True,
                "empty_mm": int(round(calibration.empty_mm)),
                "die_mm": round(float(calibration.die_mm), 2),
            },
        )
