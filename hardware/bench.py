"""The maker's bench test: check the sensing tray against the optical model before gluing the arm.

A guided checklist. Each step asks the maker to set the tray up one way
("stand one die in the Heat circle"), records what the tray reports for a
few seconds (distance readings, piezo impacts, Heat events), and judges it
against what ``hardware.optics`` expects of that scene, within a tolerance.
The result is a plain-text pass/fail report to keep, and, when the still
steps pass, a height curve to calibrate with (the model's curve moved onto
the measured points, so the heights in between follow the optics).

This module knows no screen and no keyboard: ``Bench`` is given a tray port
(any ``hardware.ports.Tray``: the serial tray, the virtual tray, the
simulator), a ``ready(step)`` callback that returns when the maker says so,
an ``act(step)`` callback for a simulated maker's hands (none for a person),
and a ``say(line)`` callback for live readings. The ``table-noir hardware
bench`` command, the kiosk's operator menu and the tests drive it.

A still step is recorded once the maker says the scene is set. An action (a
hand, a drop, a topple) is recorded from the moment the maker says they are
about to do it: what the tray sent while the step waited on the screen is let
go, so a maker who reads the instruction for a minute is not judged on that
minute's readings, and the tray's fall line lands inside the window.
"""

from __future__ import annotations

import math
import queue
import os
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from firmware.tray.heat import CurveCalibration
from firmware.tray.weight import WeighCalibration

from . import weigh_bench

from .config import Config, GeometryConfig
from .events import ZONE_PIEZOS, Collapse, DistanceSample, ThrowImpact, Zone
from .optics import DESIGNS, Design, OpticalSensor
from .ports import Tray

if TYPE_CHECKING:
    from .virtual_tray import VirtualTray
    from .weighing import ScaleDesign

MIN_VALID_SHARE = 0.8      # of a still step's readings; fewer means the signal is too weak
MODEL_MARGIN_MM = 10.0     # the model's own uncertainty (its estimated constants; docs/sensing.md)
SPREAD_FACTOR = 2.0        # a spread over this many times the model's sigma is a fault


@dataclass(frozen=True)
class Step:
    key: str
    title: str
    instruction: str
    dice: int               # dice standing when the step is recorded
    kind: str               # "still", "hand", "drop" or "topple"
    samples: int = 90       # readings to record (about 3 s at 33 ms); for an action, a person's time to do it
    zone: str = ""          # for a drop: where the d10 lands

    @property
    def action(self) -> bool:
        """A hand, a drop or a topple: recorded from the maker's word that they are about to do it."""
        return self.kind in ("hand", "drop", "topple")

    @property
    def seconds(self) -> int:
        """How long the tray records this step, to the nearest second (a reading every 33 ms)."""
        return round(self.samples * 0.033)


STEPS = (
    Step("empty", "empty tray", "Clear the tray: no dice, no hands, nothing under the arm.", 0, "still", 150),
    Step("one", "one die", "Stand one die in the middle of the Heat circle.", 1, "still", 150),
    Step("three", "three dice", "Stack three dice in the Heat circle.", 3, "still", 150),
    Step("eight", "eight dice", "Stack eight dice in the Heat circle.", 8, "still", 150),
    Step("hand", "a hand over the stack", "Wave a hand 5-10 cm above the eight dice for three seconds; touch nothing.",
         8, "hand", 150),  # three seconds of hand, then the stack alone again
    Step("drop-inside", "a d10 inside the ring", "Drop a d10 from a hand's height so it lands inside the target ring, on the side of the piezo disc "
         "wired to A0.",
         8, "drop", 90, "inside"),
    Step("drop-touching", "a d10 on the ring", "Drop a d10 so it lands on the target's solid ring, on the side of the disc wired to A1.",
         8, "drop", 90, "touching"),
    Step("drop-outside", "a d10 outside the ring", "Drop a d10 so it lands outside the ring, inside the tray's rim, on the side of the disc wired to A2.",
         8, "drop", 90, "outside"),
    Step("topple", "topple four dice", "Push the top four dice off the stack, so four stay standing.", 4, "topple", 90),
)


