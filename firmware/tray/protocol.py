"""The tray's serial protocol: newline-delimited JSON, one module for both ends.

The tray (CircuitPython on an RP2040) and the Pi (``firmware.tray.protocol``)
import this same file, so the two ends cannot drift apart. It is written for
CircuitPython: plain dicts and tuples, no dataclasses, no typing, only ``json``.
firmware/PROTOCOL.md describes every message and command in prose.

A line is one JSON object followed by ``\\n``. The tray sends *messages*::

    {"v":1,"seq":42,"t":81234,"type":"collapse","fell":3,"standing":2}

``v`` is the protocol version, ``seq`` counts every message the tray sends
(so the Pi can see gaps), ``t`` is the tray's clock in milliseconds since boot.
The Pi sends *commands*::

    {"v":1,"id":7,"cmd":"budget","ms":20}

and the tray answers each with an ``ack`` carrying the same ``id``.

Nothing here ever raises on bad input. ``decode_message``/``decode_command``
return ``(obj, None, None)`` for a good line or ``(None, code, detail)`` for a
bad one, where ``code`` is one of ``REJECT_CODES`` (for counting) and
``detail`` says what was wrong in words. ``LineReader`` cuts a byte stream
into lines, drops oversized ones and the partial line left by a reconnect.
"""

import json

PROTOCOL_VERSION = 1

# A line's JSON text may be at most this many bytes (the newline not counted).
# Every message the tray can build fits (a test proves it); anything longer is
# garbage and is dropped without being buffered. Strings are printable ASCII,
# so a character never costs more than two bytes ("\\" or "\"").
MAX_LINE = 512

MAX_SEQ = 999999999  # seq wraps to 0 after this
MAX_ID = 2147483647
MAX_T_MS = 9007199254740991  # 2**53 - 1: about 285,000 years of uptime

SENSOR_STATES = ("ok", "missing", "fault")
ZONES = ("inside", "touching", "outside")
ERROR_CODES = ("sensor_missing", "i2c_fault", "sensor_timeout", "bad_line", "bad_settings", "internal")
CALIBRATION_STEPS = ("empty", "stack")

# Why a line was rejected. Each has a counter on the receiving side.
REJECT_CODES = (
    "too_long",  # longer than MAX_LINE
    "partial",  # the tail of a line cut off by a reconnect
    "not_utf8",
    "not_json",
    "not_object",  # valid JSON but not {...}
    "version",  # "v" is not PROTOCOL_VERSION
    "unknown_type",  # "type"/"cmd" is not one we know
    "missing_field",
    "bad_value",  # wrong kind of value, or out of range
)

# Field rules: ("int", lo, hi), ("num", lo, hi), ("bool",), ("str", max_len),
# ("enum", choices), ("int_or_null", lo, hi).
_INT = "int"
_NUM = "num"
_BOOL = "bool"
_STR = "str"
_ENUM = "enum"
_INT_OR_NULL = "int_or_null"

MESSAGE_COMMON = (
    ("seq", (_INT, 0, MAX_SEQ)),
    ("t", (_INT, 0, MAX_T_MS)),
)
COMMAND_COMMON = (("id", (_INT, 0, MAX_ID)),)

# type -> (required fields, optional fields). Units are in the names.
MESSAGES = {
    "hello": (
        (
            ("fw", (_STR, 16)),
            ("sensor", (_ENUM, SENSOR_STATES)),
            ("budget_ms", (_INT, 20, 33)),
            ("settle_ms", (_INT, 100, 5000)),
            ("raw", (_BOOL,)),
            ("calibrated", (_BOOL,)),
            ("empty_mm", (_INT, 0, 2000)),
            ("die_mm", (_NUM, 1, 100)),
        ),
        (("id", (_INT, 0, MAX_ID)), ("dice", (_INT_OR_NULL, 0, 64))),
    ),
    "heartbeat": (
        (
            ("up_s", (_INT, 0, MAX_T_MS)),
            ("sensor", (_ENUM, SENSOR_STATES)),
            ("rejected", (_INT, 0, MAX_T_MS)),
            ("dropped", (_INT, 0, MAX_T_MS)),
        ),
        (),
    ),
    "sample": ((("mm", (_INT_OR_NULL, 0, 2000)),), ()),
    "height": ((("dice", (_INT, 0, 64)),), ()),
    "added": ((("dice", (_INT, 0, 64)),), ()),
    "removed": ((("dice", (_INT, 0, 64)),), ()),
    "collapse": ((("fell", (_INT, 1, 64)), ("standing", (_INT, 0, 64))), ()),
    "impact": (
        (("strength", (_NUM, 0, 1)),),
        (("zone", (_ENUM, ZONES)), ("face", (_INT, 1, 10))),
    ),
    "settled": (
        (("quiet_ms", (_INT, 0, 60000)),),
        (("zone", (_ENUM, ZONES)), ("face", (_INT, 1, 10))),
    ),
    "calibration": (
        (("step", (_ENUM, CALIBRATION_STEPS)), ("ok", (_BOOL,))),
        (("empty_mm", (_INT, 0, 2000)), ("die_mm", (_NUM, 1, 100)), ("reason", (_STR, 80))),
    ),
    "ack": (
        (("id", (_INT, 0, MAX_ID)), ("cmd", (_STR, 16)), ("ok", (_BOOL,))),
        (("reason", (_STR, 80)),),
    ),
    "error": ((("code", (_ENUM, ERROR_CODES)), ("detail", (_STR, 80))), ()),
}

