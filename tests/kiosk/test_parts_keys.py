"""A plugged-in keyboard at the kiosk (kiosk.parts.keys), without a window."""

from __future__ import annotations

from hardware.backends.sim_pads import SimPads, key_for
from hardware.events import ButtonColour, ButtonPressed, ButtonReleased
from kiosk.parts.keys import ESCAPE, F2, Keys


class Kiosk:
    def __init__(self) -> None:
        self.pads = SimPads(players=4)
        self.heard: list = []
        self.pads.subscribe(self.heard.append)
        self.panel_open = False
        self.typing = False
        self.touches = 0
        self.keys = Keys(self.touch, self.toggle, lambda: self.pads if self.panel_open else None, lambda: self.typing)

    def touch(self) -> None:
        self.touches += 1

    def toggle(self) -> None:
        self.panel_open = not self.panel_open


def test_escape_never_leaves_the_kiosk_and_f2_opens_the_sim_panel():
    kiosk = Kiosk()
    assert kiosk.keys.down(ESCAPE, None) is True and not kiosk.panel_open  # swallowed: nothing closes
    assert kiosk.keys.down(F2, None) is True and kiosk.panel_open
    assert kiosk.touches == 2  # each key is someone at the table


def test_letters_press_the_simulated_pads_only_with_the_panel_open_and_nobody_typing():
    kiosk = Kiosk()
    key = key_for(2, ButtonColour.GRAY)
    assert kiosk.keys.down(ord(key), key) is False and kiosk.heard == []  # panel closed: just a key
    kiosk.keys.down(F2, None)
    assert kiosk.keys.down(ord(key), key.upper()) is True and kiosk.keys.up(key) is True
    assert [(type(e), e.player, e.button) for e in kiosk.heard] == [
        (ButtonPressed, 2, ButtonColour.GRAY), (ButtonReleased, 2, ButtonColour.GRAY)]
    kiosk.typing = True  # a player types a name: letters are text
    assert kiosk.keys.down(ord(key), key) is False and len(kiosk.heard) == 2
    kiosk.typing = False
    assert kiosk.keys.down(ord("p"), "p") is False  # no pad has that key
