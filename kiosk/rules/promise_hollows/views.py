"""What each viewer may see. The only door through which secrets leave the state.

The public view (``viewer=None``) is built field by field from things the
table already knows: nothing is copied wholesale from the state, so a new
secret field added to the model stays hidden until someone adds it here.
A player's view is the public view plus ``me``: that player's own secrets
(and, for the President while she reads them, the confession cards).
"""

from __future__ import annotations

from typing import Any

from .model import HollowsState


def public(state: HollowsState) -> dict[str, Any]:
    over = state.phase == "over"
    data: dict[str, Any] = {
        "game": "promise-hollows",
        "phase": state.phase,
        "systems": [{"name": s.name, "names": list(s.names)} for s in state.systems],
        "did_you_know": {k: list(v) for k, v in state.details.items()},
        "naming": state.naming.model_dump() if state.naming else None,
        "players": [_person(state, p) for p in state.players],
        "case": state.case,
        "confessions_in": sum(c.confession is not None for c in state.people.values()),
        "box": state.box,
        "pot": state.pot,
        "discard": state.discard,
        "scenes_played": state.scenes_played,
        "scene": _scene(state),
        "exposed": list(state.exposed),
        "face_off": _face_off(state),
        "winners": list(state.winners),
        "ending": state.ending,
    }
    if over and state.criminal:
        data["criminal"] = state.criminal
        data["enemies"] = {p: c.private.enemy for p, c in state.people.items() if c.private}
    return data


def _person(state: HollowsState, player: str) -> dict[str, Any]:
    c = state.people[player]
    private = c.private
    return {
        "player": player,
        "character": c.name,
        "role": c.role,
        "system": c.system,
        "occupation": c.occupation,
        "cheer": c.cheer,
        "helps": c.helps,
        "special": c.special,
        "pride": c.pride,
        "friend": c.friend,
        "color": c.color,
        "private_die": c.die,
        "out": c.removed,
        "plays_a_system": bool(c.removed and state.options.systems_play),
        "revealed": [getattr(private, part) for part in c.revealed] if private else [],
        "confessed": private.guilt if (c.removed and private) else None,
        "done": {
            "persona": c.friend is not None,
            "crime_roll": c.crime_roll is not None,
            "private_self": private is not None,
            "color": c.color_rolled,
            "confession": c.confession is not None,
        },
    }


def _scene(state: HollowsState) -> dict[str, Any] | None:
    sc = state.scene
    if sc is None:
        return None
    data: dict[str, Any] = {
        "opener": sc.opener, "step": sc.step, "in_scene": dict(sc.in_scene), "passed": list(sc.passed),
        "stake": sc.stake, "put": dict(sc.put), "turn": sc.turn, "closer": sc.closer, "revealing": sc.revealing,
        "challenge": None,
    }
    ch = sc.challenge
    if ch is not None:
        data["challenge"] = {
            "challenger": ch.challenger, "target": ch.target, "third_man": ch.third_man,
            "locked": [p for p in (ch.challenger, ch.target, ch.third_man) if p and p in ch.cards],
            "claims": dict(ch.claims),
            "cards": dict(ch.cards) if ch.revealed else None,
            "shares": dict(ch.shares) if ch.revealed else None,
        }
    return data


def _face_off(state: HollowsState) -> dict[str, Any] | None:
    fo = state.face_off
    if fo is None:
        return None
    return {
        "candidates": list(fo.candidates), "declarer": fo.declarer, "suspect": fo.suspect,
        "joins": dict(fo.joins), "voted": [p for p in fo.votes], "result": fo.result,
    }


def private(state: HollowsState, viewer: str) -> dict[str, Any]:
    data = public(state)
    c = state.people[viewer]
    me: dict[str, Any] = {
        "player": viewer,
        "crime_roll": list(c.crime_roll) if c.crime_roll else None,
        "secret_kind": ("Crime" if c.has_crime else "Guilt") if c.private or c.crime_roll else None,
        "private_self": c.private.model_dump() if c.private else None,
        "revealed_parts": list(c.revealed),
        "confession": c.confession,
        "criminal": (state.criminal == viewer) if state.criminal else None,
        "locked_card": None,
        "vote": None,
    }
    sc = state.scene
    if sc and sc.challenge and not sc.challenge.revealed:
        me["locked_card"] = sc.challenge.cards.get(viewer)
    if state.face_off:
        me["vote"] = state.face_off.votes.get(viewer)
    if viewer == state.president and state.phase == "case":
        me["confession_cards"] = [
            {"id": k.id, "text": k.text, "kind": k.kind} | ({"author": k.author} if state.options.president_sees_authors else {})
            for k in state.cards
        ]
    data["me"] = me
    return data
