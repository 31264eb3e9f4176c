"""SerialTray against a scripted tray on a real pseudo-terminal: handshake, events, bad lines, cable pulls."""

from __future__ import annotations

import json
import re
import os
import select
import threading
import time
import tty
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware.tray import protocol
from hardware.backends import serial as serial_backend
from hardware.backends.serial import SerialTray, find_tray_port
from hardware.config import TrayConfig
from hardware.events import (
    Collapse,
    DieAdded,
    DieRemoved,
    DistanceSample,
    HardwareFault,
    HeatHeight,
    LinkDown,
    LinkUp,
    ThrowImpact,
    ThrowSettled,
    Zone,
)


class ScriptedTray:
    """The tray end of a pty, driven line by line by the test."""

    def __init__(self, link=None, version=1, boot=None):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.device = os.ttyname(self.slave)
        self.seq = 0
        self.version = version  # 2: every line with its CRC, and the hello names max_v and boot
        self.boot = boot if boot is not None else 1234
        self._pending = b""
        if link is not None:
            tmp = link.with_name(link.name + ".new")
            tmp.unlink(missing_ok=True)
            os.symlink(self.device, tmp)
            os.replace(tmp, link)

    def line(self, kind, **fields):
        """The bytes of one message (without sending it); the sequence number moves on."""
        obj = {"v": self.version, "seq": self.seq, "t": 1000 + self.seq, "type": kind}
        obj.update(fields)
        self.seq = 0 if self.seq >= protocol.MAX_SEQ else self.seq + 1
        return protocol.encode(obj) if self.version >= 2 else json.dumps(obj).encode() + b"\n"

    def send(self, kind, **fields):
        data = self.line(kind, **fields)
        self.raw(data)
        return data

    def hello(self, command_id=0, **overrides):
        fields = dict(fw="9.9.9", sensor="ok", budget_ms=33, settle_ms=600, raw=False, calibrated=True,
                      empty_mm=320, die_mm=16.0, id=command_id)
        if self.version >= 2:
            fields.update(max_v=self.version, boot=self.boot)
        fields.update(overrides)
        self.send("hello", **fields)

    def raw(self, data):
        os.write(self.master, data)

    def commands(self, timeout=2.0, want=None):
        """Commands the Pi sent, until ``want`` (a cmd name) has come or the time is up."""
        got = []
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.02)
            if ready:
                try:
                    self._pending += os.read(self.master, 4096)
                except OSError:
                    break
            while b"\n" in self._pending:
                line, self._pending = self._pending.split(b"\n", 1)
                if line.strip():
                    command, code, detail = protocol.decode_command(line)
                    assert code is None, detail  # the Pi only ever sends valid commands
                    got.append(command)
            if want and any(c["cmd"] == want for c in got):
                break
        return got

    def answer_hello(self, **overrides):
        hellos = [c for c in self.commands(want="hello") if c["cmd"] == "hello"]
        assert hellos, "the Pi never said hello"
        self.hello(hellos[-1]["id"], **overrides)

    def close(self):
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


class Events:
    def __init__(self, port):
        self.items = []
        self.cond = threading.Condition()
        port.subscribe(self.add)

    def add(self, event):
        with self.cond:
            self.items.append(event)
            self.cond.notify_all()

    def wait_for(self, kind, timeout=3.0, where=lambda e: True, count=1):
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                found = [e for e in self.items if isinstance(e, kind) and where(e)]
                if len(found) >= count:
                    return found[count - 1]
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no {kind.__name__} within {timeout} s; got {self.items}")
                self.cond.wait(left)

    def of(self, kind):
        return [e for e in self.items if isinstance(e, kind)]


@pytest.fixture
def link(tmp_path):
    return tmp_path / "tray"


def _shake_hands(link, **tray_kw):
    """A SerialTray that has shaken hands with a scripted tray; closes both afterwards."""
    tray = ScriptedTray(link, **tray_kw)
    port = SerialTray(TrayConfig(), port=str(link), retry_s=0.05, silence_s=1.0, hello_every_s=0.2)
    events = Events(port)
    tray.answer_hello()
    events.wait_for(LinkUp)
    yield tray, port, events
    port.close()
    tray.close()


@pytest.fixture
def connected(link):
    """A SerialTray that has shaken hands with a scripted (version 1) tray."""
    yield from _shake_hands(link)


