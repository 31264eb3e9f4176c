"""Operator access: the PIN in force, the wait after wrong tries, and the way past the PIN.

Leaving the kiosk, abandoning a game, turning phones on or off, the settings: the operator's
calls, each behind the PIN (``kiosk.pin`` says how the PIN is kept and slowed down). This
part decides what happens when someone asks: the PIN pad, then, the first time the PIN the
kiosk ships with is used, the choice of the operator's own PIN, then what was asked for.

The pads themselves are Kivy overlays (``kiosk.ui.overlays.PinPad`` and ``NewPin``); this
part only asks for them through the two callables it is given, so it runs without a window.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable

from hardware.operator_pin import DEFAULT_PIN

if TYPE_CHECKING:
    from hardware.config import KioskConfig
    from kiosk.pin import Lockout
    from kiosk.store import Store

OpenPinPad = Callable[[Callable[[str], "bool | None"], Callable[[str], None], str], None]
"""``open_pin_pad(attempt, accepted, heading)``: show the PIN pad; it calls ``attempt(typed)``
on OK (True right, False wrong, None not taken yet) and ``accepted(typed)`` once it is right."""

OpenNewPin = Callable[[Callable[[str], None], str], None]
"""``open_new_pin(chosen, heading)``: ask for a new PIN twice; ``chosen(pin)`` when both agree."""

CHOOSE_YOUR_OWN = ("Choose your own operator PIN first (4 to 8 digits, then OK): "
                   "the one the kiosk ships with is public")
SAME_AS_SHIPPED = "Not changed: choose a PIN other than the one the kiosk ships with."


class OperatorAccess:
    """Who may do the operator's things: the PIN pad, the lockout, the first-use PIN change.

    ``kiosk`` gives the kiosk settings in force (read at each ask, so a changed PIN applies at
    once); ``change_setting(name, value)`` keeps a setting and returns what is wrong or None;
    ``say(text, refused)`` tells the table something. The count of wrong PINs and the wait
    they earned are kept in ``store``, so a restart does not reset them.
    """

    LOCKOUT_SETTING = "pin_lockout"

    def __init__(self, store: Store, kiosk: Callable[[], KioskConfig],
                 change_setting: Callable[[str, Any], str | None], say: Callable[[str, bool], None],
                 open_pin_pad: OpenPinPad, open_new_pin: OpenNewPin,
                 clock: Callable[[], float] = time.time) -> None:
        self.store, self.kiosk, self.change_setting, self.say = store, kiosk, change_setting, say
        self.open_pin_pad, self.open_new_pin, self.clock = open_pin_pad, open_new_pin, clock
        self._plain_hashed: tuple[str, str] | None = None

    @property
    def pin_hash(self) -> str:
        """The salted hash of the PIN in force: the one kept on the kiosk or in the file, else the
        file's plain PIN hashed once (the plain PIN never reaches the store). With neither, the
        PIN the kiosk ships with, which the first use asks to replace."""
        from kiosk.pin import hash_pin  # hashlib and friends: not before the first frame

        kiosk = self.kiosk()
        if kiosk.operator_pin_hash:
            return kiosk.operator_pin_hash
        plain = kiosk.operator_pin or DEFAULT_PIN
        if self._plain_hashed is None or self._plain_hashed[0] != plain:
            self._plain_hashed = (plain, hash_pin(plain))
        return self._plain_hashed[1]

    @property
    def lockout(self) -> Lockout:
        """Wrong PINs in a row and the wait they earned, kept in the store."""
        from kiosk.pin import Lockout

        def load() -> tuple[int, float]:
            wrong, until = self.store.settings().get(self.LOCKOUT_SETTING, [0, 0.0])
            return int(wrong), float(until)

        def save(wrong: int, until: float) -> None:
            self.store.save_setting(self.LOCKOUT_SETTING, [wrong, until])

        return Lockout(load, save, self.clock)

    def ask(self, on_ok: Callable[[], None], why: str = "Operator PIN") -> None:
        """The PIN pad headed ``why``; ``on_ok`` runs only after the right PIN (and, while the
        PIN is still the shipped one, only once the operator has chosen their own)."""
        from kiosk.pin import check

        stored = self.pin_hash

        def accepted(typed: str) -> None:
            if not check(DEFAULT_PIN, stored):
                on_ok()
                return
            self.open_new_pin(lambda pin: self._chosen(pin, on_ok), CHOOSE_YOUR_OWN)

        self.open_pin_pad(lambda typed: self.lockout.attempt(typed, stored), accepted, why)

    def _chosen(self, pin: str, on_ok: Callable[[], None]) -> None:
        problem = SAME_AS_SHIPPED if pin == DEFAULT_PIN else self.change_setting("operator_pin", pin)
        if problem:
            self.say(problem, True)
            return
        on_ok()
