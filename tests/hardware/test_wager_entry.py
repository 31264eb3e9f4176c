"""Even/Odd wagers entered on a pad: White toward Even, Black toward Odd, one point a press, Gray locks in."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.events import ButtonColour
from hardware.wager_entry import Step, Wager, WagerEntry, wager_from_presses

B, W, G = ButtonColour.BLACK, ButtonColour.WHITE, ButtonColour.GRAY


def test_three_whites_and_gray_wager_three_on_even():
    assert wager_from_presses([W, W, W, G], pool=4) == Wager("even", 3)


def test_two_blacks_and_gray_wager_two_on_odd():
    assert wager_from_presses(["black", "black", "gray"], pool=3) == Wager("odd", 2)


def test_one_press_too_many_is_taken_back_with_the_other_colour():
    # Miss Ruby Redd meant two on Even, pressed White three times, then Black once to fix it.
    assert wager_from_presses([W, W, W, B, G], pool=4) == Wager("even", 2)


def test_crossing_zero_changes_side():
    assert wager_from_presses([W, B, B, G], pool=4) == Wager("odd", 1)


def test_gray_alone_wagers_nothing():
    assert wager_from_presses([G], pool=4) == Wager(None, 0)


def test_the_needle_stops_at_the_pool():
    entry = WagerEntry(pool=2)
    steps = [entry.press(W) for _ in range(4)]
    assert steps == [Step.MOVED, Step.MOVED, Step.AT_LIMIT, Step.AT_LIMIT]
    entry.press(B)
    entry.press(G)
    assert entry.wager == Wager("even", 1)  # "all in, then one back" leaves one


def test_the_lead_investigator_cannot_lock_in_nothing():
    entry = WagerEntry(pool=3, minimum=1)
    assert entry.press(G) is Step.REFUSED and not entry.locked
    assert "at least 1" in entry.problem and "even" not in entry.problem and "odd" not in entry.problem
    assert entry.press(B) is Step.MOVED and entry.press(G) is Step.LOCKED
    assert entry.wager == Wager("odd", 1) and entry.problem is None


def test_the_refusal_counts_points_in_plain_words():
    # issue 21: "point(s)" leaked onto the screen
    one, two = WagerEntry(pool=3, minimum=1), WagerEntry(pool=3, minimum=2)
    one.press(G)
    two.press(G)
    assert "at least 1 point is needed" in one.problem and "(s)" not in one.problem
    assert "at least 2 points is needed" in two.problem and "(s)" not in two.problem


def test_presses_after_locking_change_nothing():
    entry = WagerEntry(pool=5)
    for button in (W, G):
        entry.press(button)
    assert entry.press(W) is Step.CLOSED and entry.press(B) is Step.CLOSED
    assert entry.wager == Wager("even", 1)


def test_no_gray_no_wager():
    assert wager_from_presses([W, W], pool=4) is None


def test_an_empty_pool_can_only_wager_nothing():
    assert wager_from_presses([W, B, G], pool=0) == Wager(None, 0)


def test_impossible_entries_are_refused_by_name():
    with pytest.raises(ValueError, match="at least 2 cannot come from a pool of 1"):
        WagerEntry(pool=1, minimum=2)
    with pytest.raises(ValueError, match="cannot be negative"):
        WagerEntry(pool=-1)
    with pytest.raises(ValueError):
        WagerEntry(pool=2).press("red")


@settings(max_examples=200, deadline=None)
@given(
    presses=st.lists(st.sampled_from(list(ButtonColour)), max_size=30),
    pool=st.integers(0, 12),
    minimum=st.integers(0, 1),
)
def test_any_press_sequence_locks_a_legal_wager_or_none(presses, pool, minimum):
    if minimum > pool:
        return
    wager = wager_from_presses(presses, pool, minimum)
    if G not in presses:
        assert wager is None
    if wager is not None:
        assert minimum <= wager.points <= pool
        assert (wager.side is None) == (wager.points == 0)
        # the same needle, computed as a clamp: each colour press moves it, capped at the pool either way
        needle = 0
        for button in presses:
            if button is G and abs(needle) >= minimum:
                break
            if button is not G:
                needle = max(-pool, min(pool, needle + (1 if button is W else -1)))
        assert wager == Wager("even" if needle > 0 else "odd" if needle < 0 else None, abs(needle))
