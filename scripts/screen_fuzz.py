#!/usr/bin/env python3
"""Long runs of the kiosk's "every state renders" and "no touch crashes it" checks.

    xvfb-run -a .venv/bin/python scripts/screen_fuzz.py [--games N] [--touches N] [--seed S]

For each of the four games: N random complete games drawn through the real widgets
at every step (the public screen, and each player's private sheet every few steps),
then N monkey runs of random touches. Any exception stops the run with its
traceback; at the end it prints the counts (failures are 0 if it gets there).
CI runs a bounded sample of the same checks (tests/kiosk/test_every_state.py).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=25, help="random games per game, drawn at every step")
    parser.add_argument("--monkeys", type=int, default=5, help="monkey runs per game")
    parser.add_argument("--touches", type=int, default=1000, help="touches per monkey run")
    parser.add_argument("--sheets-every", type=int, default=3, help="draw every private sheet every N steps")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()

    from kiosk import games
    from kiosk.store import Store
    from kiosk.ui import overlays
    from testkit import drive
    from tests.kiosk.uiplay import GAMES, back_home, monkey, render_every_state

    overlays.ANIMATION_SCALE["value"] = 0
    drive.DRAW["value"] = False
    app = drive.start(tempfile.mkdtemp(prefix="screen-fuzz-"))
    totals = {"games": 0, "states": 0, "sheets": 0, "monkey runs": 0, "touches": 0, "on buttons": 0}
    start = time.monotonic()
    for game in GAMES:
        for i in range(args.games):
            states, sheets = render_every_state(app, game, args.seed + i, sheets_every=args.sheets_every)
            totals["games"] += 1
            totals["states"] += states
            totals["sheets"] += sheets
            app.go_home()
        for i in range(args.monkeys):
            totals["on buttons"] += monkey(app, game, args.seed + i, args.touches)
            totals["monkey runs"] += 1
            totals["touches"] += args.touches
            if app.runner is not None:
                app.runner.settle()
                on_disk = Store(app.store.path, engines=games.engine_for).load(app.runner.sid)
                assert on_disk.state == app.runner.session.state, f"{game} monkey {i}: the log does not replay"
            back_home(app)
        print(f"{game}: done ({time.monotonic() - start:.0f} s)", flush=True)
    print(", ".join(f"{k}: {v}" for k, v in totals.items()) + ", failures: 0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
