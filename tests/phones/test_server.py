"""The phone server through aiohttp's test client: joining, acting, refusing, and what is sent."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import socket

import aiohttp
import pytest

from hardware.events import ButtonColour, ButtonPressed
from kiosk.phones.messages import MAX_BYTES
from kiosk.phones.server import PhoneServer
from kiosk.rules import RuleError, bot

from .table import table


def run(coro):
    return asyncio.run(coro)


def advance_to(runner, action: str, seed: int = 5) -> None:
    """Play the bot's required answers until the game awaits ``action``."""
    rng = random.Random(seed)
    for _ in range(500):
        prompts = runner.awaiting()
        if any(p.action == action for p in prompts):
            return
        required = [p for p in prompts if not p.optional]
        try:
            runner.propose(bot.fill(rng.choice(required), rng))
        except Exception:  # noqa: BLE001 - the bot picked an illegal value; pick again
            pass
    raise AssertionError(f"never reached {action}")


def test_a_phone_joins_by_its_link_and_gets_exactly_its_players_view(tmp_path):
    async def go():
        async with table(tmp_path) as t:
            bo = await t.phone()
            welcome = await bo.join(token=t.token("Bo"))
            assert welcome["type"] == "welcome" and welcome["player"] == "Bo"
            state = await bo.next("state")
            assert state["player"] == "Bo"
            assert state["you"] == json.loads(json.dumps(t.runner.session.view("Bo"), default=str))
            assert any(p["player"] == "Bo" and p["fields"] for p in state["you"]["awaiting"])
    run(go())


def test_a_typed_code_opens_the_same_seat(tmp_path):
    async def go():
        async with table(tmp_path) as t:
            cy = await t.phone()
            welcome = await cy.join(code=t.bridge.book.seat("Cy").code.lower())
            assert welcome["player"] == "Cy" and welcome["token"] == t.token("Cy")
    run(go())


def test_a_wrong_token_or_code_is_refused_with_a_reason(tmp_path):
    async def go():
        async with table(tmp_path) as t:
            p = await t.phone()
            answer = await p.join(token="x" * 32)
            assert answer["type"] == "join" and "does not open a seat" in answer["reason"]
            answer = await p.join(code="ZZZZZZ")
            assert answer["type"] == "join"
    run(go())


def test_one_seat_one_phone_and_a_reload_rejoins(tmp_path):
    async def go():
        async with table(tmp_path) as t:
            first = await t.phone()
            await first.join(token=t.token("Ann"))
            await first.next("state")
            thief = await t.phone()  # someone who photographed the link
            answer = await thief.join(token=t.token("Ann"))
            wrong = await (await t.phone()).join(code="ZZZZZZ")
            # a held seat reads exactly as a wrong code: nothing confirms the link or names the seat
            assert answer["type"] == "join" and answer == wrong and "Ann" not in answer["reason"]
            again = await t.phone()  # the same phone after a reload: it has its device key
            answer = await again.join(token=t.token("Ann"), device=first.device)
            assert answer["type"] == "welcome" and answer["player"] == "Ann"
            assert (await again.next("state"))["player"] == "Ann"
            assert (await first.next("ended"))["type"] == "ended"  # the old page goes quiet
    run(go())


def test_the_host_frees_a_seat_and_the_old_link_stops_working(tmp_path):
    async def go():
        async with table(tmp_path) as t:
            old_token = t.token("Di")
            phone = await t.phone()
            await phone.join(token=old_token)
            await phone.next("state")
            t.bridge.free("Di")
            assert "freed" in (await phone.next("ended"))["reason"]
            back = await t.phone()
            assert (await back.join(token=old_token, device=phone.device))["type"] == "join"
            fresh = await t.phone()
            assert (await fresh.join(token=t.token("Di")))["player"] == "Di"
    run(go())


def test_an_action_from_a_phone_is_played_as_its_own_seat(tmp_path):
    async def go():
        async with table(tmp_path) as t:
            bo = await t.phone()
            await bo.join(token=t.token("Bo"))
            answer = await bo.act("introduce", name="Rita", description="a night reporter")
            assert answer["type"] == "done"
            last = t.runner.session.log[-1]
            assert (last.type, last.player, last.name) == ("introduce", "Bo", "Rita")
            state = bo.states()[-1]  # the new view reaches the phone before the "done"
            assert state["you"]["characters"]["Bo"]["name"] == "Rita"
    run(go())