SET_SIZE = 14   # the Heat's dice, weighed one at a time


def _weigh_steps(set_size: int = SET_SIZE) -> tuple[Step, ...]:
    """The weighing steps a tray with a load cell walks first (``hardware.weigh_bench`` judges them)."""
    steps = [Step("weigh-0", "empty plinth", "Take everything off the plinth; touch nothing.", 0, "weigh", 45)]
    for k in range(1, set_size + 1):
        steps.append(Step(f"weigh-{k}", f"die {k} of {set_size} weighed",
                          f"Put die {k} of your Heat set on the plinth's stack, then take your hand away.", k, "weigh",
                          30))
    steps.append(Step("retare", "re-tare", "Take every die off the plinth; touch nothing.", 0, "retare", 45))
    return tuple(steps)


WEIGH_STEPS = _weigh_steps()


@dataclass
class Record:
    """What the tray reported during one step."""

    readings: list = field(default_factory=list)   # mm, or None for an invalid reading
    weights: list = field(default_factory=list)    # a tray that weighs the Heat: its NAU7802 readings
    impacts: int = 0
    piezos: list = field(default_factory=list)     # each impact's strongest disc (None: the tray did not say)
    collapses: list = field(default_factory=list)  # (fell, standing)

    @property
    def valid(self) -> list[int]:
        return [mm for mm in self.readings if mm is not None]


@dataclass(frozen=True)
class Verdict:
    step: Step
    passed: bool
    measured: str
    expected: str
    advice: str = ""


def _median(values) -> float:
    return float(statistics.median(values)) if values else math.nan


def _spread(values) -> float:
    """A standard deviation that one stray reading cannot inflate: 1.4826 x the median absolute deviation."""
    if len(values) < 2:
        return 0.0
    centre = statistics.median(values)
    return 1.4826 * statistics.median(abs(v - centre) for v in values)


class Expectations:
    """What the optical model says each step should read, and how far off is still fine."""

    def __init__(self, geometry: GeometryConfig, design: Design):
        self.optics = OpticalSensor(geometry, design)
        self.design = design

    def still(self, dice: int) -> tuple[float, float, int]:
        """(mean mm, sigma mm, range status) over a still stack."""
        r = self.optics.reading(self.optics.stack(dice))
        return r.mean_mm, r.sigma_mm, r.status

    def tolerance(self, dice: int, readings: int) -> float:
        """How far a step's median may sit from the model: its margin plus three standard errors."""
        _, sigma, _ = self.still(dice)
        return MODEL_MARGIN_MM + 3 * sigma * 1.25 / math.sqrt(max(1, readings))


