"""A result for every throw (Hell for Leather, issue 30): the news in large type, for a moment.

When a d10's landing is entered, the play screen shows it over the prompt area:
the die drawn in its zone's colour with its face, and beside it the zone, the face
and what it means ("Inside, 7: Merit"), large enough to read from a chair. It
stays ``RESULT_S`` seconds and then goes; it takes no touch, so the next throw is
never held up. The log strip keeps the record; this is the news.

Drawing it must not slow the landing it reports (benchmarks/kiosk_latency.py): the
widget is made once per play screen and its words are rendered once per
(zone, face, meaning), then reused.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout

from . import art, theme
from .theme import Filled, Text, px

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


class ThrowResult(Filled):
    """The last landing, large: a d10 and "Inside, 7" over its meaning. ``show`` puts it up
    for ``RESULT_S``; it never takes a touch."""

    def __init__(self, **kw) -> None:
        super().__init__(orientation="horizontal", padding=px(10), spacing=px(12), bg=theme.RAISED, radius=px(10),
                         size_hint=(None, None), **kw)
        self.die = art.D10(size_hint_x=None, width=px(90))
        self.add_widget(self.die)
        words = BoxLayout(orientation="vertical")
        self.where = Text("", size=30, bold=True, fit=False)
        self.where.tag = "result:where"
        self.meaning = Text("", size=40, bold=True, fit=False)
        self.meaning.tag = "result:meaning"
        words.add_widget(self.where)
        words.add_widget(self.meaning)
        self.add_widget(words)
        self.opacity = 0
        self._event = None
        self.shown: dict[str, Any] | None = None

    def show(self, landing: dict[str, Any]) -> None:
        self.shown = landing
        zone = str(landing["zone"]).capitalize()
        self.die.show(landing["face"], landing["zone"])
        self.where.text = f"{zone}, {landing['face']}"
        self.meaning.text = landing["meaning"]
        self.meaning.color = MEANING_COLOUR.get(landing["meaning"], theme.INK)
        self.opacity = 1
        if self._event is not None:
            self._event.cancel()
        self._event = Clock.schedule_once(lambda dt: self.hide(), RESULT_S["value"])

    def hide(self) -> None:
        self.opacity = 0
        self.shown = None
        self._event = None

    def on_touch_down(self, touch) -> bool:
        return False  # the news never stands between the table and the next throw
