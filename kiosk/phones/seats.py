"""Seats at the table and who may sit in them.

Every game on screen gets a fresh ``SeatBook``: one seat per player, each
with an unguessable join token (for the QR link) and a short code (to type).
The first phone that joins a seat gets a device key and keeps the seat; a
reload or a phone that slept presents its key and comes back to the same
seat. Another phone holding the same link is refused with the very words a
wrong code gets, so a guess never learns that a code is real or whose seat it
is; one seat has one phone. The host frees a seat (operator PIN), which also
changes its token and code, so the old link stops working. When the game ends the whole book is closed and
no token works any more.

Tokens, codes and device keys are secrets: nothing here logs them, and
``Seat.__repr__`` leaves them out.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field

CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY34679"
"""Letters and digits that are hard to mistake for one another (no O/0, I/1, B/8, S/5)."""
CODE_LENGTH = 6


NO_SEAT = ("That link or code does not open a seat at this table now. Ask for your own seat's code on the "
           "table (hold Gray on your pad). If this was your seat and your phone lost it, the host can free it.")


class SeatRefused(Exception):
    """A join that cannot be granted; the message is for the phone's screen."""


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@dataclass
class Seat:
    player: str
    token: str = field(default_factory=new_token, repr=False)
    code: str = field(default_factory=new_code, repr=False)
    device: str | None = field(default=None, repr=False)
    conn: int | None = None
    had_phone: bool = False
    """A phone held this seat before (then freed): the next one "took" it, and the table is told so."""

    @property
    def taken(self) -> bool:
        return self.device is not None


class SeatBook:
    """The seats of one game. Safe to use from the UI thread and the server's thread."""

    def __init__(self, players: list[str]) -> None:
        self._lock = threading.Lock()
        self.open = True
        self.seats: dict[str, Seat] = {}
        codes: set[str] = set()
        for player in players:
            seat = Seat(player)
            while seat.code in codes:
                seat.code = new_code()
            codes.add(seat.code)
            self.seats[player] = seat

    def players(self) -> list[str]:
        return list(self.seats)

    def seat(self, player: str) -> Seat:
        return self.seats[player]

    def claim(self, token: str | None, code: str | None, device: str | None,
              conn: int) -> tuple[Seat, str, int | None, str]:
        """Sit ``conn`` in the seat that ``token`` (or the typed ``code``) opens.

        Returns the seat, the device key the phone keeps, the connection it
        replaces (the same phone before a reload) if any, and how it sat down:
        "joined" (the seat's first phone), "took" (a new phone after the seat
        was freed) or "back" (the same phone again). Raises ``SeatRefused``, with
        the same words for a wrong code and for a seat another phone holds.
        """
        with self._lock:
            if not self.open:
                raise SeatRefused("This game has ended. Scan the code of the next game on the table.")
            seat = self._find(token, code)
            if seat is not None and seat.device is not None and not (
                    device is not None and secrets.compare_digest(device, seat.device)):
                seat = None  # held by another phone: told exactly as a wrong code is
            if seat is None:
                raise SeatRefused(NO_SEAT)
            how = "back"
            if seat.device is None:
                seat.device = secrets.token_urlsafe(24)
                how = "took" if seat.had_phone else "joined"
                seat.had_phone = True
            replaced, seat.conn = seat.conn, conn
            return seat, seat.device, replaced if replaced != conn else None, how

    def _find(self, token: str | None, code: str | None) -> Seat | None:
        for seat in self.seats.values():
            if token and secrets.compare_digest(token, seat.token):
                return seat
            if code and secrets.compare_digest(code.strip().upper(), seat.code):
                return seat
        return None

    def left(self, conn: int) -> None:
        """A connection closed; its seat stays taken (the same phone may come back)."""
        with self._lock:
            for seat in self.seats.values():
                if seat.conn == conn:
                    seat.conn = None

    def who(self, conn: int) -> str | None:
        """The player whose seat this connection holds now, if any."""
        with self._lock:
            for seat in self.seats.values():
                if seat.conn == conn and seat.device is not None:
                    return seat.player
            return None

    def free(self, player: str) -> int | None:
        """The host frees a seat: a new token and code, no phone. Returns the connection to close."""
        with self._lock:
            seat = self.seats[player]
            old = seat.conn
            seat.device, seat.conn = None, None
            seat.token, seat.code = new_token(), new_code()
            while any(s.code == seat.code for s in self.seats.values() if s is not seat):
                seat.code = new_code()
            return old

    def close(self) -> list[int]:
        """The game is over: no token opens anything now. Returns the connections to close."""
        with self._lock:
            self.open = False
            conns = [s.conn for s in self.seats.values() if s.conn is not None]
            for seat in self.seats.values():
                seat.conn = None
            return conns