def judge(step: Step, record: Record, model: Expectations, before: Record | None = None) -> Verdict:
    """Compare one step's record with the model. ``before`` is the step the scene started from."""
    valid = record.valid
    share = len(valid) / max(1, len(record.readings))
    mean, sigma, status = model.still(step.dice)
    median, spread = _median(valid), _spread(valid)
    got = f"{median:.0f} mm median, sd {spread:.1f} mm, {100 * share:.0f} % valid of {len(record.readings)}"
    if step.kind in ("still", "topple"):
        tol = model.tolerance(step.dice, len(valid))
        want = f"{mean:.0f} +/- {tol:.0f} mm, sd up to {max(3.0, SPREAD_FACTOR * sigma):.1f} mm"
        if status == 2 or share < MIN_VALID_SHARE:
            return Verdict(step, False, got, want + ", 80 % valid",
                           "too few valid readings: the signal is weak. Check the bore is clear and painted matte "
                           "black, the lens clean and the sensor centred; set the signal limit to "
                           f"{DESIGNS['low-limit'].signal_limit_mcps} MCPS (docs/sensing.md)")
        problems = []
        if abs(median - mean) > tol:
            problems.append(f"the median is {median - mean:+.0f} mm from the model: check the sensor height "
                            "and that the stack stands on the Heat circle's centre")
        if spread > max(3.0, SPREAD_FACTOR * sigma):
            problems.append("the readings scatter more than the model allows: stray light or a loose arm")
        if step.kind == "topple":
            # Shown, not judged: falling Heat dice knock the tray more softly than a d10 (the drop
            # steps check the piezo), and the tray's tracker is not what this bench checks.
            got += f", falls reported: {record.collapses or 'none'}, impacts {record.impacts}"
        return Verdict(step, not problems, got, want, "; ".join(problems))
    if step.kind == "hand":
        # The sensor must see the hand, and the stack again once it has gone. Falls the tray's tracker
        # reports meanwhile are shown, not judged: on noisy readings it reports some with no hand at
        # all (docs/sensing.md), and this bench checks the build, not the tracker.
        top, _, _ = model.still(step.dice)
        near = sum(1 for mm in valid if mm < top - 1.5 * model.optics.geometry.die_size_mm)
        tail = valid[-15:]
        tol = model.tolerance(step.dice, len(tail))
        got = (f"{near} of {len(record.readings)} readings well above the stack, then {_median(tail):.0f} mm; "
               f"falls reported: {len(record.collapses)}")
        want = f"the hand seen (5 readings or more), then the stack at {top:.0f} +/- {tol:.0f} mm"
        problems = []
        if near < 5:
            problems.append("the hand was not seen: is the sensor looking at the stack?")
        if not tail or abs(_median(tail) - top) > tol:
            problems.append("the stack did not read the same after the hand: is something still in the view?")
        return Verdict(step, not problems, got, want, "; ".join(problems))
    # A drop: the piezo must feel it wherever it lands, and the stack must read the same after.
    base = _median(before.valid) if before is not None else mean
    tail = valid[-20:]
    moved = abs(_median(tail) - base) if tail else math.inf
    tol = model.tolerance(step.dice, len(tail))
    got = f"impacts {record.impacts}, stack reads {_median(tail):.0f} mm after (was {base:.0f})"
    want = f"1 impact, the stack within {tol:.0f} mm of where it was"
    problems = []
    if record.impacts < 1:
        problems.append(f"the piezo did not feel a d10 landing {step.zone}: check the disc nearest that zone")
    problems += _judge_discs(step, record)
    if moved > tol:
        problems.append("the stack's reading moved: did the drop knock the stack?")
    told = [disc for disc in record.piezos if disc is not None]
    if told:
        got += f", strongest disc {', '.join(map(str, told))}"
        want += f", disc {ZONE_PIEZOS[Zone(step.zone)][0]} the strongest"
    elif record.impacts:
        got += "; zone judged only: per-disc judging needs tray firmware 0.3.1+"
    return Verdict(step, not problems, got, want, "; ".join(problems))


def _judge_discs(step: Step, record: Record) -> list[str]:
    """A drop in a zone must read strongest on the disc nearest it (``ZONE_PIEZOS``): else that disc
    is dead or miswired, hidden behind the others. Not judged when the tray does not name discs."""
    told = [disc for disc in record.piezos if disc is not None]
    nearest = ZONE_PIEZOS[Zone(step.zone)][0]
    if not told or nearest in told:
        return []
    return [f"piezo {nearest} never felt a drop: check its wiring"]


def curve_from(records: dict, model: Expectations) -> CurveCalibration | None:
    """A calibration curve: the model's curve moved onto the medians measured over 0, 1, 3 and 8 dice.

    Between measured heights the correction is interpolated, past the last it is held. None if a
    still step has no valid readings.
    """
    measured = {}
    for step in STEPS:
        if step.kind == "still" and step.key in records:
            valid = records[step.key].valid
            if not valid:
                return None
            measured[step.dice] = _median(valid) - model.still(step.dice)[0]
    if len(measured) < 2:
        return None
    ks = sorted(measured)
    points = []
    for k, mm in enumerate(model.optics.curve()):
        if k >= ks[-1]:
            shift = measured[ks[-1]]
        else:
            hi = next(j for j in ks if j >= k)
            lo = max(j for j in ks if j <= k)
            shift = measured[lo] if hi == lo else measured[lo] + (measured[hi] - measured[lo]) * (k - lo) / (hi - lo)
        points.append(mm + shift)
    try:
        return CurveCalibration(points)
    except ValueError:
        return None


