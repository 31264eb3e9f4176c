"""A physical model of the Heat's weighing chain: dice on a plinth, a bar load cell, a NAU7802.

Light blends; mass adds. The Heat stands on a small raised plinth whose top is
just larger than one die, carried by a bar load cell on a base of its own
(through a hole in the tray floor). What the tray's firmware reads is the
NAU7802's 24-bit code, once per conversion (80 per second). This module makes
those codes from what happens on the table, so the simulator, the virtual tray
and the benchmark see what a real chain would. Every number's source is in
``docs/sensing.md`` ("The weighing chain: numbers and sources").

What goes into one code, in order:

* **The load** on the plinth, in grams: the standing dice (each die its own
  mass, drawn once per set: ``DiceSet``), a d10 resting on top, part of a
  fallen die leaning on the plinth, and fingers pressing while a die is put
  on or taken off (a steady push plus the hand's 8-12 Hz tremor). A die that
  falls does not vanish: its weight leaves over a few milliseconds, and the
  dice of one fall leave one after another.
* **Ringing.** Plinth and dice on the cell are a mass on a spring (the cell's
  stiffness from its deflection at capacity), so a knock sets them ringing at
  100-250 Hz, dying away with the damping of the mount. An impulse J on the
  plinth rings with a force amplitude of J times the angular frequency. Knocks
  come from a d10 striking the stack (directly), and from a d10 or a fallen die
  hitting the tray floor (through the cell's own base: ``isolation``). A load
  that changes suddenly rings too.
* **The cell**: its rated output (mV per V of excitation) at the NAU7802's
  3.0 V LDO sets microvolts per gram; creep (the output creeping towards a
  little more under a steady load), drift of the zero as the room warms, and
  the bow of its non-linearity.
* **The ADC**: input noise, and a sigma-delta's decimation filter: each code
  is the load averaged over the last three conversion periods with the
  weights of a sinc-cubed filter (a quadratic B-spline), so a step settles in
  three conversions and ringing far above the data rate is mostly averaged
  away.

Randomness comes from the chain's own ``random.Random``, so adding a scale to
the simulator does not change the distances its VL53L0X reads.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

GRAVITY = 9.80665  # m/s^2


# ---- the parts (docs/sensing.md gives each number's source) ---------------------------------------
@dataclass(frozen=True)
class DiceSet:
    """The Heat's d6 and the thrown d10, by mass."""

    mean_g: float = 4.4        # a 16 mm acrylic d6: 4.1 cm^3 at 1.18 g/cm^3, less pips and rounded edges
    spread: float = 0.01       # relative standard deviation of one die's mass within a matched set
    d10_g: float = 5.0         # a thrown d10 (estimate: weigh yours on the bench)

    def draw(self, rng: random.Random, n: int) -> list[float]:
        """The masses of a set of ``n`` dice, each drawn once."""
        return [max(0.1, rng.gauss(self.mean_g, self.mean_g * self.spread)) for _ in range(n)]


@dataclass(frozen=True)
class Cell:
    """A 1 kg class straight-bar load cell (four wires E+ E- A+ A-)."""

    capacity_g: float = 1000.0
    rated_mv_per_v: float = 1.0          # rated output at capacity
    nonlinearity_fs: float = 0.0005      # 0.05 % of full scale, the bow's height at mid-range
    creep_fs_30min: float = 0.001        # 0.1 % of the load after 30 minutes under it
    creep_tau_s: float = 600.0           # how fast creep builds (estimate)
    zero_drift_fs_per_10c: float = 0.0005  # temperature effect on zero, 0.05 % FS per 10 degrees C
    deflection_mm: float = 0.25          # deflection at capacity (estimate for a 1 kg bar)

    @property
    def stiffness_n_per_m(self) -> float:
        return self.capacity_g / 1000.0 * GRAVITY / (self.deflection_mm / 1000.0)


