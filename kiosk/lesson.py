"""Lessons: a guided first game on the real engine, a coach line at every step.

A lesson is a small TOML file in ``lessons/`` (next to ``scenarios/``)::

    game = "even-odd"
    title = "Learn Even/Odd in 3 minutes"
    minutes = 3
    scenario = "even-odd-lesson.toml"      # where the game starts (lessons/, then scenarios/)

    [[steps]]
    say = "Nadia: bet in secret on your pad."          # what to do, in our own words
    why = "Nobody may see how much you stake."          # why the game wants it
    point = { pad = "black", player = "Nadia" }         # what it means: a pad button, a zone, a card, a widget
    done = { action = "wager", player = "Nadia" }       # the input that completes the step

A step whose ``done`` has no ``action`` is a reading step: the coach's **Next**
button completes it. ``done.times`` asks for that many matching actions (three
players locking a wager, say, when the step names no player).

The lesson plays on a ``LessonRunner``: the kiosk's ``Runner`` (the real rules,
the store, the pads, the tray, the phones all go through it) with two guards:

* ``awaiting`` shows only what the current step asks for, so the screen offers
  just that button, and a pad press meant for a later step finds nothing to answer;
* ``propose`` refuses any other action, with the coach's line as the reason. So a
  step cannot be skipped by accident: not by touch, pad, tray or phone.

Undo takes the step back with the action. Leaving is always one tap on the coach
bar (``kiosk.ui.coach``), and the last step offers the real game with the same
players (the lesson's setup, a fresh shuffle).

Nothing here imports Kivy. A file that cannot be used raises ``LessonError``,
one message naming the file and what is wrong in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kiosk import scenario as scenarios
from kiosk.rules import RuleError, engine_for
from kiosk.rules.core import Action, Event, Prompt

from .lessonindex import SHIPPED as SHIPPED  # the shipped lessons' folder, named where lessons are read
from .runner import Change, Runner
from .store import Store

RULE = "lesson"
"""The rule a refusal during a lesson names: the step asks for something else."""


class Point(BaseModel):
    """What a step is about, so the coach can show it: at most a few of these at once."""

    model_config = ConfigDict(extra="forbid")
    pad: Literal["black", "white", "gray"] | None = None
    """A pad button (drawn in its colour and shape on the coach bar)."""
    player: str | None = None
    """Whose pad (their seat number is shown), or who the step is for."""
    zone: Literal["inside", "touching", "outside", "heat"] | None = None
    """A place on the tray: where a die lands on the target, or the Heat stack."""
    card: str | None = None
    """A card to look at, in words ("your Gray card", "the up suits")."""
    button: str | None = None
    """A widget on the screen, by its tag ("secret:Nadia", "act:0", "prompt:confirm"): it is outlined."""


class Done(BaseModel):
    """The input that completes a step."""

    model_config = ConfigDict(extra="forbid")
    action: str | None = None
    """An action type of the game; none means the coach's Next button."""
    player: str | None = None
    """Only this player's action counts (none: anyone's)."""
    times: int = Field(1, ge=1, le=20)
    """How many such actions complete the step."""


class Step(BaseModel):
    model_config = ConfigDict(extra="forbid")
    say: str = Field(min_length=1, max_length=160)
    """What to do, one short line (it is read at a distance, on a 7-inch screen)."""
    why: str = Field("", max_length=200)
    """Why the game asks for it."""
    point: Point = Field(default_factory=Point)
    done: Done = Field(default_factory=Done)

    def matches(self, action: Action | dict[str, Any]) -> bool:
        """True if ``action`` is the input this step waits for."""
        kind = action.type if isinstance(action, Action) else action.get("type")
        who = action.player if isinstance(action, Action) else action.get("player")
        return self.done.action is not None and kind == self.done.action and \
            (self.done.player is None or who == self.done.player)


