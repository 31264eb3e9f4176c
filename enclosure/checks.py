"""Measure the rendered sensor arm and say whether it can watch the Heat.

The numbers come from the STL of the assembled arm (tray coordinates: floor
top at z = 0, the Heat's axis at x = y = 0), not from the model's own
arithmetic, so a mistake in the .scad files shows up here:

- the lens plane: the chip's face, a set gap above the top of the bore under the board;
- the shroud's mouth: the lowest ring around the axis, and its radius;
- the widest ray the sensor can receive: from one edge of the bore through
  the opposite edge of the mouth, followed down to the floor.

``arm_problems`` compares these with a geometry and lists what is wrong, in
words a maker can act on; an empty list means the arm is fine.
"""

from __future__ import annotations

from hardware.config import GeometryConfig
from hardware.geometry import HAND_ROOM_DICE, HEAT_ZONE_DICE, ArmView

from .bought import SENSOR_CHIP_GAP_MM
from .stl import Mesh

AXIS_RADIUS = 12.0      # the shroud fits inside this radius (asserted in scad/common.scad)
BORE_RADIUS = 4.0       # the bore is narrower than this; the board's pocket is wider
# The Heat stands on a plinth this high above the floor, weighed by the load cell under it
# (issue 29; scad/plinth.scad). Passed to OpenSCAD; the tallest Heat's top is this much higher.
PLINTH_MM = 20.0


def measure_arm(mesh: Mesh) -> ArmView:
    near = mesh.near_axis(AXIS_RADIUS)
    if not near:
        raise ValueError("no part of the arm is near the Heat's axis: the sensor head is missing or off-centre")
    # The bore ends under the chip; the chip's face (the lens) hangs a little above it.
    bore = [(r, z) for r, z in near if r <= BORE_RADIUS]
    bore_top = max(z for _, z in bore)
    lens_z = bore_top + SENSOR_CHIP_GAP_MM
    mouth_z = min(z for _, z in near)
    bore_r = min(r for r, z in bore if z == bore_top)
    mouth_r = min(r for r, z in near if z == mouth_z)
    return ArmView(lens_z, bore_r, mouth_z, mouth_r)


def arm_problems(view: ArmView, geometry: GeometryConfig) -> list[str]:
    problems = []
    die = geometry.die_size_mm
    top = PLINTH_MM + geometry.max_heat_dice * die
    if abs(view.lens_z - geometry.sensor_height_mm) > 0.5:
        problems.append(f"the lens is at {view.lens_z:g} mm, the configuration says {geometry.sensor_height_mm:g} mm")
    if view.lens_z - top < geometry.sensor_min_range_mm + die:
        problems.append(f"a {geometry.max_heat_dice}-die Heat of {die:g} mm dice on the {PLINTH_MM:g} mm plinth comes within {view.lens_z - top:g} mm "
                        f"of the lens; the sensor needs {geometry.sensor_min_range_mm:g} mm plus one die")
    if view.lens_z > 0.8 * geometry.sensor_max_range_mm:
        problems.append(f"the lens is {view.lens_z:g} mm above the floor, too far for a steady empty-tray reading")
    if view.mouth_z < top + HAND_ROOM_DICE * die:
        problems.append(f"the shroud's mouth at {view.mouth_z:g} mm leaves no room to add a die to a {top:g} mm Heat")
    zone_r = HEAT_ZONE_DICE * die / 2
    if view.view_radius_at(0) > zone_r:
        problems.append(f"the sensor sees {view.view_radius_at(0):.1f} mm from the axis at the floor, "
                        f"beyond the {zone_r:g} mm circle the Heat stands in")
    if view.view_radius_at(0) < die / 2:
        problems.append("the shroud is so narrow that the sensor does not see a whole die face at the floor")
    return problems
