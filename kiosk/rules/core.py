"""The rules core that every Table Noir game engine is built on.

A game is a *state* plus a *fold over actions*:

* An ``Engine`` knows one game. It builds the opening state from a setup, says
  what it is waiting for (``awaiting`` returns ``Prompt``s), applies one action
  at a time, and shows the state to a viewer (``view``). Engines never touch the
  screen, the disk or the hardware.
* A ``Session`` is one game being played: the engine, the setup, the current
  state and the log of accepted actions. The log is the truth. Replaying it
  rebuilds the state exactly, and undo is a replay without the last action.

Rules of the road for engine authors:

1. **Check, then change.** ``Engine.apply`` validates everything first and
   raises ``RuleError`` naming the rule before it mutates anything. The session
   also restores the state if a handler raises part-way, so a slip costs time,
   not a game. Still, nothing half-done should ever be visible.
2. **Randomness is an input.** Physical dice and cards arrive inside actions.
   Virtual dice and shuffles come only from the ``rng`` the session passes in.
   The session seeds it from ``setup.seed``, so replays repeat it exactly.
3. **Secrets leave the state only through ``view(state, viewer)``.** With
   ``viewer=None`` it is the public view a shared screen or log may show.
   Events and prompts carry their audience too (``Event.to``,
   ``Prompt.secret``).
"""

from __future__ import annotations

import json
import pickle
import random
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from .words import change as change, dice_count as dice_count, plural as plural, possessive as possessive  # the engines import them from here


class RuleError(Exception):
    """An action the rules refuse. ``rule`` names the rule it breaks."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} (rule: {rule})")
        self.rule = rule
        self.message = message


# --------------------------------------------------------------------------
# Inputs: setups and actions are pydantic models, validated at the boundary.
# --------------------------------------------------------------------------


class Model(BaseModel):
    """Base for every input model: unknown fields are errors, not ignored."""

    model_config = ConfigDict(extra="forbid")


class Setup(Model):
    """What a game starts from. Every game's setup extends this.

    A field's docstring becomes its description, which the kiosk's setup
    wizard shows under the question."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)
    seed: int = 0
    """Seeds the session's random source (virtual dice, shuffles)."""


