"""End to end: simulated table -> firmware logic -> pseudo-terminal -> SerialTray -> events."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hardware.backends.serial import SerialTray
from hardware.config import Config
from hardware.events import Collapse, DistanceSample, HeatHeight, LinkDown, LinkUp
from hardware.virtual_tray import VirtualTray, main

from .test_serial import Events

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def table(tmp_path):
    """A virtual tray with six dice up and a SerialTray connected to it."""
    vt = VirtualTray(Config(), seed=4, link=tmp_path / "tray", start_dice=6).start()
    port = SerialTray(Config().tray, port=vt.path, retry_s=0.05)
    events = Events(port)
    events.wait_for(LinkUp)
    events.wait_for(HeatHeight, where=lambda e: e.dice == 6)
    yield vt, port, events
    port.close()
    vt.close()


def test_a_simulated_collapse_reaches_the_pi_as_a_collapse_event(table):
    vt, port, events = table
    vt.topple(4)
    collapse = events.wait_for(Collapse)
    truth = [r for r, _ in vt.shown if r.kind == "collapse"][-1]
    assert (collapse.fell, collapse.standing) == (truth.fell, truth.standing) == (4, 2)
    assert events.wait_for(HeatHeight, where=lambda e: e.dice == 2) and port.heat == 2


def test_pulling_the_link_and_restoring_it_recovers_without_a_restart(table):
    vt, port, events = table
    vt.unplug()
    events.wait_for(LinkDown)
    assert not port.connected
    vt.topple(1)  # the stack falls while the cable is out...
    while not vt.idle():
        time.sleep(0.02)
    vt.plug()
    events.wait_for(LinkUp, count=2)
    # ...and the hello on reconnecting brings the Pi up to date.
    events.wait_for(HeatHeight, where=lambda e: e.dice == 5, timeout=5)
    vt.topple(2)
    assert events.wait_for(Collapse).standing == 3
    assert [c.fell for c in events.of(Collapse)] == [2]  # the fall during the outage is not replayed as news
    assert port.link_downs == 1
    assert port.gaps == 0  # nothing the tray sent while connected was lost


def test_commands_reach_the_firmware_over_the_pty(table):
    vt, port, events = table
    assert port.ping() < 0.5
    port.set_timing_budget(20)
    assert vt.sim.sample_period_s == pytest.approx(0.020)
    port.set_raw(True)
    events.wait_for(DistanceSample, count=5)
    port.set_raw(False)
    time.sleep(0.15)
    streamed = len(events.of(DistanceSample))
    time.sleep(0.3)
    assert len(events.of(DistanceSample)) == streamed


def test_garbage_from_the_tray_is_counted_and_the_stream_goes_on(table):
    vt, port, events = table
    vt.inject(b"\x07\x00junk\n{\"v\":1}\n")
    vt.topple(1)
    events.wait_for(Collapse)
    assert port.rejects.by_code == {"not_json": 1, "missing_field": 1}


def test_a_reboot_drops_the_link_and_brings_it_back(table):
    vt, port, events = table
    port.reboot()
    events.wait_for(LinkDown)
    events.wait_for(LinkUp, count=2)
    assert vt.reboots == 1 and port.hello["seq"] < 5  # the firmware started over


def test_calibration_over_the_link(tmp_path):
    vt = VirtualTray(Config(), seed=8, link=tmp_path / "tray", start_dice=0, pace=0.25).start()
    port = SerialTray(Config().tray, port=vt.path, retry_s=0.05)
    try:
        Events(port).wait_for(LinkUp)
        empty = port.calibrate("empty")
        assert empty["empty_mm"] == pytest.approx(320, abs=3)
        for _ in range(3):
            vt.add_die()
        while not vt.idle():
            time.sleep(0.02)
        result = port.calibrate("stack", dice=3)
        assert result["die_mm"] == pytest.approx(16.0, abs=1.0)
        assert port.request("hello")["calibrated"] is True
    finally:
        port.close()
        vt.close()


def test_the_command_refuses_to_run_without_virtual(capsys):
    assert main([]) == 2
    assert "--virtual" in capsys.readouterr().err


def test_table_noir_tray_virtual_prints_a_path_the_serial_tray_can_use(tmp_path):
    link = tmp_path / "cli-tray"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from kiosk.cli import main; sys.exit(main(sys.argv[1:]))",
         "tray", "--virtual", "--link", str(link), "--dice", "4"],
        stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, env=env, cwd=ROOT,
    )
    try:
        first = proc.stdout.readline()
        assert first.startswith("virtual tray on /dev/pts/"), first
        device = first.split()[3]
        port = SerialTray(Config().tray, port=device, retry_s=0.05)
        try:
            events = Events(port)
            events.wait_for(LinkUp)
            assert events.wait_for(HeatHeight).dice == 4
        finally:
            port.close()
    finally:
        proc.terminate()
        proc.wait(timeout=5)
        proc.stdout.close()


def test_keys_typed_at_the_virtual_tray_drive_the_table(tmp_path, capsys):
    from hardware.virtual_tray import _command

    vt = VirtualTray(Config(), seed=1, link=tmp_path / "keys", start_dice=3)
    vt.plug()
    try:
        assert _command(vt, "a\n") and vt.sim.planned_dice == 4
        assert _command(vt, "r") and vt.sim.planned_dice == 3
        assert _command(vt, "c 2") and vt.sim.planned_dice == 1
        assert _command(vt, "c 5")  # more dice than stand: refused, not a crash
        assert "not possible" in capsys.readouterr().out
        assert _command(vt, "u") and not vt.plugged
        assert _command(vt, "p") and vt.plugged and os.readlink(tmp_path / "keys") == vt.device
        assert _command(vt, "q") is False
    finally:
        vt.close()


# -- protocol versions end to end (issue 19, defect 10) ------------------------------
def _fall_reaches_the_pi(vt, port, events):
    events.wait_for(LinkUp)
    events.wait_for(HeatHeight, where=lambda e: e.dice == 5)
    vt.topple(2)
    assert events.wait_for(Collapse).standing == 3
    assert port.rejects.by_code == {} and port.gaps == 0


@pytest.mark.parametrize(
    "tray_speaks,pi_speaks,agreed",
    [(2, 2, 2), (1, 2, 1), (2, 1, 1)],
    ids=["new tray, new Pi", "old tray, new Pi", "new tray, old Pi"],
)
def test_trays_and_pis_of_either_version_agree_and_work(tmp_path, tray_speaks, pi_speaks, agreed):
    vt = VirtualTray(Config(), seed=5, link=tmp_path / "tray", start_dice=5, max_version=tray_speaks).start()
    port = SerialTray(Config().tray, port=vt.path, retry_s=0.05, max_version=pi_speaks)
    events = Events(port)
    try:
        _fall_reaches_the_pi(vt, port, events)
        deadline = time.monotonic() + 2
        while port.version != agreed and time.monotonic() < deadline:
            time.sleep(0.02)
        assert port.version == agreed and vt.app.sequencer.version == agreed
        assert port.ping() < 0.5  # commands in the agreed version get their answer
        assert port.rejects.by_code == {} and vt.app.rejects.total == 0
    finally:
        port.close()
        vt.close()


def test_a_virtual_tray_sending_only_garbage_is_declared_down(table):
    vt, port, events = table
    vt._stop.set()  # the firmware loop hangs...
    vt._thread.join(timeout=2)
    stop = time.monotonic() + 5
    while not events.of(LinkDown) and time.monotonic() < stop:
        vt.inject(b"\x00\xff noise, never a valid frame\n")  # ...and the line is full of noise
        time.sleep(0.05)
    down = events.wait_for(LinkDown, timeout=0.5)
    assert "no valid line" in down.reason


def test_the_weighing_calibration_sent_from_the_pi_is_kept_by_the_tray_across_a_reboot(table):
    vt, port, events = table
    zero, per_die, spread = vt.weighing
    # A calibration learnt from dice twice as heavy: the six dice standing now weigh three of them.
    port.weigh_calibrate(zero, 2 * per_die, spread)
    events.wait_for(HeatHeight, where=lambda e: e.dice == 3, timeout=5)
    assert port.heat == 3
    port.reboot()
    events.wait_for(LinkDown)
    events.wait_for(LinkUp, count=2)
    assert vt.reboots == 1 and port.hello["weighed"] is True
    # The firmware started over with the calibration it was sent, not the one it was built with.
    assert vt.weighing == (zero, pytest.approx(2 * per_die), pytest.approx(spread))
    vt.topple(2)  # four dice left: two of the heavy ones
    collapse = events.wait_for(Collapse, timeout=5)
    assert (collapse.fell, collapse.standing) == (1, 2) and port.heat == 2


def test_a_re_tare_is_refused_while_dice_stand_and_taken_when_the_plinth_is_empty(table):
    vt, port, events = table
    with pytest.raises(RuntimeError, match="refused 'tare'"):
        port.tare()
    vt.topple(6)
    while not vt.idle():
        time.sleep(0.02)
    port.tare()
