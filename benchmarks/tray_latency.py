"""How long a collapse takes to reach the Pi over the serial link, next to the sensor's sample period.

Runs the virtual tray (hardware/virtual_tray.py: the simulated table, the
tray firmware's own logic, a real pseudo-terminal) and a SerialTray reading
it, in real time, and knocks the Heat over ``--collapses`` times. For each
fall it measures, on the one monotonic clock both ends share:

* end to end: from the moment the sample that first shows the fall was taken
  to the moment SerialTray emits the Collapse event;
* detection: how many samples the Heat tracker needed (2 is its design: one
  reading cannot tell a fall from a spike), and that in milliseconds;
* link: from the firmware writing the collapse line to the pty, to the event.

The sample period is the VL53L0X timing budget: the physical floor is one
period per sample the detector has to see. Between falls the stack is rebuilt
with the virtual tray running flat out (those parts are not timed).

``--protocol 1`` or ``2`` picks the protocol version both ends may speak
(default 2, with its CRC on every line). ``--compare N`` runs N rounds of
version 1 then version 2 in the same process, and prints each version's
link time over the rounds (median of the per-round medians, min..max) and
the ratio v2 / v1: the CRC must not make the link measurably slower.
``--framing`` times just the work per line on each side (encode + decode on
the Pi, with the CRC in C; the plain-Python CRC the tray runs) for both
versions, also over several rounds with the ratio.

Usage: .venv/bin/python benchmarks/tray_latency.py [--collapses 100] [--budget 33] [--seed 1]
                                                   [--protocol 2] [--compare 3] [--framing]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware.tray import protocol  # noqa: E402
from hardware.backends.serial import SerialTray  # noqa: E402
from hardware.config import Config, TrayConfig  # noqa: E402
from hardware.events import Collapse, HeatHeight, LinkUp  # noqa: E402
from hardware.virtual_tray import VirtualTray  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * p / 100
    low, high = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


class Watch:
    """Collects the events SerialTray emits, so the benchmark can wait for them."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.collapses: list[Collapse] = []
        self.heat: int | None = None
        self.up = False

    def __call__(self, event) -> None:
        with self.cond:
            if isinstance(event, Collapse):
                self.collapses.append(event)
            elif isinstance(event, HeatHeight):
                self.heat = event.dice
            elif isinstance(event, LinkUp):
                self.up = True
            self.cond.notify_all()

    def wait(self, test, timeout: float) -> bool:
        end = time.monotonic() + timeout
        with self.cond:
            while not test():
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(left)
            return True


def rebuild(vt: VirtualTray, watch: Watch, dice: int) -> None:
    """Stack the Heat back up to ``dice``, untimed, with the tray running flat out."""
    vt.pace = 0.0
    while vt.sim.planned_dice < dice:
        vt.add_die()
    while not vt.idle():
        time.sleep(0.005)
    if not watch.wait(lambda: watch.heat == dice, 10.0):
        raise SystemExit(f"the stack did not come back to {dice} dice (the Pi sees {watch.heat})")
    vt.pace = 1.0


def run(args: argparse.Namespace, version: int, quiet: bool = False) -> dict:
    """Knock the Heat over ``args.collapses`` times with both ends speaking up to ``version``."""
    config = Config(tray=TrayConfig(timing_budget_ms=args.budget))
    period_ms = args.budget
    rng = random.Random(args.seed)
    vt = VirtualTray(config, seed=args.seed, link=None, start_dice=8, max_version=version).start()
    watch = Watch()
    port = SerialTray(config.tray, port=vt.device, max_version=version)
    port.subscribe(watch)
    end_to_end: list[float] = []
    link: list[float] = []
    detection_samples: list[int] = []
    missed = wrong = 0
    started = time.monotonic()
    try:
        if not watch.wait(lambda: watch.up, 5.0):
            raise SystemExit("the SerialTray never connected to the virtual tray")
        rebuild(vt, watch, 8)
        for _ in range(args.collapses):
            if vt.sim.planned_dice < 3:
                rebuild(vt, watch, rng.randint(6, 12))
            seen = len(watch.collapses)
            shown_before = len(vt.shown)
            written_before = len(vt.written)
            vt.topple(rng.randint(1, min(4, vt.sim.planned_dice - 1)))
            got = watch.wait(lambda: len(watch.collapses) > seen, 3.0)
            while not vt.idle():
                time.sleep(0.005)
            truth = next((r, t) for r, t in vt.shown[shown_before:] if r.kind == "collapse")
            if not got:
                missed += 1
                continue
            event = watch.collapses[seen]
            record, shown_at = truth
            if (event.fell, event.standing) != (record.fell, record.standing):
                wrong += 1
            end_to_end.append((event.t - shown_at) * 1000)
            line = next((m, t) for m, t in vt.written[written_before:] if m["type"] == "collapse")
            link.append((event.t - line[1]) * 1000)
            detection_samples.append(round((line[0]["t"] - record.t * 1000) / period_ms) + 1)
            watch.wait(lambda: watch.heat == record.standing, 2.0)
        link_downs = port.link_downs  # before close(), which ends the link on purpose
    finally:
        port.close()
        vt.close()

    n = len(end_to_end)
    if not quiet:
        print(f"tray latency over a pseudo-terminal: {n} collapses in {time.monotonic() - started:.0f} s, "
              f"seed {args.seed}, protocol v{port.version}")
        print(f"  sensor sample period (timing budget): {period_ms} ms")
        print(f"  detected {n} of {n + missed}; wrong fallen-count {wrong}; missed {missed}")
    if n and not quiet:
        detect_ms = [(s - 1) * period_ms for s in detection_samples]
        print("  end to end, sample that shows the fall -> Collapse event on the Pi:")
        print(f"      median {statistics.median(end_to_end):6.1f} ms   p99 {percentile(end_to_end, 99):6.1f} ms"
              f"   max {max(end_to_end):6.1f} ms")
        print("  of which detection, samples the tracker needed (1 = the floor):")
        print(f"      median {statistics.median(detection_samples):6.1f}      p99 {percentile(detection_samples, 99):6.1f}"
              f"      ({statistics.median(detect_ms):.0f} ms / {percentile(detect_ms, 99):.0f} ms of waiting for samples)")
        print("  of which the serial link, line written -> event emitted:")
        print(f"      median {statistics.median(link):6.2f} ms   p99 {percentile(link, 99):6.2f} ms")
        print(f"  SerialTray: {port.rejected} lines rejected, {port.gaps} sequence gaps")
    return {
        "version": port.version,
        "missed": missed,
        "wrong": wrong,
        "rejected": port.rejected,
        "gaps": port.gaps,
        "link_downs": link_downs,
        "link_median": statistics.median(link) if link else float("nan"),
        "link_p99": percentile(link, 99),
        "end_median": statistics.median(end_to_end) if end_to_end else float("nan"),
    }