COMMANDS = {
    "hello": ((), ()),
    "ping": ((), ()),
    "calibrate": (
        (("step", (_ENUM, ("empty", "stack", "cancel"))),),
        (("dice", (_INT, 1, 30)),),
    ),
    "budget": ((("ms", (_INT, 20, 33)),), ()),
    "settle": ((("ms", (_INT, 100, 5000)),), ()),
    "raw": ((("on", (_BOOL,)),), ()),
    "reboot": ((), ()),
}


def _check(name, value, rule):
    """None if ``value`` obeys ``rule``, else a sentence saying why not."""
    kind = rule[0]
    if kind == _INT_OR_NULL:
        if value is None:
            return None
        kind = _INT
    if kind == _INT or kind == _NUM:
        if isinstance(value, bool) or not isinstance(value, (int, float) if kind == _NUM else int):
            return "%s must be %s, got %s" % (name, "a whole number" if kind == _INT else "a number", _show(value))
        # NaN fails both comparisons, infinity fails one: both are rejected here.
        if not (rule[1] <= value <= rule[2]):
            return "%s must be %s..%s, got %s" % (name, rule[1], rule[2], _show(value))
        return None
    if kind == _BOOL:
        return None if isinstance(value, bool) else "%s must be true or false, got %s" % (name, _show(value))
    if kind == _STR:
        if not isinstance(value, str):
            return "%s must be a string, got %s" % (name, _show(value))
        if len(value) > rule[1]:
            return "%s is longer than %d characters" % (name, rule[1])
        for ch in value:
            if not " " <= ch <= "~":
                return "%s must be printable ASCII" % name
        return None
    if kind == _ENUM:
        if isinstance(value, str) and value in rule[1]:
            return None
        return "%s must be one of %s, got %s" % (name, "/".join(rule[1]), _show(value))
    return "%s has an unknown rule" % name


def _show(value):
    text = repr(value)
    return text if len(text) <= 24 else text[:21] + "..."


def text(value, limit):
    """``value`` as printable ASCII of at most ``limit`` characters, fit for a string field."""
    out = []
    for ch in str(value):
        if len(out) >= limit:
            break
        out.append(ch if " " <= ch <= "~" else "?")
    return "".join(out)


def _decode(line, key, table, common):
    if len(line) > MAX_LINE:
        return None, "too_long", "line of %d bytes is over the %d byte limit" % (len(line), MAX_LINE)
    try:
        text = line.decode("utf-8") if isinstance(line, (bytes, bytearray)) else line
    except Exception:  # UnicodeError; CircuitPython has no finer class
        return None, "not_utf8", "line is not UTF-8 text"
    try:
        obj = json.loads(text)
    except Exception:  # ValueError on CPython and CircuitPython alike
        return None, "not_json", "line is not valid JSON"
    if not isinstance(obj, dict):
        return None, "not_object", "line is JSON but not an object"
    if "v" not in obj:
        return None, "missing_field", "no protocol version 'v'"
    version = obj["v"]
    if isinstance(version, bool) or not isinstance(version, int) or version != PROTOCOL_VERSION:
        return None, "version", "protocol version %s, this side speaks %d" % (_show(version), PROTOCOL_VERSION)
    if key not in obj:
        return None, "missing_field", "no '%s'" % key
    kind = obj[key]
    if not isinstance(kind, str) or kind not in table:
        return None, "unknown_type", "unknown %s %s" % (key, _show(kind))
    required, optional = table[kind]
    for name, rule in common + required:
        if name not in obj:
            return None, "missing_field", "%s '%s' lacks '%s'" % (key, kind, name)
        problem = _check(name, obj[name], rule)
        if problem:
            return None, "bad_value", problem
    for name, rule in optional:
        if name in obj and obj[name] is not None:
            problem = _check(name, obj[name], rule)
            if problem:
                return None, "bad_value", problem
    return obj, None, None


