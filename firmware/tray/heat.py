"""Heat sensing: how tall the stack of d6 is, and when it falls.

A VL53L0X looks straight down on the Heat from its arm. It reports the
distance to the nearest surface in its spot: the top of the stack, or a
hand, or a thrown d10 passing through. ``Calibration`` turns a distance into
a height in dice; ``HeatTracker`` turns a stream of readings into a few
events a game can use::

    {"type": "height", "dice": n}                  first measured, or changed
    {"type": "added", "dice": n}                   one die put on top (n = height after)
    {"type": "removed", "dice": n}                 one die taken off (n = height after)
    {"type": "collapse", "fell": n, "standing": m} the stack fell

How the tracker tells these apart (all thresholds are in dice, so they
scale with the die size):

* A reading is *clean* at level k when it lies within ``clean_tol`` of k.
  Noise of a few millimetres stays clean; a spike usually does not.
* Readings well above the stack top (more than ``occlude`` dice, so higher
  than one more die would be) are something in the beam. One or two of them
  are a thrown die flying through or bouncing; ``hand_min`` or more among the
  last ``hand_window`` samples are a hand at the stack. While a hand is
  about, a lower stack means dice were taken off (``removed``), never a
  fall, and every change waits for ``settle`` clean readings in a row.
* With no hand about, two readings of the stack in a row clean at the same
  lower level k are a collapse down to k. Two is the least that tells a fall
  from a spike, and the count waits for the dice to be down: a reading of
  dice caught mid-fall is rarely clean at the same level twice. Once the
  fall's first reading is behind, two readings nearest to k whose mean is
  clean will also do (one noisy reading does not hold a fall up). A fallen
  die bouncing through the beam just after a fall (a reading well above the
  one before) is skipped rather than let it break the pair. Shortcuts: a
  reading below the top followed by one clean at the floor is a total fall
  at once, as nothing can be lower; and dice on their way down are out of
  the beam within ``tumble`` samples, so a clean reading that long after
  the fall began, no higher than any since, is the new top.
* A reading between ``bounce_min_mm`` and ``bounce_mm`` over the floor may
  be a die bouncing off the tray (a bounce is in the air: lower than
  ``bounce_min_mm`` it is the stack). Such a reading never settles a fall
  alone, and if one of the first two readings of a fall is one, a third
  must agree: a reading of dice on their way down and a bounce can land on
  the same level by chance, and believing them would split one fall into
  two wrong counts. This costs falls that leave 1-4 dice standing a sample
  (``bounce_mm=0`` turns it off).
* Likewise when the first two readings of a fall are one die down and the
  second is lower than the first by more than ``depart``: more than noise
  makes, so they may both be of two dice on their way down.
* After a blind stretch (``blind_min`` invalid readings in a row) the quick
  rule is off: a change must settle, and a lower stack is a fall unless a
  hand was seen (even two readings of one will do, around the blind spell).
* With a piezo (the tray calls ``knock()`` whenever it feels a knock of
  ``KNOCK_LEVEL`` or more) the tracker knows more: falling dice hit the
  tray, a hand lifting a die off does not. A lower stack that was not seen
  falling is then a fall only if a knock came between the last reading of
  the old top and the first one below it (for a fall seen starting, up to
  ``tumble`` samples after: the dice land a moment after they go); and
  something seen crossing the beam twice with no knock is a hand, not a
  thrown d10. But a hand seen at the stack as the sensor went blind, and
  one die gone when it sees again, is a die taken off even if a knock came
  meanwhile (a d10 landing beside the stack knocks too). Without a piezo
  (the i2c build) none of this applies.
* A taller stack is believed only after ``settle`` clean readings (a Risk
  die is placed by hand, so there is no hurry); a stack more than one die
  taller (dice added while the sensor was blind) only after ``steady_above``
  readings, as still as no hand holds.
* Dropouts and out-of-range codes (``None``, or any distance outside the
  sensor's range or below the tray floor) are skipped: they neither confirm
  nor break anything.

This module is pure and CircuitPython-compatible: the tray's RP2040 runs
this very file (as ``tray.heat``), and the Pi's i2c and simulated backends
import it as ``firmware.tray.heat``. So: no dataclasses, no typing, only
``math``.
"""

import math

# The sensor's working range; anything outside is an error code, not a distance.
MIN_VALID_MM = 30
MAX_VALID_MM = 1200