class Bench:
    """Runs the checklist against a tray port (see the module docstring)."""

    def __init__(self, tray: Tray, geometry: GeometryConfig, design: Design | str = "low-limit",
                 ready: Callable[[Step], None] = lambda step: None, say: Callable[[str], None] = print,
                 timeout_s: float = 30.0, weigh: bool | None = None, act: "SimMaker | None" = None):
        self.tray = tray
        if weigh is None:  # a tray with a load cell says so in its hello
            weigh = (getattr(tray, "hello", None) or {}).get("scale") == "ok"
        self.weigh = weigh
        self.steps: tuple[Step, ...] = WEIGH_STEPS + STEPS if weigh else STEPS
        self.weighing: WeighCalibration | None = None  # learnt by the weighing steps
        self.geometry = geometry
        self.design_name = design if isinstance(design, str) else "custom"
        self.model = Expectations(geometry, DESIGNS[design] if isinstance(design, str) else design)
        self.ready = ready  # returns when the maker says the scene is set, or that they are about to act
        self.act = act  # a simulated maker's hands (None: a person does it)
        self.say = say
        self.timeout_s = timeout_s
        self.inbox: queue.Queue = queue.Queue()
        self.records: dict[str, Record] = {}
        self.verdicts: list[Verdict] = []
        self.cancelled = threading.Event()  # set from another thread: the walk stops after this reading
        tray.subscribe(self.inbox.put)

    def close(self) -> None:
        """Stop listening to the tray (the tray itself is the caller's to close)."""
        try:
            self.tray.unsubscribe(self.inbox.put)
        except ValueError:
            pass

    def record(self, step: Step) -> Record:
        """Collect ``step.samples`` readings (and any impacts and falls among them), showing them live."""
        record = Record()
        deadline = time.monotonic() + self.timeout_s
        shown = 0
        while len(record.readings) < step.samples and time.monotonic() < deadline and not self.cancelled.is_set():
            try:
                event = self.inbox.get(timeout=0.05)
            except queue.Empty:
                continue
            if isinstance(event, DistanceSample):
                record.readings.append(event.mm)
                if event.w is not None:
                    record.weights.append(event.w)
            elif isinstance(event, ThrowImpact):
                record.impacts += 1
                record.piezos.append(event.piezo)
            elif isinstance(event, Collapse):
                record.collapses.append((event.fell, event.standing))
            if len(record.readings) - shown >= 30:
                shown = len(record.readings)
                valid = record.valid
                self.say(f"    reading {valid[-1] if valid else 'none'} mm, median {_median(valid):.0f} mm, "
                         f"{len(record.readings)}/{step.samples} readings, impacts {record.impacts}")
        return record

    def _drain(self) -> None:
        while not self.inbox.empty():
            self.inbox.get_nowait()

    def run_step(self, step: Step, number: int, total: int, before: Record | None) -> Verdict | None:
        """Ask for one step, record it and judge it (``before``: the last still step's record).
        None if the walk was cancelled meanwhile."""
        if self.cancelled.is_set():
            return None
        self.say(f"Step {number} of {total}: {step.title}. {step.instruction}")
        if not step.action:
            self.ready(step)  # the maker has built the stack; readings meanwhile are not this step's
            if self.act is not None and not self.cancelled.is_set():
                self.act(step)  # returns once the simulated stack stands still and the Pi has read it
            self._drain()
        else:
            self.ready(step)  # the maker is about to act
            if self.cancelled.is_set():
                return None
            if self.act is not None:
                self.act.settle()  # the simulated table holds still until the Pi has read all it sent
            self._drain()  # the action itself is what this step records, not the wait before it
            if self.act is not None and not self.cancelled.is_set():
                self.act(step)
        if self.cancelled.is_set():
            return None
        record = self.record(step)
        if self.cancelled.is_set():
            return None
        self.records[step.key] = record
        verdict = self.judge_weighing(step, record) if step.kind in ("weigh", "retare") else judge(
            step, record, self.model, before)
        if self.weigh and step.kind != "weigh":
            verdict = self.add_count(step, record, verdict)
        self.verdicts.append(verdict)
        self.say(f"    {'PASS' if verdict.passed else 'FAIL'}: {verdict.measured}")
        return verdict

    def judge_weighing(self, step: Step, record: Record) -> Verdict:
        """A weighing step: one die of the set on (the set is learnt and stored on the tray after the
        last), or the re-tare."""
        if step.kind == "retare":
            if self.weighing is None:
                return Verdict(step, False, "no weighing calibration", "the set weighed first",
                               "weigh the set first: the re-tare needs one die's weight")
            got = weigh_bench.retare(record.weights, self.weighing)
            if got.passed:
                problem = self._tell_tray("tare")
                if problem:
                    return Verdict(step, False, got.measured, got.expected, problem)
            return Verdict(step, got.passed, got.measured, got.expected, got.advice)
        if not record.weights:
            return Verdict(step, False, "no weight readings", "the load cell's readings",
                           "check the load cell's cable and the NAU7802 (the tray's hello says scale: ok)")
        if step.dice == 0:
            return Verdict(step, True, f"{_median(record.weights):.0f} readings", "an empty plinth")
        previous = self.records.get(f"weigh-{step.dice - 1}")
        rise = _median(record.weights) - _median(previous.weights) if previous and previous.weights else math.nan
        verdict = Verdict(step, rise > 0, f"the weight rose by {rise:.0f} readings", "a rise",
                          "" if rise > 0 else "the weight did not rise: is the die on the plinth's stack?")
        if step.dice == max(s.dice for s in self.steps if s.kind == "weigh"):
            verdict = self._learn_set(step, verdict)
        return verdict

    def _learn_set(self, step: Step, last: Verdict) -> Verdict:
        """After the last die: the set's mean and spread, refused if too mixed, stored on the tray."""
        by_dice = [self.records[s.key].weights for s in self.steps if s.kind == "weigh"]
        calibration, got = weigh_bench.learn_set(by_dice)
        advice = got.advice
        if calibration is not None:
            self.weighing = calibration
            problem = self._tell_tray("weighcal", calibration)
            if problem:
                calibration, advice = None, problem
        measured = f"{last.measured}; the set: {got.measured}"
        return Verdict(step, last.passed and calibration is not None, measured, got.expected, advice or last.advice)

    def _tell_tray(self, what: str, calibration: WeighCalibration | None = None) -> str:
        """Store the weighing on the tray (``weighcal``) or re-tare it; returns a problem, or ''."""
        try:
            if what == "weighcal" and calibration is not None:
                send = getattr(self.tray, "weigh_calibrate", None)
                if send is not None:
                    send(calibration.zero, calibration.per_die, calibration.spread)
            elif what == "tare":
                tare = getattr(self.tray, "tare", None)
                if tare is not None:
                    tare()
        except (RuntimeError, TimeoutError, ConnectionError) as err:
            return f"the tray did not take it: {err}"
        return ""

    def add_count(self, step: Step, record: Record, verdict: Verdict) -> Verdict:
        """A tray that weighs the Heat: every still step must weigh its count, and a topple must be
        counted as the fall it was."""
        if step.kind == "still" and self.weighing is not None:
            got = weigh_bench.judge_count(step.dice, record.weights, self.weighing)
            return Verdict(step, verdict.passed and got.passed, f"{verdict.measured}; weighed {got.measured}",
                           f"{verdict.expected}; {got.expected}", "; ".join(a for a in (verdict.advice, got.advice) if a))
        if step.kind == "topple":
            prior = [s for s in self.steps[:self.steps.index(step)] if s.kind == "still"]
            fell = prior[-1].dice - step.dice if prior else None
            want = [(fell, step.dice)]
            if record.collapses == want:
                return Verdict(step, verdict.passed, verdict.measured, verdict.expected + f"; the fall counted {want}",
                               verdict.advice)
            return Verdict(step, False, verdict.measured, verdict.expected + f"; the fall counted {want}",
                           "; ".join(a for a in (verdict.advice, f"the tray counted the fall as {record.collapses or 'nothing'}"
                                                 f", not {fell} fell and {step.dice} standing: check the plinth moves "
                                                 "freely and the piezo discs") if a))
        return verdict

    def run(self, steps: tuple[Step, ...] | None = None) -> list[Verdict]:
        steps = self.steps if steps is None else steps
        before = None
        for number, step in enumerate(steps, 1):
            if self.run_step(step, number, len(steps), before) is None:
                break
            if step.kind == "still":
                before = self.records[step.key]
        return self.verdicts

    def report(self, when: str | None = None) -> str:
        """The pass/fail report to keep."""
        g = self.geometry
        shroud = self.model.optics.shroud
        lines = [
            "Table Noir sensing bench report",
            f"date: {when or time.strftime('%Y-%m-%d %H:%M')}",
            f"geometry: sensor {g.sensor_height_mm:g} mm above the floor, {g.die_size_mm:g} mm dice, "
            f"shroud mouth {2 * shroud.mouth_r:.1f} mm wide at {shroud.mouth_z:g} mm",
            f"judged against: the optical model, design '{self.design_name}' (docs/sensing.md)",
            "",
        ]
        for v in self.verdicts:
            lines.append(f"{'PASS' if v.passed else 'FAIL'}  {v.step.title}")
            lines.append(f"      measured: {v.measured}")
            lines.append(f"      expected: {v.expected}")
            if v.advice:
                lines.append(f"      what to do: {v.advice}")
        passed = sum(v.passed for v in self.verdicts)
        lines.append("")
        lines.append(f"result: {'PASS' if passed == len(self.verdicts) else 'FAIL'} "
                     f"({passed} of {len(self.verdicts)} steps passed)")
        if self.weighing is not None:
            lines.append(f"weighing calibration (stored on the tray): zero {self.weighing.zero:.0f}, one die "
                         f"{self.weighing.per_die:.1f} readings, spread {100 * self.weighing.spread:.2f} %")
        curve = curve_from(self.records, self.model)
        if curve is not None:
            lines.append("calibration curve (mm over 0, 1, 2, ... dice): " + " ".join(f"{p:.0f}" for p in curve.points))
        else:
            lines.append("calibration curve: none (the still steps did not all give readings in order)")
        return "\n".join(lines) + "\n"

    @property
    def passed(self) -> bool:
        return bool(self.verdicts) and all(v.passed for v in self.verdicts)


