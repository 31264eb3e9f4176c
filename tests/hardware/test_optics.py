"""The optical model of the VL53L0X over the Heat (hardware/optics.py) behaves as the sensor's
documentation says a time-of-flight sensor does: one distance for everything in view, weighted
by the signal each surface returns; signal falling with range squared; noise growing as the
signal falls; error codes when the signal is too weak."""

from __future__ import annotations

import random

import pytest

from hardware.config import GeometryConfig
from hardware.optics import DESIGNS, OUT_OF_RANGE, Box, Design, OpticalSensor, shroud_for
from hardware.sim import TableSimulator

GEOMETRY = GeometryConfig()


def plate(z: float, reflectance: float = 0.8) -> tuple:
    """A flat target wider than anything the shroud lets the sensor see, its top at height z."""
    return ((Box(-200, 200, -200, 200, 0.0, z, reflectance), "hand"),)


def test_the_shroud_is_the_enclosures_own():
    shroud = shroud_for(GEOMETRY)
    # enclosure/README.md: lens 320 mm, mouth 6.3 mm wide at 244 mm, 23.0 mm seen around the axis at the floor
    assert (shroud.lens_z, shroud.mouth_z) == (320.0, 244.0)
    assert round(2 * shroud.mouth_r, 1) == 6.3 and round(shroud.view_radius_at(0), 1) == 23.0
    taller = shroud_for(GeometryConfig(sensor_height_mm=400.0))
    assert taller.mouth_z == 280.0 and taller.mouth_r > shroud.mouth_r  # follows the configuration


def test_a_flat_target_filling_the_view_reads_its_own_distance():
    optics = OpticalSensor(GEOMETRY, Design(crosstalk_mcps=0.0))
    for z in (0.0, 60.0, 150.0, 200.0):
        reading = optics.reading(plate(z) if z else ())
        assert reading.mean_mm == pytest.approx(320.0 - z, abs=0.6)  # slant of the outer rays: well under 1 mm


def test_signal_from_a_full_field_target_falls_with_range_squared():
    # Emitter and receiver at one point, so the receiver sees all the light that goes out.
    optics = OpticalSensor(GEOMETRY, Design(crosstalk_mcps=0.0, aperture_offset_mm=0.0))
    near, far = optics.reading(plate(160.0)), optics.reading(())  # 160 mm and 320 mm from the lens
    assert near.signal_mcps / far.signal_mcps == pytest.approx(4.0, rel=0.02)
    # With the package's two apertures apart, the receiver misses part of a far spot (parallax): less still.
    apart = OpticalSensor(GEOMETRY, Design(crosstalk_mcps=0.0))
    assert apart.reading(plate(160.0)).signal_mcps / apart.reading(()).signal_mcps > 4.2
    dark = optics.reading(plate(160.0, reflectance=0.2))
    assert dark.signal_mcps / near.signal_mcps == pytest.approx(0.25, rel=0.001)  # and with reflectance
    assert dark.mean_mm == pytest.approx(near.mean_mm)  # the distance does not depend on reflectance


def test_two_targets_in_view_read_as_their_signal_weighted_mean():
    optics = OpticalSensor(GEOMETRY, Design(crosstalk_mcps=0.0))
    one_die = optics.reading(optics.stack(1))
    shares = one_die.shares
    assert 0.2 < shares["floor"] < 0.5 and shares["die"] == pytest.approx(1 - shares["floor"])
    # Neither the floor (320 mm) nor the die's top (304 mm): between them, by their shares of the signal.
    expected = shares["floor"] * 320.0 + shares["die"] * 304.0
    assert one_die.mean_mm == pytest.approx(expected, abs=0.6)
    assert 304.0 < one_die.mean_mm < 320.0
    # A brighter die pulls the reading nearer its own distance.
    bright = OpticalSensor(GEOMETRY, Design(crosstalk_mcps=0.0, reflectance={"floor": 0.3, "die": 0.9,
                                                                             "hand": 0.5, "d10": 0.6}))
    assert bright.reading(bright.stack(1)).mean_mm < one_die.mean_mm


