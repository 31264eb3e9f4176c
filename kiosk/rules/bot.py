"""A random player that answers only what the game awaits.

Used by property tests and benchmarks: if a bot that picks legal-looking
values at random can always finish a game, the prompts are honest.
"""

from __future__ import annotations

import random
from typing import Any

from .core import Action, Field, Prompt, RuleError, Session

_WORDS = ["Rook", "Velvet", "Harbor", "Ash", "Jinx", "Marlowe", "Ruby", "Slate", "Quill", "Ivory"]


def answer(field: Field, rng: random.Random) -> Any:
    """A random value that the field allows."""
    if field.kind == "choice":
        return rng.choice(field.choices)
    if field.kind == "int":
        lo = field.min if field.min is not None else 0
        hi = field.max if field.max is not None else lo + 10
        return rng.randint(lo, hi)
    if field.kind == "text":
        first, second = rng.choice(_WORDS), rng.choice(_WORDS)
        # never "Ivory Ivory" on a screen: one word instead (the same draws, so seeds replay alike)
        return first if second == first else f"{first} {second}"
    lo = field.min or 0
    hi = field.max if field.max is not None else lo + 3
    if field.unique:
        hi = min(hi, len(field.choices))
        return rng.sample(field.choices, rng.randint(lo, hi))
    return [rng.choice(field.choices) for _ in range(rng.randint(lo, hi))]


def fill(prompt: Prompt, rng: random.Random) -> dict[str, Any]:
    data: dict[str, Any] = {"type": prompt.action, "player": prompt.player}
    for f in prompt.fields:
        data[f.name] = answer(f, rng)
    return data


def step(session: Session, rng: random.Random, tries: int = 200, optional_chance: float = 0.02) -> Action:
    """Make one random legal move; raise if none is found in ``tries`` attempts."""
    last: RuleError | None = None
    for _ in range(tries):
        prompts = session.awaiting()
        if not prompts:
            raise RuleError("the end of the game", "the game is over")
        required = [p for p in prompts if not p.optional]
        pool = prompts if not required or rng.random() < optional_chance else required
        data = fill(rng.choice(pool), rng)
        try:
            session.apply(data)
            return session.log[-1]
        except RuleError as err:
            last = err
    raise RuntimeError(f"bot found no legal move in {tries} tries; last refusal: {last}")


def play(session: Session, rng: random.Random, max_actions: int = 20_000) -> Session:
    """Play random moves until the game ends (or ``max_actions`` runs out)."""
    for _ in range(max_actions):
        if session.outcome is not None:
            return session
        step(session, rng)
    raise RuntimeError(f"game did not end within {max_actions} actions")
