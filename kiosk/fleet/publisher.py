"""The stand's MQTT client: paho-mqtt's network thread, and one worker thread of ours.

Why paho-mqtt: the Eclipse project's client, pure Python, with the last will, TLS,
user names, automatic reconnection with back-off and QoS 1 re-sending after a
reconnect built in; its network loop runs on a thread of its own (``loop_start``),
which is what living beside Kivy's loop needs (aiomqtt would need an asyncio loop
on yet another thread).

Threads: the kiosk calls ``status`` and ``event`` on its UI thread; they only put a
message on a queue and return (never a disk write, never the network). The worker
thread owns everything else: the outbox file, the counts read from the session store,
and what is sent. paho's callbacks (on its network thread) are queued to the worker
too, so no state here is touched by two threads.

Order and once: one event is in flight at a time. The next leaves only when the
broker has acknowledged the one before (PUBACK), so events arrive in the order they
happened; after a dropped connection paho sends the unacknowledged one again (QoS 1),
and a reader drops a ``seq`` it has already seen.
"""

from __future__ import annotations

import logging
import os
import queue
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable

import paho.mqtt.client as mqtt

from kiosk.store import local_day

from .messages import Event, Status, Today, events_topic, offline, status_topic
from .outbox import Outbox

log = logging.getLogger(__name__)


def stop_network(client: mqtt.Client) -> None:
    """Stop paho's network thread and close its sockets now, not when the client is collected.

    ``loop_stop`` leaves open the pair of sockets that wakes paho's loop, and the broker's
    socket too when it stops the loop in the middle of a connection (paho-mqtt 2.x, issue
    627 upstream): they close only in the client's ``__del__``. Our clients sit in reference
    cycles (their callbacks hold their owners), so the collector finalises them, sometimes
    the sockets first, and each then warns it was left open; a stand that restarts its
    publisher would hold three more descriptors each time. Paho has no public way to close
    them; ``_reset_sockets`` is the clean-up its own ``__del__`` calls."""
    client.loop_stop()
    client._reset_sockets()


