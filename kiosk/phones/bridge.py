"""The UI-thread side of the phones: from the game to each phone, and phone answers back.

``PhoneBridge`` listens to the runner like the play screen does. After every
accepted action (from a pad, the touchscreen or a phone) it builds each
player's frame on the UI thread, where the game is never half-changed, and
hands it to the server's thread. A frame is that player's view, their recap
and their sheet, all from ``session.view(player)`` and ``recap(player)``;
nothing else about the game is sent.

Building the frames (every player's view, sheet and recap) costs more than
the rules' own work, and a phone does not need them within the shared
screen's frame. The kiosk therefore passes ``later``, which runs the pushes
once the frame showing the action is on screen (several actions in one frame
give one set of frames: each frame is the whole of a player's view, so the
latest one is all a phone needs). Without ``later`` (tests without a window)
they are pushed at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from . import sheets
from .events import PhoneAction
from .seats import SeatBook
from .server import PhoneServer

if TYPE_CHECKING:
    from kiosk.controller import Handled
    from kiosk.runner import Change, Runner

RECAP_LINES = 6


def seat_news(player: str, how: str) -> str:
    """What the shared screen says when a phone sits in ``player``'s seat."""
    if how == "took":
        return f"A new phone took {player}'s seat (the host had freed it)."
    return f"A phone joined {player}'s seat."


class PhoneBridge:
    def __init__(self, server: PhoneServer, say: Callable[[str], None] | None = None,
                 later: Callable[[Callable[[], None]], None] | None = None) -> None:
        self.server = server
        self.later = later
        """Runs the frames' building and sending after the shared screen's frame (None: at once)."""
        self._pending = False
        self._replies: list[tuple[int, int, str | None]] = []
        """Answers to phones held back until the frames they follow are sent (see ``handled``)."""
        self.runner: Runner | None = None
        self.book: SeatBook | None = None
        self.say = say or (lambda text: None)
        """Any thread: put a line on the shared screen (the app hands it to the UI thread)."""
        server.on_seat = lambda player, how: self.say(seat_news(player, how))
        server.answerable = self.answerable

    def attach(self, runner: Runner) -> None:
        """A game is on screen: new seats, new tokens, and the first frames."""
        self.detach()
        self.runner = runner
        runner.listeners.append(self._changed)
        self._new_book(runner)

    def detach(self) -> None:
        """No game on screen (home, or another game): the old game's tokens die."""
        if self._pending:
            self._catch_up()  # the last actions' frames (and the end) first, as if sent at once
        if self.runner is not None and self._changed in self.runner.listeners:
            self.runner.listeners.remove(self._changed)
        self.runner, self.book = None, None
        self.server.use(None)

    def _new_book(self, runner: Runner) -> None:
        self.book = SeatBook(runner.players())
        self.server.use(self.book)
        self.push_all()

    def frame(self, player: str) -> dict[str, Any]:
        """Everything ``player``'s phone is sent, from that player's view alone (a game is attached)."""
        runner = self.runner
        assert runner is not None, "no game on screen: no frame to send"
        session = runner.session
        view = session.view(player)
        return {
            "player": player,
            "title": runner.engine.title,
            "you": view,
            "sheet": sheets.sentences(runner.engine.game, view, player),
            "recap": session.recap(player, last=RECAP_LINES),
        }

    def push_all(self) -> None:
        runner = self.runner
        if runner is None:
            return
        for player in runner.players():
            self.server.push(player, self.frame(player))

    def _changed(self, change: Change) -> None:
        if self.later is None:
            self._catch_up()
        elif not self._pending:
            self._pending = True
            self.later(self._catch_up)

    def _catch_up(self) -> None:
        """Send every phone the game as it is now (and the end, or fresh seats after an undone end)."""
        self._pending = False
        try:
            self._push_news()
        finally:
            replies, self._replies = self._replies, []
            for reply in replies:
                self.server.reply(*reply)

    def _push_news(self) -> None:
        runner = self.runner
        if runner is None:
            return  # detached by a listener told before this one (or since): that game is no longer on screen
        if self.book is not None and not self.book.open and runner.outcome is None:
            self._new_book(runner)  # the end was undone: a fresh set of seats (the old tokens stay dead)
            return
        self.push_all()
        if runner.outcome is not None:
            self.server.end(f"The game is over. {runner.outcome}")

    def answerable(self, seat: str, action: str) -> str | None:
        """UI thread: why ``seat``'s phone may not answer ``action`` now (None: it may).
        Only a prompt addressed to that very player; the table's own prompts stay on the kiosk."""
        runner = self.runner
        if runner is None or runner.outcome is not None:
            return "there is no game to answer right now"
        prompts = [p for p in runner.awaiting() if p.action == action]
        if any(p.player == seat for p in prompts):
            return None
        if any(p.player is None for p in prompts):
            return "that is the table's to answer, on the shared screen, not from a phone"
        return "that is not yours to answer now"

    def handled(self, result: Handled) -> None:
        """The controller's answer to a phone's action goes back to that phone only."""
        event = result.event
        if not isinstance(event, PhoneAction):
            return
        error = result.error
        if error is None and result.action is None:
            error = "there is no game to answer right now"
        if self._pending:  # the phone hears "done" after the frame its action made, as before
            self._replies.append((event.conn, event.request, error))
        else:
            self.server.reply(event.conn, event.request, error)

    def free(self, player: str) -> None:
        self.server.free(player)
