"""The phone server: aiohttp on its own thread, beside the Kivy loop, in the same process.

Why aiohttp: one well-kept package gives the HTTP server, WebSockets and a
test client (``aiohttp.test_utils``), with no ASGI server to add and run
beside it; its ``AppRunner`` starts and stops on a loop we own, on a thread
we own, which is what living beside Kivy's loop needs.

Threads: everything here runs on the server's thread except the methods
marked "any thread", which hand their work over with
``loop.call_soon_threadsafe``. A phone's action leaves through ``submit``
(the controller's queue), never by touching the game.

What is never logged: tokens, codes, device keys, and what a phone sent or
was sent. The access log is off (and the page keeps the token in the URL's
fragment, which browsers never send to a server anyway).

What one guest cannot do (``limits`` has the numbers and why): hold more than
a few connections, keep a connection that never finishes its request, guess
codes for long, reset their refusals by reconnecting, flood the journal, or
reach the server from another site's page (the Host header and the
WebSocket's Origin are checked).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from .events import PhoneAction
from .limits import STRIKES, Gate, JoinGuard, QuietLog, Strikes
from .messages import Act, Hello, Ping, RateLimit, Refusal, parse
from .seats import SeatBook, SeatRefused

log = logging.getLogger(__name__)

PAGE = Path(__file__).with_name("page.html")
HELLO_WITHIN_S = 10.0
"""A connection that has not asked for a seat by then is closed."""
REFUSALS_BEFORE_CLOSE = STRIKES
"""Refusals of any kind (not JSON, binary, too fast, malformed, not yours, refused by the rules) before
the connection is closed; counted per connection and per seat (``limits.Strikes``)."""
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                                "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'"),
}


@dataclass
class Conn:
    ws: web.WebSocketResponse
    player: str | None = None
    limit: RateLimit = field(default_factory=RateLimit)
    """Before joining, this connection's own bucket; after, its seat's (a reconnect does not refill it)."""
    refusals: int = 0


class PhoneServer:
    def __init__(self, listen: list[str] | tuple[str, ...] = ("127.0.0.1",), port: int = 8470,
                 submit: Callable[[PhoneAction], None] | None = None, join_host: str = "") -> None:
        self.listen, self.port, self.join_host = list(listen), port, join_host
        self.submit = submit or (lambda event: None)
        """Where phone actions go (any thread may be called from here: the controller's ``receive``)."""
        self.book: SeatBook | None = None
        self.frames: dict[str, str] = {}
        """The last frame each player was sent, for a phone that joins or rejoins."""
        self.conns: dict[int, Conn] = {}
        self.rate = (10.0, 20)
        """Messages a second a phone may send on average, and in one burst (a person taps far slower)."""
        self.tap: Callable[[str, str], None] | None = None
        """Tests and benchmarks: called with (player, text) for every frame sent to a phone."""
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._next_conn = 0
        self.joins = JoinGuard()
        self.gate = Gate()
        self.strikes: dict[str, Strikes] = {}
        self.seat_limits: dict[str, RateLimit] = {}
        self.on_seat: Callable[[str, str], None] = lambda player, how: None
        """Called on the server's thread when a phone takes a seat: how is "joined" (the seat's first
        phone) or "took" (a new phone after the host freed the seat). A reload of the same phone is quiet."""
        self.answerable: Callable[[str, str], str | None] | None = None
        """UI thread (set by the bridge): why ``player`` may not answer ``action`` now, or None."""
        self._quiet = QuietLog()
        self._servers: list[asyncio.AbstractServer] = []
        self.page = PAGE.read_bytes()
        self.recaps: dict[str, bytes] = {}
        """Saved recaps a phone may read, by an unguessable token (``publish_recap``), newest last."""

    # -- the web app ----------------------------------------------------------

    def make_app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024, middlewares=[self._guard])
        app.router.add_get("/", self._page)
        app.router.add_get("/ws", self._socket)
        app.router.add_get("/recap/{token}", self._recap)
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler) -> web.StreamResponse:
        """Every request: its connection is marked as served, and its Host must be this kiosk's."""
        self.gate.mark(request.transport)
        if not self.host_ok(request.host):
            return web.Response(status=421, text="This address is not the table's.", headers=HEADERS)
        return await handler(request)

    def host_ok(self, host: str) -> bool:
        """Is ``host`` (a Host header) one this server answers to? An address it listens on, the
        join link's host, or localhost on loopback; any address literal when it listens on all.
        Another name is refused: a page of another site cannot reach the kiosk by DNS rebinding."""
        name = urlsplit(f"//{host}").hostname or ""
        allowed = {a.strip("[]").lower() for a in self.listen} | {self.join_host.strip("[]").lower()} - {""}
        if name in allowed:
            return True
        try:
            ip = ipaddress.ip_address(name)
        except ValueError:
            return name == "localhost" and any(_loopback(a) for a in self.listen)
        return any(a in ("0.0.0.0", "::", "") for a in self.listen) or (ip.is_loopback and any(_loopback(a) for a in self.listen))

    async def _recap(self, request: web.Request) -> web.Response:
        """A saved game's public story, for the QR code 'Save the log' shows (any phone with the link)."""
        body = self.recaps.get(request.match_info["token"])
        if body is None:
            return web.Response(status=404, text="No such recap (the kiosk keeps the last few).", headers=HEADERS)
        return web.Response(body=body, content_type="text/plain", charset="utf-8", headers=HEADERS)

    async def _page(self, request: web.Request) -> web.Response:
        return web.Response(body=self.page, content_type="text/html", charset="utf-8", headers=HEADERS)

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin and urlsplit(origin).netloc.lower() != request.host.lower():
            # A browser always sends Origin: a page of any other site is refused here.
            return web.Response(status=403, text="Phones join from the table's own page.", headers=HEADERS)
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=64 * 1024)
        await ws.prepare(request)
        self.gate.mark(request.transport, upgraded=True)
        self._next_conn += 1
        cid, conn = self._next_conn, Conn(ws, limit=RateLimit(*self.rate))
        self.conns[cid] = conn
        try:
            await self._serve(cid, conn, request.remote or "?")
        finally:
            self.conns.pop(cid, None)
            if self.book is not None:
                self.book.left(cid)
        return ws

    async def _serve(self, cid: int, conn: Conn, remote: str) -> None:
        ws = conn.ws
        deadline = time.monotonic() + HELLO_WITHIN_S
        while not ws.closed:
            timeout = None if conn.player else max(0.1, deadline - time.monotonic())
            try:
                msg = await ws.receive(timeout=timeout)
            except asyncio.TimeoutError:
                await self._close(ws, "No seat was asked for in time. Reload the page to try again.")
                return
            if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
                return
            await self._message(cid, conn, msg, remote)
            if self._too_many_refusals(conn):
                await self._close(ws, "Too many refused messages. Wait a minute, then reload the page to rejoin.")
                return

    async def _message(self, cid: int, conn: Conn, msg: Any, remote: str) -> None:
        """One frame from a phone: every way it can be refused goes through ``_refuse`` (and counts)."""
        if not conn.limit.allow():  # binary frames too: every frame costs
            await self._refuse(conn, None, "too many messages: wait a moment and try again")
            return
        if msg.type is not WSMsgType.TEXT:
            await self._refuse(conn, None, "messages must be JSON text")
            return
        try:
            message = parse(msg.data)
        except Refusal as err:
            await self._refuse(conn, None, str(err))
            return
        if isinstance(message, Ping):
            await self._send(conn, {"type": "pong"})
        elif isinstance(message, Hello):
            await self._hello(cid, conn, message, remote)
        elif isinstance(message, Act):
            self._act(cid, conn, message)

    def _too_many_refusals(self, conn: Conn) -> bool:
        seat = self.strikes.get(conn.player) if conn.player else None
        return conn.refusals >= REFUSALS_BEFORE_CLOSE or (seat is not None and seat.over)

    async def _hello(self, cid: int, conn: Conn, hello: Hello, remote: str) -> None:
        book = self.book
        wait = self.joins.wait_s(remote)
        if wait > 0:
            await self._refuse(conn, None, f"too many tries to join: wait {_minutes(wait)}", kind="join")
            return
        try:
            if book is None:
                raise SeatRefused("No game is on the table yet. Scan the code once the host has started one.")
            if conn.player is not None:
                raise SeatRefused(f"You are already in {conn.player}'s seat.")
            seat, device, replaced, how = book.claim(hello.token, hello.code, hello.device, cid)
        except SeatRefused as err:
            self.joins.fail(remote)
            await self._refuse(conn, None, str(err), kind="join")
            return
        if self.strikes.setdefault(seat.player, Strikes()).over:
            book.left(cid)
            await self._refuse(conn, None, "This seat's phone sent too many refused messages: "
                                           "wait a minute, then reload.", kind="join")
            return
        conn.player = seat.player
        conn.limit = self.seat_limits.setdefault(seat.player, RateLimit(*self.rate))
        if how != "back":
            self.on_seat(seat.player, how)
        old = self.conns.get(replaced) if replaced is not None else None
        if old is not None:  # the same phone, reloaded: the old page goes quiet
            old.player = None
            await self._close(old.ws, "This seat was opened again on this phone.")
        await self._send(conn, {"type": "welcome", "player": seat.player, "token": seat.token, "device": device})
        if seat.player in self.frames:
            await self._send_text(conn, self.frames[seat.player])

    def _act(self, cid: int, conn: Conn, act: Act) -> None:
        player = self.book.who(cid) if (self.book is not None and conn.player) else None
        if player is None:
            asyncio.ensure_future(self._refuse(conn, act.id, "join a seat first"))
            return
        self.submit(PhoneAction(player, {"type": act.action, **act.fields}, conn=cid, request=act.id,
                                allowed=self.answerable))

    # -- sending ---------------------------------------------------------------

    async def _send(self, conn: Conn, data: dict[str, Any]) -> None:
        await self._send_text(conn, json.dumps(data, default=str))

    async def _send_text(self, conn: Conn, text: str) -> None:
        if conn.ws.closed:
            return
        if self.tap is not None and conn.player is not None:
            self.tap(conn.player, text)
        try:
            await conn.ws.send_str(text)
        except (ConnectionError, RuntimeError):
            pass  # the phone went away; its seat waits for it

    async def _refuse(self, conn: Conn, request: int | None, reason: str, kind: str = "refused") -> None:
        """Tell one phone why not; every refusal counts toward closing it, for it and for its seat."""
        conn.refusals += 1
        if conn.player is not None:
            self.strikes.setdefault(conn.player, Strikes()).add()
        await self._send(conn, {"type": kind, "id": request, "reason": reason})

    async def _close(self, ws: web.WebSocketResponse, reason: str) -> None:
        if not ws.closed:
            try:
                await ws.send_str(json.dumps({"type": "ended", "reason": reason}))
            except (ConnectionError, RuntimeError):
                pass
            await ws.close()

    def _frame(self, player: str, frame: dict[str, Any]) -> None:
        text = json.dumps({"type": "state", **frame}, default=str)
        self.frames[player] = text
        for conn in list(self.conns.values()):
            if conn.player == player:
                asyncio.ensure_future(self._send_text(conn, text))

    def _reply(self, cid: int, request: int, error: str | None) -> None:
        conn = self.conns.get(cid)
        if conn is None:
            return
        if error is None:
            asyncio.ensure_future(self._send(conn, {"type": "done", "id": request}))
            return

        async def refuse() -> None:  # the rules' refusals count too
            await self._refuse(conn, request, error)
            if self._too_many_refusals(conn):
                await self._close(conn.ws, "Too many refused messages. Wait a minute, then reload the page to rejoin.")
        asyncio.ensure_future(refuse())

    def _drop(self, cids: list[int], reason: str) -> None:
        for cid in cids:
            conn = self.conns.get(cid)
            if conn is not None:
                conn.player = None
                asyncio.ensure_future(self._close(conn.ws, reason))

    # -- any thread ---------------------------------------------------------------

    def _call(self, fn: Callable, *args: Any) -> None:
        if self.loop is not None and self.loop.is_running():
            self.loop.call_soon_threadsafe(fn, *args)

    def use(self, book: SeatBook | None) -> None:
        """A new game's seats (or none): phones of the last game are told it has ended."""
        old, self.book = self.book, book  # at once, so the Join screen can show the new links

        def swap() -> None:  # on the server's thread, in order with the frames pushed before and after
            self.frames, self.strikes, self.seat_limits = {}, {}, {}
            if old is not None:
                self._drop(old.close(), "This game has ended.")
        self._call(swap)

    def push(self, player: str, frame: dict[str, Any]) -> None:
        """Send ``frame`` (built from that player's view) to ``player``'s phone, now and on rejoin."""
        self._call(self._frame, player, frame)

    def reply(self, cid: int, request: int, error: str | None) -> None:
        """Tell one phone whether its action was taken (``error`` None) or why not."""
        self._call(self._reply, cid, request, error)

    def free(self, player: str) -> None:
        """The host frees a seat: its phone is let go and the old link stops working."""
        book = self.book
        if book is not None:
            cid = book.free(player)

            def forget() -> None:  # the next phone in this seat starts with a clean slate
                self.strikes.pop(player, None)
                self.seat_limits.pop(player, None)
                if cid is not None:
                    self._drop([cid], "The host freed this seat with the operator PIN, so this phone no longer "
                                      "holds it. Ask for your seat's code on the table to join again.")
            self._call(forget)

    def end(self, reason: str = "This game has ended.") -> None:
        """The game is over: close every phone; no token works any more."""
        book = self.book
        if book is not None:
            self._call(self._drop, book.close(), reason)

    def join_url(self, player: str) -> str | None:
        book = self.book
        if book is None or player not in book.seats:
            return None
        return f"{self.base_url()}/#{book.seat(player).token}"

    RECAPS_KEPT = 20

    def publish_recap(self, text: str) -> str:
        """Any thread: offer ``text`` (a recap: the public story only) at an unguessable link,
        returned; the last ``RECAPS_KEPT`` stay readable, older ones are dropped."""
        import secrets

        token = secrets.token_urlsafe(16)
        self.recaps[token] = text.encode("utf-8")
        for old in list(self.recaps)[:-self.RECAPS_KEPT]:
            self.recaps.pop(old, None)
        return f"{self.base_url()}/recap/{token}"

    def base_url(self) -> str:
        host = self.join_host or self.listen[0]
        host = f"[{host}]" if ":" in host and not host.startswith("[") else host
        return f"http://{host}:{self.port}"

    def connected(self) -> set[str]:
        return {c.player for c in list(self.conns.values()) if c.player}

    # -- starting and stopping -----------------------------------------------------------

    def start(self) -> None:
        """Start serving on a thread of its own; raises ``OSError`` if an address cannot be used."""
        started: Future = Future()
        self._thread = threading.Thread(target=self._run, args=(started,), name="phones", daemon=True)
        self._thread.start()
        started.result(timeout=15)

    def _run(self, started: Future) -> None:
        loop = self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._open())
        except BaseException as err:  # noqa: BLE001 - handed to start()
            started.set_exception(err)
            loop.close()
            self.loop = None
            return
        started.set_result(None)
        loop.run_forever()
        loop.run_until_complete(self._close_servers())
        self._quiet.remove()
        loop.close()

    async def _open(self) -> None:
        """Listen on each address, every connection through the ``Gate`` before aiohttp's protocol."""
        runner = self._runner = web.AppRunner(self.make_app(), access_log=None, handle_signals=False,
                                              shutdown_timeout=0.5)
        await runner.setup()
        handler = runner.server
        assert handler is not None  # setup() made it
        loop = asyncio.get_running_loop()
        try:
            for address in self.listen:
                server = await loop.create_server(self.gate.protocol(handler), address, self.port,
                                                  reuse_address=True, backlog=128)
                self._servers.append(server)
                if self.port == 0:  # tests: the port the system gave us, for every address after
                    self.port = server.sockets[0].getsockname()[1]
        except BaseException:
            await self._close_servers()
            raise
        self._quiet.install()

    async def _close_servers(self) -> None:
        for server in self._servers:
            server.close()
        self._servers = []
        if self._runner is not None:
            await self._runner.cleanup()

    def stop(self) -> None:
        loop = self.loop
        if loop is None:
            return
        async def close_all() -> None:
            for conn in list(self.conns.values()):
                await self._close(conn.ws, "The table is closing.")
        try:
            asyncio.run_coroutine_threadsafe(close_all(), loop).result(timeout=3)
        except Exception:  # noqa: BLE001 - closing anyway
            pass
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.loop = None


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.strip("[]")).is_loopback
    except ValueError:
        return address == "localhost"


def _minutes(seconds: float) -> str:
    minutes = max(1, round(seconds / 60))
    return "a minute" if minutes == 1 else f"{minutes} minutes"