# A piezo level (0..1 of full scale) at or above which the tray tells the tracker of a knock
# (``HeatTracker.knock``): over the faint tap of a die set down by hand, under the knock of a
# Heat die falling onto the tray.
KNOCK_LEVEL = 0.1


def _median(values):
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        raise ValueError("no readings")
    mid = n // 2
    if n % 2:
        return float(ordered[mid])
    return (ordered[mid - 1] + ordered[mid]) / 2.0


def _push(window, value, size):
    """Append to a short list kept to its newest ``size`` items (no slice deletion on the board)."""
    window.append(value)
    while len(window) > size:
        window.pop(0)


def _valid(readings, min_mm=MIN_VALID_MM, max_mm=MAX_VALID_MM):
    return [r for r in readings if r is not None and min_mm <= r <= max_mm]


class Calibration:
    """Where the empty tray floor is and how tall one die is, in millimetres.

    ``height(mm)`` is the stack height in dice (a float) for a distance.
    """

    def __init__(self, empty_mm, die_mm):
        empty_mm = float(empty_mm)
        die_mm = float(die_mm)
        if not (MIN_VALID_MM < empty_mm <= MAX_VALID_MM):
            raise ValueError(
                "empty_mm %.0f is outside the sensor's range (%d-%d mm)" % (empty_mm, MIN_VALID_MM, MAX_VALID_MM)
            )
        if not (4.0 <= die_mm <= 40.0):
            raise ValueError("die_mm %.1f is not a plausible die size (4-40 mm)" % die_mm)
        self.empty_mm = empty_mm
        self.die_mm = die_mm

    def height(self, mm):
        """Stack height in dice (float) for a distance reading in mm."""
        return (self.empty_mm - mm) / self.die_mm

    def distance(self, dice):
        """The distance the sensor should read over a stack of ``dice``."""
        return self.empty_mm - dice * self.die_mm

    def max_dice(self, min_mm=MIN_VALID_MM):
        """The tallest stack the sensor can still see the top of."""
        return int((self.empty_mm - min_mm) / self.die_mm)

    def __repr__(self):
        return "Calibration(empty_mm=%.1f, die_mm=%.2f)" % (self.empty_mm, self.die_mm)


class CurveCalibration:
    """Height from a measured curve: the reading over a still stack of 0, 1, 2, ... dice.

    A VL53L0X reports the signal-weighted mean distance of everything in its
    view, so a short stack that fills only part of the view reads closer to
    the floor than its top (see hardware/optics.py): a straight line from
    the empty floor through one known stack is wrong at every other height.
    ``points[k]`` is the median reading over k dice; between two points the
    height is interpolated, past the ends it follows the nearest segment.
    Same interface as ``Calibration``; ``die_mm`` is the mean step, for the
    few thresholds the tracker keeps in millimetres.
    """

    def __init__(self, points):
        points = [float(p) for p in points]
        if len(points) < 2:
            raise ValueError("a calibration curve needs readings of at least 0 and 1 dice")
        for k in range(1, len(points)):
            if not points[k] < points[k - 1]:
                raise ValueError(
                    "%d dice read %.0f mm, not closer than %d dice (%.0f mm): the reading must fall as the "
                    "stack grows; check the stack is under the sensor" % (k, points[k], k - 1, points[k - 1])
                )
        if not (MIN_VALID_MM < points[0] <= MAX_VALID_MM):
            raise ValueError(
                "empty tray %.0f mm is outside the sensor's range (%d-%d mm)" % (points[0], MIN_VALID_MM, MAX_VALID_MM)
            )
        self.points = points
        self.empty_mm = points[0]
        self.die_mm = (points[0] - points[-1]) / (len(points) - 1)

    def height(self, mm):
        """Stack height in dice (float) for a distance reading in mm."""
        pts = self.points
        last = len(pts) - 1
        k = 0
        while k < last - 1 and mm < pts[k + 1]:
            k += 1
        return k + (pts[k] - mm) / (pts[k] - pts[k + 1])

    def distance(self, dice):
        """The reading expected over a stack of ``dice`` (whole or not)."""
        pts = self.points
        last = len(pts) - 1
        k = int(math.floor(dice))
        if k < 0:
            k = 0
        if k > last - 1:
            k = last - 1
        return pts[k] - (dice - k) * (pts[k] - pts[k + 1])

    def max_dice(self, min_mm=MIN_VALID_MM):
        """The tallest stack on the curve whose reading stays in range."""
        best = 0
        for k, mm in enumerate(self.points):
            if mm >= min_mm:
                best = k
        return best

    def __repr__(self):
        return "CurveCalibration(%s)" % ", ".join("%.1f" % p for p in self.points)


