"""Phones on or off: the phone server (``kiosk.phones.server``) and its bridge to the game.

With phones on (the ``kiosk.phones`` setting), players join from their own phones over the
stand's Wi-Fi (docs/phones.md). This part starts and stops the server; a port already in use
is a sentence for the operator (``problem``), not a crash: pads and the touchscreen work as
always. Nothing here imports Kivy: the App gives ``say`` and ``later``, which reach the
screen through Kivy's clock.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from hardware.config import Config
    from kiosk.controller import Handled
    from kiosk.phones.bridge import PhoneBridge

log = logging.getLogger(__name__)


class Phones:
    """The phone server while it runs (``bridge``), or why it does not (``problem``).

    ``config`` gives the configuration in force; ``submit(event)`` takes a phone's action (on
    the server's thread) into the controller's queue, like a pad press; ``say(text)`` tells the
    shared screen who joined (from the server's thread); ``later(push)`` runs a push after the
    shared screen's frame is up."""

    def __init__(self, config: Callable[[], Config], submit: Callable[[Any], None],
                 say: Callable[[str], None] | None = None,
                 later: Callable[[Callable[[], None]], None] | None = None) -> None:
        self.config, self.submit, self.say, self.later = config, submit, say, later
        self.bridge: PhoneBridge | None = None
        self.problem: str | None = None

    @property
    def allowed(self) -> bool:
        """Whether the settings let phones join."""
        return bool(self.config().kiosk.phones)

    def open(self) -> PhoneBridge | None:
        """Start the server if the settings allow phones and it is not running; the bridge, or None."""
        self.problem = None
        if not self.allowed or self.bridge is not None:
            return self.bridge
        from kiosk.phones.bridge import PhoneBridge
        from kiosk.phones.server import PhoneServer

        cfg = self.config().phones
        server = PhoneServer(cfg.listen, cfg.port, submit=self.submit, join_host=cfg.join_host)
        try:
            server.start()
        except OSError as err:
            log.warning("phone server not started on %s port %s: %s", cfg.listen, cfg.port, err.strerror or err)
            self.problem = (f"Phones cannot join: port {cfg.port} on {', '.join(cfg.listen)} is not "
                            f"available ({err.strerror or err}). Pads and the touchscreen work as always.")
            return None
        self.bridge = PhoneBridge(server, say=self.say, later=self.later)
        return self.bridge

    def close(self) -> None:
        """Stop the server: every phone's link stops working."""
        if self.bridge is not None:
            self.bridge.detach()
            self.bridge.server.stop()
            self.bridge = None

    def handled(self, handled: Handled) -> None:
        """What the controller did with an event: the phones' pages follow."""
        if self.bridge is not None:
            self.bridge.handled(handled)
