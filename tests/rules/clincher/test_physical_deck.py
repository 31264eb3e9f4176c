"""A table's own deck of cards: every draw is a move carrying the card, checked against the deck."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from kiosk.rules import RuleError, Session, bot, load_log
from kiosk.rules.clincher import ENGINE
from tests.rules.harness import assert_replays, assert_undo_redo

from .test_properties import check, setups

SETUP = {"gm": "Mara", "players": [{"name": "Theo", "character": "Sergeant Okafor"},
                                   {"name": "Lena", "character": "Iris Vance"}], "deck": "physical"}


def go(s: Session, type: str, player: str | None, **fields) -> None:
    s.apply({"type": type, "player": player, **fields})


def opened_scene() -> Session:
    """A scene at an easy difficulty whose opening draw is the Queen of hearts (up), then the 5 of clubs."""
    s = Session(ENGINE, SETUP)
    go(s, "call_scene", "Theo", location="The docks", objective="Find the ledger", present=["Theo", "Lena"],
       primary="Theo")
    go(s, "difficulty", "Mara", token="red")  # up suits: spades, hearts, diamonds
    assert s.state.phase == "draw" and [p.action for p in s.awaiting()] == ["draw"]
    go(s, "draw", "Mara", card="qh")  # up: set aside, the GM draws again
    assert s.state.phase == "draw"
    go(s, "draw", "Mara", card="5C")  # down: it opens the scene
    return s


def test_a_physical_deck_game_is_played_end_to_end_and_replays():
    s = opened_scene()
    assert s.state.phase == "act" and s.state.scene.active == "5C"
    assert s.view()["discards"] == ["Q♥"]
    go(s, "act", "Theo", ability="strong")  # two cards, keep the better
    go(s, "draw", "Mara", card="3S")
    go(s, "draw", "Mara", card="KS")
    assert s.state.scene.active == "KS"  # an up face beats an up number
    go(s, "request", "Lena")
    go(s, "redraw", "Lena", means="yellow")
    go(s, "draw", "Mara", card="2C")
    assert s.state.scene.active == "2C" and s.state.tokens["Lena"]["yellow"] == 0
    go(s, "stand", "Mara")
    assert s.state.finished[0].clincher == "2C" and s.state.phase == "call"
    assert s.view()["deck_size"] == 52 - 5  # QH, 5C, 3S, KS and 2C left the deck, nothing else
    go(s, "end_session", "Mara")
    assert s.outcome is not None
    replayed = load_log(s.to_jsonl().splitlines())
    assert replayed.state == s.state and replayed.recap() == s.recap()


@pytest.mark.parametrize("card, message", [
    ("ZZ", r"'ZZ' is not a card: write the rank, then the suit"),
    ("11H", r"'11H' is not a card"),
    ("QH", r"Q♥ is not in the deck: it is in the discards"),
    ("5c", r"5♣ is not in the deck: it is the active card"),
])
def test_a_wrong_or_duplicate_card_is_refused_by_name_and_changes_nothing(card, message):
    s = opened_scene()
    go(s, "act", "Theo", ability="middling")
    before = (len(s.log), s.state.model_copy(deep=True))
    with pytest.raises(RuleError, match=message):
        go(s, "draw", "Mara", card=card)
    assert (len(s.log), s.state) == before


def test_a_card_entered_twice_for_one_move_is_refused():
    s = opened_scene()
    go(s, "act", "Theo", ability="weak")
    go(s, "draw", "Mara", card="9D")
    with pytest.raises(RuleError, match="9♦ was entered already"):
        go(s, "draw", "Mara", card="9d")


def test_only_the_gm_enters_cards_and_nothing_else_happens_meanwhile():
    s = Session(ENGINE, SETUP)
    go(s, "call_scene", "Mara", location="A rooftop", objective="Escape", present=["Lena"], primary="Lena")
    go(s, "difficulty", "Mara", token="green")
    with pytest.raises(RuleError, match="Theo may not draw now"):
        go(s, "draw", "Theo", card="4C")
    with pytest.raises(RuleError, match="'request' is not expected now"):
        go(s, "request", "Theo")


def test_the_shuffled_deck_is_still_the_default():
    s = Session(ENGINE, {k: v for k, v in SETUP.items() if k != "deck"})
    go(s, "call_scene", "Theo", location="The docks", objective="Find the ledger", present=["Theo"], primary="Theo")
    go(s, "difficulty", "Mara", token="red")
    assert s.state.phase == "act" and s.state.scene.active is not None


@settings(max_examples=40, deadline=None)
@given(setup=setups, seed=st.integers(0, 10_000), eager=st.sampled_from([0.02, 0.5]))
def test_random_physical_deck_sessions_conserve_the_cards_and_replay(setup, seed, eager):
    # The random bot plays; whenever a card is awaited, a card still in the deck is entered.
    session = Session(ENGINE, {**setup, "deck": "physical"})
    rng = random.Random(seed)
    for _ in range(3000):
        if session.outcome is not None:
            break
        if session.state.phase == "draw":
            # the deck's cards; once it is spent, the discards the table shuffles into a new one
            unseen = ([c for c in session.state.deck if c not in session.state.entered]
                      or [c for c in session.state.discards if c not in session.state.entered])
            session.apply({"type": "draw", "player": session.state.gm, "card": rng.choice(unseen)})
        else:
            bot.step(session, rng, optional_chance=eager)
        check(session)
    assert session.outcome is not None
    assert_replays(session)
    assert_undo_redo(session, steps=6)


@pytest.mark.parametrize("seed,setup_seed", [(2, 596), (2, 0)])
def test_a_deck_spent_in_the_middle_of_a_draw_goes_on_with_the_reshuffled_discards(seed, setup_seed):
    """Found by the property test in CI: with the deck spent while a move waited for cards, no card
    could be entered at all (only the deck's were taken, and it was empty), so the game stuck."""
    setup = {"players": ["Ann", "Bo"], "tokens": {"red": 2, "yellow": 2, "green": 1}, "gm_supply": "unlimited",
             "gm_tokens": {"red": 0, "yellow": 1, "green": 1}, "precedence": "first_press",
             "empty_deck": "reshuffle", "fresh_deck_each_scene": False, "seed": setup_seed, "deck": "physical"}
    session = Session(ENGINE, setup)
    rng = random.Random(seed)
    spent_while_waiting = False
    for _ in range(3000):
        if session.outcome is not None:
            break
        if session.state.phase == "draw":
            in_deck = [c for c in session.state.deck if c not in session.state.entered]
            if not in_deck:
                spent_while_waiting = True
                discard = next(c for c in session.state.discards if c not in session.state.entered)
                session.apply({"type": "draw", "player": session.state.gm, "card": discard})
            else:
                if session.state.discards:  # a discard is refused while the deck still has cards
                    with pytest.raises(RuleError, match="is not in the deck"):
                        session.apply({"type": "draw", "player": session.state.gm,
                                       "card": session.state.discards[0]})
                session.apply({"type": "draw", "player": session.state.gm, "card": rng.choice(in_deck)})
        else:
            bot.step(session, rng, optional_chance=0.02)
    assert session.outcome is not None and spent_while_waiting
    assert_replays(session)
