"""The maker's bench test on the touchscreen (issue 23): the operator menu's "Tray bench test"
walks the whole checklist through the real widgets, on the virtual tray (the simulated table
through the optical model, the tray's firmware on a pseudo-terminal, the Pi's serial reader),
one "Done: record" tap per step, and ends with the pass/fail report saved to a file."""

from __future__ import annotations

import os

import pytest

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")


def _wait(condition, seconds: float = 60.0) -> bool:
    from .uiplay import wait_for

    return wait_for(condition, seconds)


def _operator(app) -> None:
    """Into the operator menu, with the PIN it ships with the first time (then changed to 1357)."""
    from kiosk.pin import DEFAULT_PIN, check
    from testkit import drive

    drive.enter_operator(app, DEFAULT_PIN if check(DEFAULT_PIN, app.pin_hash) else "1357")
    assert app.sm.current == "operator"


def test_the_bench_walks_every_step_with_live_readings_and_saves_its_report(app):
    from hardware.bench import STEPS, WEIGH_STEPS
    from kiosk.ui import bench
    from testkit import drive

    bench.PACE["value"] = 1 / 6  # the virtual table six times faster than real time
    _operator(app)
    drive.press("op:bench")
    assert app.sm.current == "bench"
    screen = app._screens["bench"]
    seen_live = False
    walk = WEIGH_STEPS + STEPS  # the kit's tray weighs the Heat: the set is weighed first
    for number, step in enumerate(walk, 1):
        assert _wait(lambda: not drive.find("bench:go").disabled), drive.find("bench:instruction").text
        assert drive.find("bench:step").text.startswith(f"Step {number} of {len(walk)}")
        assert drive.find("bench:instruction").text == step.instruction
        # an action is recorded from the tap: the button and the line under it say to act after it
        assert drive.find("bench:go").text == ("Record, then do it" if step.action else "Done: record")
        if step.action:
            assert f"records for about {step.seconds} s" in drive.find("bench:live").text
        drive.press("bench:go")
        assert drive.find("bench:go").disabled  # one tap records once
        if number == len(WEIGH_STEPS) + 1:  # live readings while the tray records
            seen_live = _wait(lambda: "reading" in drive.find("bench:live").text and "mm" in
                              drive.find("bench:live").text, 30)
        assert _wait(lambda: drive.find("bench:verdicts").text.count("\n") + 1 >= number
                     and step.title in drive.find("bench:verdicts").text, 60)
    assert seen_live
    assert _wait(lambda: "Result:" in drive.find("bench:result").text, 30)
    result = drive.find("bench:result").text
    # 25 verdicts are taller than their box on the 800x480 screen: they scroll, the last in view
    box, listed = screen.verdict_scroll, drive.find("bench:verdicts")
    assert listed.height > box.height and listed.parent is box
    assert _wait(lambda: box.scroll_y == pytest.approx(0), 5), box.scroll_y
    assert "PASS (25 of 25 steps passed)" in result, (result, drive.find("bench:verdicts").text)
    assert screen.saved_to is not None and screen.saved_to in result
    with open(screen.saved_to, encoding="utf-8") as saved:
        text = saved.read()
    assert text == screen.report and "result: PASS (25 of 25 steps passed)" in text
    assert "weighing calibration (stored on the tray): zero" in text
    assert "the fall counted [(4, 4)]" in text  # the topple judged by the count the tray weighed
    assert "calibration curve (mm over 0, 1, 2, ... dice):" in text
    assert not drive.find("bench:again").disabled
    drive.press("bench:back")
    assert app.sm.current == "operator"
    assert screen.walk is None  # the walk and its virtual tray are gone
    app.leave_operator()


def test_leaving_mid_walk_stops_it_and_the_menu_still_works(app):
    from kiosk.ui import bench
    from testkit import drive

    bench.PACE["value"] = 1 / 6
    _operator(app)
    drive.press("op:bench")
    assert _wait(lambda: not drive.find("bench:go").disabled)
    walk = app._screens["bench"].walk
    drive.press("bench:back")
    assert app.sm.current == "operator" and app._screens["bench"].walk is None
    assert not walk._thread.is_alive()
    app.leave_operator()


def test_a_mixed_set_is_refused_on_screen_in_one_sentence(app):
    from firmware.tray.weight import TOO_VARIED
    from hardware.bench import WEIGH_STEPS
    from hardware.weighing import DiceSet, ScaleDesign
    from testkit import drive
    from kiosk.ui import bench

    bench.PACE["value"] = 1 / 6
    bench.SIMULATED_SET["scale"] = ScaleDesign(dice=DiceSet(spread=0.08))  # dice from several sets
    try:
        _operator(app)
        drive.press("op:bench")
        for number, _ in enumerate(WEIGH_STEPS[:-1], 1):  # the empty plinth and the set, die by die
            assert _wait(lambda: not drive.find("bench:go").disabled), drive.find("bench:instruction").text
            drive.press("bench:go")
            assert _wait(lambda: drive.find("bench:verdicts").text.count("\n") + 1 >= number, 60)
        assert _wait(lambda: TOO_VARIED in drive.find("bench:verdicts").text, 30), drive.find("bench:verdicts").text
        assert "FAIL[/color]  die 14 of 14 weighed" in drive.find("bench:verdicts").text
        drive.press("bench:back")
        app.leave_operator()
    finally:
        bench.SIMULATED_SET["scale"] = None
