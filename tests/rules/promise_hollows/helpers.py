"""Shortcuts for building a Promise Hollows table in a known state.

``build`` plays the whole of town-building through real actions (so every
test also exercises those rules) and stops when Story-Building begins, or
earlier with ``stop_before``.
"""

from __future__ import annotations

from typing import Any

from kiosk.rules import Session
from kiosk.rules.promise_hollows import ENGINE

PLAYERS = ["Joe", "Bee", "Cece", "Jane"]
"""Joe plays Mr. Gray, Bee is the President, Cece plays Roy G. Biv, Jane plays Miss Ruby Redd."""

NAMES = {"Bee": "Perry Winkle", "Cece": "Roy G. Biv", "Jane": "Miss Ruby Redd", "Dan": "Venus Dee Yellow",
         "Eve": "Mme. Chartreuse", "Fay": "Mrs. Orange", "Gus": "Sienna Blaze", "Hal": "Joe Blue"}
SYSTEMS = ["Milky Milk Dairy Emporium", "Save the Puppies Fund", "Town Welcoming Committee", "PTA",
           "Golf Club", "Little League", "City Council", "Episcopalian Church"]


def do(session: Session, type: str, player: str | None = None, **fields: Any) -> list:
    """Apply one action by name; returns its events."""
    return session.apply({"type": type, "player": player, **fields})


def persona(player: str, **over: str) -> dict[str, str]:
    data = {"occupation": f"{player}'s job", "cheer": f"{player} bakes pies", "helps": f"{player} fixes fences",
            "special": f"{player} sings", "pride": f"{player} won a ribbon"}
    data.update(over)
    return data


def private_self(player: str, **over: str) -> dict[str, str]:
    data = {k: f"secret {k} of {player}" for k in
            ("hurt", "hurt_object", "need", "need_object", "want", "want_object", "guilt")}
    data.update(over)
    return data


def build(players: list[str] = PLAYERS, *, personas: dict[str, dict] | None = None,
          privates: dict[str, dict] | None = None, enemies: dict[str, str] | None = None,
          crime_rolls: dict[str, list[int]] | None = None, colors: dict[str, list[int]] | None = None,
          case_author: str | None = None, stop_before: str | None = None, seed: int = 7,
          names: dict[str, str] | None = None, **options: Any) -> Session:
    names = {**NAMES, **(names or {})}
    s = Session(ENGINE, {"seed": seed, "players": players, **options})
    inv, pres = s.state.investigator, s.state.president
    for name in SYSTEMS[:len(players)]:
        do(s, "name_system", None, name=name)
    # each player rolls a 1 and writes one name on "their" System card
    for i, p in enumerate(players):
        do(s, "roll_for_names", p, roll=1)
        do(s, "add_name", p, system=SYSTEMS[i], name=names.get(p, f"Neighbour of {p}") if p != inv else "Jujube Brown")
    if stop_before == "characters":
        return s
    for p in players:
        fields = persona(p, **(personas or {}).get(p, {}))
        if p != inv:
            fields["name"] = names[p]
        friend = next(q for q in players if q != p)
        do(s, "write_persona", p, friend=friend, **fields)
        if p != inv:
            do(s, "roll_for_crime", p, dice=(crime_rolls or {}).get(p, [3, 5]))
        enemy = (enemies or {}).get(p, next(q for q in reversed(players) if q != p))
        do(s, "write_private_self", p, enemy=enemy, **private_self(p, **(privates or {}).get(p, {})))
        do(s, "roll_color", p, dice=(colors or {}).get(p, [4, 4, 4]))
    if stop_before == "confessions":
        return s
    for i, p in enumerate(players, start=1):
        do(s, "confess", p, text=f"Someone wronged neighbour number {i}")
    if stop_before == "case":
        return s
    author = case_author or next(p for p in players if p not in (inv, pres))
    card = next(c.id for c in s.state.cards if c.author == author)
    do(s, "choose_case", pres, card=card)
    return s


def bet_round(session: Session, *moves: tuple) -> None:
    """Apply (type, player, fields) moves in order."""
    for type, player, fields in moves:
        do(session, type, player, **fields)
