"""Town-building: Systems, naming names, characters, Crime rolls and starting Color.

Order: the table names one System per player; then each player in turn rolls
a d6 and writes that many names (or "And Did You Know" details) on the
System cards, round after round until every System has a name; then every
player, at their own pace, writes a public persona, rolls 2d6 in private
(not the Investigator), writes a private self and rolls 3d6 for Color.
"""

from __future__ import annotations

import random
from typing import Callable

from kiosk.rules.core import Event, Field, Prompt, RuleError

from . import actions as A
from .model import INVESTIGATOR_NAME, NAME_MAX, TEXT_MAX, HollowsState, NamingTurn, PrivateSelf, System

DIE = list(range(1, 7))


def _text(name: str, label: str, rule: str, limit: int = TEXT_MAX) -> Field:
    return Field(name, "text", label=label, max=limit, rule=rule)


# -- prompts ----------------------------------------------------------------------


def prompts(state: HollowsState) -> list[Prompt]:
    if state.phase == "systems":
        n = len(state.systems) + 1
        return [Prompt(None, "name_system", f"Name System {n} of {len(state.players)}: a club, employer or group",
                       [_text("name", "System", "each System needs a name of its own", NAME_MAX)])]
    if state.phase == "naming":
        return _naming_prompts(state)
    if state.phase == "characters":
        return [p for player in state.players for p in _character_prompts(state, player)]
    return []


def _naming_prompts(state: HollowsState) -> list[Prompt]:
    turn = state.naming
    assert turn is not None
    who = turn.player
    if turn.roll is None:
        return [Prompt(who, "roll_for_names", f"{who}, roll one die: that many names to write",
                       [Field("roll", "int", min=1, max=6, rule="the names roll is one d6")])]
    systems = [s.name for s in state.systems]
    out = [Prompt(who, "add_name", f"{who}, write a name on a System card ({turn.left} left)",
                  [Field("system", "choice", choices=systems, rule="names go on a System card"),
                   _text("name", "Name", "a name must be new to the town", NAME_MAX)])]
    names = state.all_names()
    if names:
        out.append(Prompt(who, "add_detail", f"{who}, or tell the town something about a name",
                          [Field("name", "choice", choices=names, rule="a detail is about a written name"),
                           _text("detail", "Did you know...", "a detail needs some words")]))
    return out


def _character_prompts(state: HollowsState, player: str) -> list[Prompt]:
    c = state.people[player]
    others = [p for p in state.players if p != player]
    if c.friend is None:
        fields = []
        if c.role != "Investigator":
            taken = {x.name for x in state.people.values()}
            free = [n for n in state.all_names() if n not in taken]
            fields.append(Field("name", "choice", choices=free, rule="each character takes a different name"))
        fields += [_text("occupation", "Occupation", "the persona needs an occupation"),
                   _text("cheer", "Why people call me cheerful", "the persona needs Cheer"),
                   _text("helps", "Why people call me helpful", "the persona needs Helps"),
                   _text("special", "Why people call me special", "the persona needs Specialness"),
                   _text("pride", "My proudest achievement", "the persona needs Pride"),
                   Field("friend", "choice", label="Friend", choices=others,
                         rule="a Friend is another player's character")]
        return [Prompt(player, "write_persona", f"{player}, write your public persona", fields)]
    if c.role != "Investigator" and c.crime_roll is None:
        return [Prompt(player, "roll_for_crime", f"{player}, roll two dice where only you can see",
                       [Field("dice", "list", choices=DIE, min=2, max=2, rule="the Crime roll is two d6")],
                       secret=True)]
    if c.private is None:
        guilt = "Crime (an act against someone, with a motive)" if c.has_crime else "Guilt (an act involving someone)"
        fields = [_text(part, label, f"the private self needs {label.lower()}") for part, label in (
            ("hurt", "Hurt"), ("hurt_object", "Who or what hurts"), ("need", "Need"),
            ("need_object", "Who or what is needed"), ("want", "Want"), ("want_object", "Who or what is wanted"))]
        fields += [_text("guilt", guilt, "the private self needs a Guilt or Crime"),
                   Field("enemy", "choice", label="Enemy", choices=others,
                         rule="an Enemy is another player's character")]
        return [Prompt(player, "write_private_self", f"{player}, write your private self (screen turned to you)",
                       fields, secret=True)]
    if not c.color_rolled:
        return [Prompt(player, "roll_color", f"{player}, roll three dice for your starting Color",
                       [Field("dice", "list", choices=DIE, min=3, max=3, rule="starting Color is 3d6")])]
    return []


# -- handlers -----------------------------------------------------------------------


def _clean(text: str, what: str, limit: int = TEXT_MAX) -> str:
    text = text.strip()
    if not text or len(text) > limit:
        raise RuleError(f"{what} is short text", f"{what} must be 1 to {limit} characters")
    return text


def name_system(state: HollowsState, a: A.NameSystem, rng: random.Random) -> list[Event]:
    name = _clean(a.name, "a System's name", NAME_MAX)
    if name.lower() in {s.name.lower() for s in state.systems}:
        raise RuleError("each System needs a name of its own", f"there is already a System called {name}")
    state.systems.append(System(name=name))
    events = [Event(f"The town has a new System: {name}.", "town")]
    if len(state.systems) == len(state.players):
        state.phase = "naming"
        state.naming = NamingTurn(player=state.players[0])
        events.append(Event(f"Naming names begins with {state.players[0]}.", "town"))
    return events


