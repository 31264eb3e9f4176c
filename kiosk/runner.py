"""One game on the kiosk: the rules session, its stored log, and who has locked.

The ``Runner`` is the only way the screen and the controller change a game.
``propose`` hands an action to the rules; if they accept it, it is appended to
the store (committed to disk) and only then are listeners told, so whatever a
listener draws is already safe. With a ``commit_behind`` store the commit is
still running when they are told; the kiosk calls ``settle`` before it shows
their drawing, and so does the next ``propose``. A refused action raises
``RuleError`` and changes nothing, on screen or on disk.

It also keeps track of secret rounds: when several players answer the same
secret prompt (locking cards, wagers), the screen may show *who* has locked,
never *what*, and when the last one locks the round is revealed at once.

Undo never unseals a secret (``undo_plan``): once a secret round has closed,
none of its choices can be taken back one by one. The operator (with the PIN)
may reopen the whole round, every choice of it together, so nobody re-chooses
alone knowing what the others chose. See docs/security.md.
Nothing here imports Kivy, so it is tested and benchmarked on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from kiosk.rules import Engine, RuleError, Session
from kiosk.rules.core import Action, Event, Prompt

from .store import Store, StoreError


@dataclass
class Change:
    """What one accepted action (or an undo) did, as listeners see it."""

    action: Action | None
    events: list[Event]
    undone: Action | None = None
    reveal: list[Event] | None = None
    """Set when this action closed a secret round: the public events to turn over."""


@dataclass(frozen=True)
class UndoPlan:
    """What one tap on Undo would take back."""

    keep: int
    """How many actions stay in the log."""
    sealed: bool
    """True when it would reopen a closed secret round: only the operator may, and only whole."""


SEALED = "sealed secrets"
"""The rule an undo refused for a closed secret round names (see ``Runner.undo``)."""


@dataclass
class SecretRound:
    """Players asked for the same secret action; who has answered so far."""

    action: str
    locked: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)


class Runner:
    def __init__(self, store: Store, session: Session, sid: int) -> None:
        self.store = store
        self.session = session
        self.sid = sid
        self.listeners: list[Callable[[Change], None]] = []
        self._locked: dict[str, list[str]] = {}
        self._opened_at: dict[str, int] = {}  # an open round's first lock, by action type (a log index)
        self.closed_rounds: list[tuple[int, int]] = []
        """Closed secret rounds as (first lock, closing lock), log indexes, oldest first."""
        self.last_reveal: list[Event] | None = None
        self.unsaved: StoreError | None = None
        """An action whose commit failed and was taken back, until the screen has said so."""

    # -- starting and resuming ----------------------------------------------

    @classmethod
    def new(cls, store: Store, engine: Engine, setup: dict[str, Any]) -> "Runner":
        session = Session(engine, setup)
        return cls(store, session, store.create(session))

    @classmethod
    def resume(cls, store: Store, sid: int) -> "Runner":
        runner = cls(store, store.load(sid), sid)
        runner._rebuild_locks()
        return runner

    # -- what the screen reads --------------------------------------------------

    @property
    def engine(self) -> Engine:
        return self.session.engine

    def awaiting(self) -> list[Prompt]:
        return self.session.awaiting()

    def players(self) -> list[str]:
        return list(self.engine.players(self.session.state))

    @property
    def outcome(self) -> str | None:
        return self.session.outcome

    def secret_rounds(self) -> list[SecretRound]:
        """Open secret rounds: who has locked and who is still choosing."""
        waiting: dict[str, list[str]] = {}
        for prompt in self.awaiting():
            if prompt.secret and prompt.player is not None:
                waiting.setdefault(prompt.action, []).append(prompt.player)
        rounds = []
        for action in sorted(set(waiting) | {a for a, who in self._locked.items() if who}):
            rounds.append(SecretRound(action, list(self._locked.get(action, [])), waiting.get(action, [])))
        return rounds

    # -- changing the game ------------------------------------------------------

    def propose(self, data: dict[str, Any] | Action) -> list[Event]:
        """Apply an action if the rules accept it; store it; then tell listeners."""
        self.settle()
        secret = self._is_secret(data)
        events = self.session.apply(data)
        action = self.session.log[-1]
        try:
            self.store.append(self.sid, len(self.session.log), action, self.session.outcome)
        except Exception:
            self.session.undo()  # not on disk, so it did not happen
            raise
        closed = secret and self._track_lock(action, len(self.session.log) - 1, self.session.awaiting())
        reveal = [e for e in self.session._events[-1] if e.to is None] if closed else None
        self.last_reveal = reveal if reveal is not None else self.last_reveal
        self._tell(Change(action, events, reveal=reveal))
        return events

    def settle(self) -> None:
        """Wait until the last action is on disk (see ``Store(commit_behind=True)``).

        If its commit failed, it is taken back here too, as an undo would, and
        the listeners are told; ``unsaved`` keeps the error for the screen to say.
        """
        try:
            self.store.settled()
        except StoreError as err:
            self.unsaved = err
            if len(self.store.lines(self.sid)) - 1 < len(self.session.log):  # it was this game's
                undone = self.session.undo()
                self._rebuild_locks()
                self._tell(Change(None, [], undone=undone))

    def undo_plan(self) -> UndoPlan:
        """What Undo would take back: the last action, or, when that is a choice of a
        closed secret round, the whole round (and only with the operator's PIN)."""
        if not self.session.log:
            raise RuleError("undo", "there is nothing to undo")
        last = len(self.session.log) - 1
        for first, closing in self.closed_rounds:
            if first <= last <= closing:
                return UndoPlan(keep=first, sealed=True)
        return UndoPlan(keep=last, sealed=False)

    def undo(self, operator: bool = False) -> Action:
        """Take back the last action, on disk first, and return it.

        A choice of a secret round that has been revealed (or has closed) is
        sealed: refused unless ``operator`` (the PIN was given), and then every
        choice of that round is taken back together, with what came after it.
        """
        plan = self.undo_plan()
        if plan.sealed and not operator:
            raise RuleError(SEALED, "that choice belongs to a secret round that is already closed; "
                                    "only the operator can reopen the whole round")
        self.store.truncate(self.sid, plan.keep)
        while len(self.session.log) > plan.keep:
            undone = self.session.undo()
        self.store.truncate(self.sid, len(self.session.log), self.session.outcome)
        self._rebuild_locks()
        self._tell(Change(None, [], undone=undone))
        return undone

    # -- secret rounds ----------------------------------------------------------

    def _is_secret(self, data: dict[str, Any] | Action) -> bool:
        kind = data.type if isinstance(data, Action) else data.get("type")
        who = data.player if isinstance(data, Action) else data.get("player")
        return any(p.secret and p.action == kind and p.player == who for p in self.awaiting())

    def _track_lock(self, action: Action, index: int, now: list[Prompt]) -> bool:
        """Note a locked answer (log ``index``); True if it closed its round.

        ``now`` is what the game awaits after it: the round closes when nobody
        still owes that secret action, or when someone who has locked is asked
        again (a new round of the same kind began)."""
        locked = self._locked.setdefault(action.type, [])
        if not locked:
            self._opened_at[action.type] = index
        locked.append(str(action.player))
        still = [p.player for p in now if p.secret and p.action == action.type]
        if not still or any(p in locked for p in still):
            self._locked[action.type] = []
            self.closed_rounds.append((self._opened_at.pop(action.type, index), index))
            return True
        return False

    def _rebuild_locks(self) -> None:
        """After a resume or an undo, work out who is locked by replaying the log's shape."""
        self._locked, self._opened_at, self.closed_rounds = {}, {}, []
        probe = Session(self.engine, self.session.setup)
        for index, action in enumerate(self.session.log):
            secret = any(p.secret and p.action == action.type and p.player == action.player for p in probe.awaiting())
            probe.apply(action)
            if secret:
                self._track_lock(action, index, probe.awaiting())

    def _tell(self, change: Change) -> None:
        for listener in list(self.listeners):
            listener(change)
