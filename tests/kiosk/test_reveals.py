"""Reveals on the shared screen: one at a time, every one owed seen, none left when the table goes Home.

Issue 33: pads and phones answer round after round with nobody at the screen; each
closed round opened a reveal on top of the last, and nothing closed them (61-142 open
after 1,000 actions, each drawn every frame and holding its memory)."""

import os
import random
import time

import pytest

from testkit import drive
from kiosk.rules import RuleError, bot
from kiosk.ui import overlays

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")

from .uiplay import back_home  # noqa: E402


@pytest.fixture(autouse=True)
def home(app):
    back_home(app)
    drive.pump(1)
    yield


def _on_screen(app) -> list:
    """The reveals open on the window (and in the kiosk's own list)."""
    from kivy.core.window import Window

    shown = [w for w in Window.children if isinstance(w, overlays.Reveal)]
    assert len(shown) == len([o for o in app.overlays if isinstance(o, overlays.Reveal)])
    return shown


def _play_untouched(app, game: str, seed: int, actions: int, rounds: list) -> int:
    """Bots answer (as pads and phones do, never touching the screen) for ``actions`` actions;
    returns the most reveals that were ever on screen at once. Closed rounds go to ``rounds``."""
    app.start_game(game, {"seed": seed})
    runner, rng = app.runner, random.Random(seed)
    runner.listeners.append(lambda change: rounds.append(change) if change.reveal else None)
    most = 0
    for _ in range(actions):
        if runner.outcome is not None:
            break
        pool = [p for p in runner.awaiting() if not p.optional] or runner.awaiting()
        try:
            runner.propose(bot.fill(rng.choice(pool), rng))
        except RuleError:
            continue
        drive.pump(1)
        most = max(most, len(_on_screen(app)))
    return most


@pytest.mark.parametrize("game", ["even-odd", "promise-hollows"])
def test_no_more_than_one_reveal_is_ever_on_screen_when_nobody_taps(app, game):
    rounds: list = []
    most = 0
    for seed in range(1, 9):
        most = max(most, _play_untouched(app, game, seed, 400, rounds))
        if len(rounds) >= 10:
            break
    assert len(rounds) >= 10, "too few rounds closed: the test played nothing secret"
    assert most == 1


def _until_owed(app, owed: int) -> None:
    """Play Even/Odd games by bots, nobody tapping, until ``owed`` reveals are owed (open or waiting)."""
    for seed in range(1, 10):
        if _owing(app, seed, owed):
            return
    pytest.fail(f"no seed closed {owed} rounds")


def _owing(app, seed: int, owed: int) -> bool:
    app.start_game("even-odd", {"seed": seed})
    runner, rng = app.runner, random.Random(seed)
    while (app.play.reveal is not None) + len(app.play._owed) < owed:
        if runner.outcome is not None:
            return False
        pool = [p for p in runner.awaiting() if not p.optional] or runner.awaiting()
        try:
            runner.propose(bot.fill(rng.choice(pool), rng))
        except RuleError:
            continue
        drive.pump(1)
    return True


def test_every_reveal_owed_is_seen_in_turn(app):
    _until_owed(app, 3)
    seen = []
    while _on_screen(app):
        shown = _on_screen(app)
        assert len(shown) == 1
        seen.append([card.face for card in shown[0].cards])
        drive.press("reveal:close")  # the table reads each in turn
    assert len(seen) == 3


def test_going_home_closes_the_reveal_and_drops_those_waiting(app):
    _until_owed(app, 2)
    assert len(_on_screen(app)) == 1
    assert not app.screens_drawn  # the reveal covers the window
    app.go_home()
    drive.pump(2)
    assert not _on_screen(app) and app.play.reveal is None and not app.play._owed
    assert app.screens_drawn  # Home is drawn


def _strip(app) -> str:
    return " / ".join(label.text for label in app.play.recent._labels)


def test_the_strip_under_a_reveal_gives_nothing_away_before_the_cards_turn(app):
    # Issue 30: "Wagers revealed: Bo 2 on Even..." was printed under the overlay from the
    # reveal's first frame, while the cards were still face down.
    app.start_game("even-odd", {"seed": 2})
    runner, rng = app.runner, random.Random(2)
    while not any(p.action == "wager" for p in runner.awaiting()):
        runner.propose(bot.fill(next(p for p in runner.awaiting() if not p.optional), rng))
        drive.pump(1)
    wagers = [p for p in runner.awaiting() if p.action == "wager"]
    for prompt in wagers[:-1]:
        runner.propose(bot.fill(prompt, rng))
    overlays.ANIMATION_SCALE["value"] = 1.0
    try:
        runner.propose(bot.fill(wagers[-1], rng))  # the last lock: the round turns over
        drive.pump(2)
        reveal = next(o for o in reversed(app.overlays) if isinstance(o, overlays.Reveal))
        assert not any(getattr(card, "turned", card.label.text == card.face) for card in reveal.cards)
        faces = [card.face for card in reveal.cards]
        time.sleep(0.005)  # the strip follows the news by a frame: let that frame come
        drive.pump(1)
        assert not app.play._recent_due.is_triggered  # the strip has caught up with the round
        strip = _strip(app)
        assert "revealed" not in strip.lower() and not any(face in strip for face in faces if face != "nothing"), strip
        assert reveal.caption.text == ""  # "3 dice to roll" would tell the total
        drive.tap_at(*reveal.cards[0].to_window(*reveal.cards[0].center))  # a tap turns them now
        drive.pump(2)
        assert all(card.turned for card in reveal.cards)
        assert "Wagers revealed" in _strip(app)
    finally:
        overlays.ANIMATION_SCALE["value"] = 0
        for o in [o for o in app.overlays if isinstance(o, overlays.Reveal)]:
            o.close()


