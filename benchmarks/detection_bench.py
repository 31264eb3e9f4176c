"""How well the Heat tracker tells a collapse from everything else, on simulated traces.

Plays many short scenes on the simulated table (hardware/sim.py): a Heat of
2-12 dice, d10s thrown at it with accuracy between 0.3 and 1.0 (most land
beside the stack and shake it, some knock it down, in part or entirely),
Risk dice added and dice taken off by hand, now and then a Heat bumped over
with nobody throwing, and half the fallen stacks rebuilt by hand at once,
all with the simulated sensor's noise, dropouts, out-of-range codes,
vibration and sway. Every trace goes through two detectors:

* ``firmware.tray.heat.HeatTracker`` as the tray runs it, told of every
  knock the piezo feels (``knock()`` at each piezo level of
  ``heat.KNOCK_LEVEL`` or more);
* the same tracker with no piezo (the i2c build, distance readings only);
* a naive detector: one threshold of half a die on each valid reading.

and each is graded against the simulator's record of what really happened:

* false collapses: reported when nothing fell (or reported twice);
* missed collapses: a real fall not reported within ``--window`` samples
  (30, one second: a fall the sensor was blind to is still that fall);
* wrong fallen-counts: reported, but with the wrong number of dice fallen;
* latency: samples from the first reading that shows the fall (a valid
  reading more than half a die below the old top) to the report, counting
  that first reading as 1, so 1 is the physical floor. A dropout cannot show
  a fall, so it is not held against the detector. Also shown: the same
  counted from the fall's first sample whatever the sensor gave then (the
  measure used before; a lost reading there adds a sample no detector can
  save), and from the first reading of the new top, once the falling dice
  are out of the beam (the soonest the fallen count can be known at all);
* added/removed dice missed or invented.

Latencies are in samples of 33 ms: "2" means the fall is reported on the
second reading that shows it, one sample period after the first. What the
simulated sensor does (noise, dropouts, hands, how dice fall) is described
at the top of hardware/sim.py.

Two sensor models, side by side in one run (``--model both``, the default):

* ``ideal``: the simulator's first sensor, which reports the nearest surface
  in a spot narrowed to the stack's footprint (hardware/sim.py);
* ``optical``: hardware/optics.py, a VL53L0X behind the arm's shroud that
  reports the signal-weighted mean distance of everything in its view, with
  noise that grows as the signal falls and its range-status codes. The
  tracker's calibration is then a measured curve (``heat.calibrate_curve``:
  150 readings (5 s) over each stack height, as the maker's bench takes them), not
  a straight line. ``--design`` picks the shroud and sensor settings
  (``hardware.optics.DESIGNS``); ``as-built`` is the enclosure as it is.

Under the optical model one more detector is graded: ``steady``
(``heat.SteadyTracker``), which weighs many readings against each sensor's
measured spread. With a design that has a second sensor (``post``), the
tracker and "no piezo" columns fuse both sensors (``heat.FusedTracker``) and
"arm only" is the one-sensor tracker on the arm's readings, which are the
same sample for sample as without the second sensor.

With no ``--model`` the kit's design comes first: the Heat weighed (hardware/weighing.py, the tray's
``firmware.tray.weight.WeightTracker`` with the ideal sensor as its watchman), graded like the others
plus the fall flag's and the count's latency in ms from the first die leaving the plinth; then the
ideal and optical models (the optical one as design low-limit: as built it cannot calibrate).

Usage: .venv/bin/python benchmarks/detection_bench.py [--throws 10000] [--seed 1]
       [--model all|both|weighing|ideal|optical] [--design as-built|low-limit|wide-mouth|post] [--noise-scale 1.0]
       [--scale nau7802|nau7802-bolted|nau7802-10sps] [--mass-spread 0.05] [--lean]
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.stats import percentile  # noqa: E402

from firmware.tray.heat import (  # noqa: E402
    KNOCK_LEVEL, MAX_VALID_MM, MIN_VALID_MM, Calibration, FusedTracker, HeatTracker, SteadyTracker, calibrate_curve,
    sensor_curve,
)
from hardware.config import GeometryConfig  # noqa: E402
from hardware.optics import DESIGNS, OpticalSensor  # noqa: E402
from hardware.sim import TableSimulator  # noqa: E402
from hardware.weighing import SCALE_DESIGNS, DiceSet, ScaleDesign, WeighingChain  # noqa: E402
from firmware.tray.weight import WeightTracker, calibrate_weighing  # noqa: E402

DETECTORS = ("tracker", "no piezo", "naive")
HEIGHT_BANDS = ((2, 4), (5, 8), (9, 12))


class NaiveDetector:
    """One threshold: any valid reading half a die below the known top is a fall."""

    def __init__(self, calibration: Calibration):
        self.calibration = calibration
        self.level: int | None = None

    def feed(self, mm, t=None):
        if mm is None or not MIN_VALID_MM <= mm <= MAX_VALID_MM:
            return []
        h = self.calibration.height(mm)
        k = max(0, int(math.floor(h + 0.5)))
        if self.level is None:
            self.level = k
            return [{"type": "height", "dice": k}]
        events = []
        if h < self.level - 0.5:
            events.append({"type": "collapse", "fell": self.level - k, "standing": k})
        elif h > self.level + 0.5:
            events += [{"type": "added", "dice": n} for n in range(self.level + 1, k + 1)]
        if k != self.level:
            self.level = k
            events.append({"type": "height", "dice": k})
        return events


def scene(sim: TableSimulator, rng: random.Random, throws_left: int) -> int:
    """Queue one scene's actions on ``sim``; return how many throws it used."""
    used = 0
    for _ in range(rng.randint(1, 3)):
        if used >= throws_left:
            break
        r = rng.random()
        if r < 0.2 and sim.planned_dice < 12:
            sim.add_die()  # a Risk
        elif r < 0.35 and sim.planned_dice > 1:
            sim.remove_die()  # a Boon takes one off
        elif r < 0.37 and sim.planned_dice > 0:
            sim.topple()  # a bumped table: the Heat falls with nobody throwing
            break
        before = sim.planned_dice
        landed = sim.throw(accuracy=rng.uniform(0.3, 1.0))
        used += 1
        if landed.hit_heat:
            if rng.random() < 0.5:  # scored, then rebuilt by hand to where it was
                for _ in range(before - sim.planned_dice):
                    sim.add_die()
            break
    return used


