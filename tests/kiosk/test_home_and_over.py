"""Home and game over as part of the table (issue 30).

Home offers a clear "New game" for each game, with the rules beside it, and lists paused
games quietly (they were the loudest buttons on the screen); game over says who won and
how, the story's big moments, a few numbers, and the next step: play again, save the log.
"""

from __future__ import annotations

import os
import random

import pytest

from testkit import drive

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")

from .uiplay import GAMES, back_home, close_overlays  # noqa: E402


def test_home_has_a_new_game_button_per_game_and_paused_games_do_not_outshout_it(app):
    app.start_game("clincher", {"seed": 2})
    back_home(app)
    drive.pump(2)
    for game in GAMES:
        (new,) = drive.find_all(f"home:new:{game}")
        assert new.text == "New game" and new.kind == "accent"
        assert drive.find_all(f"home:rules:{game}")
    waiting = drive.find_all("home:resume")
    assert waiting and all(b.kind != "accent" for b in waiting)
    assert all(b.font_size <= drive.find_all("home:new:clincher")[0].font_size for b in waiting)
    drive.press("home:new:even-odd")
    assert app.sm.current == "setup" and app.setup_screen.game == "even-odd"
    back_home(app)


def test_game_over_says_who_won_the_big_moments_a_few_numbers_and_what_next(app):
    from kiosk.rules import RuleError, bot

    rng = random.Random(5)
    app.start_game("hell-for-leather", {"seed": 5})
    for _ in range(4000):
        close_overlays(app)
        if app.runner.outcome is not None:
            break
        prompts = [p for p in app.runner.awaiting() if not p.optional] or app.runner.awaiting()
        try:
            app.runner.propose(bot.fill(rng.choice(prompts), rng))
        except RuleError:
            pass
    close_overlays(app)
    drive.pump(2)
    shown = " ".join(w.text for w in drive.walk(app.play.prompt_box) if hasattr(w, "text"))
    assert "Game over" in shown and "wins" in shown
    assert "big moments" in shown
    assert f"{len(app.runner.session.log)} moves" in shown and "4 players" in shown
    assert drive.find_all("over:again") and drive.find_all("over:export") and drive.find_all("over:home")
    drive.press("over:again")
    assert app.sm.current == "setup" and app.setup_screen.game == "hell-for-leather"
    back_home(app)


def test_a_days_worth_of_paused_games_costs_home_the_same_few_rows_and_the_oldest_still_resumes(app):
    """Groups at a convention wander off mid-game and their games wait on Home. Each waiting game
    was a button of its own, made again on every way Home (about 0.25 MB and 1 ms each, so a
    stand's Home grew all day); now only the rows in view are made, and scrolling reaches the rest."""
    for info in app.store.unfinished():  # this module's earlier games: the list is this test's own
        app.store.abandon(info.id)
    sids = []
    for i in range(24):
        app.start_game("clincher", {"seed": i})
        sids.append(app.runner.sid)
        app.go_home()
    drive.pump(2)
    rows = drive.find_all("home:resume")
    assert 1 <= len(rows) <= 6, len(rows)  # what the list shows, and one row coming into view
    assert sids[-1] in [r.sid for r in rows]  # the newest first
    app.home.waiting.scroll_y = 0
    drive.pump(2)
    rows = drive.find_all("home:resume")
    assert len(rows) <= 6
    oldest = next(r for r in rows if r.sid == sids[0])
    assert "Procedural clincher scenes" in oldest.text
    drive.press(oldest)
    assert app.runner is not None and app.runner.sid == sids[0]
    app.go_home()
    drive.pump(1)
    assert app.home.waiting.scroll_y == 1  # back at the newest
    for sid in sids:
        app.store.abandon(sid)