def settle_lines(port, tray, events):
    """Send a marker and wait for it, so everything before it has been read."""
    marker = 60 - len(events.of(HeatHeight)) % 50
    tray.send("height", dice=marker)
    events.wait_for(HeatHeight, where=lambda e: e.dice == marker, count=1)


# -- handshake -------------------------------------------------------------------
def test_the_link_is_up_only_once_the_tray_has_said_hello(link):
    tray = ScriptedTray(link)
    port = SerialTray(TrayConfig(), port=str(link), retry_s=0.05, hello_every_s=0.2)
    events = Events(port)
    try:
        tray.send("height", dice=4)  # stale: written before anyone listened
        tray.commands(want="hello")
        time.sleep(0.1)
        assert not port.connected and events.items == []
        tray.answer_hello(dice=3)
        up = events.wait_for(LinkUp)
        assert "9.9.9" in up.detail and up.link == "serial"
        assert events.wait_for(HeatHeight).dice == 3 and port.heat == 3
        assert port.connected
    finally:
        port.close()
        tray.close()


def test_messages_before_the_hello_are_ignored(link):
    tray = ScriptedTray(link)
    port = SerialTray(TrayConfig(), port=str(link), retry_s=0.05, hello_every_s=0.2)
    events = Events(port)
    try:
        tray.commands(want="hello")
        tray.send("collapse", fell=3, standing=0)  # from a session nobody heard: not news
        tray.answer_hello()
        events.wait_for(LinkUp)
        settle_lines(port, tray, events)
        assert events.of(Collapse) == []
    finally:
        port.close()
        tray.close()


def test_the_tray_is_brought_in_line_with_the_configuration(link):
    tray = ScriptedTray(link)
    port = SerialTray(TrayConfig(timing_budget_ms=20, settle_ms=900), port=str(link), retry_s=0.05)
    try:
        tray.answer_hello(budget_ms=33, settle_ms=600)
        sent = tray.commands(timeout=1.0)
        assert {"budget": 20, "settle": 900}.items() <= {c["cmd"]: c.get("ms") for c in sent}.items()
    finally:
        port.close()
        tray.close()


# -- messages become events --------------------------------------------------------
def test_every_tray_message_becomes_its_event(connected):
    tray, port, events = connected
    tray.send("height", dice=4)
    tray.send("added", dice=5)
    tray.send("removed", dice=4)
    tray.send("impact", strength=0.7, zone="touching", face=9)
    tray.send("collapse", fell=3, standing=1)
    tray.send("settled", quiet_ms=600)
    tray.send("sample", mm=None)
    tray.send("sample", mm=287)
    tray.send("error", code="i2c_fault", detail="read failed")
    events.wait_for(HardwareFault)
    kinds = [type(e) for e in events.items if not isinstance(e, LinkUp)]
    assert kinds == [HeatHeight, DieAdded, DieRemoved, ThrowImpact, Collapse, ThrowSettled, DistanceSample,
                     DistanceSample, HardwareFault]
    impact = events.of(ThrowImpact)[0]
    assert (impact.strength, impact.zone, impact.face, impact.piezo) == (0.7, Zone.TOUCHING, 9, None)
    collapse = events.of(Collapse)[0]
    assert (collapse.fell, collapse.standing) == (3, 1)
    assert [s.mm for s in events.of(DistanceSample)] == [None, 287]
    assert "i2c_fault" in events.of(HardwareFault)[0].message
    assert port.heat == 1
    times = [e.t for e in events.items]
    assert times == sorted(times) and abs(times[-1] - time.monotonic()) < 2


def test_an_impact_names_the_disc_that_felt_it_most(connected):
    """Firmware 0.3.1+ says which piezo disc read the strongest knock; the bench judges each disc by it."""
    tray, port, events = connected
    tray.send("impact", strength=0.5, piezo=2)
    events.wait_for(ThrowImpact)
    assert events.of(ThrowImpact)[0].piezo == 2


def test_a_tray_without_its_sensor_is_reported(link):
    tray = ScriptedTray(link)
    port = SerialTray(TrayConfig(), port=str(link), retry_s=0.05)
    events = Events(port)
    try:
        tray.answer_hello(sensor="missing")
        events.wait_for(LinkUp)
        assert "missing" in events.wait_for(HardwareFault).message
    finally:
        port.close()
        tray.close()