def first_showing(trace, start, old_top, calibration):
    """Index of the first sample from ``start`` whose reading is valid and over half a die below ``old_top``."""
    for i in range(start, len(trace)):
        mm = trace[i].distance_mm
        if mm is not None and MIN_VALID_MM <= mm <= MAX_VALID_MM and -0.5 <= calibration.height(mm) < old_top - 0.5:
            return i
    return start


def grade(events_by_sample, truths, window, trace=None, calibration=None):
    """Match reported collapses to real ones. Returns a dict of counts and latencies.

    With ``trace`` and ``calibration``, latency counts from the first reading that shows
    the fall; without, from the fall's first sample.
    """
    real = [tr for tr in truths if tr.kind == "collapse"]
    reported = [(i, e) for i, evs in events_by_sample for e in evs if e["type"] == "collapse"]
    used = set()
    out = {"real": len(real), "false": 0, "missed": 0, "wrong_count": 0, "latency": [], "latency_start": [],
           "latency_rest": []}
    for tr in real:
        match = None
        for j, (i, e) in enumerate(reported):
            if j not in used and tr.sample <= i < tr.sample + window:
                match = j
                break
        if match is None:
            out["missed"] += 1
            continue
        used.add(match)
        i, e = reported[match]
        shown = tr.sample if trace is None else first_showing(trace, tr.sample, tr.dice + tr.fell, calibration)
        out["latency"].append(i - shown + 1)
        out["latency_start"].append(i - tr.sample + 1)
        out["latency_rest"].append(i - (tr.sample + tr.tumble) + 1)
        if e["fell"] != tr.fell:
            out["wrong_count"] += 1
    out["false"] = len(reported) - len(used)
    for kind in ("added", "removed"):
        real_n = sum(1 for tr in truths if tr.kind == kind)
        got_n = sum(1 for _, evs in events_by_sample for e in evs if e["type"] == kind)
        out[kind] = (real_n, got_n)
    return out