@dataclass(frozen=True)
class Adc:
    """The NAU7802 as the tray drives it: gain 128, LDO 3.0 V, 80 samples/s."""

    rate_sps: float = 80.0
    excitation_v: float = 3.0            # the driver's default LDO setting ("3V0")
    gain: int = 128
    noise_uv: float = 0.10               # input-referred RMS noise at gain 128 and 80 SPS
    filter_periods: int = 3              # a code averages this many conversion periods (sinc^3)

    @property
    def counts_per_uv(self) -> float:
        """24-bit codes per microvolt at the input: +/- half the reference over the gain is +/- 2^23."""
        return (2 ** 23) / (0.5 * self.excitation_v / self.gain * 1e6)


@dataclass(frozen=True)
class Mount:
    """The plinth on the cell, and how the cell is held."""

    plinth_g: float = 12.0               # a printed PLA column 20 mm high, top just larger than a die
    damping: float = 0.15                # damping ratio with a TPU/foam pad under the plinth (0.03 bare)
    isolation: float = 0.03              # share of a knock on the tray floor that reaches the cell (own base)


@dataclass(frozen=True)
class Scenery:
    """How often the awkward things happen (estimates; the stress runs raise them)."""

    lean_chance: float = 0.02            # a fall leaves one die leaning on the plinth
    lean_share: tuple[float, float] = (0.05, 0.4)  # the share of its weight the plinth then carries
    d10_on_top_chance: float = 0.003     # a throw that does not topple the Heat leaves its d10 resting on top
    press_g: tuple[float, float] = (10.0, 150.0)   # fingers pushing a die home (0.1-1.5 N)
    tremor_g: float = 3.0                # the hand's 8-12 Hz tremor while it touches the stack
    room_drift_c_per_h: float = 1.0      # the room warming through an evening
    strike_j: tuple[float, float] = (0.002, 0.010)  # N*s: a d10 striking the stack (vertical share)
    floor_j: tuple[float, float] = (0.004, 0.012)   # N*s: a d10 or a fallen die hitting the tray floor
    leave_gap_s: tuple[float, float] = (0.0, 0.006)  # between two dice of one block leaving the plinth
    block_gap_s: tuple[float, float] = (0.015, 0.060)  # a knocked stack breaks at one or two joints: between blocks
    leave_ramp_s: float = 0.008          # a leaving die's weight goes over this long
    leave_kick_j: float = 0.002          # N*s: the push a toppling die gives the plinth as it goes


@dataclass(frozen=True)
class ScaleDesign:
    """One weighing design: what the benchmark grades and the simulator runs."""

    name: str = "nau7802"
    dice: DiceSet = field(default_factory=DiceSet)
    cell: Cell = field(default_factory=Cell)
    adc: Adc = field(default_factory=Adc)
    mount: Mount = field(default_factory=Mount)
    scenery: Scenery = field(default_factory=Scenery)
    noise_scale: float = 1.0

    @property
    def uv_per_g(self) -> float:
        return self.cell.rated_mv_per_v * self.adc.excitation_v * 1000.0 / self.cell.capacity_g

    @property
    def counts_per_g(self) -> float:
        return self.uv_per_g * self.adc.counts_per_uv


SCALE_DESIGNS = {
    "nau7802": ScaleDesign(),
    "nau7802-bolted": ScaleDesign(name="nau7802-bolted", mount=Mount(damping=0.03, isolation=0.5)),
    "nau7802-10sps": ScaleDesign(name="nau7802-10sps", adc=Adc(rate_sps=10.0, noise_uv=0.05)),
}


def _bspline(s: float) -> float:
    """The weight of a sinc^3 filter at ``s`` conversion periods into its 3-period window."""
    if s < 0 or s >= 3:
        return 0.0
    if s < 1:
        return s * s / 2
    if s < 2:
        return (-2 * s * s + 6 * s - 3) / 2
    return (3 - s) ** 2 / 2


