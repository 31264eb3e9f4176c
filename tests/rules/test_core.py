"""The rules core: prompts gate actions, refusals change nothing, logs replay exactly."""

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from kiosk.rules import RuleError, Session, bot
from kiosk.rules.core import LogError
from kiosk.rules import registry

from .toy import ENGINE, Add, Lock


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "toy", "tests.rules.toy")


def locked_session() -> Session:
    s = Session(ENGINE, {"seed": 1})
    s.apply(Lock(player="Ann", number=4))
    s.apply({"type": "lock", "player": "Bo", "number": 7})
    return s


def test_wrong_player_is_refused_with_the_rule_named():
    s = locked_session()
    with pytest.raises(RuleError) as err:
        s.apply(Add(player="Bo", amount=1))
    assert err.value.rule == "whose turn it is"
    assert "waiting for Ann" in str(err.value)


def test_out_of_range_value_names_the_prompt_rule():
    s = locked_session()
    with pytest.raises(RuleError, match=r"amount must be from 1 to 3, not 4 \(rule: add 1 to 3\)"):
        s.apply(Add(player="Ann", amount=4))


def test_malformed_action_names_the_field():
    s = locked_session()
    with pytest.raises(RuleError, match="amount"):
        s.apply({"type": "add", "player": "Ann", "amount": "lots"})


def test_refused_action_changes_nothing_even_if_the_engine_raised_late(monkeypatch):
    s = locked_session()
    for amount in (3, 3, 3):
        s.apply(Add(player=s.awaiting()[0].player, amount=amount))
    before = (s.state.model_copy(deep=True), s.rng.getstate(), list(s.log), s.recap())
    original = ENGINE.apply

    def half_done(state, action, rng):
        if action.type == "add" and action.amount == 1:
            state.total += 100  # changes the state, then fails
            rng.random()
            raise RuleError("test", "late failure")
        return original(state, action, rng)

    monkeypatch.setattr(ENGINE, "apply", half_done)
    with pytest.raises(RuleError, match="late failure"):
        s.apply(Add(player=s.awaiting()[0].player, amount=1))
    monkeypatch.setattr(ENGINE, "apply", original)
    assert (s.state, s.rng.getstate(), s.log, s.recap()) == before


def test_secret_prompt_values_stay_off_the_public_view():
    s = Session(ENGINE, {"seed": 1})
    s.apply(Lock(player="Ann", number=8))
    public = s.view(None)
    assert public["awaiting"][0]["fields"] == []
    assert "8" not in json.dumps(public["locked"]) and "numbers" not in public
    assert s.view("Ann")["numbers"] == {"Ann": 8}
    assert "you locked 8" not in s.recap() and "you locked 8" in s.recap("Ann")
    without = s.view(None, awaiting=False)  # for screens that draw the prompts themselves
    assert "awaiting" not in without and without == {k: v for k, v in public.items() if k != "awaiting"}


def test_undo_and_replay_rebuild_the_state_exactly():
    s = Session(ENGINE, {"seed": 5})
    bot.play(s, random.Random(3))
    assert s.outcome and s.outcome.endswith("wins")
    replayed = registry.load_log(s.to_jsonl().splitlines())
    assert replayed.state == s.state and replayed.recap() == s.recap()
    last = s.undo()
    assert s.outcome is None
    s.apply(last)
    assert s.state == replayed.state


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), checkpoint=st.integers(1, 5))
def test_undo_back_to_any_point_matches_a_fresh_replay(seed, checkpoint):
    Session.CHECKPOINT_EVERY = checkpoint  # exercise restoring across checkpoints
    try:
        s = Session(ENGINE, {"seed": seed})
        bot.play(s, random.Random(seed))
        full = list(s.log)
        for keep in range(len(full) - 1, -1, -1):
            s.undo()
            fresh = Session(ENGINE, {"seed": seed})
            for a in full[:keep]:
                fresh.apply(a)
            assert s.state == fresh.state and s.rng.getstate() == fresh.rng.getstate()
    finally:
        Session.CHECKPOINT_EVERY = 64


def test_log_errors_name_the_line():
    good = locked_session().to_jsonl().splitlines()
    with pytest.raises(LogError, match="line 3: not valid JSON"):
        registry.load_log([good[0], good[1], good[2][:-5]])
    with pytest.raises(LogError, match="line 4: Bo may not add now.*whose turn"):
        registry.load_log(good[:3] + [json.dumps({"type": "add", "player": "Bo", "amount": 1})])
    with pytest.raises(LogError, match="line 1: unknown game"):
        registry.load_log([json.dumps({"game": "chess", "format": 1, "setup": {}})])
    with pytest.raises(LogError, match="empty"):
        registry.load_log([])


def test_a_log_whose_header_has_no_format_is_read_as_format_1():
    lines = locked_session().to_jsonl().splitlines()
    header = json.loads(lines[0])
    assert header["format"] == 1
    del header["format"]
    replayed = registry.load_log([json.dumps(header), *lines[1:]])
    assert replayed.state == locked_session().state


def test_a_log_in_a_format_this_build_does_not_know_is_refused_by_name():
    lines = locked_session().to_jsonl().splitlines()
    header = {**json.loads(lines[0]), "format": 2}
    with pytest.raises(LogError, match="line 1: unsupported log format 2 .this build reads format 1"):
        registry.load_log([json.dumps(header), *lines[1:]])


def test_nothing_is_accepted_after_the_end():
    s = Session(ENGINE, {"seed": 2})
    bot.play(s, random.Random(2))
    with pytest.raises(RuleError, match="the game is over"):
        s.apply(Add(player="Ann", amount=1))


def test_the_engine_names_its_own_rule_for_a_move_awaited_from_someone_else(monkeypatch):
    s = locked_session()
    monkeypatch.setattr(
        ENGINE, "why_not",
        lambda state, action: RuleError("Bo sits this round out", "Bo is resting") if action.player == "Bo" else None,
        raising=False,
    )
    with pytest.raises(RuleError, match=r"Bo is resting \(rule: Bo sits this round out\)"):
        s.apply(Add(player="Bo", amount=1))
    monkeypatch.setattr(ENGINE, "why_not", lambda state, action: None, raising=False)
    with pytest.raises(RuleError, match="whose turn it is"):
        s.apply(Add(player="Bo", amount=1))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), last=st.integers(0, 6), moves=st.integers(0, 80))
def test_the_latest_recap_lines_match_the_end_of_the_whole_recap(seed, last, moves):
    # The kiosk's bottom line asks only for the latest lines; private lines must
    # stay out of them exactly as they stay out of the whole recap.
    s = Session(registry.engine_for("even-odd"), {"seed": seed})
    rng = random.Random(seed)
    for _ in range(moves):
        if s.outcome is not None:
            break
        bot.step(s, rng)
    for viewer in [None, *s.engine.players(s.state)]:
        whole = s.recap(viewer)
        assert s.recap(viewer, last=last) == (whole[max(0, len(whole) - last):] if last else [])
