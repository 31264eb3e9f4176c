"""A bounded store of widgets kept for reuse, the least recently used one dropped first.

The play screen keeps the inputs, labels and buttons it built, because a game asks the
same kinds of question again and again and building a Kivy widget (and rendering its
text) is the slowest part of showing a change. Kept without end, or cleared whole
when full, they grew with every new game: the first Promise Hollows game of a kiosk
process left about a hundred more widgets, and Python's memory arenas they filled were
never given back (issue 33). So each store holds at most ``bound`` widgets.

Eviction and the screen: a widget is dropped only when ``bound`` others were asked
for after it. A prompt asks for every widget it shows each time it is drawn, so with
``bound`` at least the most one prompt shows, nothing on screen is ever dropped; and a
dropped widget is never handed out again (its key builds a new one), so reuse cannot
put one widget in two places.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Callable, Generic, Hashable, TypeVar

W = TypeVar("W")


class Reused(OrderedDict, Generic[W]):
    """Widgets by key, at most ``bound`` of them, oldest use first (an ``OrderedDict``)."""

    def __init__(self, bound: int) -> None:
        super().__init__()
        if bound < 1:
            raise ValueError(f"a widget store must hold at least one widget, not {bound}")
        self.bound = bound

    def take(self, key: Hashable, build: Callable[[], W]) -> tuple[W, bool]:
        """The widget kept under ``key``, or a new one from ``build()``, now the most recently
        used; and whether it was kept (a kept widget may still sit where it was shown)."""
        widget = self.get(key)
        if widget is not None:
            self.move_to_end(key)
            return widget, True
        widget = self[key] = build()
        while len(self) > self.bound:
            self.popitem(last=False)
        return widget, False
