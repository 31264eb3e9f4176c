"""The gallery opening played on: Roy challenges the President, Joe comes in as the Third
Man and takes the pot, then buys a secret from Roy G. Biv."""

import random

import pytest

from kiosk.rules import RuleError
from kiosk.rules.promise_hollows import ENGINE, actions

from .helpers import build, do
from .test_scenes import GALLERY

ROY = {"hurt": "A problem with anger", "hurt_object": "His father's old boss"}


def gallery_to_the_challenge():
    s = build(personas=GALLERY, privates={"Cece": ROY})
    do(s, "open_scene", "Joe")
    do(s, "ante", "Bee", how="character")
    do(s, "ante", "Cece", how="character")
    do(s, "ante", "Jane", how="setting")
    do(s, "raise", "Joe", amount=3, trait="pride")
    do(s, "call", "Bee")
    do(s, "call", "Cece")
    do(s, "raise", "Jane", amount=2, trait="cheer")
    do(s, "raise", "Joe", amount=1, trait="none")
    do(s, "call", "Bee")
    assert s.state.pot == 24
    do(s, "challenge", "Cece", target="Bee")  # how dare she drag Mr. Gray into this
    return s


def third_man_joe_wins():
    s = gallery_to_the_challenge()
    do(s, "join_as_third_man", "Joe")
    do(s, "lock_card", "Cece", card="Black")
    do(s, "lock_card", "Bee", card="Black")
    do(s, "tell_third_man", "Bee", card="Black")
    do(s, "tell_third_man", "Cece", card="Gray")  # a lie
    do(s, "lock_card", "Joe", card="Gray")  # trusting the claims, Joe steals
    return s


def test_joe_is_odd_man_out_with_gray_and_takes_the_whole_pot():
    s = third_man_joe_wins()
    assert s.state.people["Joe"].color == 12 - 1 - 3 - 3 + 24
    assert s.state.pot == 0 and s.state.discard == 0
    public = s.view(None)["scene"]["challenge"]
    assert public["cards"] == {"Cece": "Black", "Bee": "Black", "Joe": "Gray"}
    assert public["claims"]["Cece"] == "Gray"  # the lie stays on record; nobody is judged for it
    assert s.state.scene.closer == "Joe"
    assert "Joe closes the scene (the winner)." in s.recap()


def test_joe_buys_a_revelation_from_roy_g_biv():
    s = third_man_joe_wins()
    joe = s.state.people["Joe"].color
    do(s, "buy_revelation", "Joe", target="Cece")
    assert s.state.people["Joe"].color == joe - 6 and s.state.discard == 6
    assert s.state.people["Cece"].die == 5
    prompt = s.awaiting()[0]
    assert (prompt.player, prompt.action, prompt.secret) == ("Cece", "reveal_part", True)
    do(s, "reveal_part", "Cece", part="hurt")
    public = s.view(None)
    roy = next(p for p in public["players"] if p["player"] == "Cece")
    assert roy["revealed"] == ["A problem with anger"] and roy["private_die"] == 5
    # which of Hurt, Need or Want it was stays Roy's business
    assert "hurt" not in " ".join(s.recap(None)[-3:]).lower()
    assert s.view("Cece")["me"]["revealed_parts"] == ["hurt"]
    assert s.state.scene is None and s.awaiting()[0].player == "Bee"  # the next scene is Bee's to open


def test_the_closer_may_target_only_players_in_the_encounter():
    s = third_man_joe_wins()
    with pytest.raises(RuleError, match="a revelation targets someone in the encounter"):
        do(s, "buy_revelation", "Joe", target="Jane")


def test_a_revelation_you_cannot_pay_for_is_refused():
    s = gallery_to_the_challenge()
    do(s, "lock_card", "Cece", card="White")
    do(s, "lock_card", "Bee", card="Black")  # a split: Mr. Gray closes, with 5 Color left
    before = s.state.model_copy(deep=True)
    with pytest.raises(RuleError, match="Joe has 5 Color; Cece's secret costs 6 "
                                        r"\(rule: a revelation costs Color equal to the target's Private Die\)"):
        do(s, "buy_revelation", "Joe", target="Cece")
    assert s.state == before


def test_after_a_split_mr_gray_closes_even_from_outside_the_scene():
    s = gallery_to_the_challenge()
    do(s, "lock_card", "Cece", card="White")
    do(s, "lock_card", "Bee", card="Black")
    assert s.state.people["Cece"].color == 12 - 1 - 3 + 12
    assert s.state.scene.closer == "Joe"
    assert {p.action for p in s.awaiting()} == {"buy_revelation", "skip_revelation"}
    do(s, "skip_revelation", "Joe")
    assert s.state.scene is None


def test_a_revealed_part_cannot_be_revealed_twice():
    s = third_man_joe_wins()
    state = s.state.model_copy(deep=True)
    state.people["Cece"].revealed = ["hurt"]  # as if revealed in an earlier scene
    ENGINE.apply(state, actions.BuyRevelation(player="Joe", target="Cece"), random.Random(0))
    assert "hurt" not in ENGINE.awaiting(state)[0].fields[0].choices
    with pytest.raises(RuleError, match="reveal a part that is still hidden"):
        ENGINE.apply(state, actions.RevealPart(player="Cece", part="hurt"), random.Random(0))
