"""The Heat's fall on the kiosk (issue 30): the screen turns to it at once, with the tray's
count filled in; only the faces are asked; the Curse is shown large. And before a throw,
a stack on the plinth that is not the game's Heat is named (issue 29)."""

import os

import pytest

from testkit import drive
from testkit.screenshots import at_a_throw

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")

from .uiplay import back_home  # noqa: E402


@pytest.fixture(autouse=True)
def home(app):
    back_home(app)
    drive.pump(1)
    yield
    if app.play.fall is not None:
        app.play.fall.close()


def _at_a_throw(app, seed: int) -> bool:
    """A Hell for Leather game on screen, in a conflict at fluency 2 or more, its narrator about to throw."""
    if "hell-for-leather" not in app.engines:
        pytest.skip("Hell for Leather has not landed")
    return at_a_throw(app, seed)


def _to_a_throw(app) -> None:
    """The first of seeds 1-29 whose game reaches a throw, on screen (else the test is skipped)."""
    for seed in range(1, 30):
        if _at_a_throw(app, seed):
            return
    pytest.skip("no seed reached a throw")


def _build_to_the_heat(app) -> int:
    heat = app.runner.session.view(awaiting=False)["heat"]["dice"]
    tray = app.sim_tray
    tray.build_to(heat)
    tray.step_until_idle(40)
    drive.pump(2)
    return heat


def test_a_topple_during_a_throw_turns_the_screen_to_the_fall_with_the_count_then_the_curse(app):
    falls = 0
    for seed in range(1, 30):
        if falls == 3:
            break
        if not _at_a_throw(app, seed):
            continue
        heat = _build_to_the_heat(app)
        if heat < 2:
            continue
        tray, runner = app.sim_tray, app.runner
        told: list[int] = []
        from hardware.events import Collapse
        listener = lambda e: told.append(e.fell) if isinstance(e, Collapse) else None  # noqa: E731
        tray.subscribe(listener)
        tray.throw(accuracy=0.9)
        tray.step(3)
        tray.topple(max(1, heat - 1))
        tray.step_until_idle(40)
        drive.pump(3)
        tray.unsubscribe(listener)
        fall = app.play.fall
        assert fall is not None, f"seed {seed}: the fall did not open (error line: {app.play.error.text!r})"
        assert fall.fell == max(1, min(heat, sum(told))), (fall.fell, told)
        words = drive.find("fall:count").text
        assert words.startswith(f"{fall.fell} {'die' if fall.fell == 1 else 'dice'} fell, ")
        assert "still stand" in words or "none still stand" in words
        assert "weighed" in fall.source.text  # the count came from the tray: confirm or correct
        # the table corrects the count, then taps only the faces
        drive.press("fall:fewer" if fall.fell > 1 else "fall:more")
        assert fall.corrected and "Counted by the table" in fall.source.text
        before = len(runner.session.log)
        for _ in range(fall.fell):
            drive.press("fall:face=4")
        assert not drive.find("fall:confirm").disabled
        drive.press("fall:confirm")
        assert runner.session.log[before].type == "heat_fall" and len(runner.session.log[before].faces) == fall.fell
        assert fall.result_shown
        heads = [w for w in fall.box.children if getattr(w, "font_size", 0) >= 30]
        assert heads and any("Curse" in w.text for w in heads), [w.text for w in fall.box.children]
        drive.press("fall:close")
        assert app.play.fall is None
        falls += 1
    assert falls == 3


def test_before_a_throw_the_screen_says_when_the_plinth_is_not_the_games_heat(app):
    _to_a_throw(app)
    heat = _build_to_the_heat(app)
    assert drive.find("prompt:plinth").text == ""  # it matches: nothing said
    app.sim_tray.remove_die()
    app.sim_tray.step_until_idle(40)
    drive.pump(2)
    assert drive.find("prompt:plinth").text.startswith(f"The game's Heat is {heat}, the plinth holds {heat - 1}")
    app.sim_tray.add_die()
    app.sim_tray.step_until_idle(40)
    drive.pump(2)
    assert drive.find("prompt:plinth").text == ""


