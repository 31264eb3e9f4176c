"""An optical model of the VL53L0X looking down its shroud at the Heat.

What a VL53L0X reports is not "the nearest surface in a spot". It sends a
pulse of 940 nm light into a cone, counts the photons that come back on its
SPAD array, and reports one distance for all of them: the photons' mean
time of flight, so every surface in its view pulls the reading towards its
own distance in proportion to the signal it returns. This module computes
that from the table's geometry, so the simulator and the benchmarks see what
a real sensor would (every number's source is in ``docs/sensing.md``):

* **Where light can go.** The emitter (VCSEL) and the receiver (SPAD array)
  are two small apertures a few millimetres apart in the sensor package, at
  the top of the arm's bore. Light leaves the emitter, passes the shroud's
  mouth, hits a surface, and counts only if the receiver can see that point
  through the mouth too. The shroud (bore radius, mouth height and radius)
  comes from the enclosure's own parameters (``shroud_for``), not a copy.
* **Rays.** The emitter's light through the mouth is sampled as rays of
  equal power. Each ray ends on the first surface it meets: the tray floor,
  the top or a side of the standing stack, a hand, a d10 in flight, a die
  bouncing or fallen on the floor (``Box``). A ray returns
  ``reflectance * cos(angle to the surface's normal) / range**2`` (a matte,
  Lambertian surface: the lit spot is fixed by the ray, the share of its
  scattered light that reaches the receiver falls with range squared).
* **Signal.** The sum, scaled so that a white target filling a bare
  sensor's whole field returns ``SIGNAL_K_MCPS_M2 * reflectance / range**2``
  mega-counts per second; less when the shroud passes only part of the
  emitter's cone, or the receiver sees only part of the lit spot.
* **Distance.** The signal-weighted mean range, plus **crosstalk**: light
  scattered back by the bore's wall, a return at almost zero range that
  pulls every reading short in proportion to its share of the signal.
* **Noise.** The spread of one reading grows as the signal falls (fewer
  photons to time) and as ambient infrared adds counts that carry no
  timing: ``sigma = hypot(SIGMA_MIN_MM, SIGMA_K / sqrt(signal)) *
  sqrt(1 + ambient / signal)``, scaled by ``sqrt(33 ms / timing budget)``.
* **Range status.** As the sensor's API judges a reading: 0 valid; 1 sigma
  fail (spread over the limit); 2 signal fail (return rate under the
  limit); 4 phase fail (nothing in range). On statuses 2 and 4 the chip
  reports 8190/8191 (8192 minus a code), which is what the tray's firmware
  (Adafruit's driver, which does not check sigma) passes on.

Everything here is pure Python and deterministic; ``OpticalSensor.measure``
caches its geometric work per scene, so a simulator can call it every sample.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from enclosure.checks import HEAT_ZONE_DICE, HAND_ROOM_DICE, ArmView

from .config import GeometryConfig

COMMON_SCAD = Path(__file__).resolve().parents[1] / "enclosure" / "scad" / "common.scad"

# ---- the sensor (see docs/sensing.md, "Numbers and where they come from") ------------------
FOV_DEG = 25.0                 # DS11555: the sensor's full field of view
APERTURE_OFFSET_MM = 1.2       # estimate: emitter and receiver each this far from the package centre
SIGNAL_K_MCPS_M2 = 0.5         # estimate: white target filling the field at 1 m returns 0.5 MCPS
SIGNAL_LIMIT_MCPS = 0.25       # API default "signal rate final range" limit (0.1 in ST's long-range profile)
SIGMA_LIMIT_MM = 18.0          # API default "sigma final range" limit (60 in ST's long-range profile)
SIGMA_MIN_MM = 1.2             # estimate: the spread at a strong signal (DS11555 ranging accuracy)
SIGMA_K = 9.0                  # estimate: mm * sqrt(MCPS); 18 mm (the sigma limit) at the 0.25 MCPS limit
BUDGET_REF_MS = 33.0           # the timing budget the two figures above are for
AMBIENT_INDOOR_MCPS = 0.02     # estimate: a lit room with no sun on the tray
CROSSTALK_MCPS = 0.004         # estimate: a bore painted matte black (0.02 for bare black PLA)
CROSSTALK_RANGE_MM = 20.0      # estimate: where in the bore the wall's return comes from

# ---- the things in view --------------------------------------------------------------------
REFLECTANCE = {                # estimates at 940 nm, matte surfaces
    "floor": 0.80,             # the target sheet, white paper, under the Heat
    "die": 0.75,               # a white or pale Heat d6
    "hand": 0.50,              # skin in the near infrared
    "d10": 0.60,               # a thrown d10
}

OUT_OF_RANGE = {2: 8191, 4: 8190}  # what the chip reports for a failed reading, by range status
STATUS_TEXT = {0: "valid", 1: "sigma fail", 2: "signal fail", 4: "phase fail"}


def _scad_numbers(path: Path = COMMON_SCAD) -> dict[str, float]:
    """Plain ``name = number;`` lines of the enclosure's shared OpenSCAD file."""
    numbers = {}
    for line in path.read_text().splitlines():
        match = re.match(r"\s*([A-Za-z_]\w*)\s*=\s*(-?\d+(?:\.\d+)?)\s*;", line)
        if match:
            numbers[match.group(1)] = float(match.group(2))
    return numbers