class SimMaker:
    """A maker at a simulated table: does what each step asks (for the tests and ``bench --sim``).

    ``sim`` is the TableSimulator behind the tray, ``lock`` the lock its tray holds while it
    samples, ``idle`` says when every scheduled action has played out.
    """

    def __init__(self, sim, lock, idle: Callable[[], bool], timeout_s: float = 60.0,
                 heard: Callable[[], int | None] | None = None, sent: Callable[[], int | None] | None = None):
        self.sim, self.lock, self.idle, self.timeout_s = sim, lock, idle, timeout_s
        self.heard = heard  # the tray clock (ms) of the last line the Pi's reader took, if it can say
        self.sent = sent  # the tray clock (ms) of the last line the tray sent, if it can say

    def __call__(self, step: Step) -> None:
        with self.lock:
            sim = self.sim
            if step.kind in ("still", "weigh", "retare"):
                while sim.planned_dice < step.dice:
                    sim.add_die()
                while sim.planned_dice > step.dice:
                    sim.remove_die()
            elif step.kind == "hand":
                sim.wave_hand(90)  # three seconds, as the step asks
            elif step.kind == "drop":
                sim.throw(accuracy=0.9, zone=step.zone, collapse=False)
            elif step.kind == "topple" and sim.planned_dice > step.dice:
                sim.topple(sim.planned_dice - step.dice)
        if step.kind in ("still", "weigh", "retare"):
            deadline = time.monotonic() + self.timeout_s
            while not self.idle() and time.monotonic() < deadline:
                time.sleep(0.01)
            self._caught_up(deadline)

    def settle(self) -> None:
        """Before an action (a hand, a drop, a topple): hold the simulated table still until the
        Pi has read every line the tray sent, so the bench, emptying its inbox next, lets go of
        all that came before the action. On a busy machine the reader lags the virtual tray, and
        those readings, still in the pipe, filled a topple's whole window, which then closed
        before the tray's fall line was read ("the tray counted the fall as nothing")."""
        if self.sent is None:
            return
        with self.lock:  # the tray samples under this lock: it sends nothing meanwhile
            self._heard_up_to(self.sent(), time.monotonic() + self.timeout_s)

    def _caught_up(self, deadline: float) -> None:
        """Wait until the Pi has read every line the tray sent before the stack was still, as a
        maker's tap comes after the readings on screen have settled. On a busy machine the
        serial reader can lag the virtual tray by many readings, and those, taken while the
        dice were still going on, would be recorded as the still stack's (a step judged 40 mm
        short)."""
        with self.lock:
            now_ms = int(round(self.sim.t * 1000))
        self._heard_up_to(now_ms, deadline)

    def _heard_up_to(self, ms: int | None, deadline: float) -> None:
        """Wait, until ``deadline``, for the Pi's reader to take a line stamped ``ms`` or later
        on the tray's clock (no wait if either clock is unknown)."""
        if self.heard is None or ms is None:
            return
        while time.monotonic() < deadline:
            heard = self.heard()
            if heard is not None and heard >= ms:
                return
            time.sleep(0.01)