def within(values, n):
    """Percent of ``values`` no more than ``n``."""
    return 100.0 * sum(1 for v in values if v <= n) / max(1, len(values))


def calibration_readings(optics: OpticalSensor, seed: int, samples: int = 150):
    """What a maker records: ``samples`` readings over each still stack, 0 to the tallest Heat."""
    rng = random.Random(seed)
    stacks = [optics.stack(k) for k in range(optics.geometry.max_heat_dice + 1)]
    return [[optics.sample(rng, scene)[0] for _ in range(samples)] for scene in stacks]


def measured_curve(optics: OpticalSensor, seed: int, samples: int = 150):
    """Calibrate as a maker would (``calibration_readings``).

    Returns the CurveCalibration, or raises ValueError naming the height that gave too few valid readings.
    """
    return calibrate_curve(calibration_readings(optics, seed, samples))


def measured_sensor_curves(optics: OpticalSensor, seed: int, samples: int = 150):
    """Each sensor's measured curve and spread (the arm's first, then its companions), for fusion."""
    sensors = [optics] + [OpticalSensor(optics.geometry, c) for c in optics.design.companions]
    return [sensor_curve(calibration_readings(sensor, seed + i, samples)) for i, sensor in enumerate(sensors)]


def run(throws: int, seed: int, window: int, max_height: int = 12, model: str = "ideal", design: str = "as-built",
        noise_scale: float = 1.0):
    geometry = GeometryConfig()
    optics = None
    calibration = Calibration(geometry.sensor_height_mm, geometry.die_size_mm)
    curves = None
    if model == "optical":
        chosen = DESIGNS[design]
        optics = OpticalSensor(geometry, dataclasses.replace(
            chosen, noise_scale=noise_scale,
            companions=tuple(dataclasses.replace(c, noise_scale=noise_scale) for c in chosen.companions)))
        calibration = measured_curve(optics, seed)
        if optics.design.companions:
            curves = measured_sensor_curves(optics, seed)
    if optics is not None and not curves:
        curves = [sensor_curve(calibration_readings(optics, seed))]  # one sensor: the steady tracker's spread
    fused = optics is not None and bool(optics.design.companions)
    detector_names = DETECTORS + (("arm only",) if fused else ()) + (("steady",) if optics is not None else ())
    rng = random.Random(seed)
    totals = {name: {"real": 0, "false": 0, "missed": 0, "wrong_count": 0, "latency": [], "latency_start": [],
                     "latency_rest": [], "added": [0, 0], "removed": [0, 0]} for name in detector_names}
    done = scenes = samples = 0
    heights = {}
    by_height: dict = {}
    while done < throws:
        start = rng.randint(2, max_height)
        heights[start] = heights.get(start, 0) + 1
        sim = TableSimulator(geometry, seed=rng.randrange(2**31), start_dice=start, optics=optics)
        detectors: dict = {"tracker": HeatTracker(calibration), "no piezo": HeatTracker(calibration),
                           "naive": NaiveDetector(calibration)}
        if fused:  # several sensors: the tracker and "no piezo" fuse them; "arm only" is the arm's alone
            detectors = {"tracker": FusedTracker(curves), "no piezo": FusedTracker(curves),
                         "naive": NaiveDetector(calibration), "arm only": HeatTracker(calibration)}
        if curves:  # the optical model: also the tracker that weighs many readings (with the piezo)
            detectors["steady"] = SteadyTracker(curves)
        events = {name: [] for name in detectors}
        trace = [sim.tick() for _ in range(15)]  # the tracker first sees a quiet stack
        done += scene(sim, rng, throws - done)
        trace += sim.run_until_idle(extra=window)
        for index, sample in enumerate(trace):
            if sample.piezo >= KNOCK_LEVEL:
                detectors["tracker"].knock(sample.t)
                for name in ("arm only", "steady"):
                    if name in detectors:
                        detectors[name].knock(sample.t)
            for name, detector in detectors.items():
                if isinstance(detector, (FusedTracker, SteadyTracker)):
                    evs = detector.feed((sample.distance_mm,) + sample.others, sample.t)
                else:
                    evs = detector.feed(sample.distance_mm, sample.t)
                if evs:
                    events[name].append((index, evs))
        samples += len(trace)
        scenes += 1
        for name in detectors:
            g = grade(events[name], sim.truth, window, trace, calibration)
            t = totals[name]
            for key in ("real", "false", "missed", "wrong_count"):
                t[key] += g[key]
            for key in ("latency", "latency_start", "latency_rest"):
                t[key] += g[key]
            for kind in ("added", "removed"):
                t[kind][0] += g[kind][0]
                t[kind][1] += g[kind][1]
            if name == "tracker":  # where the sensor can and cannot tell: by the scene's starting height
                band = next(b for b in HEIGHT_BANDS if b[0] <= start <= b[1])
                row = by_height.setdefault(band, {"real": 0, "false": 0, "missed": 0, "wrong_count": 0})
                for key in row:
                    row[key] += g[key]
    return totals, {"throws": done, "scenes": scenes, "samples": samples, "heights": heights,
                    "calibration": calibration, "by_height": by_height, "curves": curves}


