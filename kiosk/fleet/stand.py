"""The kiosk's side of the fleet: read the table on the UI thread, hand it to the publisher.

Once a second (a Kivy Clock interval) ``StandReporter.tick`` reads what it needs
from the app: which screen is up, the game on it (its id, whether it is over),
the tray's link and the faults the home screen names. That costs a few attribute
reads. Changes become events (a game started or finished, the tray unplugged or
back, a new fault); every ``status_every_s`` seconds, and at once after an event,
the status is built, the game's part from the **public** view only
(``session.view(None)``: its phase; the number of players, never who).

Faults the hardware reports as they happen (a stuck button, a tray's fault line)
come from the controller's ``on_handled`` listeners, as the screen's message does,
and leave at once as events (with less than the screen said: which pad, not which
button).

Everything leaves through ``StandPublisher.status``/``event``, which only queue:
the UI thread never waits for the disk or the network here.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .messages import FAULTS_KEPT, fault_text, identifier
from .publisher import StandPublisher

log = logging.getLogger(__name__)


@dataclass
class Reading:
    """What one tick read from the app (nothing the shared screen does not show)."""

    screen: str = "home"
    sid: int | None = None
    game: str | None = None
    over: bool = False
    lesson: bool = False
    """The game on screen is a lesson (its coach is up: docs/lessons.md)."""
    players: int | None = None
    tray: str = ""
    tray_down: bool = False
    faults: list[str] = field(default_factory=list)


def read(app: Any) -> Reading:
    """The app as the reporter sees it; every part read defensively (a half-started kiosk has
    no controller yet, and other work changes the app while this runs beside it)."""
    r = Reading(screen=str(getattr(getattr(app, "sm", None), "current", "home")))
    runner = getattr(app, "runner", None)
    if runner is not None:
        r.sid, r.game = getattr(runner, "sid", None), identifier(runner.engine.game)
        r.over = runner.outcome is not None
        r.players = len(runner.players())
        r.lesson = getattr(app, "coach", None) is not None
    controller = getattr(app, "controller", None)
    tray = getattr(controller, "tray_state", None)
    if tray is not None:
        r.tray = tray.link_text
        r.tray_down = bool(tray.expected and not tray.connected)
    faults = list(getattr(app, "hardware_problems", None) or [])
    if getattr(app, "phones_problem", None):
        faults.append(app.phones_problem)
    if r.tray_down:
        faults.append(f"Tray unplugged ({r.tray}).")
    r.faults = [fault_text(f) for f in faults][:FAULTS_KEPT]
    return r


def state_of(r: Reading) -> str:
    if r.screen == "attract":
        return "attract"
    if r.screen in ("operator", "hwsetup", "bench"):
        return "operator"
    if r.screen == "play" and r.game is not None and not r.over:
        return "lesson" if r.lesson else "playing"
    return "idle"


class StandReporter:
    def __init__(self, app: Any, publisher: StandPublisher, every_s: float) -> None:
        self.app, self.publisher, self.every_s = app, publisher, every_s
        self.last: Reading | None = None
        self._next_status = 0.0
        self._started: dict[int, float] = {}  # when each game was first seen on screen (monotonic)
        self.clock: Any = None  # the Kivy interval that calls tick
        self._controller: Any = None  # the controller whose on_handled we listen to

    def close(self) -> None:
        """Stop reading and publishing; the stand says "offline" itself (its will is for a death)."""
        if self.clock is not None:
            self.clock.cancel()
        self._listen_to(None)
        self.publisher.close()

    def _listen_to(self, controller: Any) -> None:
        """Listen to ``controller``'s handled events (the kiosk makes a new one when the hardware
        is opened again), and to no other."""
        if controller is self._controller:
            return
        if self._controller is not None and self._handled in self._controller.on_handled:
            self._controller.on_handled.remove(self._handled)
        if controller is not None and isinstance(getattr(controller, "on_handled", None), list):
            controller.on_handled.append(self._handled)
        self._controller = controller

    def _handled(self, handled: Any) -> None:
        """A hardware event the controller took (UI thread): a fault leaves at once, as an event."""
        event = handled.event
        kind = type(event).__name__
        if kind == "ButtonStuck":
            self.publisher.event("fault", detail=f"Pad {int(event.player)}: a button seems stuck.")
        elif kind == "HardwareFault":
            self.publisher.event("fault", detail=fault_text(f"{event.source}: {event.message}"))

    def tick(self, *_: Any) -> None:
        """One reading; events for what changed since the last; the status when due (UI thread)."""
        try:
            self._listen_to(getattr(self.app, "controller", None))
            now, events = self.read_and_compare()
            if events or now >= self._next_status:
                self._next_status = now + self.every_s
                self.publisher.status(self.status())
        except Exception as err:  # noqa: BLE001 - the fleet must never take the kiosk down
            log.warning("fleet: the table was not read: %s", err)

    def read_and_compare(self) -> tuple[float, int]:
        now, r, before = time.monotonic(), read(self.app), self.last
        self.last = r
        events = 0
        if before is None:
            self.publisher.event("stand_started")
            events += 1
            before = Reading(tray=r.tray)
        if r.sid is not None and r.sid != before.sid and not r.over:
            self._started[r.sid] = now
            self.publisher.event("lesson_started" if r.lesson else "game_started", game=r.game, players=r.players)
            events += 1
        if r.sid is not None and r.over and not (before.sid == r.sid and before.over):
            began = self._started.pop(r.sid, None)
            self.publisher.event("lesson_finished" if r.lesson else "game_finished", game=r.game, players=r.players,
                                 length_s=None if began is None else int(now - began))
            events += 1
        if r.tray_down and not before.tray_down:
            self.publisher.event("tray_unplugged")
            events += 1
        elif before.tray_down and not r.tray_down:
            self.publisher.event("tray_back")
            events += 1
        for fault in r.faults:
            if fault not in before.faults and not fault.startswith("Tray unplugged"):
                self.publisher.event("fault", detail=fault)
                events += 1
        return now, events

    def status(self) -> dict[str, Any]:
        """The status's table part, from the reading and the game's public view."""
        r = self.last or read(self.app)
        table: dict[str, Any] = {"state": state_of(r), "tray": r.tray, "faults": r.faults}
        runner = getattr(self.app, "runner", None)
        if runner is not None and r.game is not None and r.screen == "play":
            public = runner.session.view(None, awaiting=False)  # what the shared screen may show, no more
            table.update(game=r.game, title=str(runner.engine.title)[:60], phase=identifier(public.get("phase")),
                         players=r.players)
        return table


def open_stand(app: Any, data_folder: Path) -> StandReporter | None:
    """Start reporting if the config names a broker (else None). Called after the first frame;
    returns at once (the connection is made on paho's thread)."""
    cfg = app.config_hw.fleet
    if not cfg.broker:
        return None
    from kivy.clock import Clock

    def problem(text: str | None) -> None:  # on the worker thread: the message is shown on the UI thread
        if text:
            Clock.schedule_once(lambda dt: app.message(text), 0)

    store_path = getattr(getattr(app, "store", None), "path", None)
    try:
        publisher = StandPublisher(cfg, data_folder / "fleet-outbox.sqlite3", store_path, on_problem=problem)
        publisher.start()
    except Exception as err:  # noqa: BLE001 - a CA file gone since the config was read: say so, play on
        log.error("fleet: not started: %s", err)
        app.message(f"Fleet: not reporting to {cfg.broker}: {err}. The stand plays on.")
        return None
    reporter = StandReporter(app, publisher, cfg.status_every_s)
    reporter.clock = Clock.schedule_interval(reporter.tick, 1.0)
    return reporter
