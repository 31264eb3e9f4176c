"""A tiny game used only to test the rules core.

Two players each lock a secret number, then take turns adding 1-3 to a
running total; whoever brings it to 10 or more wins. The locked numbers are
revealed when the game ends. One virtual die is rolled at the start.
"""

from __future__ import annotations

import random
from typing import Annotated, Literal, Union

from pydantic import BaseModel, Field as PField, TypeAdapter

from kiosk.rules.core import Action, Engine, Event, Field, Prompt, RuleError, Setup


class ToySetup(Setup):
    players: list[str] = ["Ann", "Bo"]


class Lock(Action):
    type: Literal["lock"] = "lock"
    number: int


class Add(Action):
    type: Literal["add"] = "add"
    amount: int


class ToyState(BaseModel):
    players: list[str]
    total: int = 0
    turn: int = 0
    opening_roll: int
    locked: dict[str, int] = {}
    winner: str | None = None


ToyAction = Annotated[Union[Lock, Add], PField(discriminator="type")]


class Toy(Engine):
    game = "toy"
    title = "Toy"
    setup_model = ToySetup
    actions = TypeAdapter(ToyAction)

    def start(self, setup, rng: random.Random) -> ToyState:
        return ToyState(players=list(setup.players), opening_roll=rng.randint(1, 6))

    def awaiting(self, state):
        if state.winner:
            return []
        pending = [p for p in state.players if p not in state.locked]
        if pending:
            return [Prompt(p, "lock", f"{p}, lock a number", [Field("number", "int", min=1, max=9)], secret=True)
                    for p in pending]
        who = state.players[state.turn % 2]
        return [Prompt(who, "add", f"{who} adds", [Field("amount", "int", min=1, max=3, rule="add 1 to 3")])]

    def apply(self, state, action, rng):
        if isinstance(action, Lock):
            state.locked[action.player] = action.number
            return [Event(f"{action.player} locked a number"), Event(f"you locked {action.number}", to=[action.player])]
        if state.total + action.amount > 10 and action.amount == 3:
            raise RuleError("no overshoot with a 3", "a 3 may not overshoot ten")
        state.total += action.amount
        state.turn += 1
        events = [Event(f"{action.player} adds {action.amount}, total {state.total}")]
        if state.total >= 10:
            state.winner = action.player
            events.append(Event(f"{action.player} wins"))
        return events

    def view(self, state, viewer):
        data = state.model_dump(exclude={"locked"})
        data["locked"] = sorted(state.locked)
        if state.winner or viewer is not None:
            data["numbers"] = {p: n for p, n in state.locked.items() if state.winner or p == viewer}
        return data

    def outcome(self, state):
        return f"{state.winner} wins" if state.winner else None

    def players(self, state):
        return state.players


ENGINE = Toy()
