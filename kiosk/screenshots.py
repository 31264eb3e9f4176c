"""Take a screenshot of every main screen of every game (run under a real or virtual X screen).

    scripts/screenshots.sh [OUT_DIR] [800x480|1280x720]

For each game it opens the setup wizard and the rules sheet, starts a game,
then lets the random bot play (through the same ``Runner`` the screen uses)
and stops to photograph the opening, a secret round half locked, the
pass-the-screen flow, a simultaneous reveal, the middle of the game with the
sim panel open, and the end. Plus the home screen, the PIN pad, the operator
menu, its settings with the new-PIN pad, and attract mode.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

from kiosk import drive


def _step(app, rng) -> bool:
    """One random legal move through the runner; False once the game is over."""
    from kiosk.rules import RuleError, bot

    runner = app.runner
    for _ in range(200):
        prompts = runner.awaiting()
        if not prompts:
            return False
        required = [p for p in prompts if not p.optional] or prompts
        if len(runner.session.log) < 60:  # keep a clincher session going long enough to photograph
            required = [p for p in required if p.action != "end_session"] or required
        try:
            runner.propose(bot.fill(rng.choice(required), rng))
            return True
        except RuleError:
            continue
    return False


def _close(app) -> None:
    for overlay in list(app.overlays):
        overlay.dismiss()
    drive.pump(2)


def shoot_game(app, game: str, out: Path, prefix: str, seed: int = 7) -> list[Path]:
    from kiosk.ui.overlays import Reveal

    shots: list[Path] = []

    def snap(name: str) -> None:
        path = out / f"{prefix}{game}-{name}.png"
        drive.screenshot(str(path))
        shots.append(path)

    app.go_home()
    drive.pump(2)
    app.open_rules(game)
    snap("rules")
    app.open_setup(game)
    snap("setup")
    drive.press("setup:start")
    snap("1-start")
    rng = random.Random(seed)
    total_guess = 0
    took = {"locks": False, "private": False, "reveal": False, "mid": False}
    reveals: list = []
    listener = lambda change: reveals.append(change) if change.reveal else None  # noqa: E731
    app.runner.listeners.append(listener)
    for _ in range(5000):
        _close(app)
        if app.runner.outcome is not None:
            break
        rounds = app.runner.secret_rounds()
        if not took["locks"] and any(r.locked and r.waiting for r in rounds):
            snap("2-locks")
            took["locks"] = True
        if not took["private"] and rounds and rounds[0].waiting:
            who = rounds[0].waiting[0]
            prompt = next(p for p in app.runner.awaiting() if p.player == who and p.secret)
            app.play.open_private(who, prompt)
            drive.pump(2)
            snap("3-pass-the-screen")
            drive.press("private:show")
            snap("4-private-open")
            _close(app)
            took["private"] = True
        before = len(reveals)
        if not _step(app, rng):
            break
        total_guess += 1
        if len(reveals) > before and not took["reveal"] and any(isinstance(o, Reveal) for o in app.overlays):
            snap("5-reveal")
            took["reveal"] = True
        if not took["mid"] and total_guess >= 40:
            _close(app)
            snap("6-middle")
            app.toggle_sim()
            snap("7-sim-panel")
            app.toggle_sim()
            took["mid"] = True
    _close(app)
    snap("8-over")
    app.runner.listeners.remove(listener)
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Screenshot every main kiosk screen.")
    parser.add_argument("out", nargs="?", default="screenshots")
    parser.add_argument("--size", default="800x480", choices=["800x480", "1280x720"])
    parser.add_argument("--games", nargs="*", help="only these games")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    size = tuple(int(n) for n in args.size.split("x"))
    from kiosk.ui import overlays

    overlays.ANIMATION_SCALE["value"] = 0  # photograph the cards already turned
    app = drive.start(tempfile.mkdtemp(prefix="tn-shots-"), size=size)
    if app.sim_tray is not None:
        app.sim_tray.step(30)  # the simulated tray reports its link and Heat, as it would live
        drive.pump(2)
    prefix = f"{args.size}-"
    shots = [out / f"{prefix}home.png"]
    drive.screenshot(str(shots[0]))
    for game in args.games or list(app.engines):
        if game == "toy":
            continue
        shots += shoot_game(app, game, out, prefix)
    unfinished = (args.games or [g for g in app.engines if g != "toy"])[0]
    app.open_setup(unfinished)  # a game left half-way, so home offers to resume it
    drive.press("setup:start")
    rng = random.Random(1)
    for _ in range(6):
        _close(app)
        _step(app, rng)
    _close(app)
    app.go_home()
    drive.pump(2)
    shots.append(Path(drive.screenshot(str(out / f"{prefix}home-resume.png"))))
    app.ask_operator()
    drive.pump(2)
    shots.append(Path(drive.screenshot(str(out / f"{prefix}operator-pin.png"))))
    for key in "2468":
        drive.press(f"pin:{key}")
    drive.press("pin:OK")  # the PIN the kiosk ships with: it asks for the operator's own first
    shots.append(Path(drive.screenshot(str(out / f"{prefix}operator-choose-pin.png"))))
    drive.type_digits("newpin", "1357")
    drive.type_digits("newpin", "1357")
    shots.append(Path(drive.screenshot(str(out / f"{prefix}operator-menu.png"))))
    drive.press("op:settings")
    shots.append(Path(drive.screenshot(str(out / f"{prefix}operator-settings.png"))))
    drive.press("set:pin")
    for key in "13":
        drive.press(f"newpin:{key}")
    shots.append(Path(drive.screenshot(str(out / f"{prefix}operator-new-pin.png"))))
    _close(app)
    app.start_attract()
    shots.append(Path(drive.screenshot(str(out / f"{prefix}attract.png"))))
    print("\n".join(str(p) for p in shots))
    drive.stop(app)
    return 0


if __name__ == "__main__":
    sys.exit(main())
