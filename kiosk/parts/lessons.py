"""The lessons Home offers: the shipped ones (``lessons/``) and the data folder's own.

A lesson (``kiosk.lesson``, docs/lessons.md) is a guided short game for one game. The
folders are read once, the first time Home asks; a lesson file that cannot be used is
left out and said in the log (the operator's copy may be half-edited), never on the table.
Nothing here imports Kivy.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk.lesson import Lesson, Listed

log = logging.getLogger(__name__)


class Lessons:
    """The shipped lessons, then those in the folder ``own`` (if there is one), by game."""

    def __init__(self, own: Path) -> None:
        self.own = own
        self._listed: list[Listed] | None = None

    def for_game(self, game: str) -> Lesson | None:
        """The lesson offered for ``game``, or None."""
        if self._listed is None:
            from kiosk import lesson

            self._listed = lesson.listing([lesson.SHIPPED, self.own])
            for item in self._listed:
                if item.problem:
                    log.warning("lesson not offered: %s", item.problem)
        return next((i.lesson for i in self._listed if i.lesson and i.lesson.game == game), None)
