"""The sensor arm holds the VL53L0X where it can measure the Heat.

Measured on the rendered arm (enclosure/checks.py reads the lens plane and the
shroud's mouth off the STL), against the same configuration the software uses.
"""

import math

import pytest

from enclosure import build as enclosure_build
from enclosure.checks import HEAT_ZONE_DICE, arm_problems, measure_arm
from enclosure.stl import read_stl
from hardware.config import ConfigError, GeometryConfig, parse_config

from .conftest import needs_openscad


def geometry_with(base: GeometryConfig, **changes) -> GeometryConfig:
    """A geometry that skips the validator, to see what the models and checks do with bad values."""
    return GeometryConfig.model_construct(**{**base.model_dump(), **changes})


# ---- the configuration refuses a table that cannot measure the Heat -------------------

def test_config_accepts_the_shipped_geometry(config):
    assert config.geometry.sensor_height_mm - config.geometry.max_heat_dice * config.geometry.die_size_mm >= 66


@pytest.mark.parametrize("changes, named", [
    ({"die_size_mm": 20.0}, "sensor_height_mm"),          # 14 x 20 mm = 280 mm: only 40 mm left under the lens
    ({"sensor_height_mm": 280.0}, "sensor_height_mm"),    # 224 mm Heat, 56 mm left: below 50 mm + one die
    ({"sensor_height_mm": 990.0}, "too far"),              # beyond 0.8 x 1200 mm
])
def test_config_refuses_a_sensor_that_cannot_measure_the_heat(changes, named):
    with pytest.raises(ConfigError) as err:
        parse_config({"geometry": changes})
    assert named in str(err.value)


# ---- the rendered arm ---------------------------------------------------------------------

@needs_openscad
def test_lens_sits_at_the_configured_height_and_passes_every_check(config, mesh):
    view = measure_arm(mesh("arm_assembly"))
    assert view.lens_z == pytest.approx(config.geometry.sensor_height_mm, abs=0.5)
    assert arm_problems(view, config.geometry) == []


@needs_openscad
def test_tallest_heat_stays_beyond_minimum_range_and_empty_tray_within_range(config, mesh):
    g = config.geometry
    view = measure_arm(mesh("arm_assembly"))
    tallest = g.max_heat_dice * g.die_size_mm
    assert view.lens_z - tallest >= g.sensor_min_range_mm + g.die_size_mm
    assert view.lens_z <= 0.8 * g.sensor_max_range_mm


@needs_openscad
def test_the_same_arm_is_rejected_for_bigger_dice(config, mesh):
    """Someone switches to 20 mm dice without moving the sensor: the check must say so."""
    view = measure_arm(mesh("arm_assembly"))
    problems = arm_problems(view, geometry_with(config.geometry, die_size_mm=20.0))
    assert any("50 mm plus one die" in p for p in problems)


@needs_openscad
def test_the_same_arm_is_rejected_for_a_lower_configured_sensor(config, mesh):
    view = measure_arm(mesh("arm_assembly"))
    problems = arm_problems(view, geometry_with(config.geometry, sensor_height_mm=280.0))
    assert any("the configuration says 280" in p for p in problems)


@needs_openscad
def test_the_model_refuses_to_render_an_unmeasurable_arm(config, tmp_path):
    bad = config.model_copy(update={"geometry": geometry_with(config.geometry, die_size_mm=20.0)})
    arm = next(p for p in enclosure_build.PARTS if p.name == "arm_assembly")
    with pytest.raises(enclosure_build.BuildError) as err:
        enclosure_build.build(bad, out=tmp_path, cache=tmp_path / "cache", parts=(arm,))
    assert "sensor_height_mm" in str(err.value)


