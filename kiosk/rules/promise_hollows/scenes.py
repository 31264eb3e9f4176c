"""Scenes: opening, Entrance, Elaboration (call / raise / monologue / pass) and buying Color.

How a scene runs here (decisions in docs/rules/promise-hollows.md):

* Openers take turns: Mr. Gray first, then clockwise from his left, skipping
  removed characters. Opening costs an ante of one Color.
* Entrance: clockwise from the opener, each other player antes one Color
  (bringing their character in, or only setting details) or stays out. Only
  those who anted have any say in the scene.
* Elaboration: a betting round led by the opener (or, once he has passed, the
  next player still betting). On your turn you call, raise, monologue, pass,
  or challenge. A raise of exactly one is the lead's privilege; any other
  raise must be narrated from a public-persona trait. A monologue is a raise
  that makes its target match at once. Passing drops you out of the betting.
* When every bettor has matched the stake, the lead must raise again (or
  challenge, or pass). The last player still betting must challenge.
"""

from __future__ import annotations

import random
from typing import Callable

from kiosk.rules.core import Event, Field, Prompt, RuleError, possessive

from . import actions as A
from .model import TRAITS, FaceOff, HollowsState, Scene

# -- who is who in a scene ------------------------------------------------------------


def next_opener(state: HollowsState) -> str:
    if state.last_opener is None:
        return state.investigator
    after = state.clockwise_from(state.last_opener)[1:] + [state.last_opener]
    return next(p for p in after if state.people[p].active)


def betting(sc: Scene) -> list[str]:
    return [p for p in sc.order if p in sc.in_scene and p not in sc.passed]


def lead(sc: Scene) -> str | None:
    still = betting(sc)
    return still[0] if still else None


def characters_in_scene(state: HollowsState, sc: Scene, besides: str) -> list[str]:
    """Characters (not Systems players) in the scene that ``besides`` could challenge."""
    return [p for p in sc.order if p in sc.in_scene and p != besides and state.people[p].active]


def can_buy_color(state: HollowsState, player: str) -> bool:
    c = state.people[player]
    return c.active and state.options.color_per_pip > 0 and c.die > 1 and state.box > 0


def _buy_prompt(state: HollowsState, player: str, required: bool = False) -> list[Prompt]:
    if not can_buy_color(state, player):
        return []
    rate = state.options.color_per_pip
    return [Prompt(player, "buy_color", f"{player}, lower your Private Die by one for {rate} Color",
                   optional=not required)]


def _trait_field(state: HollowsState, player: str, plain_allowed: bool) -> Field:
    traits = (["none"] if plain_allowed else []) + ([] if not state.people[player].active else TRAITS)
    rule = "a raise above one needs a public-persona trait" if plain_allowed else \
        "a raise without a trait is the lead's alone"
    return Field("trait", "choice", label="Narrated from", choices=traits, rule=rule)


# -- prompts ------------------------------------------------------------------------


def prompts(state: HollowsState) -> list[Prompt]:
    sc = state.scene
    if sc is None:
        return _opening_prompts(state)
    out: list[Prompt] = []
    if sc.step == "entrance":
        out = _entrance_prompts(state, sc)
    elif sc.step == "elaboration":
        out = _elaboration_prompts(state, sc)
    else:
        return []
    inv = state.investigator
    if inv in sc.in_scene and sc.turn != inv:  # Mr. Gray may challenge out of turn once he is in the scene
        targets = characters_in_scene(state, sc, inv)
        if targets:
            out.append(Prompt(inv, "challenge", "Mr. Gray may call out anyone in the scene at any moment",
                              [Field("target", "choice", choices=targets, rule="challenge someone in the scene")],
                              optional=True))
    return out


def _opening_prompts(state: HollowsState) -> list[Prompt]:
    opener = next_opener(state)
    if state.people[opener].color >= 1:
        return [Prompt(opener, "open_scene", f"{opener}, open the next scene: ante one Color and set it")] + \
            _buy_prompt(state, opener)
    if can_buy_color(state, opener):
        return _buy_prompt(state, opener, required=True)
    return [Prompt(opener, "skip_scene", f"{opener} has no Color to open a scene: pass it on")]


def _entrance_next(sc: Scene) -> str | None:
    return next((p for p in sc.order if p not in sc.entrance_done), None)


