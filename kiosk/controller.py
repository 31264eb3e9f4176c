"""From hardware events to game actions.

The pads and the tray deliver events on their own threads. ``Controller``
queues each one and asks the UI thread to drain the queue (through ``post``,
which in the kiosk is a Kivy Clock trigger; Kivy's scheduling calls are safe
to use from other threads). On the UI thread each event:

1. updates ``tray_state`` (Heat, link, last distance) that the screens show;
2. is matched against what the game awaits, through the game's adapter
   (``kiosk.adapters``): a press becomes that player's answer, a settled throw
   or a collapse becomes the table's report;
3. goes to ``Runner.propose``, which stores the action before any screen
   shows it. A refusal is passed to ``on_message`` for the screen.

Events that answer nothing are not errors: a player fiddling with a pad
between prompts changes nothing.

A player who holds Gray on their own pad for a second (``SHEET_HOLD_S``) while a secret
prompt of theirs waits that the pad cannot answer (a text to write, dice to roll) asks for
their private sheet: ``on_sheet_hold(player)``. The hold proves who it is, as a tap on
their name followed by the same hold does, one tap fewer (issue 21).

Two rules keep pads private (see docs/security.md):

* a refused press while its player has a secret choice open is reported on the
  shared screen only as "Ann: not accepted, try again"; the reason goes to
  ``private_notes`` for that player's own sheet, since it would tell the table
  what was pressed;
* a screen may ``capture`` one pad for a moment (to prove who is asking for a
  private sheet): its presses then go to that screen alone, never to the game.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Union

from hardware.events import (
    ButtonPressed, ButtonReleased, ButtonStuck, Collapse, DieAdded, DieRemoved, DistanceSample, HardwareEvent,
    HardwareFault, HeatHeight, HeatMismatch, LinkDown, LinkUp, ThrowImpact, ThrowSettled,
)
from kiosk.phones.events import PhoneAction
from kiosk.rules import RuleError
from kiosk.rules.words import dice_count

from . import adapters

if TYPE_CHECKING:
    from .runner import Runner

log = logging.getLogger(__name__)


Input = Union[HardwareEvent, PhoneAction]
"""What the controller queue carries: a pad press or a tray event, or a phone's answer."""

SHEET_HOLD_S = 1.0
"""How long Gray is held on a pad to open that player's sheet (as ``kiosk.ui.overlays.HOLD_S``)."""


@dataclass
class TrayState:
    """What the screen shows about the tray."""

    heat: int | None = None
    connected: bool = True
    expected: bool = True  # False when no tray is configured at all
    link: str = ""
    detail: str = ""
    distance_mm: int | None = None
    last_throw: ThrowSettled | None = None
    down_since: float | None = None

    @property
    def on_line(self) -> tuple:
        """What the play screen's tray line shows (the stack's height, the link): ``on_tray``."""
        return self.heat, self.connected, self.link, self.expected

    @property
    def link_text(self) -> str:
        if not self.expected:
            return "none"
        if not self.connected:
            return f"{self.link or 'tray'} unplugged"
        return self.link or "waiting"

    @property
    def distance_text(self) -> str:
        return "no reading" if self.distance_mm is None else f"{self.distance_mm} mm"


@dataclass
class Handled:
    """What one event did, for the latency benchmark and the tests."""

    event: Input
    action: dict[str, Any] | None = None
    error: str | None = None
    t_done: float = 0.0