def test_every_landing_shows_its_zone_face_and_meaning_large_for_a_moment(app):
    import time

    from hardware.events import ThrowSettled, Zone
    from kiosk.ui import results

    _to_a_throw(app)
    results.RESULT_S["value"] = 0.3
    try:
        app.controller.handle(ThrowSettled(t=1.0, zone=Zone.INSIDE, face=7))
        drive.pump(1)
        shown = app.play.throw_result
        assert shown.opacity == 1 and shown.where_text == "Inside, 7"
        shown_before = dict(shown.shown)
        die = [e for e in app.runner.session.events if e.kind == "die"][-1]
        assert shown.meaning_text in ("Merit", "Boon", "Pass", "Curse")
        assert die.text.endswith(f": {shown.meaning_text}.")
        assert shown.MEANING_PX >= 40 and shown.WHERE_PX >= 28  # read from a chair (issue 30: 28 px or more)
        assert shown.collide_point(*shown.center) and shown.get_root_window() is not None
        drawing = shown.canvas.children[1]
        time.sleep(0.35)
        drive.pump(2)
        assert shown.opacity == 0  # the news goes; the strip keeps the record
        # and leaves nothing to draw: a box drawn at opacity 0 is still rasterised on every
        # frame of every game after it (half a millisecond of each flip here)
        from .test_layout import drawn_box

        assert drawn_box(shown) is None
        # the same result again is the drawing made the first time, not a new one (a landing's frame)
        shown.show(dict(shown_before))
        shown.show(dict(shown_before))
        assert [c for c in shown.canvas.children if c is drawing] == [drawing]  # once: a pile is filled every frame
        shown.hide()
    finally:
        results.RESULT_S["value"] = 2.5


def _a_fall_entered(app) -> bool:
    """A topple during a throw, its faces tapped and confirmed: the Curse is on screen."""
    heat = _build_to_the_heat(app)
    if heat < 2:
        return False
    app.sim_tray.throw(accuracy=0.9)
    app.sim_tray.step(3)
    app.sim_tray.topple(heat - 1)
    app.sim_tray.step_until_idle(40)
    drive.pump(3)
    fall = app.play.fall
    if fall is None:
        return False
    for _ in range(fall.fell):
        drive.press("fall:face=2")
    drive.press("fall:confirm")
    return fall.result_shown


def test_the_curse_after_a_fall_goes_by_itself_unless_a_tap_keeps_it(app, monkeypatch):
    """The Curse asks for no decision: like a reveal, it fades on its own; a tap keeps it."""
    import time

    from kiosk.ui import overlays

    monkeypatch.setattr(overlays, "FADE_S", 0.2)
    monkeypatch.setitem(overlays.READ_S, "value", 0.1)
    seen = []
    for seed in range(1, 30):
        if len(seen) == 2:
            break
        if not _at_a_throw(app, seed) or not _a_fall_entered(app):
            continue
        fall = app.play.fall
        if seen:  # the second time a player taps the Curse (not "Carry on"): it stays
            words = next(w for w in fall.box.children if "Curse" in getattr(w, "text", "") or
                         "entered" in getattr(w, "text", ""))
            drive.tap_at(*words.to_window(*words.center))
        time.sleep(0.3)
        drive.pump(2)
        if not seen:
            assert app.play.fall is None and fall.get_parent_window() is None, "the Curse waited for Carry on"
        else:
            assert app.play.fall is fall and fall.get_parent_window() is not None, "a tap did not keep the Curse"
            drive.press("fall:close")
            assert app.play.fall is None
        seen.append(seed)
    assert len(seen) == 2


def test_the_strip_records_a_landing_a_frame_later_and_a_new_game_shows_its_own_at_once(app):
    """The log strip is the record, not the news (issue 30): the frame a landing is shown in
    draws its result, and the strip's line for it comes in the next frame (its label, layout and
    texture were a tenth of the landing's frame). A game put on screen shows its own strip at
    once: never the last game's lines, not even for a frame."""
    import time

    from hardware.events import ThrowSettled, Zone

    from kiosk.ui.art import NEXT_FRAME
    from kiosk.ui.fields import readable

    _to_a_throw(app)
    drive.pump(2)
    play = app.play
    strip = lambda: [label.text for label in play.recent._labels]  # noqa: E731
    before = strip()
    app.controller.tray.emit(ThrowSettled(t=1.0, zone=Zone.INSIDE, face=7))  # handled in a frame, as the tray's
    drive.pump(1)
    assert play.throw_result.where_text == "Inside, 7" and play.throw_result.opacity == 1  # the news
    newest = readable(app.runner.session.recap(None, last=1)[-1])
    assert "inside" in newest.lower() and strip() == before
    time.sleep(NEXT_FRAME * 2)  # the next frame comes as late as a table's (the tests' own come faster)
    drive.pump(1)
    assert strip()[-1] == newest  # the record, one frame later
    old = set(strip())
    app.go_home()
    app.start_game("hell-for-leather", {"seed": 99})  # another game on screen, no frame drawn yet
    fresh = [readable(line) for line in app.runner.session.recap(None, last=play.recent.rows)] or ["The game begins."]
    assert strip() == fresh and not old & set(strip())