def _entrance_prompts(state: HollowsState, sc: Scene) -> list[Prompt]:
    who = _entrance_next(sc)
    if who is None:
        return []
    ways = ["character", "setting"] if state.people[who].active else ["setting"]
    ante = [Prompt(who, "ante", f"{who}, ante one Color to join the scene (your character, or setting only)",
                   [Field("how", "choice", choices=ways, rule="Systems players add setting only")])]
    if state.people[who].color < 1:
        ante = []  # nothing to ante with: stay out, or buy Color first
    return ante + [Prompt(who, "stay_out", f"{who}, stay out of this scene")] + _buy_prompt(state, who)


def _elaboration_prompts(state: HollowsState, sc: Scene) -> list[Prompt]:
    who = sc.turn
    if who is None:
        return []
    c = state.people[who]
    targets = characters_in_scene(state, sc, who) if c.active else []
    challenge = [Prompt(who, "challenge", f"{who}, challenge someone for the pot",
                        [Field("target", "choice", choices=targets, rule="challenge someone in the scene")])]
    if len(betting(sc)) == 1:
        return challenge  # the last bettor must make the encounter happen
    out: list[Prompt] = []
    to_call = sc.stake - sc.put[who]
    if to_call > 0:
        out.append(Prompt(who, "call", f"{who}, call: put in {to_call} Color"))
    spare = c.color - to_call
    is_lead = who == lead(sc)
    if spare >= 1 and (c.active or is_lead):
        top = spare if c.active else 1
        amount = Field("amount", "int", label="Raise by", min=1, max=top, rule="a raise is paid from your Color")
        out.append(Prompt(who, "raise", f"{who}, raise the stake" + (f" (calling {to_call} first)" if to_call else ""),
                          [amount, _trait_field(state, who, is_lead)]))
        bettors = [p for p in betting(sc) if p != who and state.people[p].active]
        if c.active and bettors:
            out.append(Prompt(who, "monologue", f"{who}, monologue about someone and make them match",
                              [Field("target", "choice", choices=bettors, rule="a monologue targets someone betting"),
                               amount, _trait_field(state, who, True)]))
    out.append(Prompt(who, "pass", f"{who}, pass: drop out of the betting for this scene"))
    if targets:
        out += challenge
    return out + _buy_prompt(state, who)


# -- opening and entrance -------------------------------------------------------------------


def open_scene(state: HollowsState, a: A.OpenScene, rng: random.Random) -> list[Event]:
    c = state.person(a.player)
    if c.color < 1:
        raise RuleError("an ante costs one Color", f"{a.player} has no Color to ante")
    order = [p for p in state.clockwise_from(a.actor) if state.people[p].active or p in state.system_players()]
    c.color -= 1
    state.pot += 1
    state.scene = Scene(opener=a.actor, order=order, in_scene={a.actor: "character"}, entrance_done=[a.actor])
    state.last_opener = a.player
    state.skipped_in_a_row = 0
    name = c.name
    events = [Event(f"Scene {state.scenes_played + 1}: {a.player} opens with {name} and antes 1 (pot {state.pot}).",
                    "scene")]
    return events + _after_entrance(state)


def skip_scene(state: HollowsState, a: A.SkipScene, rng: random.Random) -> list[Event]:
    c = state.person(a.player)
    if c.color >= 1 or can_buy_color(state, a.actor):
        raise RuleError("only a player who cannot ante gives up a scene", f"{a.player} can still open a scene")
    state.last_opener = a.player
    state.skipped_in_a_row += 1
    events = [Event(f"{a.player} cannot ante, so the next player opens a scene.", "scene")]
    if state.skipped_in_a_row >= len(state.active()):
        state.phase = "over"
        state.ending = "The case goes cold: nobody can open a scene any more. Nobody wins."
        events.append(Event(state.ending, "end"))
    return events


def ante(state: HollowsState, a: A.Ante, rng: random.Random) -> list[Event]:
    sc = current_scene(state)
    c = state.person(a.player)
    if c.color < 1:
        raise RuleError("an ante costs one Color", f"{a.player} has no Color to ante")
    if a.how == "character" and not c.active:
        raise RuleError("Systems players add setting only", f"{a.player} plays a System, not a character")
    c.color -= 1
    state.pot += 1
    sc.in_scene[a.actor] = a.how
    sc.entrance_done.append(a.actor)
    what = f"brings {c.name} in" if a.how == "character" else "adds setting details"
    return [Event(f"{a.player} antes 1 and {what} (pot {state.pot}).", "scene")] + _after_entrance(state)


