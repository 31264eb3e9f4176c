#!/usr/bin/env python3
"""Long run of "undo never unseals a secret": random games of all four games with random
undo taps (no PIN), checking that no closed secret round is ever reopened.

    .venv/bin/python scripts/undo_fuzz.py [--games N] [--seed S]

CI runs a bounded sample (tests/kiosk/test_undo_seal.py); any failure stops this run with
its game and seed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games per game")
    parser.add_argument("--seed", type=int, default=50_000)
    args = parser.parse_args()

    from tests.kiosk.test_undo_seal import GAMES, play_with_undo_taps

    start = time.monotonic()
    games = taps = refused = 0
    for game in GAMES:
        for i in range(args.games):
            tried, held = play_with_undo_taps(game, args.seed + i, tap_chance=0.05 + 0.25 * (i % 2))
            games, taps, refused = games + 1, taps + tried, refused + held
        print(f"{game}: done ({time.monotonic() - start:.0f} s)", flush=True)
    print(f"games: {games}, undo taps: {taps}, refused as sealed: {refused}, rounds reopened without the PIN: 0, "
          "failures: 0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
