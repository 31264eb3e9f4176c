"""Random complete clincher sessions: 52 cards conserved, tokens never negative, deck order hidden,
logs replay and undo."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from kiosk.rules import Session, bot
from kiosk.rules.clincher import ENGINE, FULL_DECK
from tests.rules.harness import assert_replays, assert_undo_redo

token_sets = st.fixed_dictionaries({"red": st.integers(0, 2), "yellow": st.integers(0, 2), "green": st.integers(0, 3)})
setups = st.fixed_dictionaries({
    "players": st.integers(1, 5).map(lambda n: ["Ann", "Bo", "Cy", "Dee", "Eli"][:n]),
    "tokens": token_sets,
    "gm_supply": st.sampled_from(["unlimited", "counted"]),
    "gm_tokens": token_sets.filter(lambda t: sum(t.values()) > 0),
    "precedence": st.sampled_from(["first_press", "gm_orders"]),
    "empty_deck": st.sampled_from(["reshuffle", "stands"]),
    "fresh_deck_each_scene": st.booleans(),
    "seed": st.integers(0, 10_000),
})


def check(session: Session) -> None:
    state = session.state
    cards = state.deck + state.discards + state.cards_out()
    assert sorted(cards) == sorted(FULL_DECK), f"{len(cards)} cards accounted for, not the 52"
    assert all(n >= 0 for held in state.tokens.values() for n in held.values())
    assert state.gm_tokens is None or all(n >= 0 for n in state.gm_tokens.values())
    if state.scene is not None and state.scene.queue:
        assert len(set(state.scene.queue)) == len(state.scene.queue)
    assert all(len(set(s.redrawn)) == len(s.redrawn) for s in state.finished)
    # The deck's order is the one secret: shuffling it differently shows nobody anything new.
    if len(state.deck) > 1:
        other = state.model_copy(deep=True)
        other.deck.reverse()
        assert ENGINE.view(other, None) == ENGINE.view(state, None)


def play(setup: dict, seed: int, eager: float = 0.5, max_actions: int = 3000) -> Session:
    """A random session where players press for redraws often (``eager``), checked after every step."""
    session = Session(ENGINE, setup)
    rng = random.Random(seed)
    check(session)
    for _ in range(max_actions):
        if session.outcome is not None:
            return session
        bot.step(session, rng, optional_chance=eager)
        check(session)
    raise AssertionError(f"session with seed {seed} did not end within {max_actions} actions")


@settings(max_examples=80, deadline=None)
@given(setup=setups, bot_seed=st.integers(0, 10_000), eager=st.sampled_from([0.02, 0.5, 0.8]))
def test_random_sessions_conserve_the_deck_and_the_tokens(setup, bot_seed, eager):
    session = play(setup, bot_seed, eager)
    assert session.state.phase == "over" and session.outcome.startswith("Session over")
    assert_replays(session)
    assert_undo_redo(session, steps=10)


@settings(max_examples=20, deadline=None)
@given(setup=setups, bot_seed=st.integers(0, 10_000), cut=st.floats(0, 1))
def test_undo_to_any_point_matches_a_fresh_replay(setup, bot_seed, cut):
    session = play(setup, bot_seed)
    full = list(session.log)
    keep = int(cut * len(full))
    while len(session.log) > keep:
        session.undo()
    fresh = Session(ENGINE, setup)
    for action in full[:keep]:
        fresh.apply(action)
    assert session.state == fresh.state and session.rng.getstate() == fresh.rng.getstate()


def test_redraws_consequences_withdrawals_and_cash_ins_all_happen_in_random_play():
    seen: set[str] = set()
    for seed in range(40):
        session = play({"players": ["Ann", "Bo", "Cy"], "seed": seed,
                        "tokens": {"red": 3, "yellow": 3, "green": 3}}, seed, eager=0.7)
        seen |= {e.kind for e in session.events}
        seen |= {"cash-in" for e in session.events if "cashes in" in e.text}
    assert {"redraw", "consequence", "clincher", "withdraw", "cash-in"} <= seen
