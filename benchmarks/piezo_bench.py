"""How often the tray misses a landing on its piezo discs, by how it reads them.

A die landing on the tray floor makes the discs ring: a swing of amplitude A
that decays with a time constant of a few milliseconds (every number below
is an estimate, listed in docs/sensing.md, "The piezo"). The firmware's main
loop reads the discs at a few moments of each pass; a pass takes several
milliseconds (an I2C read of the VL53L0X, a JSON line over USB, the Heat
tracker). A landing counts as felt when some reading reaches the impact
threshold (``firmware.tray.impact.ImpactDetector``, 0.25 of full scale).

Three ways of reading, on the same landings:

* ``once``: one reading of every disc per pass (the firmware before this change);
* ``bursts``: ``firmware.tray.piezo``: 8 readings back to back at three points
  of each pass, the peak held until the loop hands it on (the firmware now);
* ``analog hold``: a diode and a 100 nF capacitor in front of the pin with the
  1 MOhm bleed: the pin holds the peak (time constant 100 ms), one reading per
  pass (a change to the tray's wiring, for the kit).

Usage: .venv/bin/python benchmarks/piezo_bench.py [--landings 20000] [--seed 1] [--runs 5]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware.tray.impact import ImpactDetector  # noqa: E402
from firmware.tray.piezo import PeakHold, burst  # noqa: E402

THRESHOLD = ImpactDetector().threshold
PASS_MS = (4.0, 12.0)        # estimate: one pass of the main loop
READ_MS = 0.075              # estimate: one reading of three discs (25 us per AnalogIn read)
RING_TAU_MS = (2.0, 10.0)    # estimate: how fast a PLA floor's ringing dies away
RING_HZ = (1000.0, 5000.0)   # estimate: the floor's ringing frequency
HOLD_TAU_MS = 100.0          # 100 nF x 1 MOhm
NOISE = 0.01                 # the resting level (hardware/sim.py: about 0.01)
SOFT = (0.25, 0.6)           # a soft landing's true peak; a thrown d10 in the simulator is 0.3-1.0
HARD = (0.3, 1.0)


def ringing(a, tau, hz, dt_ms):
    """The level a disc shows ``dt_ms`` after a landing of amplitude ``a``."""
    if dt_ms < 0:
        return 0.0
    return a * math.exp(-dt_ms / tau) * abs(math.sin(2 * math.pi * hz * dt_ms / 1000.0))


def envelope(a, tau, dt_ms):
    return 0.0 if dt_ms < 0 else a * math.exp(-dt_ms / tau)


def felt(way: str, a: float, rng: random.Random) -> bool:
    """Does the loop see a reading at or over the threshold within 300 ms of one landing?"""
    tau, hz = rng.uniform(*RING_TAU_MS), rng.uniform(*RING_HZ)
    t = -rng.uniform(0, PASS_MS[1])  # the landing comes at 0, somewhere in a pass
    while t < 300.0:
        length = rng.uniform(*PASS_MS)
        if way == "once":
            moments = [t + rng.uniform(0.3, 2.0)]  # after the serial read, as before
        elif way == "bursts":
            moments = []
            for start in (t, t + rng.uniform(0.3, 2.0), t + length - 8 * READ_MS):
                moments += [start + i * READ_MS for i in range(8)]
        else:
            moments = [t + rng.uniform(0.3, 2.0)]
        if way == "analog hold":
            for m in moments:
                # The capacitor charged to the envelope's peak (reached at once), drooping since.
                level = 0.0 if m < 0 else a * math.exp(-m / HOLD_TAU_MS)
                if level + abs(rng.gauss(0, NOISE)) >= THRESHOLD:
                    return True
        else:
            hold = PeakHold()
            levels = iter([ringing(a, tau, hz, m) + abs(rng.gauss(0, NOISE)) for m in moments])
            burst(lambda: next(levels), hold, len(moments))
            if hold.take() >= THRESHOLD:
                return True
        t += length
    return False


def miss_rates(landings: int, seed: int, span) -> dict[str, float]:
    rng = random.Random(seed)
    out = {}
    for way in ("once", "bursts", "analog hold"):
        misses = sum(not felt(way, rng.uniform(*span), rng) for _ in range(landings))
        out[way] = 100.0 * misses / landings
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--landings", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=5, help="runs with different seeds, for the spread")
    args = parser.parse_args(argv)
    print(f"{args.landings} landings per run, {args.runs} runs; threshold {THRESHOLD}; pass {PASS_MS} ms; "
          f"ringing tau {RING_TAU_MS} ms at {RING_HZ} Hz (estimates)")
    for label, span in (("soft landings (peak 0.25-0.6)", SOFT), ("thrown d10s (peak 0.3-1.0)", HARD)):
        runs = [miss_rates(args.landings, args.seed + i, span) for i in range(args.runs)]
        print(label)
        base = statistics.mean(r["once"] for r in runs)
        for way in ("once", "bursts", "analog hold"):
            values = [r[way] for r in runs]
            ratio = statistics.mean(values) / base if base else float("nan")
            print(f"  {way:12} missed {statistics.mean(values):6.2f} % (runs {min(values):.2f}-{max(values):.2f}), "
                  f"{ratio:.3f} x reading once per pass")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
