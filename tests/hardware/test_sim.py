"""The simulated table: sensor behaviour, the record of what happened, and SimTray's events."""

import statistics
import threading

import pytest

from benchmarks.detection_bench import run as bench_run
from hardware.config import Config, GeometryConfig, load_config
from hardware.events import (
    Collapse,
    DieAdded,
    DieRemoved,
    DistanceSample,
    HeatHeight,
    LinkDown,
    LinkUp,
    ThrowImpact,
    ThrowSettled,
    Zone,
)
from hardware.sim import OUT_OF_RANGE_CODES, SimTray, TableSimulator

GEOMETRY = GeometryConfig()


def samples(sim, n):
    return [sim.tick() for _ in range(n)]


def test_the_same_seed_gives_the_same_table():
    def play(seed):
        sim = TableSimulator(GEOMETRY, seed=seed, start_dice=5)
        sim.throw(0.5)
        sim.add_die()
        return [(s.distance_mm, s.piezo) for s in sim.run_until_idle(extra=20)], sim.truth

    assert play(3) == play(3)
    assert play(3) != play(4)


def test_a_quiet_stack_reads_like_a_real_sensor():
    sim = TableSimulator(GEOMETRY, seed=1, start_dice=4)
    readings = [s.distance_mm for s in samples(sim, 5000)]
    good = [r for r in readings if r is not None and r not in OUT_OF_RANGE_CODES and abs(r - 256) < 20]
    assert statistics.median(good) == pytest.approx(320 - 4 * 16, abs=1)
    assert 1.0 < statistics.pstdev(good) < 5.0  # a few millimetres of noise
    dropouts = readings.count(None) / len(readings)
    codes = sum(r in OUT_OF_RANGE_CODES for r in readings) / len(readings)
    assert 0.002 < dropouts < 0.05 and 0.001 < codes < 0.02


def test_a_landing_rings_the_piezo_and_shakes_the_reading():
    sim = TableSimulator(GEOMETRY, seed=2, start_dice=9)
    quiet = samples(sim, 60)
    sim.throw(0.9, collapse=False)
    loud = sim.run_until_idle()
    assert max(s.piezo for s in quiet) < 0.05
    assert max(s.piezo for s in loud) >= 0.3
    landed = [t for t in sim.truth if t.kind == "landed"]
    assert len(landed) == 1 and not landed[0].hit_heat and sim.stack == 9


def test_a_forced_collapse_is_recorded_with_fallen_and_standing():
    sim = TableSimulator(GEOMETRY, seed=3, start_dice=7)
    sim.throw(0.4, zone="inside", face=6, collapse=True)
    sim.run_until_idle()
    fall, = [t for t in sim.truth if t.kind == "collapse"]
    landed, = [t for t in sim.truth if t.kind == "landed"]
    assert fall.fell + fall.standing == 7 and fall.fell >= 1
    assert sim.stack == fall.standing
    assert landed.hit_heat and landed.zone is Zone.INSIDE and landed.face == 6


def test_collapse_chance_grows_with_height_and_with_a_wild_throw():
    sim = TableSimulator(GEOMETRY, seed=0)
    assert sim.collapse_chance(2, 0.9) < sim.collapse_chance(8, 0.9) < sim.collapse_chance(12, 0.9)
    assert sim.collapse_chance(8, 0.9) < sim.collapse_chance(8, 0.3)
    assert sim.collapse_chance(0, 0.1) == 0


def test_tall_stacks_fall_more_often_than_short_ones_when_thrown_at():
    def falls(height):
        count = 0
        for seed in range(300):
            sim = TableSimulator(GEOMETRY, seed=seed, start_dice=height)
            count += sim.throw(0.5).hit_heat
        return count

    assert falls(2) < falls(11)


def test_partial_and_total_collapses_both_happen():
    kinds = set()
    for seed in range(60):
        sim = TableSimulator(GEOMETRY, seed=seed, start_dice=8)
        sim.topple()
        sim.run_until_idle()
        fall, = [t for t in sim.truth if t.kind == "collapse"]
        kinds.add("total" if fall.standing == 0 else "partial")
    assert kinds == {"total", "partial"}


def test_hands_add_and_remove_one_die_each():
    sim = TableSimulator(GEOMETRY, seed=4, start_dice=3)
    sim.add_die()
    sim.add_die()
    sim.remove_die()
    trace = sim.run_until_idle()
    assert [(t.kind, t.dice) for t in sim.truth] == [("added", 4), ("added", 5), ("removed", 4)]
    # The hand is in the beam: readings far closer than the stack top.
    assert min(s.distance_mm for s in trace if s.distance_mm) < 320 - 5 * 16 - 20


def test_impossible_actions_say_why():
    sim = TableSimulator(GEOMETRY, seed=5, start_dice=0)
    with pytest.raises(ValueError, match="no die"):
        sim.remove_die()
    with pytest.raises(ValueError, match="no stack"):
        sim.topple()
    with pytest.raises(ValueError, match="accuracy"):
        sim.throw(1.5)
    with pytest.raises(ValueError, match="d10"):
        sim.throw(face=11)
    with pytest.raises(ValueError, match="start_dice"):
        TableSimulator(GEOMETRY, seed=5, start_dice=40)


# -- SimTray ----------------------------------------------------------------------

def tray_events(**kwargs):
    tray = SimTray(Config(), seed=kwargs.pop("seed", 1), realtime=False, stream_distance=False, **kwargs)
    got = []
    tray.subscribe(got.append)
    return tray, got


