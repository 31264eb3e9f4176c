"""Impact and settle detection on generated piezo traces and on the simulated table."""

import pytest

from firmware.tray.impact import ImpactDetector, level_from_counts
from hardware.config import GeometryConfig
from hardware.sim import TableSimulator

PERIOD_MS = 33


def run(detector, levels, start_ms=0, period_ms=PERIOD_MS):
    out = []
    for i, level in enumerate(levels):
        t = start_ms + i * period_ms
        for event in detector.feed(level, t):
            out.append((t, event))
    return out


def throw_trace(peak=0.8, ring=8, bounces=(0.2, 0.12)):
    """A landing: a spike, a ring-down, a couple of smaller bounces."""
    trace = [peak * 0.55**i for i in range(ring)]
    for b in bounces:
        trace += [b, b * 0.5, 0.02]
    return trace


def test_a_throw_gives_one_impact_then_one_settled():
    detector = ImpactDetector(settle_ms=600)
    events = run(detector, [0.01] * 10 + throw_trace() + [0.01] * 40)
    kinds = [e["type"] for _, e in events]
    assert kinds == ["impact", "settled"]
    assert events[0][1]["strength"] == pytest.approx(0.8)


def test_settled_comes_only_after_the_quiet_time():
    detector = ImpactDetector(settle_ms=600)
    trace = [0.01] * 5 + throw_trace()
    last_motion = max(i for i, level in enumerate(trace) if level >= detector.quiet_level)
    events = run(detector, trace + [0.01] * 40)
    settled_t = [t for t, e in events if e["type"] == "settled"][0]
    assert settled_t - last_motion * PERIOD_MS >= 600
    assert settled_t - last_motion * PERIOD_MS < 600 + PERIOD_MS
    assert [e for _, e in events if e["type"] == "settled"][0]["quiet_ms"] >= 600


def test_a_longer_settle_time_waits_longer():
    quick = run(ImpactDetector(settle_ms=200), throw_trace() + [0.0] * 60)
    slow = run(ImpactDetector(settle_ms=1500), throw_trace() + [0.0] * 60)
    assert [t for t, e in quick if e["type"] == "settled"][0] < [t for t, e in slow if e["type"] == "settled"][0]


def test_table_hum_and_a_die_set_down_by_hand_are_not_throws():
    detector = ImpactDetector()
    assert run(detector, [0.01, 0.02, 0.05, 0.015, 0.06, 0.01] * 50) == []


def test_two_throws_after_each_other_give_two_impacts():
    detector = ImpactDetector(settle_ms=400)
    events = run(detector, throw_trace() + [0.01] * 20 + throw_trace(peak=0.5) + [0.01] * 20)
    assert [e["type"] for _, e in events] == ["impact", "settled", "impact", "settled"]


def test_a_second_throw_before_the_tray_settles_is_the_same_burst():
    detector = ImpactDetector(settle_ms=600)
    events = run(detector, throw_trace() + [0.01] * 5 + throw_trace() + [0.01] * 30)
    assert [e["type"] for _, e in events] == ["impact", "settled"]


def test_missing_readings_count_as_quiet():
    detector = ImpactDetector(settle_ms=300)
    events = run(detector, throw_trace() + [None, float("nan")] * 10)
    assert [e["type"] for _, e in events] == ["impact", "settled"]


def test_thresholds_must_make_sense():
    with pytest.raises(ValueError):
        ImpactDetector(threshold=0.05, quiet_level=0.1)


def test_adc_counts_become_a_level_either_side_of_the_baseline():
    assert level_from_counts(32768, 32768) == 0
    assert level_from_counts(32768 + 16384, 32768) == pytest.approx(0.5, abs=0.01)
    assert level_from_counts(32768 - 16384, 32768) == pytest.approx(0.5, abs=0.01)
    assert level_from_counts(65535, 0) == 1.0


def test_every_simulated_landing_is_felt_once_and_settles():
    """Fifty throws on the simulated table: one impact per landing, each followed by settled."""
    sim = TableSimulator(GeometryConfig(), seed=11, start_dice=3)
    detector = ImpactDetector(settle_ms=600)
    impacts = settles = 0
    for n in range(50):
        sim.throw(accuracy=0.9, collapse=False)
        samples = sim.run_until_idle(extra=40)
        kinds = [e["type"] for s in samples for e in detector.feed(s.piezo, int(s.t * 1000))]
        assert kinds == ["impact", "settled"], (n, kinds)
        impacts += 1
        settles += 1
    assert impacts == settles == 50