def test_a_strip_that_cannot_be_drawn_stops_nothing(app, monkeypatch, caplog):
    """The strip is drawn from the clock, a frame after the action: a display bug there is
    logged, and the game, the clock and the next frames go on."""
    import random

    from .uiplay import bot_step

    if "hell-for-leather" not in app.engines:
        pytest.skip("Hell for Leather has not landed")
    app.go_home()
    app.start_game("hell-for-leather", {"seed": 7})
    drive.pump(2)

    def broken(lines):
        raise ValueError("a line the strip cannot draw")

    monkeypatch.setattr(app.play.recent, "show", broken)
    rng, before = random.Random(3), len(app.runner.session.log)
    for _ in range(20):
        if bot_step(app, rng):
            drive.pump(2)
        if len(app.runner.session.log) >= before + 3:
            break
    assert len(app.runner.session.log) >= before + 3  # play went on
    assert "could not be drawn" in caplog.text


def test_a_landing_renders_none_of_its_words_on_the_frame_that_shows_it(app, monkeypatch):
    """"Ready" means rendered, not only measured: a Kivy label fills its texture with the text's
    pixels on the frame that first draws it, so words measured ahead were still rendered on the
    landing's own frame. Here the frame that shows a landing (drawn, as the kiosk's are) renders
    none of the result's words."""
    import time

    from hardware.events import ThrowSettled, Zone
    from kivy.core.text import Label as CoreLabel

    from kiosk.ui import art, results

    _to_a_throw(app)
    words = {text for text, _ in results.ThrowResult.texts()}
    for _ in range(len(words) + 30):  # a pass under way from earlier tests ends first
        time.sleep(art.NEXT_FRAME * 2)
        drive.pump(1, draw=True)
    art._TEXTURES.clear()  # as when the kiosk starts: nothing rendered yet, no result drawn
    app.play.throw_result.__dict__.get("_drawings", {}).clear()
    app.play._signature = None
    app.play.refresh()  # the throw prompt opens
    for _ in range(len(words) + 30):  # its words are rendered ahead, one a frame
        time.sleep(art.NEXT_FRAME * 2)
        drive.pump(1, draw=True)
    rendered: list[str] = []
    real = CoreLabel._render_begin
    monkeypatch.setattr(CoreLabel, "_render_begin", lambda label: rendered.append(label.text) or real(label))
    app.controller.tray.emit(ThrowSettled(t=1.0, zone=Zone.OUTSIDE, face=7))
    drive.pump(1, draw=True)
    assert app.play.throw_result.where_text == "Outside, 7"
    assert words & set(rendered) == set()


def test_the_frame_a_die_lands_in_shows_its_result_and_the_next_adds_it_to_the_row(app):
    """The news first, the record a frame later: the landing's own frame puts up the large
    result; the row of dice down gets the new die, and its new count, in the frame after,
    and the next question with them."""
    import time

    from hardware.events import ThrowSettled, Zone

    from kiosk.ui import art

    _to_a_throw(app)
    row = app.play.panel.inner.landed
    time.sleep(art.NEXT_FRAME * 2)
    drive.pump(1)
    before, drawn = list(row.dice), []
    real = app.play.draw_prompts
    app.play.draw_prompts = lambda: drawn.append(len(app.runner.session.log)) or real()
    try:
        app.controller.tray.emit(ThrowSettled(t=1.0, zone=Zone.INSIDE, face=4))
        drive.pump(1)
        assert app.play.throw_result.where_text == "Inside, 4" and app.play.throw_result.opacity == 1
        assert list(row.dice) == before and drawn == []  # the record and the next question wait a frame
        time.sleep(art.NEXT_FRAME * 2)
        drive.pump(1)
    finally:
        del app.play.draw_prompts
    assert row.dice[:len(before)] == before and row.dice[len(before)][:2] == (4, "inside")
    assert drawn == [len(app.runner.session.log)]  # the question after the landing, drawn once
    assert row.caption.startswith(f"{len(before) + 1} ")


