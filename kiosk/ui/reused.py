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

Recycling: a Kivy widget is a few hundred Python objects bound to each other in
cycles (its properties' observers hold its own methods), so a dropped one is not freed
when the store lets go of it but when Python's cycle collector next looks at the oldest
objects, which during play can be a hundred actions later. In a Promise Hollows game a
new sentence on a button or label every action dropped about 650 such objects an
action; with the game's other garbage they piled up to 100,000 memory blocks and more
before a full collection, and Python kept the arenas that pile filled for the rest of the
day (issue 33, seventh pass). So ``take`` can be given ``recycle``: when the store is full, a widget not handed
out in this drawing of the screen or the one before (``next_draw`` counts them; before
the first call nothing is recycled) is offered to ``recycle``, which either makes it
show the new key's content (new text, say) and says so, or refuses it (another font
size...). The recycled widget moves to the new key; nothing is built and nothing is
left for the collector.
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
        self.draw = 0
        """How many times the screen was drawn anew (``next_draw``)."""
        self._drawn: dict[Hashable, int] = {}  # key -> the drawing it was last handed out in

    def next_draw(self) -> None:
        """The screen is drawn anew: what was handed out before the last drawing is off screen now."""
        self.draw += 1

    def clear(self) -> None:
        super().clear()
        self._drawn.clear()

    def take(self, key: Hashable, build: Callable[[], W],
             recycle: Callable[[W], bool] | None = None) -> tuple[W, bool]:
        """The widget kept under ``key``, or a recycled one (see the module's text), or a new one
        from ``build()``, now the most recently used; and whether it was kept or recycled (such a
        widget may still sit where it was shown)."""
        widget = self.get(key)
        if widget is not None:
            self.move_to_end(key)
            self._drawn[key] = self.draw
            return widget, True
        if recycle is not None and len(self) >= self.bound:
            for old_key, old in self.items():  # oldest first
                if self._drawn[old_key] >= self.draw - 1:
                    break  # this one, and all after it, may be on screen
                if recycle(old):
                    del self[old_key], self._drawn[old_key]
                    self[key], self._drawn[key] = old, self.draw
                    return old, True
        widget = self[key] = build()
        self._drawn[key] = self.draw
        while len(self) > self.bound:
            del self._drawn[self.popitem(last=False)[0]]
        return widget, False
