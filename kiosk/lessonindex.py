"""The lessons Home offers, read quickly: each file's game and length, nothing checked.

Home shows a "Learn, 3 min" button on a game's card when a lesson for it is
installed. Checking a lesson properly (``kiosk.lesson.load``: its fields, its
scenario played on the game's engine, each step's action and player) imports
pydantic and the engine, which is most of what the kiosk would otherwise load
before its first frame. So Home is drawn from this index, which only reads the
TOML files; the kiosk checks the lessons fully right after the first frame and
drops the button of any lesson that fails (kiosk/app.py). A tap on a button
before that check has that one lesson loaded and checked on the spot
(``kiosk.lesson.load``).

Nothing here imports pydantic, the rules or Kivy.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

SHIPPED = Path(__file__).resolve().parents[1] / "lessons"
"""The lessons that come with the project (one per game)."""


@dataclass(frozen=True)
class Offer:
    """A lesson file as Home first lists it: which game it teaches and in how many minutes."""

    path: Path
    game: str
    minutes: int


def offers(folders: list[Path]) -> list[Offer]:
    """Every lesson in ``folders`` (``*.toml`` files with ``steps``, sorted by name in each
    folder; a missing folder is skipped) that names a game and a whole number of minutes.

    A file that cannot be read, or lacks those, is left out here; the full check after the
    first frame (``kiosk.lesson.listing``) logs what is wrong with it."""
    found = []
    for path in (p for folder in folders if folder.is_dir() for p in sorted(folder.glob("*.toml"))):
        try:
            head = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        game, minutes = head.get("game"), head.get("minutes")
        if "steps" in head and isinstance(game, str) and type(minutes) is int:
            found.append(Offer(path, game, minutes))
    return found
