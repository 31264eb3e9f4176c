"""Demo mode (kiosk/demo.py, kiosk/ui/attract.py): a convention stand goes back to attract after a
game ends or when nobody plays, replays recorded games there, and shows the operator its plays."""

import time

import pytest

from hardware import events as hw
from hardware.events import ButtonColour
from kiosk.phones.events import PhoneAction
from kiosk import demo
from kiosk.rules import bot
from testkit import drive

from .uiplay import back_home, open_operator

pytestmark = pytest.mark.ui


def test_when_attract_is_due():
    assert not demo.attract_due(299, 300, False, 60, game_over=True)  # off: only the usual idle time
    assert demo.attract_due(300, 300, False, 60, game_over=False)
    assert not demo.attract_due(59, 300, True, 60, game_over=False)
    assert demo.attract_due(60, 300, True, 60, game_over=False)
    assert demo.attract_due(demo.GAME_OVER_S, 300, True, 600, game_over=True)  # soon after a game's end
    assert demo.attract_due(20, 300, True, 20, game_over=True)  # or sooner, when the idle time is shorter


def test_who_counts_as_someone_at_the_table():
    """A hand at the pads, the tray or a phone holds attract back; the tray's own chatter does not
    (a demo stand would never go back to attract while the sensor reports distances)."""
    people = [hw.ButtonPressed(1, ButtonColour.GRAY, 1.0), hw.ThrowImpact(1.0, 0.8), hw.ThrowSettled(1.0),
              hw.DieAdded(3, 1.0), hw.DieRemoved(2, 1.0), hw.HeatFalling(4, 1.0), hw.Collapse(3, 1, 1.0),
              PhoneAction(seat="Ann", data={})]
    machines = [hw.DistanceSample(120, 1.0), hw.LinkUp("serial", "/dev/ttyACM0", 1.0), hw.LinkDown("serial", "unplugged", 1.0),
                hw.HeatMismatch(3, 5, 1.0), hw.HeatHeight(3, 1.0)]
    assert [type(e).__name__ for e in people if not demo.is_input(e)] == []
    assert [type(e).__name__ for e in machines if demo.is_input(e)] == []


@pytest.mark.parametrize("path", demo.recordings(), ids=lambda p: p.stem)
def test_every_recording_replays_to_its_end_showing_only_the_public_story(path):
    replay = demo.Replay.read(path)
    while replay.step():
        assert replay.view() == replay.session.view(None, awaiting=False)
    assert replay.done and replay.session.outcome is not None
    assert replay.recap(last=6) == replay.session.recap(None)[-6:]


def set_demo(app, on: bool, idle_s: int = 60) -> None:
    """Through the operator menu (PIN), its Stand panel: demo mode on or off, and its idle time."""
    open_operator(app)
    drive.press("op:stand")
    if app.config_hw.kiosk.demo_mode != on:
        drive.press("set:demo")
    while app.config_hw.kiosk.demo_idle_s != idle_s:
        drive.press("set:demo:+" if app.config_hw.kiosk.demo_idle_s < idle_s else "set:demo:-")
    assert app.config_hw.kiosk.demo_mode is on
    drive.press("op:back")


def idle_for(app, seconds: float) -> None:
    app.last_input = time.monotonic() - seconds
    app._idle_check()
    drive.pump(1)


def home_now(app) -> None:
    """Someone touches the screen and goes home (so the idle check does not start attract mid-test)."""
    app.last_input = time.monotonic()
    back_home(app)


def finish_toy(app) -> None:
    import random

    rng = random.Random(3)
    app.start_game("toy", {"seed": 3})
    while app.runner.outcome is None:
        try:
            app.runner.propose(bot.fill(rng.choice(app.runner.awaiting()), rng))
        except Exception:  # noqa: BLE001 - the bot's pick refused: pick again
            pass
    drive.pump(1)


