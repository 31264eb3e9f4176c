"""The play screen's Menu: what the table may do about the game itself.

Pausing is anyone's: the game is on disk move by move already, so "Pause: go
home" needs no PIN and loses nothing; the game waits in the home screen's list.
Giving a game up for good, and the operator menu, stay behind the PIN.
"""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout

from . import theme
from .overlays import Overlay
from .theme import Big, Filled, Text, px

ITEMS = [
    ("Pause: go home (the game is kept)", "pause", "accent", "pause_game"),
    ("Save the log", "save", "normal", "export_current"),
    ("Abandon this game (operator PIN)", "abandon", "bad", "ask_abandon"),
    ("Operator menu (PIN)", "operator", "normal", "ask_operator"),
]
"""(text, tag, kind, the app's method): tagged ``gamemenu:<tag>``."""


class GameMenu(Overlay):
    def __init__(self, app) -> None:
        super().__init__(size_hint=(0.7, 0.9))
        box = Filled(orientation="vertical", padding=px(14), spacing=px(8), bg=theme.PANEL)
        box.add_widget(Text("Game menu", size=24, bold=True, color=theme.ACCENT, halign="center"))
        for text, tag, kind, method in ITEMS:
            b = Big(text, kind=kind, size=19)
            b.tag = f"gamemenu:{tag}"
            b.bind(on_release=lambda *_, m=method: self._do(getattr(app, m)))
            box.add_widget(b)
        box.add_widget(BoxLayout())
        back = Big("Back to the game", kind="sunken", size=19)
        back.tag = "gamemenu:back"
        back.bind(on_release=lambda *_: self.dismiss())
        box.add_widget(back)
        self.add_widget(box)

    def _do(self, action) -> None:
        """Close the menu first: what follows may open the PIN pad, or leave the play screen."""
        self.dismiss()
        action()
