"""Checks every engine's property tests share.

``play_checked`` plays a random complete game, calling ``check(session)`` after
every accepted action. Its moves come from a seeded ``random.Random`` (an int),
or, in a Hypothesis test, from ``st.data()``: then every choice the bot makes
(which prompt, which value) is a Hypothesis draw, so a failing game shrinks to
a short, simple sequence of actions, and the report lists those actions. The ``assert_*`` helpers hold each engine to the core's
promises: a log replays to the same state, undo then redo returns to it, and
no secret reaches the public view or the public recap.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable, Iterable, Sequence

from hypothesis import note, strategies as st

from kiosk.rules import Session, bot, load_log
from kiosk.rules.core import Engine


class DrawnChoices:
    """The few ``random.Random`` methods the bot uses, answered from a list of numbers
    Hypothesis draws (``choices()``), one number per decision; once the list runs out, a
    fixed seeded bot plays on to the end.

    Hypothesis shrinks the list shorter and its numbers smaller: the first prompt, the
    smallest value and no optional prompt (``random()`` of 0 reads as 1.0), so the game
    it reports is decided by as few choices as the failure allows.
    """

    def __init__(self, numbers: Sequence[int]) -> None:
        self.numbers = list(numbers)
        self.used = 0
        # Past the list, a fixed random bot finishes the game (always the first choice may never end it).
        self.rest = random.Random(len(self.numbers))

    def _next(self) -> int:
        self.used += 1
        if self.used <= len(self.numbers):
            return self.numbers[self.used - 1]
        return self.rest.randrange(CHOICE_RANGE)

    def choice(self, items: Sequence[Any]) -> Any:
        return items[self._next() % len(items)]

    def randint(self, lo: int, hi: int) -> int:
        return lo + self._next() % (hi - lo + 1)

    def random(self) -> float:
        return 1.0 - self._next() / CHOICE_RANGE

    def sample(self, items: Sequence[Any], k: int) -> list[Any]:
        pool = list(items)
        return [pool.pop(self._next() % len(pool)) for _ in range(k)]


CHOICE_RANGE = 2**16


def choices(max_size: int = 3000) -> st.SearchStrategy[list[int]]:
    """The bot's decisions for ``play_checked``, as Hypothesis draws them."""
    return st.lists(st.integers(0, CHOICE_RANGE - 1), max_size=max_size)


def play_checked(
    engine: Engine,
    setup: dict[str, Any],
    seed: Any,
    check: Callable[[Session], None] = lambda s: None,
    max_actions: int = 20_000,
) -> Session:
    """Play a game to its end, checking after every action.

    ``seed``: an int for a seeded random bot, or a list from ``choices()`` in a Hypothesis test."""
    session = Session(engine, setup)
    rng: Any = random.Random(seed) if isinstance(seed, int) else DrawnChoices(seed)
    try:
        check(session)
        for _ in range(max_actions):
            if session.outcome is not None:
                return session
            bot.step(session, rng)
            check(session)
    except BaseException:
        note(f"the game's {len(session.log)} actions, oldest first:\n" + session.to_jsonl())
        raise
    raise AssertionError(f"game with seed {seed} did not end within {max_actions} actions")


def assert_replays(session: Session) -> None:
    """The JSON-lines log rebuilds exactly the same state and story."""
    replayed = load_log(session.to_jsonl().splitlines())
    assert replayed.state == session.state
    assert replayed.recap() == session.recap()


def assert_undo_redo(session: Session, steps: int = 5) -> None:
    """Undoing the last few actions and applying them again lands on the same state."""
    final = session.state.model_copy(deep=True) if hasattr(session.state, "model_copy") else None
    taken = [session.undo() for _ in range(min(steps, len(session.log)))]
    for action in reversed(taken):
        session.apply(action)
    if final is not None:
        assert session.state == final


def public_text(session: Session) -> str:
    """Everything a shared screen or a public log could show, as one string: the public
    view, the public recap, and what public events carry for the screen (reveal cards)."""
    carried = [e.data for e in session.events if e.visible_to(None) and e.data]
    return "\n".join([json.dumps(session.view(None), default=str), *session.recap(None),
                      json.dumps(carried, default=str)])


def assert_hidden(session: Session, secrets: Iterable[str]) -> None:
    """None of ``secrets`` (exact strings) appears in the public view or recap."""
    text = public_text(session)
    leaked = [s for s in secrets if s and s in text]
    assert not leaked, f"secret(s) visible to everyone: {leaked}"