def test_demo_mode_returns_to_attract_after_a_game_ends_and_after_idle_time(app):
    set_demo(app, True, idle_s=60)
    finish_toy(app)
    idle_for(app, demo.GAME_OVER_S - 2)
    assert app.sm.current == "play"  # the group is still reading the end
    idle_for(app, demo.GAME_OVER_S + 1)
    assert app.sm.current == "attract"
    drive.tap_at(100, 100)
    drive.pump(1)
    assert app.sm.current == "home"
    app.start_game("even-odd", {"players": ["Ann", "Bo", "Cy"]})
    idle_for(app, 59)
    assert app.sm.current == "play"
    idle_for(app, 61)
    assert app.sm.current == "attract"
    home_now(app)
    set_demo(app, False)
    finish_toy(app)
    idle_for(app, demo.GAME_OVER_S + 1)
    assert app.sm.current == "play"  # demo mode off: the end stays until the usual idle time
    home_now(app)


def test_a_pad_press_or_a_die_on_the_tray_is_someone_at_the_table(app):
    set_demo(app, True, idle_s=60)
    app.start_game("even-odd", {"players": ["Ann", "Bo", "Cy"]})
    app.last_input = time.monotonic() - 50
    app.sim_pads.tap(2, ButtonColour.WHITE)
    drive.pump(2)
    assert time.monotonic() - app.last_input < 5
    if app.sim_tray is not None:
        app.last_input = time.monotonic() - 50
        app.sim_tray.throw(accuracy=0.9, zone="inside", face=4)  # a d10 thrown onto the target
        app.sim_tray.step_until_idle()
        drive.pump(2)
        assert time.monotonic() - app.last_input < 5
    home_now(app)
    set_demo(app, False)


def test_attract_replays_a_recorded_game_and_invites_the_next_group(app):
    back_home(app)
    app.start_attract()
    drive.pump(2)
    screen = app.attract
    assert drive.find("attract:invite").text == "Tap to learn a game"
    assert drive.find("attract:game").text.startswith("Now playing: ")
    first = drive.find("attract:story").text
    for _ in range(4):
        screen.tick()
    assert screen.replay.played >= 4 and drive.find("attract:story").text != first  # the game moves on
    while not screen.replay.done:
        screen.tick()
    game = screen.replay.game
    screen.tick(demo_hold := 10.0)
    assert screen.replay.game != game and screen.replay.played == 0 and demo_hold  # the next game starts
    drive.tap_at(100, 100)
    drive.pump(1)
    assert app.sm.current == "home" and drive.find_all("home:learn:even-odd")


def test_the_operator_sees_the_plays_of_the_day(app):
    finish_toy(app)
    back_home(app)
    open_operator(app)
    drive.press("op:stand")
    text = app.operator.info.text
    today = time.strftime("%Y-%m-%d")
    counts = app.store.day_counts()[0]
    assert counts.day == today and counts.finished >= 1
    assert f"{today}: {counts.started} started, {counts.finished} finished" in text
    assert "Demo mode: off" in text
    drive.press("op:back")


@pytest.mark.parametrize("screen", ["hwsetup", "bench"])
def test_attract_waits_while_the_operator_sets_up_or_tests_the_hardware(app, screen, pins):
    """Learning the pads or walking the bench can go on past the idle time without a touch (the
    setup listens to the pins itself). Attract over the setup closed its pins and never gave
    the kiosk its pads back: after it, the pads were deaf."""
    set_demo(app, True, idle_s=60)
    open_operator(app)
    app.open_hwsetup() if screen == "hwsetup" else app.open_bench()
    drive.pump(2)
    assert app.sm.current == screen
    idle_for(app, 3 * 3600)  # past demo mode's idle time and the usual one
    assert app.sm.current == screen
    app.leave_hwsetup(saved=False) if screen == "hwsetup" else app.leave_bench()
    drive.pump(2)
    heard: list = []
    app.controller.on_handled.append(heard.append)
    app.sim_pads.tap(1, ButtonColour.BLACK)
    drive.pump(2)
    assert heard  # the kiosk hears the pads
    home_now(app)
    set_demo(app, False)