def decode_message(line):
    """A line the tray sent -> ``(message, None, None)`` or ``(None, code, detail)``.

    Unknown extra fields are kept but never required, so a tray with a newer
    minor addition still talks to an older Pi; anything incompatible bumps ``v``.
    """
    return _decode(line, "type", MESSAGES, MESSAGE_COMMON)


def decode_command(line):
    """A line the Pi sent -> ``(command, None, None)`` or ``(None, code, detail)``."""
    return _decode(line, "cmd", COMMANDS, COMMAND_COMMON)


def encode(obj):
    """A dict -> one line of bytes ending in a newline. Raises ValueError if over MAX_LINE."""
    try:
        text = json.dumps(obj, separators=(",", ":"))
    except TypeError:  # an older CircuitPython json without separators
        text = json.dumps(obj)
    data = text.encode("utf-8")
    if len(data) > MAX_LINE:
        raise ValueError("line of %d bytes is over the %d byte limit" % (len(data), MAX_LINE))
    return data + b"\n"


def command(cmd, command_id, **fields):
    """The dict for one command from the Pi."""
    obj = {"v": PROTOCOL_VERSION, "id": command_id, "cmd": cmd}
    for name in fields:
        obj[name] = fields[name]
    return obj


class Sequencer:
    """Stamps the tray's messages with version, sequence number and time."""

    def __init__(self):
        self.seq = 0

    def message(self, kind, t_ms, fields=None):
        obj = {"v": PROTOCOL_VERSION, "seq": self.seq, "t": int(t_ms), "type": kind}
        if fields:
            for name in fields:
                obj[name] = fields[name]
        self.seq = 0 if self.seq >= MAX_SEQ else self.seq + 1
        return obj


def seq_gap(expected, seq):
    """How many messages were lost between the ``expected`` seq and the one that came.

    0 when ``seq`` is the one expected. A seq below the expected one (the tray
    rebooted, or wrapped) is not a gap: the count starts again from there.
    """
    if seq >= expected:
        return seq - expected
    if expected - seq > MAX_SEQ // 2:  # wrapped around MAX_SEQ
        return MAX_SEQ + 1 - expected + seq
    return 0


class Rejects:
    """Counts rejected lines by reason; remembers the last one for display."""

    def __init__(self):
        self.by_code = {}
        self.total = 0
        self.last = None

    def count(self, code, detail=""):
        self.by_code[code] = self.by_code.get(code, 0) + 1
        self.total += 1
        self.last = (code, detail)


class LineReader:
    """Cuts incoming bytes into lines, never holding more than MAX_LINE bytes.

    ``feed(data)`` returns the complete lines (without the newline or a
    trailing carriage return; blank lines are skipped). An oversized line is
    counted as ``too_long`` and skipped up to its newline. After ``reset()``
    (a reconnect) whatever was buffered is dropped, and so is the first line
    if it does not start with ``{``: it is the tail of a line sent before we
    were listening. Both count as ``partial``.
    """

    def __init__(self, rejects=None, limit=MAX_LINE):
        self.rejects = rejects if rejects is not None else Rejects()
        self.limit = limit
        self._buf = bytearray()
        self._skipping = False  # inside an oversized line, waiting for its end
        self._fresh = True  # nothing complete seen since the last reset

    def reset(self):
        if self._buf and not self._skipping:
            self.rejects.count("partial", "line cut short by a reconnect")
        self._buf = bytearray()
        self._skipping = False
        self._fresh = True

    def feed(self, data):
        lines = []
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            if end < 0:
                chunk = data[start:]
                if not self._skipping:
                    if len(self._buf) + len(chunk) > self.limit:
                        self.rejects.count("too_long", "line over %d bytes" % self.limit)
                        self._buf = bytearray()
                        self._skipping = True
                    else:
                        self._buf.extend(chunk)
                break
            chunk = data[start:end]
            start = end + 1
            if self._skipping:
                self._skipping = False
                self._fresh = False
                continue
            if len(self._buf) + len(chunk) > self.limit:
                self.rejects.count("too_long", "line over %d bytes" % self.limit)
                self._buf = bytearray()
                self._fresh = False
                continue
            self._buf.extend(chunk)
            line = bytes(self._buf)
            self._buf = bytearray()
            if line.endswith(b"\r"):
                line = line[:-1]
            if not line.strip():
                continue
            if self._fresh:
                self._fresh = False
                if not line.lstrip().startswith(b"{"):
                    self.rejects.count("partial", "tail of a line sent before the link came up")
                    continue
            lines.append(line)
        return lines
