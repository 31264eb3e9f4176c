"""Issue 31, on the server side: phones act only for their own player, every refusal counts
(per connection and per seat), codes tell a guesser nothing, other sites are refused,
and joins and takeovers are announced."""

from __future__ import annotations

import asyncio

import pytest

from kiosk.phones.limits import JoinGuard, QuietLog, Strikes
from kiosk.phones.server import REFUSALS_BEFORE_CLOSE

from .table import table
from .test_server import run


def test_a_phone_cannot_answer_the_tables_own_prompt(tmp_path):
    """Promise Hollows opens with the table naming the Systems (player=None): not from Ann's phone."""
    async def go():
        async with table(tmp_path, game="promise-hollows") as t:
            assert [p.player for p in t.runner.awaiting() if p.action == "name_system"] == [None]
            ann = await t.phone()
            await ann.join(token=t.token("Ann"))
            answer = await ann.act("name_system", name="The Lamplighters")
            assert answer["type"] == "refused" and "table" in answer["reason"]
            assert t.runner.session.log == []
    run(go())


def test_a_phone_cannot_answer_a_prompt_addressed_to_another_player(tmp_path):
    async def go():
        async with table(tmp_path) as t:
            bo = await t.phone()
            await bo.join(token=t.token("Bo"))
            assert (await bo.act("introduce", request=1, name="Rita", description="a reporter"))["type"] == "done"
            assert any(p.action == "introduce" and p.player == "Ann" for p in t.runner.awaiting())
            answer = await bo.act("introduce", request=2, name="Not Ann", description="an impostor")
            assert answer["type"] == "refused" and "not yours" in answer["reason"]
            assert [a.player for a in t.runner.session.log] == ["Bo"]
    run(go())


def test_hell_for_leather_table_prompts_are_refused_from_phones():
    """heat_fall and table_knock are the table's (the tray's or the shared screen's)."""
    from kiosk.phones.bridge import PhoneBridge
    from kiosk.phones.events import PhoneAction
    from kiosk.phones.server import PhoneServer
    from kiosk.rules.core import Prompt, RuleError

    class Runner:
        outcome = None

        def awaiting(self):
            return [Prompt(None, "heat_fall", "The Heat fell"), Prompt(None, "table_knock", "Knocked"),
                    Prompt("Ann", "throw", "Ann throws")]

    bridge = PhoneBridge(PhoneServer())
    bridge.runner = Runner()
    for action in ("heat_fall", "table_knock"):
        with pytest.raises(RuleError, match="table"):
            PhoneAction("Ann", {"type": action, "who": "Bo"}, allowed=bridge.answerable).action()
    assert PhoneAction("Ann", {"type": "throw"}, allowed=bridge.answerable).action()["player"] == "Ann"


@pytest.mark.parametrize("junk", ["binary", "not json", "too fast"])
def test_every_kind_of_refusal_closes_the_connection_at_the_limit(tmp_path, junk):
    async def go():
        async with table(tmp_path, rate=(1000.0, 1000) if junk != "too fast" else (0.001, 1)) as t:
            p = await t.phone()
            await p.join(token=t.token("Ann"))
            for _ in range(REFUSALS_BEFORE_CLOSE + 5):
                if p.ws.closed:
                    break
                try:
                    if junk == "binary":
                        await p.ws.send_bytes(b"\x00" * 8)
                    else:
                        await p.send("not json" if junk == "not json" else {"type": "ping"})
                except ConnectionError:
                    break
            kinds = []
            with pytest.raises(ConnectionError):
                while True:
                    kinds.append((await p.next(timeout=3))["type"])
            assert kinds.count("refused") <= REFUSALS_BEFORE_CLOSE and "ended" in kinds
            assert "Too many refused" in p.got[-1]["reason"]
    run(go())


def test_binary_frames_are_rate_limited_like_text(tmp_path):
    async def go():
        async with table(tmp_path, rate=(0.001, 3)) as t:
            p = await t.phone()
            for _ in range(5):
                await p.ws.send_bytes(b"\x01")
            reasons = [(await p.next("refused"))["reason"] for _ in range(5)]
            assert any("too many messages" in r for r in reasons)
    run(go())


