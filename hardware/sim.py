"""A simulated sensing tray: the Heat, thrown d10s and a sensor that behaves like a VL53L0X.

Two layers:

* ``TableSimulator`` is the raw physics, with no detection at all. You act on
  the table (``add_die``, ``remove_die``, ``throw``, ``topple``) and read it
  one sample at a time with ``tick()``, which returns what the sensors would
  see: a distance in mm (or None, or an out-of-range code) and a piezo level.
  It also keeps ``truth``, a record of what really happened and on which
  sample it became visible, so tests and benchmarks can grade a detector.
* ``SimTray`` is a ``Tray`` port built on it: the simulator, the very Heat
  tracker the firmware runs (``firmware.tray.heat``, told of piezo knocks as
  the firmware tells it) and the firmware's impact/settle detector, emitting
  the same events a real tray does.

What the simulated sensor does, and why (numbers are per sample, one sample
per timing budget, 33 ms by default):

* Gaussian noise of 1 mm + 0.5 % of the distance (about 2.6 mm sd at 320 mm),
  with vibration noise of up to 1.5 mm sd added (in quadrature) while the
  tray rings after an impact.
* Dropouts (None) 0.5 %, now and then in bursts; out-of-range codes 8190/8191
  0.5 %; an odd junk value anywhere in range 0.1 %.
* Things above the stack are closer than its top, and the sensor reports the
  nearest: a hand placing or taking a die (several hundred ms), a thrown d10
  flying through the beam (a sample or two), dice bouncing off the floor
  after a landing (up to 6 cm high, so seen only over a short stack).
* A tall stack (over 6 dice) sways. Seen from above the sway moves the top
  only a few mm (at most 3), but a shaken, swaying stack sometimes shows the
  spot half on the top face and half on the die's side: a reading up to 0.4
  of a die too far, for one sample.
* A throw may hit the Heat. The chance of a collapse grows with the stack's
  height and with the throw's inaccuracy. A collapse is partial or total.
  A knocked stack is out of the narrow spot fast: 60 % of falls show the new
  top on the very next sample, 37 % after one sample and 3 % after two
  samples of dice on their way down, each of which reads somewhere between
  the old top and the new one, lower on each sample (60 %), or is lost (40 %,
  a moving target).
* Fallen dice roll out of the spot: the sensor arm narrows its view to the
  stack's footprint (see the enclosure), so only standing dice are seen.

With ``optics`` (an ``hardware.optics.OpticalSensor``) the reading is made
differently: each sample builds the scene in the sensor's view (the stack,
a hand, a d10 in flight, falling, bouncing and fallen dice, each a box) and
the optical model reports what a VL53L0X would: the signal-weighted mean
distance, its noise and its error codes. The physics above (what happens
when) is the same for both; the ideal model's table is unchanged.

The piezo level is 0..1 of full scale: about 0.01 at rest, a spike of
0.3-1.0 when a d10 lands, ringing down over a few hundred ms with smaller
bounces; falling Heat dice add their own knocks.
"""

from __future__ import annotations

import dataclasses
import math
import random
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Optional

from firmware.tray.heat import KNOCK_LEVEL, Calibration, HeatTracker
from firmware.tray.impact import ImpactDetector
from firmware.tray.weight import WeightTracker, calibrate_weighing

from .config import Config, GeometryConfig
from .events import ZONE_PIEZOS, DistanceSample, LinkDown, LinkUp, ThrowImpact, ThrowSettled, TrayEvent, Zone, heat_event
from .ports import Tray

if TYPE_CHECKING:
    from .optics import OpticalSensor
    from .weighing import ScaleDesign, WeighingChain

OUT_OF_RANGE_CODES = (8190, 8191)
REFLECTANCE_D10 = 0.60  # as hardware.optics.REFLECTANCE["d10"] (kept here so the ideal model needs no optics)


@dataclass(frozen=True, slots=True)
class RawSample:
    """One sample as the sensors give it. ``distance_mm`` may be None or an out-of-range code."""

    t: float
    distance_mm: Optional[int]
    piezo: float
    others: tuple = ()  # with an optical model that has companions: each one's reading (mm or None)
    weights: tuple = ()  # with a scale: each (t, code) the NAU7802 finished during this sample
    disc: Optional[int] = None  # the piezo disc that felt the latest d10 landing most (ZONE_PIEZOS)


