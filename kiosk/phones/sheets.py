"""A player's own sheet in sentences, for their phone.

Each function reads only ``view``: the player's own view from the engine
(``session.view(state, player)``), which already holds nothing of anyone
else's secrets. Nothing here looks at the state, so the sheet can never say
more than the view does. The sentences are ours; the facts are the game's.
"""

from __future__ import annotations

from typing import Any, Callable


def sentences(game: str, view: dict[str, Any], player: str) -> list[str]:
    """What ``player`` should know about their own position, one sentence a line."""
    writer = SHEETS.get(game)
    lines = writer(view, player) if writer else []
    return [line for line in lines if line]


def _even_odd(view: dict[str, Any], me: str) -> list[str]:
    lines = []
    character = (view.get("characters") or {}).get(me)
    if character:
        lines.append(f"You play {character.get('name')}: {character.get('description')}.")
    if view.get("lead") == me:
        lines.append("You are the Lead Investigator this scene.")
    pool = (view.get("pools") or {}).get(me)
    if pool is not None:
        lines.append(f"You hold {_n(pool, 'point')} in your pool.")
    wager = view.get("my_wager")
    if wager:
        lines.append(f"Your wager is locked: {_n(wager['points'], 'point')} on {wager['side'].capitalize()}. "
                     "Nobody sees it until every wager is in.")
    if view.get("my_vote"):
        suspect = (view.get("suspects") or {}).get(view["my_vote"], {})
        lines.append(f"Your vote is locked: {suspect.get('name') or view['my_vote']}.")
    papers = view.get("papers") or {}
    if papers:
        lines.append("Papers so far: " + ", ".join(f"{side.capitalize()} {n}" for side, n in papers.items()) + ".")
    return lines


def _promise_hollows(view: dict[str, Any], me: str) -> list[str]:
    lines = []
    person = next((p for p in view.get("players", []) if p.get("player") == me), None)
    if person and person.get("character"):
        what = ", ".join(x for x in (person.get("role"), person.get("occupation")) if x)
        lines.append(f"You play {person['character']}" + (f" ({what})." if what else "."))
    elif person:
        lines.append(f"You are the {person.get('role')}; your character has no name yet.")
    mine = view.get("me") or {}
    if mine.get("secret_kind"):
        lines.append(f"Your secret is a {mine['secret_kind']}." if mine["secret_kind"] == "Crime"
                     else "Your secret is a Guilt, not a Crime.")
    if mine.get("crime_roll"):
        lines.append("Your crime roll: " + ", ".join(map(str, mine["crime_roll"])) + ".")
    private = mine.get("private_self")
    if private:
        lines.append(f"Your Hurt: {private['hurt']}. Who or what hurts: {private['hurt_object']}.")
        lines.append(f"Your Need: {private['need']}. Who or what is needed: {private['need_object']}.")
        lines.append(f"Your Want: {private['want']}. Who or what is wanted: {private['want_object']}.")
        lines.append(f"Your {mine.get('secret_kind') or 'Guilt'}: {private['guilt']}.")
        lines.append(f"Your enemy is {private['enemy']}.")
        shown = mine.get("revealed_parts") or []
        lines.append("Revealed to the table so far: " + ", ".join(shown) + "." if shown
                     else "You have revealed none of it to the table yet.")
    if mine.get("criminal"):
        lines.append("You are the criminal.")
    if mine.get("locked_card"):
        lines.append(f"Your card is locked: {mine['locked_card']}. Nobody sees it until the challenge is revealed.")
    if mine.get("vote"):
        lines.append(f"Your vote is locked: {mine['vote']}.")
    if person and person.get("private_die") is not None:
        lines.append(f"Your Private Die shows {person['private_die']}.")
    return lines


def _hell_for_leather(view: dict[str, Any], me: str) -> list[str]:
    c = (view.get("contestants") or {}).get(me)
    if not c:
        return []
    lines = [f"You play {c.get('name') or 'a contestant with no name yet'}, on team {c.get('team')}."]
    if c.get("vocation"):
        lines.append(f"Vocation: {c['vocation']}; from {c.get('hometown') or 'somewhere'}.")
    lines.append(f"Your Drive: {c.get('drive')}.")
    if c.get("skills"):
        lines.append("Your skills: " + ", ".join(map(str, c["skills"])) + ".")
    if view.get("narrator") == me:
        lines.append("You hold the Narrator Cup.")
    return lines


def _clincher(view: dict[str, Any], me: str) -> list[str]:
    lines = []
    character = (view.get("characters") or {}).get(me)
    if view.get("gm") == me:
        lines.append("You are the GM.")
    elif character:
        lines.append(f"You play {character}.")
    tokens = (view.get("tokens") or {}).get(me)
    if isinstance(tokens, dict):
        lines.append("Your tokens: " + ", ".join(f"{n} {colour}" for colour, n in tokens.items()) + ".")
    return lines


def _n(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


SHEETS: dict[str, Callable[[dict[str, Any], str], list[str]]] = {
    "even-odd": _even_odd,
    "promise-hollows": _promise_hollows,
    "hell-for-leather": _hell_for_leather,
    "clincher": _clincher,
}