def test_reconnecting_with_the_device_key_does_not_reset_the_count_or_the_rate(tmp_path):
    async def go():
        async with table(tmp_path, rate=(1000.0, 1000)) as t:
            first = await t.phone()
            await first.join(token=t.token("Bo"))
            device, refused = first.device, 0
            for round_ in range(10):  # 10 reconnects of 10 bad messages: 100 refusals from one seat
                phone = first if round_ == 0 else await t.phone()
                if round_:
                    answer = await phone.join(token=t.token("Bo"), device=device)
                    if answer["type"] != "welcome":
                        assert "too many refused" in answer["reason"]
                        break
                for _ in range(10):
                    await phone.send("not json")
                for _ in range(10):
                    try:
                        message = await phone.next()
                    except ConnectionError:
                        break
                    refused += message["type"] == "refused"
            assert refused <= REFUSALS_BEFORE_CLOSE
            assert t.server.strikes["Bo"].over
    run(go())


def test_strikes_are_forgiven_slowly_and_join_lockouts_grow():
    now = [0.0]
    strikes = Strikes(limit=50, forgive_s=6, clock=lambda: now[0])
    for _ in range(50):
        strikes.add()
    assert strikes.over
    now[0] += 6.5
    assert not strikes.over  # one forgiven: a careful player is not locked out for ever
    guard = JoinGuard(tries=20, clock=lambda: now[0])
    waits = []
    for _ in range(3):
        for _ in range(20):
            guard.fail("10.0.0.9")
        waits.append(guard.wait_s("10.0.0.9"))
        now[0] += waits[-1]
    assert waits == [60, 120, 240]  # beyond the sliding minute: each lockout doubles
    assert guard.wait_s("10.0.0.8") == 0  # another address is not held up


def test_a_flood_of_log_lines_is_held_back_and_counted(caplog):
    import logging

    now = [0.0]
    quiet = QuietLog(lines=10, clock=lambda: now[0])
    logger = logging.getLogger("kiosk.phones.server")
    logger.addFilter(quiet)
    try:
        with caplog.at_level(logging.WARNING, logger="kiosk.phones.server"):
            for _ in range(5000):
                logger.warning("a connection went wrong")
            now[0] += 61
            logger.warning("and again")
    finally:
        logger.removeFilter(quiet)
    lines = [r.getMessage() for r in caplog.records if r.name == "kiosk.phones.server"]
    assert len(lines) == 11 and "4990 more lines" in lines[-1]


def test_the_host_header_and_the_websocket_origin_are_checked(tmp_path):
    async def go():
        async with table(tmp_path) as t:
            evil = await t.client.get("/", headers={"Host": "attacker.example:8470"})
            assert evil.status == 421
            ok = await t.client.get("/")
            assert ok.status == 200
            host = f"127.0.0.1:{t.client.port}"
            with pytest.raises(Exception):  # noqa: B017 - aiohttp's handshake error
                await t.client.ws_connect("/ws", headers={"Origin": "http://attacker.example"})
            ws = await t.client.ws_connect("/ws", headers={"Origin": f"http://{host}"})
            await ws.close()
    run(go())


def test_the_shared_screen_hears_of_every_join_and_every_takeover(tmp_path):
    async def go():
        async with table(tmp_path) as t:
            said: list[str] = []
            t.bridge.say = said.append
            bo = await t.phone()
            await bo.join(token=t.token("Bo"))
            again = await t.phone()
            await again.join(token=t.token("Bo"), device=bo.device)  # a reload: the same phone, quiet
            assert said == ["A phone joined Bo's seat."]
            t.bridge.free("Bo")
            ended = await again.next("ended")
            assert "freed this seat" in ended["reason"]  # the phone that loses its seat is told why
            other = await t.phone()
            assert (await other.join(token=t.token("Bo")))["player"] == "Bo"
            assert said[-1] == "A new phone took Bo's seat (the host had freed it)."
    run(go())


def test_the_server_refuses_more_connections_than_its_caps(tmp_path):
    from kiosk.phones.server import PhoneServer

    server = PhoneServer(listen=["127.0.0.1"], port=0)
    server.gate.per_address = 3
    server.start()
    try:
        async def go():
            conns = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(6)]
            await asyncio.sleep(0.3)
            closed = 0
            for reader, writer in conns:
                try:
                    closed += (await asyncio.wait_for(reader.read(1), 0.5)) == b""
                except ConnectionError:
                    closed += 1
                except asyncio.TimeoutError:
                    pass  # still open: one of the three allowed
                writer.close()
            return closed
        assert asyncio.run(go()) == 3
        assert server.gate.turned_away >= 3
    finally:
        server.stop()