# -- bad lines ----------------------------------------------------------------------
def test_garbage_and_broken_lines_are_counted_by_reason_and_reading_goes_on(connected):
    tray, port, events = connected
    tray.raw(b"\x00\xff\xfe garbage\n")
    tray.raw(b"x" * 3000 + b"\n")
    tray.raw(b'{"v":1,"seq":9,"t":1,"type":"height"}\n')  # no dice
    tray.raw(b'{"v":1,"seq":9,"t":1,"type":"height","dice":99}\n')  # too tall
    tray.raw(b'{"v":1,"seq":9,"t":1,"type":"warp","dice":2}\n')
    tray.raw(b'["not", "an", "object"]\n')
    tray.raw(b'{"v":1,"seq":9,"t":1,"type":"coll')  # cut short...
    tray.raw(b"\n")
    tray.send("collapse", fell=2, standing=3)
    assert events.wait_for(Collapse).fell == 2
    assert port.rejects.by_code == {
        "not_utf8": 1, "too_long": 1, "missing_field": 1, "bad_value": 1, "unknown_type": 1, "not_object": 1,
        "not_json": 1,
    }
    assert port.rejected == 7 and port.stats()["rejected"]["too_long"] == 1
    assert port.connected


def test_a_tray_speaking_another_protocol_version_is_reported_once(connected):
    tray, port, events = connected
    for _ in range(3):
        tray.raw(b'{"v":3,"seq":1,"t":1,"type":"height","dice":2}\n')  # 3: a version this Pi does not speak
    settle_lines(port, tray, events)
    faults = [f for f in events.of(HardwareFault) if "does not match" in f.message]
    assert len(faults) == 1 and "3" in faults[0].message
    assert port.rejects.by_code == {"version": 3}


def test_gaps_in_sequence_numbers_are_counted(connected):
    tray, port, events = connected
    tray.seq += 5  # five messages lost on the way
    tray.send("height", dice=2)
    tray.send("height", dice=3)
    events.wait_for(HeatHeight, where=lambda e: e.dice == 3)
    assert port.gaps == 5


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(chunks=st.lists(st.binary(max_size=200), min_size=1, max_size=5))
def test_random_bytes_on_the_wire_never_stop_the_reader(connected, chunks):
    tray, port, events = connected
    for chunk in chunks:
        tray.raw(chunk)
    tray.raw(b"\n")
    settle_lines(port, tray, events)
    assert port.connected


# -- the link drops and comes back --------------------------------------------------
def test_a_pulled_cable_gives_link_down_then_up_again_without_a_restart(connected, link):
    tray, port, events = connected
    tray.close()  # the cable is pulled
    down = events.wait_for(LinkDown)
    assert "tray" in down.reason or "Errno" in down.reason or "Input/output" in down.reason
    assert not port.connected
    again = ScriptedTray(link)  # plugged back in: a new device behind the same link
    try:
        again.answer_hello(dice=2)
        events.wait_for(LinkUp, count=2)
        again.send("collapse", fell=2, standing=0)
        assert events.wait_for(Collapse).standing == 0
        assert port.heat == 0 and port.link_downs == 1
        assert events.of(HardwareFault) == []  # the LinkDown said it all; the retries stayed quiet
    finally:
        again.close()


def test_a_partial_line_after_reconnecting_is_discarded(connected, link):
    tray, port, events = connected
    tray.raw(b'{"v":1,"seq":50,"t":1,"type":"collapse","fe')  # cut by the cable pull
    time.sleep(0.1)
    tray.close()
    events.wait_for(LinkDown)
    again = ScriptedTray(link)
    try:
        again.raw(b'll":1,"standing":2}\n')  # the tail, sent before the Pi's hello
        again.answer_hello()
        events.wait_for(LinkUp, count=2)
        settle_lines(port, again, events)
        assert events.of(Collapse) == []
        assert port.rejects.by_code.get("partial", 0) >= 1
    finally:
        again.close()


def test_a_silent_tray_is_declared_down_and_found_again(connected):
    tray, port, events = connected
    down = events.wait_for(LinkDown, timeout=3.0)  # the scripted tray sends no heartbeat
    assert "no line" in down.reason
    tray.answer_hello()  # it wakes up and answers the Pi's next hello
    events.wait_for(LinkUp, count=2)


def test_a_missing_port_is_retried_until_it_appears(link):
    port = SerialTray(TrayConfig(), port=str(link), retry_s=0.05)
    events = Events(port)
    try:
        time.sleep(0.3)
        assert not port.connected and events.of(LinkDown) == []  # never up, so never down either
        [fault] = events.of(HardwareFault)  # said once, not on every retry
        assert str(link) in fault.message and "still trying" in fault.message
        tray = ScriptedTray(link)
        try:
            tray.answer_hello()
            events.wait_for(LinkUp)
        finally:
            tray.close()
    finally:
        port.close()


