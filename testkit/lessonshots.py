"""Photograph every step of every lesson, and attract mode, at a kiosk size (under a real or virtual X screen).

    KIVY_NO_ARGS=1 xvfb-run -a -s "-screen 0 1280x800x24" python -m testkit.lessonshots OUT_DIR [--size 800x480]

Each lesson is started from Home's Learn button; the bot answers what each step asks
(through the lesson's runner, so only that step's input is accepted) and the coach's
Next is pressed on reading steps. One PNG per step: ``<size>-lesson-<game>-<n>.png``.
Look at every one before calling a lesson done: is the coach line readable, does the
outline sit on the right button, is anything cramped?
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

from testkit import drive


def shoot_lesson(app, game: str, out: Path, prefix: str, seed: int = 3) -> list[Path]:
    from kiosk.rules import RuleError, bot

    rng = random.Random(seed)
    app.go_home()
    drive.pump(3)
    drive.press(f"home:learn:{game}")
    runner, shots = app.runner, []
    for number in range(1, len(runner.lesson.steps) + 2):
        for overlay in list(app.overlays):
            overlay.dismiss()
        drive.pump(3)
        time.sleep(0.15)  # the coach's outline follows its button a few times a second
        drive.pump(2)
        shots.append(Path(drive.screenshot(str(out / f"{prefix}lesson-{game}-{number}.png"))))
        if runner.finished:
            break
        if runner.step.done.action is None:
            drive.press("coach:next")
            continue
        before = runner.index
        for _ in range(200):
            if runner.index != before:
                break
            try:
                runner.propose(bot.fill(rng.choice(runner.awaiting()), rng))
            except RuleError:
                continue
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Screenshot every lesson step and attract mode.")
    parser.add_argument("out", nargs="?", default="screenshots")
    parser.add_argument("--size", default="800x480", choices=["800x480", "1280x720"])
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    width, height = (int(n) for n in args.size.split("x"))
    app = drive.start(tempfile.mkdtemp(prefix="tn-lessons-"), size=(width, height))
    prefix = f"{args.size}-"
    shots = [Path(drive.screenshot(str(out / f"{prefix}home-learn.png")))]
    for game in ("even-odd", "clincher", "hell-for-leather", "promise-hollows"):
        shots += shoot_lesson(app, game, out, prefix)
    app.go_home()
    app.start_attract()
    drive.pump(5)  # the screen is entered (its first recording starts) before it is moved on
    for _ in range(12):
        app.attract.tick()
    drive.pump(3)
    shots.append(Path(drive.screenshot(str(out / f"{prefix}attract-replay.png"))))
    app.end_attract()
    print("\n".join(str(p) for p in shots))
    return 0


if __name__ == "__main__":
    sys.exit(main())
