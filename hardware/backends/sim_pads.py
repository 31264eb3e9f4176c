"""Player pads without wires: driven by a script (tests, demos) or by the keyboard (the kiosk's sim panel).

``SimPads`` emits the same events as the GPIO pads: a press, a release with
how long it was held, and nothing for a second press of a button already down.

The keyboard map puts each pad in one column of keys, so six players can
share one keyboard::

    pad      1  2  3  4  5  6
    Black    q  w  e  r  t  y     (top letter row)
    White    a  s  d  f  g  h     (home row)
    Gray     z  x  c  v  b  n     (bottom row)

A key going down presses its button; the key coming up releases it.
"""

from __future__ import annotations

import time
from typing import Callable

from ..events import ButtonColour, ButtonPressed, ButtonReleased
from ..ports import PlayerPads

COLUMNS = ("qaz", "wsx", "edc", "rfv", "tgb", "yhn")  # pad 1 .. pad 6, keys top to bottom
ROWS = (ButtonColour.BLACK, ButtonColour.WHITE, ButtonColour.GRAY)  # top row, home row, bottom row

KEYMAP: dict[str, tuple[int, ButtonColour]] = {
    key: (player, colour) for player, keys in enumerate(COLUMNS, start=1) for key, colour in zip(keys, ROWS)
}


def key_for(player: int, button: ButtonColour | str) -> str:
    """The keyboard key that stands for ``player``'s ``button``."""
    return COLUMNS[player - 1][ROWS.index(ButtonColour(button))]


def keymap_help(players: int = 6) -> str:
    """The key map as a small table, for a help line or the sim panel."""
    lines = ["pad    " + "  ".join(str(p) for p in range(1, players + 1))]
    for row, colour in enumerate(ROWS):
        lines.append(f"{colour.value:<7}" + "  ".join(COLUMNS[p][row] for p in range(players)))
    return "\n".join(lines)


class SimPads(PlayerPads):
    def __init__(self, players: int = 6, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        if not 1 <= players <= 6:
            raise ValueError(f"players must be from 1 to 6 (got {players})")
        self.players = players
        self._clock = clock
        self._down: dict[tuple[int, ButtonColour], float] = {}  # button -> when it went down

    def _button(self, player: int, button: ButtonColour | str) -> tuple[int, ButtonColour]:
        if not 1 <= player <= self.players:
            raise ValueError(f"player must be from 1 to {self.players} (got {player})")
        try:
            return player, ButtonColour(button)
        except ValueError:
            raise ValueError(f"button must be black, white or gray (got {button!r})") from None

    def press(self, player: int, button: ButtonColour | str, t: float | None = None) -> None:
        which = self._button(player, button)
        if which in self._down:
            return  # already down, as a held key repeating
        self._down[which] = now = self._clock() if t is None else t
        self.emit(ButtonPressed(*which, now))

    def release(self, player: int, button: ButtonColour | str, t: float | None = None) -> None:
        which = self._button(player, button)
        if which not in self._down:
            return
        since = self._down.pop(which)
        now = self._clock() if t is None else t
        self.emit(ButtonReleased(*which, now, held_s=now - since))

    def tap(self, player: int, button: ButtonColour | str, hold_s: float = 0.08) -> None:
        """A quick press and release, ``hold_s`` apart on the event clock."""
        start = self._clock()
        self.press(player, button, start)
        self.release(player, button, start + hold_s)

    def key(self, key: str, down: bool = True) -> bool:
        """A keyboard key went down (or up). Returns False for a key that is no button here."""
        player, colour = KEYMAP.get(key.lower(), (0, None))
        if colour is None or player > self.players:
            return False
        (self.press if down else self.release)(player, colour)
        return True

    def close(self) -> None:
        self._down.clear()
