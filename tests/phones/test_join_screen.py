"""The kiosk side of the phones: the Join screen, freeing a seat, turning phones off, one queue."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest

from testkit import drive

from tests.kiosk.uiplay import pin_in

from . import browser


@pytest.fixture
def kiosk(tmp_path):
    app = drive.start(str(tmp_path / "data"), config_path=browser.kiosk_config(tmp_path, browser.free_port()))
    yield app
    drive.stop(app)


def start_game(app, game="even-odd"):
    drive.press(f"home:new:{game}")
    drive.press("setup:start")
    assert app.sm.current == "play"


async def join(url: str) -> tuple[dict, dict]:
    base, token = url.split("/#")
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(base.replace("http", "ws") + "/ws") as ws:
            await ws.send_str(json.dumps({"type": "hello", "token": token}))
            welcome = json.loads((await ws.receive(timeout=5)).data)
            state = json.loads((await ws.receive(timeout=5)).data)
            return welcome, state


def test_the_join_screen_shows_a_qr_code_and_a_code_for_every_seat(kiosk):
    app = kiosk
    start_game(app)
    drive.press("bar:phones")
    assert app.sm.current == "join"
    cards = app.join.cards
    assert list(cards) == app.runner.players()
    for player, card in cards.items():
        assert card.qr.texture is not None and card.qr.texture.size[0] >= 21  # a version-1 code or bigger
        assert app.phones.book.seat(player).code in card.code.text
    assert "TableNoir" in app.join.help.text and "noir-1234" in app.join.help.text
    drive.press("join:back")
    assert app.sm.current == "play"


def test_a_link_from_the_join_screen_opens_that_seat_and_freeing_changes_it(kiosk):
    app = kiosk
    start_game(app)
    url = app.phones.server.join_url("Bo")
    welcome, state = asyncio.run(join(url))
    assert welcome["player"] == "Bo" and state["player"] == "Bo"
    drive.press("bar:phones")
    drive.pump(2)
    drive.press("join:free:Bo")
    assert app.phones.server.join_url("Bo") != url
    assert app.phones.book.seat("Bo").code in app.join.cards["Bo"].code.text


def test_a_phone_action_goes_through_the_same_queue_and_the_screen_follows(kiosk):
    app = kiosk
    start_game(app)
    url = app.phones.server.join_url("Ann")
    base, token = url.split("/#")

    async def act():
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(base.replace("http", "ws") + "/ws") as ws:
                await ws.send_str(json.dumps({"type": "hello", "token": token}))
                await ws.receive(timeout=5)
                await ws.send_str(json.dumps({"type": "act", "id": 1, "action": "introduce",
                                              "fields": {"name": "Nora", "description": "a night owl"}}))
                await asyncio.sleep(0.2)

    seen = []
    app.controller.on_handled.append(lambda handled: seen.append(handled))
    asyncio.run(act())
    browser.pump_until(lambda: app.runner.session.log, what="the phone's action")
    assert seen and getattr(seen[-1].event, "from_phone", False) and seen[-1].action["player"] == "Ann"
    assert "Nora" in json.dumps(app.runner.session.view(None))
    assert app.controller.last_hardware != "PhoneAction"


def test_the_operator_can_turn_phones_off_and_the_server_stops(kiosk):
    app = kiosk
    start_game(app)
    url = app.phones.server.join_url("Ann")
    drive.press("bar:phones")
    drive.press("join:toggle")
    assert app.phones is not None  # nothing changes before the operator PIN
    pin_in(app)
    drive.pump(2)
    assert app.phones is None and app.config_hw.kiosk.phones is False
    assert "Phones are off" in app.join.help.text
    with pytest.raises((aiohttp.ClientError, OSError)):
        asyncio.run(join(url))
    app.set_phones(True)
    assert app.phones is not None