def weigh_readings(chain: WeighingChain, samples: int = 40):
    """What the maker's bench records: the empty plinth, then the set's dice going on one at a time (0-14)."""
    return [chain.still_codes(k, samples) for k in range(15)]


def scale_design(name: str, noise_scale: float = 1.0, spread: float | None = None, lean: bool = False) -> ScaleDesign:
    """A weighing design with the stress options the issue asks for."""
    design = SCALE_DESIGNS[name]
    dice = design.dice if spread is None else DiceSet(design.dice.mean_g, spread, design.dice.d10_g)
    scenery = design.scenery if not lean else dataclasses.replace(design.scenery, lean_chance=0.5, lean_share=(0.05, 0.45))
    return dataclasses.replace(design, dice=dice, scenery=scenery, noise_scale=noise_scale)


def grade_weighing(events, truths, window):
    """Falls flagged and counted, timed in ms from the first die leaving the plinth."""
    out = grade([(i, [e for _, e in evs]) for i, evs in events], truths, window)
    real = [tr for tr in truths if tr.kind == "collapse"]
    flags = [(t, e) for _, evs in events for t, e in evs if e["type"] == "falling"]
    counts = [(t, e) for _, evs in events for t, e in evs if e["type"] == "collapse"]
    out["flag_ms"], out["count_ms"], out["false_flags"], out["unflagged"] = [], [], 0, 0
    used = set()
    for tr in real:
        flag = next((t for t, _ in flags if tr.leave_t - 0.05 <= t <= tr.leave_t + 1.0), None)
        if flag is None:
            out["unflagged"] += 1
        else:
            out["flag_ms"].append(1000.0 * (flag - tr.leave_t))
            used.add(flag)
        done = next((t for t, _ in counts if tr.leave_t <= t <= tr.leave_t + 1.0), None)
        if done is not None:
            out["count_ms"].append(1000.0 * (done - tr.leave_t))
    out["false_flags"] = sum(1 for t, _ in flags if t not in used)
    out["mismatch"] = sum(1 for _, evs in events for _, e in evs if e["type"] == "mismatch")
    return out


