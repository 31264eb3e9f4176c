"""The steady tracker (firmware.tray.heat.SteadyTracker): under the optical model one reading's
spread is a die or more, so it weighs many readings before it moves the Heat. It must see falls
the one-reading tracker misses, count them, stay quiet over a still stack, and tell a die taken
off by hand (no knock) from a fall."""

from __future__ import annotations

import random

from firmware.tray.heat import KNOCK_LEVEL, CurveCalibration, HeatTracker, SteadyTracker, sensor_curve
from hardware.config import GeometryConfig
from hardware.optics import DESIGNS, OpticalSensor
from hardware.sim import TableSimulator

GEOMETRY = GeometryConfig()


def curves(design: str) -> list:
    optics = OpticalSensor(GEOMETRY, DESIGNS[design])
    sensors = [optics] + [OpticalSensor(GEOMETRY, c) for c in optics.design.companions]
    rng = random.Random(3)
    return [sensor_curve([[s.sample(rng, s.stack(k))[0] for _ in range(150)]
                          for k in range(GEOMETRY.max_heat_dice + 1)]) for s in sensors]


def play(design: str, seed: int, start: int, act, tracker, extra: int = 40, quiet: int = 40) -> list:
    sim = TableSimulator(GEOMETRY, seed=seed, start_dice=start, optics=OpticalSensor(GEOMETRY, DESIGNS[design]))
    samples = [sim.tick() for _ in range(quiet)]
    act(sim)
    samples += sim.run_until_idle(extra=extra)
    events = []
    for s in samples:
        if s.piezo >= KNOCK_LEVEL:
            tracker.knock()
        readings = (s.distance_mm,) + s.others if isinstance(tracker, SteadyTracker) else s.distance_mm
        events += tracker.feed(readings)
    return events


def collapses(events) -> list:
    return [(e["fell"], e["standing"]) for e in events if e["type"] == "collapse"]


def test_falls_the_one_reading_tracker_misses_are_seen_and_counted():
    cs = curves("low-limit")
    seen = exact = seen_by_old = exact_by_old = 0
    for seed in range(12):
        topple = lambda sim: sim.topple(3)  # noqa: E731
        got = collapses(play("low-limit", seed, 7, topple, SteadyTracker(cs)))
        old = collapses(play("low-limit", seed, 7, topple, HeatTracker(CurveCalibration(cs[0].medians))))
        seen, exact = seen + bool(got), exact + (got == [(3, 4)])
        seen_by_old, exact_by_old = seen_by_old + bool(old), exact_by_old + (old == [(3, 4)])
    # The same falls, on the very same readings: one reading at a time, most are missed.
    assert seen >= 11 and seen_by_old <= 6, (seen, seen_by_old)
    # Counting them stays hard (docs/sensing.md): better than one reading at a time, far from always.
    assert exact > exact_by_old, (exact, exact_by_old)


def test_a_still_stack_stays_where_it_is():
    for design in ("low-limit", "post"):
        cs = curves(design)
        for seed, start in ((1, 2), (2, 6), (3, 11)):
            sim = TableSimulator(GEOMETRY, seed=seed, start_dice=start,
                                 optics=OpticalSensor(GEOMETRY, DESIGNS[design]))
            tracker = SteadyTracker(cs)
            events = []
            for _ in range(1500):  # 50 s of a stack nobody touches
                s = sim.tick()
                events += tracker.feed((s.distance_mm,) + s.others)
            # No change reported; the first height may be put right once (a few noisy readings' median).
            assert {e["type"] for e in events} == {"height"} and len(events) <= 2, (design, start, events)
            assert events[-1] == {"type": "height", "dice": start}, (design, start, events)


def test_a_die_taken_off_by_hand_is_removed_not_fallen():
    cs = curves("post")
    removed = fell = 0

    def throw_then_take_one(sim):
        sim.throw(accuracy=0.9, zone="outside", collapse=False)  # the piezo is heard once: the tray has one
        sim.remove_die()  # after the throw has played out

    for seed in range(8):
        # (after the first height has settled: until then a lower height with no knock is taken as the
        # first height put right)
        events = play("post", seed, 4, throw_then_take_one, SteadyTracker(cs), extra=150, quiet=200)
        removed += any(e["type"] == "removed" for e in events)
        fell += bool(collapses(events))
    assert removed >= 6 and fell <= 2, (removed, fell)  # 6 and 2 of 8 by this model and seed
