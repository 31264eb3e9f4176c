"""Random complete Even/Odd games: points are conserved, secrets stay secret, logs replay and undo."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from kiosk.rules import Session
from kiosk.rules.even_odd import ENGINE, TOTAL_POINTS
from tests.rules.harness import assert_replays, assert_undo_redo, choices, play_checked, public_text

setups = st.fixed_dictionaries({
    "players": st.integers(2, 4).map(lambda n: ["Ann", "Bo", "Cy", "Dee"][:n]),
    "dice": st.sampled_from(["virtual", "physical"]),
    "voted_dice": st.sampled_from(["wagered", "faces"]),
    "tie_dice": st.sampled_from(["epilogue", "return"]),
    "accusation_tie": st.sampled_from(["lead", "vote"]),
    "epilogue_tie": st.sampled_from(["innocent", "justice"]),
    "seed": st.integers(0, 10_000),
})


def points(session: Session) -> int:
    st_ = session.state
    return (sum(st_.pools.values()) + sum(w.points for w in st_.wagers.values())
            + sum(st_.papers.values()) + st_.epilogue_pool)


def with_other_secrets(session: Session) -> Session:
    """The same game, but every wager or vote still hidden is changed: side flipped, points moved."""
    secret_type = "wager" if session.state.phase == "wagers" else "vote"
    hidden = len(session.state.wagers) if secret_type == "wager" else len(session.state.votes)
    log = list(session.log)
    first_hidden = len(log) - hidden  # the hidden answers are the latest actions
    other = Session(ENGINE, session.setup)
    for index, action in enumerate(log):
        data = action.model_dump()
        if index >= first_hidden:
            assert data["type"] == secret_type
            if secret_type == "wager":
                data["side"] = "odd" if data["side"] == "even" else "even"
                prompt = next(p for p in other.awaiting() if p.player == data["player"])
                field = prompt.fields[1]
                data["points"] = field.max if data["points"] != field.max else field.min
            else:
                data["suspect"] = "odd" if data["suspect"] == "even" else "even"
        other.apply(data)
    return other


def check(session: Session) -> None:
    state = session.state
    assert points(session) == TOTAL_POINTS, f"points not conserved: {points(session)}"
    assert all(v >= 0 for v in state.pools.values()) and state.epilogue_pool >= 0
    assert all(v >= 0 for v in state.papers.values())
    if state.phase == "wagers" and state.wagers or state.phase == "vote" and state.votes:
        assert public_text(with_other_secrets(session)) == public_text(session), "a secret shows in public"
    if session.outcome is not None:
        assert state.pools == {p: 0 for p in state.players} and state.epilogue_pool == 0
        assert sum(state.papers.values()) == TOTAL_POINTS


@settings(max_examples=100, deadline=None)
@given(setup=setups, moves=choices())
def test_random_games_conserve_points_and_keep_secrets(setup, moves):
    # Every move is a Hypothesis draw: a failure shrinks to a short game and lists its actions.
    session = play_checked(ENGINE, setup, moves, check)
    assert session.outcome is not None
    assert_replays(session)
    assert_undo_redo(session, steps=8)


@settings(max_examples=30, deadline=None)
@given(setup=setups, bot_seed=st.integers(0, 10_000), cut=st.floats(0, 1))
def test_undo_to_any_point_matches_a_fresh_replay(setup, bot_seed, cut):
    session = play_checked(ENGINE, setup, bot_seed)
    full = list(session.log)
    keep = int(cut * len(full))
    while len(session.log) > keep:
        session.undo()
    fresh = Session(ENGINE, setup)
    for action in full[:keep]:
        fresh.apply(action)
    assert session.state == fresh.state and session.rng.getstate() == fresh.rng.getstate()
    for action in full[keep:]:  # redo: the game ends the same way
        session.apply(action)
    assert session.outcome == play_checked(ENGINE, setup, bot_seed).outcome


def test_the_bot_finishes_many_games_quickly():
    for seed in range(60):
        session = play_checked(ENGINE, {"players": ["A", "B", "C", "D"][: 2 + seed % 3], "seed": seed}, seed)
        assert session.outcome is not None
        assert session.state.history, "no investigation scene was played"