def calibrate_curve(readings_by_dice):
    """A CurveCalibration from lists of readings over 0, 1, 2, ... dice (``readings_by_dice[k]``).

    Uses the median of the valid readings of each height. Raises ValueError
    saying which height is short of readings or out of order.
    """
    points = []
    for k, readings in enumerate(readings_by_dice):
        valid = _valid(readings)
        if len(valid) < 3:
            raise ValueError("too few valid readings over %d dice (%d, need 3)" % (k, len(valid)))
        points.append(_median(valid))
    return CurveCalibration(points)


class SensorCurve:
    """One sensor's measured response to the Heat: the median and the spread (one standard
    deviation) of its readings over a still stack of 0, 1, 2, ... dice.

    A sensor that does not look straight down (one on the arm's post, looking across the bottom
    of the stack) reads the same for every stack taller than its view: its curve flattens, and
    there it says only "at least this tall". ``expect(h)`` interpolates both numbers.
    """

    def __init__(self, medians, spreads):
        if len(medians) != len(spreads) or len(medians) < 2:
            raise ValueError("a sensor curve needs a median and a spread for each of 0, 1, ... dice")
        self.medians = [float(m) for m in medians]
        self.spreads = [max(1.0, float(s)) for s in spreads]  # never trust a reading to under 1 mm

    def expect(self, h):
        """(median, spread) expected over a stack of ``h`` dice (whole or not; clamped to the curve)."""
        last = len(self.medians) - 1
        if h <= 0:
            return self.medians[0], self.spreads[0]
        if h >= last:
            return self.medians[last], self.spreads[last]
        k = int(math.floor(h))
        f = h - k
        m, s = self.medians, self.spreads
        return m[k] + f * (m[k + 1] - m[k]), s[k] + f * (s[k + 1] - s[k])


def sensor_curve(readings_by_dice):
    """A SensorCurve from raw readings over 0, 1, 2, ... dice: medians, and spreads from the
    median absolute deviation (so a few junk readings do not widen it). ValueError names a
    height with too few valid readings."""
    medians, spreads = [], []
    for k, readings in enumerate(readings_by_dice):
        valid = _valid(readings)
        if len(valid) < 3:
            raise ValueError("too few valid readings over %d dice (%d, need 3)" % (k, len(valid)))
        mid = _median(valid)
        medians.append(mid)
        spreads.append(1.4826 * _median([abs(v - mid) for v in valid]))
    return SensorCurve(medians, spreads)


