"""Taps and keystrokes on the shared screen to reach the first scene of Promise Hollows, with and without phones.

Plays the opening of a four-player Promise Hollows (seeded) through the real
kiosk widgets under Xvfb, the way ``tests/kiosk/uiplay.py`` does: every touch
is a ``drive.press`` on a widget and every text is typed into a box. Without
phones, every answer goes through the shared screen (secret ones by passing
it). With phones, the shared screen is touched only to start the game, open
the Join screen and answer the table's own prompts (``player=None``); every
player's answer comes from that player's phone instead (sent straight to the
rules here; the end-to-end browser test shows the phone path itself).

The bot's texts are two words (about 11 characters); people write more, so
the keystroke counts are a floor.

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python benchmarks/phones_taps.py [--seed 2]
"""

from __future__ import annotations

import argparse
import copy
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")


class NoPads(random.Random):
    """uiplay answers a secret by a pad 70% of the time; here by the screen, always."""

    def random(self) -> float:
        return 0.99


def legal(runner, data) -> bool:
    engine = runner.engine
    try:
        action = engine.actions.validate_python(data)
        probe = copy.copy(runner.session)
        probe.state, probe.rng = copy.deepcopy(runner.session.state), random.Random(0)
        probe._check_awaited(action)
        engine.apply(probe.state, action, probe.rng)
        return True
    except Exception:  # noqa: BLE001 - the bot's pick is not allowed now: pick again
        return False


def opening(app, seed: int, phones: bool) -> dict[str, int]:
    from kiosk.rules import bot
    from testkit import drive
    from tests.kiosk import uiplay

    counts = {"taps": 0, "keys": 0, "phone_answers": 0}
    real_press = drive.press

    def press(*a, **kw):
        counts["taps"] += 1
        return real_press(*a, **kw)

    drive.press = press
    try:
        app.go_home()
        drive.press("home:new:promise-hollows")
        drive.press("setup:start")
        if phones:
            drive.press("bar:phones")
            drive.press("join:back")
        rng = random.Random(seed)
        while app.runner.session.state.phase != "story":
            uiplay.close_overlays(app)
            prompts = [p for p in app.runner.awaiting() if not p.optional]
            prompt = rng.choice(prompts)
            data = bot.fill(prompt, rng)
            if not legal(app.runner, data):
                continue
            if phones and prompt.player is not None:
                app.runner.propose(data)
                counts["phone_answers"] += 1
                continue
            counts["keys"] += sum(len(data[f.name]) for f in prompt.fields if f.kind == "text")
            uiplay.answer(app, prompt, data, NoPads(seed))
        uiplay.close_overlays(app)
    finally:
        drive.press = real_press
    counts["actions"] = len(app.runner.session.log)
    return counts


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    from testkit import drive

    app = drive.start(tempfile.mkdtemp(prefix="tn-taps-"))
    for phones in (False, True):
        c = opening(app, args.seed, phones)
        print(f"{'with phones' if phones else 'without phones'}: {c['taps']} taps and {c['keys']} keystrokes "
              f"on the shared screen to reach the first scene ({c['actions']} actions; "
              f"{c['phone_answers']} answered on phones)")
    drive.stop(app)
    return 0


if __name__ == "__main__":
    sys.exit(main())
