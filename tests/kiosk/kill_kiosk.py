"""Child process for the kiosk kill test: the real kiosk window, played through its widgets.

After every accepted action it waits for the frame and prints
``SHOWN <actions> <json>`` with what the screen shows (prompt area and status
panel texts), then carries on until killed.
"""

import json
import os
import random
import re
import sys

from kiosk.ui import overlays
from testkit import drive


def screen_text(app) -> dict:
    strip = lambda t: re.sub(r"\[[^\]]*\]", "", t)  # noqa: E731
    prompts = [strip(w.text) for w in drive.walk(app.play.prompt_box) if type(w).__name__ == "Text"]
    panel = [strip(w.text) for w in drive.walk(app.play.panel) if type(w).__name__ == "Text"]
    return {"prompts": prompts, "panel": panel}


def main(data_dir: str, game: str, seed: int) -> None:
    from tests.kiosk.uiplay import answer, close_overlays
    from kiosk.rules import bot

    overlays.ANIMATION_SCALE["value"] = 0
    drive.DRAW["value"] = False
    app = drive.start(data_dir)
    drive.press(f"home:new:{game}")
    drive.press("setup:start")
    rng = random.Random(seed)
    shown = 0
    while app.runner.outcome is None:
        close_overlays(app)
        prompts = [p for p in app.runner.awaiting() if not p.optional] or app.runner.awaiting()
        prompt = rng.choice(prompts)
        answer(app, prompt, bot.fill(prompt, rng), rng)
        close_overlays(app)
        drive.pump(1, draw=True)  # the frame is on the glass
        for _ in range(5):  # and the record with it, a frame after the news
            if not app.play.record_due:
                break
            drive.pump(1, draw=True)
        if len(app.runner.session.log) != shown:
            shown = len(app.runner.session.log)
            print("SHOWN", shown, json.dumps(screen_text(app)), flush=True)
    print("DONE", flush=True)
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
