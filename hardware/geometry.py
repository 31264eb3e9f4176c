"""The sensor arm's shape as numbers, shared by the optical model and the enclosure.

``hardware.optics`` works out the shroud a geometry calls for and models what the sensor
sees through it; ``enclosure.checks`` measures the printed arm's STL and compares. Both
speak of the arm as an ``ArmView`` and size it by the same two counts of dice, so those live
here, below both (the enclosure builds on ``hardware``, never the other way round).
"""

from __future__ import annotations

from dataclasses import dataclass

# The circle the Heat stands in is three dice wide: printed on the target,
# passed to OpenSCAD (heat_zone_dice) to size the shroud, checked by enclosure.checks.
HEAT_ZONE_DICE = 3
HAND_ROOM_DICE = 1      # room to add one more die on the tallest Heat


@dataclass(frozen=True)
class ArmView:
    """The arm along the Heat's axis, in mm above the floor (tray coordinates)."""

    lens_z: float        # height of the lens plane above the floor
    bore_r: float        # radius of the bore at the lens
    mouth_z: float       # height of the shroud's mouth
    mouth_r: float       # radius of the mouth

    def view_radius_at(self, z: float) -> float:
        """How far from the axis the widest received ray is at height z."""
        drop = self.lens_z - self.mouth_z
        return -self.bore_r + (self.mouth_r + self.bore_r) * (self.lens_z - z) / drop
