"""Checks every engine's property tests share.

``play_checked`` plays a random complete game, calling ``check(session)`` after
every accepted action. The ``assert_*`` helpers hold each engine to the core's
promises: a log replays to the same state, undo then redo returns to it, and
no secret reaches the public view or the public recap.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable, Iterable

from kiosk.rules import Session, bot, load_log
from kiosk.rules.core import Engine


def play_checked(
    engine: Engine,
    setup: dict[str, Any],
    seed: int,
    check: Callable[[Session], None] = lambda s: None,
    max_actions: int = 20_000,
) -> Session:
    session = Session(engine, setup)
    rng = random.Random(seed)
    check(session)
    for _ in range(max_actions):
        if session.outcome is not None:
            return session
        bot.step(session, rng)
        check(session)
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
