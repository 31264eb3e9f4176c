"""What a stand publishes, and nothing more.

Topics, under the prefix shared by every stand and the page (``[fleet] topic``, default
``table-noir``):

* ``<prefix>/<stand>/status``: retained, QoS 1. The stand as it is now (``Status``),
  sent every ``status_every_s`` seconds and at once when something changes. Its last
  will, kept by the broker, is the same message with ``state = "offline"``: a stand that
  dies (power cut, crash, cable) shows as offline without saying so itself.
* ``<prefix>/<stand>/events``: QoS 1, not retained. What happened (``Event``), each
  numbered (``seq``) by the stand's outbox, sent in order once the broker has the one
  before. A reader keeps the last ``seq`` per ``boot`` and ignores any it has seen
  (QoS 1 may deliver a message twice when a connection drops at the wrong moment).

The privacy rule (docs/stands.md): only what the shared screen shows, and less. The
game's id and title, the phase named by the **public** view, how many players (never
who: names are players' text), the tray's link, the stand's own faults (what the home
screen names), uptime, memory and today's counts. Never a name, a typed text, a secret
choice, an outcome sentence (it names the winner), a PIN or a password. The models below
hold only fields of those kinds, so a new field has to be added here to be published.
"""

from __future__ import annotations

import re
import time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

VERSION = 1
STATES = ("playing", "lesson", "idle", "attract", "operator", "offline")
EVENT_KINDS = ("stand_started", "game_started", "game_finished", "lesson_started", "lesson_finished", "fault",
               "tray_unplugged", "tray_back")
IDENT = r"^[a-z][a-z0-9_-]{0,39}$"
"""A game id or a phase: a short lower-case identifier, never a sentence."""
FAULTS_KEPT = 8
FAULT_CHARS = 200


class Msg(BaseModel):
    """Read leniently (a newer stand may add fields), but every field is checked."""

    model_config = ConfigDict(extra="ignore")


class Event(Msg):
    kind: Literal["stand_started", "game_started", "game_finished", "lesson_started", "lesson_finished", "fault",
                  "tray_unplugged", "tray_back"]
    at: float = Field(description="when, in seconds since 1970 on the stand's clock")
    day: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$", description="the stand's date then, for the per-day table")
    seq: int = Field(0, ge=0, description="numbered by the stand's outbox, from 1")
    boot: str = Field("", max_length=32, description="the outbox's own id: seq counts again from 1 in a new one")
    game: str | None = Field(None, pattern=IDENT)
    players: int | None = Field(None, ge=0, le=99)
    length_s: int | None = Field(None, ge=0, description="a finished game's length")
    detail: str | None = Field(None, max_length=FAULT_CHARS, description="a fault in the stand's own words")


class Today(Msg):
    """Games on this stand today (the stand's clock), from its session store."""

    day: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    started: int = Field(0, ge=0)
    finished: int = Field(0, ge=0)
    abandoned: int = Field(0, ge=0)
    lessons: int = Field(0, ge=0, description="lessons started (docs/lessons.md), not counted as games")
    average_s: int | None = Field(None, ge=0, description="the average length of today's finished games")


class Status(Msg):
    v: int = VERSION
    stand: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")
    state: Literal["playing", "lesson", "idle", "attract", "operator", "offline"]
    at: float = Field(description="when this status was sent (the stand's clock)")
    every_s: int = Field(10, ge=1, description="seconds until the next status: older than 3 of these is stale")
    game: str | None = Field(None, pattern=IDENT)
    title: str | None = Field(None, max_length=60, description="the game's title, as the home screen lists it")
    phase: str | None = Field(None, pattern=IDENT)
    players: int | None = Field(None, ge=0, le=99)
    tray: str = Field("", max_length=60, description="the tray's link, as the play screen's status line names it")
    faults: list[str] = Field(default_factory=list, max_length=FAULTS_KEPT)
    uptime_s: int = Field(0, ge=0)
    memory_mb: float | None = None
    today: Today | None = None
    last_event: Event | None = None
    queued: int = Field(0, ge=0, description="events waiting in the outbox for the broker")
    dropped: int = Field(0, ge=0, description="events the outbox let go while the broker was away (it is bounded)")


def status_topic(prefix: str, stand: str) -> str:
    return f"{prefix}/{stand}/status"


def events_topic(prefix: str, stand: str) -> str:
    return f"{prefix}/{stand}/events"


def parse_topic(prefix: str, topic: str) -> tuple[str, str] | None:
    """``table-noir/hall-a/status`` -> ("hall-a", "status"); None for a topic that is not ours."""
    head, _, rest = topic.partition(prefix + "/")
    if head or rest.count("/") != 1:
        return None
    stand, kind = rest.split("/")
    return (stand, kind) if kind in ("status", "events") and re.match(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$", stand) \
        else None


def identifier(value: Any) -> str | None:
    """``value`` if it is a short identifier (a phase such as ``wagers``), else None: a text
    that is not one is never published, whatever the engine put there."""
    return value if isinstance(value, str) and re.match(IDENT, value) else None


def offline(stand: str, every_s: int) -> Status:
    """The last will: what the broker says for a stand that went away without a word."""
    return Status(stand=stand, state="offline", at=time.time(), every_s=every_s)


def fault_text(text: str) -> str:
    """A fault as the operator reads it on the home screen, kept short."""
    text = " ".join(str(text).split())
    return text if len(text) <= FAULT_CHARS else text[:FAULT_CHARS - 3] + "..."
