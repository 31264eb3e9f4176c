"""What keeps one guest on the Wi-Fi from starving the phone server, and the numbers behind it.

Four guards, each small enough to read on its own:

* ``Gate``: every TCP connection passes it before aiohttp sees a byte. At most
  ``PER_ADDRESS`` open connections from one address and ``TOTAL`` in all (a
  connection over the cap is closed at once, so it never holds a file); a
  connection that has not finished its first request within ``HANDSHAKE_S`` is
  closed (half-open and trickled requests); a plain HTTP connection (not a
  WebSocket) lives at most ``PLAIN_S``. WebSockets that never join are closed
  by the server after ``server.HELLO_WITHIN_S``.
* ``JoinGuard``: failed joins (wrong code, held seat, dead link) per address:
  ``JOIN_TRIES`` in any minute, then a lockout that doubles each time, up to an hour.
* ``Strikes``: refusals counted per seat, forgiven slowly, so reconnecting with
  the seat's device key does not start a hostile phone over.
* ``QuietLog``: at most ``LOG_LINES`` lines a minute from each logger it guards,
  then one line saying how many were held back (a flood cannot fill the journal).

Why these numbers (docs/security.md says the same): a phone needs one
WebSocket and, while its page loads, up to 6 HTTP connections (a browser's
per-host limit), so 16 per address leaves room for a reload; 8 players' phones
need about 60 at once at worst, so 128 in all, well under the unit's
``LimitNOFILE=4096``. A phone on the kiosk's Wi-Fi finishes its request in
milliseconds, so 5 s to send the first request is generous.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, deque
from typing import Any, Callable

PER_ADDRESS = 16
TOTAL = 128
HANDSHAKE_S = 5.0
PLAIN_S = 30.0
JOIN_TRIES = 20
LOCKOUT_S = 60.0
LOCKOUT_MAX_S = 3600.0
STRIKES = 50
FORGIVE_EVERY_S = 6.0
LOG_LINES = 10

log = logging.getLogger(__name__)


class Gate:
    """Counts the open connections by address and closes what is over the caps or too slow."""

    def __init__(self, per_address: int = PER_ADDRESS, total: int = TOTAL,
                 handshake_s: float = HANDSHAKE_S, plain_s: float = PLAIN_S) -> None:
        self.per_address, self.total, self.handshake_s, self.plain_s = per_address, total, handshake_s, plain_s
        self.open: Counter[str] = Counter()
        self.live: dict[Any, Guarded] = {}
        """Open transports and their guards, so a request handler can mark its connection."""
        self.turned_away = 0

    def protocol(self, make: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        """A protocol factory for ``loop.create_server`` wrapping aiohttp's own."""
        return lambda: Guarded(self, make)

    def mark(self, transport: Any, upgraded: bool = False) -> None:
        """A request reached a handler on this connection (and it became a WebSocket, if ``upgraded``)."""
        guarded = self.live.get(transport)
        if guarded is not None:
            guarded.served = True
            guarded.upgraded = guarded.upgraded or upgraded

    def count(self) -> int:
        return sum(self.open.values())


class Guarded(asyncio.Protocol):
    """One connection: aiohttp's protocol inside, made only if the caps allow the connection."""

    def __init__(self, gate: Gate, make: Callable[[], asyncio.Protocol]) -> None:
        self.gate, self.make = gate, make
        self.inner: Any = None
        self.address = "?"
        self.served = self.upgraded = False
        self._timers: list[asyncio.TimerHandle] = []

    def connection_made(self, transport: Any) -> None:
        gate = self.gate
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        if gate.open[self.address] >= gate.per_address or gate.count() >= gate.total:
            gate.turned_away += 1
            log.warning("phones: turned away a connection from %s (%d open from it, %d in all)",
                        self.address, gate.open[self.address], gate.count())
            transport.abort()
            return
        gate.open[self.address] += 1
        gate.live[transport] = self
        self.transport = transport
        loop = asyncio.get_running_loop()
        self._timers = [loop.call_later(gate.handshake_s, self._expire, False),
                        loop.call_later(gate.plain_s, self._expire, True)]
        self.inner = self.make()
        self.inner.connection_made(transport)

    def _expire(self, plain: bool) -> None:
        """Close a connection that sent no whole request in time, or a plain one past its life."""
        if (plain and not self.upgraded) or (not plain and not self.served):
            self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.inner is None:
            return
        for timer in self._timers:
            timer.cancel()
        gate = self.gate
        gate.live.pop(self.transport, None)
        gate.open[self.address] -= 1
        if gate.open[self.address] <= 0:
            del gate.open[self.address]
        self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()