class StandPublisher:
    """Publish one stand's status and events to the broker its ``[fleet]`` config names.

    ``on_problem(text)`` is called (on the worker thread) with a sentence for the operator
    when the broker refuses the stand or cannot be reached, once per distinct problem;
    ``on_problem(None)`` once it connects again. ``tap(topic, payload)``: tests see every
    message as it is handed to the broker.
    """

    def __init__(self, cfg: Any, outbox_path: str | Path, store_path: str | Path | None = None,
                 on_problem: Callable[[str | None], None] | None = None,
                 reconnect_s: tuple[int, int] = (1, 30), keepalive_s: int = 30) -> None:
        self.cfg = cfg
        self.outbox_path, self.store_path = Path(outbox_path), (Path(store_path) if store_path else None)
        self.on_problem = on_problem or (lambda text: None)
        self.tap: Callable[[str, str], None] | None = None
        self.problem: str | None = None
        self.connected = threading.Event()
        self.status_topic, self.events_topic = status_topic(cfg.topic, cfg.stand), events_topic(cfg.topic, cfg.stand)
        self.started = time.monotonic()
        self.keepalive_s = keepalive_s
        self._queue: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
        self._latest: dict[str, Any] | None = None  # the UI thread's last reading of the table
        self._waiting_status: dict[str, Any] | None = None  # a newer reading, not yet taken by the worker
        self._status_lock = threading.Lock()
        self._last_event: dict[str, Any] | None = None
        self._inflight: tuple[int, int] | None = None  # (seq, mid) of the event the broker has not acknowledged
        self._outbox: Outbox | None = None
        self._counts: sqlite3.Connection | None = None
        self._counts_failed = False
        self._thread = threading.Thread(target=self._work, name=f"fleet-{cfg.stand}", daemon=True)
        self.client = self._make_client(reconnect_s)

    def _make_client(self, reconnect_s: tuple[int, int]) -> mqtt.Client:
        cfg = self.cfg
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"table-noir-stand-{cfg.stand}",
                             protocol=mqtt.MQTTv311, clean_session=True)
        if cfg.username:
            client.username_pw_set(cfg.username, cfg.password or None)
        if cfg.tls:
            client.tls_set(ca_certs=cfg.ca_file or None)
        client.will_set(self.status_topic, offline(cfg.stand, cfg.status_every_s).model_dump_json(), qos=1, retain=True)
        client.reconnect_delay_set(*reconnect_s)
        client.on_connect = lambda c, u, flags, reason, props: self._post("connect", reason)
        client.on_connect_fail = lambda c, u: self._post("unreachable", None)
        client.on_disconnect = lambda c, u, flags, reason, props: self._post("disconnect", reason)
        client.on_publish = lambda c, u, mid, reason, props: self._post("published", mid)
        return client

    # -- any thread ---------------------------------------------------------------------------

    def start(self) -> None:
        """Start the worker and the connection; returns at once (the broker may be far or down)."""
        self._thread.start()
        self.client.connect_async(self.cfg.broker, self.cfg.port, keepalive=self.keepalive_s)
        self.client.loop_start()

    def status(self, table: dict[str, Any]) -> None:
        """The table as the UI thread read it (see ``kiosk.fleet.stand``): published as the status.
        Readings the worker has not taken yet are replaced, never piled up: only the newest matters."""
        with self._status_lock:
            wake = self._waiting_status is None
            self._waiting_status = table
        if wake:
            self._post("status", None)

    def event(self, kind: str, **fields: Any) -> None:
        """Something happened: it waits in the outbox until the broker has it."""
        now = time.time()
        self._post("event", {"kind": kind, "at": round(now, 3), "day": local_day(now), **fields})

    def close(self, timeout: float = 5.0) -> None:
        """Say "offline" (a clean stop sends no will), disconnect and stop both threads."""
        if self._thread.is_alive():
            self._post("stop", None)
            self._thread.join(timeout)
        stop_network(self.client)

    def _post(self, kind: str, data: Any) -> None:
        """Hand over to the worker. Never blocks, and nothing is dropped: statuses are folded into
        one (``status``), events are rare, and paho's callbacks come one per message sent."""
        self._queue.put((kind, data))

    # -- the worker thread ------------------------------------------------------------------------

    def _work(self) -> None:
        try:
            self._outbox = Outbox(self.outbox_path, self.cfg.queue_max)
        except sqlite3.Error as err:  # a full or read-only disk: events still go, but not across a restart
            self._problem(f"Fleet: cannot keep events in {self.outbox_path} ({err}); they are kept in memory "
                          "until the broker has them, and lost if the kiosk restarts first.")
            self._outbox = Outbox(":memory:", self.cfg.queue_max)
        try:
            while True:
                kind, data = self._queue.get()
                if kind == "stop":
                    self._say_offline()
                    return
                try:
                    self._handle(kind, data)
                except Exception as err:  # noqa: BLE001 - one bad message must not end the stand's reporting
                    log.error("fleet: not handled (%s): %s", kind, err)
        finally:
            self._outbox.close()
            if self._counts is not None:
                self._counts.close()

    def _handle(self, kind: str, data: Any) -> None:
        assert self._outbox is not None
        if kind == "status":
            with self._status_lock:
                self._latest, self._waiting_status = self._waiting_status or self._latest, None
            self._send_status()
        elif kind == "event":
            # Checked before it is kept, and kept as the model writes it: a field the model does not
            # hold is never stored, let alone published (kiosk.fleet.messages: the privacy rule).
            event = Event.model_validate(data).model_dump(mode="json", exclude_none=True, exclude={"seq", "boot"})
            self._last_event = self._outbox.put(self.events_topic, event)
            self._send_next()
        elif kind == "published":
            if self._inflight is not None and self._inflight[1] == data:
                self._outbox.done(self._inflight[0])
                self._inflight = None
                self._send_next()
        elif kind == "connect":
            if data.is_failure:
                self.connected.clear()
                self._problem(f"Fleet: the broker at {self.cfg.broker}:{self.cfg.port} refused this stand "
                              f"({str(data).lower()}). Check [fleet] username and password in table-noir.toml "
                              f"against the broker's password file. The stand plays on; its news waits.")
                return
            self.connected.set()
            self._problem(None)
            log.info("fleet: connected to %s:%s as %s", self.cfg.broker, self.cfg.port, self.cfg.stand)
            self._send_status()
            self._send_next()
        elif kind == "disconnect":
            if self.connected.is_set():
                log.info("fleet: lost the broker (%s); the stand plays on, events wait", data)
            self.connected.clear()
        elif kind == "unreachable":
            self.connected.clear()
            tls = " (TLS: check that [fleet] ca_file signed the broker's certificate, made for that name)" \
                if self.cfg.tls else ""
            self._problem(f"Fleet: cannot reach the broker at {self.cfg.broker}:{self.cfg.port}{tls}. "
                          "The stand plays on and sends its news when the broker is back.")

    def _problem(self, text: str | None) -> None:
        if text != self.problem:
            self.problem = text
            if text:
                log.warning("%s", text)
            self.on_problem(text)

    def _publish(self, topic: str, payload: str, retain: bool) -> int:
        if self.tap is not None:
            self.tap(topic, payload)
        return int(self.client.publish(topic, payload, qos=1, retain=retain).mid)

    def _send_status(self) -> None:
        """The latest reading, with what the worker adds, retained; only while connected
        (a status that waited would be old news: the next one replaces it)."""
        if self._latest is None or not self.connected.is_set():
            return
        assert self._outbox is not None
        status = Status.model_validate({
            **self._latest, "stand": self.cfg.stand, "at": round(time.time(), 3), "every_s": self.cfg.status_every_s,
            "uptime_s": int(time.monotonic() - self.started), "memory_mb": memory_mb(), "today": self._today(),
            "last_event": self._last_event, "queued": len(self._outbox), "dropped": self._outbox.dropped,
        })
        self._publish(self.status_topic, status.model_dump_json(exclude_none=True), retain=True)

    def _send_next(self) -> None:
        """The oldest waiting event, if none is in flight and the broker is there."""
        assert self._outbox is not None
        if self._inflight is not None or not self.connected.is_set():
            return
        oldest = self._outbox.oldest()
        if oldest is not None:
            seq, topic, payload = oldest
            self._inflight = (seq, self._publish(topic, payload, retain=False))

    def _say_offline(self) -> None:
        if self.connected.is_set():
            info = self.client.publish(self.status_topic, offline(self.cfg.stand, self.cfg.status_every_s)
                                       .model_dump_json(exclude_none=True), qos=1, retain=True)
            try:
                info.wait_for_publish(timeout=2)
            except (RuntimeError, ValueError):
                pass  # the connection went as we closed: the will says it instead
        self.client.disconnect()

    def _today(self) -> dict[str, Any] | None:
        """Today's games on this stand, read from the session store on a read-only connection
        of the worker's own (WAL lets it read while the kiosk writes). None if there is no store."""
        if self.store_path is None or not self.store_path.exists():
            return None
        try:
            if self._counts is None:
                self._counts = sqlite3.connect(f"file:{self.store_path}?mode=ro", uri=True)
            return today_counts(self._counts, time.time()).model_dump()
        except sqlite3.Error as err:
            if not self._counts_failed:  # once: the same failure every ten seconds tells nothing new
                log.warning("fleet: today's counts not read: %s", err)
            self._counts_failed = True
            return None