def run_weighing(throws: int, seed: int, window: int, design: ScaleDesign, max_height: int = 12):
    """The kit's design: the Heat weighed (hardware/weighing.py), the VL53L0X as watchman (the ideal
    sensor model), the piezo's knocks; graded like the others, plus latencies in ms."""
    geometry = GeometryConfig()
    line = Calibration(geometry.sensor_height_mm, geometry.die_size_mm)
    rng = random.Random(seed)
    keys = ("real", "false", "missed", "wrong_count", "false_flags", "unflagged", "mismatch")
    totals: dict = {k: 0 for k in keys}
    totals.update({"latency": [], "latency_start": [], "latency_rest": [], "flag_ms": [], "count_ms": [],
                   "added": [0, 0], "removed": [0, 0], "refused": 0})
    done = scenes = samples = 0
    while done < throws:
        start = rng.randint(2, max_height)
        sim = TableSimulator(geometry, seed=rng.randrange(2**31), start_dice=start, scale=design)
        assert sim.scale is not None
        readings = weigh_readings(sim.scale)
        try:
            calibration = calibrate_weighing(readings)
        except ValueError:  # the bench refuses the set; the benchmark still plays it, counted on its mean
            totals["refused"] += 1
            calibration = calibrate_weighing(readings, max_dice=1)
        tracker = WeightTracker(calibration, distance=line)
        events: list = []
        trace = [sim.tick() for _ in range(15)]
        done += scene(sim, rng, throws - done)
        trace += sim.run_until_idle(extra=window)
        for index, sample in enumerate(trace):
            evs = []
            if sample.piezo >= KNOCK_LEVEL:
                tracker.knock(sample.t)
            evs += [(sample.t, e) for e in tracker.see(sample.distance_mm, sample.t)]
            for tw, code in sample.weights:
                evs += [(tw, e) for e in tracker.feed(code, tw)]
            if evs:
                events.append((index, evs))
        samples += len(trace)
        scenes += 1
        g = grade_weighing(events, sim.truth, window)
        for key in keys:
            totals[key] += g[key]
        for key in ("latency", "latency_start", "latency_rest", "flag_ms", "count_ms"):
            totals[key] += g[key]
        for kind in ("added", "removed"):
            totals[kind][0] += g[kind][0]
            totals[kind][1] += g[kind][1]
    return totals, {"throws": done, "scenes": scenes, "samples": samples}


def ms(values, q):
    return f"{percentile(values, q):.0f}" if values else "n/a"


