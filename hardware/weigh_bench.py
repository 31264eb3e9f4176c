"""The bench's weighing steps: learn the Heat set by weighing it, and check counts that cannot pass wrong.

Pure judging, like ``hardware.bench``: each step gets the NAU7802 readings the
tray streamed while the maker did what the step asks (the ``w`` field of raw
samples) and returns a ``Verdict`` with what to say on screen.

* **Weigh the set** (``learn_set``): the empty plinth, then the set's dice
  put on one at a time, a few seconds each. Each die's weight is the step
  between two readings; the set's mean and spread come from them. A set whose
  spread would miscount a full Heat of 14 dice is refused with one sentence
  (``firmware.tray.weight.TOO_VARIED``).
* **Check a count** (``judge_count``): with k dice standing, the median reading
  must be within a quarter of a die of k, and steady. A tray one die off reads
  a whole die away, four times the tolerance, so no step can pass it: the
  tests feed the model's readings for k-1 and k+1 dice to every check and see
  each fail.
* **Re-tare** (``retare``): the empty plinth's reading becomes the zero.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from firmware.tray.weight import WeighCalibration, calibrate_weighing

COUNT_TOL = 0.25       # dice: the median reading's distance from the count it must show
STEADY_TOL = 0.1       # dice: the readings' robust spread while nothing moves
CHECK_COUNTS = (1, 3, 8, 14)


@dataclass(frozen=True)
class WeighVerdict:
    title: str
    passed: bool
    measured: str
    expected: str
    advice: str = ""


def _spread(values: list[float]) -> float:
    centre = statistics.median(values)
    return 1.4826 * statistics.median(abs(v - centre) for v in values)


def learn_set(readings_by_dice: list[list[int]]) -> tuple[WeighCalibration | None, WeighVerdict]:
    """``readings_by_dice[k]``: the readings with the first k dice of the set on the plinth."""
    n = len(readings_by_dice) - 1
    try:
        calibration = calibrate_weighing(readings_by_dice)
    except ValueError as err:
        return None, WeighVerdict("weigh the set", False, f"{n} dice weighed one at a time", "a matched set",
                                  str(err))
    return calibration, WeighVerdict(
        "weigh the set", True,
        f"{n} dice: one die {calibration.per_die:.0f} readings, spread {100 * calibration.spread:.2f} %",
        f"spread under {100 * _max_spread():.1f} % (14 dice counted right)")


def _max_spread() -> float:
    from firmware.tray.weight import max_spread  # noqa: PLC0415

    return float(max_spread())


def _dice(count: int) -> str:
    """A whole count of dice in words: "1 die", "3 dice"."""
    return f"{count} die" if count == 1 else f"{count} dice"


def judge_count(dice: int, readings: list[int], calibration: WeighCalibration) -> WeighVerdict:
    """Does the plinth weigh ``dice`` dice, steadily?"""
    title = f"{_dice(dice)} weighed"
    if not readings:
        return WeighVerdict(title, False, "no readings", _dice(dice), "check the load cell's cable and the NAU7802")
    values = [calibration.dice(c) for c in readings]
    middle, spread = statistics.median(values), _spread(values)
    measured = f"{middle:.2f} dice, spread {spread:.3f}"
    expected = f"{dice} +/- {COUNT_TOL} dice, spread up to {STEADY_TOL}"
    if abs(middle - dice) > COUNT_TOL:
        return WeighVerdict(title, False, measured, expected,
                            f"the plinth weighs {_dice(round(middle))}, not {dice}: check nothing touches the plinth "
                            "(a die leaning on it, the overload stop), then weigh the set again")
    if spread > STEADY_TOL:
        return WeighVerdict(title, False, measured, expected,
                            "the weight will not keep still: check the cell's screws and the damping pad")
    return WeighVerdict(title, True, measured, expected)


def retare(empty_readings: list[int], calibration: WeighCalibration) -> WeighVerdict:
    """Take the empty plinth's reading as the zero (refused if it weighs half a die or more)."""
    if not empty_readings:
        return WeighVerdict("re-tare", False, "no readings", "an empty plinth", "check the load cell's cable")
    code = statistics.median(empty_readings)
    x = calibration.dice(code)
    if abs(x) >= 0.5:
        return WeighVerdict("re-tare", False, f"{x:.2f} dice on the plinth", "an empty plinth",
                            "take every die off the plinth, then tare again")
    calibration.zero = float(code)
    return WeighVerdict("re-tare", True, f"zero moved by {x:+.3f} dice", "an empty plinth")
