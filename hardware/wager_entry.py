"""Turn one player's button presses into a secret Even/Odd wager.

The rule a player learns in one sentence:

    White counts toward Even, Black toward Odd, one point per press; Gray locks it in.

Think of a needle that starts at zero. Each White press moves it one point
toward Even, each Black press one point toward Odd. So a press of the other
colour takes a point back: a player who pressed White once too often presses
Black once. Where the needle stands when Gray is pressed is the wager: which
side, and how many points. A needle back at zero is a wager of nothing.

The needle cannot go past the player's pool: pressing White six times with
four points in the pool wagers all four on Even. If the rules ask for at
least some points (the Lead Investigator must wager one or more), Gray is
refused until the needle is that far out, and the entry stays open. Once
locked, the wager is final; later presses are ignored.

Pure: no pins, no clock. The kiosk feeds it the colours of one player's
ButtonPressed events and reads ``wager`` once ``locked`` is True.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Iterable

from .events import ButtonColour


class Step(str, Enum):
    """What one press did, so the kiosk can give a private buzz or a public 'locked' mark."""

    MOVED = "moved"  # the needle moved one point
    AT_LIMIT = "at_limit"  # ignored: the whole pool is already on that side
    LOCKED = "locked"  # Gray: the wager is final
    REFUSED = "refused"  # Gray, but fewer points than the rules ask; still open
    CLOSED = "closed"  # ignored: already locked


@dataclass(frozen=True)
class Wager:
    side: str | None  # "even", "odd", or None when no points are wagered
    points: int


class WagerEntry:
    def __init__(self, pool: int, minimum: int = 0) -> None:
        if pool < 0 or minimum < 0:
            raise ValueError(f"pool and minimum cannot be negative (got pool {pool}, minimum {minimum})")
        if minimum > pool:
            raise ValueError(f"a wager of at least {minimum} cannot come from a pool of {pool}")
        self.pool, self.minimum = pool, minimum
        self.needle = 0  # points toward Even (positive) or Odd (negative)
        self.locked = False
        self.problem: str | None = None  # why the last Gray was refused

    @property
    def wager(self) -> Wager:
        side = "even" if self.needle > 0 else "odd" if self.needle < 0 else None
        return Wager(side, abs(self.needle))

    def press(self, button: ButtonColour | str) -> Step:
        button = ButtonColour(button)
        if self.locked:
            return Step.CLOSED
        if button is ButtonColour.GRAY:
            if abs(self.needle) < self.minimum:
                points = "point" if self.minimum == 1 else "points"
                self.problem = f"a wager of at least {self.minimum} {points} is needed here"
                return Step.REFUSED
            self.locked, self.problem = True, None
            return Step.LOCKED
        toward = 1 if button is ButtonColour.WHITE else -1
        if abs(self.needle + toward) > self.pool:
            return Step.AT_LIMIT
        self.needle += toward
        return Step.MOVED


def wager_from_presses(presses: Iterable[ButtonColour | str], pool: int, minimum: int = 0) -> Wager | None:
    """The wager a sequence of presses locks in, or None if Gray never locked one."""
    entry = WagerEntry(pool, minimum)
    for button in presses:
        entry.press(button)
    return entry.wager if entry.locked else None
