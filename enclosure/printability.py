"""Can a part print without supports, lying the way its STL lies? Measured from the facets.

A printer lays each layer on the one below. A downward face needs something
under it within about 45 degrees, or two ends to bridge between:

- **on the bed**: a downward face at the part's lowest height lies on the bed;
- **supported**: the layer below holds material less than one cell away
  (a slope of 45 degrees or steeper, as seen from the side);
- **bridged**: walking straight across the face in some direction reaches
  material below on *both* sides (crossing at most a small hole on the way);
  the bridge is the gap between them;
- **overhang**: everything else: a shelf held on one side only, or a face
  with nothing under it. A slicer would need supports there.

The part is cut into vertical columns one cell wide (1 mm). Each column's
crossings with the facets give the solid intervals above that spot, so
"is there material at (x, y, z)?" is a lookup. That is coarse but honest:
a shelf narrower than a cell or a slope between 42 and 48 degrees may be
judged either way, which the limits per part allow for.

``measure(mesh)`` returns the overhang area, the longest bridge and where the
worst overhang is; ``LIMITS`` holds what each printed part may have, with why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .stl import Mesh

CELL = 1.0                  # mm, the width of a column
DROP = 0.9                  # a neighbour one cell away must hold material this far below: about 42 degrees
CLIMB = 2.0                 # a walk across a face follows it while it rises less than this
BED_TOL = 0.05              # a face this close to the part's lowest point is on the bed
MAX_WALK = 260              # cells; longer than any part on a 220 mm bed
HOLE = 8                    # cells of air a walk may cross (a hole in a bridged face)
# Where the column centres sit inside their cell: off the round numbers the models use,
# so a column never runs exactly along an edge shared by two facets.
NUDGE = (0.5 + 1.37e-4, 0.5 + 2.91e-4)

Interval = tuple[float, float]


@dataclass(frozen=True)
class Printability:
    overhang_mm2: float                     # downward area with neither support nor two ends to bridge from
    longest_bridge_mm: float                # the longest gap a bridged face spans (in its shortest direction)
    bridge_mm2: float                       # all bridged area
    worst: tuple[float, float, float] | None = None   # an overhanging spot (x, y, z), for the message
    worst_bridge: tuple[float, float, float] | None = None


@dataclass(frozen=True)
class Limit:
    overhang_mm2: float
    bridge_mm: float
    why: str = ""


DEFAULT_LIMIT = Limit(overhang_mm2=40.0, bridge_mm=35.0)
# What each printed part may have. 40 mm² of overhang is a few crowns of small round holes
# and the edges of raised touch marks, which print clean; 35 mm is a bridge PLA spans well
# at bridge settings (the slicer's default bridging fan and speed).
LIMITS: dict[str, Limit] = {
    "tray_quarter": Limit(40.0, 35.0, "the piezo pockets' ceilings (28 mm round) are the longest bridges"),
    "tray_quarter_mcu": Limit(40.0, 35.0, "as the plain quarter, plus the board pocket and the cable exits"),
}


def limit_for(name: str) -> Limit:
    return LIMITS.get(name, DEFAULT_LIMIT)


@dataclass
class Columns:
    """The solid intervals above each grid cell of a mesh."""
    x0: float
    y0: float
    cell: float
    cells: dict[tuple[int, int], list[Interval]] = field(default_factory=dict)

    def at(self, i: int, j: int) -> list[Interval]:
        return self.cells.get((i, j), [])

    def solid(self, i: int, j: int, z: float) -> bool:
        return any(b <= z <= t for b, t in self.at(i, j))

    def material_between(self, i: int, j: int, low: float, high: float) -> bool:
        return any(b <= high and t >= low for b, t in self.at(i, j))

    def centre(self, i: int, j: int) -> tuple[float, float]:
        return self.x0 + (i + NUDGE[0]) * self.cell, self.y0 + (j + NUDGE[1]) * self.cell


def columns(mesh: Mesh, cell: float = CELL) -> Columns:
    """Cut the mesh into vertical columns: where each column enters and leaves the solid."""
    (x0, y0, _), _ = mesh.bbox()
    x0, y0 = x0 - cell, y0 - cell
    hits: dict[tuple[int, int], list[tuple[float, int]]] = {}
    v = mesh.vertices
    for n in range(0, len(v), 3):
        (ax, ay, az), (bx, by, bz), (cx, cy, cz) = v[n], v[n + 1], v[n + 2]
        det = (by - cy) * (ax - cx) + (cx - bx) * (ay - cy)     # twice the signed area seen from above
        if abs(det) < 1e-12:
            continue                                            # a wall: no column crosses it
        facing = 1 if det < 0 else -1                           # +1: faces down (solid starts above it)
        i_lo = math.ceil((min(ax, bx, cx) - x0) / cell - NUDGE[0])
        i_hi = math.floor((max(ax, bx, cx) - x0) / cell - NUDGE[0])
        j_lo = math.ceil((min(ay, by, cy) - y0) / cell - NUDGE[1])
        j_hi = math.floor((max(ay, by, cy) - y0) / cell - NUDGE[1])
        for i in range(i_lo, i_hi + 1):
            px = x0 + (i + NUDGE[0]) * cell
            for j in range(j_lo, j_hi + 1):
                py = y0 + (j + NUDGE[1]) * cell
                l1 = ((by - cy) * (px - cx) + (cx - bx) * (py - cy)) / det
                l2 = ((cy - ay) * (px - cx) + (ax - cx) * (py - cy)) / det
                l3 = 1 - l1 - l2
                if l1 < 0 or l2 < 0 or l3 < 0:
                    continue
                hits.setdefault((i, j), []).append((l1 * az + l2 * bz + l3 * cz, facing))
    result = Columns(x0, y0, cell)
    for key, found in hits.items():
        intervals, depth, start = [], 0, 0.0
        for z, facing in sorted(found):
            if facing > 0:
                if depth == 0:
                    start = z
                depth += 1
            elif depth > 0:
                depth -= 1
                if depth == 0:
                    intervals.append((start, z))
        if intervals:
            result.cells[key] = intervals
    return result


AXES = ((1, 0), (0, 1), (1, 1), (1, -1))


def _walk(cols: Columns, i: int, j: int, di: int, dj: int, z: float, under: float) -> int | None:
    """Steps from (i, j) to the first column holding material at ``under``, following the face at z;
    None if the face ends in air first. A gap of air up to HOLE cells wide is crossed: a small
    hole through a bridged ceiling (a bore, a screw hole) is bridged around by the slicer."""
    air = 0
    for k in range(1, MAX_WALK):
        ni, nj = i + k * di, j + k * dj
        if cols.solid(ni, nj, under):
            return k
        if cols.material_between(ni, nj, z - DROP, z + CLIMB):
            air = 0
        else:
            air += 1
            if air > HOLE:
                return None
    return None


def measure(mesh: Mesh, cell: float = CELL) -> Printability:
    cols = columns(mesh, cell)
    bed = min(b for intervals in cols.cells.values() for b, _ in intervals)
    overhang = bridged = 0
    longest, worst, worst_bridge = 0.0, None, None
    for (i, j), intervals in cols.cells.items():
        for bottom, _ in intervals:
            if bottom <= bed + BED_TOL:
                continue                                        # on the bed
            # what the layer below must hold; close to the bed, the bed's first layer
            under = max(bottom - DROP, bed + BED_TOL)
            if any(cols.solid(i + di, j + dj, under) for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                continue                                        # held by the layer below
            spans = []
            for di, dj in AXES:
                ahead, behind = _walk(cols, i, j, di, dj, bottom, under), _walk(cols, i, j, -di, -dj, bottom, under)
                if ahead is not None and behind is not None:
                    spans.append((ahead + behind - 1) * cell * math.hypot(di, dj))
            x, y = cols.centre(i, j)
            if spans:
                bridged += 1
                if min(spans) > longest:
                    longest, worst_bridge = min(spans), (round(x, 1), round(y, 1), round(bottom, 2))
            else:
                overhang += 1
                if worst is None:
                    worst = (round(x, 1), round(y, 1), round(bottom, 2))
    area = cell * cell
    return Printability(overhang * area, longest, bridged * area, worst, worst_bridge)


def problems(name: str, result: Printability) -> list[str]:
    """What keeps the part from printing without supports, in words a maker can act on."""
    limit, found = limit_for(name), []
    if result.overhang_mm2 > limit.overhang_mm2:
        found.append(f"{name}: {result.overhang_mm2:.0f} mm² of downward faces have nothing under them "
                     f"(limit {limit.overhang_mm2:g} mm²), for example at {result.worst}")
    if result.longest_bridge_mm > limit.bridge_mm:
        found.append(f"{name}: a {result.longest_bridge_mm:.0f} mm bridge (limit {limit.bridge_mm:g} mm) "
                     f"at {result.worst_bridge}")
    return found
