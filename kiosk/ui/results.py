"""A result for every throw (Hell for Leather, issue 30): the news in large type, for a moment.

When a d10's landing is entered, the play screen shows it over the prompt area:
the die drawn in its zone's colour with its face, and beside it the zone, the face
and what it means ("Inside, 7: Merit"), large enough to read from a chair. It
stays ``RESULT_S`` seconds and then goes; it takes no touch, so the next throw is
never held up. The log strip keeps the record; this is the news.

Drawing it must not slow the landing it reports (benchmarks/kiosk_latency.py): the
widget is made once per play screen and its words are rendered once per
(zone, face, meaning), then reused. The words every result can show are rendered
ahead, one per frame, when the throw prompt opens (``render_ahead``), so even the
first landing of the evening renders no text on the frame that shows it.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Line, RoundedRectangle
from kivy.graphics.instructions import CanvasBase

from . import art, theme

RESULT_S = {"value": 2.5}
"""How long a throw's result stays up (wall-clock seconds)."""

MEANING_COLOUR = {"Merit": theme.GOOD, "Boon": theme.ACCENT, "Curse": theme.BAD, "Pass": theme.INK}


def landing_of(events: list) -> dict[str, Any] | None:
    """The d10 a change's events say landed: {"zone", "face", "meaning", "who"}, or None."""
    for e in events:
        data = getattr(e, "data", None) or {}
        if getattr(e, "kind", "") == "die" and "zone" in data and "face" in data:
            meaning = e.text.rstrip(".").rsplit(": ", 1)[-1] if ": " in e.text else ""
            return {"zone": data["zone"], "face": data["face"], "meaning": meaning, "who": data.get("thrower")}
    return None


