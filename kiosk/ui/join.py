"""The Join screen: each player's phone joins their own seat, and only theirs.

Reached by the "Phones" button on the play screen's top bar, by anyone: it
shows the seats and whether a phone holds each, never a code by itself. A
seat's QR code (its join link; the token rides in the link's fragment, which
a browser never sends in a request line) and its 6-letter code show only when
that seat's player asks: they hold Gray on their own pad for a second (the
pads are captured while this screen is up, so the hold plays nothing), or,
for a player with no pad, the host shows it with the operator PIN. One seat
at a time, for ``SHOW_S`` at most, and gone as soon as a phone sits in it.
Freeing a seat (a lost phone, a swapped seat) needs the PIN too; its link and
code change at once. The shared screen announces every phone that sits down
(``PhoneBridge.say``). The Wi-Fi name and password come from ``[phones]``.

QR codes are made by segno: pure Python with no image library needed, and
its module matrix is drawn here straight into a one-byte-per-module Kivy
texture scaled up with nearest-neighbour filtering, so the code stays sharp
at any size and costs a few hundred bytes.
"""

from __future__ import annotations

import math
import time

from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup as esc

from . import theme
from .overlays import HOLD_S
from .theme import Big, Framed, Text, px

SHOW_S = 60.0
"""How long one seat's code stays on screen (it goes at once when a phone sits in that seat)."""

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
    """One seat: name, whether a phone holds it, its code only while shown, and the PIN buttons."""

    def __init__(self, screen, player: str, **kw) -> None:
        super().__init__(orientation="vertical", padding=px(4), spacing=px(2), **kw)
        self.screen, self.player = screen, player
        self.name = Text(f"[b]{esc(player)}[/b]", size=17, halign="center")
        self.qr = Image(fit_mode="contain", size_hint_y=1, opacity=0)
        self.code = Text("", size=17, halign="center")
        self.state = Text("", size=13, halign="center", color=theme.DIM)
        buttons = BoxLayout(size_hint_y=None, height=px(36), spacing=px(4))
        self.reveal = Big("Show code (PIN)", kind="sunken", size=12, height=px(36))
        self.reveal.tag = f"join:show:{player}"
        self.reveal.bind(on_release=lambda *_: screen.ask_show(player))
        self.free = Big("Free (PIN)", kind="sunken", size=12, height=px(36))
        self.free.tag = f"join:free:{player}"
        self.free.bind(on_release=lambda *_: screen.ask_free(player))
        buttons.add_widget(self.reveal)
        buttons.add_widget(self.free)
        for w in (self.name, self.state, self.qr, self.code, buttons):
            self.add_widget(w)
        self._link: str | None = None

    def show(self, link: str | None, code: str, joined: bool, taken: bool) -> None:
        """``link`` and ``code`` are given only for the one seat being shown."""
        if link != self._link:
            self._link = link
            self.qr.texture = qr_texture(link) if link else None
            self.qr.opacity = 1 if link else 0  # no white square where no code is shown
        self.code.text = f"code [b]{esc(code)}[/b]" if code else ""
        self.state.text = "phone joined" if joined else ("phone away" if taken else "no phone")
        self.free.disabled = not taken
        self.reveal.disabled = taken


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
        self.note = Text("", size=15, color=theme.ACCENT)
        root.add_widget(self.note)
        self.grid = GridLayout(cols=4, spacing=px(6))
        root.add_widget(self.grid)
        self.add_widget(root)
        self.cards: dict[str, SeatCard] = {}
        self.shown: str | None = None
        """The one seat whose code is on screen, if any."""
        self._shown_until = 0.0
        self._ticker = None
        self._pads: list[int] = []

    def on_pre_enter(self, *_) -> None:
        self.hide()
        self.refresh()
        self._ticker = Clock.schedule_interval(lambda dt: self.refresh(), 1.0)  # phones come and go
        self._capture_pads()

    def on_leave(self, *_) -> None:
        if self._ticker:
            self._ticker.cancel()
        self._release_pads()
        self.hide()

    # -- who may see a seat's code ----------------------------------------------------

    def _capture_pads(self) -> None:
        """While this screen is up, each seated player's pad talks to it (a Gray hold shows their code)."""
        controller, bridge = self.app.controller, self.app.phones
        if controller is None or bridge is None or bridge.book is None:
            return
        for seat in range(1, len(bridge.book.players()) + 1):
            if controller.has_pad(seat):
                controller.capture(seat, self.pad_event)
                self._pads.append(seat)

    def _release_pads(self) -> None:
        controller = self.app.controller
        for seat in self._pads:
            if controller is not None:
                controller.release(seat, self.pad_event)
        self._pads = []

    def pad_event(self, event) -> None:
        """A seated player's own pad: a Gray hold of ``HOLD_S`` shows that player's code, no one else's."""
        from hardware.events import ButtonColour, ButtonReleased

        bridge = self.app.phones
        if not isinstance(event, ButtonReleased) or event.button is not ButtonColour.GRAY or bridge is None \
                or bridge.book is None or not 0 < event.player <= len(bridge.book.players()):
            return
        player = bridge.book.players()[event.player - 1]
        if event.held_s < HOLD_S:
            self.note.text = f"{esc(player)}: hold Gray a little longer, until your code shows."
            return
        self.show(player)

    def ask_show(self, player: str) -> None:
        """A player with no pad: the host shows their code, with the operator PIN."""
        self.app.ask_operator(lambda: self.show(player), why=f"Operator PIN to show {player}'s seat code")

    def show(self, player: str) -> None:
        bridge = self.app.phones
        if bridge is None or bridge.book is None or player not in bridge.book.seats:
            return
        if bridge.book.seat(player).taken:
            self.note.text = (f"{esc(player)}'s seat already has a phone. If it is lost, the host frees the seat "
                              "(operator PIN), then the code can be shown again.")
            return
        self.shown, self._shown_until = player, time.monotonic() + SHOW_S
        self.note.text = f"[b]{esc(player)}[/b]'s code: only {esc(player)} scans it. Everyone else, look away."
        self.refresh()

    def hide(self) -> None:
        self.shown = None
        self.note.text = ""

    def ask_free(self, player: str) -> None:
        self.app.ask_operator(lambda: self.free(player), why=f"Operator PIN to free {player}'s seat")

    def free(self, player: str) -> None:
        """Let go of ``player``'s phone (its page is told why) and make a new link and code."""
        if self.app.phones is not None:
            self.app.phones.free(player)
            self.app.message(f"{player}'s seat is free: its code has changed. {player} holds Gray to see the new one.")
        self.refresh()

    # -- drawing -----------------------------------------------------------------------

    def refresh(self) -> None:
        bridge, cfg = self.app.phones, self.app.config_hw.phones
        self.toggle.text = "Turn phones off" if self.app.phones_on() else "Turn phones on"
        if bridge is None or bridge.book is None:
            self.grid.clear_widgets()
            self.cards = {}
            self.hide()
            problem = getattr(self.app, "phones_problem", None)
            self.help.text = esc(problem) if problem else (
                "Phones are off. The pads and the touchscreen work as always." if not self.app.phones_on()
                else "Phones can join once a game is on the table.")
            return
        network = wifi_text(cfg)
        self.help.text = (f"{network + ' ' if network else ''}To join, hold [b]Gray (triangle)[/b] on your own pad "
                          "for a second: your seat's code shows here, for you alone. No pad? The host shows it "
                          f"(PIN). Then scan it, or open [b]{esc(bridge.server.base_url())}[/b] and type it. "
                          "Your phone shows only what is yours.")
        players = bridge.book.players()
        if list(self.cards) != players:
            self.grid.clear_widgets()
            self.grid.cols = min(4, len(players))
            self.grid.rows = math.ceil(len(players) / self.grid.cols)
            self.cards = {p: SeatCard(self, p) for p in players}
            for card in self.cards.values():
                self.grid.add_widget(card)
        shown = self.shown
        if shown is not None and (shown not in bridge.book.seats or bridge.book.seat(shown).taken
                                  or time.monotonic() > self._shown_until):
            self.hide()  # a phone sat down (or time is up): the code leaves the screen
            shown = None
        joined = bridge.server.connected()
        for player, card in self.cards.items():
            seat = bridge.book.seat(player)
            mine = player == shown
            card.show(bridge.server.join_url(player) if mine else None, seat.code if mine else "",
                      player in joined, seat.taken)


def wifi_text(phones) -> str:
    """The Wi-Fi players join, with its password, in markup ("" when none is set)."""
    if not phones.network_name:
        return ""
    password = f", password [b]{esc(phones.network_password)}[/b]" if phones.network_password else ""
    return f"Wi-Fi [b]{esc(phones.network_name)}[/b]{password}."