# -- commands ------------------------------------------------------------------------
def _answer(tray, cmd, **fields):
    def run():
        for command in tray.commands(want=cmd):
            if command["cmd"] == cmd:
                tray.send("ack", id=command["id"], cmd=cmd, **fields)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_command_waits_for_its_ack(connected):
    tray, port, events = connected
    _answer(tray, "budget", ok=True)
    port.set_timing_budget(20)


def test_a_refused_command_raises_with_the_trays_reason(connected):
    tray, port, events = connected
    _answer(tray, "budget", ok=False, reason="sensor did not accept it")
    with pytest.raises(RuntimeError, match="sensor did not accept it"):
        port.set_timing_budget(20)


def test_an_unanswered_command_times_out(connected):
    tray, port, events = connected
    with pytest.raises(TimeoutError, match="ping"):
        port.request("ping", timeout=0.3)


def test_commands_need_a_link():
    port = SerialTray(TrayConfig(), port="/nonexistent/tray", retry_s=5)
    try:
        with pytest.raises(ConnectionError):
            port.send("ping")
    finally:
        port.close()


# -- finding the tray on USB ----------------------------------------------------------
def _port(device, vid, interface=None):
    return SimpleNamespace(device=device, vid=vid, interface=interface)


@pytest.mark.parametrize(
    "ports,expected",
    [
        ([_port("/dev/ttyACM0", 0x239A, "CircuitPython CDC control"), _port("/dev/ttyACM1", 0x239A, "CircuitPython CDC2 data")],
         "/dev/ttyACM1"),
        ([_port("/dev/ttyACM3", 0x2E8A), _port("/dev/ttyACM2", 0x2E8A)], "/dev/ttyACM3"),
        ([_port("/dev/ttyACM0", 0x239A, "CircuitPython CDC control")], None),
        ([_port("/dev/ttyUSB0", 0x0403, "FT232R data")], None),
    ],
)
def test_the_trays_data_port_is_found_by_its_usb_ids(monkeypatch, ports, expected):
    monkeypatch.setattr(serial_backend.list_ports, "comports", lambda: ports)
    assert find_tray_port() == expected


def test_auto_finds_the_tray_on_usb_and_finds_it_again_under_a_new_name(monkeypatch):
    first = ScriptedTray()
    plugged = [first]
    monkeypatch.setattr(
        serial_backend.list_ports, "comports",
        lambda: [_port(t.device, 0x239A, "CircuitPython CDC2 data") for t in plugged],
    )
    port = SerialTray(TrayConfig(serial_port="auto"), retry_s=0.05)
    events = Events(port)
    try:
        first.answer_hello()
        assert first.device in events.wait_for(LinkUp).detail
        plugged.clear()
        first.close()
        events.wait_for(LinkDown)
        second = ScriptedTray()  # the board comes back as another device
        plugged.append(second)
        try:
            second.answer_hello()
            assert second.device in events.wait_for(LinkUp, count=2).detail
        finally:
            second.close()
    finally:
        port.close()


# -- a link that trusts nothing (issue 19, defect 10) ----------------------------------
def _keep_sending(tray, data, stop, every=0.05):
    def run():
        while not stop.is_set():
            try:
                tray.raw(data)
            except OSError:
                return
            stop.wait(every)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize(
    "noise",
    [b"\x00\xffgarbage\n", b'{"v":1,"seq":1,"t":1,"type":"height"}\n', b"no newline ever "],
    ids=["garbage lines", "invalid frames", "bytes without a newline"],
)
def test_a_tray_that_sends_nothing_valid_is_declared_down(connected, noise):
    tray, port, events = connected  # silence_s is 1 s here
    stop = threading.Event()
    _keep_sending(tray, noise, stop)
    try:
        down = events.wait_for(LinkDown, timeout=3.0)
    finally:
        stop.set()
    assert "no valid line" in down.reason and "garbage" in down.reason
    assert not port.connected
    assert len(port._reader._buf) <= protocol.MAX_LINE + 1  # an endless line is never kept


def test_bytes_without_a_newline_are_dropped_and_counted_once_over_the_limit(connected):
    tray, port, events = connected
    tray.raw(b"z" * (protocol.MAX_LINE * 4))
    tray.send("height", dice=4)  # its line starts inside the long one, so it goes with it
    tray.send("height", dice=5)
    events.wait_for(HeatHeight, where=lambda e: e.dice == 5)
    assert port.rejects.by_code == {"too_long": 1}
    assert [e.dice for e in events.of(HeatHeight)] == [5]