class ThrowResult(art.Drawn):
    """The last landing, large: a d10 and "Inside, 7" over its meaning, drawn (not laid out)
    so a landing renders no label: each text is a texture made once (``art.draw_text``).
    ``show`` puts it up for ``RESULT_S``; it never takes a touch."""

    WHERE_PX, MEANING_PX = 30, 42
    """Its two lines' sizes at 800x480 (times ``theme.scale()``): read from a chair."""

    HEIGHT_PX = 120
    """Its height at 800x480 (times ``theme.scale()``); the play screen gives it its width."""

    def __init__(self, **kw) -> None:
        kw.setdefault("size_hint", (None, None))
        self.shown: dict[str, Any] | None = None
        self.where_text = self.meaning_text = ""
        self._building: CanvasBase | None = None  # the drawing being made (``draw``)
        self._box = art.Picture(lost=self._box_lost)  # its box and edge, drawn once (``_draw_box``)
        super().__init__(**kw)
        self.opacity = 0
        self._event = None

    def show(self, landing: dict[str, Any]) -> None:
        self.shown = landing
        self.where_text = f"{str(landing['zone']).capitalize()}, {landing['face']}"
        self.meaning_text = landing["meaning"]
        if not self._show_kept():
            self._redraw()
        self.opacity = 1
        if self._event is not None:
            self._event.cancel()
        self._event = Clock.schedule_once(lambda dt: self.hide(), RESULT_S["value"])

    def hide(self) -> None:
        if self._event is not None:
            self._event.cancel()  # hidden early (another game, or the table left): no late redraw
        self.opacity = 0
        self.shown = None
        self._event = None
        self._redraw()  # drawn at opacity 0 a box is still rasterised on every frame (0.5 ms of each flip)

    def _key(self, shown: dict[str, Any]) -> tuple:
        return (self.where_text, self.meaning_text, shown["face"], shown["zone"], *self.pos, *self.size)

    def _show_kept(self) -> bool:
        """Put up the drawing kept for what is shown now (``draw``) straight away, without
        the rest of a redraw: the landing's frame waits on every step of it. False if none
        is kept for these words at this place and size."""
        drawing = self.__dict__.get("_drawings", {}).get(self._key(self.shown)) if self.shown else None
        if drawing is None:
            return False
        self._clear()
        self.canvas.add(drawing)
        return True

    def draw(self) -> None:
        """Add the drawing of what is shown: made once per landing's words, place and size
        (a table sees the same few dozen results all evening) and added again as it was."""
        shown = self.shown
        if shown is None:
            return
        key = self._key(shown)
        drawings: dict[tuple, CanvasBase] = self.__dict__.setdefault("_drawings", {})
        drawing = drawings.get(key)
        if drawing is not None:
            self.canvas.add(drawing)
            return
        if len(drawings) > 64:
            drawings.clear()
        drawing = self._building = drawings[key] = CanvasBase()  # made inside the canvas's ``with``: Kivy adds it there
        with drawing:
            self._draw_result(shown)

    def _draw_result(self, shown: dict[str, Any]) -> None:
        pad = theme.px(10)
        box = self._box
        was = box.drawn
        box.show(self._draw_box, self.x, self.y, self.width, self.height, key=theme.scale())
        if box.drawn != was:  # drawn again elsewhere: the drawings kept show the old picture
            drawings = self.__dict__.get("_drawings", {})
            for key in [k for k, drawing in drawings.items() if drawing is not self._building]:
                del drawings[key]
        s = self.height - 2 * pad
        art.draw_d10(self.x + pad + s * 0.45, self.top - pad, s * 0.8, s, 0, shown["face"], shown["zone"], "")
        cx = self.x + pad + s + (self.width - s - 2 * pad) / 2
        room = self.width - s - 3 * pad
        art.draw_text(self.where_text, cx, self.y + self.height * 0.7, theme.font(self.WHERE_PX), theme.INK,
                      bold=True, room=room)
        art.draw_text(self.meaning_text, cx, self.y + self.height * 0.3, theme.font(self.MEANING_PX),
                      MEANING_COLOUR.get(self.meaning_text, theme.INK), bold=True, room=room)

    def _box_lost(self) -> None:
        """The GL context was lost, and the box's picture with it: every drawing is made again."""
        self.__dict__.get("_drawings", {}).clear()
        Clock.schedule_once(lambda dt: self._redraw())

    def _draw_box(self) -> None:
        """The box with its brass edge: the same for every result, so drawn once as a picture
        (``art.Picture``): its rounded shapes filled on every frame cost a software renderer
        0.4 ms of each flip while a result is up, the picture under 0.1 ms."""
        Color(*theme.RAISED)
        RoundedRectangle(pos=self.pos, size=self.size, radius=[theme.px(10)])
        Color(*theme.ACCENT)
        Line(rounded_rectangle=(self.x, self.y, self.width, self.height, theme.px(10)), width=1.3)

    @classmethod
    def texts(cls) -> list[tuple[str, float]]:
        """Every text a result can show, with its size: "Inside, 7" for each zone and
        face, each meaning, and each face on the die (all bold)."""
        side = (theme.px(cls.HEIGHT_PX) - 2 * theme.px(10)) * 0.8
        wheres = [f"{zone.capitalize()}, {face}" for zone in art.ZONES for face in art.D10_FACES]
        return ([(text, theme.font(cls.WHERE_PX)) for text in wheres]
                + [(meaning, theme.font(cls.MEANING_PX)) for meaning in MEANING_COLOUR]
                + [(str(face), side * 0.36) for face in art.D10_FACES])

    _ahead_for: tuple[float, list[tuple[str, float, bool]]] | None = None

    def render_ahead(self) -> None:
        """Make ready, in the frames to come, what a landing will show here (called while a
        throw is awaited): the textures of every text a result can show, one per frame, and
        the picture of its box at its place. A landing's frame then only draws them. The list
        is made once per screen size: a landing that leaves the next die awaited asks again."""
        made = self._ahead_for
        if made is None or made[0] != theme.scale():
            made = self._ahead_for = (theme.scale(), [(text, size, True) for text, size in self.texts()])
        art.render_ahead(made[1])
        Clock.schedule_once(self._box_ahead, art.NEXT_FRAME)

    def _box_ahead(self, _dt: float) -> None:
        if self.shown is None and self.width >= 4 and self.height >= 4:
            self._box.render(self._draw_box, self.x, self.y, self.width, self.height, key=theme.scale())

    def on_touch_down(self, touch) -> bool:
        return False  # the news never stands between the table and the next throw