def roll_for_names(state: HollowsState, a: A.RollForNames, rng: random.Random) -> list[Event]:
    assert state.naming is not None
    state.naming.roll = a.roll
    state.naming.left = a.roll
    what = "one name or detail" if a.roll == 1 else f"{a.roll} names or details"
    return [Event(f"{a.player} rolls {a.roll}: {what} to add.", "town")]


def add_name(state: HollowsState, a: A.AddName, rng: random.Random) -> list[Event]:
    name = _clean(a.name, "a name", NAME_MAX)
    if name.lower() in {n.lower() for n in state.all_names()} or name.lower() == INVESTIGATOR_NAME.lower():
        raise RuleError("a name must be new to the town", f"{name} is already taken")
    system = next((s for s in state.systems if s.name == a.system), None)
    if system is None:
        raise RuleError("names go on a System card", f"there is no System called {a.system}")
    system.names.append(name)
    return [Event(f"{a.player} writes {name} on the {system.name} card.", "town")] + _used_one(state)


def add_detail(state: HollowsState, a: A.AddDetail, rng: random.Random) -> list[Event]:
    detail = _clean(a.detail, "a detail")
    state.details.setdefault(a.name, []).append(detail)
    return [Event(f"Did you know? {a.name}: {detail}", "town")] + _used_one(state)


def _used_one(state: HollowsState) -> list[Event]:
    turn = state.naming
    assert turn is not None
    turn.left -= 1
    if turn.left > 0:
        return []
    state.naming_turns += 1
    empty = [s.name for s in state.systems if not s.names]
    if state.naming_turns >= len(state.players) and not empty:
        state.naming = None
        state.phase = "characters"
        return [Event("Every System has a name. Each player now makes a character.", "town")]
    nxt = state.players[state.naming_turns % len(state.players)]
    state.naming = NamingTurn(player=nxt)
    note = f" (still without a name: {', '.join(empty)})" if state.naming_turns >= len(state.players) else ""
    return [Event(f"{nxt} names people next{note}.", "town")]


def write_persona(state: HollowsState, a: A.WritePersona, rng: random.Random) -> list[Event]:
    c = state.person(a.player)
    texts = {k: _clean(getattr(a, k), k) for k in ("occupation", "cheer", "helps", "special", "pride")}
    if c.role == "Investigator":
        if a.name not in (None, INVESTIGATOR_NAME):
            raise RuleError("the Investigator is Mr. Gray", "the Investigator's character is always Mr. Gray")
        name, system = INVESTIGATOR_NAME, None
    else:
        taken = {x.name for x in state.people.values()}
        if a.name is None or a.name not in state.all_names() or a.name in taken:
            raise RuleError("each character takes a different name", "choose a free name from a System card")
        system = next(s.name for s in state.systems if a.name in s.names)
        name = a.name
    for key, value in texts.items():
        setattr(c, key, value)
    c.name, c.system, c.friend = name, system, a.friend
    where = f"of {system}" if system else "new in town, tied to no System"
    if c.role == "President":
        where = f"President of {system}"
    return [Event(f"{a.player} plays {name}, {texts['occupation']}, {where}.", "character")]


def roll_for_crime(state: HollowsState, a: A.RollForCrime, rng: random.Random) -> list[Event]:
    c = state.person(a.player)
    c.crime_roll = list(a.dice)
    total = sum(a.dice)
    kind = "a Crime: write what you did and why" if total == 7 else "a Guilt"
    return [Event(f"{a.player} rolls for a Crime, out of sight.", "secret-roll"),
            Event(f"You rolled {total}: your secret is {kind}.", "secret-roll", to=[a.actor])]


def write_private_self(state: HollowsState, a: A.WritePrivateSelf, rng: random.Random) -> list[Event]:
    c = state.person(a.player)
    values = {k: _clean(getattr(a, k), k.replace("_", " ")) for k in PrivateSelf.model_fields if k != "enemy"}
    c.private = PrivateSelf(enemy=a.enemy, **values)
    return [Event(f"{a.player} writes a private self and turns the card face down.", "character")]


def roll_color(state: HollowsState, a: A.RollColor, rng: random.Random) -> list[Event]:
    c = state.person(a.player)
    amount = sum(a.dice)
    c.color, c.color_rolled = amount, True
    state.box -= amount
    events = [Event(f"{a.player} rolls {'+'.join(map(str, a.dice))}: {amount} Color. "
                    f"Private Die at 6; Black, White and Gray cards in hand.", "color")]
    if all(p.color_rolled for p in state.people.values()):
        state.phase = "confessions"
        events.append(Event("Confession time: everyone writes a Crime or Guilt card for the President.", "town"))
    return events


HANDLERS: dict[str, Callable[..., list[Event]]] = {
    "name_system": name_system, "roll_for_names": roll_for_names, "add_name": add_name, "add_detail": add_detail,
    "write_persona": write_persona, "roll_for_crime": roll_for_crime, "write_private_self": write_private_self,
    "roll_color": roll_color,
}
