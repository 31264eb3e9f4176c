"""The Hell for Leather engine: routes each action to the part of the rules that owns it."""

from __future__ import annotations

import random
from typing import Any

from ..core import Action, Engine, Event, Prompt, RuleError, possessive
from . import finale, play, setup_phase
from .actions import (
    ACTIONS, AnswerDilemma, AskDilemma, AssignTraumas, BuyGoal, CallConflict, CallForHelp, Correct, Count,
    CreateContestant, DeclareSkill, Entrance, Epilogue, Exam, FailRoll, GrantDilemma, HeatFall, Intent, Land,
    OfferDilemma, Reward, Risk, RollGoal, SuddenDeath, TableKnock, TakeCup, WriteGoal,
)
from .charts import DRIVE_LEVELS, RESULT_NAMES, RIP, drive_name, heat_status
from .common import narrator
from .models import GameState, HellForLeatherSetup

SETUP_ACTIONS = (Exam, SuddenDeath, CreateContestant, WriteGoal, RollGoal)
TURN_ACTIONS = (OfferDilemma, AnswerDilemma, AskDilemma, GrantDilemma, CallConflict, DeclareSkill, AssignTraumas,
                BuyGoal, FailRoll)
FINALE_ACTIONS = (Reward, Entrance, TakeCup, Intent, Epilogue)
SETUP_PHASES = {"exam", "tiebreak", "bios", "goals"}
NO_ACTIVE_TEAM = SETUP_PHASES | {"over", "epilogue"}
"""Phases with no Active Team (and so no Heat in play on the tray)."""
FINALE_PHASES = {"rewards", "entrance", "take_cup", "intent", "epilogue"}