def today_counts(db: sqlite3.Connection, now: float) -> Today:
    """Games started today (the stand's clock), how many finished or were given up, lessons,
    and the average length of the finished games.

    A store of schema 4 or later keeps play counts of its own (the ``plays`` table, the
    operator menu's numbers; lessons apart, kept when old games are deleted): they are
    used when there. An older store is counted from its sessions (lessons among the games)."""
    day = time.localtime(now)
    midnight = time.mktime((day.tm_year, day.tm_mon, day.tm_mday, 0, 0, 0, 0, 0, -1))
    started, finished, abandoned, average = db.execute(
        "SELECT COUNT(*), COUNT(outcome), COUNT(abandoned), AVG(CASE WHEN outcome IS NOT NULL THEN updated - started END) "
        "FROM sessions WHERE started >= ?", (midnight,)).fetchone()
    lessons = 0
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'plays'").fetchone():
        started, finished, lessons, average = db.execute(
            "SELECT COALESCE(SUM(kind = 'game'), 0), COALESCE(SUM(kind = 'game' AND finished IS NOT NULL), 0), "
            "COALESCE(SUM(kind = 'lesson'), 0), "
            "AVG(CASE WHEN kind = 'game' AND finished IS NOT NULL THEN finished - started END) "
            "FROM plays WHERE day = ?", (local_day(now),)).fetchone()
    return Today(day=local_day(now), started=started, finished=finished, abandoned=abandoned, lessons=lessons,
                 average_s=None if average is None else int(average))


def memory_mb() -> float | None:
    """This process's resident memory in MB (Linux), else None."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return round(pages * os.sysconf("SC_PAGE_SIZE") / 1e6, 1)
