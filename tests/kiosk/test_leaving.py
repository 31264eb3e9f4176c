"""A screen left lets go of what it holds (kiosk.ui.theme.Screens): its ticker, the pads it
captured, the setup's pins. Kivy forgets to tell a screen it has left when the change is cut
short (a second change in the same frame, or the kiosk stopping before the next tick); a
screen still ticking on a stopped kiosk read its closed store on every tick after, in every
kiosk started in the same process (CI, stop 47)."""

from __future__ import annotations

import os
import time

import pytest

needs_display = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")


def _counting(name: str, told: dict[str, list[str]]):
    """A screen that notes what it is told, as the kiosk's ticking screens act on it."""
    from kivy.uix.screenmanager import Screen

    screen = Screen(name=name)
    for event in ("on_enter", "on_leave"):
        screen.bind(**{event: lambda *_, e=event: told.setdefault(name, []).append(e)})
    return screen


def _tick(frames: int = 2) -> None:
    from kivy.clock import Clock

    for _ in range(frames):
        Clock.tick()


@needs_display
def test_a_change_cut_short_by_the_next_still_tells_the_first_screen_it_has_left():
    from kiosk.ui.theme import Screens

    told: dict[str, list[str]] = {}
    sm = Screens()
    for name in ("operator", "home", "play"):
        sm.add_widget(_counting(name, told))
    _tick()
    told.clear()  # the first screen shown is on show: what follows is the changes
    sm.current = "home"
    sm.current = "play"  # the same frame: the change to home is cut short
    _tick()
    assert told.get("operator") == ["on_leave"]  # left once, so it stops what it started
    assert told.get("home") == ["on_enter", "on_leave"]  # passed through: in and out, each once
    assert told.get("play") == ["on_enter"]
    sm.close()  # the kiosk stops: the screen on show leaves too, once however often it is closed
    sm.close()
    assert told["play"] == ["on_enter", "on_leave"]


@needs_display
@pytest.mark.parametrize("when", ["on the stand panel", "back, then attract in the same frame", "mid-lesson"])
def test_a_stopped_kiosk_leaves_nothing_repeating_for_the_next(tmp_path, when):
    from kiosk.ui import overlays
    from testkit import drive

    from .uiplay import open_operator

    overlays.ANIMATION_SCALE["value"] = 0
    before = drive.ticking()  # (a kiosk stopped before this test may have left some)
    app = drive.start(str(tmp_path / "first"))
    stopped = False
    try:
        if when == "mid-lesson":
            drive.press("home:learn:hell-for-leather")  # the coach follows its step 15 times a second
            assert app.coach is not None and app.sm.current == "play"
        else:
            open_operator(app)
            drive.press("op:stand")  # its panel reads the day's plays from the store every tick
            assert app.sm.current == "operator" and "Demo mode" in app.operator.info.text
        if when == "back, then attract in the same frame":
            app.leave_operator()
            app.show_screen("attract")  # a demo stand's idle check, due in the same frame
            drive.pump(2)
            assert app.sm.current == "attract"
        stopped = True
        drive.stop(app)  # raises if the kiosk left anything repeating on the clock
        drive.pump(1)
        assert drive.ticking() <= before
        follow = drive.start(str(tmp_path / "second"))  # the next kiosk in this process
        try:
            until = time.monotonic() + 0.5  # five of the operator screen's ticks
            while time.monotonic() < until:
                drive.pump(1)  # raised "Cannot operate on a closed database" here
            assert follow.sm.current == "home"
        finally:
            drive.stop(follow)
    finally:
        if not stopped:
            drive.stop(app)


@needs_display
def test_the_hardware_setup_left_in_the_frame_it_opened_gives_the_kiosk_its_hardware_back(tmp_path, pins):
    """Two taps in one frame (the setup opened, then its Back): the setup's entering, completed
    when the second change starts, must not take the pads and the tray the leaving gave back."""
    from testkit import drive

    app = drive.start(str(tmp_path))
    try:
        assert app.controller is not None and app.controller.pads is not None
        app.open_hwsetup()
        app.leave_hwsetup(saved=False)  # the same frame
        drive.pump(3)
        assert app.sm.current == "home"
        assert app._screens["hwsetup"].setup is None  # the setup's pins and tray link are closed
        heard: list = []
        app.controller.on_handled.append(heard.append)
        app.sim_pads.tap(1, "black")
        drive.pump(2)
        assert heard  # the kiosk hears the pads again
    finally:
        drive.stop(app)
