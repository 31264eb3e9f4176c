"""Scenes and betting: the gallery opening, the monologue, and what the betting refuses."""

import pytest

from kiosk.rules import RuleError

from .helpers import build, do

GALLERY = {"Joe": {"pride": "Opening a new art gallery"},
           "Jane": {"cheer": "Always cast as the lead in community theatre"},
           "Cece": {"special": "I know Japanese"}}


def gallery():
    """Joe (Mr. Gray) opens at his gallery; Bee and Cece come in; Jane adds the wine and cheese."""
    s = build(personas=GALLERY)
    do(s, "open_scene", "Joe")
    do(s, "ante", "Bee", how="character")
    do(s, "ante", "Cece", how="character")
    do(s, "ante", "Jane", how="setting")
    return s


def test_the_investigator_opens_the_first_scene_and_the_entrance_antes_go_in_the_pot():
    s = gallery()
    assert s.state.pot == 4
    assert s.view(None)["scene"]["in_scene"] == {"Joe": "character", "Bee": "character", "Cece": "character",
                                                 "Jane": "setting"}
    assert s.state.scene.turn == "Joe" and s.state.scene.step == "elaboration"


def test_the_gallery_elaboration_round_in_numbers():
    s = gallery()
    do(s, "raise", "Joe", amount=3, trait="pride")  # bringing an original painting to town
    assert "Opening a new art gallery" in s.recap()[-1]
    do(s, "call", "Bee")
    do(s, "call", "Cece")
    assert s.state.pot == 13
    do(s, "raise", "Jane", amount=2, trait="cheer")  # sings a few bars: 3 to call + 2 raised
    assert s.state.pot == 18 and s.state.people["Jane"].color == 12 - 1 - 5
    do(s, "raise", "Joe", amount=1, trait="none")  # sees the raise, one more, no trait needed
    assert s.state.scene.stake == 6 and s.state.pot == 21
    do(s, "call", "Bee")  # the President calls with 3 and mentions the old unsolved murder
    assert s.state.pot == 24
    assert s.state.scene.turn == "Cece"  # the round goes on to Cece, who owes 3


def test_only_the_lead_raises_by_one_without_a_trait():
    s = gallery()
    do(s, "raise", "Joe", amount=1, trait="none")
    with pytest.raises(RuleError, match="the lead's alone"):
        do(s, "raise", "Bee", amount=1, trait="none")
    with pytest.raises(RuleError):
        do(s, "raise", "Bee", amount=2, trait="none")
    do(s, "raise", "Bee", amount=2, trait="helps")
    assert s.state.scene.stake == 3


def test_a_bigger_raise_needs_a_public_persona_trait():
    s = gallery()
    with pytest.raises(RuleError, match="a raise above one needs a public-persona trait"):
        do(s, "raise", "Joe", amount=3, trait="none")
    assert s.state.pot == 4 and s.state.people["Joe"].color == 11


def test_calling_with_color_you_do_not_have_is_refused():
    s = build(colors={"Bee": [1, 1, 1]})
    do(s, "open_scene", "Joe")
    do(s, "ante", "Bee", how="character")
    do(s, "stay_out", "Cece")
    do(s, "stay_out", "Jane")
    do(s, "raise", "Joe", amount=5, trait="pride")
    before = s.state.model_copy(deep=True)
    with pytest.raises(RuleError, match=r"Bee has 2 Color but the call is 5 \(rule: you call only with Color you hold\)"):
        do(s, "call", "Bee")
    assert s.state == before
    assert "raise" not in [p.action for p in s.awaiting()]  # a raise is not even offered
    with pytest.raises(RuleError, match="not expected now"):
        do(s, "raise", "Bee", amount=1, trait="cheer")


def test_a_player_who_stayed_out_has_no_say_in_the_scene():
    s = build()
    do(s, "open_scene", "Joe")
    do(s, "ante", "Bee", how="character")
    do(s, "stay_out", "Cece")
    do(s, "ante", "Jane", how="character")
    order = []
    for _ in range(3):
        order.append(s.state.scene.turn)
        do(s, "raise" if s.state.scene.turn == "Joe" else "call", s.state.scene.turn,
           **({"amount": 1, "trait": "none"} if s.state.scene.turn == "Joe" else {}))
    assert "Cece" not in order
    with pytest.raises(RuleError):
        do(s, "call", "Cece")