def stay_out(state: HollowsState, a: A.StayOut, rng: random.Random) -> list[Event]:
    sc = current_scene(state)
    sc.entrance_done.append(a.player or "")
    return [Event(f"{a.player} stays out of this scene.", "scene")] + _after_entrance(state)


def _after_entrance(state: HollowsState) -> list[Event]:
    sc = current_scene(state)
    if _entrance_next(sc) is not None:
        return []
    if len(sc.in_scene) < 2:
        return [Event(f"Nobody joins {sc.opener}; the scene fades and the pot waits for the next one.", "scene")] \
            + end_scene(state)
    sc.step = "elaboration"
    sc.put = {p: 0 for p in sc.in_scene}
    sc.turn = lead(sc)
    return [Event(f"Elaboration: {sc.turn} leads the betting.", "scene")]


# -- elaboration ------------------------------------------------------------------------------


def current_scene(state: HollowsState) -> Scene:
    if state.scene is None:
        raise RuleError("scenes", "no scene is running")
    return state.scene


def _pay(state: HollowsState, player: str, amount: int) -> None:
    sc = current_scene(state)
    state.people[player].color -= amount
    state.pot += amount
    sc.put[player] += amount


def _check_raise(state: HollowsState, sc: Scene, player: str, amount: int, trait: str, plain_ok: bool) -> int:
    """Return the cost of calling plus raising by ``amount``, or refuse.

    ``plain_ok``: a raise of one without a trait is allowed (the lead's raise, or any monologue).
    """
    c = state.people[player]
    if trait != "none" and not c.active:
        raise RuleError("Systems players use no public persona", f"{player} plays a System and cannot draw on a trait")
    if trait == "none" and amount != 1:
        raise RuleError("a raise above one needs a public-persona trait",
                        f"raising by {amount} needs narration from Cheer, Helps, Specialness or Pride")
    if trait == "none" and not plain_ok:
        raise RuleError("a raise without a trait is the lead's alone",
                        f"{player} is not leading the betting: narrate from a public-persona trait to raise")
    cost = sc.stake - sc.put[player] + amount
    if cost > c.color:
        raise RuleError("you bet only the Color you hold", f"{player} has {c.color} Color, the raise costs {cost}")
    return cost


def _trait_words(state: HollowsState, player: str, trait: str) -> str:
    if trait == "none":
        return ""
    return f" draws on {trait} (\u201c{getattr(state.people[player], trait)}\u201d) and"


def call(state: HollowsState, a: A.Call, rng: random.Random) -> list[Event]:
    sc = current_scene(state)
    cost = sc.stake - sc.put[a.player or ""]
    c = state.person(a.player)
    if cost <= 0:
        raise RuleError("a call matches a raise", "there is nothing to call: raise, pass or challenge")
    if cost > c.color:
        raise RuleError("you call only with Color you hold", f"{a.player} has {c.color} Color but the call is {cost}")
    _pay(state, a.player or "", cost)
    return [Event(f"{a.player} calls with {cost} (pot {state.pot}).", "bet")] + _advance(state, a.player or "")


def raise_(state: HollowsState, a: A.Raise, rng: random.Random) -> list[Event]:
    sc = current_scene(state)
    cost = _check_raise(state, sc, a.player or "", a.amount, a.trait, a.player == lead(sc))
    _pay(state, a.player or "", cost)
    sc.stake = sc.put[a.player or ""]
    words = _trait_words(state, a.player or "", a.trait)
    return [Event(f"{a.player}{words} raises by {a.amount}, putting in {cost} (stake {sc.stake}, pot {state.pot}).",
                  "bet")] + _advance(state, a.player or "")