def _spread(values: list[float], unit: str, digits: int = 2) -> str:
    return (f"{statistics.median(values):.{digits}f} {unit} (min {min(values):.{digits}f}, "
            f"max {max(values):.{digits}f}, {len(values)} rounds)")


def compare(args: argparse.Namespace) -> int:
    """Version 1 and version 2 in alternate rounds of one process, so both meet the same machine load."""
    results: dict[int, list[dict]] = {1: [], 2: []}
    for round_no in range(args.compare):
        for version in (1, 2):
            result = run(args, version, quiet=True)
            results[version].append(result)
            print(f"  round {round_no + 1} v{result['version']}: link median {result['link_median']:.3f} ms, "
                  f"p99 {result['link_p99']:.2f} ms, end to end median {result['end_median']:.1f} ms, "
                  f"missed {result['missed']}, wrong {result['wrong']}, rejected {result['rejected']}, "
                  f"gaps {result['gaps']}, link downs {result['link_downs']}", flush=True)
    print(f"protocol v1 against v2 over a pseudo-terminal, {args.collapses} collapses a round, seed {args.seed}:")
    for version in (1, 2):
        rounds = results[version]
        print(f"  v{version} link median {_spread([r['link_median'] for r in rounds], 'ms', 3)}")
        print(f"     link p99    {_spread([r['link_p99'] for r in rounds], 'ms')}")
        print(f"     end to end  {_spread([r['end_median'] for r in rounds], 'ms', 1)}")
    ratios = [b["link_median"] / a["link_median"] for a, b in zip(results[1], results[2])]
    print("  ratio v2 / v1 of the link median, round by round: "
          + ", ".join(f"{r:.2f}" for r in ratios) + f"  (median {statistics.median(ratios):.2f})")
    bad = sum(r["missed"] + r["wrong"] + r["rejected"] for rounds in results.values() for r in rounds)
    return 0 if bad == 0 else 1


def framing(rounds: int = 5, lines: int = 20000) -> int:
    """The work per line on each side, v1 against v2, in one process."""
    seq = protocol.Sequencer()
    messages = []
    for i in range(lines):
        kind = ("height", "collapse", "heartbeat", "sample")[i % 4]
        fields = {"height": {"dice": 5}, "collapse": {"fell": 3, "standing": 2},
                  "heartbeat": {"up_s": i, "sensor": "ok", "rejected": 0, "dropped": 0},
                  "sample": {"mm": 287}}[kind]
        messages.append(seq.message(kind, 1000 + i, fields))

    def per_line(version: int) -> float:
        start = time.perf_counter()
        for message in messages:
            message["v"] = version
            protocol.decode_message(protocol.encode(message)[:-1])
        return (time.perf_counter() - start) / lines * 1e6

    body = protocol.encode(dict(messages[1], v=1))[:-1]

    def crc_python() -> float:
        start = time.perf_counter()
        for _ in range(lines):
            protocol.crc16_py(body)
        return (time.perf_counter() - start) / lines * 1e6

    v1, v2, crc = [], [], []
    for _ in range(rounds):
        v1.append(per_line(1))
        v2.append(per_line(2))
        crc.append(crc_python())
    print(f"framing work per line ({lines} lines a round, {rounds} rounds, alternating):")
    print(f"  Pi, encode + decode, v1:  {_spread(v1, 'us')}")
    print(f"  Pi, encode + decode, v2:  {_spread(v2, 'us')}")
    ratios = [b / a for a, b in zip(v1, v2)]
    print(f"  ratio v2 / v1: median {statistics.median(ratios):.2f} (min {min(ratios):.2f}, max {max(ratios):.2f})")
    print(f"  the tray's plain-Python CRC of a {len(body)}-byte line, here in CPython: {_spread(crc, 'us')}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collapses", type=int, default=100)
    parser.add_argument("--budget", type=int, default=33, help="VL53L0X timing budget in ms (20-33)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--protocol", type=int, choices=(1, 2), default=2, help="newest protocol version both ends speak")
    parser.add_argument("--compare", type=int, metavar="ROUNDS", help="alternate v1 and v2 for this many rounds")
    parser.add_argument("--framing", action="store_true", help="time the per-line work of v1 and v2 instead")
    args = parser.parse_args(argv)
    if args.framing:
        return framing()
    if args.compare:
        return compare(args)
    result = run(args, args.protocol)
    return 0 if result["missed"] == 0 and result["wrong"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
