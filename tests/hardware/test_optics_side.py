"""The optical model with a sensor anywhere (hardware/optics.py, ``Pose`` and ``Shroud``): a
second VL53L0X on the arm's post looking across the bottom of the Heat (design "post"), and the
fusion of both sensors' readings into one height (firmware.tray.heat.FusedHeight)."""

from __future__ import annotations

import math
import random

import pytest

from firmware.tray.heat import FusedHeight, FusedTracker, SensorCurve, sensor_curve
from hardware.config import GeometryConfig
from hardware.optics import DESIGNS, Box, Design, OpticalSensor, Pose, Shroud, post_sensor
from hardware.sim import TableSimulator

GEOMETRY = GeometryConfig()


def looking_along_x(x: float, z: float, tilt_deg: float = 0.0, mouth_r: float = 3.0,
                    offset: float = 1.2) -> OpticalSensor:
    t = math.radians(tilt_deg)
    return OpticalSensor(GEOMETRY, Design(pose=Pose(x, 0.0, z, -math.cos(t), 0.0, -math.sin(t)),
                                          own_shroud=Shroud(20.0, mouth_r), crosstalk_mcps=0.0,
                                          aperture_offset_mm=offset))


def wall(x: float, reflectance: float = 0.8) -> tuple:
    """An upright target across the whole view, its face at ``x``."""
    return ((Box(x - 50.0, x, -300, 300, 0.0, 300.0, reflectance), "hand"),)


def test_a_sensor_looking_down_from_a_pose_reads_as_the_arms_own():
    """The general tracer gives the arm's sensor the same curve as the straight-down one."""
    arm = OpticalSensor(GEOMETRY, DESIGNS["low-limit"])
    shroud = arm.shroud
    posed = OpticalSensor(GEOMETRY, Design(signal_limit_mcps=0.06, sigma_limit_mm=60.0,
                                           pose=Pose(0.0, 0.0, shroud.lens_z, 0.0, 0.0, -1.0),
                                           own_shroud=Shroud(shroud.lens_z - shroud.mouth_z, shroud.mouth_r)))
    assert posed.curve() == pytest.approx(arm.curve(), abs=1e-6)


def test_a_sideways_sensor_reads_an_upright_target_at_its_distance_and_signal_falls_with_range_squared():
    sensor = looking_along_x(150.0, 100.0, offset=0.0)  # emitter and receiver at one point: no parallax
    near, far = sensor.reading(wall(75.0)), sensor.reading(wall(0.0))  # 75 and 150 mm away
    assert near.mean_mm == pytest.approx(75.0, abs=1.0) and far.mean_mm == pytest.approx(150.0, abs=1.0)
    assert near.signal_mcps / far.signal_mcps == pytest.approx(4.0, rel=0.1)


def test_a_sensor_looking_across_the_tray_sees_the_far_rim_past_an_empty_floor():
    sensor = looking_along_x(180.0, 12.0, mouth_r=2.0)  # in the rim, a die's height up, level
    empty = sensor.reading(())
    assert empty.shares.get("rim", 0) > 0.5 and empty.mean_mm > 300  # the far rim, 370 mm away
    one = sensor.reading(sensor.stack(1))
    assert one.mean_mm == pytest.approx(180.0 - 8.0, abs=8.0) and one.signal_mcps > 5 * empty.signal_mcps


def test_the_post_sensor_falls_die_by_die_over_short_stacks_and_is_flat_above():
    post = OpticalSensor(GEOMETRY, post_sensor(GEOMETRY))
    curve = [post.reading(post.stack(k)).mean_mm for k in range(GEOMETRY.max_heat_dice + 1)]
    assert all(b < a - 5.0 for a, b in zip(curve[:4], curve[1:5]))  # 0-4 dice: each one nearer, by 5 mm or more
    assert max(curve[5:]) - min(curve[5:]) < 1.0  # past its view: the same for every height
    # Where it gains: its step over one die against its spread, next to the arm's.
    arm = OpticalSensor(GEOMETRY, DESIGNS["low-limit"])
    for k in (1, 2, 3):
        a0, a1 = arm.reading(arm.stack(k - 1)), arm.reading(arm.stack(k))
        p0, p1 = post.reading(post.stack(k - 1)), post.reading(post.stack(k))
        assert (p0.mean_mm - p1.mean_mm) / p1.sigma_mm > 2 * (a0.mean_mm - a1.mean_mm) / a1.sigma_mm