class HellForLeather(Engine):
    game = "hell-for-leather"
    title = "Hell for Leather"
    setup_model = HellForLeatherSetup
    actions = ACTIONS

    def start(self, setup: HellForLeatherSetup, rng: random.Random) -> GameState:
        return setup_phase.start(setup)

    # -- what the game waits for ----------------------------------------------------

    def awaiting(self, state: GameState) -> list[Prompt]:
        phase = state.phase
        if phase == "over":
            return []
        if phase in SETUP_PHASES:
            return setup_phase.awaiting(state)
        if phase in FINALE_PHASES:
            return finale.awaiting(state)
        return play.awaiting(state)

    # -- applying actions -------------------------------------------------------------

    def apply(self, state: GameState, action: Action, rng: random.Random) -> list[Event]:
        if state.phase == "over":
            raise RuleError("the end of the game", "the game is over")
        who = action.player
        if who is not None:
            if who not in state.contestants:
                raise RuleError("only players at this table act", f"nobody called {who!r} is playing")
            if state.contestants[who].drive >= RIP:
                raise RuleError("nobody acts after R.I.P.", f"{possessive(who)} contestant is dead")
        if isinstance(action, SETUP_ACTIONS):
            return setup_phase.apply(state, action, rng)
        if isinstance(action, FINALE_ACTIONS):
            return finale.apply(state, action)
        if isinstance(action, TableKnock):
            return play.on_knock(state, action)
        if isinstance(action, HeatFall):
            return play.on_heat_fall(state, action)
        if isinstance(action, CallForHelp):
            return play.on_help(state, action)
        if isinstance(action, Land):
            return play.on_land(state, action)
        if isinstance(action, Correct):
            if state.conflict is None or not 1 <= action.die <= len(state.conflict.landings):
                raise RuleError("dice are numbered from 1", f"there is no die {action.die} to read again")
            return play.on_correct(state, action)
        if isinstance(action, Risk):
            if state.conflict is None or not play._may_risk(state, state.conflict):
                raise RuleError("one Risk per conflict, none in a Skill Declaration", "no Risk may be taken now")
            return play.on_risk(state)
        if isinstance(action, Count):
            return play.on_count(state)
        if isinstance(action, TURN_ACTIONS):
            return play.on_turn_action(state, action, rng)
        raise RuleError("what happens next", f"{action.type} is not expected now")

    def why_not(self, state: GameState, action: Action) -> RuleError | None:
        """Name the rule when someone tries a move the game does not offer right now."""
        c = state.conflict
        if isinstance(action, Risk) and c is not None:
            if c.skill is not None:
                return RuleError("no Risk in a Skill Declaration", f"{c.narrator} is declaring {c.skill}")
            if c.mode != "finale" and c.risks:
                return RuleError("one Risk per conflict", f"{c.narrator} has already taken a Risk")
            return RuleError("a Risk comes after your own dice", "throw the dice you have first")
        if isinstance(action, BuyGoal):
            if state.fluency < 3:
                return RuleError("Goals start at fluency level 3", "this table plays without Goals")
            player = action.player if action.player in state.contestants else None
            team = state.teams[state.contestants[player].team] if player else state.teams[state.active]
            if team.vp < 5:
                return RuleError("a Goal costs 5 VP", f"{team.name} has only {team.vp} VP")
            return RuleError("a Goal is bought right after a Merit or Boon", "this is not that moment")
        if isinstance(action, CallForHelp):
            if state.fluency < 3 or state.gauntlet is not None or state.finale is not None:
                return RuleError("no Call for Help here", "Help is part of the full game at level 3, not the "
                                 "Finale or the Gauntlet")
            if c is not None and c.landings:
                return RuleError("Help is called before the first die", "dice have already been thrown")
            if state.teams[state.active].vp < 1:
                return RuleError("Help costs 1 VP per living teammate", "the team has no VP")
        if isinstance(action, OfferDilemma):
            if state.setup_mode == "coop":
                return RuleError("in co-op the Narrator asks for a Dilemma", "use ask_dilemma")
            if state.teams[state.active].hunter_marks:
                return RuleError("no Dilemma against a team with Hunters", "the Active Team is being hunted")
            if state.teams[1 - state.active].vp < 1:
                return RuleError("a Dilemma costs the Adversary 1 VP", "the Adversary has no VP")
        if isinstance(action, DeclareSkill) and action.player in state.contestants:
            if state.contestants[action.player].skills_blocked:
                return RuleError("a Cursed Skill Declaration ends them for the session",
                                 f"{action.player} may not declare another skill this session")
        return None

    # -- views ------------------------------------------------------------------------

    def view(self, state: GameState, viewer: str | None) -> dict[str, Any]:
        teams = []
        for t in state.teams:
            teams.append({
                "name": t.name, "members": t.members, "source": t.source, "heat": t.heat,
                "heat_status": heat_status(t.heat), "vp": t.vp, "goals": t.goals, "goals_done": t.goals_done,
                "hunter_marks": t.hunter_marks, "narrator_cup": t.members[t.cup] if t.members else None,
            })
        contestants = {}
        for p, c in state.contestants.items():
            contestants[p] = {
                "name": c.name, "team": state.teams[c.team].name, "vocation": c.vocation, "hometown": c.hometown,
                "hobbies": c.hobbies, "why": c.why, "instinct": c.instinct, "drive": DRIVE_LEVELS[c.drive],
                "spare_circle": c.extra_circle, "felony_rank": c.felony, "felony_track": state.felony_track,
                "skills": c.skills, "skills_blocked": c.skills_blocked, "alive": c.alive, "knocks": c.knocks,
            }
        data: dict[str, Any] = {
            "game": self.game, "mode": state.setup_mode, "fluency": state.fluency, "phase": state.phase,
            "objective": state.objective, "goal_target": state.goal_target, "teams": teams,
            "contestants": contestants, "cue": state.cue, "conflicts_played": state.conflicts_played,
        }
        if state.phase not in NO_ACTIVE_TEAM and state.finale is None:
            data["active_team"] = state.teams[state.active].name
            data["narrator"] = narrator(state)
        if state.exam_scores:
            data["exams"] = {"scores": state.exam_scores, "ranking": state.exam_ranking}
        if state.conflict is not None:
            conflict = state.live_conflict()
            data["conflict"] = {
                "narrator": conflict.narrator, "drive": drive_name(conflict.position),
                "skill": conflict.skill, "dilemma": conflict.dilemma, "helpers": conflict.helpers, "risks": conflict.risks,
                "felony_grade": conflict.felony_grade, "felony_open": conflict.felony_open,
                "dice": [{"thrower": l.thrower, "zone": l.zone, "face": l.face, "die": l.kind,
                          "result": RESULT_NAMES[l.result]} for l in conflict.landings],
                "dice_to_come": max(0, len(conflict.plan) - sum(1 for l in conflict.landings if l.kind in ("drive", "help"))),
            }
        if state.finale is not None:
            f = state.live_finale()
            data["finale"] = {
                "sides": [{"members": s.members, "heat": s.heat, "heat_status": heat_status(s.heat), "vp": s.vp,
                           "narrator_cup": s.members[s.cup], "bonus_levels": s.bonus} for s in f.sides],
                "round": f.round, "turn": f.turn, "rewards_left": f.rewards_left, "narrator": f.narrator,
                "target": f.target, "attacked": f.attacked,
            }
        if state.gauntlet is not None:
            g = state.gauntlet
            data["gauntlet"] = {"team": state.teams[g.team].name, "goals": g.goals, "goals_done": g.goals_done}
        on_table = heat_on_table(state)
        if on_table is not None:
            data["heat"] = on_table
        if viewer is not None:
            data["you"] = viewer
        return data

    def outcome(self, state: GameState) -> str | None:
        return state.over

    def players(self, state: GameState) -> list[str]:
        return list(state.seats)


ENGINE = HellForLeather()


def heat_on_table(state: GameState) -> dict[str, Any] | None:
    """The one Heat stack the table builds on the tray right now: the acting Finale
    side's, else the Active Team's (a conflict outside the Finale is always theirs).
    The same Heat a fall is judged against (``play.on_heat_fall``)."""
    if state.finale is not None:
        side = state.live_finale().sides[state.live_finale().active]
        return {"dice": side.heat, "status": heat_status(side.heat), "whose": ", ".join(side.members)}
    if state.phase in NO_ACTIVE_TEAM or not state.teams:
        return None
    team = state.teams[state.active]
    return {"dice": team.heat, "status": heat_status(team.heat), "whose": team.name}
