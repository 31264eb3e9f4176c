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

from .config import GeometryConfig
from .geometry import HAND_ROOM_DICE, HEAT_ZONE_DICE, ArmView

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
    "rim": 0.30,               # the tray's rim wall, printed PLA (only a sensor looking across the tray sees it)
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


@dataclass(frozen=True)
class Pose:
    """Where a sensor sits and where it looks, in tray coordinates (mm; the Heat's axis at x = y = 0,
    the floor at z = 0): the centre of its lens and the direction of its view (any length).

    ``None`` in a ``Design`` means the arm's sensor: on the axis at the configured height, looking
    straight down.
    """

    x: float
    y: float
    z: float
    dx: float
    dy: float
    dz: float


@dataclass(frozen=True)
class Shroud:
    """A sensor's own shroud, for a sensor that is not the arm's: a bore ``length`` mm long from
    the lens to a round mouth of radius ``mouth_r``."""

    length: float
    mouth_r: float
    bore_r: float = 2.6


@dataclass
class Design:
    """The choices a maker can change: shroud, limits, timing budget, finishes, and where the
    sensor is (``pose``; None: the arm's, straight down) with its own shroud (``own_shroud``).

    ``companions`` are more sensors on the same bus, each a Design with its own pose: the
    simulator reads each of them on every sample from the same scene.
    """

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
    pose: Pose | None = None                 # None: the arm's sensor over the Heat, looking down
    own_shroud: Shroud | None = None         # the shroud of a sensor with a pose of its own
    companions: tuple = ()                   # more sensors (Designs with a pose) on the same bus
    name: str = "arm"                        # what the bench and the benchmark call this sensor


def _sunflower(n: int) -> list[tuple[float, float]]:
    """n points spread evenly over the unit disc (equal area each)."""
    golden = math.pi * (3 - math.sqrt(5))
    return [(math.sqrt((i + 0.5) / n) * math.cos(i * golden), math.sqrt((i + 0.5) / n) * math.sin(i * golden))
            for i in range(n)]


def _unit(v: tuple[float, float, float]) -> tuple[float, float, float]:
    n = math.sqrt(v[0] ** 2 + v[1] ** 2 + v[2] ** 2)
    if n == 0:
        raise ValueError("a sensor's direction cannot be zero")
    return (v[0] / n, v[1] / n, v[2] / n)


