"""The Heat tracker on generated traces, one situation at a time.

Each trace is built by hand from a few pieces (a steady stack with sensor
noise, a hand over the stack, a thrown die crossing the beam, a fall) so a
failure points at the situation that broke. The benchmark
(benchmarks/detection_bench.py) runs the same tracker over thousands of
simulated throws.
"""

import ast
import pathlib
import random

import pytest

from firmware.tray.heat import Calibration, HeatTracker, calibrate_from

EMPTY, DIE = 320.0, 16.0
CAL = Calibration(EMPTY, DIE)


def mm(dice, rng, sd=2.5):
    return int(round(EMPTY - dice * DIE + rng.gauss(0, sd)))


def steady(dice, n, rng, sd=2.5):
    return [mm(dice, rng, sd) for _ in range(n)]


def hand(dice, n, rng):
    """A hand 3-9 cm over a stack of ``dice``."""
    return [int(EMPTY - dice * DIE - rng.uniform(30, 90)) for _ in range(n)]


def run(trace, tracker=None):
    tracker = tracker or HeatTracker(CAL)
    out = []
    for i, reading in enumerate(trace):
        for event in tracker.feed(reading, i * 0.033):
            out.append((i, event))
    return tracker, out


def kinds(events, kind):
    return [(i, e) for i, e in events if e["type"] == kind]


# -- calibration --------------------------------------------------------------

def test_height_is_measured_in_dice_from_the_tray_floor():
    assert CAL.height(320) == 0
    assert CAL.height(320 - 5 * 16) == 5
    assert CAL.distance(3) == 320 - 48


def test_calibration_from_noisy_readings_ignores_dropouts_and_codes():
    rng = random.Random(1)
    empty = steady(0, 30, rng) + [None, 8190, 8191, None]
    stack = steady(4, 30, rng) + [None, 8190]
    cal = calibrate_from(empty, stack, 4)
    assert cal.empty_mm == pytest.approx(320, abs=1.5)
    assert cal.die_mm == pytest.approx(16, abs=0.5)


def test_calibration_finds_a_sensor_mounted_at_another_height_with_other_dice():
    rng = random.Random(2)
    empty = [int(round(410 + rng.gauss(0, 2))) for _ in range(30)]
    stack = [int(round(410 - 3 * 19 + rng.gauss(0, 2))) for _ in range(30)]
    cal = calibrate_from(empty, stack, 3)
    assert cal.die_mm == pytest.approx(19, abs=0.6)
    tracker, events = run([int(410 - 5 * 19)] * 8, HeatTracker(cal))
    assert tracker.level == 5


@pytest.mark.parametrize(
    "empty, stack, dice, says",
    [
        ([320] * 10, [320] * 10, 2, "not closer than the empty tray"),
        ([None] * 10, [288] * 10, 2, "too few valid empty-tray readings"),
        ([320] * 10, [8190] * 10, 2, "too few valid stack readings"),
        ([320] * 10, [318] * 10, 2, "not a plausible die size"),
        ([320] * 10, [288] * 10, 0, "at least 1 die"),
        ([320] * 10, [288] * 10, "two", "whole number"),
    ],
)
def test_bad_calibration_says_what_is_wrong(empty, stack, dice, says):
    with pytest.raises(ValueError, match=says):
        calibrate_from(empty, stack, dice)


def test_calibration_refuses_impossible_values():
    with pytest.raises(ValueError, match="die_mm"):
        Calibration(320, 1)
    with pytest.raises(ValueError, match="empty_mm"):
        Calibration(5000, 16)


# -- the tracker --------------------------------------------------------------

def test_a_steady_noisy_stack_is_reported_once():
    rng = random.Random(3)
    tracker, events = run(steady(6, 300, rng, sd=3.0))
    assert [e for _, e in events] == [{"type": "height", "dice": 6}]
    assert tracker.level == 6


def test_dropouts_out_of_range_codes_and_single_spikes_change_nothing():
    rng = random.Random(4)
    trace = steady(5, 20, rng)
    for _ in range(40):
        trace += steady(5, rng.randint(3, 8), rng)
        trace.append(rng.choice([None, 8190, 8191, 0, 20, mm(3, rng), mm(2.5, rng), mm(9, rng), 5000]))
    tracker, events = run(trace + steady(5, 10, rng))
    assert [e["type"] for _, e in events] == ["height"]
    assert tracker.rejected > 0