def test_a_die_off_to_one_side_is_partly_or_not_seen():
    optics = OpticalSensor(GEOMETRY, Design(crosstalk_mcps=0.0))
    centre = optics.reading(optics.stack(1)).mean_mm
    edge = optics.reading(optics.stack(1, offset=(12.0, 0.0))).mean_mm
    outside = optics.reading(optics.stack(1, offset=(40.0, 0.0))).mean_mm
    assert centre < edge < outside == pytest.approx(320.0, abs=0.6)  # past the Heat circle: out of view


@pytest.mark.parametrize("design", sorted(DESIGNS))
def test_a_taller_stack_always_reads_closer(design):
    curve = OpticalSensor(GEOMETRY, DESIGNS[design]).curve()
    assert all(b < a for a, b in zip(curve, curve[1:])), curve
    # ...but not one die-size per die: short stacks fill little of the view, so they read near the floor.
    assert curve[0] - curve[1] < 0.8 * GEOMETRY.die_size_mm


def test_noise_grows_as_the_signal_falls():
    optics = OpticalSensor(GEOMETRY, DESIGNS["low-limit"])
    readings = [optics.reading(optics.stack(k)) for k in range(GEOMETRY.max_heat_dice + 1)]
    signals = [r.signal_mcps for r in readings]
    sigmas = [r.sigma_mm for r in readings]
    assert signals == sorted(signals) and sigmas == sorted(sigmas, reverse=True)
    rng = random.Random(1)
    floor = [optics.sample(rng, ())[0] for _ in range(400)]
    top = [optics.sample(rng, optics.stack(14))[0] for _ in range(400)]
    assert 0 < floor.count(OUT_OF_RANGE[2]) < 20  # near the signal limit a few readings fail
    floor_sd = _sd([mm for mm in floor if mm < 8190])
    top_sd = _sd(top)
    assert floor_sd > 3 * top_sd
    assert floor_sd == pytest.approx(readings[0].sigma_mm, rel=0.2)


def test_ambient_light_adds_noise():
    dark = OpticalSensor(GEOMETRY, Design(ambient_mcps=0.0)).reading(())
    sunny = OpticalSensor(GEOMETRY, Design(ambient_mcps=1.0)).reading(())
    assert sunny.sigma_mm > 2 * dark.sigma_mm and sunny.mean_mm == dark.mean_mm


def test_too_weak_a_signal_is_an_error_code_not_a_distance():
    optics = OpticalSensor(GEOMETRY, DESIGNS["as-built"])
    floor = optics.reading(())
    assert floor.signal_mcps < optics.design.signal_limit_mcps and floor.status == 2
    rng = random.Random(2)
    assert {optics.sample(rng, ())[0] for _ in range(50)} == {OUT_OF_RANGE[2]}
    tall = optics.reading(optics.stack(14))
    assert tall.status == 0  # near the lens the same die returns plenty


def test_crosstalk_from_the_shroud_pulls_every_reading_short():
    clean = OpticalSensor(GEOMETRY, Design(crosstalk_mcps=0.0)).reading(())
    bare_pla = OpticalSensor(GEOMETRY, Design(crosstalk_mcps=0.02)).reading(())
    assert clean.mean_mm == pytest.approx(320.0, abs=0.6)
    assert 250.0 < bare_pla.mean_mm < clean.mean_mm - 30.0


def test_the_simulator_with_the_optical_model_is_seeded_and_sees_the_stack_fall():
    def run(seed):
        sim = TableSimulator(GEOMETRY, seed=seed, start_dice=12, optics=OpticalSensor(GEOMETRY, DESIGNS["low-limit"]))
        before = [sim.tick().distance_mm for _ in range(30)]
        sim.topple(12)
        after = [s.distance_mm for s in sim.run_until_idle(extra=30)][-30:]
        return before, after

    before, after = run(5)
    assert run(5) == (before, after)
    valid = lambda xs: sorted(x for x in xs if x is not None and x < 8190)  # noqa: E731
    assert valid(before)[len(valid(before)) // 2] < 160 < 260 < valid(after)[len(valid(after)) // 2]


def test_the_ideal_model_is_unchanged_by_the_optical_one():
    """The old model's table (same seed) is what it was: its benchmark figures stay comparable."""
    sim = TableSimulator(GEOMETRY, seed=3, start_dice=4)
    assert [sim.tick().distance_mm for _ in range(6)] == [254, 256, 257, 253, 258, 260]


def _sd(values):
    mean = sum(values) / len(values)
    return (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5
