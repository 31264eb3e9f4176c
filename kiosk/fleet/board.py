"""What the organiser's page shows, built from the messages the stands publish.

``Board`` takes every message under the fleet's topic prefix (``message``) and keeps,
per stand, its last status, when it came, its last few events and the numbers of the
events already seen (a repeat, which QoS 1 allows, is dropped); per day and stand, the
stand's own counts from its status (``today``: read from its session store, so they
are right even for a page started in the afternoon). ``view`` is all of it as JSON
for the page, with the ages worked out on the organiser's clock.

A stand is **stale** when its last status is older than three of its own intervals
(``every_s``): a frozen kiosk, a cable pulled out of a switch, a broker that lost it
without noticing yet. **Offline** is what its last will (or its goodbye) says.

Anything that is not a valid message is ignored (and counted): the page never shows
what it could not check. Runs on one thread (the page's asyncio loop).
"""

from __future__ import annotations

import json
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from .messages import Event, Status, Today, parse_topic

EVENTS_KEPT = 10
STALE_AFTER = 3
"""A status older than this many of the stand's own intervals marks the stand stale."""


@dataclass
class StandCard:
    name: str
    status: Status | None = None
    received: float = 0.0
    retained: bool = False
    """The status came as the broker's retained copy (sent before the page subscribed)."""
    events: deque[Event] = field(default_factory=lambda: deque(maxlen=EVENTS_KEPT))
    seen: dict[str, int] = field(default_factory=dict)
    """The highest event number seen from each outbox (``boot``)."""


class Board:
    def __init__(self, prefix: str = "table-noir") -> None:
        self.prefix = prefix
        self.stands: dict[str, StandCard] = {}
        self.days: dict[tuple[str, str], Today] = {}
        self.ignored = 0
        self.changes = 0
        """Counts every change, so the page is sent the board only when something moved."""
        self.problem: str | None = None
        """The organiser's own connection trouble, for a banner on the page."""

    def message(self, topic: str, payload: bytes | str, retained: bool = False, now: float | None = None) -> bool:
        """Take one MQTT message; True if the board changed."""
        now = time.time() if now is None else now
        where = parse_topic(self.prefix, topic)
        if where is None:
            self.ignored += 1
            return False
        name, kind = where
        if kind == "status" and not payload:  # the retained status cleared: a stand taken out of the fleet
            gone = self.stands.pop(name, None) is not None
            self.changes += gone
            return gone
        try:
            data = json.loads(payload)
            if kind == "status":
                changed = self._status(name, Status.model_validate(data), retained, now)
            else:
                changed = self._event(name, Event.model_validate(data))
        except (ValueError, ValidationError):
            self.ignored += 1
            return False
        self.changes += changed
        return changed

    def _card(self, name: str) -> StandCard:
        return self.stands.setdefault(name, StandCard(name))

    def _status(self, name: str, status: Status, retained: bool, now: float) -> bool:
        if status.stand != name:  # a stand may only speak for itself
            self.ignored += 1
            return False
        card = self._card(name)
        # A retained status may be old: it dates from when the stand sent it (never later than now).
        card.status, card.received, card.retained = status, min(status.at, now) if retained else now, retained
        if status.last_event is not None and not card.events:
            card.events.append(status.last_event)
        if status.today is not None:
            self.days[(status.today.day, name)] = status.today
        return True

    def _event(self, name: str, event: Event) -> bool:
        card = self._card(name)
        if event.seq and event.seq <= card.seen.get(event.boot, 0):
            return False  # QoS 1 delivered it again
        card.seen[event.boot] = max(event.seq, card.seen.get(event.boot, 0))
        if card.events and card.events[-1].seq == event.seq and card.events[-1].boot == event.boot:
            return False  # already known from the status's last_event
        card.events.append(event)
        return True

    def view(self, now: float | None = None) -> dict[str, Any]:
        """The board as the page draws it."""
        now = time.time() if now is None else now
        stands = []
        for name in sorted(self.stands):
            card = self.stands[name]
            s = card.status
            age = None if s is None else max(0.0, now - card.received)
            state = "unknown" if s is None else s.state
            stale = s is not None and state != "offline" and age is not None and age > STALE_AFTER * s.every_s
            stands.append({
                "name": name, "state": state, "stale": stale, "age_s": None if age is None else int(age),
                "retained": card.retained,
                "status": None if s is None else s.model_dump(mode="json", exclude_none=True),
                "events": [{**e.model_dump(mode="json", exclude_none=True), "age_s": max(0, int(now - e.at))}
                           for e in reversed(card.events)],
            })
        days = [{"day": day, "stand": stand, **today.model_dump(mode="json", exclude={"day"})}
                for (day, stand), today in sorted(self.days.items(), key=lambda kv: (kv[0][0], kv[0][1]), reverse=True)]
        return {"type": "board", "stands": stands, "days": days, "problem": self.problem, "ignored": self.ignored}