class FusedHeight:
    """The stack's height from several sensors at once: the height whose expected readings
    (each sensor's measured curve and spread, ``SensorCurve``) best explain this sample's
    readings, each sensor weighed by its own spread at that height.

    ``curves[0]`` is the arm's sensor, looking down; the others look across the stack. Only the
    arm's sensor sees what is above the stack (a hand, a d10 in flight), and those only make it
    read nearer, so when the arm reads nearer than ``occlude`` dice over the height all the
    sensors together give, the arm's own height is passed on: the tracker sees something
    over the stack, as it would with one sensor (and more than three of the arm's spreads: a
    noisy reading of a short stack is not a hand). A reading out of range (``None``, an error
    code) leaves its sensor out. ``cap`` bounds one sensor's say (a junk reading or a die lying
    in its view costs at most that much), in squared standard deviations.
    """

    def __init__(self, curves, occlude=1.35, cap=16.0, step=0.1, min_mm=MIN_VALID_MM, max_mm=MAX_VALID_MM):
        if not curves:
            raise ValueError("FusedHeight needs at least the arm's sensor curve")
        self.curves = list(curves)
        self.top = len(self.curves[0].medians) - 1
        self.occluded = False  # the last height was the arm's alone: something over the stack
        self.occlude, self.cap, self.step = occlude, cap, step
        self.min_mm, self.max_mm = min_mm, max_mm

    def _cost(self, h, readings):
        cost = 0.0
        for curve, mm in zip(self.curves, readings):
            if mm is None:
                continue
            mid, spread = curve.expect(h)
            z = (mm - mid) / spread
            cost += min(z * z, self.cap)
        return cost

    def _best(self, readings):
        best_k, best_c = 0, None
        for k in range(self.top + 1):
            c = self._cost(k, readings)
            if best_c is None or c < best_c:
                best_k, best_c = k, c
        best_h = float(best_k)
        n = int(round(1.0 / self.step))
        for i in range(-n + 1, n):
            h = best_k + i * self.step
            if 0.0 <= h <= self.top and i != 0:
                c = self._cost(h, readings)
                if c < best_c:
                    best_h, best_c = h, c
        return best_h

    def height(self, readings):
        """Height in dice (a float) for one reading of each sensor, or None if none is valid."""
        self.occluded = False
        valid = []
        for curve, mm in zip(self.curves, readings):
            # Out of range, or farther than the empty tray by far more than noise: not a place a
            # die can be (a junk reading), so that sensor says nothing this sample.
            far = curve.medians[0] + 4.0 * curve.spreads[0]
            valid.append(mm if mm is not None and self.min_mm <= mm <= min(self.max_mm, far) else None)
        if all(mm is None for mm in valid):
            return None
        fused = self._best(valid)
        arm = valid[0]
        if arm is not None:
            # Nearer than the fused height explains by more than its noise makes (three spreads) and
            # by more than ``occlude`` dice: something over the stack, which only the arm sees.
            expected, spread = self.curves[0].expect(fused)
            above, _ = self.curves[0].expect(fused + self.occlude)
            if arm < min(above, expected - 3.0 * spread):
                self.occluded = True
                return self._best([arm] + [None] * (len(valid) - 1))
        return fused

    def spreads(self):
        """The spread of the fused height (in dice) over a still stack of 0, 1, 2, ... dice: each
        sensor tells neighbouring heights apart by its step over its spread there, and independent
        sensors add up (inverse variances). A sensor whose curve is flat there adds nothing."""
        out = []
        for k in range(self.top + 1):
            info = 0.0
            for curve in self.curves:
                lo, hi = max(0, k - 1), min(self.top, k + 1)
                slope = abs(curve.medians[lo] - curve.medians[hi]) / float(hi - lo)
                info += (slope / curve.spreads[k]) ** 2
            out.append(max(0.08, 1.0 / math.sqrt(info)) if info > 0 else 10.0)
        return out


class FusedTracker:
    """A HeatTracker fed from several sensors through ``FusedHeight``.

    Each sample's readings become one height, and that height is handed to the very same
    tracker as the reading the arm's sensor would give over it (``CurveCalibration`` of the
    arm's medians), so every rule of ``HeatTracker`` (hands, bounces, knocks) is unchanged.
    """

    def __init__(self, curves, **tracker_options):
        self.fusion = FusedHeight(curves)
        self.calibration = CurveCalibration(curves[0].medians)
        self.tracker = HeatTracker(self.calibration, **tracker_options)

    @property
    def level(self):
        return self.tracker.level

    def knock(self, t=None):
        self.tracker.knock(t)

    def feed(self, readings, t=None):
        """One reading per sensor (arm first) in; the tracker's events out."""
        h = self.fusion.height(readings)
        mm = None if h is None else self.calibration.distance(h)
        return self.tracker.feed(mm, t)


