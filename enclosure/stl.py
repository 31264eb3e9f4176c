"""Read an STL file (ASCII or binary) into a list of vertices, and measure it.

Only what the enclosure's build and tests need: the corner points of every
triangle, the bounding box, the points near a vertical axis (to find the
sensor's bore and the shroud's mouth on the rendered arm), and whether a point
lies inside the solid (to probe clearances). Pure Python, no numpy.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from pathlib import Path

Point = tuple[float, float, float]


@dataclass(frozen=True)
class Mesh:
    vertices: tuple[Point, ...]      # three per triangle, in file order

    @property
    def triangles(self) -> int:
        return len(self.vertices) // 3

    def bbox(self) -> tuple[Point, Point]:
        xs, ys, zs = zip(*self.vertices)
        return (min(xs), min(ys), min(zs)), (max(xs), max(ys), max(zs))

    def size(self) -> Point:
        low, high = self.bbox()
        return (high[0] - low[0], high[1] - low[1], high[2] - low[2])

    def near_axis(self, radius: float, x: float = 0.0, y: float = 0.0) -> list[tuple[float, float]]:
        """(distance from the vertical axis through x, y; z) of each distinct vertex within radius of it."""
        seen = set()
        for vx, vy, vz in self.vertices:
            r = math.hypot(vx - x, vy - y)
            if r <= radius:
                seen.add((round(r, 3), round(vz, 3)))
        return sorted(seen, key=lambda rz: (rz[1], rz[0]))


    def contains(self, point: Point) -> bool:
        """Whether the point is inside the solid: count the faces a ray straight up from it crosses."""
        # Nudge the ray off the round numbers the models use, so it never runs along an edge.
        px, py, pz = point[0] + 1.37e-4, point[1] + 2.91e-4, point[2]
        crossings = 0
        v = self.vertices
        for i in range(0, len(v), 3):
            (ax, ay, az), (bx, by, bz), (cx, cy, cz) = v[i], v[i + 1], v[i + 2]
            if max(az, bz, cz) < pz or min(ax, bx, cx) > px or max(ax, bx, cx) < px \
                    or min(ay, by, cy) > py or max(ay, by, cy) < py:
                continue
            det = (by - cy) * (ax - cx) + (cx - bx) * (ay - cy)
            if det == 0:
                continue                      # a face seen edge-on from below
            l1 = ((by - cy) * (px - cx) + (cx - bx) * (py - cy)) / det
            l2 = ((cy - ay) * (px - cx) + (ax - cx) * (py - cy)) / det
            l3 = 1 - l1 - l2
            if l1 < 0 or l2 < 0 or l3 < 0:
                continue
            if l1 * az + l2 * bz + l3 * cz > pz:
                crossings += 1
        return crossings % 2 == 1

    def any_inside(self, points) -> Point | None:
        """The first of the points that lies inside the solid, or None."""
        return next((p for p in points if self.contains(p)), None)


def read_stl(path: str | Path) -> Mesh:
    data = Path(path).read_bytes()
    if not data:
        raise ValueError(f"{path} is empty")
    if data[:5].lower() == b"solid" and b"facet" in data[:400]:
        return _read_ascii(data.decode("ascii", errors="replace"), path)
    return _read_binary(data, path)


def _read_ascii(text: str, path) -> Mesh:
    vertices = []
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] == "vertex":
            vertices.append((float(parts[1]), float(parts[2]), float(parts[3])))
    if not vertices or len(vertices) % 3:
        raise ValueError(f"{path} has no whole triangles")
    return Mesh(tuple(vertices))


def _read_binary(data: bytes, path) -> Mesh:
    if len(data) < 84:
        raise ValueError(f"{path} is too short for a binary STL")
    (count,) = struct.unpack_from("<I", data, 80)
    if len(data) < 84 + 50 * count:
        raise ValueError(f"{path} says it has {count} triangles but is cut short")
    vertices = []
    for i in range(count):
        floats = struct.unpack_from("<12f", data, 84 + 50 * i)
        vertices.extend([floats[3:6], floats[6:9], floats[9:12]])
    return Mesh(tuple(tuple(v) for v in vertices))
