"""What the hardware layer tells the kiosk: typed, timestamped events.

Timestamps are ``time.monotonic()`` seconds on the machine that runs the
kiosk. Nothing here knows any game rule: a press is a press, a collapse is
dice falling, and the kiosk decides what they mean.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Union


class ButtonColour(str, Enum):
    """The three buttons on every pad. The shape moulded on each key carries
    the same meaning for touch and colour-blind players (see hardware/README.md)."""

    BLACK = "black"
    WHITE = "white"
    GRAY = "gray"


class Zone(str, Enum):
    """Where a thrown d10 came to rest on the Conflict Target."""

    INSIDE = "inside"
    TOUCHING = "touching"
    OUTSIDE = "outside"


# The kit's piezo discs (TRAY_PIEZO_PINS A0, A1, A2 = discs 0, 1, 2) sit on one ring under the floor
# (enclosure/scad/tray.scad). The bench drops a d10 into each zone on the side of one disc, which
# must read it strongest; listed nearest first (the simulator falls back along it past a dead disc).
ZONE_PIEZOS = {Zone.INSIDE: (0, 1, 2), Zone.TOUCHING: (1, 0, 2), Zone.OUTSIDE: (2, 1, 0)}


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    player: int  # pad number, 1-6
    button: ButtonColour
    t: float


@dataclass(frozen=True, slots=True)
class ButtonReleased:
    player: int
    button: ButtonColour
    t: float
    held_s: float


@dataclass(frozen=True, slots=True)
class ButtonStuck:
    """A button held far longer than any press: reported once, not repeated."""

    player: int
    button: ButtonColour
    t: float
    held_s: float


@dataclass(frozen=True, slots=True)
class HeatHeight:
    """The stack's height in dice changed (or was first measured)."""

    dice: int
    t: float


@dataclass(frozen=True, slots=True)
class DieAdded:
    dice: int  # height after the change
    t: float


@dataclass(frozen=True, slots=True)
class DieRemoved:
    dice: int
    t: float


@dataclass(frozen=True, slots=True)
class Collapse:
    """The Heat fell: ``fell`` dice came down, ``standing`` are still up."""

    fell: int
    standing: int
    t: float


@dataclass(frozen=True, slots=True)
class HeatFalling:
    """The Heat of ``dice`` has started to fall (a tray that weighs the Heat sends it at once; the
    ``Collapse`` with the count follows when the plinth is still)."""

    dice: int
    t: float


@dataclass(frozen=True, slots=True)
class HeatMismatch:
    """The watchman: the Heat's weight (``weighed`` dice) and the VL53L0X's height (``seen`` dice)
    have disagreed by two dice or more for two seconds: a jammed plinth, a foreign die, a d10
    resting on the Heat."""

    weighed: int
    seen: int
    t: float


@dataclass(frozen=True, slots=True)
class ThrowImpact:
    """A die struck the tray. ``zone``/``face`` are set only where a build can tell; ``piezo`` is the
    0-based disc that read the strongest knock (None: the tray did not say, firmware before 0.3.1)."""

    t: float
    strength: float = 0.0
    zone: Zone | None = None
    face: int | None = None
    piezo: int | None = None


@dataclass(frozen=True, slots=True)
class ThrowSettled:
    """The tray has been quiet long enough: the dice have stopped."""

    t: float
    zone: Zone | None = None
    face: int | None = None


@dataclass(frozen=True, slots=True)
class DistanceSample:
    """A raw range reading, for the hardware monitor and calibration screens."""

    mm: int | None  # None: no valid reading (out of range, dropout)
    t: float
    w: int | None = None  # a tray that weighs the Heat: its latest NAU7802 reading (the bench learns the set from it)


@dataclass(frozen=True, slots=True)
class LinkUp:
    link: str  # "serial", "i2c", "sim"
    detail: str
    t: float


@dataclass(frozen=True, slots=True)
class LinkDown:
    link: str
    reason: str
    t: float


@dataclass(frozen=True, slots=True)
class HardwareFault:
    """Something the operator should fix (a stuck pin, a sensor missing, a bad line)."""

    source: str
    message: str
    t: float


HEAT_MESSAGES = ("height", "added", "removed", "collapse")
WEIGHT_MESSAGES = ("falling", "mismatch")  # only from a tray that weighs the Heat, when asked in the hello


def heat_event(message: dict[str, Any], t: float) -> HeatHeight | DieAdded | DieRemoved | Collapse | HeatFalling | HeatMismatch:
    """One Heat message from the tracker (the tray's JSON line or our own
    ``HeatTracker`` dict; both share the shape in firmware/PROTOCOL.md) as a
    typed event stamped ``t``."""
    kind = message.get("type")
    if kind == "height":
        return HeatHeight(message["dice"], t)
    if kind == "added":
        return DieAdded(message["dice"], t)
    if kind == "removed":
        return DieRemoved(message["dice"], t)
    if kind == "collapse":
        return Collapse(message["fell"], message["standing"], t)
    if kind == "falling":
        return HeatFalling(message["dice"], t)
    if kind == "mismatch":
        return HeatMismatch(message["weighed"], message["seen"], t)
    raise ValueError(f"not a Heat message: type {kind!r}")


PadEvent = Union[ButtonPressed, ButtonReleased, ButtonStuck]
TrayEvent = Union[
    HeatHeight, DieAdded, DieRemoved, Collapse, HeatFalling, HeatMismatch, ThrowImpact, ThrowSettled, DistanceSample, LinkUp, LinkDown,
    HardwareFault,
]
HardwareEvent = Union[PadEvent, TrayEvent]
Listener = Callable[[HardwareEvent], None]