class SteadyTracker:
    """A Heat tracker for noisy readings: it weighs the evidence over many samples instead of
    judging each one (a CUSUM change detector, one per height the stack could go to).

    When one reading's spread is a die or more (the optical model's, docs/sensing.md), no rule on
    one or two readings can tell a fall from noise. Here each sample adds, for every height j the
    stack could now be, how much better j explains it than the current level does (the log of
    the likelihood ratio, from the fused height's measured spread at each height, its residuals
    capped at ``clip`` spreads so one stray reading cannot decide). A height whose running sum (never below 0)
    reaches ``threshold`` is the new level: a collapse if the tray felt a knock since that sum
    began to grow (a die taken off by hand makes none), else a die removed; one higher is a die
    added. Readings of something over the stack (``FusedHeight.occluded``) are skipped, and say a
    hand was there for a tray with no piezo. Same events as ``HeatTracker``.
    """

    def __init__(self, curves, threshold=14.0, clip=3.0, margin=0.0, confirm=0, hand_window=30, tumble=3, first=15):
        self.fusion = FusedHeight(curves)
        self.calibration = CurveCalibration(curves[0].medians)
        self.sigma = self.fusion.spreads()
        self.threshold, self.clip, self.margin = threshold, clip, margin
        self.hand_window, self.tumble, self.first, self.confirm = hand_window, tumble, first, confirm
        self._due = None  # a fall is decided at this sample, unless the evidence fades first
        self._settled_at = 0  # until this sample the first height may still be corrected
        self.level = None
        self.samples = 0
        self.knocks = False
        self._knock_at = None
        self._knocks = []  # when the last few knocks came (in samples)
        self._hand_at = None
        self._start = []
        self._sums = {}
        self._rose = {}

    def knock(self, t=None):
        self.knocks = True
        self._knock_at = self.samples
        _push(self._knocks, self.samples, 16)

    def _reset(self):
        self._sums, self._rose = {}, {}

    def _llr(self, h, j):
        """How much better height j explains a fused height h than the level does. Each squared
        residual is capped at ``clip`` squared: a reading that far off says "not here", no more."""
        L = self.level
        sl, sj = self.sigma[L], self.sigma[j]
        cap = self.clip * self.clip
        return 0.5 * (min(((h - L) / sl) ** 2, cap) - min(((h - j) / sj) ** 2, cap)) + math.log(sl / sj)

    def feed(self, readings, t=None):
        """One reading per sensor (arm first) in; a list of event dicts out."""
        self.samples += 1
        if not isinstance(readings, (tuple, list)):
            readings = (readings,)
        h = self.fusion.height(readings)
        if h is None:
            return []
        if self.fusion.occluded:
            self._hand_at = self.samples
            return []
        if self.level is None:
            self._start.append(h)
            if len(self._start) < self.first:
                return []
            self.level = int(math.floor(_median(self._start) + 0.5))
            # Long enough for the evidence against a height one die off to add up, at this spread.
            self._settled_at = self.samples + self.first + int(8 * self.threshold * self.sigma[self.level] ** 2)
            return [{"type": "height", "dice": self.level}]
        top = min(self.fusion.top, self.level + 1)
        best, best_sum, second = None, 0.0, 0.0
        for j in range(top + 1):
            if j == self.level:
                continue
            total = self._sums.get(j, 0.0) + self._llr(h, j)
            if total <= 0:
                self._sums[j] = 0.0
                self._rose.pop(j, None)
                continue
            if j not in self._rose:
                self._rose[j] = self.samples
            self._sums[j] = total
            if total > best_sum:
                best, best_sum, second = j, total, best_sum
            elif total > second:
                second = total
        # Decided once the best height has enough evidence and clearly more than any other; a fall
        # waits ``confirm`` samples more, so dice still on their way down do not split it in two.
        if best is None or best_sum < self.threshold or best_sum - second < self.margin:
            self._due = None
            return []
        if best < self.level and self.confirm:
            if self._due is None:
                self._due = self.samples + self.confirm
            if self.samples < self._due:
                return []
        self._due = None
        return self._move(best)

    def _move(self, k):
        old, began = self.level, self._rose.get(k, self.samples)
        self.level = k
        self._reset()
        if self.samples <= self._settled_at and not (self._knock_at is not None and self._knock_at >= began - self.tumble):
            # Still settling on the first height (a median of a few noisy readings may be a die off):
            # a better height with no knock is the height, not a change of the stack.
            return [{"type": "height", "dice": k}]
        if k > old:
            return [{"type": "added", "dice": k}, {"type": "height", "dice": k}]
        handled = self._hand_at is not None and self._hand_at >= began - self.hand_window
        if self.knocks:
            # Falling dice knock the tray as the readings begin to drop, not long after (a d10
            # landing once a hand has taken a die off knocks too, later).
            fell = self._knock_at is not None and self._knock_at >= began - self.tumble
        else:
            fell = not handled
        if fell:
            return [{"type": "collapse", "fell": old - k, "standing": k}, {"type": "height", "dice": k}]
        events = [{"type": "removed", "dice": n} for n in range(old - 1, k - 1, -1)]
        return events + [{"type": "height", "dice": k}]


