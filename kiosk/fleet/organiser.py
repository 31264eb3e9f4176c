"""``table-noir fleet --broker HOST``: the organiser's page, every stand live on one screen.

The page is served the way the phones' page is (aiohttp; the same security headers,
``kiosk.phones.server.HEADERS``): ``/`` is the page, ``/ws`` a WebSocket that sends the
board whenever it changes (and every few seconds, for the ages), ``/board.json`` the
same board once. It subscribes to the broker (paho-mqtt, on its own network thread)
and nothing on a stand has to be reachable: the stands talk to the broker only.

The page's session on the broker is kept (a fixed client id, ``clean_session`` off):
a broker with persistence holds the events that came while the page was closed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import socket
import sys
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from aiohttp import WSMsgType, web

from kiosk.phones.server import HEADERS

from .board import Board
from .publisher import stop_network

log = logging.getLogger(__name__)
PAGE = Path(__file__).with_name("page.html")
PUSH_EVERY_S = 5.0
"""The board is sent at least this often, so the ages on the page move even when no stand speaks."""


class Organiser:
    """The board, fed by the broker, served to browsers. Runs on one asyncio loop."""

    def __init__(self, cfg: Any, listen: str = "127.0.0.1", port: int = 8480, client_id: str | None = None) -> None:
        self.cfg, self.listen, self.port = cfg, listen, port
        self.board = Board(cfg.topic)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.changed = asyncio.Event()
        self.connected: asyncio.Future[str | None] | None = None
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                                  client_id=client_id or f"table-noir-organiser-{socket.gethostname()}-{port}"[-64:],
                                  protocol=mqtt.MQTTv311, clean_session=False)
        if cfg.username:
            self.client.username_pw_set(cfg.username, cfg.password or None)
        if cfg.tls:
            self.client.tls_set(ca_certs=cfg.ca_file or None)
        self.client.reconnect_delay_set(1, 10)
        self.client.on_connect = lambda c, u, flags, reason, props: self._call(self._on_connect, reason)
        self.client.on_connect_fail = lambda c, u: self._call(self._on_unreachable)
        self.client.on_message = lambda c, u, msg: self._call(self._on_message, msg.topic, msg.payload, msg.retain)
        self._runner: web.AppRunner | None = None

    # -- the broker (paho's thread hands everything to the loop) -------------------------------

    def _call(self, fn: Any, *args: Any) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(fn, *args)

    def _on_connect(self, reason: Any) -> None:
        if reason.is_failure:
            self._say(f"the broker at {self.cfg.broker}:{self.cfg.port} refused the organiser ({str(reason).lower()}); "
                      "check --username and the password (--password-file or $TABLE_NOIR_FLEET_PASSWORD)")
        else:
            self._say(None)
            self.client.subscribe(f"{self.cfg.topic}/+/status", qos=1)
            self.client.subscribe(f"{self.cfg.topic}/+/events", qos=1)

    def _on_unreachable(self) -> None:
        self._say(f"cannot reach the broker at {self.cfg.broker}:{self.cfg.port}; trying again")

    def _say(self, problem: str | None) -> None:
        if problem != self.board.problem:
            self.board.problem = problem
            self.changed.set()
            if problem:
                log.warning("%s", problem)
        if self.connected is not None and not self.connected.done() and (problem is None or "refused" in problem):
            self.connected.set_result(problem)

    def _on_message(self, topic: str, payload: bytes, retained: bool) -> None:
        if self.board.message(topic, payload, retained):
            self.changed.set()

    # -- the web page ----------------------------------------------------------------------------

    def make_app(self) -> web.Application:
        app = web.Application(client_max_size=4 * 1024)
        app.router.add_get("/", self._page)
        app.router.add_get("/board.json", self._json)
        app.router.add_get("/ws", self._socket)
        return app

    async def _page(self, request: web.Request) -> web.Response:
        return web.Response(body=PAGE.read_bytes(), content_type="text/html", charset="utf-8", headers=HEADERS)

    async def _json(self, request: web.Request) -> web.Response:
        return web.json_response(self.board.view(), headers=HEADERS)

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=1024)
        await ws.prepare(request)
        reader = asyncio.ensure_future(self._drain(ws))
        try:
            while not ws.closed and not reader.done():
                await ws.send_str(json.dumps(self.board.view()))
                self.changed.clear()
                try:
                    await asyncio.wait_for(self.changed.wait(), PUSH_EVERY_S)
                except asyncio.TimeoutError:
                    pass
                await asyncio.sleep(0.2)  # a burst of messages is sent as one board
        except (ConnectionError, RuntimeError):
            pass  # the browser went away
        finally:
            reader.cancel()
        return ws

    @staticmethod
    async def _drain(ws: web.WebSocketResponse) -> None:
        """The page sends nothing; this notices when it closes."""
        async for msg in ws:
            if msg.type in (WSMsgType.CLOSE, WSMsgType.ERROR):
                return

    # -- starting and stopping ---------------------------------------------------------------------

    async def start(self, wait_s: float = 10.0) -> str | None:
        """Serve the page and connect to the broker. Returns the broker's refusal, if it refused
        within ``wait_s`` (bad credentials), else None (connected, or still trying)."""
        self.loop = asyncio.get_running_loop()
        self.changed = asyncio.Event()
        self.connected = self.loop.create_future()
        self._runner = web.AppRunner(self.make_app(), access_log=None, handle_signals=False, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.listen, self.port)
        await site.start()
        if self.port == 0:  # the port the system chose
            self.port = int(self._runner.addresses[0][1])
        self.client.connect_async(self.cfg.broker, self.cfg.port, keepalive=30)
        self.client.loop_start()
        try:
            return await asyncio.wait_for(asyncio.shield(self.connected), wait_s)
        except asyncio.TimeoutError:
            return None

    async def stop(self) -> None:
        self.client.disconnect()
        await asyncio.get_running_loop().run_in_executor(None, stop_network, self.client)
        if self._runner is not None:
            await self._runner.cleanup()
        self.loop = None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="table-noir fleet", description=__doc__.splitlines()[0])
    parser.add_argument("--broker", required=True, help="the convention's MQTT broker (host name or address)")
    parser.add_argument("--port", type=int, default=1883, help="the broker's port (default 1883; 8883 with --tls)")
    parser.add_argument("--topic", default="table-noir", help="the topic prefix the stands use (default table-noir)")
    parser.add_argument("--username", default="", help="the organiser's user name on the broker")
    parser.add_argument("--password-file", help="a file holding the organiser's password "
                                                "(or set $TABLE_NOIR_FLEET_PASSWORD; never on the command line)")
    parser.add_argument("--tls", action="store_true", help="talk to the broker over TLS")
    parser.add_argument("--ca-file", default="", help="the CA certificate (PEM) that signed the broker's certificate")
    parser.add_argument("--listen", default="127.0.0.1", help="the address the page is served on (default 127.0.0.1)")
    parser.add_argument("--http-port", type=int, default=8480, help="the page's port (default 8480)")
    parser.add_argument("--for", dest="seconds", type=float, default=None, help="stop after this many seconds")
    args = parser.parse_args(argv)
    from hardware.config import ConfigError, parse_config

    password = os.environ.get("TABLE_NOIR_FLEET_PASSWORD", "")
    if args.password_file:
        try:
            password = Path(args.password_file).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as err:
            print(f"table-noir fleet: cannot read --password-file {args.password_file}: {err}", file=sys.stderr)
            return 2
    try:
        cfg = parse_config({"fleet": {"broker": args.broker, "port": args.port, "topic": args.topic,
                                      "username": args.username, "password": password, "tls": args.tls,
                                      "ca_file": args.ca_file}}, source="the command line").fleet
    except ConfigError as err:
        print(f"table-noir fleet: {err}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        return asyncio.run(_serve(Organiser(cfg, args.listen, args.http_port), args.seconds))
    except KeyboardInterrupt:  # Ctrl-C: the page has stopped (_serve closed it)
        return 0


async def _serve(organiser: Organiser, seconds: float | None) -> int:
    try:
        refused = await organiser.start()
    except OSError as err:
        print(f"table-noir fleet: cannot serve the page on {organiser.listen}:{organiser.port}: "
              f"{err.strerror or err}", file=sys.stderr)
        return 2
    if refused:
        print(f"table-noir fleet: {refused}", file=sys.stderr)
        await organiser.stop()
        return 2
    print(f"The organiser's page: http://{organiser.listen}:{organiser.port}/ (Ctrl-C to stop)", flush=True)
    loop = asyncio.get_running_loop()
    stop_at = None if seconds is None else loop.time() + seconds
    try:
        while stop_at is None or loop.time() < stop_at:
            await asyncio.sleep(3600 if stop_at is None else max(0.0, stop_at - loop.time()))
    except asyncio.CancelledError:
        pass
    finally:
        await organiser.stop()
    return 0
