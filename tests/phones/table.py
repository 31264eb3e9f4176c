"""A table without Kivy for the phone tests: a store, a runner, the controller, the bridge and
the phone server, all on one asyncio loop (that loop's thread stands in for the UI thread),
with aiohttp's own test client as the phones."""

from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from kiosk import games
from kiosk.controller import Controller
from kiosk.phones.bridge import PhoneBridge
from kiosk.phones.server import PhoneServer
from kiosk.runner import Runner
from kiosk.store import Store


class Phone:
    """One phone's WebSocket, keeping every frame it was sent."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.got: list[dict[str, Any]] = []
        self.player: str | None = None
        self.device: str | None = None
        self.token: str | None = None

    async def send(self, data: Any) -> None:
        await self.ws.send_str(data if isinstance(data, str) else json.dumps(data))

    async def next(self, kind: str | None = None, timeout: float = 5.0) -> dict[str, Any]:
        """The next message (of ``kind``, skipping others; skipped ones are kept in ``got``)."""
        while True:
            msg = await asyncio.wait_for(self.ws.receive(), timeout)
            if msg.type.name != "TEXT":
                raise ConnectionError(f"socket closed ({msg.type.name})")
            data = json.loads(msg.data)
            self.got.append(data)
            if data["type"] == "welcome":
                self.player, self.device, self.token = data["player"], data["device"], data["token"]
            if kind is None or data["type"] == kind:
                return data

    async def join(self, token: str | None = None, code: str | None = None, device: str | None = None) -> dict:
        hello = {"type": "hello"}
        hello.update({k: v for k, v in (("token", token), ("code", code), ("device", device)) if v})
        await self.send(hello)
        return await self.next()

    async def act(self, action: str, request: int = 1, **fields: Any) -> dict[str, Any]:
        """Send an action and wait for the table's answer to it."""
        await self.send({"type": "act", "id": request, "action": action, "fields": fields})
        while True:
            data = await self.next()
            if data["type"] in ("done", "refused") and data.get("id") in (request, None):
                return data
            if data["type"] == "ended":  # the action ended the game: the phone is let go at once
                return data

    def states(self) -> list[dict[str, Any]]:
        return [m for m in self.got if m["type"] == "state"]


class Table:
    def __init__(self, tmp_path, game: str, setup: dict[str, Any]) -> None:
        self.store = Store(tmp_path / "phones.sqlite3", engines=games.engine_for)
        self.runner = Runner.new(self.store, games.engine_for(game), setup)
        self.server = PhoneServer(listen=["127.0.0.1"], port=0)
        self.bridge = PhoneBridge(self.server)
        self.client: TestClient | None = None
        self.controller: Controller | None = None

    async def phone(self) -> Phone:
        return Phone(await self.client.ws_connect("/ws"))

    def token(self, player: str) -> str:
        return self.bridge.book.seat(player).token

    async def settle(self, rounds: int = 5) -> None:
        for _ in range(rounds):
            await asyncio.sleep(0)


@asynccontextmanager
async def table(tmp_path, game: str = "even-odd", setup: dict[str, Any] | None = None, rate=(10.0, 20)):
    t = Table(tmp_path, game, setup or {"seed": 3, "players": ["Ann", "Bo", "Cy", "Di"]})
    loop = asyncio.get_running_loop()
    t.server.loop = loop
    t.server.rate = rate
    t.controller = Controller(post=lambda fn: loop.call_soon_threadsafe(fn))
    t.controller.runner = t.runner
    t.controller.on_handled.append(t.bridge.handled)
    t.server.submit = t.controller.receive
    t.client = TestClient(TestServer(t.server.make_app()))
    await t.client.start_server()
    try:
        t.bridge.attach(t.runner)
        await t.settle()
        yield t
    finally:
        await t.client.close()
        t.store.close()
