"""Idle time: when someone was last at the table, and when the stand goes to attract mode.

Every touch on the screen, and every pad press, die, fall or phone answer (``kiosk.demo.is_input``),
is someone at the table. After ``idle_attract_s`` with none of them (sooner in demo mode,
``kiosk.demo.attract_due``) the stand shows attract mode. A quiet second -- no input and no
hardware event at all -- is when the kiosk does its housekeeping (garbage, the archive).

The App calls ``touched`` and ``heard`` as things happen, and asks ``attract_due`` and ``quiet``
once a second. Nothing here imports Kivy.
"""

from __future__ import annotations

import gc
import time
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from hardware.config import KioskConfig

QUIET_S = 1.0
"""No input and no hardware event for this long: a quiet moment for housekeeping."""


class Idle:
    """The last input and the last hardware event, on ``clock`` (monotonic seconds).

    ``kiosk`` gives the kiosk settings in force, read at each check, so an idle time the
    operator changes applies at once."""

    def __init__(self, kiosk: Callable[[], KioskConfig], clock: Callable[[], float] = time.monotonic) -> None:
        self.kiosk, self.clock = kiosk, clock
        self.last_input = clock()
        self.last_event = self.last_input
        """The last hardware event of any kind (a distance sample, a link change...)."""

    def touched(self) -> None:
        """Someone touched the screen, typed a key or worked the sim panel."""
        self.last_input = self.clock()

    def heard(self, event: Any, accepted: bool) -> bool:
        """A hardware or phone event; ``accepted``: the rules took an action from it. True if it
        was someone at the table (which ends attract mode)."""
        from kiosk.demo import is_input  # with the rules: not before the first frame

        self.last_event = self.clock()
        if is_input(event) or accepted:
            self.last_input = self.last_event
            return True
        return False

    def attract_due(self, game_over: bool) -> bool:
        """Whether attract mode is due now; ``game_over``: the game on screen has ended."""
        from kiosk.demo import attract_due

        k = self.kiosk()
        return attract_due(self.clock() - self.last_input, k.idle_attract_s, k.demo_mode, k.demo_idle_s, game_over)

    def quiet(self) -> bool:
        """True after ``QUIET_S`` with neither input nor any hardware event."""
        now = self.clock()
        return min(now - self.last_input, now - self.last_event) >= QUIET_S


def collect_garbage() -> bool:
    """Free what play left in reference cycles now, while nobody is mid-action.

    Called after a quiet second and on going home. Kivy widgets (a reveal's cards, say) are
    freed by Python's cycle collector, which otherwise runs whenever enough has piled up,
    often in the middle of showing a die or a press. A full collection costs 10-50 ms after
    a quiet second, up to 300 ms after a long run of play with no pause; done here it keeps
    the automatic ones, and their stalls, rare. Only when some collection has run since the
    last one here (i.e. there was play). Returns whether it collected.
    """
    young, older = gc.get_count()[1:]
    if young or older:
        gc.collect()
        return True
    return False