@dataclass(frozen=True, slots=True)
class Truth:
    """Something that really happened on the simulated table.

    ``sample`` is the index of the first sample on which it shows: for a
    change of the stack, the first sample whose reading is no longer the old
    top (for a collapse; the new top shows ``tumble`` samples later) or the
    first one after the hand has left (for an added or removed die). ``kind`` is one of "added", "removed", "collapse",
    "landed" (a thrown d10 came to rest).
    """

    kind: str
    sample: int
    t: float
    dice: int  # stack height after the event
    fell: int = 0
    standing: int = 0
    zone: Optional[Zone] = None
    face: Optional[int] = None
    hit_heat: bool = False
    tumble: int = 0  # for a collapse: samples of falling dice before the new top shows
    leave_t: float = 0.0  # with a scale: when the first die of a collapse left the plinth (s)


@dataclass
class _Slot:
    """What the physics has planned for one future sample."""

    above_mm: Optional[float] = None  # something this high above the floor is in the beam
    tumble: Optional[tuple] = None  # (low, high) heights in dice: dice on their way down are in the beam
    blind: bool = False  # the reading is lost (dropout)
    set_stack: Optional[int] = None  # the stack becomes this tall on this sample
    truth: list = field(default_factory=list)  # Truth records that become visible on this sample
    knock: float = 0.0  # a piezo impulse on this sample
    disc: Optional[int] = None  # with a d10 landing's knock: the disc nearest it
    shake: float = 0.0  # shakes the stack (0..1)
    vibrate: float = 0.0  # starts tray vibration (0..1)
    flyer: bool = False  # what is at above_mm is a thrown d10, not a hand
    fall: bool = False  # set_stack is the end of a fall (not a hand's work)
    lands: Optional[Zone] = None  # a thrown d10 comes to rest in this zone on this sample
    tidy: bool = False  # a hand takes a d10 resting on the Heat (and a leaning die) away