class Action(Model):
    """One move. Each game defines subclasses with ``type: Literal[...]``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: str
    player: str | None = None
    """Who makes the move; ``None`` for the table itself (a sensor, the host)."""

    @property
    def actor(self) -> str:
        """The player making a player's move. The session has matched it to a prompt that
        names the player, so this only fails for a move that should have named one."""
        if self.player is None:
            raise RuleError("who acts", f"'{self.type}' must say which player makes it")
        return self.player


# --------------------------------------------------------------------------
# Outputs: prompts and events are plain dataclasses (cheap on the hot path).
# --------------------------------------------------------------------------

FieldKind = Literal["choice", "int", "text", "list"]


@dataclass(slots=True)
class Field:
    """One value a prompt asks for, with what is allowed.

    * ``choice``: one of ``choices``.
    * ``int``: a whole number from ``min`` to ``max``.
    * ``text``: free text (names, descriptions), ``max`` characters at most.
    * ``list``: between ``min`` and ``max`` items, each one of ``choices``
      (repeats allowed unless ``unique``).
    """

    name: str
    kind: FieldKind
    label: str = ""
    choices: list[Any] = field(default_factory=list)
    min: int | None = None
    max: int | None = None
    unique: bool = False
    rule: str = ""
    """The rule a wrong value breaks, quoted in the error message."""

    def check(self, value: Any) -> None:
        """Raise ``RuleError`` unless ``value`` is allowed here."""
        rule = self.rule or f"allowed values for {self.name}"
        if self.kind == "choice":
            if value not in self.choices:
                raise RuleError(rule, f"{self.name} must be one of {self.choices}, not {value!r}")
        elif self.kind == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                raise RuleError(rule, f"{self.name} must be a whole number, not {value!r}")
            if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
                raise RuleError(rule, f"{self.name} must be from {self.min} to {self.max}, not {value}")
        elif self.kind == "text":
            if not isinstance(value, str) or not value.strip():
                raise RuleError(rule, f"{self.name} must be some text")
            if self.max is not None and len(value) > self.max:
                raise RuleError(rule, f"{self.name} is longer than {self.max} characters")
        elif self.kind == "list":
            if not isinstance(value, (list, tuple)):
                raise RuleError(rule, f"{self.name} must be a list, not {value!r}")
            lo, hi = self.min or 0, self.max if self.max is not None else len(value)
            if not lo <= len(value) <= hi:
                raise RuleError(rule, f"{self.name} needs {lo} to {hi} items, not {len(value)}")
            for item in value:
                if self.choices and item not in self.choices:
                    raise RuleError(rule, f"{item!r} is not allowed in {self.name} (allowed: {self.choices})")
            if self.unique and len(set(map(repr, value))) != len(value):
                raise RuleError(rule, f"{self.name} may not repeat an item")


@dataclass(slots=True)
class Prompt:
    """Something the game is waiting for: who acts, which action, which values.

    ``player=None`` means whoever runs the table may answer (the host, or the
    tray's sensors). ``secret`` means the answer is given privately (button
    pads or a pass-the-screen flow) and must not be shown while it is pending.
    ``optional`` prompts may be answered at any time but need not be (a knocked
    table, for instance); bots favour the required ones.
    """

    player: str | None
    action: str
    text: str
    fields: list[Field] = field(default_factory=list)
    secret: bool = False
    optional: bool = False

    def public(self) -> dict[str, Any]:
        """What a shared screen may show: a secret prompt keeps its values hidden."""
        data = asdict(self)
        if self.secret:
            data["fields"] = []
        return data


@dataclass(slots=True)
class Event:
    """Something that happened, told in a sentence for the recap.

    ``to=None`` means everyone may know it; otherwise only the named players.
    An event that turns secret answers over may carry ``data["faces"]``: one
    short text per player saying what they had locked (the kiosk shows one
    card each) and ``data["summary"]``, what the reveal leads to, in a
    sentence. Both must be public exactly when the event is.
    """

    text: str
    kind: str = "note"
    to: list[str] | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def visible_to(self, viewer: str | None) -> bool:
        return self.to is None or (viewer is not None and viewer in self.to)


# --------------------------------------------------------------------------
# Engines and sessions.
# --------------------------------------------------------------------------


class Engine:
    """One game's rules. Subclasses fill in the class attributes and methods.

    Engines hold no per-game data themselves; everything lives in the state
    they return from ``start``, which must be picklable and comparable with
    ``==`` (a pydantic model or a dataclass is ideal).
    """

    game: ClassVar[str]
    """Stable identifier used in logs, e.g. ``"hell-for-leather"``."""
    title: ClassVar[str]
    setup_model: ClassVar[type[Setup]]
    actions: ClassVar[TypeAdapter[Any]]
    """A TypeAdapter over the game's discriminated union of actions."""

    def start(self, setup: Any, rng: random.Random) -> Any:
        """The opening state. ``setup`` is an instance of this engine's ``setup_model``."""
        raise NotImplementedError

    def apply(self, state: Any, action: Action, rng: random.Random) -> list[Event]:
        """Check the action against the rules, then change ``state`` in place."""
        raise NotImplementedError

    def awaiting(self, state: Any) -> list[Prompt]:
        """Every prompt that may be answered now. Empty once the game is over."""
        raise NotImplementedError

    def view(self, state: Any, viewer: str | None) -> dict[str, Any]:
        """The state as ``viewer`` may see it (``None``: the public view)."""
        raise NotImplementedError

    def outcome(self, state: Any) -> str | None:
        """``None`` while the game runs, then a one-line account of how it ended."""
        raise NotImplementedError

    def players(self, state: Any) -> list[str]:
        raise NotImplementedError

    def why_not(self, state: Any, action: Action) -> RuleError | None:
        """Optional: the game rule behind refusing an action nobody awaits from this player now.

        The session asks this before its generic "not expected now" refusal, so
        a Risk during a Skill Declaration can be refused with the rule that
        forbids it rather than with a list of what is expected instead.
        """
        return None


def parse_action(engine: Engine, data: dict[str, Any] | Action) -> Action:
    """Turn raw data into one of the engine's actions, or explain what is wrong."""
    if isinstance(data, Action):
        return data
    try:
        action: Action = engine.actions.validate_python(data)
        return action
    except ValidationError as err:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'action'}: {e['msg']}" for e in err.errors()
        )
        raise RuleError("the shape of an action", f"not a valid {engine.title} action: {problems}") from None