@needs_openscad
def test_the_arm_follows_the_configuration_when_it_changes(config, tmp_path):
    """Bigger dice and a higher sensor: the rendered lens moves with them and every check still passes."""
    g = parse_config({"geometry": {"die_size_mm": 18.0, "sensor_height_mm": 360.0}}).geometry
    changed = config.model_copy(update={"geometry": g})
    arm = next(p for p in enclosure_build.PARTS if p.name == "arm_assembly")
    enclosure_build.build(changed, out=tmp_path, parts=(arm,))
    view = measure_arm(read_stl(tmp_path / "arm_assembly.stl"))
    assert view.lens_z == pytest.approx(360.0, abs=0.5)
    assert arm_problems(view, g) == []


# ---- the shroud's view against the tray's centre ----------------------------------------------

@needs_openscad
def test_a_die_lying_outside_the_heat_circle_is_outside_the_view(config, mesh):
    g = config.geometry
    view = measure_arm(mesh("arm_assembly"))
    zone_r = HEAT_ZONE_DICE * g.die_size_mm / 2
    # The view is widest at the floor; a die resting wholly outside the circle has no point inside it,
    # neither at the floor nor at its top face.
    assert view.view_radius_at(0) <= zone_r
    assert view.view_radius_at(g.die_size_mm) < view.view_radius_at(0)
    # ...and the view still covers the whole foot of the Heat (half a die's diagonal).
    assert view.view_radius_at(0) >= g.die_size_mm * math.sqrt(2) / 2


@needs_openscad
def test_a_die_can_be_added_to_the_tallest_heat_without_touching_the_arm(config, mesh):
    g = config.geometry
    arm = mesh("arm_assembly")
    base = g.max_heat_dice * g.die_size_mm
    half = g.die_size_mm / 2 + 1          # a die held a little off-centre by a hand
    for turn in (0, 45):
        corners = [(half * math.cos(math.radians(a + turn)) * math.sqrt(2), half * math.sin(math.radians(a + turn)) * math.sqrt(2), z)
                   for a in (45, 135, 225, 315) for z in (base + 0.5, base + g.die_size_mm + 0.5)]
        centre_line = [(0.0, 0.0, base + k) for k in range(0, int(g.die_size_mm) + 1, 2)]
        assert arm.any_inside(corners + centre_line) is None


@needs_openscad
def test_nothing_of_the_arm_hangs_over_the_tray_below_the_shroud(config, mesh):
    g = config.geometry
    arm = mesh("arm_assembly")
    view = measure_arm(arm)
    low_and_inside = [(x, y, z) for x, y, z in arm.vertices
                      if math.hypot(x, y) < g.tray_diameter_mm / 2 and z < view.mouth_z - 0.01]
    assert low_and_inside == []


@needs_openscad
def test_a_high_sensor_still_gives_a_printable_boom_that_passes_the_checks(config, tmp_path):
    g = parse_config({"geometry": {"sensor_height_mm": 700.0}}).geometry
    high = config.model_copy(update={"geometry": g})
    wanted = tuple(p for p in enclosure_build.PARTS if p.name in ("arm_assembly", "arm_boom"))
    parts = {p["name"]: p for p in enclosure_build.build(high, out=tmp_path, parts=wanted)}
    assert enclosure_build.fits_bed(parts["arm_boom"]["size_mm"])
    view = measure_arm(read_stl(tmp_path / "arm_assembly.stl"))
    assert view.lens_z == pytest.approx(700.0, abs=0.5)
    assert arm_problems(view, g) == []


@needs_openscad
def test_a_sensor_too_high_for_the_shroud_is_refused_with_advice(config, tmp_path):
    g = parse_config({"geometry": {"sensor_height_mm": 900.0}}).geometry   # the software accepts it
    arm = next(p for p in enclosure_build.PARTS if p.name == "arm_assembly")
    with pytest.raises(enclosure_build.BuildError) as err:
        enclosure_build.build(config.model_copy(update={"geometry": g}), out=tmp_path, parts=(arm,))
    assert "mount the sensor lower" in str(err.value)
