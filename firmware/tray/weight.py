"""The Heat counted by weight: a load cell under the plinth, read through a NAU7802.

Mass adds where light blends: k dice on the plinth weigh k dice whatever the
light does. ``WeighCalibration`` turns an ADC code into dice (the empty
plinth's code and one die's weight in codes, learnt by weighing the set die
by die); ``WeightTracker`` turns the stream of codes (80 a second) into the
same Heat events the distance tracker sends, plus two of its own::

    {"type": "height", "dice": n}                  first counted, or changed (or confirmed after a false alarm)
    {"type": "added", "dice": n}                   one die put on by hand (n = count after)
    {"type": "removed", "dice": n}                 one die taken off by hand
    {"type": "falling", "dice": n}                 the Heat of n dice has started to fall (sent at once)
    {"type": "collapse", "fell": n, "standing": m} the fall is over: the count, once the plinth is still
    {"type": "mismatch", "weighed": n, "seen": m}  the watchman: the weight and the VL53L0X's height have
                                                   disagreed by two dice or more for two seconds

How it decides (thresholds in dice, so they hold for any die):

* **A count only when the weight agrees.** ``agree`` consecutive outputs each
  within ``tol`` of the same whole number, and within ``tol`` of each other,
  are a count. Ringing after a knock, a finger pressing, a die on its way off:
  none of these sits still on a whole number for three conversions. A stack
  whose weight sits still between two whole numbers (a fallen die leaning on
  the plinth) is counted at the nearest after ``steady_n`` still outputs.
* **Falling, at once.** ``fall_n`` outputs in a row more than ``fall_drop``
  below the count, with no hand at the stack (or with a knock just felt), is
  a fall: ``falling`` goes out on the spot, and ``collapse`` follows when the
  count settles. If the weight comes back to the old count (a d10 struck the
  stack and it held), a ``height`` with the old count withdraws the alarm.
* **A hand or a fall.** The VL53L0X keeps watching: a reading well above the
  stack's top (``occlude`` dice) is something over it; two such in the last
  ten readings are a hand. The piezo tells of knocks (``knock()``). A lighter
  stack is a collapse if the tracker flagged it falling, or the tray felt a
  knock while it changed, or no hand was there; otherwise dice were taken off.
  A heavier stack counts as dice added only if a hand was there: weight that
  arrives with no hand (a d10 coming to rest on top) is kept apart as
  ``extra`` and does not change the count, until a hand clears it.
* **Tare when empty.** With the count at zero and the plinth still for
  ``tare_after_s``, the zero follows the cell's slow drift; ``tare()`` does it
  on demand (and refuses if the plinth does not weigh nearly nothing).

Pure and CircuitPython-compatible like ``heat.py``: no typing, no dataclasses.
Times are seconds (floats), only compared with each other.
"""

from .heat import MAX_VALID_MM, MIN_VALID_MM, _median

# A matched set passes when 14 dice together stay within half a die of 14 x the mean at four
# standard deviations: sd(one die) * sqrt(14) * 4 < 0.5, a relative spread of 3.3 % or less.
MAX_HEAT = 14
SPREAD_SIGMAS = 4.0
TOO_VARIED = "these dice differ too much in weight; use one matched set"


def _mean(values):
    return sum(values) / float(len(values))


def _sd(values):
    if len(values) < 2:
        return 0.0
    m = _mean(values)
    return (sum((v - m) ** 2 for v in values) / (len(values) - 1)) ** 0.5


def max_spread(max_dice=MAX_HEAT):
    """The largest relative spread of one die's weight that still counts ``max_dice`` dice right."""
    return 0.5 / (SPREAD_SIGMAS * max_dice ** 0.5)


