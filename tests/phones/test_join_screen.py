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


async def introduce_from_phone(url: str, name: str, description: str) -> None:
    """A phone joins by ``url`` and introduces its player, then goes away."""
    base, token = url.split("/#")
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(base.replace("http", "ws") + "/ws") as ws:
            await ws.send_str(json.dumps({"type": "hello", "token": token}))
            await ws.receive(timeout=5)
            await ws.send_str(json.dumps({"type": "act", "id": 1, "action": "introduce",
                                          "fields": {"name": name, "description": description}}))
            await asyncio.sleep(0.2)


def gray_hold(app, pad: int, held_s: float = 1.2) -> None:
    """Player number ``pad`` holds Gray on their own pad, then lets go."""
    from hardware.events import ButtonColour, ButtonPressed, ButtonReleased

    app.controller.receive(ButtonPressed(t=0.0, player=pad, button=ButtonColour.GRAY))
    app.controller.receive(ButtonReleased(t=held_s, player=pad, button=ButtonColour.GRAY, held_s=held_s))
    drive.pump(2)


def texts_on(widget) -> str:
    return " ".join(str(getattr(w, "text", "")) for w in drive.walk(widget))


def test_the_join_screen_shows_no_seat_code_until_that_player_holds_gray_on_their_own_pad(kiosk):
    app = kiosk
    start_game(app)
    drive.press("bar:phones")  # anyone may open it: it shows no code by itself
    assert app.sm.current == "join"
    cards = app.join.cards
    assert list(cards) == app.runner.players()
    codes = {p: app.phones.book.seat(p).code for p in cards}
    assert all(card.qr.texture is None for card in cards.values())
    assert not [c for c in codes.values() if c in texts_on(app.join)]
    assert "TableNoir" in app.join.help.text and "noir-1234" in app.join.help.text
    log_before = list(app.runner.session.log)
    gray_hold(app, 2, held_s=0.3)  # too short: nothing shows
    assert all(card.qr.texture is None for card in cards.values())
    gray_hold(app, 2)  # Bo (player 2) holds Gray: Bo's code, and no one else's
    assert app.join.shown == "Bo"
    assert cards["Bo"].qr.texture is not None and codes["Bo"] in cards["Bo"].code.text
    assert [p for p, c in codes.items() if c in texts_on(app.join)] == ["Bo"]
    assert [p for p, card in cards.items() if card.qr.texture is not None] == ["Bo"]
    assert app.runner.session.log == log_before  # the hold played nothing in the game
    welcome, _ = asyncio.run(join(app.phones.server.join_url("Bo")))
    assert welcome["player"] == "Bo"
    browser.pump_until(lambda: app.join.shown is None, what="Bo's code leaves the screen once Bo's phone sat down")
    assert cards["Bo"].qr.texture is None and codes["Bo"] not in texts_on(app.join)
    browser.pump_until(lambda: "A phone joined Bo's seat." in app.toast_text.text, what="the join announced")
    drive.press("join:back")
    assert app.sm.current == "play"


def test_a_padless_players_code_and_freeing_a_seat_need_the_operator_pin(kiosk):
    app = kiosk
    start_game(app)
    url = app.phones.server.join_url("Bo")
    welcome, state = asyncio.run(join(url))
    assert welcome["player"] == "Bo" and state["player"] == "Bo"
    drive.press("bar:phones")
    drive.pump(2)
    drive.press("join:show:Cy")
    assert app.join.shown is None  # nothing before the PIN
    pin_in(app)
    drive.pump(2)
    assert app.join.shown == "Cy" and app.join.cards["Cy"].qr.texture is not None
    drive.press("join:free:Bo")
    assert app.phones.server.join_url("Bo") == url  # nothing freed before the PIN
    pin_in(app)
    drive.pump(2)
    assert app.phones.server.join_url("Bo") != url
    assert app.phones.book.seat("Bo").code not in texts_on(app.join)  # the new code waits for Bo to ask


def test_every_accepted_phone_action_is_activity_so_a_phone_only_game_is_never_sent_to_attract(kiosk):
    import time

    app = kiosk
    start_game(app)
    app.last_input = time.monotonic() - app.config_hw.kiosk.idle_attract_s + 0.3  # nobody touched it for ages
    for player in app.runner.players():  # from now on the game is played from phones only
        before = len(app.runner.session.log)
        asyncio.run(introduce_from_phone(app.phones.server.join_url(player), f"{player}'s", "from a phone"))
        browser.pump_until(lambda: len(app.runner.session.log) > before, what=f"{player}'s phone action")
        time.sleep(0.35)
        app._idle_check()
        assert app.sm.current == "play", f"sent to attract after {player}'s phone action"


def test_save_the_log_says_clearly_when_the_disk_refuses(kiosk, monkeypatch):
    import errno

    app = kiosk
    start_game(app)
    for code, words in ((errno.EMFILE, "too many files open"), (errno.ENOSPC, "storage is full"),
                        (errno.EROFS, "read-only")):
        def refuse(*_a, code=code, **_k):
            raise OSError(code, "refused", str(app.exports / "session.jsonl"))
        monkeypatch.setattr(app.store, "export_jsonl", refuse)
        app.export_current()  # no exception reaches the kiosk
        assert words in app.play.error.text and "Nothing of the game is lost" in app.play.error.text


def test_a_phone_action_goes_through_the_same_queue_and_the_screen_follows(kiosk):
    app = kiosk
    start_game(app)
    seen = []
    app.controller.on_handled.append(lambda handled: seen.append(handled))
    asyncio.run(introduce_from_phone(app.phones.server.join_url("Ann"), "Nora", "a night owl"))
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