_POINTS = 16  # points per conversion period where the load is evaluated during a transient (0.8 ms apart at 80 SPS: well above the ringing, so it does not alias)
_WEIGHTS = [_bspline((i + 0.5) / _POINTS) / _POINTS for i in range(3 * _POINTS)]


@dataclass
class _Ramp:
    t0: float
    t1: float
    delta_g: float

    def at(self, t: float) -> float:
        if t <= self.t0:
            return 0.0
        if t >= self.t1:
            return self.delta_g
        return self.delta_g * (t - self.t0) / (self.t1 - self.t0)


@dataclass
class _Ring:
    t0: float
    amp_g: float
    omega: float
    decay: float  # 1/s
    phase: float

    def at(self, t: float) -> float:
        if t < self.t0:
            return 0.0
        dt = t - self.t0
        return self.amp_g * math.exp(-self.decay * dt) * math.sin(self.omega * dt + self.phase)


@dataclass
class _Press:
    t0: float
    t1: float
    base_g: float
    tremor_g: float
    phase: float

    def at(self, t: float) -> float:
        if t <= self.t0 or t >= self.t1:
            return 0.0
        edge = min(1.0, (t - self.t0) / 0.015, (self.t1 - t) / 0.015)  # fingers land and lift over 15 ms
        return edge * (self.base_g + self.tremor_g * math.sin(2 * math.pi * 10.0 * t + self.phase))