def test_a_phone_cannot_act_for_another_seat(tmp_path):
    async def go():
        async with table(tmp_path) as t:
            bo = await t.phone()
            await bo.join(token=t.token("Bo"))
            await bo.send({"type": "act", "id": 7, "action": "introduce",
                           "fields": {"player": "Ann", "name": "X", "description": "y"}})
            refused = await bo.next("refused")
            assert "not yours to send" in refused["reason"]
            assert t.runner.session.log == []
    run(go())


@pytest.mark.parametrize("bad, says", [
    ("not json", "not valid JSON"),
    ("[1, 2]", "JSON object"),
    ('{"type": "launch"}', "type"),
    ('{"type": "act", "id": 1, "action": "introduce", "fields": {"name": ' + "9" * 5000 + '}}', "too large"),
    ('{"type": "act", "id": 1, "action": "INTRODUCE!", "fields": {}}', "action"),
    ('{"type": "act", "id": 1, "action": "introduce", "fields": {"name": {"deep": [[[]]]}}}', "fields"),
    ('{"type": "act", "id": -1, "action": "introduce"}', "id"),
    ("[" * 2000 + "]" * 2000, "JSON"),
])
def test_malformed_messages_are_refused_clearly_and_change_nothing(tmp_path, bad, says):
    async def go():
        async with table(tmp_path) as t:
            ann = await t.phone()
            await ann.join(token=t.token("Ann"))
            await ann.next("state")
            before = t.runner.session.to_jsonl()
            await ann.send(bad)
            refused = await ann.next("refused")
            assert says.lower() in refused["reason"].lower(), refused
            assert len(refused["reason"]) < 300 and "Traceback" not in refused["reason"]
            assert t.runner.session.to_jsonl() == before
            assert (await ann.act("introduce", name="Ann's", description="still here"))["type"] == "done"
    run(go())


def test_binary_frames_and_acts_before_joining_are_refused(tmp_path):
    async def go():
        async with table(tmp_path) as t:
            p = await t.phone()
            await p.ws.send_bytes(b"\x00\x01")
            assert "JSON text" in (await p.next("refused"))["reason"]
            await p.send({"type": "act", "id": 1, "action": "introduce", "fields": {"name": "a", "description": "b"}})
            assert "join a seat first" in (await p.next("refused"))["reason"]
            assert t.runner.session.log == []
    run(go())


def test_a_flood_of_messages_is_rate_limited(tmp_path):
    async def go():
        async with table(tmp_path) as t:
            p = await t.phone()
            await p.join(token=t.token("Ann"))
            for _ in range(60):
                await p.send({"type": "ping"})
            kinds = [(await p.next())["type"] for _ in range(61)]
            assert kinds.count("pong") <= 25 and "refused" in kinds
            assert any("too many" in m.get("reason", "") for m in p.got)
    run(go())


def test_guessing_codes_is_slowed_down(tmp_path):
    async def go():
        async with table(tmp_path) as t:
            for batch in range(5):  # five pages from one address, five tries each
                p = await t.phone()
                for i in range(5):
                    await p.join(code=f"AAAA{batch}{i}")
            assert "too many tries" in p.got[-1]["reason"]
            right = await p.join(code=t.bridge.book.seat("Ann").code)  # even the right code waits a minute
            assert right["type"] != "welcome"
    run(go())


def test_the_first_lock_in_wins_between_phone_and_pad_and_refusals_stay_off_the_shared_screen(tmp_path):
    async def go():
        async with table(tmp_path) as t:
            shared: list[str] = []
            t.controller.on_message = lambda text, refused=False: shared.append(text)
            advance_to(t.runner, "wager")
            lead = t.runner.session.view(None)["lead"]
            pad = t.runner.players().index(lead) + 1
            phone = await t.phone()
            await phone.join(token=t.token(lead))
            # The lead must stake at least one: a refusal that only the lead's phone hears.
            refused = await phone.act("wager", request=1, side="even", points=0)
            assert refused["type"] == "refused" and "1 to" in refused["reason"]
            assert shared == []
            assert (await phone.act("wager", request=2, side="odd", points=1))["type"] == "done"
            for colour in ("white", "white", "gray"):  # the lead's pad tries to lock a different wager after
                t.controller.receive(ButtonPressed(t=0.0, player=pad, button=ButtonColour(colour)))
            await t.settle(20)
            wagers = [a for a in t.runner.session.log if a.type == "wager" and a.player == lead]
            assert [(w.side, w.points) for w in wagers] == [("odd", 1)]
            assert lead in t.runner.session.view(None)["locked"]
    run(go())


