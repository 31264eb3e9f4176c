"""The Heat tracker with the tray's piezo, and the falls that fooled it before.

With a piezo the tray tells the tracker of every knock it feels
(``HeatTracker.knock``): falling dice hit the tray, a hand lifting a die off
does not. The traces are built from the same pieces as test_heat.py; a knock
is given just before the reading at the same index.
"""

import random

from firmware.tray.app import TrayApp
from firmware.tray.heat import KNOCK_LEVEL, Calibration, HeatTracker
from hardware.config import load_config
from hardware.sim import SimTray

EMPTY, DIE = 320.0, 16.0
CAL = Calibration(EMPTY, DIE)


def mm(dice, rng, sd=2.5):
    return int(round(EMPTY - dice * DIE + rng.gauss(0, sd)))


def steady(dice, n, rng):
    return [mm(dice, rng) for _ in range(n)]


def hand(dice, n, rng):
    return [int(EMPTY - dice * DIE - rng.uniform(30, 90)) for _ in range(n)]


def run(trace, knocks=()):
    tracker = HeatTracker(CAL)
    out = []
    for i, reading in enumerate(trace):
        if i in knocks:
            tracker.knock(i * 0.033)
        for event in tracker.feed(reading, i * 0.033):
            out.append((i, event))
    return tracker, out


def changes(events):
    return [e for _, e in events if e["type"] != "height"]


# A d10 landing beside the stack early on: the tray has a working piezo from then on.
EARLY_KNOCK = 12


def test_a_die_taken_off_unseen_in_a_dropout_burst_is_removed_when_nothing_knocked():
    rng = random.Random(21)
    # The hand shows in one reading; the rest of its visit is lost in dropouts.
    trace = steady(5, 30, rng) + [None] * 6 + hand(5, 1, rng) + [None] * 5 + steady(4, 20, rng)
    _, events = run(trace, knocks={EARLY_KNOCK})
    assert changes(events) == [{"type": "removed", "dice": 4}]


def test_a_fall_in_a_dropout_burst_is_a_fall_when_the_tray_felt_it():
    rng = random.Random(22)
    trace = steady(7, 30, rng) + [None] * 15 + steady(4, 20, rng)
    _, events = run(trace, knocks={EARLY_KNOCK, 33})  # dice hit the tray while the sensor saw nothing
    assert changes(events) == [{"type": "collapse", "fell": 3, "standing": 4}]


def test_a_fall_whose_knock_comes_just_after_the_first_low_reading_is_still_a_fall():
    rng = random.Random(23)
    before = steady(8, 30, rng)
    # A bumped stack: one reading of dice on their way down, the new top, then the sensor loses
    # sight; the fallen dice hit the tray a moment after the stack started to go.
    trace = before + [mm(6.5, rng), mm(1, rng)] + [None] * 9 + steady(1, 20, rng)
    _, events = run(trace, knocks={EARLY_KNOCK, len(before) + 1})
    assert changes(events) == [{"type": "collapse", "fell": 7, "standing": 1}]


def test_a_hand_glimpsed_twice_with_no_knock_takes_a_die_off_rather_than_knocking_the_stack_down():
    rng = random.Random(24)
    trace = steady(5, 30, rng) + hand(5, 2, rng) + steady(4, 20, rng)
    _, events = run(trace, knocks={EARLY_KNOCK})
    assert changes(events) == [{"type": "removed", "dice": 4}]


def test_a_die_taken_off_during_a_blind_spell_is_removed_even_if_a_d10_lands_as_the_sensor_sees_again():
    rng = random.Random(28)
    # A hand at the stack, the sensor blind while it takes a die, then a d10 crossing the beam
    # and landing beside the stack (a knock) just as the stack is seen again, one die lower.
    before = steady(11, 30, rng) + hand(11, 3, rng) + [None] * 12 + hand(11, 1, rng)
    trace = before + steady(10, 20, rng)
    _, events = run(trace, knocks={EARLY_KNOCK, len(before)})
    assert changes(events) == [{"type": "removed", "dice": 10}]


def test_a_d10_crossing_the_beam_then_knocking_the_stack_down_is_a_fall():
    rng = random.Random(25)
    before = steady(9, 30, rng) + hand(9, 2, rng)  # the d10 on its way in
    trace = before + steady(6, 20, rng)
    tracker, events = run(trace, knocks={EARLY_KNOCK, len(before)})
    (i, collapse), = [(i, e) for i, e in events if e["type"] == "collapse"]
    assert collapse == {"type": "collapse", "fell": 3, "standing": 6}
    assert i == len(before) + 1


# -- falls that used to be split in two, or slow (no piezo needed) ---------------

def test_dice_caught_falling_and_a_bounce_at_the_same_level_do_not_split_the_fall():
    rng = random.Random(26)
    # Down from 6 to 1: the first reading catches the dice falling past 4, the second is a fallen
    # die bouncing 59 mm off the floor (the tracker allows for bounces up to 60 mm), also near 4;
    # then the new top.
    trace = steady(6, 30, rng) + [mm(4.1, rng, sd=0), mm(3.7, rng, sd=0)] + steady(1, 20, rng)
    for knocks in ((), {30}):
        _, events = run(trace, knocks)
        assert changes(events) == [{"type": "collapse", "fell": 5, "standing": 1}]


def test_a_fall_seen_on_its_way_down_for_two_samples_is_reported_on_the_first_reading_of_the_new_top():
    rng = random.Random(27)
    before = steady(10, 30, rng)
    trace = before + [mm(8.7, rng, sd=0), mm(7.3, rng, sd=0)] + steady(5, 20, rng)
    _, events = run(trace)
    (i, collapse), = [(i, e) for i, e in events if e["type"] == "collapse"]
    assert collapse == {"type": "collapse", "fell": 5, "standing": 5}
    assert i == len(before) + 2  # the third reading that shows the fall: the first of the new top


# -- wiring --------------------------------------------------------------------

def test_the_firmware_app_passes_knocks_over_the_knock_level_to_the_tracker():
    app = TrayApp(lambda line: True)
    app.on_piezo(KNOCK_LEVEL / 2, 100)  # a die set down by hand: a faint tap
    assert not app.tracker.knocks
    app.on_piezo(0.6, 133)  # a d10 landing
    assert app.tracker.knocks


def test_the_simulated_tray_passes_its_piezo_knocks_to_the_tracker():
    tray = SimTray(load_config(), seed=5, realtime=False, weigh=False)  # the VL53L0X-only tray
    try:
        tray.step(20)
        assert not tray.tracker.knocks
        tray.throw(accuracy=1.0)
        tray.step_until_idle()
        assert tray.tracker.knocks
    finally:
        tray.close()


def test_the_weighing_simulated_tray_passes_its_piezo_knocks_to_the_weight_tracker():
    tray = SimTray(load_config(), seed=5, realtime=False)
    try:
        tray.step(20)
        assert tray.weight is not None and tray.weight._knock_t is None
        tray.throw(accuracy=1.0)
        tray.step_until_idle()
        assert tray.weight._knock_t is not None
    finally:
        tray.close()
