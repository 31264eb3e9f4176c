"""End to end in a real headless Chromium: four phones join by their links and play a whole
Even/Odd game with no pad press and no touch on the kiosk, while the kiosk runs under Xvfb."""

from __future__ import annotations

import os
import random

import pytest

from . import browser

# bootstrap.sh installs chromium; only a machine set up some other way may skip (never CI).
pytestmark = pytest.mark.skipif(not browser.have_chromium() and not os.environ.get("CI"),
                                reason="Debian's chromium is installed by scripts/bootstrap.sh")


@pytest.fixture
def kiosk(tmp_path):
    from testkit import drive

    port = browser.free_port()
    app = drive.start(str(tmp_path / "data"), config_path=browser.kiosk_config(tmp_path, port))
    assert app.phones is not None, app.phones_problem
    yield app
    drive.stop(app)


def test_four_phones_play_a_whole_even_odd_game(kiosk):
    from playwright.sync_api import sync_playwright

    from kiosk.rules import bot
    from testkit import drive

    app = kiosk
    drive.press("home:new:even-odd")
    drive.press("players:add")  # the host sets up a table of four (Even/Odd's default is three)...
    box = app.setup_screen.inputs["players"].boxes[-1]
    box.focus = True
    box.insert_text("Di")  # ...typing the fourth name, as the on-screen keyboard would
    box.focus = False
    drive.press("setup:start")  # after this, nobody touches the kiosk but to open the Join screen
    drive.press("bar:phones")
    assert app.sm.current == "join"
    players = app.runner.players()
    links = {p: app.phones.server.join_url(p) for p in players}
    assert len(players) == 4
    drive.press("join:back")
    rng = random.Random(7)
    with sync_playwright() as pw:
        chromium = browser.launch(pw)
        pages = {}
        for player in players:
            context = chromium.new_context(viewport=browser.PHONE, is_mobile=True, has_touch=True)
            page = context.new_page()
            page.goto(links[player])
            pages[player] = page
        for player, page in pages.items():
            browser.pump_until(lambda: page.locator("#who").inner_text() == f"You are {player}", what=f"{player} joined")
        for _ in range(300):
            if app.runner.outcome is not None:
                break
            prompts = [p for p in app.runner.awaiting() if not p.optional]
            assert all(p.player in pages for p in prompts), "every Even/Odd prompt belongs to a player"
            prompt = rng.choice(prompts)
            data = bot.fill(prompt, rng)
            if prompt.action == "wager" and prompt.fields[1].min:
                data["points"] = max(data["points"], prompt.fields[1].min)
            before = len(app.runner.session.log)
            browser.answer_from_phone(app, pages[prompt.player], prompt, data, before)
            if len(app.runner.session.log) == before:  # the rules said no (a bot's random pick): take it back
                continue
            assert app.runner.session.log[-1].player == prompt.player
        assert app.runner.outcome is not None, "the game did not finish"
        final = app.runner.outcome
        for player, page in pages.items():
            browser.pump_until(lambda: final in page.locator("body").inner_text(), what=f"{player} sees the end")
        chromium.close()
    log = app.runner.session.log
    assert {a.type for a in log} >= {"introduce", "crime_scene", "suspect", "wager", "accuse"}
    assert {a.player for a in log if a.type == "wager"} == set(players)
    assert "phone" not in app.play.error.text.lower()  # the shared screen never says which input was used


def test_four_phones_play_a_promise_hollows_opening_to_the_first_challenge(kiosk):
    """Every player's answer, private self and confession included, from their phone. The table's own
    prompts (naming the Systems, player=None) stay on the kiosk: no phone may answer for the table."""
    from playwright.sync_api import sync_playwright

    from kiosk.rules import bot
    from testkit import drive
    from tests.kiosk import uiplay

    app = kiosk
    drive.press("home:new:promise-hollows")
    drive.press("setup:start")
    players = app.runner.players()
    links = {p: app.phones.server.join_url(p) for p in players}
    rng = random.Random(3)
    on_kiosk = 0
    with sync_playwright() as pw:
        chromium = browser.launch(pw)
        pages = {}
        for player in players:
            page = chromium.new_context(viewport=browser.PHONE, is_mobile=True, has_touch=True).new_page()
            page.goto(links[player])
            pages[player] = page
        for player, page in pages.items():
            browser.pump_until(lambda: page.locator("#who").inner_text() == f"You are {player}", what=f"{player} joined")

        def challenged() -> bool:
            log = app.runner.session.log
            return any(a.type == "lock_card" for a in log) and not any(
                p.action == "lock_card" for p in app.runner.awaiting())

        for _ in range(400):
            if challenged():
                break
            uiplay.close_overlays(app)
            prompts = [p for p in app.runner.awaiting() if not p.optional]
            wanted = [p for p in prompts if p.action == "challenge"]  # the opening ends at the first challenge
            prompt = rng.choice(wanted or prompts)
            data = bot.fill(prompt, rng)
            before = len(app.runner.session.log)
            if prompt.player is None:
                uiplay.answer(app, prompt, data, rng)
                on_kiosk += len(app.runner.session.log) - before  # the Systems: all of them at one tap
                continue
            browser.answer_from_phone(app, pages[prompt.player], prompt, data, before)
        assert challenged(), "no challenge was reached"
        chromium.close()
    log = app.runner.session.log
    from_phones = [a for a in log if a.player is not None]
    assert {a.type for a in from_phones} >= {"write_persona", "write_private_self", "confess", "lock_card"}
    assert on_kiosk == len([a for a in log if a.player is None])  # only the table's own prompts
