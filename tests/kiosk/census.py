"""A font census of what the window shows: how many characters are drawn at each size.

A player reads the 7" panel from a chair 80-100 cm away. ISO 9241-3's minimum
character height (16 arcmin) is about 28 px there at 800x480; 20 px is the
least the team accepts for anything read during play, and nothing a player
must read may be under 16 px. ``census()`` counts the characters of every
shown label on the window by the size they are drawn at, so a test can bound
the share under each size and a person can compare before and after:

    KIVY_NO_ARGS=1 xvfb-run -a .venv/bin/python -m tests.kiosk.census [SEEDS] [STATES]

prints, per game at 800x480, the share of characters under 16, 20 and 28 px.
(Text drawn straight onto a canvas by ``kiosk.ui.art``, the numbers on dice and
cards, is not counted: it is all 22 px or more.)
"""

from __future__ import annotations

import random
import re
from collections import Counter

from testkit import drive

from .test_layout import shown  # the same test of 'a player can see it' as the layout test's

BANDS = (16, 20, 28)
"""The sizes the census reports the share of characters under."""


SIZE_TAG = re.compile(r"\[size=([0-9.]+)(?:sp|dp|px)?\]|\[/size\]")


def sized_runs(label) -> list[tuple[float, str]]:
    """(font size, characters) for each run of a label's text: markup's ``[size=N]`` sets its run's size."""
    from .test_layout import MARKUP

    if not getattr(label, "markup", False):
        return [(label.font_size, label.text)]
    runs: list[tuple[float, str]] = []
    stack = [label.font_size]
    at = 0
    text = label.text
    for tag in SIZE_TAG.finditer(text):
        runs.append((stack[-1], text[at:tag.start()]))
        if tag.group(1) is not None:
            stack.append(float(tag.group(1)))
        elif len(stack) > 1:
            stack.pop()
        at = tag.end()
    runs.append((stack[-1], text[at:]))
    return [(size, MARKUP.sub("", run).replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&"))
            for size, run in runs]


def census(exclude=lambda widget: False) -> Counter:
    """Characters (not spaces) of every shown label on the window, by font size in whole px."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    count: Counter = Counter()
    for root in Window.children:
        for w in drive.walk(root):
            if isinstance(w, Label) and shown(w) and w.text.strip() and not exclude(w):
                for size, run in sized_runs(w):
                    count[round(size)] += sum(1 for c in run if not c.isspace())
    return count


def shares(count: Counter) -> dict[int, float]:
    """The share of characters under each size in ``BANDS``."""
    total = sum(count.values()) or 1
    return {band: sum(n for size, n in count.items() if size < band) / total for band in BANDS}


DESKTOP_ONLY = ("sim:toggle",)
"""Tags of buttons a kiosk never shows (the simulated table's button is for a desktop)."""


def on_a_kiosk(widget) -> bool:
    return getattr(widget, "tag", "") not in DESKTOP_ONLY


def play_screens(app, game: str, seed: int, states: int, each=None) -> Counter:
    """The census of every play screen of a random game (the bot answers, the screen follows);
    ``each()`` is called on every screen too (a test's own checks)."""
    from kiosk.rules import RuleError, bot

    from .uiplay import close_overlays

    rng = random.Random(seed)
    app.start_game(game, {"seed": seed})
    total: Counter = Counter()
    for _ in range(states):
        close_overlays(app)
        if app.runner.outcome is not None:
            break
        drive.pump(1)
        total += census(exclude=lambda w: not on_a_kiosk(w))
        if each is not None:
            each()
        prompts = app.runner.awaiting()
        required = [p for p in prompts if not p.optional] or prompts
        try:
            app.runner.propose(bot.fill(rng.choice(required), rng))
        except RuleError:
            pass
    close_overlays(app)
    drive.pump(1)
    total += census(exclude=lambda w: not on_a_kiosk(w))
    app.go_home()
    return total


def main(argv: list[str]) -> None:
    import tempfile

    from kiosk.ui import overlays

    from .uiplay import GAMES

    seeds = int(argv[0]) if argv else 2
    states = int(argv[1]) if len(argv) > 1 else 150
    overlays.ANIMATION_SCALE["value"] = 0
    drive.DRAW["value"] = False
    app = drive.start(tempfile.mkdtemp(prefix="tn-census-"), size=(800, 480))
    print("game at 800x480: share of characters under " + ", ".join(f"{b} px" for b in BANDS))
    for game in GAMES:
        total: Counter = Counter()
        for seed in range(seeds):
            total += play_screens(app, game, seed=11 + seed, states=states)
        print(f"{game:18s} " + "  ".join(f"<{b}: {share:5.1%}" for b, share in shares(total).items())
              + f"   ({sum(total.values())} characters; sizes {sorted(total)})")
    drive.stop(app)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