class Controller:
    def __init__(self, pads=None, tray=None, post: Callable[[Callable[[], None]], None] | None = None) -> None:
        self.pads, self.tray = pads, tray
        self.runner: Runner | None = None
        self.tray_state = TrayState(expected=tray is not None)
        self.held: set[tuple[int, str]] = set()
        self.last_hardware = "nothing yet"
        self.on_message: Callable[..., None] = lambda text, refused=False: None
        """Tells the screen ``text``; ``refused=True`` for a refusal (shown in red, nothing else is)."""
        self.on_tray: Callable[[TrayState], None] = lambda state: None
        """Told when what the screen's tray line shows changed: the Heat sensed, the link."""
        self.on_handled: list[Callable[[Handled], None]] = []
        self.on_hint: Callable[[dict[str, Any]], None] = lambda hint: None
        self.on_sheet_hold: Callable[[str], None] = lambda player: None
        """A player held Gray to open their sheet for a secret the pad cannot answer."""
        self.private_notes: dict[str, str] = {}
        """The last refusal of each player's secret input, for their own eyes only."""
        self._captured: dict[int, Callable[[HardwareEvent], None]] = {}
        self._queue: deque[Input] = deque()
        self._lock = threading.Lock()
        self._post = post or (lambda fn: fn())
        for port in (pads, tray):
            if port is not None:
                port.subscribe(self.receive)
        if tray is not None:
            try:
                self.tray_state.connected = bool(tray.connected)
                self.tray_state.heat = tray.heat
            except NotImplementedError:
                pass

    def close(self) -> None:
        for port in (self.pads, self.tray):
            if port is not None:
                try:
                    port.unsubscribe(self.receive)
                except ValueError:
                    pass

    def has_pad(self, seat: int) -> bool:
        """True if player number ``seat`` (1-based, in seating order) has a pad of their own."""
        return self.pads is not None and 0 < seat <= int(getattr(self.pads, "players", 0) or 0)

    def capture(self, pad: int, listener: Callable[[HardwareEvent], None]) -> None:
        """Send pad ``pad``'s presses and releases to ``listener`` alone until ``release``."""
        self._captured[pad] = listener

    def release(self, pad: int, listener: Callable[[HardwareEvent], None] | None = None) -> None:
        """Give pad ``pad`` back to the game (only if ``listener`` still holds it, when given)."""
        if listener is None or self._captured.get(pad) == listener:  # bound methods are equal, never identical
            self._captured.pop(pad, None)

    # -- any thread ------------------------------------------------------------

    def receive(self, event: Input) -> None:
        """Called by the ports, on whatever thread they run: queue and wake the UI thread."""
        with self._lock:
            self._queue.append(event)
        self._post(self.drain)

    # -- UI thread ----------------------------------------------------------------

    def drain(self, *_: Any) -> None:
        while True:
            with self._lock:
                if not self._queue:
                    return
                event = self._queue.popleft()
            self.handle(event)

    def handle(self, event: Input) -> Handled:
        result = Handled(event)
        self._note(event)
        press = event if isinstance(event, (ButtonPressed, ButtonReleased)) else None
        captured = self._captured.get(press.player) if press is not None else None
        if press is not None and captured is not None:
            captured(press)
        elif (holder := self._sheet_asker(event)) is not None:
            self.on_sheet_hold(holder)
        elif self.runner is not None and self.runner.outcome is None:
            adapter = adapters.for_game(self.runner.engine.game)
            # A phone (kiosk.phones) brings its action ready-made; its refusals go back to that
            # phone only, so the shared screen never tells which input a player used.
            phone = isinstance(event, PhoneAction)
            try:
                data = event.action() if isinstance(event, PhoneAction) \
                    else adapter.action_for(event, self.runner, self.tray_state)
            except RuleError as err:  # e.g. a wager locked below the minimum: say so, keep the entry open
                data, result.error = None, str(err)
                if not phone:
                    self._refused(event, err, self.runner)
            hint = adapter.hint
            if hint:  # the tray told part of the story: the screen asks for the rest
                adapter.hint = None
                self.on_hint(hint)
            if data is not None:
                result.action = data
                try:
                    self.runner.propose(data)
                except RuleError as err:
                    result.error = str(err)
                    if not phone:
                        self._refused(event, err, self.runner)
        result.t_done = time.monotonic()
        for listener in list(self.on_handled):
            listener(result)
        return result

    def _sheet_asker(self, event: Input) -> str | None:
        """The seated player whose long Gray hold asks for their sheet, for a secret waiting
        that no pad press answers; None if ``event`` is no such hold."""
        if not isinstance(event, ButtonReleased) or event.button.value != "gray" or event.held_s < SHEET_HOLD_S:
            return None
        if self.runner is None or self.runner.outcome is not None:
            return None
        player = _player_of(event, self.runner)
        waiting = [p for p in self.runner.awaiting() if p.secret and p.player == player]
        adapter = adapters.for_game(self.runner.engine.game)
        return player if player is not None and waiting and adapter.pad_help(waiting[:1]) is None else None

    def _refused(self, event: Input, err: RuleError, runner: Runner) -> None:
        """Say that an event was refused, without telling the table a secret press."""
        player = _player_of(event, runner)
        if player is not None and any(p.secret and p.player == player for p in runner.awaiting()):
            self.private_notes[player] = err.message
            self.on_message(f"{player}: not accepted, try again.", refused=True)
        else:
            self.on_message(f"{_who(event, runner)}: {err.message}", refused=True)

    def _note(self, event: Input) -> None:
        if isinstance(event, PhoneAction):
            return  # nothing about a phone's input is shown (not even that there was one)
        s = self.tray_state
        shown = s.on_line
        if isinstance(event, ButtonPressed):
            self.held.add((event.player, event.button.value))
            self.last_hardware = f"pad {event.player} {event.button.value} pressed"
            return
        if isinstance(event, ButtonReleased):
            self.held.discard((event.player, event.button.value))
            self.last_hardware = f"pad {event.player} {event.button.value} released"
            return
        if isinstance(event, ButtonStuck):
            self.last_hardware = f"pad {event.player} {event.button.value} STUCK ({event.held_s:.0f} s)"
            self.on_message(f"Pad {event.player}: the {event.button.value} button seems stuck; please check it.")
            return
        if isinstance(event, (HeatHeight, DieAdded, DieRemoved)):
            s.heat = event.dice
        elif isinstance(event, Collapse):
            s.heat = event.standing
        elif isinstance(event, DistanceSample):
            s.distance_mm = event.mm
        elif isinstance(event, ThrowSettled):
            s.last_throw = event
        elif isinstance(event, LinkDown):
            s.connected, s.link, s.detail, s.down_since = False, event.link, event.reason, event.t
        elif isinstance(event, LinkUp):
            s.connected, s.link, s.detail, s.down_since = True, event.link, event.detail, None
        elif isinstance(event, HardwareFault):
            self.on_message(f"{event.source}: {event.message}")
        elif isinstance(event, HeatMismatch):  # the tray's watchman: weight and height disagree
            self.on_message(f"The Heat weighs {dice_count(event.weighed)} but looks {event.seen} high: check for a "
                            f"stuck plinth, a stray die or a d10 resting on it.")
        if not isinstance(event, (DistanceSample, ThrowImpact)):
            self.last_hardware = type(event).__name__
        if s.on_line != shown:
            self.on_tray(s)  # a landing or a distance changes nothing it shows: no redrawing it for those


def _player_of(event: Input, runner: Runner) -> str | None:
    """The player whose pad sent ``event``, if it is a press from a seated player's pad."""
    if isinstance(event, (ButtonPressed, ButtonReleased)):
        players = runner.players()
        if 0 < event.player <= len(players):
            return players[event.player - 1]
    return None


def _who(event: Input, runner: Runner) -> str:
    if isinstance(event, (ButtonPressed, ButtonReleased)):
        players = runner.players()
        name = players[event.player - 1] if 0 < event.player <= len(players) else None
        return f"Pad {event.player}" + (f" ({name})" if name else "")
    return "Tray"