def test_roy_monologues_about_ruby_redd_and_she_must_match():
    s = build(personas=GALLERY)
    do(s, "open_scene", "Joe")
    do(s, "stay_out", "Bee")
    do(s, "ante", "Cece", how="character")
    do(s, "ante", "Jane", how="character")
    do(s, "pass", "Joe")  # Joe drops out; Cece now leads the betting
    jane = s.state.people["Jane"].color
    do(s, "monologue", "Cece", target="Jane", amount=1, trait="none")  # eyes of the portraits
    assert s.state.people["Jane"].color == jane - 1 and s.state.scene.put == {"Joe": 0, "Cece": 1, "Jane": 1}
    do(s, "monologue", "Cece", target="Jane", amount=2, trait="special")  # cherry blossoms, from "I know Japanese"
    assert s.state.people["Jane"].color == jane - 3 and s.state.scene.stake == 3
    assert "I know Japanese" in s.recap()[-1]


def test_a_monologue_target_who_cannot_match_is_refused():
    s = build(colors={"Jane": [1, 1, 1]})
    do(s, "open_scene", "Joe")
    do(s, "stay_out", "Bee")
    do(s, "ante", "Cece", how="character")
    do(s, "ante", "Jane", how="character")
    with pytest.raises(RuleError, match="a monologue's target must be able to match"):
        do(s, "monologue", "Joe", target="Jane", amount=3, trait="pride")


def test_the_last_bettor_must_challenge():
    s = build()
    do(s, "open_scene", "Joe")
    do(s, "ante", "Bee", how="character")
    do(s, "stay_out", "Cece")
    do(s, "stay_out", "Jane")
    do(s, "pass", "Joe")
    assert [p.action for p in s.awaiting() if p.player == "Bee"] == ["challenge"]
    with pytest.raises(RuleError):
        do(s, "pass", "Bee")
    do(s, "challenge", "Bee", target="Joe")


def test_a_scene_nobody_joins_fades_and_the_pot_waits_for_the_next_one():
    s = build()
    do(s, "open_scene", "Joe")
    for p in ("Bee", "Cece", "Jane"):
        do(s, "stay_out", p)
    assert s.state.scene is None and s.state.pot == 1
    assert s.awaiting()[0].player == "Bee"  # narration passes to Mr. Gray's left


def test_buying_color_lowers_your_own_private_die_at_the_table_rate():
    s = build(color_per_pip=2)
    do(s, "open_scene", "Joe")
    do(s, "buy_color", "Bee")
    assert s.state.people["Bee"].die == 5 and s.state.people["Bee"].color == 14
    assert "lowers the Private Die to 5 and takes 2 Color" in s.recap()[-1]


def test_buying_color_can_be_switched_off():
    s = build(color_per_pip=0)
    do(s, "open_scene", "Joe")
    assert not any(p.action == "buy_color" for p in s.awaiting())
    with pytest.raises(RuleError):
        do(s, "buy_color", "Bee")


def test_an_opener_without_color_must_buy_some_before_opening():
    s = build(colors={"Joe": [1, 1, 1]})  # Joe starts with 3 Color and spends them all in his scene:
    do(s, "open_scene", "Joe")           # his ante (1),
    do(s, "ante", "Bee", how="character")
    do(s, "stay_out", "Cece")
    do(s, "stay_out", "Jane")
    do(s, "raise", "Joe", amount=2, trait="pride")   # his last 2 on his Pride;
    do(s, "challenge", "Bee", target="Joe")
    do(s, "lock_card", "Bee", card="Black")
    do(s, "lock_card", "Joe", card="Black")          # the same extreme: both lose, the pot is discarded
    do(s, "skip_revelation", "Joe")
    for opener in ("Bee", "Cece", "Jane"):           # three quiet scenes nobody joins
        do(s, "open_scene", opener)
        while prompt := next((p for p in s.awaiting() if p.action == "stay_out"), None):
            do(s, "stay_out", prompt.player)
    assert s.view(None)["players"][0]["color"] == 0  # his turn again, with nothing to ante: only buying
                                                     # (or, at die 1, passing the scene) remains
    assert [(p.action, p.optional) for p in s.awaiting()] == [("buy_color", False)]
    with pytest.raises(RuleError, match="only a player who cannot ante gives up a scene|skip_scene"):
        do(s, "skip_scene", "Joe")
