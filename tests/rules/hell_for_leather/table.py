"""A scripted table for the Hell for Leather tests: the playtest group, ready to play.

``ready()`` plays the setup (contestants and Goals) so a test starts at the
first Set the Threat. The little verbs below (``call``, ``land``, ``count``)
read like what happens at the table.
"""

from __future__ import annotations

from typing import Any

from kiosk.rules import Session
from kiosk.rules.hell_for_leather import ENGINE

BIOS = {
    "Daniel": ("Dillon Dunne", "Administration", "Dublin", "Recreational Drugs", "Hip Hop", "Brother in Belmarsh",
               "Wretch"),
    "Roger": ("Rikard Rasmussen", "Bodybuilder", "Stockholm", "Weights", "Saunas", "Daughter's debts", "Traitor"),
    "Eoin": ("Elsa Evans", "Journalist", "Chicago", "Poker", "Jazz", "Wife in a camp", "Coward"),
    "Jason": ("John Jackson", "Retired Cop", "Birmingham", "Boxing", "Fishing", "Murder trial", "Wretch"),
    "Susan": ("Sue Slate", "Pharmacist", "Leeds", "Chess", "Climbing", "Sick mother", "Coward"),
    "Alex": ("Al Ash", "Lumberjack", "Oslo", "Darts", "Karaoke", "Son in hospital", "Traitor"),
    "Joe": ("Joe Quill", "Clerk", "Cork", "Birds", "Films", "Gambling debt", "Wretch"),
}

TEAM_SETUP: dict[str, Any] = {"players": ["Daniel", "Roger", "Eoin", "Jason"], "team_a": ["Daniel", "Roger"],
                              "objective": "Royal Palace, Brussels", "sources": ["Phoenix Park, Dublin", "Budapest"]}


def bios(s: Session, players: list[str] | None = None) -> None:
    for p in players or list(s.state.seats):
        name, job, town, h1, h2, why, instinct = BIOS[p]
        s.apply({"type": "contestant", "player": p, "name": name, "vocation": job, "hometown": town,
                 "hobby1": h1, "hobby2": h2, "why": why, "instinct": instinct})


def goals(s: Session) -> None:
    n = 0
    while s.state.phase == "goals":
        prompt = next(p for p in s.awaiting() if p.action == "write_goal")
        n += 1
        s.apply({"type": "write_goal", "player": prompt.player, "goal": f"Goal number {n}"})


def ready(**setup: Any) -> Session:
    data = {**TEAM_SETUP, **setup}
    if data.get("mode") == "coop":
        data.pop("team_a", None)
    s = Session(ENGINE, data)
    bios(s)
    goals(s)
    assert s.state.phase == "threat"
    return s


def narrator(s: Session) -> str:
    return s.view()["narrator"]


def adversary(s: Session) -> str:
    return next(p.player for p in s.awaiting() if p.action == "call_conflict")


def call(s: Session) -> None:
    """The Adversary calls a conflict on the Narrator."""
    s.apply({"type": "call_conflict", "player": adversary(s)})


def thrower(s: Session) -> str:
    return next(p.player for p in s.awaiting() if p.action == "land")


def land(s: Session, zone: str, face: int, **extra: Any) -> None:
    s.apply({"type": "land", "player": thrower(s), "zone": zone, "face": face, **extra})


def risk(s: Session) -> None:
    s.apply({"type": "risk", "player": s.state.conflict.narrator})


def count(s: Session) -> None:
    s.apply({"type": "count", "player": s.state.conflict.narrator})


def fall(s: Session, faces: list[int], thrower: str | None = None, cause: str = "throw") -> None:
    who = thrower or (s.state.conflict.narrator if s.state.conflict else s.state.seats[0])
    s.apply({"type": "heat_fall", "player": None, "faces": faces, "thrower": who, "cause": cause})


def skip_goal(s: Session) -> None:
    if s.state.phase == "goal":
        s.apply({"type": "buy_goal", "player": s.state.goal_window, "bonus": "skip"})


def merit_turn(s: Session) -> None:
    """A quick conflict that scores a Merit for the Active Team (and declines any Goal)."""
    call(s)
    land(s, "inside", 3)
    count(s)
    skip_goal(s)


def pass_turn(s: Session) -> None:
    call(s)
    land(s, "inside", 8)
    count(s)


def fall_for(s: Session, score: int, thrower: str | None = None) -> None:
    """The whole Heat falls with faces that make a Curse of ``score`` with the thrower's Felony rank."""
    who = thrower or (s.state.conflict.narrator if s.state.conflict else s.state.seats[0])
    height = next(t.heat for t in s.state.teams if who in t.members)
    left = score - s.state.contestants[who].felony
    assert height <= left <= 6 * height, f"a Heat of {height} cannot fall to {left}"
    faces = [left // height + (1 if i < left % height else 0) for i in range(height)]
    fall(s, faces, thrower=who)


def gain_heat_turn(s: Session) -> None:
    """A conflict that misses the target with a 5 (less the Felony rank): Gain Heat, one more die."""
    call(s)
    land(s, "outside", 5 - s.state.contestants[s.state.conflict.narrator].felony)
    count(s)


def fail_turn(s: Session) -> None:
    """A conflict that misses with a 1 and no Felony rank: a plain Fail, no VP, no Heat."""
    call(s)
    land(s, "outside", 1)
    count(s)


def trauma_turn(s: Session) -> None:
    """The Narrator knocks over the whole Heat for a Curse of exactly 12: one Trauma."""
    call(s)
    fall_for(s, 12)


def until_narrator(s: Session, name: str, turn=None) -> None:
    """Quiet turns (Passes, unless ``turn`` says otherwise) until ``name`` holds the Narrator Cup."""
    for _ in range(12):
        if narrator(s) == name:
            return
        (turn or pass_turn)(s)
    raise AssertionError(f"{name} never became the Narrator")


def team(s: Session, name: str):
    return next(t for t in s.state.teams if name in t.members)


def drive(s: Session, player: str) -> str:
    return s.view()["contestants"][player]["drive"]