def test_the_post_stands_where_the_enclosure_puts_it():
    pose = post_sensor(GEOMETRY).pose
    assert pose is not None and 190.0 < pose.x < 200.0  # between the rim's inside (190) and the post's axis


def curves_for(design: str, samples: int = 120) -> list[SensorCurve]:
    optics = OpticalSensor(GEOMETRY, DESIGNS[design])
    sensors = [optics] + [OpticalSensor(GEOMETRY, c) for c in optics.design.companions]
    rng = random.Random(4)
    return [sensor_curve([[s.sample(rng, s.stack(k))[0] for _ in range(samples)]
                          for k in range(GEOMETRY.max_heat_dice + 1)]) for s in sensors]


def test_fusing_the_post_sensor_reads_short_stacks_closer_to_their_height():
    curves = curves_for("post")
    fused, arm_only = FusedHeight(curves), FusedHeight(curves[:1])
    optics = OpticalSensor(GEOMETRY, DESIGNS["post"])
    post = OpticalSensor(GEOMETRY, optics.design.companions[0])
    rng = random.Random(9)
    for k in (1, 2, 3):
        err_fused = err_arm = 0.0
        for _ in range(300):
            a, p = optics.sample(rng, optics.stack(k))[0], post.sample(rng, post.stack(k))[0]
            err_fused += (fused.height([a, p]) - k) ** 2
            err_arm += (arm_only.height([a]) - k) ** 2
        assert err_fused < 0.5 * err_arm, k  # the fused height's spread is well under the arm's alone


def test_fusion_passes_on_something_over_the_stack_and_ignores_a_junk_reading():
    curves = curves_for("post")
    fusion = FusedHeight(curves)
    arm, post = curves[0], curves[1]
    assert fusion.height([arm.medians[2], post.medians[2]]) == pytest.approx(2.0, abs=0.3)
    # A hand 6 dice over a 2-die stack: only the arm sees it, and it is passed on as it is.
    assert fusion.height([arm.medians[8], post.medians[2]]) > 2 + fusion.occlude
    # A junk reading far past the floor says nothing: the post's reading decides.
    assert fusion.height([1190, post.medians[3]]) == pytest.approx(3.0, abs=0.5)
    assert fusion.height([None, None]) is None


def test_the_fused_tracker_sees_a_short_stack_fall_on_the_simulated_table():
    curves = curves_for("post")
    design = DESIGNS["post"]
    sim = TableSimulator(GEOMETRY, seed=11, start_dice=3, optics=OpticalSensor(GEOMETRY, design))
    tracker = FusedTracker(curves)
    events = []
    for _ in range(40):
        s = sim.tick()
        events += tracker.feed((s.distance_mm,) + s.others)
    assert {"type": "height", "dice": 3} in events
    sim.topple(3)
    for s in sim.run_until_idle(extra=40):
        if s.piezo >= 0.1:
            tracker.knock()
        events += tracker.feed((s.distance_mm,) + s.others)
    assert any(e["type"] == "collapse" and e["standing"] == 0 for e in events)


def test_companions_do_not_change_the_arms_readings():
    """The arm's readings are the same sample for sample with and without the post sensor, so the
    benchmark's "arm only" column is the one-sensor design on the very same table."""
    def arm_readings(design):
        sim = TableSimulator(GEOMETRY, seed=8, start_dice=6, optics=OpticalSensor(GEOMETRY, DESIGNS[design]))
        sim.throw(accuracy=0.5)
        sim.topple(2)
        return [s.distance_mm for s in sim.run_until_idle(extra=20)]

    assert arm_readings("post") == arm_readings("low-limit")
