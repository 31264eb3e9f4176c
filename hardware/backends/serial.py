"""The tray over USB serial: a Tray port that reads the tray's protocol with pyserial.

``SerialTray`` opens the tray's data port (a real RP2040 on /dev/ttyACM*, or
the virtual tray's pseudo-terminal), asks it to say hello, and turns each
message into a hardware event (see ``MESSAGE_EVENTS``). One background
thread does all the reading. When the cable is pulled or the tray falls
silent, it emits ``LinkDown``, keeps trying the port every half second, and
emits ``LinkUp`` again once the tray has said hello: nobody has to restart
anything. A tray that is not there at start-up is reported once as a
``HardwareFault`` ("no tray yet: ..."), and looked for until it appears.

Lines that break the protocol (garbage, oversized, wrong version, a bad
CRC, missing or out-of-range fields) never raise here: they are counted in
``rejects`` by reason. A wrong protocol version is reported once as a
``HardwareFault``, because only a firmware update fixes it. Gaps in the
tray's sequence numbers are counted in ``gaps``; a message whose number was
already seen, or is older, is a replay: it is counted as ``stale`` and never
becomes an event a second time.

The link is down when no *valid* line has come for ``silence_s`` (three
missed heartbeats): a tray that sends only garbage, or bytes that never end
in a newline, is as good as a silent one.

The hello command offers protocol version 2 (``max_version``); a tray that
answers in version 2 gets every command with a CRC and must send every line
with one. A version 1 tray answers in version 1 and is read as before.

The protocol itself lives in ``firmware/tray/protocol.py``, the same file the
tray runs; firmware/PROTOCOL.md describes it.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

import serial
from serial.tools import list_ports

from firmware.tray import protocol

from ..config import TrayConfig
from ..events import (
    DistanceSample,
    HEAT_MESSAGES,
    WEIGHT_MESSAGES,
    HardwareEvent,
    HardwareFault,
    HeatHeight,
    LinkDown,
    LinkUp,
    ThrowImpact,
    ThrowSettled,
    TrayEvent,
    Zone,
    heat_event,
)
from ..ports import Tray

# USB vendor ids of the boards we expect: Adafruit (QT Py RP2040 and friends) and Raspberry Pi (Pico).
TRAY_VENDOR_IDS = (0x239A, 0x2E8A)
BAUDRATE = 115200  # ignored by USB CDC and ptys, but a real UART adapter would need it
EARLY_EVENTS_KEPT = 100  # events kept for the first listener, newest last


def _zone(value: str | None) -> Zone | None:
    return Zone(value) if value else None


# How each message type becomes an event; ``t`` is our own monotonic clock at arrival.
MESSAGE_EVENTS: dict[str, Callable[[dict[str, Any], float], TrayEvent]] = {
    **{kind: heat_event for kind in HEAT_MESSAGES + WEIGHT_MESSAGES},
    "impact": lambda m, t: ThrowImpact(t=t, strength=float(m["strength"]), zone=_zone(m.get("zone")), face=m.get("face"),
                                       piezo=m.get("piezo")),
    "settled": lambda m, t: ThrowSettled(t=t, zone=_zone(m.get("zone")), face=m.get("face")),
    "sample": lambda m, t: DistanceSample(mm=m["mm"], t=t, w=m.get("w")),
    "error": lambda m, t: HardwareFault(source="tray", message=f"{m['code']}: {m['detail']}", t=t),
}


def find_tray_port() -> str | None:
    """The data port of the first CircuitPython tray plugged in, or None.

    CircuitPython shows two serial ports when boot.py enables the data
    channel: the REPL console and the data port, whose USB interface is
    named "CircuitPython CDC2 data" (the console is "CDC control").
    """
    ports = [p for p in list_ports.comports() if p.vid in TRAY_VENDOR_IDS]
    for p in ports:
        name = (p.interface or "").lower()
        if "cdc2" in name or "data" in name:
            return p.device
    if len(ports) >= 2:  # interface names missing: the data port is the device's second one
        return sorted(p.device for p in ports)[1]
    return None


class _Waiter:
    def __init__(self, match: Callable[[dict[str, Any]], bool]) -> None:
        self.match = match
        self.done = threading.Event()
        self.message: dict[str, Any] | None = None


class SerialTray(Tray):
    """A Tray port on a serial link to the tray firmware (or the virtual tray).

    ``port`` overrides ``config.serial_port``; "auto" looks for the tray by its
    USB ids on every attempt, so a tray that comes back on another device
    name is still found.
    """

    def __init__(
        self,
        config: TrayConfig,
        port: str | None = None,
        *,
        retry_s: float = 0.5,
        silence_s: float = 3.0,
        hello_every_s: float = 1.0,
        max_version: int = protocol.PROTOCOL_VERSION,
    ) -> None:
        super().__init__()
        self.config = config
        self.port = port or config.serial_port
        self.retry_s = retry_s
        self.silence_s = silence_s  # no valid line for this long (3 missed heartbeats): the link is down
        self.hello_every_s = hello_every_s
        self.max_version = max_version  # the newest protocol version offered in our hello
        self.version = 1  # the version agreed with the tray on this connection
        self.rejects = protocol.Rejects()
        self.gaps = 0  # messages lost in transit, from sequence numbers
        self.received = 0  # good lines
        self.hello: dict[str, Any] | None = None  # the tray's last hello
        self.heartbeat: dict[str, Any] | None = None
        self.link_downs = 0
        self._reader = protocol.LineReader(self.rejects)
        self._heat: int | None = None
        self._up = False
        self._serial: serial.SerialBase | None = None
        self._write_lock = threading.Lock()
        self._waiters: list[_Waiter] = []
        self._waiters_lock = threading.Lock()
        self._next_id = 1
        self._expected_seq: int | None = None
        self._hello_ids: set[int] = set()  # hello commands sent this session, not yet answered
        self._boot: int | None = None  # the tray's boot id (version 2), or None
        self._last_t: int | None = None  # the tray's clock in the last message taken
        self._upgrade_asked = False  # offered a newer version to this boot of the tray already
        self._version_reported = False
        self._absent_reported = False
        self._stop = threading.Event()
        self._early: list[HardwareEvent] | None = []  # events before the first listener
        self._early_lock = threading.RLock()
        self._thread = threading.Thread(target=self._run, name="serial-tray", daemon=True)
        self._thread.start()

    # -- the Tray port ----------------------------------------------------
    def subscribe(self, listener) -> None:
        """Add a listener. The first one also receives what happened before it subscribed
        (the reading thread starts at once, so a LinkUp or a fault may come first)."""
        with self._early_lock:  # held while catching up, so later events cannot overtake
            super().subscribe(listener)
            early, self._early = self._early, None
            for event in early or ():
                listener(event)

    def emit(self, event: HardwareEvent) -> None:
        with self._early_lock:
            if self._early is not None:
                self._early.append(event)
                del self._early[:-EARLY_EVENTS_KEPT]
                return
        super().emit(event)

    @property
    def heat(self) -> int | None:
        return self._heat

    @property
    def connected(self) -> bool:
        return self._up

    @property
    def heard_ms(self) -> int | None:
        """The tray's own clock (ms since its boot) in the last line taken; None before the first.
        What the Pi has caught up with (the virtual bench's maker waits on it)."""
        return self._last_t

    @property
    def rejected(self) -> int:
        return self.rejects.total

    def close(self) -> None:
        self._stop.set()
        ser = self._serial
        if ser is not None:
            try:
                ser.cancel_read()
            except Exception:
                pass
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout=2.0)

    def stats(self) -> dict[str, Any]:
        """Counters for the hardware monitor."""
        return {
            "connected": self._up,
            "port": self.port,
            "received": self.received,
            "rejected": dict(self.rejects.by_code),
            "last_rejected": self.rejects.last,
            "gaps": self.gaps,
            "protocol": self.version,
            "link_downs": self.link_downs,
            "firmware": self.hello.get("fw") if self.hello else None,
            "tray_rejected": self.heartbeat.get("rejected") if self.heartbeat else None,
        }

    # -- commands -----------------------------------------------------------
    def send(self, cmd: str, **fields: Any) -> int:
        """Send one command; returns its id. Raises ConnectionError when the link is down."""
        command_id = self._new_id()
        self._send(cmd, command_id, fields)
        return command_id

    def _new_id(self) -> int:
        with self._write_lock:
            command_id = self._next_id
            self._next_id = 1 if self._next_id >= protocol.MAX_ID else self._next_id + 1
            return command_id

    def _send(self, cmd: str, command_id: int, fields: dict[str, Any]) -> None:
        with self._write_lock:
            ser = self._serial
            if ser is None:
                raise ConnectionError("the tray is not connected")
            try:
                ser.write(protocol.encode(protocol.command(cmd, command_id, self.version, **fields)))
            except (serial.SerialException, OSError) as err:
                raise ConnectionError(f"cannot write to the tray: {err}") from err

    def request(self, cmd: str, timeout: float = 2.0, **fields: Any) -> dict[str, Any]:
        """Send a command and wait for its ack. Raises TimeoutError, or RuntimeError if refused."""
        reply_type = "hello" if cmd == "hello" else "ack"
        command_id = self._new_id()
        waiter = self._wait_for(lambda m: m["type"] == reply_type and m.get("id") == command_id)
        try:
            self._send(cmd, command_id, fields)
            message = self._await(waiter, timeout, f"no answer to {cmd!r} within {timeout:g} s")
        finally:
            self._drop_waiter(waiter)
        if message["type"] == "ack" and not message["ok"]:
            raise RuntimeError(f"the tray refused {cmd!r}: {message.get('reason', 'no reason given')}")
        return message

    def ping(self, timeout: float = 2.0) -> float:
        """Round trip to the tray and back, in seconds."""
        start = time.monotonic()
        self.request("ping", timeout)
        return time.monotonic() - start

    def set_timing_budget(self, ms: int) -> None:
        self.request("budget", ms=ms)

    def set_settle(self, ms: int) -> None:
        self.request("settle", ms=ms)

    def set_raw(self, on: bool) -> None:
        """Switch the stream of DistanceSample events on or off."""
        self.request("raw", on=on)

    def reboot(self) -> None:
        self.request("reboot")

    def weigh_calibrate(self, zero: float, per_die: float, spread: float = 0.0) -> None:
        """Store the set's weighing calibration on the tray (``weighcal``; the bench learns it by
        weighing the set die by die). The tray counts the Heat by weight from then on and keeps it
        across power cycles. Raises RuntimeError if the tray refuses it."""
        self.request("weighcal", zero=int(round(zero)), per_die=float(per_die), spread=float(spread))

    def tare(self) -> None:
        """Take the plinth's weight now as empty (refused, with the tray's reason, unless it is empty)."""
        self.request("tare")

    def calibrate(self, step: str, dice: int | None = None, timeout: float = 10.0) -> dict[str, Any]:
        """Run one calibration step ("empty", then "stack" with ``dice``) and return its result.

        Raises RuntimeError with the tray's reason if the step fails.
        """
        waiter = self._wait_for(lambda m: m["type"] == "calibration" and m["step"] == step)
        try:
            fields = {"step": step} if dice is None else {"step": step, "dice": dice}
            self.request("calibrate", **fields)
            result = self._await(waiter, timeout, f"calibration step {step!r} did not finish within {timeout:g} s")
        finally:
            self._drop_waiter(waiter)
        if not result["ok"]:
            raise RuntimeError(f"calibration step {step!r} failed: {result.get('reason', 'no reason given')}")
        return result

    def _wait_for(self, match: Callable[[dict[str, Any]], bool]) -> _Waiter:
        waiter = _Waiter(match)
        with self._waiters_lock:
            self._waiters.append(waiter)
        return waiter

    def _drop_waiter(self, waiter: _Waiter) -> None:
        with self._waiters_lock:
            if waiter in self._waiters:
                self._waiters.remove(waiter)

    @staticmethod
    def _await(waiter: _Waiter, timeout: float, message: str) -> dict[str, Any]:
        if not waiter.done.wait(timeout) or waiter.message is None:
            raise TimeoutError(message)
        return waiter.message

    # -- the reading thread ---------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            path = find_tray_port() if self.port == "auto" else self.port
            reason = "no tray found on USB" if path is None else self._session(path)
            self._serial = None
            if self._stop.is_set():
                reason = "closed"
            if self._up:
                self._up = False
                self.link_downs += 1
                self._absent_reported = True  # LinkDown has said why; retries stay quiet
                self.emit(LinkDown(link="serial", reason=reason, t=time.monotonic()))
            elif not self._absent_reported and not self._stop.is_set():
                # Never up since start: say once why, then keep trying quietly.
                self._absent_reported = True
                self.emit(HardwareFault(source="tray", message=f"no tray yet: {reason}; still trying", t=time.monotonic()))
            self._stop.wait(self.retry_s)

    def _session(self, path: str) -> str:
        """Talk to the tray on ``path`` until the link fails; returns why it ended."""
        try:
            ser = serial.serial_for_url(path, baudrate=BAUDRATE, timeout=0.05, write_timeout=1.0)
        except (serial.SerialException, OSError, ValueError) as err:
            return f"cannot open {path}: {err}"
        self._serial = ser
        try:
            ser.reset_input_buffer()  # stale lines from before we were listening
            ser.write(b"\n")  # ends any half line the tray holds from an earlier session
            self._reader.reset()
            self._expected_seq = None
            self._hello_ids.clear()
            self._boot = self._last_t = None
            self._upgrade_asked = False
            self.version = 1  # every connection starts in version 1; the hello agrees on more
            self._version_reported = False
            synced = False  # nothing counts until the tray has said hello
            last_valid = last_hello_sent = 0.0
            bytes_since_valid = 0
            while not self._stop.is_set():
                now = time.monotonic()
                if not synced and now - last_hello_sent >= self.hello_every_s:
                    last_hello_sent = now
                    self._send_hello()
                    if last_valid == 0.0:
                        last_valid = now
                if now - last_valid > self.silence_s:
                    if bytes_since_valid:
                        return (f"no valid line from the tray on {path} for {self.silence_s:g} s "
                                f"({bytes_since_valid} bytes of garbage)")
                    return f"no line from the tray on {path} for {self.silence_s:g} s"
                data = ser.read(max(1, ser.in_waiting))
                if not data:
                    continue
                bytes_since_valid += len(data)
                for line in self._reader.feed(data):
                    synced, valid = self._line(line, path, synced)
                    if valid:  # only a frame that passed every check proves the tray is alive
                        last_valid = time.monotonic()
                        bytes_since_valid = 0
            return "closed"
        except (serial.SerialException, OSError) as err:
            return f"{path}: {err}"
        except Exception as err:  # pyserial raises TypeError and friends when a port vanishes mid-read
            return f"{path}: {type(err).__name__}: {err}"
        finally:
            try:
                ser.close()
            except Exception:
                pass

    def _send_hello(self) -> None:
        """Ask the tray to say hello, offering our newest protocol version. Always a version 1
        line, so a tray of either version understands it."""
        command_id = self._new_id()
        self._hello_ids.add(command_id)
        with self._write_lock:
            ser = self._serial
            if ser is not None:
                ser.write(protocol.encode(protocol.command("hello", command_id, 1, max_v=self.max_version,
                                                           weigh=True)))  # we know falling/mismatch

    def _reject(self, code: str, detail: str, now: float) -> None:
        self.rejects.count(code, detail)
        if code == "version" and not self._version_reported:
            self._version_reported = True
            self.emit(HardwareFault(source="tray", message=f"the tray's firmware does not match: {detail}", t=now))

    def _fresh_hello(self, message: dict[str, Any]) -> bool:
        """Whether a hello starts the count of sequence numbers afresh.

        It does when it is the first this session, when it answers a hello we
        sent and nobody answered yet, or when the tray has restarted: a new
        boot id (version 2). A version 1 tray has no boot id; its first message
        after starting is a hello numbered 0 with its clock back near 0, so
        that is what a restart looks like there (a replay of that very line
        would pass too: version 2 closes that gap). Any other hello is an
        ordinary message, and a replayed one is stale.
        """
        if self._expected_seq is None:
            return True
        if message.get("id") is not None and message["id"] in self._hello_ids:
            return True
        boot = message.get("boot")
        if boot is not None:
            return boot != self._boot
        return message["seq"] == 0 and self._last_t is not None and message["t"] < self._last_t

    def _line(self, line: bytes, path: str, synced: bool) -> tuple[bool, bool]:
        """Handle one line; returns (whether the session is synced, whether the line was valid and new)."""
        now = time.monotonic()
        message, code, detail = protocol.decode_message(line)
        if message is None:
            self._reject(code, detail, now)
            return synced, False
        kind = message["type"]
        version = message["v"]
        if version > self.max_version:
            self._reject("version", f"protocol version {version}, this side speaks up to {self.max_version}", now)
            return synced, False
        if not synced and kind != "hello":
            return False, True  # left over from before our hello; the tray's state will be re-announced
        seq = message["seq"]
        if kind == "hello" and self._fresh_hello(message):
            self._hello_ids.discard(message.get("id"))
            if message.get("boot") != self._boot:
                self._upgrade_asked = False  # a new boot of the tray: offer our version again
            self._boot = message.get("boot")
        else:
            ahead = protocol.seq_ahead(self._expected_seq, seq)
            if ahead is None:
                self.rejects.count("stale", f"seq {seq} already seen or older (expected {self._expected_seq})")
                return synced, False
            if version < self.version:
                self._reject("version", f"a version {version} {kind} after version {self.version} was agreed", now)
                return synced, False
            self.gaps += ahead
        self._expected_seq = 0 if seq >= protocol.MAX_SEQ else seq + 1
        self._last_t = message["t"]
        self.received += 1
        if kind == "hello":
            self._hello(message, path, now)
        elif kind == "heartbeat":
            self.heartbeat = message
        elif kind in ("height", "added", "removed"):
            self._heat = message["dice"]
        elif kind == "collapse":
            self._heat = message["standing"]
        make = MESSAGE_EVENTS.get(kind)
        if make is not None:
            self.emit(make(message, now))
        with self._waiters_lock:
            for waiter in self._waiters:
                if not waiter.done.is_set() and waiter.match(message):
                    waiter.message = message
                    waiter.done.set()
        return True, True

    def _hello(self, message: dict[str, Any], path: str, now: float) -> None:
        """The tray introduced itself: agree on the version, bring the link up, catch up with its state."""
        self.hello = message
        self.version = message["v"]
        wanted = min(self.max_version, message.get("max_v") or 1)
        upgrading = self.version < wanted and not self._upgrade_asked
        if upgrading:
            self._upgrade_asked = True  # once per boot of the tray: never a loop of hellos
            try:
                self._send_hello()
            except (serial.SerialException, OSError):
                pass  # the link is failing; the session will notice
        if not self._up:
            self._up = True
            self._absent_reported = False
            version = f"v{message['v']}" + (f", asking for v{wanted}" if upgrading else "")
            detail = f"{path}: firmware {message['fw']}, protocol {version}, sensor {message['sensor']}"
            self.emit(LinkUp(link="serial", detail=detail, t=now))
            if message["sensor"] != "ok":
                self.emit(HardwareFault(source="tray", message=f"distance sensor {message['sensor']}", t=now))
            self._configure(message)
        if message.get("dice") is not None and message["dice"] != self._heat:
            self._heat = message["dice"]  # the stack may have changed while we were away
            self.emit(HeatHeight(dice=self._heat, t=now))

    def _configure(self, hello: dict[str, Any]) -> None:
        """Bring the tray's settings in line with our configuration (no waiting: acks come back later)."""
        try:
            if hello["budget_ms"] != self.config.timing_budget_ms:
                self.send("budget", ms=self.config.timing_budget_ms)
            if hello["settle_ms"] != self.config.settle_ms:
                self.send("settle", ms=self.config.settle_ms)
        except ConnectionError:
            pass  # the link failed meanwhile; the next hello will try again
