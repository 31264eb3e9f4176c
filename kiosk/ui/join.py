"""The Join screen: a QR code and a short code per seat, so each player's phone can join.

Reached by the "Phones" button on the play screen's top bar. Each seat shows
the player's name, a QR code of its join link (the token rides in the link's
fragment, which a browser never sends in a request line), the 6-letter code
to type instead, and whether a phone holds the seat. The host can free a
seat (a lost phone, a swapped seat); its link and code change at once.
The Wi-Fi name and password come from the ``[phones]`` config section.

QR codes are made by segno: pure Python with no image library needed, and
its module matrix is drawn here straight into a one-byte-per-module Kivy
texture scaled up with nearest-neighbour filtering, so the code stays sharp
at any size and costs a few hundred bytes.
"""

from __future__ import annotations

import math

from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup as esc

from . import theme
from .theme import Big, Framed, Text, px

QUIET_ZONE = 2
"""Modules of white around the code (the standard asks for 4; 2 scans well from a screen)."""


def qr_texture(text: str) -> Texture:
    """A QR code of ``text`` as a small luminance texture, one texel per module."""
    import segno

    code = segno.make(text, error="m", micro=False)
    matrix = [list(row) for row in code.matrix]
    n = len(matrix) + 2 * QUIET_ZONE
    rows = [[255] * n for _ in range(QUIET_ZONE)]
    rows += [[255] * QUIET_ZONE + [0 if dark else 255 for dark in row] + [255] * QUIET_ZONE for row in matrix]
    rows += [[255] * n for _ in range(QUIET_ZONE)]
    data = bytes(v for row in reversed(rows) for v in row)  # Kivy's textures start at the bottom row
    texture = Texture.create(size=(n, n), colorfmt="luminance")
    texture.blit_buffer(data, colorfmt="luminance", bufferfmt="ubyte")
    texture.mag_filter = texture.min_filter = "nearest"
    return texture


class SeatCard(Framed):
    """One seat: name, QR code, short code, whether a phone holds it, and "Free this seat"."""

    def __init__(self, screen, player: str, **kw) -> None:
        super().__init__(orientation="vertical", padding=px(4), spacing=px(2), **kw)
        self.screen, self.player = screen, player
        self.name = Text(f"[b]{esc(player)}[/b]", size=17, halign="center")
        self.qr = Image(fit_mode="contain", size_hint_y=1)
        self.code = Text("", size=17, halign="center")
        self.state = Text("", size=13, halign="center", color=theme.DIM)
        self.free = Big("Free this seat", kind="sunken", size=13, height=px(36))
        self.free.tag = f"join:free:{player}"
        self.free.bind(on_release=lambda *_: screen.free(player))
        for w in (self.name, self.qr, self.code, self.state, self.free):
            self.add_widget(w)
        self._link: str | None = None

    def show(self, link: str | None, code: str, joined: bool, taken: bool) -> None:
        if link != self._link:
            self._link = link
            self.qr.texture = qr_texture(link) if link else None
        self.code.text = f"code [b]{esc(code)}[/b]" if code else ""
        self.state.text = "phone joined" if joined else ("phone away" if taken else "free: scan to join")
        self.free.disabled = not taken


class JoinScreen(Screen):
    def __init__(self, app, **kw) -> None:
        super().__init__(name="join", **kw)
        self.app = app
        self.back_to = "play"
        root = BoxLayout(orientation="vertical", padding=px(8), spacing=px(6))
        top = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(6))
        self.heading = Text("[b]Join with your phone[/b]", size=20, color=theme.ACCENT, fit=False, size_hint_x=0.5)
        top.add_widget(self.heading)
        self.toggle = Big("Turn phones off", kind="quiet", size=14, size_hint_x=0.25)
        self.toggle.tag = "join:toggle"
        self.toggle.bind(on_release=lambda *_: self.app.ask_phones(not self.app.phones_on()))
        top.add_widget(self.toggle)
        back = Big("Back to the game", kind="accent", size=16, size_hint_x=0.25)
        back.tag = "join:back"
        back.bind(on_release=lambda *_: self.app.show_screen(self.back_to))
        top.add_widget(back)
        root.add_widget(top)
        self.help = Text("", size=15)
        root.add_widget(self.help)
        self.grid = GridLayout(cols=4, spacing=px(6))
        root.add_widget(self.grid)
        self.add_widget(root)
        self.cards: dict[str, SeatCard] = {}
        self._ticker = None

    def on_pre_enter(self, *_) -> None:
        self.refresh()
        self._ticker = Clock.schedule_interval(lambda dt: self.refresh(), 1.0)  # phones come and go

    def on_leave(self, *_) -> None:
        if self._ticker:
            self._ticker.cancel()

    def free(self, player: str) -> None:
        if self.app.phones is not None:
            self.app.phones.free(player)
            self.app.message(f"{player}'s seat is free: its code has changed.")
        self.refresh()

    def refresh(self) -> None:
        bridge, cfg = self.app.phones, self.app.config_hw.phones
        self.toggle.text = "Turn phones off" if self.app.phones_on() else "Turn phones on"
        if bridge is None or bridge.book is None:
            self.grid.clear_widgets()
            self.cards = {}
            problem = getattr(self.app, "phones_problem", None)
            self.help.text = esc(problem) if problem else (
                "Phones are off. The pads and the touchscreen work as always." if not self.app.phones_on()
                else "Phones can join once a game is on the table.")
            return
        network = wifi_text(cfg)
        self.help.text = (f"{network + ' ' if network else ''}Scan your seat's code with your phone's camera, or open "
                          f"[b]{esc(bridge.server.base_url())}[/b] and type the code. "
                          "Your phone shows only what is yours.")
        players = bridge.book.players()
        if list(self.cards) != players:
            self.grid.clear_widgets()
            self.grid.cols = min(4, len(players))
            self.grid.rows = math.ceil(len(players) / self.grid.cols)
            self.cards = {p: SeatCard(self, p) for p in players}
            for card in self.cards.values():
                self.grid.add_widget(card)
        joined = bridge.server.connected()
        for player, card in self.cards.items():
            seat = bridge.book.seat(player)
            card.show(bridge.server.join_url(player), seat.code, player in joined, seat.taken)


def wifi_text(phones) -> str:
    """The Wi-Fi players join, with its password, in markup ("" when none is set)."""
    if not phones.network_name:
        return ""
    password = f", password [b]{esc(phones.network_password)}[/b]" if phones.network_password else ""
    return f"Wi-Fi [b]{esc(phones.network_name)}[/b]{password}."
