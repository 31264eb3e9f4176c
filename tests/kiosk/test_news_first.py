"""An action from the table's hardware shows its news first (issue 30, event to screen).

A die settling on the tray shows its result in the frame it is handled in, and a wager
locked on a pad shows on the lock board in that frame; the status panel, the log strip
and the next question come in the frame right after (``PlayScreen._news_first``). The
window is drawn whole on every frame, so the news's frame must not also wait for the
rest. In between, nothing on screen may answer the question that was there before.
"""

import os
import random

import pytest

from testkit import drive

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")

from .test_throw_screen import throw  # noqa: E402,F401  the fixture: a Hell for Leather game at a throw
from .uiplay import back_home  # noqa: E402


def _heading() -> str:
    return drive.find("text").text


@pytest.mark.usefixtures("throw")
def test_a_landing_shows_its_result_in_its_own_frame_and_the_next_question_in_the_next(app):
    from hardware.events import ThrowSettled, Zone

    log = len(app.runner.session.log)
    asked = _heading()
    down = len(app.play.panel.inner.landed.dice)
    app.controller.tray.emit(ThrowSettled(t=1.0, zone=Zone.TOUCHING, face=6))  # as the tray's thread does
    drive.pump(1)  # the frame the controller hands the landing to the rules in
    assert len(app.runner.session.log) == log + 1, "the landing was not taken"
    result = app.play.throw_result
    assert result.opacity == 1 and result.shown["zone"] == "touching" and result.shown["face"] == 6
    assert _heading() == asked, "the next question was drawn in the news's frame: the result waited for it"
    drive.pump(1)
    assert not app.play._rest_due
    assert len(app.play.panel.inner.landed.dice) == down + 1, "the panel did not catch up in the next frame"
    assert app.play._signature == app.play._prompt_signature(), "the prompt area was not drawn for the new state"


@pytest.mark.usefixtures("throw")
def test_a_tap_on_the_old_question_between_the_two_frames_answers_nothing(app):
    from hardware.events import ThrowSettled, Zone

    app.controller.tray.emit(ThrowSettled(t=1.0, zone=Zone.INSIDE, face=3))
    drive.pump(1)
    log = len(app.runner.session.log)
    old = drive.find("face=8")  # still the question the landing answered
    drive.tap_at(*old.to_window(*old.center))
    confirm = drive.find_all("prompt:confirm")
    if confirm:
        drive.tap_at(*confirm[0].to_window(*confirm[0].center))
    drive.pump(2)
    assert len(app.runner.session.log) == log, "a tap on the question that had just been answered was taken"


@pytest.fixture
def wager(app):
    """An Even/Odd game at a wager that Gray on a pad locks (a wager of nothing)."""
    from kiosk.rules import RuleError, bot

    if "even-odd" not in app.engines:
        pytest.skip("the Even/Odd game has not landed")
    back_home(app)
    for seed in range(1, 20):
        app.start_game("even-odd", {"seed": seed})
        runner, rng = app.runner, random.Random(seed)
        for _ in range(300):
            asked = [p for p in runner.awaiting() if p.action == "wager" and p.fields[1].min == 0]
            if asked and len(asked) > 1:  # a second player still to lock: this lock closes no round
                drive.pump(2)
                yield asked[0]
                back_home(app)
                return
            if runner.outcome is not None:
                break
            try:
                runner.propose(bot.fill(rng.choice([p for p in runner.awaiting() if not p.optional]), rng))
            except RuleError:
                pass
    pytest.fail("no seed reached a wager")


def test_a_wager_locked_on_a_pad_shows_on_the_lock_board_first(app, wager):
    from hardware.events import ButtonColour, ButtonPressed

    who = wager.player
    pad = app.runner.players().index(who) + 1
    panel_before = [w.text for w in drive.walk(app.play.panel) if hasattr(w, "text")]
    app.controller.pads.emit(ButtonPressed(pad, ButtonColour.GRAY, 1.0))
    drive.pump(1)
    locked = [w.text for w in drive.find_all("lock:", prefix=True) if "locked in" in w.text]
    assert any(who in text for text in locked), f"{who} is not shown locked in after the lock's frame"
    assert [w.text for w in drive.walk(app.play.panel) if hasattr(w, "text")] == panel_before, \
        "the status panel was drawn in the lock's frame: the lock board waited for it"
    drive.pump(1)
    assert any(who in w.text and "Wagers locked" in w.text for w in drive.walk(app.play.panel) if hasattr(w, "text")), \
        "the status panel did not catch up in the next frame"
