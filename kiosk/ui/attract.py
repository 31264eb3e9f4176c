"""Attract mode: recorded games replayed on the table's own screens, and an invitation.

A shipped example session (``kiosk.demo.Replay``) is played again one action at a
time, drawn by the same status panel the play screen uses, with the last lines of
its public recap beside it; when it ends, the next game's starts. Only what the
shared screen showed when it was played is drawn (secrets stay hidden until the
rules reveal them). Any touch ends it on the home screen, never inside a game: the
last group's game waits in the home list, and each game card offers its lesson.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup as esc

from kiosk import demo

from . import theme
from .fields import readable
from .theme import Filled, Scroll, Text, px

if TYPE_CHECKING:
    from .panels import SafePanel

log = logging.getLogger(__name__)

STEP_S = 1.4
"""Seconds between two replayed actions: long enough to read a recap line."""
HOLD_S = 5.0
"""Seconds the end of a replayed game stays on screen before the next game starts."""


class AttractScreen(Screen):
    """The convention loop: a recorded game plays itself; any touch hands the table back."""

    def __init__(self, app, **kw) -> None:
        super().__init__(name="attract", **kw)
        self.app = app
        root = Filled(orientation="vertical", bg=(0, 0, 0, 1), padding=px(12), spacing=px(8))
        head = BoxLayout(size_hint_y=None, height=px(44))
        head.add_widget(Text("TABLE NOIR", size=30, bold=True, color=theme.ACCENT, fit=False))
        self.title = Text("", size=18, color=theme.DIM, halign="right", fit=False)
        self.title.tag = "attract:game"
        head.add_widget(self.title)
        root.add_widget(head)
        body = BoxLayout(spacing=px(8))
        box = Filled(bg=theme.PANEL, padding=px(6), radius=px(6), size_hint_x=0.46)
        self.panel_box = Scroll(bar=5)  # as on the play screen: a long panel scrolls, never spills
        box.add_widget(self.panel_box)
        body.add_widget(box)
        story = BoxLayout(orientation="vertical")
        story.add_widget(BoxLayout())  # the newest line at the bottom, as on the play screen's log strip
        self.story = Text("", size=16)
        self.story.tag = "attract:story"
        story.add_widget(self.story)
        body.add_widget(story)
        root.add_widget(body)
        invite = Text("Tap to learn a game", size=26, bold=True, color=theme.ACCENT, halign="center")
        invite.tag = "attract:invite"
        root.add_widget(invite)
        root.add_widget(Text("A few minutes, guided by the table. Or pick a game and play.", size=15,
                             color=theme.DIM, halign="center"))
        self.add_widget(root)
        self.replay: demo.Replay | None = None
        self._panel_shown: SafePanel | None = None
        self._next_game = 0
        self._ticker = None
        self._hold = 0.0

    # -- the loop ------------------------------------------------------------------

    def on_enter(self, *_) -> None:
        self._start_next()
        self._ticker = Clock.schedule_interval(lambda dt: self.tick(dt), STEP_S)

    def on_leave(self, *_) -> None:
        if self._ticker:
            self._ticker.cancel()
            self._ticker = None

    def tick(self, dt: float = STEP_S) -> None:
        """One replayed action; at the end, a pause, then the next recorded game."""
        replay = self.replay
        if replay is None:
            return
        if replay.done:
            self._hold += dt
            if self._hold >= HOLD_S:
                self._start_next()
            return
        try:
            replay.step()
        except Exception:  # noqa: BLE001 - a recording this build cannot replay: skip it, keep the loop
            log.exception("attract: cannot replay %s", replay.name)
            self._start_next()
            return
        self._draw(replay)

    def _start_next(self) -> None:
        games = [g for g, _title in self.app.menu() if g != "toy"]
        paths = demo.recordings(games=games)
        self.replay, self._hold = None, 0.0
        for _ in range(len(paths)):
            path = paths[self._next_game % len(paths)]
            self._next_game += 1
            try:
                self.replay = demo.Replay.read(path)
                break
            except Exception:  # noqa: BLE001
                log.exception("attract: cannot read %s", path)
        if self.replay is None:
            self.title.text = ""
            self.story.text = "Story games, refereed by the table."
            return
        self.title.text = esc(f"Now playing: {self.replay.session.engine.title}")
        self._draw(self.replay)

    def _draw(self, replay: demo.Replay) -> None:
        panel = self._panel(replay.game)
        if panel is not None:
            panel.update(replay.view())
        lines = replay.recap(last=6) or ["The game begins."]
        self.story.text = esc("\n".join(readable(line) for line in lines))

    def _panel(self, game: str) -> SafePanel:
        """The play screen's status panel for ``game``: the one shown, or a new one for another
        game (the last game's is let go; kept for every game, they held the memory of all four)."""
        from .play import SafePanel

        panel = self._panel_shown
        if panel is None or panel.game != game:
            panel = self._panel_shown = SafePanel(game)
        if panel.parent is not self.panel_box:
            self.panel_box.clear_widgets()
            self.panel_box.add_widget(panel)
        return panel

    def on_touch_down(self, touch) -> bool:
        self.app.end_attract()
        return True