ROWS = [
    ("false collapses", lambda t: f"{t['false']}"),
    ("missed collapses", lambda t: f"{t['missed']}"),
    ("wrong fallen-count", lambda t: f"{t['wrong_count']}"),
    ("fallen-count exact", lambda t: f"{100.0 * (t['real'] - t['missed'] - t['wrong_count']) / max(1, t['real']):.2f} %"),
    ("latency median (samples)", lambda t: f"{percentile(t['latency'], 50)}"),
    ("latency p99 (samples)", lambda t: f"{percentile(t['latency'], 99)}"),
    ("latency max (samples)", lambda t: f"{max(t['latency']) if t['latency'] else 'n/a'}"),
    ("within 2 / 3 samples (%)", lambda t: f"{within(t['latency'], 2):.1f}/{within(t['latency'], 3):.1f}"),
    ("  from fall's 1st sample: median", lambda t: f"{percentile(t['latency_start'], 50)}"),
    ("  from fall's 1st sample: p99", lambda t: f"{percentile(t['latency_start'], 99)}"),
    ("  from new top: median", lambda t: f"{percentile(t['latency_rest'], 50)}"),
    ("  from new top: p99", lambda t: f"{percentile(t['latency_rest'], 99)}"),
    ("dice added: real / reported", lambda t: f"{t['added'][0]}/{t['added'][1]}"),
    ("dice removed: real / reported", lambda t: f"{t['removed'][0]}/{t['removed'][1]}"),
    ("fall flagged: median / p99 (ms)", lambda t: f"{ms(t['flag_ms'], 50)}/{ms(t['flag_ms'], 99)}" if "flag_ms" in t else "n/a"),
    ("count settled: median / p99 (ms)", lambda t: f"{ms(t['count_ms'], 50)}/{ms(t['count_ms'], 99)}" if "count_ms" in t else "n/a"),
    ("falls never flagged", lambda t: f"{t['unflagged']}" if "unflagged" in t else "n/a"),
    ("false 'falling' flags", lambda t: f"{t['false_flags']}" if "false_flags" in t else "n/a"),
    ("watchman alarms", lambda t: f"{t['mismatch']}" if "mismatch" in t else "n/a"),
    ("sets the bench refuses", lambda t: f"{t['refused']}" if "refused" in t else "n/a"),
]
SHORT = {"tracker": "tracker", "no piezo": "no piezo", "naive": "naive", "arm only": "arm only", "steady": "steady"}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--throws", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--window", type=int, default=30,
                        help="samples (1 s) a report may lag a fall and still count as that fall")
    parser.add_argument("--model", choices=("all", "both", "weighing", "ideal", "optical"), default="all",
                        help="all: the kit's design (the Heat weighed) first, then the ideal and optical VL53L0X "
                             "models; both: the two VL53L0X models; or one of them")
    parser.add_argument("--scale", choices=sorted(SCALE_DESIGNS), default="nau7802",
                        help="with the weighing model: the ADC, its rate and the cell's mount (hardware.weighing)")
    parser.add_argument("--mass-spread", type=float, default=None,
                        help="with the weighing model: the relative spread of one die's mass (default 0.01)")
    parser.add_argument("--lean", action="store_true",
                        help="with the weighing model: half the falls leave a die leaning on the plinth")
    parser.add_argument("--design", choices=sorted(DESIGNS), default=None,
                        help="with the optical model: the shroud and sensor settings (hardware.optics.DESIGNS); "
                             "default: low-limit (the design the bench judges) beside the weighing, else as-built")
    parser.add_argument("--noise-scale", type=float, default=1.0,
                        help="with the optical model: multiply its noise (0.5: a sensor twice as quiet as estimated)")
    args = parser.parse_args(argv)
    models = {"all": ("weighing", "ideal", "optical"), "both": ("ideal", "optical")}.get(args.model, (args.model,))
    if args.design is None:  # as-built cannot calibrate at all: beside the weighing, show one that can
        args.design = "low-limit" if args.model == "all" else "as-built"
    columns = []
    if "weighing" in models:
        design = scale_design(args.scale, args.noise_scale, args.mass_spread, args.lean)
        began = time.perf_counter()
        totals, info = run_weighing(args.throws, args.seed, args.window, design)
        stress = [f"noise x {args.noise_scale:g}"] if args.noise_scale != 1.0 else []
        stress += [f"mass spread {100 * design.dice.spread:g} %"] if args.mass_spread is not None else []
        stress += ["leaning dice"] if args.lean else []
        print(f"weighing {design.name}{' (' + ', '.join(stress) + ')' if stress else ''}: {info['throws']} throws "
              f"in {info['scenes']} scenes, {info['samples']} samples, seed {args.seed}, "
              f"{time.perf_counter() - began:.1f} s; real collapses: {totals['real']}")
        columns.append((f"weigh {args.scale}", totals))
    for model in models:
        if model == "weighing":
            continue
        began = time.perf_counter()
        label = model if model == "ideal" else f"optical {args.design}" + (
            f" (noise x {args.noise_scale:g})" if args.noise_scale != 1.0 else "")
        try:
            totals, info = run(args.throws, args.seed, args.window, model=model, design=args.design,
                               noise_scale=args.noise_scale)
        except ValueError as err:
            print(f"{label}: cannot calibrate, so nothing can be detected: {err}")
            continue
        elapsed = time.perf_counter() - began
        print(f"{label}: {info['throws']} throws in {info['scenes']} scenes, {info['samples']} samples "
              f"(33 ms each), starting heights 2-12, seed {args.seed}, {elapsed:.1f} s; "
              f"real collapses: {totals['tracker']['real']}")
        if model == "optical":
            print("  measured curve (mm over 0, 1, 2, ... dice): "
                  + " ".join(f"{p:.0f}" for p in info["calibration"].points))
        for band, row in sorted(info["by_height"].items()):
            exact = 100.0 * (row["real"] - row["missed"] - row["wrong_count"]) / max(1, row["real"])
            print(f"  tracker, scenes starting at {band[0]}-{band[1]} dice: {row['real']} collapses, "
                  f"{row['false']} false, {row['missed']} missed, {exact:.1f} % counted exactly")
        for curve in (info["curves"] or [])[1:]:  # the companions
            print("  companion's measured curve (mm over 0, 1, 2, ... dice): "
                  + " ".join(f"{p:.0f}" for p in curve.medians)
                  + "; spread " + " ".join(f"{p:.0f}" for p in curve.spreads))
        for name in totals:
            columns.append((f"{'opt' if model == 'optical' else 'ideal'} {SHORT[name]}", totals[name]))
    if not columns:
        return 1
    print(f"{'':34}" + "".join(f"{title:>17}" for title, _ in columns))
    for label, show in ROWS:
        print(f"{label:34}" + "".join(f"{show(t):>17}" for _, t in columns))
    if "weighing" in models:
        print("(weighing latencies in samples count from the fall's first 33 ms sample; in ms, from the first die "
              "leaving the plinth)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