def test_a_finger_in_the_frame_after_a_landing_meets_the_next_question(app):
    """The next question is drawn a frame after a landing; a finger in between meets the next
    question, not the one before it: the question is drawn before the touch goes on."""
    from hardware.events import ThrowSettled, Zone

    _to_a_throw(app)
    drive.pump(2)
    drive.press("zone='outside'")  # half an answer to the question the tray then answers
    before = len(app.runner.session.log)
    app.controller.tray.emit(ThrowSettled(t=1.0, zone=Zone.INSIDE, face=4))
    drive.pump(1)
    assert app.play._prompts_due.is_triggered  # the landing's frame: its result, the question still to come
    stale = drive.find("face=7")
    drive.tap_at(*stale.to_window(*stale.center))  # no frame first: a finger in that very frame
    assert not app.play._prompts_due.is_triggered  # drawn before the touch reached a button
    drive.pump(2)
    assert len(app.runner.session.log) == before + 1 and app.play.error.text == ""  # the landing, nothing more


def test_a_results_words_are_ready_before_the_die_lands_and_change_with_the_landing(app, monkeypatch):
    """The first landing of the evening renders no text on the frame that shows it (issue 30's
    latency): the words every result can show are rendered while the throw prompt is open,
    one per frame. A new landing still shows its own words, and what is kept stays bounded."""
    import time

    from hardware.events import ThrowSettled, Zone
    from kivy.graphics import Rectangle
    from kivy.graphics.instructions import InstructionGroup

    from kiosk.ui import art, results, theme

    _to_a_throw(app)
    texts = results.ThrowResult.texts()
    ahead = len(texts) + 30  # frames enough for the result's words and the next die's

    def ready() -> int:
        return sum((text, int(size), True, None) in art._TEXTURES for text, size in texts)

    def frames(n: int) -> None:  # frames as far apart as a table's (the tests' own come faster)
        for _ in range(n):
            time.sleep(art.NEXT_FRAME * 2)
            drive.pump(1)

    frames(ahead)  # a pass under way from earlier tests ends first
    art._TEXTURES.clear()  # as when the kiosk starts: nothing rendered yet
    app.play._signature = None
    app.play.refresh()  # the throw prompt opens
    frames(1)
    assert ready() <= 1  # one text a frame: no frame pays for them all
    frames(ahead)
    assert ready() == len(texts)
    box = app.play.throw_result._box  # the result's box, drawn once as a picture: ready too
    before = box.drawn
    assert before is not None
    rendered: list[str] = []
    real = art.CoreLabel
    monkeypatch.setattr(art, "CoreLabel", lambda **kw: rendered.append(kw["text"]) or real(**kw))

    def textures(widget) -> list:
        def every(group):
            for ins in group.children:
                yield from every(ins) if isinstance(ins, InstructionGroup) else [ins]
        return [ins.texture for ins in every(widget.canvas) if isinstance(ins, Rectangle)]

    app.controller.tray.emit(ThrowSettled(t=1.0, zone=Zone.TOUCHING, face=3))  # handled in a frame, as the tray's
    drive.pump(1)
    shown = app.play.throw_result
    assert shown.where_text == "Touching, 3" and shown.opacity == 1
    assert rendered == []  # every word was ready, the next die's caption too
    assert box.drawn is before  # and the box was not drawn again
    frames(ahead)  # the seconds before the next throw
    for zone, face, meaning in (("touching", 3, shown.meaning_text), ("outside", 9, "Boon")):
        rendered.clear()  # (the frames before rendered the next die's words ahead)
        shown.show({"zone": zone, "face": face, "meaning": meaning, "who": None})
        drive.pump(1)
        where = f"{zone.capitalize()}, {face}"
        assert (shown.where_text, shown.meaning_text) == (where, meaning) and rendered == []
        for text, px_ in ((where, shown.WHERE_PX), (meaning, shown.MEANING_PX)):
            # the new landing's words are the ones drawn, not the last one's
            assert art._TEXTURES[(text, int(theme.font(px_)), True, None)] in textures(shown)
    assert art._TEXTURES[("Touching, 3", int(theme.font(shown.WHERE_PX)), True, None)] not in textures(shown)
    # bounded: a long evening of different results keeps at most 65 drawings and 401 textures
    for i in range(120):
        shown.show({"zone": "inside", "face": i, "meaning": "Pass", "who": None})
    assert len(shown.__dict__["_drawings"]) <= 65 and len(art._TEXTURES) <= 401
    shown.hide()