def _to_the_wagers(app, seed: int):
    app.start_game("even-odd", {"seed": seed})
    runner, rng = app.runner, random.Random(seed)
    while not any(p.action == "wager" for p in runner.awaiting()):
        runner.propose(bot.fill(next(p for p in runner.awaiting() if not p.optional), rng))
        drive.pump(1)
    return runner, rng


def _lock_all(runner, rng) -> None:
    for prompt in [p for p in runner.awaiting() if p.action == "wager"]:
        runner.propose(bot.fill(prompt, rng))
        drive.pump(1)


def test_the_game_under_a_reveal_is_not_drawn_while_the_reveal_is_up(app):
    """A reveal's surround is opaque, so the play screen under it is taken out of the window's
    drawing (it cost every frame of a reveal left up as much again); it is back at once when
    the reveal goes, and an overlay that lets the game show through leaves it drawn."""
    from kivy.core.window import Window

    runner, rng = _to_the_wagers(app, 2)
    assert app.screens_drawn and Window.canvas.indexof(app.root.canvas) >= 0
    _lock_all(runner, rng)
    [reveal] = _on_screen(app)
    assert reveal.covers and not app.screens_drawn and Window.canvas.indexof(app.root.canvas) < 0
    drive.press("reveal:close")
    drive.pump(1)
    assert not _on_screen(app) and app.screens_drawn and Window.canvas.indexof(app.root.canvas) >= 0
    confirm = overlays.Confirm("Leave the game?", "Leave", lambda: None)
    app.show_overlay(confirm)
    assert not confirm.covers and app.screens_drawn  # the game shows, dimmed, around it
    confirm.dismiss()
    assert app.screens_drawn


def test_a_wager_locked_under_a_reveal_is_shown_on_the_reveal_in_its_own_frame(app):
    """Pads go on while a reveal is up, and the lock board is under it: the reveal says who
    has locked the next choice (names only) in the frame of the lock, and that the choice has
    closed when the last one locks (its own reveal waits behind)."""
    runner, rng = _to_the_wagers(app, 3)
    _lock_all(runner, rng)
    [reveal] = _on_screen(app)
    drive.pump(2)  # the cards turn (no animation in tests)
    assert reveal.locked_text == ""
    while not any(p.action == "wager" for p in runner.awaiting()):  # the roll, nobody closing the reveal
        runner.propose(bot.fill(next(p for p in runner.awaiting() if not p.optional), rng))
        drive.pump(1)
    assert _on_screen(app) == [reveal]
    wagers = [p for p in runner.awaiting() if p.action == "wager"]
    first = bot.fill(wagers[0], rng)
    runner.propose(first)
    drive.pump(1, draw=True)  # one frame: the lock's own
    assert reveal.locked_text == f"Next secret choice: {wagers[0].player} locked in."
    assert reveal.locked_text in reveal.caption.text
    assert not any(word in reveal.locked_text for word in ("Even", "Odd", str(getattr(first, "points", "-"))))
    for prompt in wagers[1:]:
        runner.propose(bot.fill(prompt, rng))
        drive.pump(1)
    assert app.play._owed and reveal.locked_text == "Next secret choice: everyone has locked in."


def test_a_reveal_that_cannot_say_who_locked_in_loses_no_lock(app, monkeypatch):
    runner, rng = _to_the_wagers(app, 3)
    _lock_all(runner, rng)
    [reveal] = _on_screen(app)
    while not any(p.action == "wager" for p in runner.awaiting()):
        runner.propose(bot.fill(next(p for p in runner.awaiting() if not p.optional), rng))
        drive.pump(1)

    def broken(*_args, **_kw):
        raise RuntimeError("a display bug")

    monkeypatch.setattr(overlays.Reveal, "show_locked", broken)
    assert _on_screen(app) == [reveal]  # still up: the lock below goes through the broken path
    before = len(runner.session.log)
    wager = next(p for p in runner.awaiting() if p.action == "wager")
    runner.propose(bot.fill(wager, rng))  # no exception reaches the pad's handler
    drive.pump(2)
    assert len(runner.session.log) == before + 1 and wager.player in [
        name for rnd in runner.secret_rounds() for name in rnd.locked]