class TableSimulator:
    """The raw physics of the tray (see the module docstring). Seeded: same seed, same table."""

    def __init__(self, geometry: GeometryConfig, seed: int = 0, sample_period_s: float = 0.033,
                 start_dice: int = 2, offset_mm: float = 0.0, optics: "OpticalSensor | None" = None,
                 scale: "ScaleDesign | None" = None):
        if start_dice < 0 or start_dice > geometry.max_heat_dice:
            raise ValueError(f"start_dice must be 0-{geometry.max_heat_dice}, got {start_dice}")
        self.geometry = geometry
        self.rng = random.Random(seed)
        self.sample_period_s = sample_period_s
        self.offset_mm = offset_mm  # a sensor's fixed range error, for calibration tests
        self.stack = start_dice  # dice standing right now
        self._planned = start_dice  # dice standing once every scheduled action is done
        self.index = 0  # samples produced so far
        self.t = 0.0
        self.truth: list[Truth] = []
        self._slots: list[_Slot] = []
        self._vibration = 0.0
        self._shake = 0.0
        self._piezo = 0.0
        self._disc: Optional[int] = None  # the disc that felt the latest landing most
        self.dead_piezos: set[int] = set()  # discs that feel nothing (a broken wire), for the bench's tests
        self._phase = self.rng.uniform(0, 2 * math.pi)
        self._dropout_burst = 0
        # With an optical model the reading is what a VL53L0X makes of the whole scene in its view.
        self.optics = optics
        self.status = 0  # the last reading's range status (optical model only)
        self._stack_xy = (0.0, 0.0)
        if optics is not None:  # (drawn only then, so the ideal model's table is what it always was)
            self._stack_xy = (self.rng.uniform(-2.0, 2.0), self.rng.uniform(-2.0, 2.0))  # never dead centre
        self._fallen: list = []  # fallen dice lying at the edge of the view
        # Sensors beside the arm's (``design.companions``) read the same scene; their noise, and
        # where landed d10s lie (only they can see them), come from a second stream, so the arm's
        # readings are the same sample for sample with and without them.
        self._companions: list = []
        self._rng2 = random.Random(seed * 7919 + 17)
        self._resting: list = []  # landed d10s lying on the tray: (x, y)
        self._others: tuple = ()
        if optics is not None:
            self._make_companions(optics)
        # With a scale, the Heat stands on a plinth over a load cell (hardware/weighing.py). Its
        # randomness is its own, so the VL53L0X reads the same table with or without it.
        self.scale: "WeighingChain | None" = None
        if scale is not None:
            from .weighing import WeighingChain  # noqa: PLC0415

            self.scale = WeighingChain(scale, seed=seed * 31 + 7, start_dice=start_dice)

    # -- planning ---------------------------------------------------------
    def _slot(self, i: int) -> _Slot:
        while len(self._slots) <= i:
            self._slots.append(_Slot())
        return self._slots[i]

    @property
    def busy_samples(self) -> int:
        """Samples until every action asked for so far has played out."""
        return len(self._slots)

    @property
    def planned_dice(self) -> int:
        """The stack height once every scheduled action is done."""
        return self._planned

    def _top_mm(self, dice: int) -> float:
        return dice * self.geometry.die_size_mm

    def _hand(self, change: int, kind: str) -> None:
        """A hand comes over the stack, changes it by ``change`` dice, and leaves."""
        rng = self.rng
        start = len(self._slots) + rng.randint(2, 10)
        before, after = rng.randint(4, 12), rng.randint(2, 8)
        old, new = self._planned, self._planned + change
        for j in range(before + after):
            slot = self._slot(start + j)
            # The back of the hand is 2.5-10 cm over the top while the fingers work, and keeps
            # 4 cm or more clear of the sensor arm.
            slot.above_mm = min(self._top_mm(max(old, new)) + rng.uniform(25, 100),
                                self.geometry.sensor_height_mm - 40)
            if rng.random() < 0.05:
                slot.blind = True
            if j == before:
                slot.set_stack = new
                slot.knock = rng.uniform(0.02, 0.06)  # a die set down or lifted: a faint tap
        first = start + before + after
        self._slot(first).truth.append(Truth(kind, 0, 0.0, new))
        self._slot(first + rng.randint(3, 10))  # the hand takes a moment to be out of the way
        self._planned = new

    def _make_companions(self, optics: "OpticalSensor") -> None:
        from .optics import OpticalSensor  # noqa: PLC0415 (the ideal model never needs it)

        self._companions = [OpticalSensor(self.geometry, c) for c in optics.design.companions]

    def use_optics(self, optics: "OpticalSensor | None") -> None:
        """Read the table through an optical model from now on (None: the ideal sensor again)."""
        self.optics = optics
        self._companions = []
        if optics is not None:
            self._make_companions(optics)
        if optics is not None and self._stack_xy == (0.0, 0.0):
            self._stack_xy = (self.rng.uniform(-2.0, 2.0), self.rng.uniform(-2.0, 2.0))

    def wave_hand(self, samples: int = 60) -> None:
        """A hand passes back and forth over the Heat (4-10 cm above it) and touches nothing."""
        rng = self.rng
        start = len(self._slots) + rng.randint(1, 4)
        for j in range(samples):
            slot = self._slot(start + j)
            slot.above_mm = min(self._top_mm(self._planned) + rng.uniform(40, 100), self.geometry.sensor_height_mm - 40)
        self._slot(start + samples + rng.randint(3, 10))

    def add_die(self) -> None:
        """Someone puts one die on top of the Heat (a Risk, a Gain Heat, a rebuild)."""
        if self._planned >= self.geometry.max_heat_dice:
            raise ValueError(f"the Heat is already {self._planned} dice, the most this tray measures")
        self._hand(+1, "added")

    def remove_die(self) -> None:
        """Someone takes the top die off the Heat."""
        if self._planned <= 0:
            raise ValueError("there is no die on the tray to take off")
        self._hand(-1, "removed")

    def collapse_chance(self, dice: int, accuracy: float) -> float:
        """How likely a throw makes a stack of ``dice`` fall: more for tall stacks and wild throws."""
        if dice <= 0:
            return 0.0
        return min(0.9, (0.03 + 0.025 * (dice - 2)) * (0.4 + 1.6 * (1.0 - accuracy)))

    def loudest_disc(self, zone: Zone) -> Optional[int]:
        """The disc that reads a landing in ``zone`` strongest: the nearest one that works (ZONE_PIEZOS)."""
        return next((disc for disc in ZONE_PIEZOS[zone] if disc not in self.dead_piezos), None)

    def throw(self, accuracy: float = 0.8, zone: Zone | str | None = None, face: int | None = None,
              collapse: bool | None = None) -> Truth:
        """A d10 is thrown at the Conflict Target.

        ``accuracy`` 0..1: how well aimed (decides the zone when not given, and
        the chance of hitting the Heat). ``collapse`` forces the outcome for
        scripted tests; normally chance decides. Returns the landing record
        (also in ``truth`` once it happens).
        """
        if not 0.0 <= accuracy <= 1.0:
            raise ValueError(f"accuracy must be between 0 and 1, got {accuracy}")
        if face is not None and not 1 <= face <= 10:
            raise ValueError(f"a d10 shows 1-10, got {face}")
        rng = self.rng
        if zone is None:
            r = rng.random()
            zone = Zone.INSIDE if r < 0.85 * accuracy else Zone.TOUCHING if r < 0.85 * accuracy + 0.12 else Zone.OUTSIDE
        zone = Zone(zone)
        face = face if face is not None else rng.randint(1, 10)
        dice = self._planned
        falls = collapse if collapse is not None else rng.random() < self.collapse_chance(dice, accuracy)
        falls = falls and dice > 0
        start = len(self._slots) + rng.randint(1, 4)
        land = start + rng.randint(3, 8)
        # A d10 crossing the beam on its way in, now and then.
        if rng.random() < 0.3:
            for j in range(rng.randint(1, 2)):
                self._slot(land - 1 - j).above_mm = self._top_mm(dice) + rng.uniform(10, 150)
                self._slot(land - 1 - j).flyer = True
        slot = self._slot(land)
        slot.knock = rng.uniform(0.3, 1.0)
        slot.disc = self.loudest_disc(zone)
        slot.vibrate = 1.0
        slot.shake = 1.0 if falls else rng.uniform(0.1, 0.6) * (1.3 - accuracy)
        for j in range(rng.randint(1, 3)):  # bounces
            self._slot(land + 2 + 3 * j + rng.randint(0, 2)).knock = rng.uniform(0.05, 0.3)
        if falls:
            self._fall(land + rng.randint(0, 1), dice, None)
        landed = Truth("landed", 0, 0.0, self._planned, zone=zone, face=face, hit_heat=falls)
        self._slot(land).truth.append(landed)
        self._slot(land).lands = zone
        self._slot(land + rng.randint(15, 25))  # rolling to a stop
        return landed

    def topple(self, n: int | None = None) -> None:
        """The Heat falls with no throw (a bumped table, an elbow). ``n`` dice fall (None: chance)."""
        dice = self._planned
        if dice <= 0:
            raise ValueError("there is no stack to topple")
        if n is not None and not 1 <= n <= dice:
            raise ValueError(f"n must be 1-{dice} (the dice standing), got {n}")
        at = len(self._slots) + self.rng.randint(1, 5)
        self._slot(at).shake = 1.0
        self._fall(at, dice, n)

    def _fall(self, at: int, dice: int, fell: int | None) -> None:
        rng = self.rng
        if fell is None:
            total = dice == 1 or rng.random() < 0.25 + 0.02 * dice
            fell = dice if total else rng.randint(1, dice - 1)
        r = rng.random()
        tumble = 0 if r < 0.6 else 1 if r < 0.97 else 2
        new = dice - fell
        for j in range(tumble):
            # The falling dice go down: each sample sees them lower than the one before.
            span = (dice - new) / tumble
            self._slot(at + j).tumble = (dice - (j + 1) * span, dice - j * span)
        slot = self._slot(at + tumble)
        slot.set_stack = new
        slot.fall = True
        self._slot(at).truth.append(Truth("collapse", 0, 0.0, new, fell=fell, standing=new, tumble=tumble))
        for j in range(min(fell, 4)):  # Heat dice hitting the tray
            self._slot(at + 1 + j + rng.randint(0, 2)).knock = rng.uniform(0.1, 0.5)
        self._slot(at + tumble).vibrate = max(self._slot(at + tumble).vibrate, 0.7)
        self._planned = new

    # -- sampling ---------------------------------------------------------
    def tick(self) -> RawSample:
        """Advance one sample period and return what the sensors read."""
        rng = self.rng
        slot = self._slots.pop(0) if self._slots else _Slot()
        if slot.set_stack is not None:
            if self.optics is not None:
                self._place_fallen(self.stack, slot.set_stack, slot.fall)
            self.stack = slot.set_stack
        leave = self._weigh_events(slot) if self.scale is not None else None
        for record in slot.truth:
            stamped = _stamped(record, self.index, self.t)
            if leave is not None and record.kind == "collapse":
                stamped = dataclasses.replace(stamped, leave_t=round(leave, 6))
            self.truth.append(stamped)
        self._vibration = max(self._vibration * 0.8, slot.vibrate)
        self._shake = max(self._shake * 0.93, slot.shake)
        self._piezo = self._piezo * 0.55 + slot.knock
        if slot.disc is not None:
            self._disc = slot.disc

        if self.optics is not None:
            if slot.lands is not None and self._companions:
                self._rest_d10(slot.lands)
            reading = self._optical(slot, self.optics)
            return self._deliver(slot, reading)

        g = self.geometry
        floor = g.sensor_height_mm + self.offset_mm
        top = floor - self._top_mm(self.stack)
        sd = math.hypot(1.0 + 0.005 * top, 1.5 * self._vibration)
        reading = top + rng.gauss(0.0, sd)
        # Sway of a tall stack: a few mm at most along the beam.
        if self.stack > 6:
            self._phase += 2 * math.pi * self.sample_period_s / (0.35 + 0.04 * self.stack)
            amp = min(3.0, 0.25 * (self.stack - 6) * (1 + 2 * self._shake))
            reading += amp * math.sin(self._phase)
            if rng.random() < 0.03 * self._shake:
                reading += rng.uniform(0.1, 0.4) * g.die_size_mm
        if slot.tumble is not None:
            low, high = slot.tumble
            # A moving target: the sensor either smears it or gives up on the sample.
            reading = floor - rng.uniform(self._top_mm(low), self._top_mm(high)) if rng.random() < 0.6 else None
        # A die bouncing off the tray floor through the spot (1.5-6 cm high): seen when above the top.
        if reading is not None and rng.random() < 0.04 * self._vibration:
            reading = min(reading, floor - rng.uniform(15, 60))
        if slot.above_mm is not None and reading is not None:
            reading = min(reading, floor - slot.above_mm + rng.gauss(0.0, 3.0))
        return self._deliver(slot, reading)

    def _deliver(self, slot: _Slot, reading: Optional[float]) -> RawSample:
        """Dropouts, error codes and junk of the sensor's link, then the sample itself."""
        rng, g = self.rng, self.geometry
        distance: Optional[int]
        if slot.blind or reading is None:
            distance = None
        elif self._dropout_burst > 0:
            self._dropout_burst -= 1
            distance = None
        else:
            r = rng.random()
            if r < 0.005:
                distance = None
            elif r < 0.010:
                distance = rng.choice(OUT_OF_RANGE_CODES)
            elif r < 0.011:
                distance = rng.randint(0, int(g.sensor_max_range_mm))
            elif r < 0.0115:
                self._dropout_burst = rng.randint(2, 12)
                distance = None
            else:
                distance = max(0, int(round(reading)))
        piezo = min(1.0, self._piezo + abs(rng.gauss(0.0, 0.006)) + 0.008)
        others, self._others = self._others, ()
        weights = tuple(self.scale.codes_until(self.t + self.sample_period_s)) if self.scale is not None else ()
        sample = RawSample(round(self.t, 6), distance, round(piezo, 4), others, weights, self._disc)
        self.index += 1
        self.t += self.sample_period_s
        return sample

    # -- the scale ------------------------------------------------------------
    def _weigh_events(self, slot: _Slot) -> float | None:
        """Tell the weighing chain what this sample's slot does to the plinth; returns when the
        first die of a collapse starting here leaves it (None if none does)."""
        chain = self.scale
        assert chain is not None
        rng, t, period = chain.rng, self.t, self.sample_period_s
        leave = None
        for record in slot.truth:
            if record.kind == "collapse":
                leave = t + rng.uniform(0.0, period)
                chain.fall(leave, record.fell)
        if slot.tidy or (slot.set_stack is not None and not slot.fall):
            chain.clear_extras(t)
        if slot.set_stack is not None and not slot.fall:
            at = t + rng.uniform(0.0, period)
            while chain.dice < slot.set_stack:
                chain.put(at)
            while chain.dice > slot.set_stack:
                chain.take(at)
        if slot.lands is not None:
            chain.floor_knock(t)  # the d10 lands on the tray floor
            if leave is None and chain.dice > 0 and rng.random() < slot.shake:
                chain.strike(t, min(1.0, slot.shake))  # and on its way struck the stack, which held
            if leave is None and chain.dice > 0 and rng.random() < chain.design.scenery.d10_on_top_chance:
                chain.rest_d10(t + rng.uniform(0.0, period))
                self._tidy_later()
        return leave

    def _tidy_later(self) -> None:
        """The thrower reaches over the Heat for the d10 resting on it (a second or two later)."""
        rng = self.scale.rng if self.scale is not None else self.rng
        start = len(self._slots) + rng.randint(30, 60)
        for j in range(rng.randint(6, 12)):
            slot = self._slot(start + j)
            slot.above_mm = min(self._top_mm(self._planned) + rng.uniform(25, 80), self.geometry.sensor_height_mm - 40)
            if j == 3:
                slot.tidy = True
        self._slot(start + 20)

    # -- the optical model ----------------------------------------------------
    def _place_fallen(self, before: int, after: int, fall: bool) -> None:
        """Dice that fell mostly roll out of view; now and then one stops at its edge (estimate: 1 in 8)."""
        rng = self.rng
        if not fall:
            self._fallen = []  # a hand at the stack picks the fallen dice up too
            return
        for _ in range(before - after):
            if rng.random() < 0.125:
                angle = rng.uniform(0, 2 * math.pi)
                r = rng.uniform(18.0, 30.0)
                self._fallen.append((round(r * math.cos(angle)), round(r * math.sin(angle))))

    def _optical(self, slot: _Slot, optics: "OpticalSensor") -> Optional[float]:
        """The reading the optical model gives for this sample's scene (None: a moving target was lost)."""
        from .optics import Box  # noqa: PLC0415 (the ideal model never needs it)

        rng, g = self.rng, self.geometry
        die = g.die_size_mm
        refl = optics.design.reflectance
        mouth = optics.shroud.mouth_z - 1.0
        cx, cy = self._stack_xy
        standing = self.stack
        boxes = []
        if slot.tumble is not None:
            low, high = slot.tumble
            if rng.random() >= 0.6:
                self._others = tuple(None for _ in self._companions)  # they see the same moving target
                return None  # a moving target: the sensor gives up on the sample (sigma fail)
            standing = min(standing, int(low))
            a, b = sorted((rng.uniform(low, high), rng.uniform(low, high)))
            side = rng.uniform(4.0, 16.0) * rng.choice((-1, 1))
            boxes.append((Box.die_column(round(cx + side), round(cy), die, round(a * die), round(max(b, a + 1) * die),
                                         refl["die"]), "die"))
        if standing > 0:
            sway = 0.0
            if standing > 6:
                self._phase += 2 * math.pi * self.sample_period_s / (0.35 + 0.04 * standing)
                sway = min(3.0, 0.25 * (standing - 6) * (1 + 2 * self._shake)) * math.sin(self._phase)
            boxes.append((Box.die_column(round(cx + sway * 2) / 2, cy, die, 0.0, standing * die, refl["die"]), "die"))
        for fx, fy in self._fallen:
            boxes.append((Box.die_column(fx, fy, die, 0.0, die, refl["die"]), "die"))
        if rng.random() < 0.04 * self._vibration:  # a die bouncing off the floor, 1.5-6 cm up
            z = round(rng.uniform(15, 60))
            boxes.append((Box.die_column(round(rng.uniform(-15, 15)), round(rng.uniform(-15, 15)), die, z, z + die,
                                         refl["die"]), "die"))
        if slot.above_mm is not None:
            z = round(min(slot.above_mm, mouth - 20))
            if slot.flyer:  # a d10 crossing the beam
                boxes.append((Box.die_column(round(rng.uniform(-12, 12)), round(rng.uniform(-12, 12)), 16.0, z,
                                             min(z + 16, mouth), refl["d10"]), "d10"))
            else:  # the back of a hand, coming in from one side over part or all of the view
                edge = round(rng.uniform(-20, 10))
                boxes.append((Box(edge, edge + 100, -50, 50, z, min(z + 30, mouth), refl["hand"]), "hand"))
        mm, self.status = optics.sample(rng, tuple(boxes))
        if self._companions:
            self._others = self._read_companions(tuple(boxes))
        return float(mm) + self.offset_mm if mm < 8190 else float(mm)

    def _rest_d10(self, zone: Zone) -> None:
        """A thrown d10 comes to rest; the one thrown before it was picked up to be thrown again.
        Inside the ring it lies 33-58 mm from the Heat's axis (never on the Heat), on the ring
        55-65 mm, outside 65-150 mm; in any direction (estimates)."""
        rng = self._rng2
        low, high = {Zone.INSIDE: (33.0, 58.0), Zone.TOUCHING: (55.0, 65.0)}.get(zone, (65.0, 150.0))
        r, angle = rng.uniform(low, high), rng.uniform(0, 2 * math.pi)
        self._resting = [(round(r * math.cos(angle)), round(r * math.sin(angle)))]

    def _read_companions(self, boxes: tuple) -> tuple:
        """Each companion sensor's reading of the scene (with the d10s lying on the tray), or None
        when its reading is an error code or lost on the link (as often as the arm's)."""
        from .optics import Box  # noqa: PLC0415

        rng = self._rng2
        resting = tuple((Box.die_column(x, y, 16.0, 0.0, 16.0, REFLECTANCE_D10), "d10") for x, y in self._resting)
        out: list[Optional[int]] = []
        for sensor in self._companions:
            mm, _status = sensor.sample(rng, boxes + resting)
            r = rng.random()
            if mm >= 8190 or r < 0.005:
                out.append(None)
            elif r < 0.006:
                out.append(rng.randint(0, int(self.geometry.sensor_max_range_mm)))  # junk, as the arm's
            else:
                out.append(mm)
        return tuple(out)

    def run_until_idle(self, extra: int = 0) -> list[RawSample]:
        """Tick until every scheduled action has played out (plus ``extra`` quiet samples)."""
        samples = []
        while self._slots:
            samples.append(self.tick())
        for _ in range(extra):
            samples.append(self.tick())
        return samples