@dataclass
class VirtualBench:
    """The virtual tray for a bench walk with nobody at a table: the simulated table seen through
    the optical model, the tray's firmware on a pseudo-terminal, the Pi's serial reader, and a
    simulated maker who does what each step asks (``act``). ``close()`` takes it all down."""

    tray: Tray
    act: SimMaker
    virtual: "VirtualTray"

    def close(self) -> None:
        self.tray.close()
        self.virtual.close()


def open_virtual_bench(config: Config, design: Design | str = "low-limit", seed: int = 0,
                       pace: float = 1.0, weigh: bool = True, scale: "ScaleDesign | None" = None) -> VirtualBench:
    """Start a virtual tray for the bench (``table-noir hardware bench --sim`` and the kiosk's bench
    screen on a simulated table). ``pace`` below 1 runs the table faster than real time."""
    from .backends.serial import SerialTray
    from .virtual_tray import VirtualTray

    chosen = DESIGNS[design] if isinstance(design, str) else design
    link = os.path.join(tempfile.mkdtemp(prefix="table-noir-bench-"), "tray")
    # The kit's tray weighs the Heat (``weigh=False``: a VL53L0X-only tray, the optical steps alone).
    virtual = VirtualTray(config, seed=seed, link=link, start_dice=0, pace=pace, weigh=weigh, scale=scale)
    virtual.sim.use_optics(OpticalSensor(config.geometry, chosen))
    virtual.start()
    tray = SerialTray(config.tray, port=virtual.path, retry_s=0.05)
    return VirtualBench(tray, SimMaker(virtual.sim, virtual._lock, virtual.idle, heard=lambda: tray.heard_ms,
                                       sent=lambda: virtual.sent_ms), virtual)


def wait_connected(tray: Tray, seconds: float = 10.0) -> bool:
    """Wait for the tray to answer; then ask it for every reading (``raw``), as the bench needs."""
    deadline = time.monotonic() + seconds
    while not tray.connected and time.monotonic() < deadline:
        time.sleep(0.05)
    if not tray.connected:
        return False
    set_raw = getattr(tray, "set_raw", None)
    if set_raw is not None:
        set_raw(True)
    return True
