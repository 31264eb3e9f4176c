"""What the fleet costs the kiosk's UI thread: one reading of the table, a status built from
the public view, and handing either to the publisher (which only queues).

For each engine, a game is played part way by the random bot, then on a stand wired to a
publisher that is never started (no broker: nothing but the queue is measured):

* ``tick``: the once-a-second reading when no status is due (attribute reads, comparison);
* ``tick+status``: the same with the status built (``session.view(None)``: the phase) and queued,
  which happens every ``status_every_s`` seconds and after an event.

Prints the median and the 95th percentile in microseconds, over ``--runs`` runs of
``--n`` ticks each, with the spread between runs. Baseline in the same run: one
``session.view(None)`` alone (what the shared screen pays for the same facts).

``python -m benchmarks.fleet_tick``
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

from hardware.config import FleetConfig
from kiosk import games
from kiosk.controller import TrayState
from kiosk.fleet.publisher import StandPublisher
from kiosk.fleet.stand import StandReporter
from kiosk.rules import RuleError, bot
from kiosk.runner import Runner
from kiosk.store import Store

GAMES = ("even-odd", "promise-hollows", "hell-for-leather", "clincher")


def mid_game(store: Store, game: str, actions: int = 60):
    rng = random.Random(7)
    setup = {"seed": 7, **({"players": ["Ann", "Bo", "Cy", "Di"]} if game == "even-odd" else {})}
    runner = Runner.new(store, games.engine_for(game), setup)
    for _ in range(actions * 5):
        if len(runner.session.log) >= actions or runner.outcome is not None:
            break
        prompts = runner.awaiting()
        try:
            runner.propose(bot.fill(rng.choice([p for p in prompts if not p.optional] or prompts), rng))
        except RuleError:
            pass
    return runner


def percentiles(samples: list[float]) -> tuple[float, float]:
    samples = sorted(samples)
    return statistics.median(samples) * 1e6, samples[int(len(samples) * 0.95)] * 1e6


def measure(fn, n: int) -> tuple[float, float]:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return percentiles(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "s.sqlite3", engines=games.engine_for)
        publisher = StandPublisher(FleetConfig(broker="127.0.0.1"), Path(tmp) / "o.sqlite3")  # never started
        print(f"{'game':<18}{'what':<14}{'median us (runs)':<34}{'p95 us (runs)'}")
        for game in GAMES:
            runner = mid_game(store, game)
            app = SimpleNamespace(sm=SimpleNamespace(current="play"), runner=runner, hardware_problems=[],
                                  phones_problem=None, controller=SimpleNamespace(tray_state=TrayState(link="sim")))
            quiet, busy = StandReporter(app, publisher, every_s=3600), StandReporter(app, publisher, every_s=0)
            quiet.tick()
            busy.tick()
            for what, fn in (("view alone", lambda: runner.session.view(None, awaiting=False)),
                             ("tick", quiet.tick), ("tick+status", busy.tick)):
                runs = [measure(fn, args.n) for _ in range(args.runs)]
                meds, p95s = [r[0] for r in runs], [r[1] for r in runs]
                print(f"{game:<18}{what:<14}{' / '.join(f'{m:.0f}' for m in meds):<34}"
                      f"{' / '.join(f'{p:.0f}' for p in p95s)}")
        store.close()


if __name__ == "__main__":
    main()
