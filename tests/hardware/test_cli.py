"""The hardware monitor: one line per event, a status line, a scripted sim table, a bounded run."""

from __future__ import annotations

import io
import time

import pytest

from hardware import cli
from hardware.backends.sim_pads import SimPads
from hardware.config import load_config
from hardware.events import ButtonColour, ButtonStuck, DistanceSample, LinkDown, ThrowSettled, Zone
from hardware.sim import SimTray


@pytest.fixture
def table():
    config = load_config()
    pads, tray = SimPads(6), SimTray(config, seed=3, realtime=False)
    monitor = cli.Monitor(io.StringIO(), start=0.0)
    monitor.attach(pads, tray)
    yield monitor, pads, tray
    tray.close()


def lines(monitor) -> list[str]:
    return [line.split("  ", 1)[1].strip() for line in monitor.out.getvalue().splitlines()]


def test_a_scripted_table_shows_presses_heat_changes_and_a_collapse(table):
    monitor, pads, tray = table
    pads.tap(2, ButtonColour.WHITE)
    tray.step_until_idle()
    tray.add_die()
    tray.step_until_idle()
    tray.topple(3)  # all three dice: the monitor line below names the count
    tray.step_until_idle()
    monitor.drain()
    shown = lines(monitor)
    assert shown[:2] == ["pad 2  white  pressed", "pad 2  white  released after 0.08 s"]
    assert "tray   die added, the Heat is 3" in shown
    assert any(line.startswith("tray   COLLAPSE: 3 fell, 0 still standing") for line in shown)
    assert not any("mm" in line for line in shown)  # raw distances stay in the status line
    assert monitor.status().startswith("Heat 0 |") and "held: none" in monitor.status()


def test_keys_at_the_sim_table_press_buttons_and_move_dice(table):
    monitor, pads, tray = table
    assert cli.press_key("d", pads, tray)  # pad 3, home row: White
    assert cli.press_key("+", pads, tray)
    assert not cli.press_key("p", pads, tray)
    tray.step_until_idle()
    monitor.drain()
    shown = lines(monitor)
    assert "pad 3  white  pressed" in shown and "tray   die added, the Heat is 3" in shown


def test_held_buttons_show_in_the_status_until_released(table):
    monitor, pads, tray = table
    pads.press(5, ButtonColour.GRAY)
    monitor.drain()
    assert "held: pad 5 gray" in monitor.status()
    pads.release(5, ButtonColour.GRAY)
    monitor.drain()
    assert "held: none" in monitor.status()


def test_rare_events_read_clearly():
    assert "STUCK" in cli.describe(ButtonStuck(4, ButtonColour.BLACK, 1.0, held_s=31.0))
    assert cli.describe(ThrowSettled(1.0, zone=Zone.TOUCHING, face=7)) == "tray   dice settled (touching, face 7)"
    assert cli.describe(LinkDown("serial", "cable pulled", 1.0)) == "tray   LINK DOWN (serial): cable pulled"
    assert cli.describe(DistanceSample(250, 1.0)) is None


def test_on_a_terminal_the_status_line_stays_at_the_bottom():
    out = io.StringIO()
    monitor = cli.Monitor(out, live=True, start=0.0)
    monitor.handle(DistanceSample(231, 0.5))
    monitor.handle(LinkDown("sim", "closed", 1.0))
    assert out.getvalue().endswith("\n" + monitor.status()) and "231 mm" in monitor.status()


def test_a_bounded_sim_run_types_its_script_and_stops(capsys):
    started = time.monotonic()
    assert cli.main(["monitor", "--sim", "--seconds", "1.2", "--keys", "sz"]) == 0
    assert time.monotonic() - started < 6
    out = capsys.readouterr().out
    assert "pad 2  white  pressed" in out and "pad 1  gray   released after 0.08 s" in out
    assert out.rstrip().splitlines()[-1].startswith("status: Heat ")


def test_without_sim_it_opens_what_the_config_names(capsys):
    assert cli.main(["monitor", "--seconds", "0.3"]) == 0  # the shipped config names the sim backends
    assert "status: Heat" in capsys.readouterr().out


def test_a_bad_config_stops_it_with_the_field_named(tmp_path, capsys):
    bad = tmp_path / "site.toml"
    bad.write_text("[tray]\ntiming_budget_ms = 90\n")
    assert cli.main(["monitor", "--config", str(bad), "--seconds", "0.1"]) == 2
    assert "tray.timing_budget_ms: must be from 20 to 33" in capsys.readouterr().err


def test_keys_need_the_sim():
    with pytest.raises(SystemExit):
        cli.main(["monitor", "--keys", "q"])
