"""The tray's weight tracker (firmware/tray/weight.py) on codes from the weighing model."""

from __future__ import annotations

import pytest

from firmware.tray.heat import Calibration
from firmware.tray.weight import TOO_VARIED, WeighCalibration, WeightTracker, calibrate_weighing, max_spread
from hardware.weighing import DiceSet, ScaleDesign, WeighingChain

LINE = Calibration(320, 16)  # the VL53L0X over the Heat, as the ideal model reads it


def tracked(start: int = 6, seed: int = 1) -> tuple[WeighingChain, WeightTracker]:
    chain = WeighingChain(seed=seed, start_dice=start)
    calibration = calibrate_weighing([chain.still_codes(k, 40) for k in range(15)])
    return chain, WeightTracker(calibration, distance=LINE)


def run(chain: WeighingChain, tracker: WeightTracker, until: float, t0: float = 0.0,
        distance=lambda t: None) -> list[tuple[float, dict]]:
    """Feed codes (and a VL53L0X reading every 33 ms) from ``t0`` to ``until``; the events, timed."""
    out = []
    t = t0
    while t < until:
        t = round(t + 0.033, 6)
        for e in tracker.see(distance(t), t):
            out.append((t, e))
        for tw, code in chain.codes_until(t):
            out.extend((tw, e) for e in tracker.feed(code, tw))
    return out


def kinds(events) -> list[str]:
    return [e["type"] for _, e in events]


def test_the_first_count_is_the_dice_on_the_plinth():
    chain, tracker = tracked(start=9)
    events = run(chain, tracker, 0.5)
    assert events[0][1] == {"type": "height", "dice": 9}
    assert tracker.level == 9


def test_a_fall_is_flagged_at_once_and_counted_once_the_plinth_is_still():
    chain, tracker = tracked(start=10)
    run(chain, tracker, 1.0, distance=lambda t: 160)
    chain.fall(1.0, 4)
    events = run(chain, tracker, 2.0, t0=1.0, distance=lambda t: 224)
    assert kinds(events) == ["falling", "collapse", "height"]
    flagged, counted = events[0][0], events[1][0]
    assert events[0][1] == {"type": "falling", "dice": 10}
    assert events[1][1] == {"type": "collapse", "fell": 4, "standing": 6}
    assert flagged - 1.0 < 0.1 and counted - 1.0 < 0.3


def test_a_die_lifted_off_by_a_seen_hand_is_removed_not_a_fall():
    chain, tracker = tracked(start=5)
    run(chain, tracker, 1.0, distance=lambda t: 240)
    chain.take(1.2)
    hand = lambda t: 150 if 1.0 <= t <= 1.5 else 256  # noqa: E731 (the back of a hand over the stack)
    events = run(chain, tracker, 2.5, t0=1.0, distance=hand)
    assert kinds(events) == ["removed", "height"]
    assert events[0][1] == {"type": "removed", "dice": 4}
    assert events[0][0] > 1.5  # counted once the hand had gone


def test_a_die_put_on_by_a_hand_is_added_whatever_the_fingers_pressed_meanwhile():
    chain, tracker = tracked(start=3)
    run(chain, tracker, 1.0, distance=lambda t: 272)
    chain.put(1.2)
    events = run(chain, tracker, 2.5, t0=1.0, distance=lambda t: 150 if 1.0 <= t <= 1.5 else 256)
    assert kinds(events) == ["added", "height"]
    assert tracker.level == 4


def test_a_d10_coming_to_rest_on_top_is_not_a_die_and_a_hand_taking_it_off_changes_nothing():
    chain, tracker = tracked(start=4)
    run(chain, tracker, 1.0, distance=lambda t: 256)
    chain.rest_d10(1.1)
    events = run(chain, tracker, 2.0, t0=1.0, distance=lambda t: 240)
    assert "added" not in kinds(events) and tracker.level == 4
    chain.clear_extras(2.3)
    events = run(chain, tracker, 3.5, t0=2.0, distance=lambda t: 150 if 2.1 <= t <= 2.6 else 256)
    assert not [k for k in kinds(events) if k in ("added", "removed", "collapse", "falling")]
    assert tracker.level == 4 and tracker.extra == 0.0