class Session:
    """One game in play: setup, state, and the log of accepted actions.

    Every ``CHECKPOINT_EVERY`` actions the session keeps a pickled copy of the
    state and the random source. Restoring after a refused action and undoing
    both go back to the nearest checkpoint and replay from there, so neither
    costs more than a handful of actions however long the game.
    """

    CHECKPOINT_EVERY = 64

    def __init__(self, engine: Engine, setup: Setup | dict[str, Any]) -> None:
        self.engine = engine
        self.setup = setup if isinstance(setup, Setup) else engine.setup_model.model_validate(setup)
        self.log: list[Action] = []
        self._events: list[list[Event]] = []  # what each logged action caused
        self.rng = random.Random(self.setup.seed)
        self.state = engine.start(self.setup, self.rng)
        self._checkpoints: dict[int, bytes] = {0: self._snapshot()}

    # -- playing -----------------------------------------------------------

    def awaiting(self) -> list[Prompt]:
        return self.engine.awaiting(self.state)

    @property
    def outcome(self) -> str | None:
        return self.engine.outcome(self.state)

    def apply(self, action: Action | dict[str, Any]) -> list[Event]:
        """Apply one action. A refused action raises ``RuleError`` and changes nothing."""
        action = parse_action(self.engine, action)
        self._check_awaited(action)
        try:
            events = self.engine.apply(self.state, action, self.rng)
        except BaseException:
            self._rewind(len(self.log))
            raise
        self.log.append(action)
        self._events.append(events)
        if len(self.log) % self.CHECKPOINT_EVERY == 0:
            self._checkpoints[len(self.log)] = self._snapshot()
        return events

    def undo(self) -> Action:
        """Take back the last action and return it."""
        if not self.log:
            raise RuleError("undo", "there is nothing to undo")
        last = self.log[-1]
        self._rewind(len(self.log) - 1)
        return last

    def _check_awaited(self, action: Action) -> None:
        prompts = self.awaiting()
        if not prompts:
            raise RuleError("the end of the game", f"the game is over: {self.outcome}")
        of_type = [p for p in prompts if p.action == action.type]
        mine = [p for p in of_type if p.player is None or p.player == action.player]
        if not mine:
            # Nobody awaits this move from this player: let the game name its own rule first.
            reason = self.engine.why_not(self.state, action)
            if reason is not None:
                raise reason
        if not of_type:
            wanted = ", ".join(sorted({p.action for p in prompts}))
            raise RuleError("what happens next", f"'{action.type}' is not expected now (expected: {wanted})")
        if not mine:
            who = ", ".join(sorted({str(p.player) for p in of_type}))
            raise RuleError("whose turn it is", f"{action.player} may not {action.type} now; waiting for {who}")
        errors: list[RuleError] = []
        for prompt in mine:
            try:
                for f in prompt.fields:
                    f.check(getattr(action, f.name))
                return
            except RuleError as err:
                errors.append(err)
        raise errors[0]

    # -- snapshots, replay, undo ---------------------------------------------

    def _snapshot(self) -> bytes:
        return pickle.dumps((self.state, self.rng.getstate()), protocol=pickle.HIGHEST_PROTOCOL)

    def _rewind(self, length: int) -> None:
        """Rebuild the state as it was after the first ``length`` actions."""
        base = max(i for i in self._checkpoints if i <= length)
        state, rng_state = pickle.loads(self._checkpoints[base])
        self.state = state
        self.rng.setstate(rng_state)
        replay = self.log[base:length]
        del self.log[base:]
        del self._events[base:]
        for stale in [i for i in self._checkpoints if i > length]:
            del self._checkpoints[stale]
        for action in replay:
            self._events.append(self.engine.apply(self.state, action, self.rng))
            self.log.append(action)

    # -- views and the log -----------------------------------------------------

    def view(self, viewer: str | None = None, *, awaiting: bool = True) -> dict[str, Any]:
        """The state as ``viewer`` may see it, with what the game awaits.

        ``awaiting=False`` leaves the prompts out (a screen that draws them from
        ``awaiting()`` itself need not pay for copying them).
        """
        data = self.engine.view(self.state, viewer)
        if awaiting:
            data["awaiting"] = [
                asdict(p) if (viewer is not None and p.player == viewer) else p.public() for p in self.awaiting()
            ]
        data["outcome"] = self.outcome
        return data

    def caused(self, index: int = -1) -> list[Event]:
        """What the logged action at ``index`` caused (the last one by default)."""
        return list(self._events[index]) if self._events else []

    @property
    def events(self) -> list[Event]:
        """Everything that has happened, oldest first."""
        return [e for caused in self._events for e in caused]

    def recap(self, viewer: str | None = None, last: int | None = None) -> list[str]:
        """The story so far as ``viewer`` may read it (``None``: the public recap).

        ``last=n`` gives only the latest ``n`` lines, without walking the whole game.
        """
        if last is None:
            return [e.text for e in self.events if e.visible_to(viewer)]
        latest: list[str] = []
        for caused in reversed(self._events):
            for event in reversed(caused):
                if len(latest) == last:
                    return latest[::-1]
                if event.visible_to(viewer):
                    latest.append(event.text)
        return latest[::-1]

    def header(self) -> dict[str, Any]:
        return {"game": self.engine.game, "format": LOG_FORMAT, "setup": self.setup.model_dump(mode="json")}

    def to_jsonl(self) -> str:
        lines = [json.dumps(self.header())]
        lines += [a.model_dump_json() for a in self.log]
        return "\n".join(lines) + "\n"


LOG_FORMAT = 1
"""The session log's format, written in every header. Bump it (and note it in
CHANGELOG.md) when an action's JSON changes meaning; ``load_log`` then needs to
read the older format too."""


class LogError(Exception):
    """A session log that cannot be replayed; says which line and why."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason
