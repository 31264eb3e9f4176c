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

Usage: .venv/bin/python benchmarks/detection_bench.py [--throws 10000] [--seed 1] [--model both|ideal|optical]
       [--design as-built|low-limit|wide-mouth|post] [--noise-scale 1.0]
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

from firmware.tray.heat import (  # noqa: E402
    KNOCK_LEVEL, MAX_VALID_MM, MIN_VALID_MM, Calibration, FusedTracker, HeatTracker, SteadyTracker, calibrate_curve,
    sensor_curve,
)
from hardware.config import GeometryConfig  # noqa: E402
from hardware.optics import DESIGNS, OpticalSensor  # noqa: E402
from hardware.sim import TableSimulator  # noqa: E402

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


def percentile(values, q):
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


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
]
SHORT = {"tracker": "tracker", "no piezo": "no piezo", "naive": "naive", "arm only": "arm only", "steady": "steady"}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--throws", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--window", type=int, default=30,
                        help="samples (1 s) a report may lag a fall and still count as that fall")
    parser.add_argument("--model", choices=("both", "ideal", "optical"), default="both",
                        help="the sensor model: the ideal nearest-surface spot, the optical model, or both side by side")
    parser.add_argument("--design", choices=sorted(DESIGNS), default="as-built",
                        help="with the optical model: the shroud and sensor settings (hardware.optics.DESIGNS)")
    parser.add_argument("--noise-scale", type=float, default=1.0,
                        help="with the optical model: multiply its noise (0.5: a sensor twice as quiet as estimated)")
    args = parser.parse_args(argv)
    models = ("ideal", "optical") if args.model == "both" else (args.model,)
    columns = []
    for model in models:
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
