"""The plinth and the load cell (issue 29, item 1): the Heat on a raised plinth, weighed by a bar
cell on a base of its own that touches nothing of the tray, with an overload stop and a damping cup.

The printability and wall checks (test_printability.py, test_walls.py) hold these parts too.
"""

import math

import pytest

from enclosure import printability
from enclosure.checks import PLINTH_MM

from .conftest import needs_openscad

pytestmark = needs_openscad
M3_HEAD_MM = 3.0            # an M3 socket head's height: the overload stop is such a screw, head up


def test_the_plinth_stands_20_mm_or_more_and_is_just_wider_than_a_die(mesh, config):
    chain = mesh("plinth_chain")
    die = config.geometry.die_size_mm
    top = chain.bbox()[1][2]
    assert top >= 20 and top == pytest.approx(PLINTH_MM, abs=0.01)
    widths = [abs(x) * 2 for x, y, z in chain.vertices if z == pytest.approx(top)]
    assert die < max(widths) <= die + 4           # a die on it has under 2 mm to spare: a fallen die tips off


def _columns_of_the_four_quarters(mesh):
    return printability.columns(mesh("tray_quarter_mcu")), printability.columns(mesh("tray_quarter"))


def _touches(cols, point, margin):
    x, y, z = point
    for dx in (-margin, 0, margin):
        for dy in (-margin, 0, margin):
            i = math.floor((x + dx - cols.x0) / cols.cell)
            j = math.floor((y + dy - cols.y0) / cols.cell)
            if cols.material_between(i, j, z - margin, z + margin):
                return True
    return False


def _in_quarter(point, k):
    """The point turned back by k quarter turns: into the frame the quarter was printed in."""
    x, y, z = point
    for _ in range(k):
        x, y = y, -x
    return x, y, z


@pytest.mark.parametrize("name", ["plinth_chain", "cell_base"])
def test_nothing_of_the_weighing_touches_the_tray(mesh, name):
    mcu, plain = _columns_of_the_four_quarters(mesh)
    points = sorted(set(mesh(name).vertices))
    touching = []
    for p in points:
        angle = math.degrees(math.atan2(p[1], p[0])) % 360
        k = int(angle // 90)
        cols = mcu if k == 0 else plain
        if _touches(cols, _in_quarter(p, k), 1.0):
            touching.append(p)
    assert touching == [], f"{len(touching)} points of {name} come within 1 mm of the tray, e.g. {touching[:3]}"


def test_the_overload_stop_and_the_damping_cup(mesh, built):
    _, parts = built
    facts = parts["weighing_assembly"]["facts"]
    chain, base = mesh("plinth_chain"), mesh("cell_base")
    boss_bottom = min(z for r, z in chain.near_axis(6.5))           # the boss's rim (5.7 mm) is the lowest there
    cup_floor = max(z for x, y, z in base.vertices if math.hypot(x, y) < 5.0) + facts["table_z"]
    travel = boss_bottom - (cup_floor + M3_HEAD_MM)
    # the stop screw, seated, leaves this much; it is turned out to leave stop_gap (0.3 mm)
    assert facts["stop_gap"] < travel <= 2.0
    cup = [r for r, z in base.near_axis(10.0) if z > 3]          # the cup's walls (the base prints flat, bottom at 0)
    boss = sorted({round(r, 2) for r, z in chain.near_axis(7.0) if z < boss_bottom + 2})
    assert cup and boss
    assert min(r for r in cup if r > 5) - max(boss) >= 1.0     # an oil film of a millimetre or more round the boss
