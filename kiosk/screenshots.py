"""Take a screenshot of every main screen of every game (run under a real or virtual X screen).

    scripts/screenshots.sh [OUT_DIR] [--size 800x480 1280x720] [--games GAME...] [--sheet docs/screens.md]

With ``--sheet`` it also writes the contact sheet: small JPEG copies of every
shot in a ``screens/`` folder beside the page, and the Markdown page showing
each game's screens at every size taken, side by side.

For each game it opens the setup wizard and the rules sheet, starts a game,
then lets the random bot play (through the same ``Runner`` the screen uses)
and stops to photograph the opening, a secret round half locked, the
pass-the-screen flow, a simultaneous reveal (once mid-animation, once turned),
the middle of the game with the sim panel open, and the end. Plus the home screen, the PIN pad, the operator
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


def snap_mid_animation(app, change, path: Path, at: float = 0.33) -> None:
    """Open the reveal of ``change`` again with its animation on, and photograph it ``at``
    seconds in (the cards wait 0.25 s, then turn over in 0.36 s: 0.33 s is mid-turn)."""
    import time

    from kiosk.ui import overlays
    from kiosk.ui.play import reveal_overlay

    _close(app)
    was = overlays.ANIMATION_SCALE["value"]
    overlays.ANIMATION_SCALE["value"] = 1.0
    try:
        overlay = reveal_overlay(change.reveal)
        if overlay is None:
            return
        app.show_overlay(overlay)
        began = time.perf_counter()
        while time.perf_counter() - began < at:
            drive.pump(1, draw=True)
            time.sleep(0.005)
        drive.screenshot(str(path), frames=1)  # no settling: the cards are mid-turn
    finally:
        overlays.ANIMATION_SCALE["value"] = was
        _close(app)


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
            path = out / f"{prefix}{game}-5-reveal-turning.png"
            snap_mid_animation(app, reveals[-1], path)
            shots.append(path)
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


def home_at_size(app, size: tuple[int, int]) -> None:
    """Draw Home again once the window has its size: it was first built while the window
    still had the default 800x480, so at 1280x720 the contact sheet showed a small Home."""
    from kivy.core.window import Window

    for _ in range(20):
        if tuple(Window.size) == tuple(size):
            break
        drive.pump(1)
    home = app.sm.get_screen("home")
    home._layout = None  # build the cards again, at this size
    home.rebuild()
    drive.pump(2)


def shoot_size(out: Path, size_name: str, games: list[str] | None) -> list[Path]:
    """Every shot at one window size, from a fresh kiosk of that size."""
    size = tuple(int(n) for n in size_name.split("x"))
    app = drive.start(tempfile.mkdtemp(prefix="tn-shots-"), size=size)
    if app.sim_tray is not None:
        app.sim_tray.step(30)  # the simulated tray reports its link and Heat, as it would live
        drive.pump(2)
    prefix = f"{size_name}-"
    home_at_size(app, size)
    shots = [out / f"{prefix}home.png"]
    drive.screenshot(str(shots[0]))
    for game in games or list(app.engines):
        if game == "toy":
            continue
        shots += shoot_game(app, game, out, prefix)
    unfinished = (games or [g for g in app.engines if g != "toy"])[0]
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
    drive.stop(app)
    return shots


SCREENS = [
    ("setup", "Setting up the game"),
    ("rules", "The rules sheet"),
    ("1-start", "The first question"),
    ("2-locks", "A secret round, some players locked in"),
    ("3-pass-the-screen", "Passing the screen to one player"),
    ("4-private-open", "That player's private sheet"),
    ("5-reveal-turning", "A reveal, mid-animation"),
    ("5-reveal", "The reveal, turned over"),
    ("6-middle", "The middle of the game"),
    ("7-sim-panel", "The simulated table's panel (desktop only)"),
    ("8-over", "Game over"),
]
KIOSK_SCREENS = [
    ("home", "Home"),
    ("home-resume", "Home with a game to resume"),
    ("operator-pin", "The operator PIN pad"),
    ("operator-choose-pin", "Choosing the operator's own PIN"),
    ("operator-menu", "The operator menu"),
    ("operator-settings", "The operator's settings"),
    ("operator-new-pin", "A new PIN half typed"),
    ("attract", "Attract mode"),
]
TITLES = {"hell-for-leather": "Hell for Leather", "promise-hollows": "Promise Hollows",
          "even-odd": "The Even/Odd case game", "clincher": "Procedural clincher scenes"}


def write_sheet(sheet: Path, shots: list[Path], sizes: list[str], width: int = 800) -> Path:
    """Write the contact sheet ``sheet`` (Markdown) and its JPEG copies of ``shots``.

    Each copy is ``width`` px wide (JPEG, quality 80: about 50 KB): an 800x480 screen at its
    own size, a 1280x720 one at 62 %, so its text can be judged (at 480 px it could not).
    The whole sheet stays a few MB however many screens it shows. Old copies are removed
    first, so a screen that is gone does not linger on the page.
    """
    from PIL import Image

    folder = sheet.parent / sheet.stem
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.jpg"):
        old.unlink()
    made: set[str] = set()
    for shot in shots:
        if not shot.exists():
            continue
        with Image.open(shot) as image:
            small = image.convert("RGB")
            small.thumbnail((width, width), Image.LANCZOS)
            small.save(folder / f"{shot.stem}.jpg", quality=80, optimize=True)
        made.add(shot.stem)
    games = [g for g in TITLES if any(stem.split("-", 1)[-1].startswith(g + "-") for stem in made)]
    lines = ["# Every main screen at both designed sizes", "",
             "Regenerated by `scripts/screenshots.sh /tmp/shots --size " + " ".join(sizes) + " --sheet docs/screens.md`",
             "(under a virtual screen, simulated table, random legal moves; images are small JPEG copies).",
             "800x480 is the original 7\" display; 1280x720 the Touch Display 2 turned sideways and most HDMI",
             "panels: text is drawn 1.5 times bigger there (the same size on the same 7\" glass) and the wider",
             "shape goes to the status panel. See docs/kiosk.md.", ""]

    def table(rows, key) -> None:
        lines.append("| Screen | " + " | ".join(sizes) + " |")
        lines.append("|---|" + "---|" * len(sizes))
        for name, caption in rows:
            cells = []
            for size in sizes:
                stem = f"{size}-{key(name)}"
                cells.append(f"![{caption}, {size}]({folder.name}/{stem}.jpg)" if stem in made else "(not taken)")
            if any(c != "(not taken)" for c in cells):
                lines.append(f"| {caption} | " + " | ".join(cells) + " |")
        lines.append("")

    lines += ["## The kiosk", ""]
    table(KIOSK_SCREENS, lambda name: name)
    for game in games:
        lines += [f"## {TITLES[game]}", ""]
        table(SCREENS, lambda name, g=game: f"{g}-{name}")
        if not any(f"{size}-{game}-2-locks" in made for size in sizes):
            lines += ["No secret round came up in this game's run: no lock board, pass-the-screen or reveal.", ""]
    sheet.write_text("\n".join(lines), encoding="utf-8")
    return sheet


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Screenshot every main kiosk screen.")
    parser.add_argument("out", nargs="?", default="screenshots")
    parser.add_argument("--size", nargs="+", default=["800x480"], choices=["800x480", "1280x720"])
    parser.add_argument("--games", nargs="*", help="only these games")
    parser.add_argument("--sheet", help="also write this Markdown contact sheet (docs/screens.md) and its images")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from kiosk.ui import overlays

    overlays.ANIMATION_SCALE["value"] = 0  # photograph the cards already turned (one shot turns them on purpose)
    shots: list[Path] = []
    for size_name in args.size:
        shots += shoot_size(out, size_name, args.games)
    print("\n".join(str(p) for p in shots))
    if args.sheet:
        print(write_sheet(Path(args.sheet), shots, args.size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
