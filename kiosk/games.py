"""Which games the kiosk offers, and how it finds their engines.

The four games come from the rules registry. An engine that fails to import
(for instance while it is still being written) is left off the home screen
with the reason logged, instead of stopping the kiosk.

``TABLE_NOIR_EXTRA_GAMES`` adds engines by module, e.g.
``toy=tests.rules.toy``; the tests use it to play the tiny toy game.
"""

from __future__ import annotations

import importlib
import logging
import os

from typing import TYPE_CHECKING

from kiosk.rules import GAMES

if TYPE_CHECKING:
    from kiosk.rules import Engine

log = logging.getLogger(__name__)


MENU_TITLES = {
    "hell-for-leather": "Hell for Leather",
    "promise-hollows": "Promise Hollows",
    "even-odd": "The Even/Odd case game",
    "clincher": "Procedural clincher scenes",
    "toy": "Toy",
}
"""Names for the home screen before an engine is loaded (the kiosk loads engines after its
first frame, to start fast); once loaded, the engine's own title is used."""


def _extra() -> dict[str, str]:
    pairs = [p for p in os.environ.get("TABLE_NOIR_EXTRA_GAMES", "").split(",") if "=" in p]
    return {name.strip(): module.strip() for name, module in (p.split("=", 1) for p in pairs)}


def modules() -> dict[str, str]:
    return {**GAMES, **_extra()}


def engine_for(game: str) -> Engine:
    known = modules()
    if game not in known:
        raise KeyError(f"unknown game {game!r}; known games: {', '.join(known)}")
    return importlib.import_module(known[game]).ENGINE


def available() -> dict[str, Engine]:
    """Every game whose engine loads, in menu order."""
    found: dict[str, Engine] = {}
    for game in modules():
        try:
            found[game] = engine_for(game)
        except Exception as err:  # noqa: BLE001 - a broken engine must not stop the kiosk
            log.warning("game %s is not available: %s", game, err)
    return found