def calibrate_from(empty_readings, stack_readings, known_dice):
    """A Calibration from readings of the empty tray and of a stack of ``known_dice``.

    Uses the median of the valid readings of each, so a few dropouts or
    spikes do not matter. Raises ValueError saying what is wrong.
    """
    try:
        known_dice = int(known_dice)
    except (TypeError, ValueError):
        raise ValueError("known_dice must be a whole number of dice")
    if known_dice < 1:
        raise ValueError("the known stack needs at least 1 die (got %d)" % known_dice)
    empty = _valid(empty_readings)
    stack = _valid(stack_readings)
    if len(empty) < 3:
        raise ValueError("too few valid empty-tray readings (%d, need 3)" % len(empty))
    if len(stack) < 3:
        raise ValueError("too few valid stack readings (%d, need 3)" % len(stack))
    empty_mm = _median(empty)
    stack_mm = _median(stack)
    if stack_mm >= empty_mm:
        raise ValueError(
            "the stack reads %.0f mm, not closer than the empty tray (%.0f mm): is the stack under the sensor?"
            % (stack_mm, empty_mm)
        )
    die_mm = (empty_mm - stack_mm) / known_dice
    if not (4.0 <= die_mm <= 40.0):
        raise ValueError(
            "%d dice measured %.0f mm tall, %.1f mm a die: not a plausible die size (4-40 mm)"
            % (known_dice, empty_mm - stack_mm, die_mm)
        )
    return Calibration(empty_mm, die_mm)