def _cross(a: tuple[float, float, float], b: tuple[float, float, float]) -> tuple[float, float, float]:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _dot(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


class OpticalSensor:
    """A VL53L0X behind a shroud, anywhere over the tray (see the module docstring).

    The arm's sensor (``design.pose`` None) sits on the Heat's axis looking down, behind the
    enclosure's shroud. Any other sensor has a pose (lens centre and view direction) and its own
    shroud (``design.own_shroud``). The sensor's frame: ``w`` along the view, ``u`` across it
    (horizontal where it can be; the emitter sits at -offset along it, the receiver at +offset),
    ``v`` = u x w.
    """

    def __init__(self, geometry: GeometryConfig, design: Design | None = None, rays: int = 160):
        self.geometry = geometry
        self.design = design or Design()
        d = self.design
        if d.pose is None:
            self.shroud = d.shroud or shroud_for(geometry, d.zone_dice)
            s = self.shroud
            origin = (0.0, 0.0, s.lens_z)
            self.w = (0.0, 0.0, -1.0)
            self.length, self.mouth_r = s.lens_z - s.mouth_z, s.mouth_r
        else:
            if d.own_shroud is None:
                raise ValueError(f"sensor {d.name!r} has a pose of its own but no shroud (own_shroud)")
            p, own = d.pose, d.own_shroud
            origin = (p.x, p.y, p.z)
            self.w = _unit((p.dx, p.dy, p.dz))
            self.length, self.mouth_r = own.length, own.mouth_r
            # The same shroud as an ArmView along the sensor's own axis (what the simulator asks of it).
            self.shroud = ArmView(lens_z=own.length, bore_r=own.bore_r, mouth_z=0.0, mouth_r=own.mouth_r)
        if self.mouth_r <= 0:
            raise ValueError(f"the shroud's mouth would be {2 * self.mouth_r:.1f} mm wide: no light gets through")
        w = self.w
        across = (-w[1], w[0], 0.0)
        self.u = _unit(across) if math.hypot(across[0], across[1]) > 1e-9 else (1.0, 0.0, 0.0)
        self.v = _cross(self.u, w)
        self.origin = origin
        self.lens = origin[2]
        off = d.aperture_offset_mm
        self.emitter3 = tuple(origin[i] - off * self.u[i] for i in range(3))
        self.receiver3 = tuple(origin[i] + off * self.u[i] for i in range(3))
        self.emitter = (-off, 0.0)  # in the sensor's (u, v) frame
        self.receiver = (off, 0.0)
        half = math.radians(FOV_DEG / 2)
        # Rays from the emitter through points spread evenly over the mouth, kept if inside its cone;
        # each as a direction whose component along the view is 1 (so t is the depth along the view).
        self.rays = []
        for a, b in _sunflower(rays):
            pu, pv = (a * self.mouth_r - self.emitter[0]) / self.length, (b * self.mouth_r) / self.length
            if math.atan(math.hypot(pu, pv)) <= half:
                self.rays.append(tuple(w[i] + pu * self.u[i] + pv * self.v[i] for i in range(3)))
        # The share of the emitter's cone the mouth passes (solid angles, small-angle exact enough).
        mouth_sr = math.pi * self.mouth_r ** 2 / self.length ** 2 * (len(self.rays) / rays)
        cone_sr = 2 * math.pi * (1 - math.cos(half))
        self.through = mouth_sr / cone_sr
        self.tray_r = geometry.tray_diameter_mm / 2
        self.rim_h = max(25.0, geometry.die_size_mm + 8)  # as enclosure/scad/common.scad's rim_h
        self._cache: dict = {}

    # -- geometry ---------------------------------------------------------------------------
    def _seen(self, x: float, y: float, z: float) -> bool:
        """Can the receiver see the point (x, y, z) through the shroud's mouth?"""
        r, w = self.receiver3, self.w
        q = (x - r[0], y - r[1], z - r[2])
        depth = _dot(q, w)
        if depth <= self.length:
            return False  # at or behind the mouth
        f = self.length / depth
        return math.hypot(self.receiver[0] + _dot(q, self.u) * f, _dot(q, self.v) * f) <= self.mouth_r

    def _background(self, d: tuple) -> tuple | None:
        """Where a ray meets the tray itself: the floor inside the rim, or the rim's inner wall
        (a sensor looking across the tray sees it past the Heat). None: it leaves the tray."""
        e = self.emitter3
        norm = math.sqrt(_dot(d, d))
        if d[2] < 0:
            t = -e[2] / d[2]
            if math.hypot(e[0] + d[0] * t, e[1] + d[1] * t) <= self.tray_r:
                return (t, -d[2] / norm, "floor", self.design.reflectance["floor"])
        # The rim's inner wall: where the ray's horizontal path leaves the circle of the tray.
        a = d[0] ** 2 + d[1] ** 2
        if a < 1e-12:
            return None
        b = 2 * (e[0] * d[0] + e[1] * d[1])
        c = e[0] ** 2 + e[1] ** 2 - self.tray_r ** 2
        disc = b * b - 4 * a * c
        if disc < 0:
            return None
        t = (-b + math.sqrt(disc)) / (2 * a)
        z = e[2] + d[2] * t
        if t <= 0 or not 0.0 <= z <= self.rim_h:
            return None
        x, y = e[0] + d[0] * t, e[1] + d[1] * t
        cos = abs(x * d[0] + y * d[1]) / (self.tray_r * norm)
        return (t, cos, "rim", self.design.reflectance.get("rim", REFLECTANCE["rim"]))

    def _trace(self, d: tuple, boxes: tuple) -> tuple | None:
        """Follow one ray: (x, y, z, cos to the surface normal, kind, reflectance) of the first
        surface it meets, or None if it leaves the tray without meeting one."""
        e = self.emitter3
        norm = math.sqrt(_dot(d, d))
        best = self._background(d)  # (depth, cos, kind, reflectance)
        for box, kind in boxes:
            t_in, t_out, cos = 0.0, math.inf, 1.0
            for ei, di, lo, hi in ((e[0], d[0], box.x0, box.x1), (e[1], d[1], box.y0, box.y1),
                                   (e[2], d[2], box.z0, box.z1)):
                if abs(di) < 1e-12:
                    if not lo <= ei <= hi:
                        t_in, t_out = 1.0, 0.0
                    continue
                a, b = (lo - ei) / di, (hi - ei) / di
                if a > b:
                    a, b = b, a
                if a > t_in:
                    t_in, cos = a, abs(di) / norm
                t_out = min(t_out, b)
            if t_in > t_out or t_in <= 0.0:
                continue
            if best is None or t_in < best[0]:
                best = (t_in, cos, kind, box.reflectance)
        if best is None:
            return None
        t, cos, kind, rho = best
        return e[0] + d[0] * t, e[1] + d[1] * t, e[2] + d[2] * t, cos, kind, rho

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
        ex, ey, ez = self.emitter3
        for d in self.rays:
            found = self._trace(d, boxes)
            if found is None:
                continue
            x, y, z, cos, kind, rho = found
            if not self._seen(x, y, z):
                continue
            rng_mm = math.sqrt((x - ex) ** 2 + (y - ey) ** 2 + (z - ez) ** 2)
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
def post_sensor(geometry: GeometryConfig | None = None) -> Design:
    """The second VL53L0X of design ``post``: on the inner face of the arm's post, 100 mm up,
    looking down 20 degrees across the bottom of the Heat, behind a 20 mm shroud with an 8 mm
    mouth. The stack hides more of the floor beyond it as it grows, so its reading falls die by
    die up to about 4 dice (where the arm's sensor is weakest) and is flat above. Where the post
    stands comes from the enclosure's parameters (``post_r``, ``post_w``)."""
    scad = _scad_numbers()
    g = geometry or GeometryConfig()
    tray_out_r = g.tray_diameter_mm / 2 + scad["rim_t"]
    face = tray_out_r + scad["foot_depth"] / 2 - scad["post_w"] / 2 - 1.0  # post_r, less half the post
    tilt = math.radians(20.0)
    return Design(pose=Pose(face, 0.0, 100.0, -math.cos(tilt), 0.0, -math.sin(tilt)),
                  own_shroud=Shroud(length=20.0, mouth_r=4.0), signal_limit_mcps=0.06, sigma_limit_mm=60.0,
                  name="post")


DESIGNS = {
    "as-built": Design(),
    "low-limit": Design(signal_limit_mcps=0.06, sigma_limit_mm=60.0),
    "wide-mouth": Design(zone_dice=4, signal_limit_mcps=0.1, sigma_limit_mm=60.0),
    "post": Design(signal_limit_mcps=0.06, sigma_limit_mm=60.0, companions=(post_sensor(),)),
}
