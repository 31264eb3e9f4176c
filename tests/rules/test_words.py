"""What the engines say reaches the shared screen word for word: no "(s)" plurals.

Issue 21 found internal words on the screen ("point(s)", "1 moves"); the engines' own
sentences had four more ("reward(s)", "remain(s)", "Trauma(s)", "level(s)"). These games
play to the end with random legal moves and read every event and prompt they produce.
"""

import random

import pytest

from kiosk.rules import RuleError, Session, bot
from kiosk.rules.core import plural
from kiosk.rules.hell_for_leather import ENGINE as HFL

NAMES = ["Daniel", "Roger", "Eoin", "Jason", "Susan", "Alex"]


def everything_said(session: Session, rng: random.Random) -> list[str]:
    """Play to the end; every prompt and event text on the way."""
    said: list[str] = []
    for _ in range(20_000):
        prompts = session.awaiting()
        if session.outcome is not None or not prompts:
            return said
        said += [p.text for p in prompts]
        required = [p for p in prompts if not p.optional]
        pool = prompts if not required or rng.random() < 0.05 else required
        try:
            said += [e.text for e in session.apply(bot.fill(rng.choice(pool), rng))]
        except RuleError:
            continue
    raise AssertionError("the game did not end")


def test_plural_counts_in_words():
    assert plural(1, "reward") == "1 reward"
    assert plural(3, "reward") == "3 rewards"
    assert plural(0, "die", "dice") == "0 dice"


def test_dice_and_the_stack_in_words():
    from kiosk.rules.words import dice_count, stack_words

    assert [dice_count(n) for n in (0, 1, 2)] == ["0 dice", "1 die", "2 dice"]
    assert [stack_words(n) for n in (None, 1, 5)] == ["not read yet", "1 die", "5 dice"]


@pytest.mark.parametrize("seed", range(8))
def test_hell_for_leather_never_says_s_in_brackets(seed):
    """Team games run through Felonies and Curses to the Finale and its end, where
    'reward(s)', 'remain(s)', 'Trauma(s)' and 'level(s)' were said."""
    setup = {"mode": "team", "players": NAMES[:4], "goal_target": 1, "practice_conflicts": 2,
             "felony_track": 3, "felony_dice": ["count", "drive"][seed % 2], "fluency": 3, "seed": seed}
    session = Session(HFL, setup)
    said = everything_said(session, random.Random(seed))
    assert session.outcome is not None
    assert not [t for t in said if "(s)" in t], [t for t in said if "(s)" in t][:3]