def test_a_pad_lock_in_shows_as_locked_on_the_phone(tmp_path):
    async def go():
        async with table(tmp_path) as t:
            advance_to(t.runner, "wager")
            bo = await t.phone()
            await bo.join(token=t.token("Bo"))
            for colour in ("black", "gray"):
                t.controller.receive(ButtonPressed(t=0.0, player=2, button=ButtonColour(colour)))
            await t.settle(20)
            while True:
                state = await bo.next("state")
                if state["you"].get("my_wager"):
                    break
            assert state["you"]["my_wager"] == {"side": "odd", "points": 1}
            assert not [p for p in state["you"]["awaiting"] if p["player"] == "Bo"]
            answer = await bo.act("wager", side="even", points=2)
            assert answer["type"] == "refused"
            assert [(a.side, a.points) for a in t.runner.session.log if a.type == "wager"] == [("odd", 1)]
    run(go())


def test_when_the_game_leaves_the_screen_its_tokens_die(tmp_path):
    async def go():
        async with table(tmp_path) as t:
            token = t.token("Ann")
            ann = await t.phone()
            await ann.join(token=token)
            await ann.next("state")
            t.bridge.detach()
            assert "ended" in (await ann.next("ended"))["reason"]
            later = await t.phone()
            assert (await later.join(token=token, device=ann.device))["type"] == "join"
    run(go())


def test_tokens_never_reach_a_log_line(tmp_path, caplog):
    async def go():
        async with table(tmp_path) as t:
            caplog.set_level(logging.DEBUG)
            ann = await t.phone()
            await ann.join(token=t.token("Ann"))
            await (await t.phone()).join(code=t.bridge.book.seat("Bo").code)
            await ann.act("introduce", name="Lou", description="a fixer")
            secrets_ = [t.token(p) for p in t.runner.players()] + [t.bridge.book.seat(p).code for p in t.runner.players()]
            logged = "\n".join(r.getMessage() for r in caplog.records) + repr(t.bridge.book.seats)
            assert not [s for s in secrets_ if s in logged]
    run(go())


def test_the_page_is_small_self_contained_and_served_with_a_strict_policy(tmp_path):
    async def go():
        async with table(tmp_path) as t:
            response = await t.client.get("/")
            body = await response.text()
            assert response.status == 200 and len(body.encode()) < 150_000
            assert "http://" not in body and "https://" not in body and "@import" not in body
            assert "default-src 'none'" in response.headers["Content-Security-Policy"]
            assert response.headers["Cache-Control"] == "no-store"
    run(go())


def test_the_server_listens_only_on_the_chosen_address():
    server = PhoneServer(listen=["127.0.0.1"], port=0)
    server.start()
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=2):
            pass
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.2", server.port), timeout=2).close()
    finally:
        server.stop()


def test_an_address_already_in_use_is_an_error_at_start():
    first = PhoneServer(listen=["127.0.0.1"], port=0)
    first.start()
    try:
        with pytest.raises(OSError):
            PhoneServer(listen=["127.0.0.1"], port=first.port).start()
    finally:
        first.stop()


def test_messages_over_the_size_limit_are_refused_before_parsing():
    from kiosk.phones.messages import Refusal, parse

    with pytest.raises(Refusal, match="too large"):
        parse("x" * (MAX_BYTES + 1))
    assert aiohttp  # the test client is aiohttp's own


def test_a_game_change_told_after_the_phones_let_go_of_the_game_changes_nothing(tmp_path):
    """The runner tells its listeners from a copy of their list: one told first may take the
    game off screen (detach the phones) before the phones hear of the same change. They then
    send nothing, and the move still counts."""
    async def go():
        async with table(tmp_path) as t:
            t.runner.listeners.insert(0, lambda change: t.bridge.detach())
            rng = random.Random(5)
            for _ in range(50):  # the bot's first legal answer to a required prompt
                prompt = next(p for p in t.runner.awaiting() if not p.optional)
                try:
                    t.runner.propose(bot.fill(prompt, rng))
                    break
                except RuleError:
                    continue
            assert len(t.runner.session.log) == 1
            assert t.bridge.runner is None and t.bridge.book is None
    run(go())
