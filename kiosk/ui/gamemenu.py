"""The play screen's Menu: what the table may do about the game itself.

Pausing is anyone's: the game is on disk move by move already, so "Pause: go
home" needs no PIN and loses nothing; the game waits in the home screen's list.
Giving a game up for good, and the operator menu, stay behind the PIN.
"""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.utils import escape_markup as esc

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


class RecapCode(Overlay):
    """After "Save the log" with phones on: a QR code of the game's story (the recap, public
    only) on the phone server, with where the files went in words."""

    def __init__(self, url: str, said: str) -> None:
        from .join import qr_texture

        super().__init__(size_hint=(0.9, 0.96))
        self.url = url
        box = Filled(orientation="vertical", padding=px(12), spacing=px(8), bg=theme.PANEL)
        box.add_widget(Text("Scan to read the story of this game on your phone", size=21, bold=True,
                            color=theme.ACCENT, halign="center"))
        self.code = Image(fit_mode="contain", size_hint_y=1)
        self.code.texture = qr_texture(url)
        box.add_widget(self.code)
        box.add_widget(Text(esc(said), size=15, color=theme.DIM, halign="center"))
        close = Big("Done", kind="accent", size=19)
        close.tag = "recap:close"
        close.bind(on_release=lambda *_: self.dismiss())
        box.add_widget(close)
        self.add_widget(box)