class Lesson(BaseModel):
    """One lesson file, checked."""

    model_config = ConfigDict(extra="forbid")
    game: str
    title: str = Field(min_length=1, max_length=60)
    minutes: int = Field(ge=1, le=30)
    scenario: str
    """The scenario file the game starts from: a name in the lesson's own folder, else in ``scenarios/``."""
    finish: str = Field("", max_length=200)
    """What the coach says at the end, before offering the real game."""
    steps: list[Step] = Field(min_length=1)
    path: str = ""

    def scenario_path(self) -> Path:
        here = Path(self.path).parent / self.scenario
        return here if here.exists() else scenarios.SHIPPED / self.scenario

    def start(self):
        """The game at the lesson's first step (a ``kiosk.rules.Session``), played from its scenario."""
        try:
            return scenarios.start(self.scenario_path())
        except scenarios.ScenarioError as err:
            raise LessonError(f"{self.path}: its scenario cannot be played: {err}") from None


class LessonError(Exception):
    """A lesson file that cannot be used; the message names the file and what is wrong."""


def load(path: str | Path) -> Lesson:
    """Read and check a lesson file: its fields, its scenario, and that every step names an
    action the game has and a player who is at the table."""
    path = Path(path)
    data = scenarios.read_toml(path, LessonError)
    try:
        lesson = Lesson.model_validate({**data, "path": str(path)})
    except ValidationError as err:
        problems = "; ".join(f"{'.'.join(_place(e['loc'])) or 'file'}: {e['msg']}" for e in err.errors())
        raise LessonError(f"{path}: {problems}") from None
    try:
        engine = engine_for(lesson.game)
    except KeyError:
        raise LessonError(f"{path}: there is no game {lesson.game!r}") from None
    where = lesson.scenario_path()
    if not where.exists():
        raise LessonError(f"{path}: scenario {lesson.scenario!r} is neither next to the lesson nor in scenarios/")
    try:
        start = scenarios.load(where)
    except scenarios.ScenarioError as err:
        raise LessonError(f"{path}: its scenario cannot be read: {err}") from None
    if start.game != lesson.game:
        raise LessonError(f"{path}: the lesson is for {lesson.game!r} but its scenario is for {start.game!r}")
    players = _players(start.setup)
    for number, step in enumerate(lesson.steps, start=1):
        for who in (step.done.player, step.point.player):
            if who is not None and players and who not in players:
                raise LessonError(f"{path}: step {number} names {who!r}, who is not at the table "
                                  f"(the players are {', '.join(players)})")
        if step.done.action is not None and not _is_action(engine, step.done.action):
            raise LessonError(f"{path}: step {number} waits for {step.done.action!r}, but {engine.title} "
                              f"has no action of that name")
    return lesson


def _place(loc: tuple) -> list[str]:
    """A pydantic error location as the file says it: ``steps 3 done action`` -> step 3 (from 1)."""
    out = []
    for i, part in enumerate(loc):
        out.append(str(part + 1) if isinstance(part, int) and i and loc[i - 1] == "steps" else str(part))
    return out


def _players(setup: dict[str, Any]) -> list[str]:
    """The player names a scenario's setup lists (plain names or tables with a ``name``; teams too)."""
    names: list[str] = []

    def collect(value: Any) -> None:
        if isinstance(value, str):
            names.append(value)
        elif isinstance(value, dict):
            if isinstance(value.get("name"), str):
                names.append(value["name"])
            for key in ("players", "members"):
                collect(value.get(key))
        elif isinstance(value, list):
            for item in value:
                collect(item)

    for key in ("players", "teams", "gm"):
        collect(setup.get(key))
    return names


def _is_action(engine, kind: str) -> bool:
    """True if the game has an action called ``kind`` (its actions' union knows the tag)."""
    try:
        engine.actions.validate_python({"type": kind})
    except ValidationError as err:
        return err.errors()[0]["type"] != "union_tag_invalid"
    return True


@dataclass(frozen=True)
class Listed:
    """One lesson file as Home lists it: read and checked, or the problem that stops it."""

    path: Path
    lesson: Lesson | None = None
    problem: str | None = None


def listing(folders: list[Path]) -> list[Listed]:
    """Every ``*.toml`` lesson in ``folders`` (missing folders skipped), sorted by name in each.
    Scenario files kept beside the lessons (they have ``moves``, no ``steps``) are not lessons."""
    found = []
    for path in scenarios.toml_files(folders):
        try:
            head = scenarios.read_toml(path, LessonError)
        except LessonError:
            head = {"steps": True}  # broken: load says how
        if "steps" not in head:
            continue
        try:
            found.append(Listed(path, lesson=load(path)))
        except LessonError as err:
            found.append(Listed(path, problem=str(err)))
    return found


