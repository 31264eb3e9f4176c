"""Promise Hollows: technicolor-noir secrets, a Color pot, card challenges and Face-Offs.

The package is split by topic, in the order a game runs:

* ``model``: setup with its named rule options, and the state.
* ``actions``: every move as a typed action.
* ``town``: Systems, naming names, characters, Crime rolls, starting Color.
* ``confessions``: confession cards and the President's choice of case.
* ``scenes``: opening, Entrance, Elaboration betting, buying Color.
* ``challenges`` + ``payoffs``: card challenges, the Third Man, the reference card.
* ``revelation``: buying a secret after the encounter.
* ``face_off`` + ``wins``: calling out a Private Die at 1, votes, who wins.
* ``views``: what the table and each player may see.

Rules decisions where the text is unclear: docs/rules/promise-hollows.md.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from kiosk.rules.core import Action, Engine, Event, Prompt, RuleError

from . import challenges, confessions, face_off, revelation, scenes, town, views
from .actions import ACTIONS
from .model import Character, HollowsSetup, HollowsState

HANDLERS: dict[str, Callable[..., list[Event]]] = {**town.HANDLERS, **confessions.HANDLERS, **scenes.HANDLERS, **challenges.HANDLERS,
            **revelation.HANDLERS, **face_off.HANDLERS}

SYSTEMS_PLAYER_MOVES = {"ante", "stay_out", "call", "raise", "pass", "join_as_third_man", "lock_card",
                        "tell_third_man", "buy_revelation", "skip_revelation"}
"""What a removed player may still do under the Systems Play option."""


class PromiseHollows(Engine):
    game = "promise-hollows"
    title = "Promise Hollows"
    setup_model = HollowsSetup
    actions = ACTIONS

    def start(self, setup: HollowsSetup, rng: random.Random) -> HollowsState:
        inv, pres = setup.investigator or "", setup.president or ""
        people = {
            p: Character(player=p, role="Investigator" if p == inv else "President" if p == pres else "Suburbanite")
            for p in setup.players
        }
        return HollowsState(players=list(setup.players), investigator=inv, president=pres,
                            options=setup.model_copy(), people=people, box=setup.chips)

    def awaiting(self, state: HollowsState) -> list[Prompt]:
        phase = state.phase
        if phase in ("systems", "naming", "characters"):
            return town.prompts(state)
        if phase in ("confessions", "case"):
            return confessions.prompts(state)
        if phase == "story":
            step = state.scene.step if state.scene else None
            if step == "challenge":
                return challenges.prompts(state)
            if step in ("revelation", "reveal"):
                return revelation.prompts(state)
            return scenes.prompts(state)
        if phase == "face_off":
            return face_off.prompts(state)
        return []

    def apply(self, state: HollowsState, action: Action, rng: random.Random) -> list[Event]:
        if state.phase == "over":
            raise RuleError("the end of the game", "the game is over")
        if action.player is not None:
            who = state.person(action.player)
            if not who.active and not (state.options.systems_play and action.type in SYSTEMS_PLAYER_MOVES):
                raise RuleError("removed characters take no part", f"{action.player} is out of the story")
        return HANDLERS[action.type](state, action, rng)

    def why_not(self, state: HollowsState, action: Action) -> RuleError | None:
        """Name the rule when a move is tried that nobody awaits from this player."""
        who = state.people.get(action.player) if action.player is not None else None
        if who is not None and not who.active and not (
            state.options.systems_play and action.type in SYSTEMS_PLAYER_MOVES
        ):
            return RuleError("removed characters take no part", f"{action.player} is out of the story")
        challenge = state.scene.challenge if state.scene else None
        if action.type == "join_as_third_man" and challenge is not None and challenge.cards:
            return RuleError("a Third Man speaks up before any card is down",
                             f"{action.player} is too late: a card is already locked")
        return None

    def view(self, state: HollowsState, viewer: str | None) -> dict[str, Any]:
        if viewer is None:
            return views.public(state)
        if viewer not in state.people:
            raise RuleError("who plays", f"{viewer!r} is not a player at this table")
        return views.private(state, viewer)

    def outcome(self, state: HollowsState) -> str | None:
        if state.phase != "over":
            return None
        if len(state.winners) == 1:
            return f"{state.winners[0]} wins: {state.ending}"
        if state.winners:
            return f"{', '.join(state.winners[:-1])} and {state.winners[-1]} win: {state.ending}"
        return state.ending

    def players(self, state: HollowsState) -> list[str]:
        return list(state.players)


ENGINE = PromiseHollows()

__all__ = ["ENGINE", "PromiseHollows", "HollowsSetup", "HollowsState"]
