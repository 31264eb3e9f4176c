"""Every printed part prints without supports the way it lies in its STL.

``enclosure/printability.py`` cuts a mesh into 1 mm columns and finds every
downward face that is neither on the bed, nor held by the layer below within
45 degrees, nor bridged between two supports. The first tests check the
measure itself on small hand-made solids (no OpenSCAD needed); the last one
holds each rendered part to its limit.
"""

import pytest

from enclosure import build as enclosure_build
from enclosure import printability
from enclosure.stl import Mesh

from .conftest import needs_openscad


def box(x0, y0, z0, x1, y1, z1):
    """The 12 triangles of a closed box, facing out."""
    p = [(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0), (x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]
    faces = [(0, 2, 1), (0, 3, 2), (4, 5, 6), (4, 6, 7), (0, 1, 5), (0, 5, 4),
             (1, 2, 6), (1, 6, 5), (2, 3, 7), (2, 7, 6), (3, 0, 4), (3, 4, 7)]
    return [p[i] for face in faces for i in face]


def solid(*boxes):
    """Boxes that may overlap, as one mesh (the column cut takes their union)."""
    return Mesh(tuple(v for b in boxes for v in box(*b)))


def test_a_block_on_the_bed_needs_nothing():
    result = printability.measure(solid((0, 0, 0, 30, 20, 15)))
    assert result.overhang_mm2 == 0 and result.longest_bridge_mm == 0


def test_a_shelf_held_on_one_side_is_an_overhang():
    # a 10 mm pillar with a 30 mm slab on top: 20 x 10 mm of slab hangs in the air
    result = printability.measure(solid((0, 0, 0, 10, 10, 20), (0, 0, 18, 30, 10, 20)))
    assert 150 <= result.overhang_mm2 <= 200
    assert printability.problems("shelf", result)[0].startswith("shelf: ")


def test_a_slab_between_two_pillars_is_a_bridge_of_their_gap():
    result = printability.measure(solid((0, 0, 0, 10, 10, 20), (30, 0, 0, 40, 10, 20), (0, 0, 18, 40, 10, 20)))
    assert result.overhang_mm2 <= 10
    assert result.longest_bridge_mm == pytest.approx(20, abs=2)
    long = printability.measure(solid((0, 0, 0, 10, 10, 20), (60, 0, 0, 70, 10, 20), (0, 0, 18, 70, 10, 20)))
    assert long.longest_bridge_mm == pytest.approx(50, abs=2)
    assert any("bridge" in p for p in printability.problems("long", long))


def test_a_45_degree_staircase_holds_itself_up_and_a_flatter_one_does_not():
    steep = solid(*[(k, 0, 0, k + 1, 10, 1 + k) for k in range(20)])            # 1 mm out per 1 mm up
    flat = solid(*[(3 * k, 0, 0, 3 * k + 3, 10, 1 + k) for k in range(8)])       # 3 mm out per 1 mm up
    hanging = solid((0, 0, 0, 2, 10, 30), *[(2 + k, 0, 20 + k, 3 + k, 10, 30) for k in range(10)])
    assert printability.measure(steep).overhang_mm2 == 0
    assert printability.measure(flat).overhang_mm2 == 0     # it stands on the bed all along
    assert printability.measure(hanging).overhang_mm2 == 0  # a 45-degree chamfer under a shelf
    shallow = solid((0, 0, 0, 2, 10, 30), *[(2 + 2 * k, 0, 20 + k, 4 + 2 * k, 10, 30) for k in range(8)])
    assert printability.measure(shallow).overhang_mm2 >= 60  # 2 mm out per 1 mm up: every other column hangs


PRINTED = [p.name for p in enclosure_build.PARTS if p.printed]


@needs_openscad
@pytest.mark.parametrize("name", PRINTED)
def test_each_part_prints_without_supports_as_it_lies(name, mesh):
    result = printability.measure(mesh(name))
    assert printability.problems(name, result) == []


@needs_openscad
def test_the_tray_floor_stands_on_the_bed_and_only_small_ceilings_are_bridged(mesh, built):
    _, parts = built
    for name in ("tray_quarter", "tray_quarter_mcu"):
        result = printability.measure(mesh(name))
        assert result.overhang_mm2 <= printability.limit_for(name).overhang_mm2
        assert result.longest_bridge_mm <= 35                  # the piezo pockets' 28 mm ceilings, not the floor
