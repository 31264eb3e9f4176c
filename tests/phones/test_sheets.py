"""A player's sheet on their phone is sentences from their own view, not a dump of fields."""

from __future__ import annotations

import random

import pytest

from kiosk import games
from kiosk.phones import sheets
from kiosk.rules import RuleError, Session, bot


def played(game: str, moves: int, seed: int = 4) -> Session:
    session = Session(games.engine_for(game), {"seed": seed})
    rng = random.Random(seed)
    for _ in range(moves):
        if session.outcome is not None:
            break
        prompts = [p for p in session.awaiting() if not p.optional]
        try:
            session.apply(bot.fill(rng.choice(prompts), rng))
        except RuleError:
            pass
    return session


@pytest.mark.parametrize("game, moves", [("even-odd", 12), ("promise-hollows", 60), ("hell-for-leather", 40),
                                         ("clincher", 10)])
def test_every_game_has_a_sheet_in_plain_sentences(game, moves):
    session = played(game, moves)
    for player in session.engine.players(session.state):
        lines = sheets.sentences(game, session.view(player), player)
        assert lines, f"{game}: {player} has an empty sheet"
        for line in lines:
            assert line.endswith("."), line
            assert "{" not in line and "None" not in line and "[" not in line, line


def test_promise_hollows_sheet_tells_the_private_self_to_its_owner_only():
    session = played("promise-hollows", 60)
    state = session.state
    owner = next(p for p, c in state.people.items() if c.private)
    mine = " ".join(sheets.sentences("promise-hollows", session.view(owner), owner))
    assert f"Your Hurt: {state.people[owner].private.hurt}." in mine
    assert f"Your enemy is {state.people[owner].private.enemy}." in mine
    for other in state.players:
        if other != owner and state.people[other].private:
            theirs = " ".join(sheets.sentences("promise-hollows", session.view(other), other))
            assert state.people[owner].private.hurt not in theirs or \
                state.people[owner].private.hurt == state.people[other].private.hurt


def test_an_even_odd_sheet_says_the_locked_wager():
    session = Session(games.engine_for("even-odd"), {"seed": 4})
    rng = random.Random(4)
    for _ in range(200):  # the bot plays until the first wagers are asked for
        if any(p.action == "wager" for p in session.awaiting()):
            break
        try:
            session.apply(bot.fill(rng.choice([p for p in session.awaiting() if not p.optional]), rng))
        except RuleError:
            pass
    prompt = next(p for p in session.awaiting() if p.action == "wager")
    session.apply({"type": "wager", "player": prompt.player, "side": "odd", "points": prompt.fields[1].max})
    lines = sheets.sentences("even-odd", session.view(prompt.player), prompt.player)
    assert any(line.startswith(f"Your wager is locked: {prompt.fields[1].max} point") and "on Odd" in line
               for line in lines), lines
