"""The event a phone puts in the controller queue, beside pad presses and tray events."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, ClassVar


@dataclass
class PhoneAction:
    """A player's answer sent from their phone.

    ``seat`` is the player the server bound to this connection when it joined;
    the phone never names a player itself, so it cannot act for another seat.
    ``conn`` and ``request`` let the answer (accepted or refused) go back to
    that phone only.
    """

    from_phone: ClassVar[bool] = True
    seat: str
    data: dict[str, Any]
    conn: int = 0
    request: int = 0
    t: float = field(default_factory=time.monotonic)

    def action(self) -> dict[str, Any]:
        """The action for the rules: the phone's fields, always as its own seat."""
        return {**self.data, "player": self.seat}