class JoinGuard:
    """Failed joins by address: ``tries`` in any minute, then a lockout that doubles each time."""

    def __init__(self, tries: int = JOIN_TRIES, clock: Callable[[], float] = time.monotonic) -> None:
        self.tries, self.clock = tries, clock
        self.failed: dict[str, deque[float]] = {}
        self.until: dict[str, float] = {}
        self.lockouts: Counter[str] = Counter()

    def wait_s(self, address: str) -> float:
        """Seconds before ``address`` may try again (0: now)."""
        return max(0.0, self.until.get(address, 0.0) - self.clock())

    def fail(self, address: str) -> None:
        now = self.clock()
        recent = self.failed.setdefault(address, deque())
        recent.append(now)
        while recent and now - recent[0] >= 60:
            recent.popleft()
        if len(recent) >= self.tries:
            self.lockouts[address] += 1
            self.until[address] = now + min(LOCKOUT_MAX_S, LOCKOUT_S * 2 ** (self.lockouts[address] - 1))
            recent.clear()
        if len(self.failed) > 4096:  # a bounded memory, whatever the number of addresses
            for old in list(self.failed)[:1024]:
                self.failed.pop(old, None)


class Strikes:
    """Refusals of one seat, one forgiven every ``forgive_s``; at ``limit`` its phone is closed."""

    def __init__(self, limit: int = STRIKES, forgive_s: float = FORGIVE_EVERY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.forgive_s, self.clock = limit, forgive_s, clock
        self.count, self.last = 0.0, clock()

    def _decay(self) -> None:
        now = self.clock()
        self.count = max(0.0, self.count - (now - self.last) / self.forgive_s)
        self.last = now

    def add(self) -> None:
        self._decay()
        self.count += 1

    @property
    def over(self) -> bool:
        self._decay()
        return self.count >= self.limit


class QuietLog(logging.Filter):
    """At most ``lines`` records a minute from each guarded logger; the next one says how many were held back."""

    LOGGERS = ("aiohttp.server", "aiohttp.web", "aiohttp.websocket", "aiohttp.access", "asyncio",
               "kiosk.phones.server", "kiosk.phones.limits")

    def __init__(self, lines: int = LOG_LINES, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.lines, self.clock = lines, clock
        self.window: dict[str, tuple[float, int, int]] = {}
        """Logger name -> (start of its minute, lines let through, lines held back)."""

    def filter(self, record: logging.LogRecord) -> bool:
        now = self.clock()
        start, passed, held = self.window.get(record.name, (now, 0, 0))
        if now - start >= 60:
            if held:
                record.msg = f"{record.msg} [{held} more lines like these were held back in the last minute]"
            start, passed, held = now, 0, 0
        if passed >= self.lines:
            self.window[record.name] = (start, passed, held + 1)
            return False
        self.window[record.name] = (start, passed + 1, held)
        return True

    def install(self) -> None:
        for name in self.LOGGERS:
            logging.getLogger(name).addFilter(self)

    def remove(self) -> None:
        for name in self.LOGGERS:
            logging.getLogger(name).removeFilter(self)


def export_problem(err: OSError, folder: Any) -> str:
    """What the table is told when "Save the log" cannot write: what went wrong, in words, and that
    nothing of the game is lost (every action is in the kiosk's database already)."""
    import errno

    why = {errno.EMFILE: "the kiosk has too many files open (many connections at once?)",
           errno.ENFILE: "the system has too many files open",
           errno.ENOSPC: "the storage is full",
           errno.EDQUOT: "the storage is full",
           errno.EROFS: "the storage is read-only",
           errno.EACCES: "the kiosk may not write there",
           errno.EPERM: "the kiosk may not write there",
           errno.ENOENT: "the folder is missing (a removed USB stick?)",
           errno.EIO: "the storage reported an error"}.get(err.errno or 0, err.strerror or str(err))
    return (f"The log was not saved: {why} ({err.filename or folder}). Nothing of the game is lost: "
            "it is all in the kiosk's database. Try again in a moment, or ask the operator.")