def test_a_replayed_collapse_is_not_shown_twice(connected):
    tray, port, events = connected
    tray.send("height", dice=6)
    fall = tray.send("collapse", fell=3, standing=3)
    tray.raw(fall)  # the same line again
    tray.raw(fall)
    settle_lines(port, tray, events)
    assert [(c.fell, c.standing) for c in events.of(Collapse)] == [(3, 3)]
    assert port.rejects.by_code == {"stale": 2}
    assert port.gaps == 0


def test_an_older_sequence_number_is_stale_and_its_message_ignored(connected):
    tray, port, events = connected
    old = tray.line("collapse", fell=2, standing=1)  # built first, so it has the lower number...
    tray.send("height", dice=5)
    tray.raw(old)  # ...and arrives after a newer one
    settle_lines(port, tray, events)
    assert events.of(Collapse) == [] and port.heat != 1
    assert port.rejects.by_code == {"stale": 1}


def test_sequence_numbers_wrap_without_a_false_replay(link):
    tray = ScriptedTray(link)
    tray.seq = protocol.MAX_SEQ - 2  # a tray that has been up a long time
    port = SerialTray(TrayConfig(), port=str(link), retry_s=0.05, hello_every_s=0.2)
    events = Events(port)
    try:
        tray.answer_hello()
        events.wait_for(LinkUp)
        tray.send("height", dice=4)
        last = tray.send("height", dice=5)  # MAX_SEQ
        assert b'"seq": %d' % protocol.MAX_SEQ in last
        wrapped = tray.send("collapse", fell=1, standing=4)  # seq 0: taken, not a replay
        tray.send("height", dice=6)  # seq 1
        tray.raw(wrapped)  # seq 0 again: a replay, after the wrap
        tray.raw(last)  # from before the wrap
        settle_lines(port, tray, events)
        assert [c.fell for c in events.of(Collapse)] == [1]
        assert port.rejects.by_code == {"stale": 2} and port.gaps == 0
    finally:
        port.close()
        tray.close()


def test_a_tray_that_restarts_starts_its_count_again_with_a_new_hello(connected):
    tray, port, events = connected
    for dice in (3, 4, 5):
        tray.send("height", dice=dice)
    events.wait_for(HeatHeight, where=lambda e: e.dice == 5)
    tray.seq = 0  # rebooted: its count and its clock start again
    tray.hello(command_id=None, dice=2)
    tray.send("collapse", fell=1, standing=1)
    assert events.wait_for(Collapse).standing == 1
    assert port.heat == 1 and port.rejects.by_code == {}


def test_a_replayed_hello_does_not_rewind_the_tray(connected):
    tray, port, events = connected
    replay = tray.line("hello", fw="9.9.9", sensor="ok", budget_ms=33, settle_ms=600, raw=False, calibrated=True,
                       empty_mm=320, die_mm=16.0, dice=7)
    tray.raw(replay)
    tray.send("collapse", fell=3, standing=4)
    tray.raw(replay)  # the hello again, from the same boot: its number is behind
    settle_lines(port, tray, events)
    assert [e.dice for e in events.of(HeatHeight)][:1] == [7]
    assert port.heat != 7
    assert port.rejects.by_code == {"stale": 1}


def _padded(tray, kind, size, ending, **fields):
    """One valid message of exactly ``size`` bytes before its line ending (an unknown field pads it)."""
    fields["pad"] = ""
    bare = len(tray.line(kind, **fields)) - 1
    tray.seq -= 1
    fields["pad"] = "p" * (size - bare)
    data = tray.line(kind, **fields)[:-1]
    assert len(data) == size
    return data + ending


@pytest.mark.parametrize("ending", [b"\n", b"\r\n"], ids=["LF", "CRLF"])
def test_a_frame_of_exactly_the_limit_is_taken_with_either_line_ending(connected, ending):
    tray, port, events = connected
    tray.raw(_padded(tray, "height", protocol.MAX_LINE, ending, dice=9))
    assert events.wait_for(HeatHeight, where=lambda e: e.dice == 9)
    tray.raw(_padded(tray, "height", protocol.MAX_LINE + 1, ending, dice=10))
    settle_lines(port, tray, events)
    assert port.rejects.by_code == {"too_long": 1}
    assert 10 not in [e.dice for e in events.of(HeatHeight)]