def shroud_for(geometry: GeometryConfig, zone_dice: float = HEAT_ZONE_DICE) -> ArmView:
    """The arm's bore and mouth for ``geometry``, worked out exactly as ``enclosure/scad/common.scad``
    does, from its own parameters (bore radius, hand gap, longest shroud, view margin)."""
    scad = _scad_numbers()
    die, lens = geometry.die_size_mm, geometry.sensor_height_mm
    stack_top = geometry.max_heat_dice * die
    mouth_z = max(stack_top + HAND_ROOM_DICE * die + scad["hand_gap"], lens - scad["max_shroud"])
    length = lens - mouth_z
    bore_r = scad["bore_r"]
    zone_r = zone_dice * die / 2
    mouth_r = (zone_r - scad["view_margin"] + bore_r) * length / lens - bore_r
    return ArmView(lens_z=lens, bore_r=bore_r, mouth_z=mouth_z, mouth_r=mouth_r)


@dataclass(frozen=True)
class Box:
    """An upright box in tray coordinates (mm; the Heat's axis at x = y = 0, the floor at z = 0)."""

    x0: float
    x1: float
    y0: float
    y1: float
    z0: float
    z1: float
    reflectance: float

    @staticmethod
    def die_column(cx: float, cy: float, size: float, z0: float, z1: float, reflectance: float) -> "Box":
        half = size / 2
        return Box(cx - half, cx + half, cy - half, cy + half, z0, z1, reflectance)


@dataclass(frozen=True)
class Reading:
    """One reading as the sensor makes it, before noise: what a maker's bench would compare."""

    mean_mm: float          # the signal-weighted distance (crosstalk included)
    signal_mcps: float      # return signal rate
    sigma_mm: float         # expected spread of one reading
    status: int             # 0 valid, 1 sigma fail, 2 signal fail, 4 phase fail
    shares: dict = field(default_factory=dict)  # share of the signal by surface kind


@dataclass
class Design:
    """The choices a maker can change: shroud, limits, timing budget, finishes."""

    zone_dice: float = HEAT_ZONE_DICE        # the shroud is sized to see this many dice wide at the floor
    aperture_offset_mm: float = APERTURE_OFFSET_MM
    signal_limit_mcps: float = SIGNAL_LIMIT_MCPS
    sigma_limit_mm: float = SIGMA_LIMIT_MM
    timing_budget_ms: float = BUDGET_REF_MS
    ambient_mcps: float = AMBIENT_INDOOR_MCPS
    crosstalk_mcps: float = CROSSTALK_MCPS
    reflectance: dict = field(default_factory=lambda: dict(REFLECTANCE))
    noise_scale: float = 1.0                 # for "what if the real sensor is quieter than estimated"
    shroud: ArmView | None = None            # None: the enclosure's, from the geometry and zone_dice


