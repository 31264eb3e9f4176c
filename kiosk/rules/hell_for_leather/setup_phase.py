"""Before the first scene: the Exams, the contestants, and the Goals each team writes for the other."""

from __future__ import annotations

import random

from ..core import Action, Event, Field, Prompt, RuleError
from .actions import CreateContestant, Exam, RollGoal, SuddenDeath, WriteGoal
from .charts import EXAM_TEAMS, GOAL_CHART, INSTINCTS, RESULT_NAMES, ZONES, landing_result
from .common import alive_members, ensure_living_cup, goal_queue
from .models import Contestant, GameState, HellForLeatherSetup, Team
from .play import begin_play, start_turn

TEXT = 60


def start(setup: HellForLeatherSetup) -> GameState:
    players = setup.players
    contestants = {p: Contestant(player=p) for p in players}
    if setup.mode == "coop":
        groups = [list(players)]
        names = [setup.team_names[0]]
    else:
        if setup.team_a:
            a = [p for p in players if p in setup.team_a]
        else:
            a = players[: (len(players) + 1) // 2]
        groups = [a, [p for p in players if p not in a]]
        names = list(setup.team_names)
    teams = [Team(name=names[i], members=g, source=setup.sources[i]) for i, g in enumerate(groups)]
    smaller = None
    if setup.mode == "team" and not setup.exams and len(groups[0]) != len(groups[1]):
        smaller = 0 if len(groups[0]) < len(groups[1]) else 1
    state = GameState(
        setup_mode=setup.mode, fluency=setup.fluency, goal_target=setup.goal_target, objective=setup.objective,
        phase="exam" if setup.exams else "bios", contestants=contestants, seats=list(players), teams=teams,
        dying=setup.dying, wipeout=setup.wipeout, coop_finale=setup.coop_finale, felony_track=setup.felony_track,
        knock_felony=setup.knock_felony, felony_dice=setup.felony_dice,
        practice_conflicts=setup.practice_conflicts, smaller_team=smaller,
    )
    _assign(state)
    if setup.exams:
        state.cue = "Exams: each player in turn throws ten d10 at the bare Target; every die fully inside scores 1."
    else:
        state.cue = "Create your contestants: name, job, hometown, two hobbies, a Why? and an Instinct."
    return state


def _assign(state: GameState) -> None:
    for i, team in enumerate(state.teams):
        for p in team.members:
            state.contestants[p].team = i


def start_goals(state: GameState) -> None:
    n = state.goal_target
    for t in state.teams:
        t.goals = [""] * n
    if state.setup_mode == "coop":
        state.goal_queue = goal_queue([0], [0], n)
    else:
        state.goal_queue = goal_queue([0, 1], [1, 0], n)
    state.phase = "goals"
    state.cue = (f"Write the Goals, last one first. Objective: {state.objective}. "
                 + ("Each team writes the other's." if state.setup_mode == "team" else "Write your own."))


# -- prompts --------------------------------------------------------------------

def awaiting(state: GameState) -> list[Prompt]:
    if state.phase == "exam":
        p = next(p for p in state.seats if p not in state.exam_scores)
        return [Prompt(p, "exam", f"{p}: throw ten d10 at the bare Target; how many came to rest fully inside?",
                       [Field("points", "int", min=0, max=10, rule="Exams score 0 to 10 dice inside")])]
    if state.phase == "tiebreak":
        group = next(g for g in state.exam_groups if len(g) > 1)
        return [Prompt(p, "sudden_death", f"{p}: throw one sudden-death die to break the tie",
                       [Field("zone", "choice", choices=ZONES), _face()])
                for p in group if p not in state.tiebreak]
    if state.phase == "bios":
        return [Prompt(p, "contestant", f"{p}: create your contestant", BIO_FIELDS)
                for p in state.seats if not state.contestants[p].name]
    if state.phase == "goals":
        writer, owner, slot = state.goal_queue[0]
        team, other = state.teams[writer], state.teams[owner]
        text = f"{team.name}: write Goal {slot + 1} of {state.goal_target} for {other.name}"
        if state.gauntlet is not None:
            text = f"Storm the Gauntlet: write Goal {slot + 1} of {len(state.gauntlet.goals)}"
        out = []
        for p in alive_members(state, team):
            out.append(Prompt(p, "write_goal", text, [Field("goal", "text", max=TEXT)]))
            out.append(Prompt(p, "roll_goal", text + " (or draw one from the Goal chart)"))
        return out
    return []


def _face() -> Field:
    return Field("face", "int", min=0, max=9, rule="a d10 shows 0 to 9")


BIO_FIELDS = [
    Field("name", "text", max=TEXT), Field("vocation", "text", max=TEXT), Field("hometown", "text", max=TEXT),
    Field("hobby1", "text", max=TEXT), Field("hobby2", "text", max=TEXT), Field("why", "text", max=TEXT),
    Field("instinct", "choice", choices=INSTINCTS, rule="an Instinct is Coward, Traitor or Wretch"),
]


# -- actions ----------------------------------------------------------------------

def apply(state: GameState, action: Action, rng: random.Random) -> list[Event]:
    if isinstance(action, Exam):
        state.exam_scores[action.actor] = action.points
        events = [Event(f"Exams: {action.player} lands {action.points} of ten inside.", kind="exam")]
        if len(state.exam_scores) == len(state.seats):
            scores = sorted(set(state.exam_scores.values()), reverse=True)
            state.exam_groups = [[p for p in state.seats if state.exam_scores[p] == s] for s in scores]
            events += _settle_ranks(state)
        return events
    if isinstance(action, SuddenDeath):
        result = landing_result(action.zone, action.face)
        state.tiebreak[action.actor] = result
        events = [Event(f"Sudden death: {action.player} throws a {RESULT_NAMES[result]}.", kind="exam")]
        group = next(g for g in state.exam_groups if len(g) > 1)
        if all(p in state.tiebreak for p in group):
            i = state.exam_groups.index(group)
            values = sorted({state.tiebreak[p] for p in group}, reverse=True)
            state.exam_groups[i:i + 1] = [[p for p in group if state.tiebreak[p] == v] for v in values]
            for p in group:
                del state.tiebreak[p]
            events += _settle_ranks(state)
        return events
    if isinstance(action, CreateContestant):
        c = state.contestants[action.actor]
        texts = [action.name, action.vocation, action.hometown, action.hobby1, action.hobby2, action.why]
        c.name, c.vocation, c.hometown, h1, h2, c.why = (t.strip() for t in texts)
        c.hobbies = [h1, h2]
        c.instinct = action.instinct
        events = [Event(f"{action.player} plays {c.name}, {c.vocation} from {c.hometown}; hobbies {h1} and {h2}; "
                        f"Why? {c.why}; Instinct {c.instinct}.", kind="contestant")]
        if all(x.name for x in state.contestants.values()):
            start_goals(state)
        return events
    if isinstance(action, (WriteGoal, RollGoal)):
        if isinstance(action, WriteGoal):
            goal = action.goal.strip()
        else:
            goal = rng.choice(GOAL_CHART)
        writer, owner, slot = state.goal_queue.pop(0)
        if state.gauntlet is not None:
            state.gauntlet.goals[slot] = goal
            events = [Event(f"Gauntlet Goal {slot + 1}: {goal}.", kind="goal")]
        else:
            state.teams[owner].goals[slot] = goal
            events = [Event(f"{state.teams[writer].name} sets Goal {slot + 1} for {state.teams[owner].name}: "
                            f"{goal}.", kind="goal")]
        if not state.goal_queue:
            if state.gauntlet is not None:
                team = state.teams[state.gauntlet.team]
                state.active = state.gauntlet.team
                ensure_living_cup(state, team)
                events += start_turn(state)
            else:
                events += begin_play(state)
        return events
    raise RuleError("what happens next", f"{action.type} is not part of the setup")


def _settle_ranks(state: GameState) -> list[Event]:
    if any(len(g) > 1 for g in state.exam_groups):
        state.phase = "tiebreak"
        return []
    ranking = [g[0] for g in state.exam_groups]
    state.exam_ranking = ranking
    a_ranks, b_ranks = EXAM_TEAMS[len(ranking)]
    state.teams[0].members = [ranking[r - 1] for r in a_ranks]
    state.teams[1].members = [ranking[r - 1] for r in b_ranks]
    _assign(state)
    sizes = [len(t.members) for t in state.teams]
    state.smaller_team = None if sizes[0] == sizes[1] else sizes.index(min(sizes))
    for p in ranking[:2]:
        state.contestants[p].extra_circle = True
    state.teams[0].vp = 1
    state.phase = "bios"
    state.cue = "Create your contestants: name, job, hometown, two hobbies, a Why? and an Instinct."
    order = ", ".join(f"{i + 1} {p}" for i, p in enumerate(ranking))
    return [Event(f"Exam ranking: {order}. {state.teams[0].name}: {', '.join(state.teams[0].members)}; "
                  f"{state.teams[1].name}: {', '.join(state.teams[1].members)}. {ranking[0]} and {ranking[1]} "
                  f"are Contestant 1 with a spare Drive circle; {state.teams[0].name} starts with 1 VP.",
                  kind="exam", data={"ranking": ranking})]
