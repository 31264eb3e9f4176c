"""Properties of the Heat tracker over many generated traces (hypothesis).

The noise here is bounded (up to 4 mm, a quarter of a die) so each property
is a promise the tracker can keep every time, not a rate; the benchmark
measures rates under unbounded noise.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.tray.heat import Calibration, HeatTracker

EMPTY, DIE = 320.0, 16.0
CAL = Calibration(EMPTY, DIE)
SETTINGS = settings(max_examples=150, deadline=None)

noise = st.integers(min_value=-4, max_value=4)


def at(dice, e=0):
    return int(round(EMPTY - dice * DIE + e))


def feed_all(trace):
    tracker = HeatTracker(CAL)
    events = []
    for i, reading in enumerate(trace):
        events += [(i, e) for e in tracker.feed(reading, i * 0.033)]
    return tracker, events


glitch = st.one_of(st.none(), st.sampled_from([8190, 8191, 0, 20, 5000]), st.integers(min_value=0, max_value=1200))


@SETTINGS
@given(
    height=st.integers(min_value=0, max_value=14),
    errors=st.lists(noise, min_size=40, max_size=160),
    glitches=st.lists(st.tuples(st.integers(min_value=0, max_value=10_000), glitch), max_size=12),
)
def test_a_steady_stack_with_isolated_glitches_reports_only_its_height(height, errors, glitches):
    trace = [at(height, e) for e in errors]
    placed = []
    for position, value in glitches:
        i = 6 + position % (len(trace) - 8)  # after the first height is taken
        if all(abs(i - j) >= 3 for j in placed):  # isolated: two good readings between glitches
            trace[i] = value
            placed.append(i)
    tracker, events = feed_all(trace)
    assert [e for _, e in events] == [{"type": "height", "dice": height}]
    assert tracker.level == height


@SETTINGS
@given(
    top=st.integers(min_value=1, max_value=14),
    data=st.data(),
    before=st.lists(noise, min_size=10, max_size=40),
    after=st.lists(noise, min_size=6, max_size=30),
    tumble=st.one_of(st.none(), st.floats(min_value=0.0, max_value=1.0)),
    dropout=st.booleans(),
)
def test_every_fall_is_reported_once_with_the_right_count(top, data, before, after, tumble, dropout):
    standing = data.draw(st.integers(min_value=0, max_value=top - 1), label="standing")
    trace = [at(top, e) for e in before]
    start = len(trace)
    if tumble is not None:  # one reading of dice on their way down
        trace.append(at(standing + tumble * (top - standing)))
    if dropout:
        trace.append(None)
    trace += [at(standing, e) for e in after]
    tracker, events = feed_all(trace)
    falls = [(i, e) for i, e in events if e["type"] == "collapse"]
    assert [e for _, e in falls] == [{"type": "collapse", "fell": top - standing, "standing": standing}]
    assert [e["type"] for _, e in events].count("height") == 2
    i, _ = falls[0]
    # Two readings of the new top; three where a die bouncing off the floor reaches (1-4 dice of 16 mm).
    assert i - start + 1 <= 2 + (1 <= standing <= 4) + (tumble is not None) + dropout
    assert tracker.level == standing


@SETTINGS
@given(
    top=st.integers(min_value=1, max_value=13),
    change=st.sampled_from([+1, -1]),
    hand=st.lists(st.floats(min_value=1.6, max_value=8.0), min_size=6, max_size=14),
    errors=st.lists(noise, min_size=40, max_size=40),
)
def test_a_die_put_on_or_taken_off_by_hand_is_never_a_fall(top, change, hand, errors):
    new = top + change
    trace = [at(top, e) for e in errors[:20]]
    trace += [max(40, at(max(top, new) + h)) for h in hand]  # a hand keeps 4 cm clear of the sensor
    trace += [at(new, e) for e in errors[20:]]
    tracker, events = feed_all(trace)
    kind = "added" if change > 0 else "removed"
    assert [e for _, e in events if e["type"] != "height"] == [{"type": kind, "dice": new}]
    assert tracker.level == new