# -- protocol version 2: negotiated in the hello, every line with a CRC ------------------------
@pytest.fixture
def connected_v2(link):
    yield from _shake_hands(link, version=2)


def test_the_pi_offers_version_2_and_a_version_1_tray_keeps_version_1(connected):
    tray, port, events = connected
    assert port.version == 1 and port.stats()["protocol"] == 1
    _answer(tray, "budget", ok=True)
    port.set_timing_budget(20)  # the old tray takes it and answers
    port.send("ping")
    [ping] = [c for c in tray.commands(want="ping") if c["cmd"] == "ping"]
    assert ping["v"] == 1


def test_the_hello_offers_version_2_in_a_line_a_version_1_tray_can_read(link):
    tray = ScriptedTray(link)
    port = SerialTray(TrayConfig(), port=str(link), retry_s=0.05, hello_every_s=0.2)
    try:
        raw = b""
        end = time.monotonic() + 2
        while b"hello" not in raw.partition(b"\n{")[2] and time.monotonic() < end:
            if select.select([tray.master], [], [], 0.05)[0]:
                raw += os.read(tray.master, 4096)
        hello = [json.loads(x) for x in raw.split(b"\n") if x.strip()][0]
        assert hello["v"] == 1 and hello["cmd"] == "hello" and hello["max_v"] == 2
    finally:
        port.close()
        tray.close()


def test_a_version_2_tray_gets_commands_with_a_crc(connected_v2):
    tray, port, events = connected_v2
    assert port.version == 2
    port.send("ping")
    raw = b""
    end = time.monotonic() + 2
    while b"ping" not in raw and time.monotonic() < end:
        if select.select([tray.master], [], [], 0.05)[0]:
            raw += os.read(tray.master, 4096)
    ping = [x for x in raw.split(b"\n") if b"ping" in x][0]
    assert ping.startswith(b'{"v":2,') and re.fullmatch(rb".*\}\*[0-9A-F]{4}", ping)
    assert protocol.decode_command(ping)[0]["cmd"] == "ping"


def test_a_damaged_line_fails_its_crc_and_is_not_shown(connected_v2):
    tray, port, events = connected_v2
    good = tray.line("collapse", fell=3, standing=2)
    damaged = good.replace(b'"fell":3', b'"fell":5')  # still valid JSON: only the CRC can tell
    tray.raw(damaged)
    settle_lines(port, tray, events)
    assert events.of(Collapse) == []
    assert port.rejects.by_code == {"crc": 1}


def test_after_version_2_is_agreed_a_line_without_a_crc_is_refused(connected_v2):
    tray, port, events = connected_v2
    tray.version = 1
    tray.send("collapse", fell=2, standing=1)
    tray.version = 2
    settle_lines(port, tray, events)
    assert events.of(Collapse) == []
    assert port.rejects.by_code == {"version": 1}


def test_a_version_2_tray_that_restarts_is_known_by_its_new_boot_id(connected_v2):
    tray, port, events = connected_v2
    for dice in (3, 4, 5):
        tray.send("height", dice=dice)
    tray.seq, tray.boot = 0, 999  # restarted: a new boot id, its count from 0 (its clock too)
    tray.hello(command_id=None, dice=2)
    tray.send("collapse", fell=2, standing=0)
    assert events.wait_for(Collapse).standing == 0 and port.rejects.by_code == {}


def test_a_replayed_hello_from_the_same_boot_is_stale_even_its_first(link):
    tray = ScriptedTray(link, version=2)
    port = SerialTray(TrayConfig(), port=str(link), retry_s=0.05, hello_every_s=0.2)
    events = Events(port)
    try:
        tray.commands(want="hello")
        boot_hello = tray.line("hello", fw="9.9.9", sensor="ok", budget_ms=33, settle_ms=600, raw=False,
                               calibrated=True, empty_mm=320, die_mm=16.0, dice=7, max_v=2, boot=tray.boot)
        tray.raw(boot_hello)  # seq 0, straight after starting
        events.wait_for(LinkUp)
        tray.send("collapse", fell=3, standing=4)
        tray.raw(boot_hello)  # a version 1 Pi could take this for a restart; the boot id says it is not
        settle_lines(port, tray, events)
        assert port.heat != 7 and [e.dice for e in events.of(HeatHeight)].count(7) == 1
        assert port.rejects.by_code == {"stale": 1}
    finally:
        port.close()
        tray.close()
