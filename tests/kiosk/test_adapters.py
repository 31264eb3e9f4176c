"""Hardware events to answers, without a screen: what each game makes of a press or a reading."""

import random

import pytest

from hardware.events import ButtonColour, ButtonPressed, Collapse
from kiosk import adapters, games
from kiosk.rules import RuleError, bot
from kiosk.runner import Runner


def test_a_fall_reported_in_two_parts_is_one_fall(store):
    runner = Runner.new(store, games.engine_for("hell-for-leather"), {"seed": 2})
    adapter = adapters.HellForLeatherAdapter()
    adapter.action_for(Collapse(fell=2, standing=3, t=100.0), runner, None)
    assert adapter.hint == {"action": "heat_fall", "fell": 2}
    adapter.action_for(Collapse(fell=1, standing=2, t=100.6), runner, None)  # the rest, a moment later
    assert adapter.hint == {"action": "heat_fall", "fell": 3}
    adapter.action_for(Collapse(fell=1, standing=1, t=105.0), runner, None)  # a new fall, seconds on
    assert adapter.hint == {"action": "heat_fall", "fell": 1}


def test_pad_help_names_every_button_with_its_shape(store):
    runner = Runner.new(store, games.engine_for("promise-hollows"), {"seed": 3})
    rng = random.Random(3)
    while not any(p.action == "lock_card" for p in runner.awaiting()):
        required = [p for p in runner.awaiting() if not p.optional] or runner.awaiting()
        try:
            runner.propose(bot.fill(rng.choice(required), rng))
        except RuleError:
            pass
        if runner.outcome:
            pytest.skip("no challenge in this seed")
    locking = [p for p in runner.awaiting() if p.action == "lock_card"]
    help_text = adapters.for_game("promise-hollows").pad_help(locking)
    assert help_text == "On your pad: Black (square) = Black, White (circle) = White, Gray (triangle) = Gray."
    # and a press does lock that player's card
    who = locking[0].player
    pad = runner.players().index(who) + 1
    data = adapters.for_game("promise-hollows").action_for(
        ButtonPressed(player=pad, button=ButtonColour.GRAY, t=0.0), runner, None)
    assert data == {"type": "lock_card", "player": who, "card": "Gray"}