def for_game(folders: list[Path], game: str) -> Lesson | None:
    """The first usable lesson for ``game`` (the designer's own folder may add more)."""
    return next((item.lesson for item in listing(folders) if item.lesson and item.lesson.game == game), None)


class LessonRunner(Runner):
    """A ``Runner`` that lets through only what the lesson's current step asks for.

    ``marks`` records, for each completed input, the step it counted for and the log
    length just after it; the current step is where the marks run out, so undo (which
    shortens the log) takes the step back with it.
    """

    def __init__(self, store: Store, session, sid: int, lesson: Lesson) -> None:
        super().__init__(store, session, sid)
        self.lesson = lesson
        self.marks: list[tuple[int, int]] = []
        self.start_len = len(session.log)
        """The scenario's moves: the lesson never undoes them."""
        self._counting = 0
        self.on_step: list[Callable[["LessonRunner"], None]] = []
        """Told after every step change (forward, or back on undo)."""

    @classmethod
    def begin(cls, store: Store, lesson: Lesson) -> "LessonRunner":
        """The lesson's scenario played and stored as a session; the runner at step 1."""
        session = lesson.start()
        sid = store.create(session)
        store.mark_lesson(sid)  # counted as a lesson, not a game, in the operator's day counts
        return cls(store, session, sid, lesson)

    # -- where the lesson is -------------------------------------------------------

    @property
    def index(self) -> int:
        """The current step (from 0); ``len(steps)`` once every step is done."""
        done, count = 0, 0
        for step_index, _ in self.marks:
            if step_index == done:
                count += 1
                if count >= self.lesson.steps[done].done.times:
                    done, count = done + 1, 0
        return done

    @property
    def step(self) -> Step | None:
        i = self.index
        return self.lesson.steps[i] if i < len(self.lesson.steps) else None

    @property
    def finished(self) -> bool:
        """Every step done (or the game itself came to its end)."""
        return self.step is None or self.outcome is not None

    def progress(self) -> str:
        """'Step 2 of 6'."""
        return f"Step {min(self.index + 1, len(self.lesson.steps))} of {len(self.lesson.steps)}"

    def real_setup(self) -> dict[str, Any]:
        """The setup of the real game that follows: the lesson's players and options, a fresh shuffle."""
        setup = scenarios.load(self.lesson.scenario_path()).setup
        return {k: v for k, v in setup.items() if k != "seed"}

    # -- the guards ---------------------------------------------------------------------

    def awaiting(self) -> list[Prompt]:
        step = self.step
        if step is None or step.done.action is None:
            return []
        return [p for p in self.session.awaiting() if step.matches({"type": p.action, "player": p.player})]

    def propose(self, data: dict[str, Any] | Action) -> list[Event]:
        step = self.step
        if step is None or not step.matches(data):
            wanted = step.say if step is not None else "the lesson is over: start the real game, or go home"
            raise RuleError(RULE, f"not in this step of the lesson. {wanted}")
        self._counting = self.index
        return super().propose(data)

    def next_step(self) -> bool:
        """The coach's Next, for a reading step; False (nothing changes) when the step waits for play."""
        step = self.step
        if step is None or step.done.action is not None:
            return False
        self.marks.append((self.index, len(self.session.log)))
        super()._tell(Change(None, []))  # the screen redraws: the new step may await something
        self._told()
        return True

    def undo(self, operator: bool = False) -> Action:
        """Take back the last action and the step it completed; never a move of the scenario."""
        if len(self.session.log) <= self.start_len:
            raise RuleError(RULE, "the lesson starts here: there is nothing of yours to undo")
        return super().undo(operator)

    def _tell(self, change: Change) -> None:
        """Move the step with the game before the screen hears of the change, so it draws the new step."""
        if change.action is not None:
            self.marks.append((self._counting, len(self.session.log)))
        while self.marks and self.marks[-1][1] > len(self.session.log):
            self.marks.pop()
        super()._tell(change)
        self._told()

    def _told(self) -> None:
        for listener in list(self.on_step):
            listener(self)
