"""Promise Hollows' private sheet at 800x480 (issue 30): the task first, the character named,
every secret readable without scrolling."""

import os
import random

import pytest

from testkit import drive
from kiosk.rules import RuleError, bot

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")

from .uiplay import back_home  # noqa: E402


def test_the_sheet_puts_the_task_first_names_the_character_and_shows_every_secret_unscrolled(app):
    back_home(app)
    app.start_game("promise-hollows", {"seed": 3})
    runner, rng = app.runner, random.Random(3)
    for _ in range(3000):
        for o in list(app.overlays):
            o.dismiss()
        assert runner.outcome is None, "no card was asked for with a private self written"
        awaiting = runner.awaiting()
        lock = next((p for p in awaiting if p.secret and p.action == "lock_card"), None)
        if lock is not None and (runner.session.view(lock.player).get("me") or {}).get("private_self"):
            break
        required = [p for p in awaiting if not p.optional] or awaiting
        try:
            runner.propose(bot.fill(rng.choice(required), rng))
        except RuleError:
            pass
    app.play.open_private(lock.player, lock)
    look = app.overlays[-1]
    look._open()
    drive.pump(2)
    texts = [w for w in drive.walk(look) if getattr(w, "text", "") and w.get_root_window() is not None]
    def top(match) -> float:
        w = next(w for w in texts if match(w.text))
        return w.to_window(w.x, w.top)[1]

    name = next(p["character"] for p in runner.session.view(lock.player)["players"] if p["player"] == lock.player)
    task = top(lambda t: lock.text in t)
    named = top(lambda t: "You play" in t and name in t)
    secret = top(lambda t: t.startswith("[b]Hurt:"))
    assert task > named > secret  # top to bottom: the task first, then who they are, then their secrets
    scroll = next(w for w in drive.walk(look) if w.__class__.__name__ == "Scroll")
    sx, sy = scroll.to_window(*scroll.pos)
    for w in texts:
        if any(w.text.startswith(f"[b]{part}:") for part in ("Hurt", "Need", "Want", "Guilt", "Enemy")):
            x, y = w.to_window(*w.pos)
            assert sy <= y and y + w.height <= sy + scroll.height, f"{w.text!r} is scrolled out of sight"
    look.dismiss()