def test_a_d10_striking_the_stack_that_holds_raises_no_alarm():
    chain, tracker = tracked(start=8)
    run(chain, tracker, 1.0, distance=lambda t: 192)
    for k in range(5):
        chain.strike(1.0 + k * 0.4, strength=1.0)
        chain.floor_knock(1.0 + k * 0.4)
    events = run(chain, tracker, 3.5, t0=1.0, distance=lambda t: 192)
    assert not [k for k in kinds(events) if k in ("falling", "collapse")]


def test_the_zero_follows_a_drifting_cell_while_the_plinth_is_empty():
    chain, tracker = tracked(start=0)
    before = tracker.calibration.zero
    run(chain, tracker, 5.0)
    chain.zero_code += 300  # a drift of about a tenth of a die
    run(chain, tracker, 10.0, t0=5.0)
    assert tracker.calibration.zero - before == pytest.approx(300, abs=0.02 * tracker.calibration.per_die * 5)


def test_tare_on_demand_refuses_a_loaded_plinth_and_says_why():
    chain, tracker = tracked(start=3)
    run(chain, tracker, 0.5)
    assert tracker.tare() == "the plinth is not empty: take every die off, then tare"
    chain2, tracker2 = tracked(start=0, seed=2)
    run(chain2, tracker2, 0.5)
    assert tracker2.tare() is None


def test_the_watchman_calls_out_weight_and_height_two_dice_apart_for_two_seconds():
    chain, tracker = tracked(start=6)
    events = run(chain, tracker, 1.9, distance=lambda t: 320 - 16 * 3)  # the VL53L0X sees three dice
    assert "mismatch" not in kinds(events)
    events = run(chain, tracker, 3.0, t0=1.9, distance=lambda t: 320 - 16 * 3)
    assert [e for _, e in events if e["type"] == "mismatch"] == [{"type": "mismatch", "weighed": 6, "seen": 3}]
    events = run(chain, tracker, 3.0, t0=1.9, distance=lambda t: 320 - 16 * 5)  # one die apart: no alarm
    assert "mismatch" not in kinds(events)


def test_calibration_learns_the_set_and_refuses_one_that_would_miscount_fourteen_dice():
    matched = WeighingChain(ScaleDesign(dice=DiceSet(spread=0.01)), seed=3)
    calibration = calibrate_weighing([matched.still_codes(k, 40) for k in range(15)])
    assert calibration.per_die == pytest.approx(4.4 * matched.design.counts_per_g, rel=0.03)
    assert calibration.spread < max_spread()
    mixed = WeighingChain(ScaleDesign(dice=DiceSet(spread=0.06)), seed=3)
    with pytest.raises(ValueError, match=TOO_VARIED):
        calibrate_weighing([mixed.still_codes(k, 40) for k in range(15)])


def test_calibration_names_a_step_where_two_dice_went_on_at_once():
    chain = WeighingChain(seed=4)
    readings = [chain.still_codes(k, 20) for k in (0, 1, 2, 4, 5)]
    with pytest.raises(ValueError, match=r"die 3 weighed (19[5-9]|20[0-5]) % of the others"):
        calibrate_weighing(readings)


def test_a_weigh_calibration_turns_codes_into_dice():
    calibration = WeighCalibration(1000, 200)
    assert calibration.dice(1000 + 3 * 200) == 3.0
    with pytest.raises(ValueError):
        WeighCalibration(0, 0)


def test_dice_stacked_faster_than_counted_are_counted_not_taken_for_a_hand_that_never_leaves():
    # A maker stacks five dice, one every 0.25 s, and the VL53L0X reads the stack as it grows. The
    # count lags the weight meanwhile; the stack's own top must not read as a hand over the count
    # (which would hold the count back for ever).
    chain, tracker = tracked(start=0)
    run(chain, tracker, 1.0, distance=lambda t: 320)
    for k in range(5):
        chain.put(1.1 + 0.25 * k)
    stack = lambda t: 320 - 16 * chain.dice  # noqa: E731 (the stack's top, as the ideal model reads it)
    hand = lambda t: 150 if 1.0 <= t <= 2.5 and int(t * 30) % 3 == 0 else stack(t)  # noqa: E731
    events = run(chain, tracker, 4.0, t0=1.0, distance=hand)
    assert tracker.level == 5, events
    assert kinds(events).count("added") == 5