def test_a_collapse_is_reported_at_once_with_how_many_fell():
    rng = random.Random(5)
    before = steady(8, 30, rng)
    trace = before + steady(5, 30, rng)
    tracker, events = run(trace)
    (i, collapse), = kinds(events, "collapse")
    assert collapse == {"type": "collapse", "fell": 3, "standing": 5}
    assert i - len(before) + 1 == 2  # on the second reading that shows it
    assert tracker.level == 5
    assert events[-1][1] == {"type": "height", "dice": 5}


def test_a_die_caught_mid_fall_does_not_set_the_count():
    rng = random.Random(6)
    # One reading of the falling dice, half way between the old top and the new one.
    trace = steady(9, 30, rng) + [mm(6.0, rng), mm(7.1, rng)] + steady(4, 20, rng)
    _, events = run(trace)
    assert [e for _, e in kinds(events, "collapse")] == [{"type": "collapse", "fell": 5, "standing": 4}]


def test_a_total_collapse_leaves_nothing_standing():
    rng = random.Random(7)
    trace = steady(11, 30, rng) + [None, mm(4.4, rng)] + steady(0, 20, rng)
    _, events = run(trace)
    (i, collapse), = kinds(events, "collapse")
    assert collapse == {"type": "collapse", "fell": 11, "standing": 0}
    assert i <= 30 + 3


def test_a_die_landing_beside_the_stack_is_not_a_change():
    rng = random.Random(8)
    trace = steady(7, 30, rng)
    for _ in range(20):
        # The d10 crosses the beam for a sample or two, then the tray rings: more noise, a bounce.
        trace += [int(EMPTY - 7 * DIE - rng.uniform(20, 150)) for _ in range(rng.randint(1, 2))]
        trace += steady(7, 12, rng, sd=4.0)
        trace[-6] = int(EMPTY - 7 * DIE - rng.uniform(10, 120))
        trace += steady(7, 20, rng)
    _, events = run(trace)
    assert [e["type"] for _, e in events] == ["height"]


def test_a_risk_die_put_on_by_hand_is_added():
    rng = random.Random(9)
    trace = steady(3, 30, rng) + hand(3, 8, rng) + hand(4, 4, rng) + steady(4, 20, rng)
    tracker, events = run(trace)
    assert [e for _, e in events][1:] == [{"type": "added", "dice": 4}, {"type": "height", "dice": 4}]
    assert tracker.level == 4


def test_a_die_taken_off_by_hand_is_removed_not_fallen():
    rng = random.Random(10)
    trace = steady(6, 30, rng) + hand(6, 10, rng) + hand(5, 3, rng) + steady(5, 20, rng)
    trace += hand(5, 9, rng) + [None, None] + hand(4, 2, rng) + steady(4, 20, rng)
    tracker, events = run(trace)
    assert [e for _, e in events if e["type"] != "height"] == [
        {"type": "removed", "dice": 5},
        {"type": "removed", "dice": 4},
    ]
    assert not kinds(events, "collapse")


def test_a_hand_that_touches_nothing_changes_nothing():
    rng = random.Random(11)
    trace = steady(4, 30, rng) + hand(4, 15, rng) + steady(4, 30, rng) + [mm(2, rng)] + steady(4, 10, rng)
    _, events = run(trace)
    assert [e["type"] for _, e in events] == ["height"]


def test_a_rebuild_after_a_fall_counts_every_die_back():
    rng = random.Random(12)
    trace = steady(5, 30, rng) + steady(2, 20, rng)  # the Heat falls: 3 dice
    for height in (3, 4, 5, 6):  # rebuilt to 5, plus one for Gain Heat
        trace += hand(height - 1, 8, rng) + steady(height, 15, rng)
    tracker, events = run(trace)
    changes = [e for _, e in events if e["type"] != "height"]
    assert changes[0] == {"type": "collapse", "fell": 3, "standing": 2}
    assert changes[1:] == [{"type": "added", "dice": n} for n in (3, 4, 5, 6)]
    assert tracker.level == 6