def _sunflower(n: int) -> list[tuple[float, float]]:
    """n points spread evenly over the unit disc (equal area each)."""
    golden = math.pi * (3 - math.sqrt(5))
    return [(math.sqrt((i + 0.5) / n) * math.cos(i * golden), math.sqrt((i + 0.5) / n) * math.sin(i * golden))
            for i in range(n)]


class OpticalSensor:
    """A VL53L0X over the tray, behind the arm's shroud (see the module docstring)."""

    def __init__(self, geometry: GeometryConfig, design: Design | None = None, rays: int = 160):
        self.geometry = geometry
        self.design = design or Design()
        d = self.design
        self.shroud = d.shroud or shroud_for(geometry, d.zone_dice)
        s = self.shroud
        if s.mouth_r <= 0:
            raise ValueError(f"the shroud's mouth would be {2 * s.mouth_r:.1f} mm wide: no light gets through")
        self.lens = s.lens_z
        self.emitter = (-d.aperture_offset_mm, 0.0)
        self.receiver = (d.aperture_offset_mm, 0.0)
        drop = s.lens_z - s.mouth_z
        half = math.radians(FOV_DEG / 2)
        # Rays from the emitter through points spread evenly over the mouth, kept if inside its cone.
        self.rays = []
        for u, v in _sunflower(rays):
            mx, my = u * s.mouth_r, v * s.mouth_r
            dx, dy = (mx - self.emitter[0]) / drop, (my - self.emitter[1]) / drop
            if math.atan(math.hypot(dx, dy)) <= half:
                self.rays.append((dx, dy))
        # The share of the emitter's cone the mouth passes (solid angles, small-angle exact enough).
        mouth_sr = math.pi * s.mouth_r ** 2 / drop ** 2 * (len(self.rays) / rays)
        cone_sr = 2 * math.pi * (1 - math.cos(half))
        self.through = mouth_sr / cone_sr
        self._cache: dict = {}

    # -- geometry ---------------------------------------------------------------------------
    def _seen(self, x: float, y: float, z: float) -> bool:
        """Can the receiver see the point (x, y, z) through the shroud's mouth?"""
        s = self.shroud
        if z >= s.mouth_z:
            return False
        rx, ry = self.receiver
        f = (s.lens_z - s.mouth_z) / (s.lens_z - z)
        return math.hypot(rx + (x - rx) * f, ry + (y - ry) * f) <= s.mouth_r

    def _trace(self, dx: float, dy: float, boxes: tuple) -> tuple:
        """Follow one ray down: (x, y, z, cos to the surface normal, kind, reflectance) of the first
        surface it meets."""
        ex, ey = self.emitter
        lens = self.lens
        norm = math.sqrt(1 + dx * dx + dy * dy)
        best = (lens, 1.0 / norm, "floor", self.design.reflectance["floor"])  # drop, cos, kind, reflectance
        for box, kind in boxes:
            t_in, t_out, side_cos = 0.0, lens, 1.0 / norm
            for e, d, lo, hi in ((ex, dx, box.x0, box.x1), (ey, dy, box.y0, box.y1)):
                if abs(d) < 1e-12:
                    if not lo <= e <= hi:
                        t_in, t_out = 1.0, 0.0
                    continue
                a, b = (lo - e) / d, (hi - e) / d
                if a > b:
                    a, b = b, a
                if a > t_in:
                    t_in, side_cos = a, abs(d) / norm
                t_out = min(t_out, b)
            top, bottom = lens - box.z1, lens - box.z0
            if t_in > t_out or t_out < top or t_in > bottom:
                continue
            if t_in <= top:
                t, cos = top, 1.0 / norm
            else:
                t, cos = t_in, side_cos
            if t < best[0]:
                best = (t, cos, kind, box.reflectance)
        t, cos, kind, rho = best
        return ex + dx * t, ey + dy * t, lens - t, cos, kind, rho

    def returns(self, boxes: tuple) -> tuple[float, float, dict]:
        """(signal in MCPS, signal-weighted range in mm, share by kind) of a scene, without crosstalk.

        ``boxes`` is a tuple of (Box, kind). Cached per scene.
        """
        key = boxes
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        total = weighted = 0.0
        by_kind: dict[str, float] = {}
        ex, ey = self.emitter
        for dx, dy in self.rays:
            x, y, z, cos, kind, rho = self._trace(dx, dy, boxes)
            if not self._seen(x, y, z):
                continue
            rng_mm = math.sqrt((x - ex) ** 2 + (y - ey) ** 2 + (self.lens - z) ** 2)
            w = rho * cos / (rng_mm / 1000.0) ** 2
            total += w
            weighted += w * rng_mm
            by_kind[kind] = by_kind.get(kind, 0.0) + w
        signal = SIGNAL_K_MCPS_M2 * self.through * total / max(1, len(self.rays))
        mean = weighted / total if total > 0 else float("inf")
        shares = {k: v / total for k, v in by_kind.items()} if total > 0 else {}
        result = (signal, mean, shares)
        if len(self._cache) > 200_000:
            self._cache.clear()
        self._cache[key] = result
        return result

    # -- what the sensor reports ------------------------------------------------------------------
    def reading(self, boxes: tuple = ()) -> Reading:
        """The noise-free reading of a scene, with its expected spread and range status."""
        d = self.design
        signal, mean, shares = self.returns(boxes)
        xt = d.crosstalk_mcps
        total = signal + xt
        if total <= 0 or signal <= 0:
            return Reading(float("inf"), 0.0, float("inf"), 4, {})
        mm = (signal * mean + xt * CROSSTALK_RANGE_MM) / total
        budget = math.sqrt(BUDGET_REF_MS / d.timing_budget_ms)
        sigma = (math.hypot(SIGMA_MIN_MM, SIGMA_K / math.sqrt(total)) * math.sqrt(1 + d.ambient_mcps / total) * budget
                 * d.noise_scale)
        if total < d.signal_limit_mcps:
            status = 2
        elif sigma > d.sigma_limit_mm:
            status = 1
        else:
            status = 0
        return Reading(mm, total, sigma, status, shares)

    def sample(self, rng, boxes: tuple = ()) -> tuple[int, int]:
        """One reading with noise: (what the chip reports in mm, range status)."""
        r = self.reading(boxes)
        if r.status in OUT_OF_RANGE:
            return OUT_OF_RANGE[r.status], r.status
        # A near-limit signal also drops out now and then: the count of photons is itself random.
        if rng.random() < _dropout_chance(r.signal_mcps, self.design.signal_limit_mcps):
            return OUT_OF_RANGE[2], 2
        return max(0, int(round(r.mean_mm + rng.gauss(0.0, r.sigma_mm)))), r.status

    # -- the Heat ---------------------------------------------------------------------------------
    def stack(self, dice: int, offset: tuple[float, float] = (0.0, 0.0)) -> tuple:
        """The scene of a still stack of ``dice`` standing on the axis (or ``offset`` from it)."""
        if dice <= 0:
            return ()
        g = self.geometry
        box = Box.die_column(offset[0], offset[1], g.die_size_mm, 0.0, dice * g.die_size_mm,
                             self.design.reflectance["die"])
        return ((box, "die"),)

    def curve(self, max_dice: int | None = None) -> list[float]:
        """The noise-free reading over a still stack of 0, 1, ... dice: what calibration measures."""
        top = self.geometry.max_heat_dice if max_dice is None else max_dice
        return [self.reading(self.stack(k)).mean_mm for k in range(top + 1)]


@lru_cache(maxsize=4096)
def _dropout_chance(signal: float, limit: float) -> float:
    """Readings whose photon count falls under the limit: likelier the nearer the mean is to it."""
    margin = signal / limit
    if margin >= 2.0:
        return 0.0
    # The count over one budget is Poisson-like; within a factor 2 of the limit some readings fail.
    return max(0.0, min(1.0, (2.0 - margin) ** 3 / 8.0))


# The designs the benchmark and the bench compare. "as-built" is the enclosure as it is today;
# "chosen" is the change docs/sensing.md argues for, with the model's numbers.
DESIGNS = {
    "as-built": Design(),
    "low-limit": Design(signal_limit_mcps=0.06, sigma_limit_mm=60.0),
    "wide-mouth": Design(zone_dice=4, signal_limit_mcps=0.1, sigma_limit_mm=60.0),
}
