"""The operator PIN: kept only as a salted hash, and slow to guess.

A kiosk at a convention stand sits in reach of anyone for hours. Its PIN is
short (4-8 digits) because it is typed on a touchscreen, so what protects it
is the cost of a guess, not its length:

* it is stored only as a salted PBKDF2 hash (``hash_pin``/``check``); a plain
  PIN in ``table-noir.toml`` is hashed when the file is read, and the operator
  menu asks the organiser to put the hash in the file instead;
* after ``FREE_TRIES`` wrong PINs every further try waits, twice as long each
  time up to ``MAX_WAIT_S`` (``Lockout``); the count survives a restart;
* a wrong PIN is said only after OK, whatever its length, so the screen never
  tells how many digits the PIN has;
* only ASCII digits are accepted: the PIN pad cannot type anything else.

Nothing here imports Kivy; the PIN pad (``kiosk.ui.overlays.PinPad``) uses it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from dataclasses import dataclass
from typing import Callable

from hardware.operator_pin import DEFAULT_PIN as DEFAULT_PIN  # the kiosk's callers read it here too
from hardware.operator_pin import HASH_PATTERN, PIN_PATTERN

ITERATIONS = 120_000
FREE_TRIES = 3
FIRST_WAIT_S = 5.0
MAX_WAIT_S = 300.0


def valid_pin(pin: str) -> bool:
    return re.fullmatch(PIN_PATTERN, pin) is not None


def hash_pin(pin: str, salt: bytes | None = None, iterations: int = ITERATIONS) -> str:
    """``pbkdf2_sha256$<iterations>$<salt hex>$<hash hex>`` for a PIN of 4-8 ASCII digits."""
    if not valid_pin(pin):
        raise ValueError("an operator PIN is 4 to 8 digits, 0-9")
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode("ascii"), salt, iterations)
    return f"pbkdf2_sha256${iterations}${salt.hex()}${digest.hex()}"


def check(pin: str, stored: str) -> bool:
    """True if ``pin`` is the PIN ``stored`` was made from (in constant time)."""
    if not valid_pin(pin) or re.fullmatch(HASH_PATTERN, stored) is None:
        return False
    _, iterations, salt, digest = stored.split("$")
    got = hashlib.pbkdf2_hmac("sha256", pin.encode("ascii"), bytes.fromhex(salt), int(iterations))
    return hmac.compare_digest(got.hex(), digest)


@dataclass
class Lockout:
    """Wrong PINs in a row, and the time (``time.time()``) before which no try is taken.

    ``load``/``save`` keep the two numbers somewhere that outlives the process (the
    session store's settings), so pulling the plug does not reset the wait.
    """

    load: Callable[[], tuple[int, float]]
    save: Callable[[int, float], None]
    clock: Callable[[], float] = time.time

    def wait_s(self) -> float:
        """Seconds before the next try is taken (0: now)."""
        wrong, until = self.load()
        now = self.clock()
        until = min(until, now + MAX_WAIT_S)  # a clock set back must not lock the kiosk for days
        return max(0.0, until - now)

    def attempt(self, pin: str, stored: str) -> bool | None:
        """Check a typed PIN: True (right), False (wrong), None (not taken: still waiting)."""
        if self.wait_s() > 0:
            return None
        wrong, _ = self.load()
        if check(pin, stored):
            self.save(0, 0.0)
            return True
        wrong += 1
        delay = 0.0 if wrong < FREE_TRIES else min(MAX_WAIT_S, FIRST_WAIT_S * 2 ** min(wrong - FREE_TRIES, 16))
        self.save(wrong, self.clock() + delay)
        return False


def main(argv: list[str] | None = None) -> int:
    """``table-noir pin-hash``: ask for a PIN (twice, not echoed) and print the line for table-noir.toml."""
    import getpass
    import sys

    if argv:
        print("usage: table-noir pin-hash   (asks for the PIN; it is never taken as an argument)", file=sys.stderr)
        return 2
    first = getpass.getpass("New operator PIN (4-8 digits): ")
    if not valid_pin(first):
        print("table-noir pin-hash: a PIN is 4 to 8 digits, 0-9", file=sys.stderr)
        return 2
    if getpass.getpass("The same PIN again: ") != first:
        print("table-noir pin-hash: the two PINs differ; nothing printed", file=sys.stderr)
        return 2
    print(f'operator_pin_hash = "{hash_pin(first)}"   # under [kiosk]; remove operator_pin')
    return 0
