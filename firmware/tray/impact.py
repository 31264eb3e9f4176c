"""Die impacts and settling, from the piezo discs under the tray floor. Pure Python.

A piezo disc gives a voltage spike when a die strikes the tray, then rings
down while the die bounces and rolls. ``ImpactDetector`` turns a stream of
levels (0.0 = still, 1.0 = full scale) into two kinds of event:

* ``{"type": "impact", "strength": s}`` on the first sample of a burst of
  activity that reaches ``threshold``: a throw has landed. Later bounces of
  the same throw do not report again.
* ``{"type": "settled", "quiet_ms": q}`` once the level has stayed below
  ``quiet_level`` for ``settle_ms``: the dice have stopped.

Two levels (a high one to start, a low one to count as quiet) keep a ringing
disc from toggling between the two. On the board ``hw.py`` turns ADC counts
into levels with ``level_from_counts``; the virtual tray feeds the simulator's
piezo value straight in. Runs unchanged under CircuitPython and CPython.
"""


def level_from_counts(counts, baseline, full_scale=65535):
    """An ADC reading -> a level 0..1 of how far it swings from the resting baseline."""
    swing = counts - baseline
    if swing < 0:
        swing = -swing
    level = swing / (full_scale / 2)
    return 1.0 if level > 1.0 else level


class ImpactDetector:
    """Impact and settle detection with hysteresis. Times are integer milliseconds."""

    def __init__(self, threshold=0.25, quiet_level=0.08, settle_ms=600):
        if not 0 < quiet_level < threshold <= 1:
            raise ValueError("need 0 < quiet_level < threshold <= 1")
        self.threshold = threshold
        self.quiet_level = quiet_level
        self.settle_ms = settle_ms
        self.active = False  # a throw is under way
        self._last_motion_ms = 0
        self._impact_ms = 0
        self.impacts = 0

    def feed(self, level, t_ms):
        """One piezo level at time ``t_ms``; returns a list of event dicts (usually empty)."""
        if level is None or level != level:  # no reading, or NaN
            level = 0.0
        events = []
        if not self.active:
            if level >= self.threshold:
                self.active = True
                self._impact_ms = t_ms
                self._last_motion_ms = t_ms
                self.impacts += 1
                strength = 1.0 if level > 1.0 else level
                events.append({"type": "impact", "strength": round(strength, 3)})
            return events
        if level >= self.quiet_level:
            self._last_motion_ms = t_ms
        elif t_ms - self._last_motion_ms >= self.settle_ms:
            self.active = False
            quiet = t_ms - self._last_motion_ms
            events.append({"type": "settled", "quiet_ms": quiet if quiet < 60000 else 60000})
        return events
