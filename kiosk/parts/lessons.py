"""The lessons Home offers: the shipped ones (``lessons/``) and the data folder's own.

A lesson (``kiosk.lesson``, docs/lessons.md) is a guided short game for one game. Home is
drawn before the lessons are checked: checking one plays its scenario on the game's engine,
which would load pydantic and every engine before the first frame. So Home first offers each
lesson from its file alone (``kiosk.lessonindex``: its game and minutes), and start-up checks
them all right after the first frame (``check``); a lesson file that cannot be used is then
left out and said in the log (the operator's copy may be half-edited), never on the table. A
tap on a lesson before that check has that one checked on the spot (``kiosk.lesson.load``).
Nothing here imports Kivy.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk import lessonindex

if TYPE_CHECKING:
    from kiosk.lesson import Lesson

log = logging.getLogger(__name__)


class Lessons:
    """The shipped lessons, then those in the folder ``own`` (if there is one), by game."""

    def __init__(self, own: Path) -> None:
        self.folders = [lessonindex.SHIPPED, own]
        self._offered: list[lessonindex.Offer] | None = None  # from the files alone, until checked
        self._checked: list[Lesson] | None = None

    def for_game(self, game: str) -> Lesson | lessonindex.Offer | None:
        """The lesson offered for ``game``: a checked ``Lesson`` once ``check`` has run, before
        that the file's ``Offer`` (both have ``game`` and ``minutes``), or None."""
        if self._checked is not None:
            return next((lesson for lesson in self._checked if lesson.game == game), None)
        if self._offered is None:
            self._offered = lessonindex.offers(self.folders)
        return next((offer for offer in self._offered if offer.game == game), None)

    def check(self) -> bool:
        """Check every lesson fully (once); a broken one is logged and no longer offered.
        True if what Home offers changed."""
        if self._checked is not None:
            return False
        from kiosk import lesson

        before = [(item.game, item.minutes) for item in self._offered] if self._offered is not None else None
        listed = lesson.listing(self.folders)
        for item in listed:
            if item.problem:
                log.warning("lesson not offered: %s", item.problem)
        self._checked = [item.lesson for item in listed if item.lesson]
        return before is not None and before != [(item.game, item.minutes) for item in self._checked]

    @staticmethod
    def load(chosen: Lesson | lessonindex.Offer) -> Lesson:
        """The checked lesson behind what Home offered (raises ``kiosk.lesson.LessonError``)."""
        if isinstance(chosen, lessonindex.Offer):
            from kiosk.lesson import load

            return load(chosen.path)
        return chosen