class WeighCalibration:
    """The empty plinth's code (``zero``), one die's weight in codes (``per_die``) and the set's
    relative spread (``spread``: the standard deviation of one die's weight over the mean)."""

    def __init__(self, zero, per_die, spread=0.0):
        per_die = float(per_die)
        if per_die <= 0:
            raise ValueError("a die must weigh something: %r codes per die" % per_die)
        self.zero = float(zero)
        self.per_die = per_die
        self.spread = float(spread)

    def dice(self, code):
        """The weight on the plinth in dice (a float) for an ADC code."""
        return (code - self.zero) / self.per_die

    def code(self, dice):
        return self.zero + dice * self.per_die

    def __repr__(self):
        return "WeighCalibration(zero=%.0f, per_die=%.1f, spread=%.4f)" % (self.zero, self.per_die, self.spread)


def calibrate_weighing(codes_by_dice, max_dice=MAX_HEAT):
    """Learn the set by weighing it die by die.

    ``codes_by_dice[k]`` are the codes read with the first k dice of the set standing (k = 0, the
    empty plinth, first). Each die's weight is the step from k-1 to k. Raises ValueError with a
    sentence for the screen when a step is missing, a die weighs nothing, or the set's spread would
    miscount ``max_dice`` dice.
    """
    if len(codes_by_dice) < 3:
        raise ValueError("weigh the empty plinth and at least two dice, one at a time")
    medians = []
    for k, codes in enumerate(codes_by_dice):
        if not codes:
            raise ValueError("no readings with %d dice on the plinth; is the scale connected?" % k)
        medians.append(_median(codes))
    steps = [medians[k] - medians[k - 1] for k in range(1, len(medians))]
    mean = _mean(steps)
    if mean <= 0:
        raise ValueError("the plinth did not get heavier as dice went on; check the load cell's wires")
    typical = _median(steps)
    for k, step in enumerate(steps):
        if step < 0.5 * typical or step > 1.5 * typical:
            raise ValueError("die %d weighed %.0f %% of the others; put one die on at a time" % (k + 1, 100 * step / typical))
    spread = _sd(steps) / mean
    if spread > max_spread(max_dice):
        raise ValueError(TOO_VARIED)
    return WeighCalibration(medians[0], mean, spread)