def test_a_rebuild_the_sensor_missed_is_caught_up_once_the_stack_stands_still():
    rng = random.Random(17)
    trace = steady(1, 30, rng) + [None] * 40 + steady(4, 20, rng)
    tracker, events = run(trace)
    assert [e for _, e in events if e["type"] != "height"] == [{"type": "added", "dice": n} for n in (2, 3, 4)]
    assert tracker.level == 4


def test_a_fall_while_the_sensor_was_blind_is_still_a_fall():
    rng = random.Random(13)
    trace = steady(7, 30, rng) + [None] * 15 + steady(4, 10, rng)
    _, events = run(trace)
    assert [e for _, e in kinds(events, "collapse")] == [{"type": "collapse", "fell": 3, "standing": 4}]


def test_a_die_bouncing_through_the_beam_just_after_a_fall_does_not_delay_it():
    rng = random.Random(15)
    before = steady(3, 30, rng)
    # Down to 1, low enough for a bounce to be seen: the fall needs three readings of the new
    # top, and the third comes after a fallen die crosses the beam.
    trace = before + [mm(1, rng), mm(1, rng), int(EMPTY - 40), mm(1, rng)] + steady(1, 10, rng)
    _, events = run(trace)
    (i, collapse), = kinds(events, "collapse")
    assert collapse == {"type": "collapse", "fell": 2, "standing": 1}
    assert i == len(before) + 3


def test_a_hand_half_hidden_by_a_blind_spell_still_counts_as_a_hand():
    rng = random.Random(16)
    trace = steady(5, 30, rng) + hand(5, 2, rng) + [None] * 12 + steady(4, 15, rng)
    _, events = run(trace)
    assert [e for _, e in events if e["type"] != "height"] == [{"type": "removed", "dice": 4}]


def test_nothing_is_reported_before_the_stack_is_seen_steady():
    tracker, events = run([None, 8190, 250, 170, 200, None])
    assert events == [] and tracker.level is None


def test_reset_forgets_the_stack_and_takes_a_new_calibration():
    rng = random.Random(14)
    tracker, _ = run(steady(3, 10, rng))
    tracker.reset(Calibration(400, 16))
    assert tracker.level is None
    _, events = run([int(400 - 2 * 16)] * 6, tracker)
    assert events[-1][1] == {"type": "height", "dice": 2}


# -- it must run on the RP2040 too ---------------------------------------------

def test_heat_module_stays_circuitpython_compatible():
    source = pathlib.Path(__file__).resolve().parents[2] / "firmware" / "tray" / "heat.py"
    tree = ast.parse(source.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
        assert not isinstance(node, ast.AnnAssign), "no variable annotations on CircuitPython"
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.returns is None and all(a.annotation is None for a in node.args.args), node.name
        if isinstance(node, ast.FormattedValue):
            raise AssertionError("keep to %-formatting in firmware code")
    assert imported <= {"math"}, imported


# -- falls that used to be slow or split (found by the benchmark) ---------------

def test_a_fall_to_one_die_read_lower_than_any_bounce_is_reported_on_the_first_reading_of_the_new_top():
    rng = random.Random(18)
    before = steady(10, 30, rng)
    # Dice on their way down, a lost reading, then the new top read 13 mm over the floor: a die
    # bouncing off the tray is higher than that, so this is the stack, and there is no waiting.
    trace = before + [mm(8.7, rng, sd=0), None, mm(0.8, rng, sd=0)] + steady(1, 20, rng)
    _, events = run(trace)
    (i, collapse), = kinds(events, "collapse")
    assert collapse == {"type": "collapse", "fell": 9, "standing": 1}
    assert i == len(before) + 2


def test_two_dice_caught_sliding_down_past_the_same_level_are_one_fall_of_two():
    rng = random.Random(19)
    before = steady(8, 30, rng)
    # Both readings near 7, the second 10 mm lower than the first: more than noise, two dice on
    # their way down. Reporting "1 fell" there would be followed by a second fall of one.
    trace = before + [mm(7.3, rng, sd=0), mm(6.7, rng, sd=0)] + steady(6, 20, rng)
    _, events = run(trace)
    (i, collapse), = kinds(events, "collapse")
    assert collapse == {"type": "collapse", "fell": 2, "standing": 6}
    assert i == len(before) + 2
