"""What a key on a plugged-in keyboard does at the kiosk (issue 19: a keyboard must not leave it).

* Escape (and Android's back gesture, the same key code) does nothing: the kiosk never
  closes from a keyboard; the operator menu, behind the PIN, can close it.
* F2 opens or closes the sim panel.
* With the sim panel open, letter keys press the simulated pads (``hardware.backends.sim_pads``'s
  key map: one column of keys per pad), unless someone is typing in a text field.

Every key counts as someone at the table. Nothing here imports Kivy: the App passes Kivy's
key codes and text in, and says whether a field has the keyboard.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from hardware.backends.sim_pads import SimPads

ESCAPE = 27
F2 = 283


class Keys:
    """Answers each key; True when the kiosk used it (Kivy then passes it on to nobody).

    ``touched()``: someone is at the table. ``toggle_sim()``: open or close the sim panel.
    ``sim_pads()``: the simulated pads while the sim panel is open, else None.
    ``typing()``: True while a text field has the keyboard."""

    def __init__(self, touched: Callable[[], None], toggle_sim: Callable[[], None],
                 sim_pads: Callable[[], SimPads | None], typing: Callable[[], bool]) -> None:
        self.touched, self.toggle_sim, self.sim_pads, self.typing = touched, toggle_sim, sim_pads, typing

    def down(self, key: int, text: str | None) -> bool:
        """A key went down: its code and the text it types (None for a key that types nothing)."""
        self.touched()
        if key == ESCAPE:
            return True
        if key == F2:
            self.toggle_sim()
            return True
        return self._pad(text, down=True)

    def up(self, text: str | None) -> bool:
        return self._pad(text, down=False)

    def _pad(self, text: str | None, down: bool) -> bool:
        pads = self.sim_pads()
        if pads is None or not text or self.typing():
            return False
        return pads.key(str(text).lower(), down=down)