class WeightTracker:
    """Heat events from a load cell's codes, with the VL53L0X as watchman (module docstring).

    ``feed(code, t)`` takes one ADC output, ``see(mm, t)`` one distance reading, ``knock(t)`` a
    knock from the piezo; each returns a list of event dicts. ``level`` is the count (None until
    first counted); ``distance`` (a ``heat.Calibration`` or ``CurveCalibration``) lets the tracker
    know where the stack's top should be, to see a hand over it and watch the height.
    """

    def __init__(self, calibration, distance=None, agree=3, tol=0.3, fall_drop=0.5, fall_n=2, fall_agree=6, steady_n=8,
                 steady_tol=0.1, occlude=1.5, hand_min=2, hand_window=10, hand_hold_s=0.2, blind_min=3, knock_s=0.3,
                 tare_after_s=3.0, mismatch_dice=2, mismatch_s=2.0):
        self.calibration = calibration
        self.distance = distance
        self.agree = agree
        self.tol = tol
        self.fall_drop = fall_drop
        self.fall_n = fall_n
        self.fall_agree = fall_agree
        self.steady_n = steady_n
        self.steady_tol = steady_tol
        self.occlude = occlude
        self.hand_min = hand_min
        self.hand_window = hand_window
        self.hand_hold_s = hand_hold_s
        self.blind_min = blind_min
        self.knock_s = knock_s
        self.tare_after_s = tare_after_s
        self.mismatch_dice = mismatch_dice
        self.mismatch_s = mismatch_s
        self.level = None
        self.extra = 0.0  # weight on the plinth that is not a counted die (a d10 on top), in dice
        self.falling = False
        self.last = None  # the last output, in dice
        self._recent = []  # the newest outputs in dice (extra not taken off), newest last
        self._codes = []  # and their codes (for tare)
        self._moving_since = None  # when the weight left the count, if it has
        self._hand_during = False  # a hand was at the stack while it moved
        self._above = []  # per distance reading: 1 if something was over the stack
        self._hand_t = None  # when the VL53L0X last saw a hand
        self._knock_t = None
        self._blind_run = 0  # invalid distance readings in a row
        self._blind_t = None  # when the VL53L0X was last blind
        self._empty_since = None
        self._heights = []  # (t, height in dice) of recent readings of the stack (not of a hand)
        self._mismatch = False

    # -- what the other sensors tell ------------------------------------------------------------
    def knock(self, t):
        self._knock_t = t
        return []

    def _hand(self, t):
        """Is a hand at the stack: two readings over it in the last ten, the last within ``hand_hold_s``?
        While the VL53L0X is blind (``blind_min`` invalid readings in a row) a hand may be there unseen."""
        if self._blind_t is not None and t - self._blind_t <= self.hand_hold_s:
            return True
        return (sum(self._above) >= self.hand_min and self._hand_t is not None
                and t - self._hand_t <= self.hand_hold_s)

    def _knocked(self, since):
        """Did the piezo feel a knock around ``since`` (falling dice land a moment after they go)?"""
        return (self._knock_t is not None and since is not None
                and since - self.knock_s <= self._knock_t <= since + self.knock_s)

    def see(self, mm, t):
        """One VL53L0X reading: a hand over the stack, and the watchman's height."""
        if self.distance is None or self.level is None:
            return []
        if mm is None or not MIN_VALID_MM <= mm <= MAX_VALID_MM:
            self._blind_run += 1
            if self._blind_run >= self.blind_min:
                self._blind_t = t  # the watchman is blind: a hand could be there unseen
            return []
        self._blind_run = 0
        level = self.level
        h = self.distance.height(mm)
        # Over the stack the scale weighs now, not the count: dice put on faster than they are
        # counted must not read as a hand that never leaves (docs/sensing.md, "a hand or a fall").
        top = level if self.last is None else max(level, self.last - self.extra)
        over = h > top + self.occlude
        self._above.append(1 if over else 0)
        while len(self._above) > self.hand_window:
            self._above.pop(0)
        if over:
            self._hand_t = t
            if self._moving_since is not None:
                self._hand_during = True
            return []
        return self._watch(h, t)

    def _watch(self, h, t):
        """The watchman: weight and height two dice apart (by the median) for ``mismatch_s``."""
        self._heights.append((t, h))
        while self._heights and self._heights[0][0] < t - self.mismatch_s:
            self._heights.pop(0)
        if self.level is None or self.falling or self._moving_since is not None:
            self._heights = []
            return []
        span = t - self._heights[0][0] if self._heights else 0.0
        seen = _median([x for _, x in self._heights])
        apart = abs(seen - self.level) >= self.mismatch_dice
        if apart and span >= self.mismatch_s * 0.95 and not self._mismatch:
            self._mismatch = True
            return [{"type": "mismatch", "weighed": self.level, "seen": int(seen + 0.5) if seen > 0 else 0}]
        if not apart:
            self._mismatch = False
        return []

    # -- the weight -----------------------------------------------------------------------------
    def tare(self):
        """Take the plinth's weight now as empty. Returns None, or why not (a sentence)."""
        if not self._codes:
            return "no reading from the scale yet"
        code = _median(self._codes[-self.agree:])
        if abs(self.calibration.dice(code)) > 1.0:
            return "the plinth is not empty: take every die off, then tare"
        self.calibration.zero = code
        self.extra = 0.0
        self._recent = []
        return None

    def _agreed(self):
        """The whole number the last ``agree`` outputs agree on (``fall_agree`` while the Heat is
        falling: its dice leave one after another), or a still stack's nearest; else None."""
        values = [v - self.extra for v in self._recent]
        if self.falling and len(values) >= self.fall_agree:
            # A knocked stack breaks at a joint or two and its parts leave tens of ms apart: a
            # count between them must not pass for the end of the fall, so agree for longer.
            last = values[-self.fall_agree:]
            mid = _median(last)
            n = int(mid + 0.5) if mid > -0.5 else 0
            if max(last) - min(last) <= self.tol and all(abs(v - n) <= self.tol for v in last):
                return n
        elif len(values) >= self.agree:
            last = values[-self.agree:]
            n = int(last[-1] + 0.5) if last[-1] > -0.5 else 0
            if max(last) - min(last) <= self.tol and all(abs(v - n) <= self.tol for v in last):
                return n
        if len(values) >= self.steady_n:
            last = values[-self.steady_n:]
            if max(last) - min(last) <= 2 * self.steady_tol:
                m = _mean(last)
                return int(m + 0.5) if m > -0.5 else 0
        return None

    def feed(self, code, t):
        """One ADC output in; a list of event dicts out (usually empty)."""
        x = self.calibration.dice(code)
        self.last = x
        self._recent.append(x)
        self._codes.append(code)
        while len(self._recent) > self.steady_n:
            self._recent.pop(0)
            self._codes.pop(0)
        if self.level is None:
            n = self._agreed()
            if n is None:
                return []
            self.level = n
            return [{"type": "height", "dice": n}]
        events = []
        hand = self._hand(t)
        net = x - self.extra
        off = abs(net - self.level) > self.tol
        if off and self._moving_since is None:
            self._moving_since = t
            self._hand_during = hand
        if hand and self._moving_since is not None:
            self._hand_during = True
        # Lighter than the count, yet not lighter than nothing (a plinth ringing swings below zero).
        low = [v - self.extra for v in self._recent[-self.fall_n:]]
        if (not self.falling and self.level > 0 and len(low) == self.fall_n
                and all(-self.fall_drop <= v < self.level - self.fall_drop for v in low)
                and ((not hand and not self._hand_during) or self._knocked(self._moving_since))):
            self.falling = True
            events.append({"type": "falling", "dice": self.level})
        if self._moving_since is None:
            self._tare_when_empty(t)
            return events
        if hand and not self.falling:
            return events  # a hand at work: count when it has gone
        n = self._agreed()
        if n is None:
            return events
        return events + self._settle(n, t)

    def _settle(self, n, t):
        events = []
        if self._hand_during and self.extra and abs(self._recent[-1] - int(self._recent[-1] + 0.5)) <= self.tol:
            self.extra = 0.0  # a hand took the d10 (or the leaning die) away
            n = max(0, int(self._recent[-1] + 0.5))
        if n < self.level:
            felt = self.falling or self._knocked(self._moving_since) or not self._hand_during
            if felt:
                events.append({"type": "collapse", "fell": self.level - n, "standing": n})
            else:
                for k in range(self.level - 1, n - 1, -1):
                    events.append({"type": "removed", "dice": k})
        elif n > self.level:
            if self._hand_during:
                for k in range(self.level + 1, n + 1):
                    events.append({"type": "added", "dice": k})
            else:  # weight with no hand: not a die (a d10 resting on top); keep the count
                self.extra += _mean(self._recent[-self.agree:]) - self.extra - self.level
                n = self.level
        if n != self.level or self.falling:
            events.append({"type": "height", "dice": n})
        self.level = n
        self.falling = False
        self._moving_since = None
        self._hand_during = False
        self._heights = []
        return events

    def _tare_when_empty(self, t):
        """An empty, still plinth for ``tare_after_s``: let the zero follow the cell's drift."""
        if self.level != 0 or self.extra:
            self._empty_since = None
            return
        if self._empty_since is None:
            self._empty_since = t
        elif t - self._empty_since >= self.tare_after_s and len(self._codes) >= self.steady_n:
            values = self._recent
            if max(values) - min(values) <= 2 * self.steady_tol:
                self.calibration.zero = _median(self._codes)
                self._empty_since = t
