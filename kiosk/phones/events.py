"""The event a phone puts in the controller queue, beside pad presses and tray events."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from kiosk.rules.core import RuleError


@dataclass
class PhoneAction:
    """A player's answer sent from their phone.

    ``seat`` is the player the server bound to this connection when it joined;
    the phone never names a player itself, so it cannot act for another seat.
    ``conn`` and ``request`` let the answer (accepted or refused) go back to
    that phone only. ``allowed`` (the bridge's ``answerable``, run on the UI
    thread) says why this seat may not answer this action now: a phone answers
    only prompts addressed to its own player, never the table's own
    (``player=None``), whatever the rules would accept from the shared screen.
    """

    from_phone: ClassVar[bool] = True
    seat: str
    data: dict[str, Any]
    conn: int = 0
    request: int = 0
    t: float = field(default_factory=time.monotonic)
    allowed: Callable[[str, str], str | None] | None = field(default=None, repr=False, compare=False)

    def action(self) -> dict[str, Any]:
        """The action for the rules: the phone's fields, always as its own seat.
        Raises ``RuleError`` if it is not this seat's to answer."""
        why = self.allowed(self.seat, str(self.data.get("type"))) if self.allowed is not None else None
        if why is not None:
            raise RuleError("phones", why)
        return {**self.data, "player": self.seat}
