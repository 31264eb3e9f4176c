"""Kill anywhere, a bounded sample: each of the four games is played by a child process that is
SIGKILLed at random moments (while starting, resuming, playing, committing or undoing) and resumed
again, and the store is checked after every kill (see ``kill_anywhere``'s docstring for what).

``scripts/kill_anywhere.py`` runs the same rounds for as long as it is given; its figures are in
docs/kiosk.md ("Kill anywhere (long run)").
"""

import random

import pytest

from kiosk import games
from kiosk.rules import bot
from kiosk.runner import Runner
from kiosk.store import Store

from .kill_anywhere import Tally, check_store, play_with_kills, view_sha

ROUNDS = 6  # child processes per game: about a second each
WINDOW_S = 0.02  # a kill lands up to this long after a random change (up to STEPS): a few moves on
STEPS = 8  # short games (clincher, Even/Odd) end a dozen changes in, so kills must come early


@pytest.mark.parametrize("game", ["hell-for-leather", "promise-hollows", "even-odd", "clincher"])
def test_random_kills_over_chained_resumes_and_undos_lose_nothing_shown(tmp_path, game):
    if game not in games.available():
        pytest.skip(f"{game} engine has not landed yet")
    tally = Tally()
    for attempt in range(4):  # on a busy machine a short game may end before the kill lands: play on
        tally.known = []  # a new store: no game in play yet
        play_with_kills(tmp_path / f"kills-{attempt}.sqlite3", game, seed=11 + attempt,
                        rng=random.Random(f"kill-{game}-{attempt}"), tally=tally,
                        window_s=WINDOW_S, steps=STEPS, max_rounds=ROUNDS, games_to_finish=ROUNDS)
        if tally.kills >= 2:
            break
    assert tally.failures == []
    assert tally.kills >= 2 and tally.actions > 0
    assert tally.resumes + tally.games >= 1  # a kill was resumed from, or a game played on to its end


def test_the_check_catches_an_undo_that_never_reached_the_disk(tmp_path, monkeypatch):
    """The harness can fail: with an undo that forgets the store, a resume brings the action back."""
    store = Store(tmp_path / "s.sqlite3", engines=games.engine_for)
    runner = Runner.new(store, games.engine_for("hell-for-leather"), {"seed": 3})
    rng = random.Random(3)
    while len(runner.session.log) < 6:
        prompt = next(p for p in runner.awaiting() if not p.optional)
        runner.propose(bot.fill(prompt, rng))
    shown = [a.model_dump_json() for a in runner.session.log]
    monkeypatch.setattr(Store, "truncate", lambda self, sid, length, outcome=None: None)
    runner.undo()
    runner.undo()
    shown = shown[:-2]
    sha = view_sha(runner.session)
    store.close()
    monkeypatch.undo()
    with pytest.raises(AssertionError, match="is not the shown one"):
        check_store(tmp_path / "s.sqlite3", "hell-for-leather", shown, sha)