def monologue(state: HollowsState, a: A.Monologue, rng: random.Random) -> list[Event]:
    sc = current_scene(state)
    who = a.player or ""
    if not state.person(who).active:
        raise RuleError("Systems players use no public persona", f"{who} plays a System and has no inner voice")
    if a.target == who or a.target not in betting(sc) or not state.person(a.target).active:
        raise RuleError("a monologue targets someone betting", f"{a.target} is not betting in this scene")
    cost = _check_raise(state, sc, who, a.amount, a.trait, True)
    new_stake = sc.put[who] + cost
    forced = new_stake - sc.put[a.target]
    if forced > state.people[a.target].color:
        raise RuleError("a monologue's target must be able to match",
                        f"{a.target} has {state.people[a.target].color} Color and could not match {forced}")
    _pay(state, who, cost)
    _pay(state, a.target, forced)
    sc.stake = new_stake
    words = _trait_words(state, who, a.trait)
    return [Event(f"{who}{words} monologues about {state.people[a.target].name}, putting in {cost}; "
                  f"{a.target} must match with {forced} (pot {state.pot}).", "bet")] + _advance(state, who)


def pass_(state: HollowsState, a: A.Pass, rng: random.Random) -> list[Event]:
    sc = current_scene(state)
    if len(betting(sc)) <= 1:
        raise RuleError("the last bettor must challenge", "you are the last one betting: challenge someone")
    sc.passed.append(a.player or "")
    return [Event(f"{a.player} passes and drops out of the betting.", "bet")] + _advance(state, a.player or "")


def _advance(state: HollowsState, after: str) -> list[Event]:
    sc = current_scene(state)
    still = betting(sc)
    if len(still) == 1:
        last = still[0]
        if state.people[last].active and characters_in_scene(state, sc, last):
            sc.turn = last
            return [Event(f"Only {last} is still betting and must now challenge someone.", "bet")]
        return [Event("Nobody is left to challenge; the scene fades and the pot waits.", "scene")] + end_scene(state)
    if all(sc.put[p] == sc.stake for p in still):
        sc.turn = lead(sc)
        return []
    i = sc.order.index(after)
    ring = sc.order[i + 1:] + sc.order[:i + 1]
    sc.turn = next(p for p in ring if p in still and sc.put[p] < sc.stake)
    return []


def buy_color(state: HollowsState, a: A.BuyColor, rng: random.Random) -> list[Event]:
    who = a.player or ""
    c = state.person(who)
    if state.options.color_per_pip == 0:
        raise RuleError("buying Color is off at this table", "the color_per_pip option is 0")
    if not c.active:
        raise RuleError("removed characters have no Private Die", f"{who} is out of the story")
    if c.die <= 1:
        raise RuleError("a Private Die never goes below 1", f"{possessive(who)} Private Die is already at 1")
    if state.box <= 0:
        raise RuleError("Color comes from the box", "the box is empty")
    if state.phase != "story" or (state.scene and state.scene.step not in ("entrance", "elaboration")):
        raise RuleError("Color is bought between bets", "not during a challenge, a revelation or a Face-Off")
    gain = min(state.options.color_per_pip, state.box)
    c.die -= 1
    c.color += gain
    state.box -= gain
    events = [Event(f"{who} lowers the Private Die to {c.die} and takes {gain} Color from the box.", "color")]
    if c.die == 1:
        events += expose(state, who)
    return events


def expose(state: HollowsState, player: str) -> list[Event]:
    """A Private Die has just been lowered to 1: the player may face a Face-Off."""
    if player not in state.exposed:
        state.exposed.append(player)
    events = [Event(f"{possessive(player)} Private Die is at 1: a Face-Off may be called.", "face-off")]
    if state.scene is None and state.phase == "story":
        events += open_face_off_window(state)
    return events


def open_face_off_window(state: HollowsState) -> list[Event]:
    state.exposed = [p for p in state.exposed if state.people[p].active]
    if not state.exposed:
        state.phase = "story"
        state.face_off = None
        return []
    state.phase = "face_off"
    state.face_off = FaceOff(candidates=list(state.exposed))
    return [Event(f"Face-Off? Open to a call against: {', '.join(state.exposed)}.", "face-off")]


def end_scene(state: HollowsState) -> list[Event]:
    state.scene = None
    state.scenes_played += 1
    return open_face_off_window(state)


HANDLERS: dict[str, Callable[..., list[Event]]] = {
    "open_scene": open_scene, "skip_scene": skip_scene, "ante": ante, "stay_out": stay_out, "call": call,
    "raise": raise_, "monologue": monologue, "pass": pass_, "buy_color": buy_color,
}