class WeighingChain:
    """Dice on the plinth, the cell and the ADC, in time (seconds from the start).

    Tell it what happens (``put``, ``take``, ``fall``, ``press``, ``strike``, ``floor_knock``,
    ``lean``, ``rest_d10``, ``clear_extras``) at the time it happens, and ask for the codes the
    ADC produced up to a time (``codes_until``). ``standing`` is the list of the masses now on the
    plinth, bottom first.
    """

    def __init__(self, design: ScaleDesign | None = None, seed: int = 0, start_dice: int = 0,
                 set_size: int = 30, temperature_c: float = 21.0):
        self.design = design or ScaleDesign()
        self.rng = random.Random(seed)
        d = self.design
        self.set = d.dice.draw(self.rng, set_size)  # the set; dice go on in this order
        self.standing: list[float] = list(self.set[:start_dice])
        self._load_g = sum(self.standing)  # the settled load (dice, extras), ramps folded in once done
        self._extras: dict[str, float] = {}  # "d10", "lean": weight carried that is not a standing die
        self._ramps: list[_Ramp] = []
        self._rings: list[_Ring] = []
        self._presses: list[_Press] = []
        self.period = 1.0 / d.adc.rate_sps
        self._next = self.rng.uniform(0.0, self.period)  # the first conversion ends here
        self._creep_g = 0.0
        self.temperature0 = temperature_c
        self.zero_code = int(self.rng.uniform(-20000, 20000))  # the cell's zero balance, tared away
        self.last_code: int | None = None

    # -- what happens ----------------------------------------------------------------------------
    @property
    def dice(self) -> int:
        return len(self.standing)

    def _change(self, t: float, delta_g: float, ramp_s: float) -> None:
        self._ramps.append(_Ramp(t, t + ramp_s, delta_g))
        if ramp_s < 0.01 and abs(delta_g) > 0:  # a sudden change rings the plinth
            self._ring(t, delta_g * min(1.0, 0.004 / max(ramp_s, 1e-4)) * self.rng.uniform(0.3, 1.0))

    def _omega(self) -> float:
        mass = (self.design.mount.plinth_g + self._load_g) / 1000.0
        return math.sqrt(self.design.cell.stiffness_n_per_m / mass)

    def _ring(self, t: float, amp_g: float) -> None:
        omega = self._omega()
        zeta = self.design.mount.damping
        self._rings.append(_Ring(t, amp_g, omega * math.sqrt(1 - zeta * zeta), zeta * omega,
                                 self.rng.uniform(-0.3, 0.3)))

    def impulse(self, t: float, newton_s: float) -> None:
        """A vertical impulse on the plinth: it rings with a force amplitude of J * omega."""
        self._ring(t, newton_s * self._omega() / GRAVITY * 1000.0)

    def put(self, t: float, press: bool = True) -> None:
        """A hand sets the next die of the set on top (fingers pushing it home first)."""
        mass = self.set[len(self.standing) % len(self.set)]
        self.standing.append(mass)
        if press:
            self.press(t - 0.05, t + 0.03)
        self._change(t, mass, 0.02)
        self._load_g += mass

    def take(self, t: float, press: bool = True) -> None:
        """A hand lifts the top die off (gripping, pressing a little, then lifting)."""
        if not self.standing:
            raise ValueError("no die on the plinth to take")
        mass = self.standing.pop()
        if press:
            self.press(t - 0.06, t + 0.01, share=0.5)
        self._change(t, -mass, 0.03)
        self._load_g -= mass

    def press(self, t0: float, t1: float, share: float = 1.0) -> None:
        """Fingers on the stack from ``t0`` to ``t1``: a push and the hand's tremor."""
        s = self.design.scenery
        self._presses.append(_Press(t0, t1, share * self.rng.uniform(*s.press_g), s.tremor_g,
                                    self.rng.uniform(0, 2 * math.pi)))

    def fall(self, t: float, fell: int) -> float:
        """``fell`` dice leave the top of the stack, the first at ``t``: a knocked stack breaks at one
        or two joints and each part goes as a block, its dice a few ms apart. Returns when the last
        one has left. Their landings knock the tray floor."""
        s = self.design.scenery
        rng = self.rng
        at = t
        breaks = set(rng.sample(range(1, fell), min(fell - 1, rng.randint(0, 1)))) if fell > 1 else set()
        for j in range(fell):
            if j in breaks:
                at += rng.uniform(*s.block_gap_s)
            if not self.standing:
                break
            mass = self.standing.pop()
            self._change(at, -mass, s.leave_ramp_s)
            self._load_g -= mass
            self.impulse(at, rng.uniform(0.0, 1.0) * s.leave_kick_j)  # a die tipping off presses on the edge as it goes
            self.floor_knock(at + rng.uniform(0.06, 0.25))
            if j < fell - 1:
                at += rng.uniform(*s.leave_gap_s)
        if self._extras.get("d10"):  # a d10 resting on top goes down with the stack
            self._change(t, -self._extras.pop("d10"), s.leave_ramp_s)
            self._load_g = sum(self.standing) + self.extras_g
        if rng.random() < s.lean_chance and fell > 0:
            self.lean(at + rng.uniform(0.1, 0.3))
        return at

    def lean(self, t: float) -> None:
        """A fallen die comes to rest leaning on the plinth: part of its weight stays on the cell."""
        share = self.rng.uniform(*self.design.scenery.lean_share)
        self._extra(t, "lean", share * self.design.dice.mean_g)

    def rest_d10(self, t: float) -> None:
        """A thrown d10 comes to rest on top of the stack."""
        self._extra(t, "d10", self.design.dice.d10_g)

    def _extra(self, t: float, kind: str, grams: float) -> None:
        self._extras[kind] = self._extras.get(kind, 0.0) + grams
        self._change(t, grams, 0.005)
        self._load_g += grams

    @property
    def extras_g(self) -> float:
        return sum(self._extras.values())

    def clear_extras(self, t: float) -> None:
        """A hand tidies the Heat: the leaning die and a d10 on top are taken away."""
        grams = self.extras_g
        if grams:
            self._extras = {}
            self._change(t, -grams, 0.03)
            self._load_g -= grams

    def strike(self, t: float, strength: float = 1.0) -> None:
        """A thrown d10 strikes the stack (``strength`` 0..1)."""
        s = self.design.scenery
        self.impulse(t, strength * self.rng.uniform(*s.strike_j))  # a blow can only push the plinth down

    def floor_knock(self, t: float) -> None:
        """Something lands on the tray floor; the cell's own base passes on ``isolation`` of it."""
        s = self.design.scenery
        self.impulse(t, self.design.mount.isolation * self.rng.uniform(*s.floor_j) * self.rng.choice((-1.0, 1.0)))

    # -- what the ADC reports ------------------------------------------------------------------
    def load_at(self, t: float) -> float:
        """The force on the cell at ``t`` in grams (without the plinth, which is tared)."""
        base = self._load_g - sum(r.delta_g for r in self._ramps)
        return (base + sum(r.at(t) for r in self._ramps) + sum(r.at(t) for r in self._rings)
                + sum(p.at(t) for p in self._presses))

    def _busy(self, start: float, end: float) -> bool:
        return bool(any(r.t1 > start and r.t0 < end for r in self._ramps) or
                    any(r.t0 < end for r in self._rings) or any(p.t1 > start and p.t0 < end for p in self._presses))

    def _tidy(self, t: float) -> None:
        """Forget what no longer moves: finished ramps, rings died away, presses over."""
        window = 3 * self.period
        self._ramps = [r for r in self._ramps if r.t1 > t - window]
        self._rings = [r for r in self._rings if abs(r.amp_g) * math.exp(-r.decay * max(0.0, t - window - r.t0)) > 1e-3]
        self._presses = [p for p in self._presses if p.t1 > t - window]

    def _code(self, t: float) -> int:
        d = self.design
        start = t - d.adc.filter_periods * self.period
        if self._busy(start, t):
            step = self.period / _POINTS
            grams = sum(w * self.load_at(start + (i + 0.5) * step) for i, w in enumerate(_WEIGHTS))
        else:  # nothing moves in the window: the load as it is (changes already scheduled come later)
            grams = self._load_g - sum(r.delta_g for r in self._ramps if r.t0 >= t)
        cell = d.cell
        # Creep builds towards a small share of the load; the zero drifts as the room warms.
        target = cell.creep_fs_30min * self._load_g / (1 - math.exp(-1800.0 / cell.creep_tau_s))
        self._creep_g += (target - self._creep_g) * (1 - math.exp(-self.period / cell.creep_tau_s))
        warming = d.scenery.room_drift_c_per_h * t / 3600.0
        drift_g = cell.zero_drift_fs_per_10c * cell.capacity_g * warming / 10.0
        x = (grams + d.mount.plinth_g) / cell.capacity_g
        bow_g = 4 * cell.nonlinearity_fs * cell.capacity_g * x * (1 - x)
        noise_g = self.rng.gauss(0.0, d.adc.noise_uv / d.uv_per_g) * d.noise_scale
        total = grams + self._creep_g + drift_g + bow_g + noise_g
        code = self.zero_code + int(round(total * d.counts_per_g))
        return max(-(2 ** 23), min(2 ** 23 - 1, code))

    def codes_until(self, t: float) -> list[tuple[float, int]]:
        """Every (time, code) the ADC finishes up to ``t``."""
        out = []
        while self._next <= t:
            code = self._code(self._next)
            out.append((round(self._next, 6), code))
            self.last_code = code
            self._next += self.period
            self._tidy(self._next)
        return out

    def still_codes(self, dice: int, n: int, extra_g: float = 0.0) -> list[int]:
        """``n`` codes over a still stack of the set's first ``dice`` dice (for calibration and the bench)."""
        d = self.design
        grams = sum(self.set[:dice]) + extra_g
        x = (grams + d.mount.plinth_g) / d.cell.capacity_g
        bow = 4 * d.cell.nonlinearity_fs * d.cell.capacity_g * x * (1 - x)
        return [self.zero_code + int(round((grams + bow + self.rng.gauss(0.0, d.adc.noise_uv / d.uv_per_g)
                                            * d.noise_scale) * d.counts_per_g)) for _ in range(n)]