class HeatTracker:
    """Turns distance readings into Heat events (see the module docstring).

    ``feed(mm_or_None, t)`` takes one reading (``t`` in seconds, only passed
    through) and returns a list of event dicts, usually empty. ``level`` is
    the current height in dice, or None before the stack was first seen.
    """

    def __init__(
        self,
        calibration,
        clean_tol=0.4,
        depart=0.5,
        occlude=1.35,
        hand_min=4,
        hand_window=10,
        blind_min=3,
        fall_window=3,
        settle=3,
        steady_above=15,
        tumble=2,
        bounce_mm=60.0,
        bounce_min_mm=15.0,
        min_mm=MIN_VALID_MM,
        max_mm=MAX_VALID_MM,
    ):
        self.calibration = calibration
        self.clean_tol = clean_tol
        self.depart = depart
        self.occlude = occlude
        self.hand_min = hand_min
        self.hand_window = hand_window
        self.blind_min = blind_min
        self.fall_window = fall_window
        self.settle = settle
        self.steady_above = steady_above
        self.tumble = tumble
        self.bounce_mm = bounce_mm
        self.bounce_min_mm = bounce_min_mm
        self.min_mm = min_mm
        self.max_mm = max_mm
        self.level = None
        self.samples = 0  # readings fed, valid or not
        self.rejected = 0  # readings skipped as dropouts / out-of-range codes
        self.knocks = False  # the tray has told of a knock: its piezo is working (see knock())
        self._knock_at = None  # the readings fed when the last knock came
        self._reset_state()

    def _reset_state(self):
        self._prev_h = None  # height of the last reading of the stack itself (not of a hand)
        self._prev_k = None  # its clean level, or None
        self._prev_at = 0  # and when it came (in samples)
        self._run = []  # recent clean levels, newest last (None = not clean)
        self._recent = []  # per recent reading: 1 if something was over the stack, else 0
        self._blind_run = 0  # invalid readings in a row
        self._high_k, self._high_n = None, 0  # a steady level well above the stack, and for how long
        self._handled = False  # a hand has been at the stack since it was last steady
        self._blind = False  # the sensor saw nothing for a while since the stack was last steady
        self._top_at = self.samples  # the last reading of the stack at its level
        self._knock_since = None  # the first knock since then
        self._fall_at = None  # the first reading below the top since then, if any
        self._fall_low = None  # and the lowest level seen since that one
        self._fall_unseen = False  # that first reading came straight after a blind spell
        self._fall_clean = []  # the clean levels read since it (each once)

    def reset(self, calibration=None):
        """Forget the stack (and optionally take a new calibration)."""
        if calibration is not None:
            self.calibration = calibration
        self.level = None
        self._reset_state()

    # -- helpers ---------------------------------------------------------
    def _clean_level(self, h):
        k = int(math.floor(h + 0.5))
        if k < 0 or abs(h - k) > self.clean_tol:
            return None
        return k

    def _could_bounce(self, h):
        """Could a reading at height h (in dice) be a die bouncing off the tray floor?"""
        die = self.calibration.die_mm
        return self.bounce_min_mm / die <= h <= self.bounce_mm / die

    def _settled_level(self):
        """The level of the last ``settle`` readings if they all agree and are clean."""
        if len(self._run) < self.settle:
            return None
        last = self._run[-self.settle:]
        first = last[0]
        if first is None:
            return None
        for k in last:
            if k != first:
                return None
        return first

    def _change(self, k, kind):
        """Move the level to k, returning the events that describe the move."""
        events = []
        if kind == "collapse":
            events.append({"type": "collapse", "fell": self.level - k, "standing": k})
        elif kind == "add":
            for n in range(self.level + 1, k + 1):
                events.append({"type": "added", "dice": n})
        elif kind == "remove":
            for n in range(self.level - 1, k - 1, -1):
                events.append({"type": "removed", "dice": n})
        self.level = k
        self._handled = self._blind = False
        self._run = []
        self._recent = []  # that hand's work is done
        self._saw_top()
        self._fall_at = self._fall_low = None
        events.append({"type": "height", "dice": k})
        return events

    def _saw_top(self):
        """The stack was just read at its level: knocks before (bar one just before) did not fell it."""
        self._top_at = self.samples
        recent = self._knock_at is not None and self._knock_at >= self.samples - 1
        self._knock_since = self._knock_at if recent else None

    def _felt_fall(self):
        """Did a knock come after the last reading of the old top, and by the first one below it?"""
        if self._fall_at is None:
            last = self.samples
        elif self._fall_unseen:
            last = self._fall_at - 1  # first seen lower after a blind spell: the knock must come first
        else:
            last = self._fall_at + self.tumble  # falling dice hit the tray a moment after they go
        return self._knock_since is not None and self._knock_since <= last

    def _unfelt_visitor(self):
        """Something crossed the beam (two readings or more) and the tray felt no knock: a hand.

        A thrown d10 that crosses the beam lands with a knock. Only with a piezo.
        """
        return self.knocks and self._knock_since is None and sum(self._recent) >= 2

    # -- the tracker -----------------------------------------------------
    def knock(self, t=None):
        """The tray felt a knock (its piezo is not quiet): a die hit it, or the table was bumped.

        Optional: a build with no piezo never calls it. Once called, the tracker
        counts on it: a lower stack it did not see fall is a fall only if a
        knock came after the stack was last seen at its level, and something
        crossing the beam with no knock is a hand, not a thrown d10 (dice lifted
        off by hand make no knock). ``t`` is only passed through.
        """
        self.knocks = True
        self._knock_at = self.samples
        if self._knock_since is None:
            self._knock_since = self.samples

    def feed(self, mm, t=None):
        """One reading in; a list of event dicts out (usually empty)."""
        self.samples += 1
        h = None
        if mm is not None and self.min_mm <= mm <= self.max_mm:
            h = self.calibration.height(mm)
            if h < -self.depart:
                h = None  # farther than the tray floor: a bad reading, not a place a die can be
        if h is None:
            self.rejected += 1
            _push(self._recent, 0, self.hand_window)
            self._blind_run += 1
            if self._blind_run >= self.blind_min and self.level is not None:
                self._blind = True
                if sum(self._recent) >= 2:
                    self._handled = True  # something was over the stack as the sensor went blind
            return []
        blind_before, self._blind_run = self._blind_run, 0

        if self.level is None:
            # The first height: believed after a longer steady stretch than later changes.
            _push(self._run, self._clean_level(h), self.settle + 2)
            if len(self._run) < self.settle + 2 or self._run.count(self._run[0]) != len(self._run):
                return []
            k = self._run[0]
            if k is None:
                return []
            self.level = k
            self._run = []
            return [{"type": "height", "dice": k}]

        level = self.level
        # Something in the beam above the stack: a flying die, a bounce, a hand.
        occluded = h > level + self.occlude
        _push(self._recent, 1 if occluded else 0, self.hand_window)
        if occluded:
            # After a blind stretch a hand is the likelier thing over the stack: fewer readings do.
            if sum(self._recent) >= (2 if self._blind else self.hand_min):
                self._handled = True
            _push(self._run, None, self.settle)
            # No hand holds still at a die's height for long: a long steady run up there means
            # dice were added while the sensor missed it (a blind spell during a rebuild).
            high = self._clean_level(h)
            if high is not None and high == self._high_k:
                self._high_n += 1
            else:
                self._high_k, self._high_n = high, 1
            if high is not None and self._high_n >= self.steady_above:
                return self._change(high, "add")
            return []  # says nothing about the stack below it: not a reading of the stack
        self._high_k, self._high_n = None, 0

        prev_h, prev_k = self._prev_h, self._prev_k
        k = self._clean_level(h)
        if (
            prev_h is not None
            and prev_h < level - self.depart
            and self.samples - self._prev_at <= self.fall_window
            and h > prev_h + self.occlude
            and k != level
        ):
            # The last reading was below the top (a fall under way?): this one, well above it but
            # not back at the top, is most likely a fallen die bouncing through the beam. Skip it
            # rather than let it break the count.
            _push(self._run, None, self.settle)
            return []
        prev_at = self._prev_at
        self._prev_h, self._prev_k, self._prev_at = h, k, self.samples
        _push(self._run, k, self.settle)

        # Is a fall under way? Note the first reading below the top, and the lowest level since.
        fall_at, fall_low, seen_clean = self._fall_at, self._fall_low, self._fall_clean
        if h >= level - self.depart:
            if k == level:
                self._saw_top()
            self._fall_at = self._fall_low = None
        else:
            nearest = int(math.floor(h + 0.5))
            if fall_at is None:
                self._fall_at, self._fall_low = self.samples, nearest
                self._fall_unseen = blind_before >= self.blind_min
                self._fall_clean = []
            elif nearest < fall_low:
                self._fall_low = nearest
            if k is not None and k not in self._fall_clean:
                self._fall_clean = self._fall_clean + [k]

        # A fall, seen by nobody's hand.
        if not self._handled and not self._blind and h < level - self.depart and not self._unfelt_visitor():
            near = int(math.floor(h + 0.5))
            # A total fall: a reading below the top, then one clean at the floor (nothing is lower).
            if k == 0 and prev_h is not None and prev_h < level - self.depart:
                return self._change(k, "collapse")
            # Low down, a die bouncing off the tray floor may be what the sensor sees (a reading
            # between ``bounce_min_mm`` and ``bounce_mm``): one reading alone, or the first two of a
            # fall (one may be of dice on their way down), can agree by chance on a level the stack
            # is not at. There, those need one more reading.
            low = near >= 1 and self._could_bounce(h)
            pair_low = near >= 1 and prev_h is not None and (low or self._could_bounce(prev_h))
            first_two = fall_at is not None and prev_at == fall_at
            # Each reading of dice on their way down is lower than the one before, so the first two
            # readings of a fall, one die down and the second lower by more than noise makes (over
            # ``depart``), may both be of two dice falling: the stack may be two dice lower, not one.
            # There, too, a third reading must agree.
            sliding = first_two and k == level - 1 and h < prev_h - self.depart
            # Two stack readings in a row clean at the same lower level.
            if k is not None and prev_k == k and not (pair_low and first_two) and not sliding:
                return self._change(k, "collapse")
            # Or nearest to the same level, with their mean clean, once the first reading of the
            # fall (which may be of dice on their way down) is behind.
            if (
                not pair_low
                and not first_two
                and prev_h is not None
                and near >= 0
                and int(math.floor(prev_h + 0.5)) == near
                and abs((prev_h + h) / 2.0 - near) <= self.clean_tol
            ):
                return self._change(near, "collapse")
            # Dice in the beam on their way down are out of it within ``tumble`` samples: a reading
            # that long after the fall began, no higher than any since, is the new top if it is
            # nearest to a level an earlier reading of the fall was clean at (a bounce or a noisy
            # reading in between does not hold the fall up), or, too high for a bounce, if it is
            # clean and no higher than the reading before.
            if fall_at is not None and self.samples - fall_at >= self.tumble and near <= fall_low:
                settled = near in seen_clean
                if not low and k is not None and prev_h is not None and h <= prev_h + self.clean_tol:
                    settled = True
                if settled:
                    return self._change(near, "collapse")

        settled = self._settled_level()
        if settled is None:
            return []
        if settled == level:
            self._handled = self._blind = False  # steady again: nothing changed
            return []
        if settled > level:
            return self._change(settled, "add")
        # Lower and steady, the slow way: a fall the fast way could not confirm, one that happened
        # while the sensor was blind, or dice taken off by a hand. With a piezo, a knock after the
        # stack was last seen at its level says fall; without one, a hand seen at the stack says
        # dice taken off.
        if self.knocks:
            # A hand at the stack as the sensor went blind, and one die gone when it sees again: the
            # hand took it, even if a d10 landed meanwhile (its knock says nothing about the stack).
            if self._handled and self._blind and settled == level - 1:
                return self._change(settled, "remove")
            return self._change(settled, "collapse" if self._felt_fall() else "remove")
        return self._change(settled, "remove" if self._handled else "collapse")