def _stamped(record: Truth, index: int, t: float) -> Truth:
    return dataclasses.replace(record, sample=index, t=round(t, 6))


class SimTray(Tray):
    """A Tray port on the simulated table, running the firmware's own Heat tracker.

    ``realtime=True`` runs a background thread at the sensor's pace, from the
    moment the first listener subscribes (so it hears the LinkUp and the
    first height); with ``realtime=False`` nothing moves until ``step(n)``. The sim panel calls
    ``add_die``, ``remove_die``, ``throw`` and ``topple``. A landing's zone and
    face are reported on ThrowSettled only when the caller chose them (the
    sim panel stands in for a build that can tell).
    """

    link = "sim"

    def __init__(self, config: Config, seed: int = 0, realtime: bool = True, stream_distance: bool = True,
                 start_dice: int = 2, weigh: bool = True):
        super().__init__()
        self.config = config
        period = config.tray.timing_budget_ms / 1000.0
        from .weighing import ScaleDesign  # noqa: PLC0415

        # The kit's tray weighs the Heat (docs/sensing.md); weigh=False is the VL53L0X-only tray.
        self.sim = TableSimulator(config.geometry, seed=seed, sample_period_s=period, start_dice=start_dice,
                                  scale=ScaleDesign() if weigh else None)
        line = Calibration(config.geometry.sensor_height_mm, config.geometry.die_size_mm)
        self.tracker = HeatTracker(line)
        self.weight: WeightTracker | None = None
        if self.sim.scale is not None:  # the set weighed on the bench, die by die
            chain = self.sim.scale
            self.weight = WeightTracker(calibrate_weighing([chain.still_codes(k, 40) for k in range(15)]),
                                        distance=line)
        self.impacts = ImpactDetector(settle_ms=config.tray.settle_ms)
        self.stream_distance = stream_distance
        self._clock0 = time.monotonic()
        self._landing: tuple[Zone | None, int | None] = (None, None)
        self._step_lock = threading.Lock()
        self._stop = threading.Event()
        self._connected = True
        self._thread: threading.Thread | None = None
        self.realtime = realtime
        self._started = False
        self.refusal: str | None = None  # why the last panel action did nothing, if it did not

    def subscribe(self, listener) -> None:
        """Add a listener. In real time, the first one starts the table, so it hears everything."""
        super().subscribe(listener)
        if self.realtime and self._thread is None and not self._stop.is_set():
            self._thread = threading.Thread(target=self._run, name="sim-tray", daemon=True)
            self._thread.start()

    @property
    def heat(self) -> int | None:
        return self.weight.level if self.weight is not None else self.tracker.level

    @property
    def connected(self) -> bool:
        return self._connected

    # -- the sim panel ----------------------------------------------------
    # Every control a person can press (the kiosk's sim panel, the monitor's keys) is safe to
    # press at any time: what the table cannot do (take a die off an empty tray, topple no
    # stack, add a die past the tallest Heat the tray measures) does nothing and returns the
    # reason as one line, also kept in ``refusal``. None means it was done.
    def _try(self, action, *args) -> str | None:
        with self._step_lock:
            try:
                action(*args)
            except ValueError as err:
                self.refusal = str(err)
                return self.refusal
            self.refusal = None
            return None

    def add_die(self) -> str | None:
        return self._try(self.sim.add_die)

    def remove_die(self) -> str | None:
        return self._try(self.sim.remove_die)

    def build_to(self, dice: int) -> None:
        """Hands add or take dice, one at a time, until the stack is ``dice`` high
        (what a table does when the screen says its stack does not match)."""
        with self._step_lock:
            self.refusal = None
            if not 0 <= dice <= self.sim.geometry.max_heat_dice:
                raise ValueError(f"the tray measures 0-{self.sim.geometry.max_heat_dice} dice, not {dice}")
            while self.sim.planned_dice < dice:
                self.sim.add_die()
            while self.sim.planned_dice > dice:
                self.sim.remove_die()

    def throw(self, accuracy: float = 0.8, zone: Zone | str | None = None, face: int | None = None) -> Truth:
        with self._step_lock:
            self.refusal = None
            if zone is not None or face is not None:
                self._landing = (Zone(zone) if zone is not None else None, face)
            return self.sim.throw(accuracy, zone=zone, face=face)

    def topple(self, n: int | None = None) -> str | None:
        return self._try(self.sim.topple, n)

    # -- time -------------------------------------------------------------
    def _start(self) -> None:
        if not self._started:
            self._started = True
            self.emit(LinkUp(self.link, "simulated tray", self._now()))

    def _now(self) -> float:
        return self._clock0 + self.sim.t

    def step(self, n: int = 1) -> None:
        """Advance the simulated table by ``n`` samples (for realtime=False)."""
        for _ in range(n):
            self._one()

    def step_until_idle(self, extra: int = 30) -> None:
        """Step until every panel action has played out, then ``extra`` quiet samples."""
        while self.sim.busy_samples:
            self._one()
        self.step(extra)

    def _one(self) -> None:
        with self._step_lock:
            self._start()
            sample = self.sim.tick()
            t = self._clock0 + sample.t
            t_ms = int(sample.t * 1000)
            mm = sample.distance_mm
            shown = mm if mm is not None and mm not in (8190, 8191) else None
            out: list[TrayEvent] = []
            if self.stream_distance:
                out.append(DistanceSample(shown, t))
            if self.weight is not None:  # counted by weight; the VL53L0X sees hands and watches
                if sample.piezo >= KNOCK_LEVEL:
                    self.weight.knock(sample.t)
                for event in self.weight.see(mm, sample.t):
                    out.append(heat_event(event, t))
                for tw, code in sample.weights:
                    for event in self.weight.feed(code, tw):
                        out.append(heat_event(event, self._clock0 + tw))
            else:
                if sample.piezo >= KNOCK_LEVEL:
                    self.tracker.knock(sample.t)  # the tray's piezo helps tell a fall from a hand
                for event in self.tracker.feed(mm, sample.t):
                    out.append(heat_event(event, t))
            for event in self.impacts.feed(sample.piezo, t_ms):
                if event["type"] == "impact":
                    out.append(ThrowImpact(t, strength=float(event.get("strength", 0.0)), piezo=sample.disc))
                elif event["type"] == "settled":
                    zone, face = self._landing
                    self._landing = (None, None)
                    out.append(ThrowSettled(t, zone=zone, face=face))
        for event in out:
            self.emit(event)

    def _run(self) -> None:
        period = self.sim.sample_period_s
        next_at = time.monotonic()
        while not self._stop.is_set():
            self._one()
            next_at += period
            delay = next_at - time.monotonic()
            if delay > 0:
                self._stop.wait(delay)
            else:
                next_at = time.monotonic()

    def close(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        was_up = self._connected and self._started
        self._connected = False
        if was_up:
            self.emit(LinkDown(self.link, "closed", self._now()))
