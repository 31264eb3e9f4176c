"""Entering a d10 by touch at 800x480 (issue 30): every zone and face button is on screen
without scrolling, whatever the heading says and with the tray's banner up; and the throw's
result, shown large for a moment, covers nothing of the question the table answers next."""

import dataclasses
import os

import pytest

from testkit import drive
from testkit.screenshots import at_a_throw

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")

from .test_layout import visible_rect, window_rect  # noqa: E402  the layout test's "a player sees it"
from .uiplay import back_home  # noqa: E402


@pytest.fixture
def throw(app):
    """A Hell for Leather game at 800x480, its narrator about to throw a d10."""
    from kivy.core.window import Window

    if "hell-for-leather" not in app.engines:
        pytest.skip("Hell for Leather has not landed")
    back_home(app)
    assert tuple(Window.size) == (800, 480)
    assert any(at_a_throw(app, seed) for seed in range(1, 30)), "no seed reached a throw"
    yield next(p for p in app.runner.awaiting() if p.action == "land")
    back_home(app)


def _seen(widget) -> float:
    """The share of ``widget`` a player sees in its scroll area as drawn (not scrolled)."""
    x0, y0, x1, y1 = visible_rect(widget)
    return max(0, x1 - x0) * max(0, y1 - y0) / (widget.width * widget.height)


def _hidden_buttons(app) -> list[str]:
    hidden = []
    for tag in [f"zone={z!r}" for z in ("inside", "touching", "outside")] + [f"face={f}" for f in range(10)]:
        button = drive.find_all(tag)
        assert button, f"no button {tag!r} on screen"
        if _seen(button[0]) < 0.98:
            hidden.append(f"{tag} ({_seen(button[0]):.0%} shown)")
    return hidden


def test_every_zone_and_face_shows_without_scrolling_at_800x480(app, throw, monkeypatch):
    from hardware.events import LinkDown, LinkUp

    who = throw.player
    headings = [throw.text, f"{who}: throw die 2 both at once, with your off hand",  # the rules' longest
                f"Felony! {who}: throw Felony die 3 of up to 3", f"{who}: throw the Risk die (never off-hand)"]
    tray = app.controller.tray
    for unplugged in (False, True):
        if unplugged:  # "enter throws by touch": the banner takes its row too
            tray.emit(LinkDown("sim", "cable pulled", 0.0))
            drive.pump(1)
            assert app.play.banner.height > 0
        for heading in headings:
            asked = dataclasses.replace(throw, text=heading)
            monkeypatch.setattr(app.runner, "awaiting", lambda asked=asked: [asked])
            app.play.draw_prompts()
            drive.pump(2)
            assert drive.find("text").text.endswith(heading.split(": ", 1)[-1][1:])  # the heading is that one
            assert _seen(drive.find("text")) > 0.98, f"the heading {heading!r} is cut"
            hidden = _hidden_buttons(app)
            assert not hidden, f"{'banner up, ' if unplugged else ''}heading {heading!r}: {hidden}"
    tray.emit(LinkUp("sim", "back", 0.0))
    drive.pump(1)


def test_more_below_is_said_when_a_long_heading_pushes_the_other_options_under_the_fold(app, throw, monkeypatch):
    # At 800x480 a two-line heading left "Also possible now:" as the last line, its buttons all
    # under the edge and nothing cut, so the view had no room to say there was more below.
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    from kiosk.ui import theme

    optional = [p for p in app.runner.awaiting() if p.optional]
    assert optional, "the throw offers nothing else to do: the fold is not tested"
    asked = dataclasses.replace(throw, text=f"{throw.player}: throw die 2 both at once, with your off hand")
    monkeypatch.setattr(app.runner, "awaiting", lambda: [asked, *optional])
    app.play.draw_prompts()
    drive.pump(3)
    view = app.play.prompt_scroll
    assert view.children[0].height > view.height, "everything fits: nothing is under the fold"
    view.shown_rect()
    view._place_clip()
    assert view._more_colour.a == 1, "more lies under the fold and the view does not say so"
    for w in theme._leaves(view.children[0]):
        if isinstance(w, Label) and w.height >= 1:
            share = _seen(w)
            assert share < 0.02 or share > 0.98, f"{w.text!r} is cut ({share:.0%} shown)"
    assert _hidden_buttons(app) == [], "a zone or face button made way for the words"
    assert not [b for b in theme._leaves(view.children[0]) if isinstance(b, Button) and 0.02 < _seen(b) < 0.98]


def test_a_throws_result_covers_nothing_the_next_question_asks(app, throw):
    from hardware.events import ThrowSettled, Zone

    app.controller.handle(ThrowSettled(t=1.0, zone=Zone.INSIDE, face=7))
    drive.pump(2)
    result = app.play.throw_result
    assert result.opacity == 1
    rx0, ry0, rx1, ry1 = window_rect(result)
    covered = []
    for widget in drive.walk(app.play.prompt_scroll.parent):  # the question: heading, buttons, Confirm
        if widget is result or widget.width < 2 or widget.height < 2 or not getattr(widget, "text", "").strip():
            continue
        x0, y0, x1, y1 = visible_rect(widget)
        if min(x1, rx1) - max(x0, rx0) > 2 and min(y1, ry1) - max(y0, ry0) > 2:
            covered.append(getattr(widget, "tag", "") or widget.text[:30])
    assert not covered, f"the throw's result covers {covered}"
    assert 0 <= rx0 and rx1 <= 800 and 0 <= ry0 and ry1 <= 480  # and it is on the window, whole
