"""Undo never unseals a secret: a property over random games of all four engines.

A bot plays each game through a ``Runner``; at random moments someone taps Undo
a random number of times without the operator's PIN. Whatever they try, no
choice of a secret round that has closed (its secrets shown, or about to be
acted on) leaves the log, so nobody can re-choose knowing the others' choices.
With the PIN, a closed round comes back whole: every one of its choices reopens
together, never one.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from kiosk import games
from kiosk.rules import RuleError, bot
from kiosk.runner import SEALED, Runner

GAMES = ["hell-for-leather", "promise-hollows", "even-odd", "clincher"]


class MemoryStore:
    """Just enough of ``kiosk.store.Store`` for a Runner, kept in a list (the policy
    under test is the runner's; the disk side has its own tests in test_store.py)."""

    def __init__(self) -> None:
        self.actions: list = []

    def create(self, session) -> int:
        return 1

    def append(self, sid, seq, action, outcome) -> None:
        assert seq == len(self.actions) + 1
        self.actions.append(action)

    def truncate(self, sid, length, outcome=None) -> None:
        del self.actions[length:]

    def settled(self) -> None:
        pass


def play_with_undo_taps(game: str, seed: int, tap_chance: float, max_actions: int = 2500) -> tuple[int, int]:
    """Play one game, tapping Undo at random; return (undo taps tried, taps refused)."""
    rng = random.Random(seed)
    runner = Runner.new(MemoryStore(), games.engine_for(game), {"seed": seed})
    tried = refused = 0
    for _ in range(max_actions):
        if runner.outcome is not None:
            break
        if runner.session.log and rng.random() < tap_chance:
            sealed = list(runner.closed_rounds)
            before = list(runner.session.log)
            for _tap in range(rng.randint(1, 6)):
                if not runner.session.log:
                    break
                tried += 1
                try:
                    runner.undo()
                except RuleError as err:
                    assert err.rule == SEALED, err
                    refused += 1
                    break
            kept = len(runner.session.log)
            assert runner.session.log == before[:kept]
            for first, closing in sealed:
                assert kept > closing, f"{game} seed {seed}: undo reopened the closed round {first}-{closing}"
            assert runner.store.actions == runner.session.log
        prompts = runner.awaiting()
        required = [p for p in prompts if not p.optional] or prompts
        try:
            runner.propose(bot.fill(rng.choice(required), rng))
        except RuleError:
            pass
    return tried, refused


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), tap_chance=st.sampled_from([0.05, 0.2]))
def test_no_undo_without_the_pin_reopens_a_closed_secret_round(game, seed, tap_chance):
    play_with_undo_taps(game, seed, tap_chance)


@pytest.mark.parametrize("game", ["promise-hollows", "even-odd"])
def test_the_games_with_secret_rounds_do_refuse_some_taps(game):
    """The property above is not empty: in the games with secret rounds, taps do meet a
    sealed round (so the assertion about reopening is really exercised)."""
    refused = sum(play_with_undo_taps(game, seed, 0.3)[1] for seed in range(4))
    assert refused > 0


@pytest.mark.parametrize("game", ["promise-hollows", "even-odd"])
def test_with_the_pin_a_closed_round_reopens_whole(game):
    rng = random.Random(7)
    runner = Runner.new(MemoryStore(), games.engine_for(game), {"seed": 7})
    while not runner.closed_rounds and runner.outcome is None:
        prompts = [p for p in runner.awaiting() if not p.optional] or runner.awaiting()
        try:
            runner.propose(bot.fill(rng.choice(prompts), rng))
        except RuleError:
            pass
    first, closing = runner.closed_rounds[-1]
    while len(runner.session.log) > closing + 1:
        runner.undo()  # what came after the round: public, taken back one by one
    round_type = runner.session.log[closing].type
    runner.undo(operator=True)
    assert len(runner.session.log) == first
    reopened = [r for r in runner.secret_rounds() if r.action == round_type]
    assert reopened and reopened[0].locked == [] and len(reopened[0].waiting) >= 1
