"""The five-count after a shaky throw (Hell for Leather), as a big countdown.

When the Heat wobbles after a throw, the table counts to five before reading
the dice; if the stack falls in that time, the fall counts. On the count
prompt this widget is first a button that starts the count. Counting, it
shows one big number (5 to 1, one a second, a tick with each) beside the
words and a Stop button, in the prompt area where the button was: it never
covers the prompt's own buttons, and the count can be stopped at any moment
or simply ignored (Confirm and the rest stay pressable throughout).

When the count ends it says how it went: the Heat held (read the dice now),
or it fell, with how many dice came down. A fall is read from the game's log
(a ``heat_fall`` entered during the count) and from the tray's sensed Heat,
whichever shows it first; a fall ends the count at once.
"""

from __future__ import annotations

from typing import Any, Callable

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout

from . import theme
from .theme import Big, Filled, Text, px

COUNT_FROM = 5
START_TEXT = "The Heat wobbled: start the five-count"
HELD_TEXT = "Five! The Heat held. Read the dice now."


def fell_text(dice: int) -> str:
    return f"The Heat fell during the count: {dice} {'die' if dice == 1 else 'dice'} down. Enter the fall."


class FiveCount(BoxLayout):
    """The five-count for one game: idle (a start button), counting (a big number), or done.

    ``runner`` is the game (its log shows a fall entered by touch); ``tray`` returns
    the controller's ``TrayState`` or None (its ``heat`` shows a fall the tray sensed);
    ``tick`` plays the tick (the app's sound cues, which respect mute and quiet hours).
    """

    def __init__(self, runner: Any, tray: Callable[[], Any], tick: Callable[[], None], **kw: Any) -> None:
        super().__init__(orientation="horizontal", spacing=px(6), size_hint_y=None, height=px(theme.TOUCH), **kw)
        self.runner, self.tray, self.tick = runner, tray, tick
        self.left: int | None = None
        """The number on show while counting, None when not counting."""
        self._event: Any = None
        self._from_log = 0  # the log's length when the count started
        self._from_heat: int | None = None  # the tray's Heat then
        self._done_at: int | None = None  # the log's length when the outcome was shown
        self.start_button = Big(START_TEXT, kind="normal", size=17)
        self.start_button.tag = "prompt:five-count"
        self.start_button.bind(on_release=lambda *_: self.start())
        self.number = Filled(bg=theme.RAISED, radius=px(8), size_hint_x=0.3)
        self.number_text = Text("", size=76, bold=True, color=theme.ACCENT, halign="center", fit=False)
        self.number_text.tag = "five-count:number"
        self.number.add_widget(self.number_text)
        side = BoxLayout(orientation="vertical", spacing=px(6))
        side.add_widget(Text("Counting to five: watch the Heat", size=20, bold=True, fit=False))
        self.stop_button = Big("Stop the count", kind="quiet", size=17)
        self.stop_button.tag = "prompt:five-count:stop"
        self.stop_button.bind(on_release=lambda *_: self.stop())
        side.add_widget(self.stop_button)
        self.counting_side = side
        self.add_widget(self.start_button)

    @property
    def text(self) -> str:
        """What the count says now: the start button's words, or the number counting."""
        return self.start_button.text if self.left is None else str(self.left)

    def refresh(self) -> None:
        """Called each time the count prompt is drawn: a count that ended before this throw starts over."""
        if self.left is None and self._done_at is not None and self._done_at != len(self.runner.session.log):
            self._show_idle(START_TEXT)

    def start(self) -> None:
        self.stop()
        self._from_log = len(self.runner.session.log)
        tray = self.tray()
        self._from_heat = tray.heat if tray is not None else None
        self.clear_widgets()
        self.add_widget(self.number)
        self.add_widget(self.counting_side)
        self.height = px(theme.TOUCH) + px(40)  # the number as big as fits without pushing Go on far down
        self._show(COUNT_FROM)

    def stop(self) -> None:
        """Stop counting and show the start button again (a count can always be dropped)."""
        if self._event is not None:
            self._event.cancel()
            self._event = None
        if self.left is not None:
            self._show_idle(START_TEXT)

    def fallen(self) -> int:
        """Dice that came down since the count started: entered in the game, or sensed by the tray."""
        entered = sum(len(a.faces) for a in self.runner.session.log[self._from_log:] if a.type == "heat_fall")
        tray = self.tray()
        heat = tray.heat if tray is not None else None
        sensed = self._from_heat - heat if self._from_heat is not None and heat is not None else 0
        return max(entered, sensed, 0)

    def _show(self, left: int) -> None:
        self.left = left
        self.number_text.text = str(left)
        self.tick()
        from .motion import ANIMATION_SCALE

        self._event = Clock.schedule_once(lambda dt: self._step(), 1.0 * ANIMATION_SCALE["value"])

    def _step(self) -> None:
        self._event = None
        fallen = self.fallen()
        if fallen:  # kept even when the fall's own entry has taken the prompt area: Back shows it here
            self._finish(fell_text(fallen))
        elif self.get_root_window() is None:  # the prompt moved on (the count was answered): drop it quietly
            self._show_idle(START_TEXT)
        elif self.left is not None and self.left > 1:
            self._show(self.left - 1)
        else:
            self._finish(HELD_TEXT)

    def _finish(self, text: str) -> None:
        self._done_at = len(self.runner.session.log)
        self._show_idle(text, kind="good" if text == HELD_TEXT else "bad")

    def _show_idle(self, text: str, kind: str = "normal") -> None:
        self.left = None
        self.start_button.text = text
        self.start_button.kind = kind
        self.clear_widgets()
        self.add_widget(self.start_button)
        self.height = px(theme.TOUCH)
