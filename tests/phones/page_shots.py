"""Screenshots of the phone page at 390x844 for each game's private sheet and secret choice.

``python -m tests.phones.page_shots [DIR]`` plays each game with the random
bot (no Kivy: a runner, the controller and a real phone server on loopback)
until a chosen player is asked for the moment worth a picture, then opens that
player's link in headless Chromium and saves a PNG.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from kiosk import games
from kiosk.controller import Controller
from kiosk.phones.bridge import PhoneBridge
from kiosk.phones.server import PhoneServer
from kiosk.rules import RuleError, bot
from kiosk.runner import Runner
from kiosk.store import Store

from . import browser

SHOTS = [
    # (file, game, setup, the action that must be awaited from the player, whose phone, how many to skip)
    ("even-odd-wager", "even-odd", {"seed": 4, "players": ["Ann", "Bo", "Cy", "Di"]}, "wager", "Bo", 0),
    ("even-odd-locked", "even-odd", {"seed": 4, "players": ["Ann", "Bo", "Cy", "Di"]}, "roll", "Bo", 0),
    ("even-odd-introduce", "even-odd", {"seed": 4, "players": ["Ann", "Bo", "Cy", "Di"]}, "introduce", "Bo", 0),
    ("promise-hollows-private-self", "promise-hollows", {"seed": 2}, "write_private_self", "Bee", 0),
    ("promise-hollows-lock-card", "promise-hollows", {"seed": 2}, "lock_card", None, 0),
    ("promise-hollows-sheet", "promise-hollows", {"seed": 2}, "challenge", None, 0),
    ("hell-for-leather-sheet", "hell-for-leather", {"seed": 2}, "land", None, 0),
    ("clincher-sheet", "clincher", {"seed": 2}, "request", None, 0),
]


def play_until(runner, action: str, who: str | None, rng: random.Random) -> str:
    """Bot moves until ``action`` is awaited (from ``who``, if named); return whose phone to show."""
    for _ in range(3000):
        for p in runner.awaiting():
            if p.action == action and (who is None or p.player == who):
                return p.player or runner.players()[0]
        if action == "roll" and who is not None:  # the wagers are all in: show a locked player
            if any(a.type == "wager" for a in runner.session.log) and not any(
                    p.action == "wager" for p in runner.awaiting()):
                return who
        prompts = [p for p in runner.awaiting() if not p.optional and not (p.action == action)]
        if not prompts:
            raise AssertionError(f"{action} never came")
        data = bot.fill(random.choice(prompts) if False else rng.choice(prompts), rng)
        try:
            runner.propose(data)
        except RuleError:
            pass
    raise AssertionError(f"{action} never came")


def shoot(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        chromium = browser.launch(pw)
        for i, (name, game, setup, action, who, _) in enumerate(SHOTS):
            store = Store(Path(tmp) / f"{i}.sqlite3", engines=games.engine_for)
            runner = Runner.new(store, games.engine_for(game), setup)
            server = PhoneServer(["127.0.0.1"], 0)
            controller = Controller()
            controller.runner = runner
            server.submit = controller.receive
            server.start()
            bridge = PhoneBridge(server)
            controller.on_handled.append(bridge.handled)
            try:
                bridge.attach(runner)
                player = play_until(runner, action, who, random.Random(setup["seed"]))
                if name == "even-odd-wager":  # a wager half chosen: the side picked, two points
                    pass
                bridge.push_all()
                context = chromium.new_context(viewport=browser.PHONE, is_mobile=True, has_touch=True,
                                               device_scale_factor=1)
                page = context.new_page()
                page.goto(server.join_url(player))
                page.locator("#who", has_text="You are").wait_for()
                page.wait_for_timeout(300)
                if name == "even-odd-wager":
                    page.locator('[data-tag="side=odd"]').click()
                    page.locator('[data-tag="points+1"]').click()
                if name == "promise-hollows-lock-card":
                    page.locator('[data-tag="card=Gray"], [data-tag="card=gray"]').first.click()
                path = out / f"phone-{name}.png"
                page.screenshot(path=str(path), full_page=False)
                written.append(path)
                context.close()
            finally:
                bridge.detach()
                time.sleep(0.05)
                server.stop()
                store.close()
        chromium.close()
    return written


if __name__ == "__main__":
    for path in shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/phone-shots")):
        print(path)
