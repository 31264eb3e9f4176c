"""Procedural clincher scenes, rule by rule.

Most tests stack the deck (put chosen cards on top, a permutation, so all 52
stay accounted for) to make the draws a table would see predictable.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from kiosk.rules import RuleError, Session
from kiosk.rules.clincher import ENGINE, FULL_DECK, category, rank_of

PLAYERS = [{"name": "Ann", "character": "Marlowe"}, {"name": "Bo", "character": "Velvet"},
           {"name": "Cy", "character": "Quill"}]


def new(**options) -> Session:
    return Session(ENGINE, {"players": PLAYERS, "seed": 3, **options})


def stack(s: Session, *cards: str) -> None:
    """Put ``cards`` on top of the deck, the first one drawn first."""
    st = s.state
    st.deck = [c for c in st.deck if c not in cards]
    st.discards = [c for c in st.discards if c not in cards]
    st.deck += [c for c in st.discards]  # keep every other card in play
    st.discards = []
    st.deck += list(reversed(cards))
    pin(s)


def pin(s: Session) -> None:
    """Make the hand-arranged deck part of the session's history, so a refused action
    (which rewinds to the last checkpoint and replays) keeps it."""
    s._checkpoints[len(s.log)] = s._snapshot()


def call(s: Session, by="GM", present=("Ann", "Bo"), primary="Ann") -> None:
    s.apply({"type": "call_scene", "player": by, "location": "the rain-soaked pier",
             "objective": "catch the courier before the boat leaves", "present": list(present), "primary": primary})


def scene(s: Session, token="yellow", opening=("5C",), ability="middling", draws=("9S",), **call_args) -> None:
    """Call a scene, set the difficulty and let the primary act, with the given cards on top."""
    call(s, **call_args)
    stack(s, *opening, *draws)
    s.apply({"type": "difficulty", "player": "GM", "token": token})
    s.apply({"type": "act", "player": s.state.scene.primary, "ability": ability})


def cards_accounted(s: Session) -> list[str]:
    st = s.state
    return sorted(st.deck + st.discards + st.cards_out())


# -- the deck --------------------------------------------------------------------------------------


def test_a_standard_deck_shuffled_from_the_session_seed():
    a, b, c = new(), new(), Session(ENGINE, {"players": PLAYERS, "seed": 4})
    assert sorted(a.state.deck) == sorted(FULL_DECK) and len(set(FULL_DECK)) == 52
    assert a.state.deck == b.state.deck and a.state.deck != c.state.deck


def test_aces_count_as_face_cards():
    assert category("AS", "S") == "up face" and category("AC", "S") == "down face"
    assert category("10H", "SH") == "up number" and category("2D", "SH") == "down number"


def test_cards_rank_up_face_then_up_number_then_down_number_then_down_face():
    order = ["KS", "7S", "7C", "QC"]  # with spades up
    assert [rank_of(c, "S") for c in order] == [3, 2, 1, 0]


# -- calling a scene -------------------------------------------------------------------------------


def test_calling_a_scene_records_who_is_there_and_who_leads():
    s = new()
    call(s, by="GM", present=("Ann", "Bo", "Cy"), primary="Bo")
    v = s.view()["scene"]
    assert v["location"] == "the rain-soaked pier" and v["primary"] == "Bo"
    assert v["secondaries"] == ["Ann", "Cy"]
    assert s.awaiting()[0].action == "difficulty"


def test_a_player_calling_a_scene_without_their_character_pays_green_the_gm_does_not():
    s = new()
    call(s, by="Cy", present=("Ann",), primary="Ann")
    assert s.state.tokens["Cy"] == {"red": 1, "yellow": 1, "green": 0}
    s2 = new()
    call(s2, by="Ann", present=("Ann",), primary="Ann")
    call_gm = new()
    call(call_gm, by="GM", present=("Ann",), primary="Ann")
    assert s2.state.tokens["Ann"]["green"] == 1 and call_gm.state.tokens["Ann"]["green"] == 1


def test_calling_a_scene_you_are_not_in_without_a_green_token_is_refused():
    s = new(tokens={"red": 1, "yellow": 1, "green": 0})
    with pytest.raises(RuleError, match="costs a green token"):
        call(s, by="Cy", present=("Ann",), primary="Ann")
    assert s.state.phase == "call" and s.state.scene is None


def test_the_primary_must_be_present():
    s = new()
    with pytest.raises(RuleError, match="the primary is one of the characters present"):
        call(s, present=("Ann", "Bo"), primary="Cy")


# -- difficulty and the opening draw ---------------------------------------------------------------


@pytest.mark.parametrize("token, up, down", [
    ("red", ["AS", "4H", "QD"], ["9C"]),
    ("yellow", ["AS", "4H"], ["QD"]),
    ("green", ["AS"], ["4H"]),
])
def test_each_difficulty_token_sets_its_up_suits_and_the_opening_draw_stops_at_a_down_card(token, up, down):
    s = new()
    call(s)
    stack(s, *up, *down, "2C")
    s.apply({"type": "difficulty", "player": "GM", "token": token})
    assert s.state.scene.active == down[0]
    assert s.state.discards == up  # the up cards drawn before it are set aside
    assert cards_accounted(s) == sorted(FULL_DECK)


def test_the_gm_spends_only_tokens_she_holds_when_counted():
    s = new(gm_supply="counted", gm_tokens={"red": 0, "yellow": 1, "green": 0})
    call(s)
    with pytest.raises(RuleError, match="the GM spends a token she holds"):
        s.apply({"type": "difficulty", "player": "GM", "token": "red"})
    s.apply({"type": "difficulty", "player": "GM", "token": "yellow"})
    assert s.state.gm_tokens == {"red": 0, "yellow": 0, "green": 0}


def test_an_unlimited_gm_supply_is_the_default():
    s = new()
    assert s.view()["gm_tokens"] == "unlimited"
    assert s.awaiting()[0].fields  # calling is open
    call(s)
    assert s.awaiting()[0].fields[0].choices == ["red", "yellow", "green"]


def test_a_gm_out_of_tokens_can_call_no_more_scenes():
    s = new(gm_supply="counted", gm_tokens={"red": 0, "yellow": 1, "green": 0},
            tokens={"red": 0, "yellow": 0, "green": 0})
    scene(s, opening=("5C",), draws=("9S",))  # nobody can redraw: settles at once
    assert s.state.phase == "call"
    assert [p.action for p in s.awaiting() if not p.optional] == ["end_session"]
    with pytest.raises(RuleError, match="not expected now"):
        call(s)
    s.apply({"type": "end_session", "player": "GM"})
    assert s.outcome.startswith("Session over after 1 scene")


# -- the primary acts ------------------------------------------------------------------------------


def test_a_middling_ability_draws_one_card():
    s = new()
    scene(s, token="green", opening=("3D",), ability="middling", draws=("KC", "AS"))
    assert s.state.scene.active == "KC" and s.state.discards == ["3D"]


@pytest.mark.parametrize("first, second, kept", [
    ("QC", "4C", "4C"),   # down number beats down face
    ("4C", "8S", "8S"),   # up number beats down number
    ("8S", "KS", "KS"),   # up face beats up number
    ("7S", "9S", "7S"),   # same kind: the first drawn stays
])
def test_a_strong_ability_draws_two_and_keeps_the_better(first, second, kept):
    s = new()
    scene(s, token="green", opening=("3D",), ability="strong", draws=(first, second))
    assert s.state.scene.active == kept
    assert sorted(s.state.discards) == sorted({"3D", first, second} - {kept})


@pytest.mark.parametrize("first, second, kept", [
    ("KS", "8S", "8S"),
    ("8S", "4C", "4C"),
    ("4C", "QC", "QC"),
    ("JC", "AH", "JC"),  # two down faces (hearts are down on green): the first stays
])
def test_a_weak_ability_draws_two_and_keeps_the_worse(first, second, kept):
    s = new()
    scene(s, token="green", opening=("3D",), ability="weak", draws=(first, second))
    assert s.state.scene.active == kept


def test_only_the_primarys_player_makes_the_first_move():
    s = new()
    call(s, present=("Ann", "Bo"), primary="Bo")
    s.apply({"type": "difficulty", "player": "GM", "token": "red"})
    with pytest.raises(RuleError, match="whose turn"):
        s.apply({"type": "act", "player": "Ann", "ability": "strong"})


# -- redraws ---------------------------------------------------------------------------------------


def redraw(s: Session, player: str, means: str, detail: str | None = None, top: tuple[str, ...] = ()) -> None:
    s.apply({"type": "request", "player": player})
    stack(s, *top)
    data = {"type": "redraw", "player": player, "means": means}
    if detail:
        data["detail"] = detail
    s.apply(data)


def test_red_token_redraw_draws_a_consequence_card_that_turns_bad_on_a_down_card():
    s = new()
    scene(s, token="yellow", draws=("4C",))
    redraw(s, "Ann", "red", top=("9H", "6D"))  # new card 9H (up), consequence 6D (down)
    assert s.state.scene.active == "9H" and s.state.scene.consequence_cards == ["6D"]
    [bad] = s.state.consequences
    assert (bad.player, bad.good, bad.card) == ("Ann", False, "6D")
    assert s.state.tokens["Ann"]["red"] == 0
    assert "something bad will come of this for Marlowe" in s.recap()[-1]
    assert cards_accounted(s) == sorted(FULL_DECK)


def test_red_consequence_on_an_up_card_brings_nothing():
    s = new()
    scene(s, token="yellow", draws=("4C",))
    redraw(s, "Ann", "red", top=("9H", "KS"))
    assert s.state.consequences == [] and s.state.scene.consequence_cards == ["KS"]


def test_yellow_token_redraw_draws_no_consequence_card():
    s = new()
    scene(s, token="yellow", draws=("4C",))
    redraw(s, "Bo", "yellow", top=("9H", "KS"))
    assert s.state.scene.active == "9H" and s.state.scene.consequence_cards == []


def test_green_token_redraw_draws_a_consequence_card_that_turns_good_on_an_up_card():
    s = new()
    scene(s, token="yellow", draws=("4C",))
    redraw(s, "Ann", "green", top=("5D", "QH"))
    [good] = s.state.consequences
    assert (good.good, good.card, good.cashed) == (True, "QH", False)
    s2 = new()
    scene(s2, token="yellow", draws=("4C",))
    redraw(s2, "Ann", "green", top=("5D", "2C"))
    assert s2.state.consequences == []


def test_one_token_redraw_per_player_per_scene():
    s = new(tokens={"red": 2, "yellow": 2, "green": 2})
    scene(s, token="yellow", draws=("4C",))
    redraw(s, "Ann", "yellow", top=("5D",))
    with pytest.raises(RuleError, match="one token redraw per player per scene"):
        s.apply({"type": "request", "player": "Ann"})
    redraw(s, "Bo", "yellow", top=("7S",))  # someone else still may
    assert s.state.scene.redrawn == ["Ann", "Bo"]


def test_spending_a_token_you_lack_is_refused():
    s = new(tokens={"red": 0, "yellow": 1, "green": 0})
    scene(s, token="yellow", draws=("4C",))
    s.apply({"type": "request", "player": "Ann"})
    with pytest.raises(RuleError, match="you can only spend a token you hold"):
        s.apply({"type": "redraw", "player": "Ann", "means": "red"})
    assert s.state.tokens["Ann"] == {"red": 0, "yellow": 1, "green": 0} and s.state.scene.active == "4C"


def test_a_player_with_nothing_to_spend_cannot_even_ask():
    s = new(tokens={"red": 0, "yellow": 0, "green": 0})
    s.apply({"type": "grant", "player": "GM", "to": "Bo", "colour": "yellow"})
    scene(s, token="yellow", draws=("4C",))
    with pytest.raises(RuleError, match="holds no token"):
        s.apply({"type": "request", "player": "Ann"})


def test_absent_players_redraw_only_with_green_and_name_the_advantage():
    s = new()
    scene(s, token="yellow", draws=("4C",), present=("Ann", "Bo"))
    s.apply({"type": "request", "player": "Cy"})
    with pytest.raises(RuleError, match="absent redraws only with a green token"):
        s.apply({"type": "redraw", "player": "Cy", "means": "red", "detail": "x"})
    [prompt] = [p for p in s.awaiting() if p.action == "redraw"]
    assert "advantage" in prompt.text
    stack(s, "JS", "KH")
    s.apply({"type": "redraw", "player": "Cy", "means": "green", "detail": "the harbour lights go out"})
    assert s.state.scene.active == "JS"
    assert s.state.scene.consequence_cards == [] and s.state.consequences == []  # no personal benefit
    assert "New advantage: the harbour lights go out." in s.recap()[-1]


def test_an_absent_player_redrawing_an_up_card_names_an_obstacle():
    s = new()
    scene(s, token="yellow", draws=("9S",), present=("Ann",))
    s.apply({"type": "request", "player": "Bo"})
    [prompt] = [p for p in s.awaiting() if p.action == "redraw"]
    assert "obstacle" in prompt.text


def test_a_positive_consequence_is_cashed_in_once_in_a_later_scene():
    s = new(tokens={"red": 0, "yellow": 0, "green": 1})
    scene(s, token="yellow", draws=("4C",))
    redraw(s, "Ann", "green", top=("5D", "QH"))  # good turn for Marlowe
    s.apply({"type": "stand", "player": "GM"})
    scene(s, token="yellow", draws=("6C",))
    redraw(s, "Ann", "consequence", top=("10S",))
    assert s.state.scene.active == "10S" and s.state.consequences[0].cashed
    assert any("Ann cashes in the good turn from scene 1 (Q♥) to redraw 6♣" in line for line in s.recap())
    with pytest.raises(RuleError, match="holds no token"):  # nothing left: no token, no uncashed good turn
        s.apply({"type": "request", "player": "Ann"})


def test_a_good_turn_cannot_be_cashed_in_during_the_scene_that_earned_it():
    s = new(tokens={"red": 0, "yellow": 0, "green": 1})
    scene(s, token="yellow", draws=("4C",))
    redraw(s, "Ann", "green", top=("5D", "QH"))
    assert s.state.consequences[0].good
    with pytest.raises(RuleError, match="one token redraw per player per scene"):
        s.apply({"type": "request", "player": "Ann"})


def test_cashing_in_without_a_positive_consequence_is_refused():
    s = new()
    scene(s, token="yellow", draws=("4C",))
    s.apply({"type": "request", "player": "Ann"})
    with pytest.raises(RuleError, match="cashed in once"):
        s.apply({"type": "redraw", "player": "Ann", "means": "consequence"})


# -- precedence ------------------------------------------------------------------------------------


def test_first_press_goes_first_and_the_next_in_line_may_withdraw_after_seeing_the_new_card():
    s = new()
    scene(s, token="yellow", draws=("4C",))
    s.apply({"type": "request", "player": "Bo"})
    s.apply({"type": "request", "player": "Ann"})
    with pytest.raises(RuleError, match="whose turn"):
        s.apply({"type": "redraw", "player": "Ann", "means": "yellow"})
    stack(s, "KH")
    s.apply({"type": "redraw", "player": "Bo", "means": "yellow"})
    assert s.state.scene.queue == ["Ann"] and s.state.scene.active == "KH"
    s.apply({"type": "withdraw", "player": "Ann"})
    assert s.state.tokens["Ann"] == {"red": 1, "yellow": 1, "green": 1}


def test_gm_sets_the_order_when_several_ask_at_once():
    s = new(precedence="gm_orders")
    scene(s, token="yellow", draws=("4C",))
    s.apply({"type": "request", "player": "Bo"})
    s.apply({"type": "request", "player": "Cy"})
    assert [p.action for p in s.awaiting() if p.player in ("Bo", "Cy") and not p.optional] == []
    with pytest.raises(RuleError, match="redraws go in order of precedence"):
        s.apply({"type": "set_order", "player": "GM", "order": ["Cy", "Ann"]})
    s.apply({"type": "set_order", "player": "GM", "order": ["Cy", "Bo"]})
    assert [p.player for p in s.awaiting() if p.action == "redraw"] == ["Cy"]


def test_the_gm_can_call_it_while_players_dither():
    s = new()
    scene(s, token="yellow", draws=("4C",))
    s.apply({"type": "request", "player": "Bo"})
    s.apply({"type": "stand", "player": "GM"})
    assert s.state.finished[-1].clincher == "4C" and s.state.tokens["Bo"]["yellow"] == 1


# -- resolution ------------------------------------------------------------------------------------


@pytest.mark.parametrize("card, result, narrator", [
    ("QS", "an impressive success", "Ann"),
    ("AH", "an impressive success", "Ann"),
    ("7H", "a narrow success", "Ann"),
    ("KD", "a disastrous setback", "GM"),
    ("7C", "a heart-breaking near miss", "GM"),
])
def test_the_four_outcomes_and_who_tells_them(card, result, narrator):
    s = new()
    scene(s, token="yellow", draws=(card,))
    s.apply({"type": "stand", "player": "GM"})
    done = s.state.finished[-1]
    assert (done.clincher, done.result, done.narrator) == (card, result, narrator)
    assert f"{narrator} tells how it ends." in s.recap()[-1]
    assert s.state.scene is None and card in s.state.discards
    assert cards_accounted(s) == sorted(FULL_DECK)


def test_the_clincher_stands_at_once_when_nobody_can_redraw():
    s = new(tokens={"red": 0, "yellow": 0, "green": 0})
    scene(s, token="red", draws=("8D",))
    assert s.state.phase == "call" and s.state.finished[-1].result == "a narrow success"
    assert "Nobody can redraw" in s.recap()[-1]


# -- an empty deck ---------------------------------------------------------------------------------


def spend_the_deck(s: Session, keep: int) -> None:
    """Move all but ``keep`` deck cards to the discards (a long session, compressed)."""
    st = s.state
    st.discards += st.deck[: len(st.deck) - keep]
    st.deck = st.deck[len(st.deck) - keep:]
    pin(s)


def test_a_spent_deck_is_rebuilt_from_the_shuffled_discards_by_default():
    s = new()
    scene(s, token="yellow", draws=("4C",))
    spend_the_deck(s, keep=0)
    s.apply({"type": "request", "player": "Ann"})
    s.apply({"type": "redraw", "player": "Ann", "means": "yellow"})
    assert "discards are shuffled into a new deck" in "\n".join(s.recap())
    assert len(s.state.deck) == 52 - 2 and cards_accounted(s) == sorted(FULL_DECK)


def test_option_stands_makes_the_active_card_the_clincher_when_the_deck_runs_out():
    s = new(empty_deck="stands")
    call(s)
    stack(s, "5C", "9S")
    s.apply({"type": "difficulty", "player": "GM", "token": "yellow"})
    spend_the_deck(s, keep=1)  # only 9S left
    s.apply({"type": "act", "player": "Ann", "ability": "strong"})  # draws the one card there is
    assert s.state.phase == "call" and s.state.finished[-1].clincher == "9S"
    assert "The deck is spent" in s.recap()[-1]
    # the next scene's opening still draws: the discards become the deck
    call(s)
    s.apply({"type": "difficulty", "player": "GM", "token": "green"})
    assert s.state.scene.active and cards_accounted(s) == sorted(FULL_DECK)


def test_option_fresh_deck_gathers_all_cards_after_each_scene():
    s = new(fresh_deck_each_scene=True)
    scene(s, token="red", draws=("4C",))
    s.apply({"type": "stand", "player": "GM"})
    assert len(s.state.deck) == 52 and s.state.discards == []


# -- setup, tokens, views --------------------------------------------------------------------------


def test_setup_checks_names_and_accepts_plain_player_names():
    s = Session(ENGINE, {"players": ["Ann", "Bo"]})
    assert s.state.characters == {"Ann": "Ann", "Bo": "Bo"}
    with pytest.raises(ValidationError, match="names must differ"):
        Session(ENGINE, {"players": ["Ann", "Ann"]})
    with pytest.raises(ValidationError, match="GM needs a name of their own"):
        Session(ENGINE, {"players": ["Ann", "GM"]})
    with pytest.raises(ValidationError, match="greater than or equal to 0"):
        Session(ENGINE, {"players": ["Ann"], "tokens": {"red": -1}})


def test_malformed_actions_are_refused_naming_what_is_wrong():
    s = new()
    with pytest.raises(RuleError, match="present"):
        s.apply({"type": "call_scene", "player": "GM", "location": "x", "objective": "y",
                 "present": ["Ann", "Ann"], "primary": "Ann"})
    with pytest.raises(RuleError, match="present"):
        s.apply({"type": "call_scene", "player": "GM", "location": "x", "objective": "y",
                 "present": ["Zed"], "primary": "Zed"})
    call(s)
    with pytest.raises(RuleError, match="token"):
        s.apply({"type": "difficulty", "player": "GM", "token": "purple"})
    assert s.state.phase == "difficulty"


def test_the_gm_may_hand_out_tokens_between_scenes():
    s = new()
    s.apply({"type": "grant", "player": "GM", "to": "Cy", "colour": "green"})
    assert s.state.tokens["Cy"]["green"] == 2
    with pytest.raises(RuleError, match="whose turn"):
        s.apply({"type": "grant", "player": "Ann", "to": "Ann", "colour": "red"})


def test_the_public_view_never_shows_the_order_of_the_deck():
    s = new()
    scene(s, token="yellow", draws=("4C",))
    view = s.view()
    assert view["deck_size"] == len(s.state.deck) and "deck" not in view
    top = s.state.deck[-1]
    other = new()
    scene(other, token="yellow", draws=("4C",))
    other.state.deck.reverse()
    assert other.state.deck[-1] != top and ENGINE.view(other.state, None) == ENGINE.view(s.state, None)
