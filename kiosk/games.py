"""Which games the kiosk offers, and how it finds their engines.

Two layers, so the home screen can be drawn before any engine is imported:

* the light registry: each game's name, its title for the home screen
  (``MENU_TITLES``) and the module its engine lives in (``modules()``). Reading
  it imports no engine, no rules core and no pydantic;
* ``Engines``: the engines themselves, each imported the first time it is asked
  for (a tap on "New game", a resumed session, the rules sheet), or one at a
  time after the first frame, while the table is idle.

An engine that fails to import (for instance while it is still being written)
is left off the home screen with the reason logged, instead of stopping the kiosk.

``TABLE_NOIR_EXTRA_GAMES`` adds engines by module, e.g.
``toy=tests.rules.toy``; the tests use it to play the tiny toy game.
"""

from __future__ import annotations

import importlib
import logging
import os
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from kiosk.rules.registry import GAMES

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
"""Each game's title for the home screen, known without importing its engine. It must be the
engine's own ``title`` (tests/kiosk/test_startup.py checks), so the menu never changes wording
when an engine loads."""


def _extra() -> dict[str, str]:
    pairs = [p for p in os.environ.get("TABLE_NOIR_EXTRA_GAMES", "").split(",") if "=" in p]
    return {name.strip(): module.strip() for name, module in (p.split("=", 1) for p in pairs)}


def modules() -> dict[str, str]:
    """Game name -> the module whose ``ENGINE`` plays it, in menu order."""
    return {**GAMES, **_extra()}


def title(game: str) -> str:
    """The game's title without importing its engine."""
    return MENU_TITLES.get(game, game)


def engine_for(game: str) -> Engine:
    known = modules()
    if game not in known:
        raise KeyError(f"unknown game {game!r}; known games: {', '.join(known)}")
    return importlib.import_module(known[game]).ENGINE


def available() -> dict[str, Engine]:
    """Every game whose engine loads, in menu order (imports them all)."""
    return dict(Engines())


class Engines(Mapping[str, "Engine"]):
    """Every game's engine, each imported the first time it is asked for.

    ``engines[game]`` imports that one engine (and only it); ``game in engines``
    is true if it loads. Iterating imports them all, in menu order. A game whose
    engine fails to import is remembered as broken (its reason logged once) and
    is then neither in the mapping nor on the menu.
    """

    def __init__(self) -> None:
        self._loaded: dict[str, Engine] = {}
        self._broken: dict[str, str] = {}

    def __getitem__(self, game: str) -> Engine:
        if game in self._loaded:
            return self._loaded[game]
        if game in self._broken or game not in modules():
            raise KeyError(game)
        try:
            engine = engine_for(game)
        except Exception as err:  # noqa: BLE001 - a broken engine must not stop the kiosk
            log.warning("game %s is not available: %s", game, err)
            self._broken[game] = str(err)
            raise KeyError(game) from None
        self._loaded[game] = engine
        return engine

    def __iter__(self) -> Iterator[str]:
        return iter([game for game in modules() if game in self])

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def pending(self) -> list[str]:
        """The games whose engine has not been tried yet, in menu order."""
        return [g for g in modules() if g not in self._loaded and g not in self._broken]

    def menu(self) -> list[tuple[str, str]]:
        """(game, title) for the home screen, imports nothing: every game not known to be broken."""
        return [(g, self.title(g)) for g in modules() if g not in self._broken]

    def title(self, game: str) -> str:
        """The loaded engine's title, else the registry's (the same words, see ``MENU_TITLES``)."""
        engine = self._loaded.get(game)
        return engine.title if engine is not None else title(game)
