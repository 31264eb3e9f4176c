"""Is any wall of a part thinner than a printer lays reliably? Measured from the STL.

Three perimeters of a 0.4 mm nozzle make a 1.2 mm wall, and five 0.2 mm layers
a 1 mm skin; a slicer drops or thins anything much less, and a screw pulls
through it. The part is cut into columns 0.5 mm wide along each axis in turn
(``printability.columns`` on the mesh turned so that axis points up): every
stretch of solid a column crosses is a wall's thickness along that axis.

A stretch under the limit is a **thin wall** when at least three of the eight
neighbouring columns are also thin at the same height: a plate or a skin is thin
all over, while the tip of a chamfer or the edge of a round hole is thin along a
line only, and its neighbours on one side are thick. Measured along an axis, a
wall lying at 45 degrees reads up to 1.4 times thicker than it is, so a thin
sloped wall can pass; that is the price of a fast check.

``LIMITS`` lets a part declare a thinner feature, with why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .printability import columns
from .stl import Mesh

CELL = 0.5
MIN_WALL_MM = 1.2            # across x or y: three perimeters of a 0.4 mm nozzle
MIN_SKIN_MM = 1.0            # along z: five layers of 0.2 mm, the solid layers a slicer lays
ALLOWED_MM2 = 2.0            # area of thin wall a part may have before it is reported (a few stray cells)


@dataclass(frozen=True)
class Thin:
    area_mm2: float
    thinnest_mm: float
    where: tuple[float, float, float] | None     # a thin spot, in the part's own coordinates
    axis: str


# Parts that declare a thinner feature: name -> (thin area allowed in mm², why). These were found by
# this check when it was written (issue 32) and are small; each says what it is, or that it is not yet traced.
LIMITS: dict[str, tuple[float, str]] = {
    "tray_quarter_mcu": (30.0, "where the sensor cables's 8 mm channel leaves through the rim at 45 degrees, the "
                               "rim's facets leave slivers a few hundredths thick; the slicer drops them"),
}

# Parts laid across the bed's diagonal (arm.scad turns the boom 45 degrees to fit it): measured along
# x and y as they lie, every edge of a square feature reads as a 0.1 mm chord (the boom's 12 mm peg gave
# 35 mm² of "slivers"), so they are turned back into their own frame first, where their walls run along
# the axes.
LAID_ACROSS_DEG: dict[str, float] = {"arm_boom": 45.0}


def part_walls(name: str, mesh: Mesh, cell: float = CELL) -> list[Thin]:
    """thin_walls of a printed part, measured in its own frame (see LAID_ACROSS_DEG)."""
    turn = math.radians(-LAID_ACROSS_DEG.get(name, 0.0))
    if turn:
        c, s = math.cos(turn), math.sin(turn)
        mesh = Mesh(tuple((x * c - y * s, x * s + y * c, z) for x, y, z in mesh.vertices))
    return thin_walls(mesh, cell)


_TURNS = {"z": lambda p: p, "x": lambda p: (p[1], p[2], p[0]), "y": lambda p: (p[2], p[0], p[1])}
_BACK = {"z": lambda p: p, "x": lambda p: (p[2], p[0], p[1]), "y": lambda p: (p[1], p[2], p[0])}


def thin_walls(mesh: Mesh, cell: float = CELL) -> list[Thin]:
    """The thin walls along each axis (only the axes where there are some)."""
    found = []
    for axis, turn in _TURNS.items():
        limit = MIN_SKIN_MM if axis == "z" else MIN_WALL_MM
        cols = columns(Mesh(tuple(turn(v) for v in mesh.vertices)), cell)
        thin = {key: [(b, t) for b, t in intervals if t - b < limit] for key, intervals in cols.cells.items()}
        count, thinnest, where = 0, limit, None
        for (i, j), stretches in thin.items():
            for b, t in stretches:
                near = sum(1 for di in (-1, 0, 1) for dj in (-1, 0, 1) if (di or dj)
                           and any(nb < t and nt > b for nb, nt in thin.get((i + di, j + dj), [])))
                if near >= 3:
                    count += 1
                    if t - b < thinnest or where is None:
                        x, y = cols.centre(i, j)
                        thinnest, where = t - b, _BACK[axis]((round(x, 1), round(y, 1), round((b + t) / 2, 2)))
        if count:
            found.append(Thin(count * cell * cell, round(thinnest, 2), where, axis))
    return found


def problems(name: str, found: list[Thin]) -> list[str]:
    allowed, _ = LIMITS.get(name, (ALLOWED_MM2, ""))
    return [f"{name}: {t.area_mm2:.1f} mm² of wall thinner than "
            f"{MIN_SKIN_MM if t.axis == 'z' else MIN_WALL_MM:g} mm along {t.axis} "
            f"(down to {t.thinnest_mm:g} mm), for example at {t.where}"
            for t in found if t.area_mm2 > allowed]