def test_simtray_reports_the_starting_heat_and_risk_dice():
    tray, got = tray_events()
    tray.step(20)
    assert isinstance(got[0], LinkUp)
    assert [e.dice for e in got if isinstance(e, HeatHeight)] == [2] and tray.heat == 2
    tray.add_die()
    tray.step_until_idle()
    tray.remove_die()
    tray.step_until_idle()
    changes = [e for e in got if isinstance(e, (DieAdded, DieRemoved, Collapse))]
    assert [(type(e), e.dice) for e in changes] == [(DieAdded, 3), (DieRemoved, 2)]
    times = [e.t for e in got]
    assert times == sorted(times)


def test_simtray_reports_a_topple_as_a_collapse():
    tray, got = tray_events(start_dice=6)
    tray.step(20)
    tray.topple(4)
    tray.step_until_idle()
    falls = [e for e in got if isinstance(e, Collapse)]
    assert [(e.fell, e.standing) for e in falls] == [(4, 2)] and tray.heat == 2


def test_simtray_reports_impact_then_settled_with_the_chosen_landing():
    tray, got = tray_events(seed=2)
    tray.step(20)
    tray.throw(0.95, zone="touching", face=7)
    tray.step_until_idle(extra=40)
    impacts = [e for e in got if isinstance(e, ThrowImpact)]
    settled = [e for e in got if isinstance(e, ThrowSettled)]
    assert len(impacts) == 1 and len(settled) == 1
    assert impacts[0].t < settled[0].t
    assert settled[0].zone is Zone.TOUCHING and settled[0].face == 7


def test_simtray_streams_raw_distances_without_error_codes():
    tray = SimTray(Config(), seed=3, realtime=False)
    got = []
    tray.subscribe(got.append)
    tray.step(400)
    readings = [e.mm for e in got if isinstance(e, DistanceSample)]
    assert len(readings) == 400
    assert not set(readings) & set(OUT_OF_RANGE_CODES)


def test_simtray_in_real_time_runs_on_its_own_and_closes_once():
    tray = SimTray(Config(), seed=4, realtime=True)
    seen = threading.Event()
    got = []

    def listener(event):
        got.append(event)
        if isinstance(event, HeatHeight):
            seen.set()

    tray.subscribe(listener)
    assert seen.wait(5.0), "no Heat height from the running simulator"
    tray.close()
    tray.close()
    assert sum(isinstance(e, LinkDown) for e in got) == 1
    assert not tray.connected


# -- the benchmark's own grading, on a small run ---------------------------------

def test_tracker_beats_a_naive_threshold_on_the_same_traces():
    totals, info = bench_run(throws=400, seed=11, window=15)
    tracker, naive = totals["tracker"], totals["naive"]
    assert info["throws"] == 400 and tracker["real"] > 20
    assert tracker["false"] == 0 and tracker["missed"] == 0 and tracker["wrong_count"] == 0
    assert naive["false"] > 100
    assert tracker["added"][0] == tracker["added"][1] and tracker["removed"][0] == tracker["removed"][1]


def test_a_sensor_with_a_range_error_reads_right_once_calibrated():
    from firmware.tray.heat import Calibration, HeatTracker, calibrate_from

    def readings(dice, n=40):
        sim = TableSimulator(GEOMETRY, seed=dice, start_dice=dice, offset_mm=12.0)
        return [s.distance_mm for s in samples(sim, n)]

    nominal = HeatTracker(Calibration(GEOMETRY.sensor_height_mm, GEOMETRY.die_size_mm))
    for mm in readings(3):
        nominal.feed(mm)
    assert nominal.level != 3  # 12 mm off is most of a die

    calibration = calibrate_from(readings(0), readings(4), 4)
    tracker = HeatTracker(calibration)
    for mm in readings(3):
        tracker.feed(mm)
    assert tracker.level == 3


# -- issue 19, defect 7: every sim control is safe to press ---------------------------------------
def test_sim_controls_on_an_empty_tray_do_nothing_and_say_why():
    tray = SimTray(load_config(), seed=4, realtime=False, start_dice=0)
    events = []
    tray.subscribe(events.append)
    assert "no die" in tray.remove_die()  # used to raise ValueError out of the panel's button
    assert "no stack" in tray.topple()
    assert tray.refusal == "there is no stack to topple"
    tray.step_until_idle()
    assert tray.heat == 0 and not any(type(e).__name__ in ("Collapse", "DieRemoved") for e in events)
    assert tray.add_die() is None and tray.refusal is None  # a possible action clears the note
    tray.step_until_idle()
    assert tray.heat == 1


def test_adding_past_the_tallest_heat_is_refused_not_raised():
    config = load_config()
    tray = SimTray(config, seed=5, realtime=False, start_dice=config.geometry.max_heat_dice)
    assert "most this tray measures" in tray.add_die()
    assert tray.sim.planned_dice == config.geometry.max_heat_dice


def test_monitor_keys_on_an_empty_sim_table_print_why_and_keep_running():
    import io

    from hardware import cli
    from hardware.backends.sim_pads import SimPads

    pads, tray = SimPads(6), SimTray(load_config(), seed=6, realtime=False, start_dice=0)
    monitor = cli.Monitor(io.StringIO(), start=0.0)
    monitor.attach(pads, tray)
    for key in "-!-":
        assert cli.press_key(key, pads, tray, say=monitor.note)
    assert cli.press_key("-", pads, tray)  # without a listener it is still safe
    text = monitor.out.getvalue()
    assert text.count("sim    there is no die on the tray to take off") == 2
    assert "sim    there is no stack to topple" in text
    tray.close()
