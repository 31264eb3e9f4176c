"""Memory over a long, accelerated kiosk session: bots play game after game through the screen.

The kiosk window runs without frame pacing; every action goes through the
Runner (rules, store with its fsync, screen refresh and panel) exactly as a
press would, and the game is shown on the play screen throughout. Games of
all four kinds follow each other back to back. It prints the resident set
size after a warm-up and at the end, the growth in percent and per action, the
most reveals that were ever on screen at once, and whether it levels off: the
growth over the second half of the run next to the first.

Overlays are left as a table leaves them (issue 33): pads and phones answer
round after round and nobody taps the screen, so a reveal stays up until the
next game (``--tap-reveals`` closes every overlay before each action instead, as
this benchmark did before, which hid reveals piling up).

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python benchmarks/kiosk_memory.py [--minutes 3]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")


def rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        pages = int(handle.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=3.0, help="how long to play (wall clock)")
    parser.add_argument("--warmup-games", type=int, default=8)
    parser.add_argument("--tap-reveals", action="store_true", help="close every overlay before each action")
    args = parser.parse_args()
    from kiosk.rules import RuleError, bot
    from kiosk.ui import overlays
    from testkit import drive

    overlays.ANIMATION_SCALE["value"] = 0
    app = drive.start(tempfile.mkdtemp(prefix="tn-mem-"))
    rng = random.Random(3)
    games = [g for g in app.engines if g != "toy"]
    played = actions = most_reveals = 0

    def reveals_on_screen() -> int:
        from kivy.core.window import Window

        return sum(isinstance(w, overlays.Reveal) for w in Window.children)

    def play_one() -> None:
        nonlocal played, actions, most_reveals
        game = games[played % len(games)]
        app.go_home()
        app.start_game(game, {"seed": rng.randrange(10**6)})
        for _ in range(20_000):
            if app.runner.outcome is not None:
                break
            if args.tap_reveals:
                for o in list(app.overlays):
                    o.dismiss()
            prompts = app.runner.awaiting()
            pool = [p for p in prompts if not p.optional] or prompts
            if game == "clincher" and len(app.runner.session.log) < 60:
                pool = [p for p in pool if p.action != "end_session"] or pool
            try:
                app.runner.propose(bot.fill(rng.choice(pool), rng))
                actions += 1
            except RuleError:
                pass
            drive.pump(1, draw=actions % 10 == 0)
            if actions % 50 == 0:
                most_reveals = max(most_reveals, reveals_on_screen())
        played += 1

    for _ in range(args.warmup_games):
        play_one()
    gc.collect()
    start_rss, start = rss_mb(), time.monotonic()
    start_games, start_actions = played, actions
    samples = [start_rss]
    while time.monotonic() - start < args.minutes * 60:
        play_one()
        if played % 8 == 0:
            gc.collect()
            samples.append(rss_mb())
    gc.collect()
    end_rss = rss_mb()
    print(f"kiosk memory over {args.minutes:g} min of back-to-back bot games "
          f"({played - start_games} games, {actions - start_actions} actions after {args.warmup_games} warm-up games, "
          f"{'every overlay closed before each action' if args.tap_reveals else 'reveals left up, nobody tapping'})")
    print(f"  RSS after warm-up {start_rss:7.1f} MB")
    print(f"  RSS at the end    {end_rss:7.1f} MB   growth {100 * (end_rss - start_rss) / start_rss:+.1f}%")
    print(f"  per action        {1024 * (end_rss - start_rss) / max(1, actions - start_actions):+7.1f} KB")
    print(f"  reveals on screen at once, at most: {most_reveals}")
    print(f"  RSS samples (MB)  {', '.join(f'{s:.0f}' for s in samples)}  (every 8 games)")
    if len(samples) >= 3:
        middle = samples[len(samples) // 2]
        print(f"  growth in the first half {middle - samples[0]:+.1f} MB, in the second half {samples[-1] - middle:+.1f} MB "
              "(a plateau shows as a second half near zero)")
    print(f"  sessions stored   {len(app.store.sessions())}")
    drive.stop(app)
    return 0


if __name__ == "__main__":
    sys.exit(main())
