"""Small helpers every part of the game uses: who is who, Drive and Heat changes."""

from __future__ import annotations

from typing import Literal

from ..core import Event, change, possessive
from .charts import DRIVE_LEVELS, HEAT_FLOOR, RIP, SHOTGUN, drive_dice, heat_status
from .models import Conflict, Contestant, GameState, Team


def alive(state: GameState, player: str) -> bool:
    return state.contestants[player].drive < RIP


def alive_members(state: GameState, team: Team) -> list[str]:
    return [p for p in team.members if state.contestants[p].drive < RIP]


def cup_holder(team: Team) -> str:
    return team.members[team.cup]


def narrator(state: GameState) -> str:
    return cup_holder(state.teams[state.active])


def single_team(state: GameState) -> bool:
    """Co-op and the Gauntlet: one team, and the Adversary is everyone else at the table."""
    return state.setup_mode == "coop" or state.gauntlet is not None


def adversaries(state: GameState) -> list[str | None]:
    """Who may answer for the Adversary now (None: the table, when nobody else is left)."""
    n = narrator(state)
    if single_team(state):
        others = [p for p in state.seats if p != n and alive(state, p)]
    else:
        others = alive_members(state, state.teams[1 - state.active])
    return list(others) or [None]


def teammates(state: GameState, player: str) -> list[str]:
    team = state.teams[state.contestants[player].team]
    return [p for p in team.members if p != player and alive(state, p)]


def pass_cup(state: GameState, team: Team) -> None:
    """The Narrator Cup moves clockwise to the next living member of the team."""
    size = len(team.members)
    for step in range(1, size + 1):
        i = (team.cup + step) % size
        if state.contestants[team.members[i]].drive < RIP:
            team.cup = i
            return


def ensure_living_cup(state: GameState, team: Team) -> None:
    if state.contestants[cup_holder(team)].drive >= RIP:
        pass_cup(state, team)


def change_heat(team: Team, by: int, why: str) -> Event:
    before = team.heat
    team.heat = max(HEAT_FLOOR, team.heat + by)
    moved = "rises" if team.heat > before else "falls" if team.heat < before else "stays"
    amount = change(before, team.heat) if team.heat != before else f"at {team.heat}"
    return Event(f"{possessive(team.name)} Heat {moved} {amount} ({why}): {heat_status(team.heat)}.",
                 kind="heat", data={"team": team.name, "before": before, "after": team.heat, "cause": why})


def drive_event(c: Contestant, before: int, cause: str, text: str) -> Event:
    return Event(text, kind="drive", data={"player": c.player, "before": before, "after": c.drive, "cause": cause})


def trauma(state: GameState, player: str, cause: str = "trauma") -> list[Event]:
    """One Trauma: a spare Exams circle first, else one step down the Drive track."""
    c = state.contestants[player]
    before = c.drive
    if c.extra_circle:
        c.extra_circle = False
        return [Event(f"{c.name or player} takes a Trauma on the spare Contestant 1 circle; Drive stays "
                      f"{DRIVE_LEVELS[c.drive]}. Flashback: a hard moment with their Why? ({c.why}).",
                      kind="trauma", data={"player": player, "spare": True})]
    c.drive += 1
    events = [drive_event(c, before, cause, f"{c.name or player} takes a Trauma and drops "
                          f"{change(DRIVE_LEVELS[before], DRIVE_LEVELS[c.drive]).rstrip('.')}. Flashback: a hard moment with their Why? ({c.why}).")]
    return events


def heal(state: GameState, player: str, cause: str) -> Event:
    c = state.contestants[player]
    before = c.drive
    c.drive = max(0, c.drive - 1)
    return drive_event(c, before, cause, f"{c.name or player} heals one level, "
                       f"{change(DRIVE_LEVELS[before], DRIVE_LEVELS[c.drive]).rstrip('.')}.")


def revive_at_shotgun(state: GameState, player: str) -> Event:
    c = state.contestants[player]
    before = c.drive
    c.drive = SHOTGUN
    return drive_event(c, before, "dying_rule", f"{c.name or player} should have died, but comes back at Shotgun "
                       "(Dying option).")


def plan_throws(narrator_name: str, position: int, helpers: list[str]) -> tuple[list[str], list[str]]:
    """Who throws which die, in order: the Narrator's first throw, each helper, then the Narrator's rest."""
    dice = drive_dice(position)
    first = 2 if position == SHOTGUN else min(dice, 1)
    plan = [narrator_name] * first + list(helpers) + [narrator_name] * (dice - first)
    kinds = ["drive"] * first + ["help"] * len(helpers) + ["drive"] * (dice - first)
    return plan, kinds


def new_conflict(state: GameState, narrator_name: str, team: int, position: int,
                 mode: Literal["play", "finale", "gauntlet"],
                 skill: str | None = None, dilemma: bool = False) -> Conflict:
    plan, kinds = plan_throws(narrator_name, position, [])
    return Conflict(narrator=narrator_name, team=team, position=position, plan=plan, kinds=kinds, skill=skill,
                    dilemma=dilemma, mode=mode)
