"""Taps on the shared screen for a whole game, through the real widgets (issue 30).

Plays a seeded game from Home to game over the way ``tests/kiosk/uiplay.py`` does:
every answer is a touch on a widget (``drive.press``), a secret is answered on a
pad or by passing the screen. It counts every touch, and how many of them were
"Carry on" on a reveal. A reveal that fades by itself (``Reveal.fades``: it asks
for no decision) is left to fade, as a table would leave it, and costs no touch.

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python benchmarks/game_taps.py [--game promise-hollows] [--seeds 1 2 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="promise-hollows")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    args = parser.parse_args()
    from testkit import drive
    from kiosk.ui import overlays
    from tests.kiosk import uiplay

    overlays.ANIMATION_SCALE["value"] = 0
    app = drive.start(tempfile.mkdtemp(prefix="tn-taps-"))
    counts = {"taps": 0, "carry_on": 0}
    press = drive.press

    def counted(tag_or_widget, *a, **kw):
        tag = tag_or_widget if isinstance(tag_or_widget, str) else getattr(tag_or_widget, "tag", "")
        counts["taps"] += 1
        counts["carry_on"] += tag == "reveal:close"
        return press(tag_or_widget, *a, **kw)

    def leave_or_close(app) -> None:
        for _ in range(5):
            reveal = next((o for o in reversed(app.overlays) if isinstance(o, overlays.Reveal)), None)
            if reveal is None:
                return
            if getattr(reveal, "fades", False):
                reveal.close()  # nobody taps: it fades by itself (FADE_S), and the next one owed opens
            else:
                drive.press("reveal:close")

    drive.press = counted
    uiplay.close_overlays = leave_or_close
    print(f"taps for a whole game of {args.game} through the real widgets")
    for seed in args.seeds:
        counts.update(taps=0, carry_on=0)
        app.go_home()
        drive.pump(2)
        actions = uiplay.play_game(app, args.game, seed)
        print(f"  seed {seed}: {counts['taps']:4d} taps ({counts['carry_on']} of them Carry on) for {actions} actions")
    drive.stop(app)
    return 0


if __name__ == "__main__":
    sys.exit(main())
