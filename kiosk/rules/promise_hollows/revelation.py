"""Revelation: the scene-closer may buy one secret from a player in the encounter.

The price is the target's Private Die in Color (paid to the discard pile);
the die drops by one (never below 1). The target then picks one part of the
private self still hidden (an aspect or an object of Hurt, Need or Want) and
it is read out without saying which of the three it belongs to.
"""

from __future__ import annotations

import random
from typing import Callable

from kiosk.rules.core import Event, Field, Prompt, RuleError, possessive

from . import actions as A
from .challenges import parties
from .model import PARTS, HollowsState
from .scenes import current_scene, end_scene, expose


def hidden_parts(state: HollowsState, player: str) -> list[str]:
    return [p for p in PARTS if p not in state.people[player].revealed]


def targets(state: HollowsState) -> list[str]:
    sc = current_scene(state)
    assert sc.challenge is not None
    return [p for p in parties(sc.challenge)
            if p != sc.closer and state.people[p].active and hidden_parts(state, p)]


def prompts(state: HollowsState) -> list[Prompt]:
    sc = state.scene
    if sc is None:
        return []
    if sc.step == "revelation" and sc.closer:
        out = []
        choices = targets(state)
        purse = state.people[sc.closer].color
        affordable = [p for p in choices if state.people[p].die <= purse]
        if choices:
            # offer the secrets the closer can pay for; if none, show them all so a try explains the price
            out.append(Prompt(sc.closer, "buy_revelation",
                              f"{sc.closer}, buy a secret from someone in the encounter (price: their Private Die)",
                              [Field("target", "choice", choices=affordable or choices,
                                     rule="a revelation targets someone in the encounter and costs their Private Die "
                                          "in Color")]))
        out.append(Prompt(sc.closer, "skip_revelation", f"{sc.closer}, close the scene without a revelation"))
        return out
    if sc.step == "reveal" and sc.revealing:
        who = sc.revealing
        private = state.people[who].private
        parts = hidden_parts(state, who)
        label = " | ".join(f"{p.replace('_', ' ')}: \u201c{getattr(private, p)}\u201d" for p in parts)
        return [Prompt(who, "reveal_part", f"{who}, choose one hidden part of your private self to reveal",
                       [Field("part", "choice", choices=parts, label=label,
                              rule="reveal a part that is still hidden")], secret=True)]
    return []


def buy_revelation(state: HollowsState, a: A.BuyRevelation, rng: random.Random) -> list[Event]:
    sc = current_scene(state)
    if sc.step != "revelation" or a.player != sc.closer:
        raise RuleError("the scene-closer buys the revelation", f"{a.player} is not closing this scene")
    if a.target not in targets(state):
        raise RuleError("a revelation targets someone in the encounter", f"{a.target} cannot be made to reveal now")
    buyer, target = state.people[a.actor], state.people[a.target]  # the actor is the closer, checked above
    price = target.die
    if buyer.color < price:
        raise RuleError("a revelation costs Color equal to the target's Private Die",
                        f"{sc.closer} has {buyer.color} Color; {possessive(a.target)} secret costs {price}")
    buyer.color -= price
    state.discard += price
    was = target.die
    target.die = max(1, target.die - 1)
    sc.step = "reveal"
    sc.revealing = a.target
    events = [Event(f"{sc.closer} pays {price} Color for a secret from {target.name}; "
                    f"{possessive(a.target)} Private Die " + (f"goes from {was} to {target.die}." if was != target.die
                                                               else f"stays at {was}."), "revelation")]
    if target.die == 1:
        state.exposed = [p for p in state.exposed if p != a.target]  # re-armed below
        events += expose(state, a.target)
    return events


def skip_revelation(state: HollowsState, a: A.SkipRevelation, rng: random.Random) -> list[Event]:
    sc = current_scene(state)
    return [Event(f"{sc.closer} closes the scene without buying a secret.", "exit")] + end_scene(state)


def reveal_part(state: HollowsState, a: A.RevealPart, rng: random.Random) -> list[Event]:
    sc = current_scene(state)
    who = a.player or ""
    if who != sc.revealing:
        raise RuleError("the target reveals", f"{who} is not the one revealing")
    if a.part not in hidden_parts(state, who):
        raise RuleError("reveal a part that is still hidden", f"{a.part} is already known")
    c = state.people[who]
    c.revealed.append(a.part)
    text = getattr(c.private, a.part)
    sc.revealing = None
    return [Event(f"{c.name} reveals: \u201c{text}\u201d", "revelation"),
            Event(f"You revealed your {a.part.replace('_', ' ')}.", "revelation", to=[who])] + end_scene(state)


HANDLERS: dict[str, Callable[..., list[Event]]] = {"buy_revelation": buy_revelation, "skip_revelation": skip_revelation, "reveal_part": reveal_part}
