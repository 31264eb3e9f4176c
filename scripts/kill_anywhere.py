#!/usr/bin/env python3
"""Kill anywhere, the long run: random-moment SIGKILLs over chained resumes and undos, in all four games.

    .venv/bin/python scripts/kill_anywhere.py [--minutes 20] [--steps 30] [--window 0.3] [--seed 1] [--games ...]

Each game gets its own store in a temporary folder. A child process resumes
(or starts) a game there and plays bot moves with undos mixed in; it is
SIGKILLed at a random moment and the store is checked (``PRAGMA
integrity_check``, numbered actions, the stored log against what was shown,
the resumed state and every player's view against a fresh replay of the log),
then the next child resumes. The games take turns until the time is up. The
figures printed at the end (games, kills, resumes, undos, failures) go in
docs/kiosk.md. The exit status is 1 if anything failed.

The same rounds run a few times per game in CI: tests/kiosk/test_kill_anywhere.py.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.kiosk.kill_anywhere import Tally, play_with_kills  # noqa: E402

GAMES = ["hell-for-leather", "promise-hollows", "even-odd", "clincher"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=20.0, help="how long to run (default 20)")
    parser.add_argument("--window", type=float, default=0.3,
                        help="a kill lands up to this many seconds after the child is ready (default 0.3)")
    parser.add_argument("--steps", type=int, default=30,
                        help="a kill comes after up to this many changes shown, then the window (default 30)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", nargs="+", default=GAMES, choices=GAMES)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    stop_at = time.monotonic() + args.minutes * 60
    tallies = {game: Tally() for game in args.games}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="kill-anywhere-") as folder:
        while time.monotonic() < stop_at:
            for game in args.games:
                tally = tallies[game]
                # One child run at a time, taking turns, so every game gets its share of the time.
                # A game in play is resumed by the next run; a finished one is followed by a new seed.
                failed = len(tally.failures)
                db = Path(folder) / f"{game}.sqlite3"
                play_with_kills(db, game, args.seed * 100_000 + tally.games, rng,
                                tally, window_s=args.window, steps=args.steps, max_rounds=1, games_to_finish=1)
                if len(tally.failures) > failed:  # keep the evidence and go on with a fresh store
                    kept = Path(tempfile.mkdtemp(prefix=f"kill-anywhere-{game}-"))
                    for part in db.parent.glob(db.name + "*"):
                        part.rename(kept / part.name)
                    tally.failures[-1] += f" (store kept in {kept})"
                    tally.known = []
    minutes = (time.monotonic() - started) / 60
    print(f"kill anywhere: {minutes:.1f} min, up to {args.steps} changes then up to {args.window} s, seed {args.seed}")
    print(f"{'game':<18}{'games':>7}{'kills':>7}{'resumes':>9}{'undos':>7}{'actions':>9}{'in flight':>11}"
          f"{'failures':>10}")
    total = Tally()
    for game, t in tallies.items():
        print(f"{game:<18}{t.games:>7}{t.kills:>7}{t.resumes:>9}{t.undos:>7}{t.actions:>9}{t.in_flight:>11}"
              f"{len(t.failures):>10}")
        for name in ("games", "kills", "resumes", "undos", "actions", "in_flight"):
            setattr(total, name, getattr(total, name) + getattr(t, name))
        total.failures += t.failures
    print(f"{'all':<18}{total.games:>7}{total.kills:>7}{total.resumes:>9}{total.undos:>7}{total.actions:>9}"
          f"{total.in_flight:>11}{len(total.failures):>10}")
    for failure in total.failures:
        print("FAILED:", failure)
    return 1 if total.failures else 0


if __name__ == "__main__":
    sys.exit(main())
