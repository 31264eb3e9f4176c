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

Version 2 adds an integrity check: the same JSON, then ``*`` and the
CRC-16/CCITT-FALSE of the JSON bytes as four upper-case hex digits::

    {"v":2,"seq":42,"t":81234,"type":"collapse","fell":3,"standing":2}*4F1C

Both sides start in version 1; the Pi's ``hello`` command says the highest
version it speaks (``max_v``) and the tray answers in the highest version
both speak. A version 1 tray ignores ``max_v`` and answers in version 1, so
an old tray still works with a new Pi and the other way round.

Nothing here ever raises on bad input. ``decode_message``/``decode_command``
read both versions and return ``(obj, None, None)`` for a good line or ``(None, code, detail)`` for a
bad one, where ``code`` is one of ``REJECT_CODES`` (for counting) and
``detail`` says what was wrong in words. ``LineReader`` cuts a byte stream
into lines, drops oversized ones and the partial line left by a reconnect.
"""

import json

try:  # CPython has the same CRC in C (binascii.crc_hqx); CircuitPython does not
    import binascii

    _crc_hqx = getattr(binascii, "crc_hqx", None)
except ImportError:
    _crc_hqx = None

PROTOCOL_VERSION = 2  # the newest version this file speaks
VERSIONS = (1, 2)  # every version this file reads and writes
CRC_VERSION = 2  # from this version on, every line ends in *XXXX (its CRC)

# A line's JSON text may be at most this many bytes (the newline not counted).
# Every message the tray can build fits (a test proves it); anything longer is
# garbage and is dropped without being buffered. Strings are printable ASCII,
# so a character never costs more than two bytes ("\\" or "\"").
MAX_LINE = 512
CRC_SUFFIX = 5  # "*" and four hex digits, counted inside MAX_LINE

MAX_SEQ = 999999999  # seq wraps to 0 after this
MAX_ID = 2147483647
MAX_BOOT = 2147483647  # a tray's boot id: chosen at random each time it starts
MAX_T_MS = 9007199254740991  # 2**53 - 1: about 285,000 years of uptime

SENSOR_STATES = ("ok", "missing", "fault")
ZONES = ("inside", "touching", "outside")
ERROR_CODES = ("sensor_missing", "i2c_fault", "sensor_timeout", "scale_missing", "scale_fault", "bad_line",
               "bad_settings", "internal")
SCALE_STATES = ("ok", "missing", "fault", "none")  # "none": a tray built without a load cell
MAX_CODE = 2 ** 25  # the NAU7802 driver's reading: twice the chip's signed 24-bit code
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
    "crc",  # version 2: the CRC is missing, malformed or does not match
    "stale",  # a sequence number already seen or older: a replay, never news
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
        (
            ("id", (_INT, 0, MAX_ID)),
            ("dice", (_INT_OR_NULL, 0, 64)),
            ("max_v", (_INT, 1, 99)),
            ("boot", (_INT, 0, MAX_BOOT)),
            ("scale", (_ENUM, SCALE_STATES)),
            ("weighed", (_BOOL,)),
        ),
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
    "sample": ((("mm", (_INT_OR_NULL, 0, 2000)),), (("mm2", (_INT_OR_NULL, 0, 2000)),
                                                     ("w", (_INT_OR_NULL, -MAX_CODE, MAX_CODE)))),
    "height": ((("dice", (_INT, 0, 64)),), ()),
    "added": ((("dice", (_INT, 0, 64)),), ()),
    "removed": ((("dice", (_INT, 0, 64)),), ()),
    "collapse": ((("fell", (_INT, 1, 64)), ("standing", (_INT, 0, 64))), ()),
    "falling": ((("dice", (_INT, 1, 64)),), ()),
    "mismatch": ((("weighed", (_INT, 0, 64)), ("seen", (_INT, 0, 64))), ()),
    "impact": (
        (("strength", (_NUM, 0, 1)),),
        (("zone", (_ENUM, ZONES)), ("face", (_INT, 1, 10)), ("piezo", (_INT, 0, 7))),
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
    "hello": ((), (("max_v", (_INT, 1, 99)), ("weigh", (_BOOL,)))),
    "tare": ((), ()),
    "weighcal": ((("zero", (_INT, -MAX_CODE, MAX_CODE)), ("per_die", (_NUM, 1, MAX_CODE))),
                 (("spread", (_NUM, 0, 1)),)),
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


# CRC-16/CCITT-FALSE (polynomial 0x1021, start 0xFFFF): 16 bits keep every step a
# small int on CircuitPython (no heap), one table lookup per byte; it catches every
# burst of up to 16 flipped bits. The check value of b"123456789" is 0x29B1.
def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC_TABLE = _crc_table()
_HEX = b"0123456789ABCDEF"


def crc16_py(data):
    """CRC-16/CCITT-FALSE of ``data`` in plain Python (what the tray runs)."""
    crc = 0xFFFF
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc


def crc16(data):
    """CRC-16/CCITT-FALSE of ``data``: C speed where there is C (the Pi), else ``crc16_py``."""
    if _crc_hqx is not None:
        return _crc_hqx(data, 0xFFFF)
    return crc16_py(data)


def _split_crc(line):
    """``(body, crc)`` if ``line`` ends in ``*XXXX`` (four upper-case hex digits), else ``(line, None)``."""
    n = len(line)
    if n < CRC_SUFFIX or line[n - CRC_SUFFIX] != 42:  # 42 is "*"
        return line, None
    value = 0
    for byte in line[n - 4 :]:
        if 48 <= byte <= 57:  # 0-9
            value = value * 16 + byte - 48
        elif 65 <= byte <= 70:  # A-F
            value = value * 16 + byte - 55
        else:
            return line, None
    return line[: n - CRC_SUFFIX], value


def _decode(line, key, table, common):
    if len(line) > MAX_LINE:
        return None, "too_long", "line of %d bytes is over the %d byte limit" % (len(line), MAX_LINE)
    if not isinstance(line, (bytes, bytearray)):
        line = str(line).encode("utf-8")
    body, crc = _split_crc(line)
    if crc is not None and crc16(body) != crc:
        return None, "crc", "CRC %04X does not match the line (%04X): damaged on the way" % (crc, crc16(body))
    try:
        text = body.decode("utf-8")
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
    if isinstance(version, bool) or not isinstance(version, int) or version not in VERSIONS:
        return None, "version", "protocol version %s, this side speaks %s" % (
            _show(version),
            " and ".join(str(v) for v in VERSIONS),
        )
    if version >= CRC_VERSION and crc is None:
        return None, "crc", "a version %d line must end in its CRC (*XXXX)" % version
    if version < CRC_VERSION and crc is not None:
        return None, "version", "a version %d line carries no CRC; *XXXX needs version %d" % (version, CRC_VERSION)
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
    """A dict -> one line of bytes ending in a newline, in the version its ``v`` names.

    From version 2 on the JSON is followed by ``*`` and its CRC. Raises
    ValueError if the whole line (CRC included, newline not) is over MAX_LINE.
    """
    try:
        text = json.dumps(obj, separators=(",", ":"))
    except TypeError:  # an older CircuitPython json without separators
        text = json.dumps(obj)
    data = text.encode("utf-8")
    if obj.get("v", 1) >= CRC_VERSION:
        crc = crc16(data)
        data = data + b"*" + bytes((_HEX[crc >> 12], _HEX[(crc >> 8) & 15], _HEX[(crc >> 4) & 15], _HEX[crc & 15]))
    if len(data) > MAX_LINE:
        raise ValueError("line of %d bytes is over the %d byte limit" % (len(data), MAX_LINE))
    return data + b"\n"


def command(cmd, command_id, version=1, **fields):
    """The dict for one command from the Pi, in protocol ``version`` (1 until the hello agreed on more)."""
    obj = {"v": version, "id": command_id, "cmd": cmd}
    for name in fields:
        obj[name] = fields[name]
    return obj


class Sequencer:
    """Stamps the tray's messages with version, sequence number and time.

    ``version`` is the one agreed in the last hello (1 until then).
    """

    def __init__(self):
        self.seq = 0
        self.version = 1

    def message(self, kind, t_ms, fields=None):
        obj = {"v": self.version, "seq": self.seq, "t": int(t_ms), "type": kind}
        if fields:
            for name in fields:
                obj[name] = fields[name]
        self.seq = 0 if self.seq >= MAX_SEQ else self.seq + 1
        return obj


def seq_ahead(expected, seq):
    """How far ``seq`` is ahead of the ``expected`` one, or None if it is behind (stale).

    Sequence numbers wrap from MAX_SEQ to 0, so "ahead" is measured round the
    circle: a number up to half the circle ahead is new (the distance is the
    count of messages lost in between, 0 for the one expected); anything else
    is one already seen, or older: a replay or a duplicate, never news.
    """
    distance = (seq - expected) % (MAX_SEQ + 1)
    if distance < (MAX_SEQ + 1) // 2:
        return distance
    return None


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
    """Cuts incoming bytes into lines, never holding more than MAX_LINE + 1 bytes.

    ``feed(data)`` returns the complete lines (without the newline or a
    carriage return just before it; blank lines are skipped). A line may be
    MAX_LINE bytes long whichever ending it has, ``\n`` or ``\r\n``: the
    buffer keeps room for the ``\r``. Anything longer is counted as
    ``too_long`` the moment it passes the limit, its bytes are dropped at once
    and the rest of it is skipped up to its newline, so a stream that never
    sends a newline costs no memory. After ``reset()`` (a reconnect) whatever
    was buffered is dropped, and so is the first line if it does not start
    with ``{``: it is the tail of a line sent before we were listening. Both
    count as ``partial``.
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

    def _too_long(self):
        self.rejects.count("too_long", "line over %d bytes" % self.limit)
        self._buf = bytearray()

    def feed(self, data):
        lines = []
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            if end < 0:
                chunk = data[start:]
                if not self._skipping:
                    size = len(self._buf) + len(chunk)
                    # limit + 1 bytes fit only if the last is the \r of a \r\n still to come
                    if size > self.limit + 1 or (size == self.limit + 1 and chunk[-1] != 13):
                        self._too_long()
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
            size = len(self._buf) + len(chunk)
            last = chunk[-1] if chunk else (self._buf[-1] if self._buf else 0)
            if size > self.limit + 1 or (size == self.limit + 1 and last != 13):
                self._too_long()
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
