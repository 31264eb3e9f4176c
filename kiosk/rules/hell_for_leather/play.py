"""A turn of the main game: Set the Threat, the Solution, and the conflict's Consequences.

Also used by the Gauntlet (one team, harsher rules) and, for throwing dice,
by the Finale. ``conflict_prompts`` and the ``on_*`` handlers deal with dice;
``on_count`` turns a finished throw into a result and its effects.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from ..core import Action, Event, Field, Prompt, RuleError, change, dice_count, plural, possessive
from . import finale as fin
from .actions import (
    AnswerDilemma, AskDilemma, AssignTraumas, BuyGoal, CallConflict, CallForHelp, Correct, DeclareSkill,
    FailRoll, GrantDilemma, HeatFall, Land, OfferDilemma, TableKnock,
)
from .charts import (
    BOON, CURSE, DRIVE_ZERO, FELONY_CUES, GOAL_PRICE, HEAT_CUES, HEAT_FACES, HUNTER_MARKS,
    INSTINCT_CUES, MERIT, PASS, RESULT_NAMES, RIP, ZONES, best_result, curse_effects, d10_number, drive_name,
    drive_dice, heat_fall_score, heat_status, landing_result, lowest_curse, read_face, throw_style,
)
from .common import (
    adversaries, alive, alive_members, change_heat, ensure_living_cup, heal, narrator, new_conflict, pass_cup,
    plan_throws, revive_at_shotgun, single_team, teammates, trauma,
)
from .models import Conflict, Contestant, GameState

FACE = Field("face", "int", min=0, max=9, rule="a d10 shows 0 to 9")
ZONE = Field("zone", "choice", choices=ZONES, rule="a d10 lands inside, touching or outside the Target")
SKILL = Field("skill", "text", max=60)
VP_FOR = {CURSE: 0, PASS: 1, MERIT: 2, BOON: 2}


def begin_play(state: GameState) -> list[Event]:
    state.phase = "threat"
    state.active = 0
    return [Event(f"The hoods come off. {state.teams[0].name} starts at {state.teams[0].source}; "
                  f"{narrator(state)} holds the Narrator Cup.", kind="turn")] + start_turn(state)


def start_turn(state: GameState) -> list[Event]:
    state.phase = "threat"
    state.dilemma = ""
    state.dilemma_accepted = False
    team = state.teams[state.active]
    n = narrator(state)
    status = heat_status(team.heat)
    hunters = " Hunters are on your trail: they must be in the scene." if team.hunter_marks else ""
    if state.gauntlet is not None:
        state.cue = (f"Storm the Gauntlet: {n} throws first, then tells what happened in ten seconds. "
                     f"Heat {team.heat}.")
    else:
        first = state.conflicts_played < len(state.teams)
        where = f" First scene: start at your Source, {team.source}." if first else ""
        state.cue = (f"{n} narrates for {team.name}. Set the Threat: a place, something in the background, a "
                     f"threat.{where} Heat {team.heat} ({status}): {HEAT_CUES[status]}.{hunters}")
    return [Event(f"{team.name} is the Active Team; {n} narrates. Heat {team.heat} ({status}).", kind="turn",
                  data={"narrator": n, "team": team.name})]


def _mode(state: GameState) -> Literal["play", "gauntlet"]:
    return "gauntlet" if state.gauntlet is not None else "play"


def _rules_full(state: GameState) -> bool:
    """Victory Points, Help and Dilemmas: fluency 3, and not while Storming the Gauntlet."""
    return state.fluency == 3 and state.gauntlet is None


# -- prompts ----------------------------------------------------------------------

def awaiting(state: GameState) -> list[Prompt]:
    phase = state.phase
    n = narrator(state)
    if phase == "threat":
        out = [Prompt(a, "call_conflict", "Call for a conflict when the Narrator does something risky")
               for a in adversaries(state)]
        if not state.contestants[n].skills_blocked:
            out.append(Prompt(n, "declare_skill", "Claim a trained skill and throw for it (no Risk allowed)",
                              [SKILL]))
        if _rules_full(state) and not state.dilemma:
            if single_team(state):
                out.append(Prompt(n, "ask_dilemma", "Gamble on a Dilemma: Drive -2, +1 VP on a Merit or Boon",
                                  optional=True))
            elif state.teams[1 - state.active].vp >= 1 and not state.teams[state.active].hunter_marks:
                out += [Prompt(a, "offer_dilemma", "Spend 1 VP to force a Dilemma on the Narrator", optional=True)
                        for a in adversaries(state)]
        out += _table_prompts(state, in_conflict=False)
        return out
    if phase == "dilemma":
        choices = ["accept", "refuse"] if state.teams[state.active].vp >= 1 else ["accept"]
        return [Prompt(n, "answer_dilemma", "Accept the Dilemma at Drive -2, or refuse and pay 1 VP",
                       [Field("answer", "choice", choices=choices, rule="refusing a Dilemma costs 1 VP")])]
    if phase == "coop_dilemma":
        return [Prompt(a, "grant_dilemma", f"{n} asks for a Dilemma: describe one, or decline",
                       [Field("answer", "choice", choices=["grant", "decline"])]) for a in adversaries(state)]
    if phase == "conflict":
        return conflict_prompts(state)
    if phase == "fail_roll":
        c = state.live_conflict()
        return [Prompt(c.narrator, "fail_roll", "Drive 0 and no dice: roll one d10 anywhere for the Curse", [FACE])]
    if phase == "traumas":
        pend = state.live_pending()
        extra = pend.effects.count("trauma") - 1
        choices = [pend.responsible] + teammates(state, pend.responsible)
        return [Prompt(pend.responsible, "assign_traumas",
                       f"The Curse brings {plural(extra, 'more Trauma', 'more Traumas')}: take {'it' if extra == 1 else 'them'} or "
                       f"hand {'it' if extra == 1 else 'them'} to teammates",
                       [Field("to", "list", choices=choices, min=extra, max=extra,
                              rule="extra Traumas go to you or living teammates")])]
    if phase == "goal":
        return [goal_prompt(state)]
    return []


def goal_prompt(state: GameState) -> Prompt:
    n = state.goal_window
    team = state.teams[state.contestants[n].team]
    choices = ["heat"] + [f"heal:{p}" for p in alive_members(state, team) if state.contestants[p].drive > 0]
    choices.append("skip")
    return Prompt(n, "buy_goal", f"Buy your next Goal for {GOAL_PRICE} VP ({team.vp} in the cup)? Then lower the "
                  "Heat or heal a Drive; or skip", [Field("bonus", "choice", choices=choices,
                                                          rule="a Goal brings Heat -1 or one Drive healed")])


_TABLE_CACHE: dict[tuple[Any, ...], list[Prompt]] = {}
_CORRECT_CACHE: dict[int, Prompt] = {}


def _table_prompts(state: GameState, in_conflict: bool) -> list[Prompt]:
    """Things the table reports at any time: a fallen Heat, a knocked table.

    These prompts depend on a handful of values only, and ``awaiting`` runs on
    every action, so they are built once per combination and reused (nobody
    mutates a prompt).
    """
    living = tuple(p for p in state.seats if state.contestants[p].drive < RIP)
    height = _heat_team_height(state)
    if in_conflict:
        c = state.live_conflict()
        throwers = (c.narrator, *c.helpers)
    else:
        throwers = living
    key = (living, height, throwers, in_conflict)
    cached = _TABLE_CACHE.get(key)
    if cached is not None:
        return cached
    causes = ["throw", "adding"] if in_conflict else ["taking_off"]
    prompts = [
        Prompt(None, "table_knock", "Someone knocked the table: who?",
               [Field("who", "choice", choices=list(living))], optional=True),
        Prompt(None, "heat_fall", "The Heat fell: enter the faces of the fallen dice",
               [Field("faces", "list", choices=HEAT_FACES, min=1, max=height, rule=f"the Heat is {dice_count(height)} high"),
                Field("thrower", "choice", choices=list(throwers), rule="only someone throwing can topple the Heat"),
                Field("cause", "choice", choices=causes, rule="how the Heat fell")], optional=True),
    ]
    if len(_TABLE_CACHE) > 512:
        _TABLE_CACHE.clear()
    _TABLE_CACHE[key] = prompts
    return prompts


def _correct_prompt(count: int) -> Prompt:
    prompt = _CORRECT_CACHE.get(count)
    if prompt is None:
        prompt = Prompt(None, "correct", "A die was knocked: read it again",
                        [Field("die", "int", min=1, max=count, rule="dice are numbered from 1"), ZONE, FACE],
                        optional=True)
        _CORRECT_CACHE[count] = prompt
    return prompt


def _heat_team_height(state: GameState) -> int:
    if state.finale is not None:
        return state.live_finale().sides[state.live_finale().active].heat
    return state.teams[state.active].heat


def conflict_prompts(state: GameState) -> list[Prompt]:
    c = state.live_conflict()
    n = c.narrator
    out: list[Prompt] = []
    if not c.landings and not c.helpers and c.mode == "play" and state.fluency == 3:
        team = state.teams[c.team]
        mates = teammates(state, n)
        if team.vp >= 1 and mates:
            out.append(Prompt(n, "call_help", "Call for Help before the first die: 1 VP per teammate",
                              [Field("allies", "list", choices=mates, min=1, max=min(team.vp, len(mates)),
                                     unique=True, rule="Help costs 1 VP per living teammate")], optional=True))
    planned_done = _planned_done(c)
    if c.felony_open:
        out.append(Prompt(n, "land", f"Felony! {n}: throw Felony die {c.felony_grade + 1} of up to 3", [ZONE, FACE]))
    elif c.risks > sum(1 for l in c.landings if l.kind == "risk"):
        out.append(Prompt(n, "land", f"{n}: throw the Risk die (never off-hand)", [ZONE, FACE]))
    elif planned_done < len(c.plan):
        who = c.plan[planned_done]
        kind = c.kinds[planned_done]
        if kind == "help":
            text = f"{who}: throw your Help die"
        else:
            style = throw_style(c.position)
            text = f"{who}: throw die {planned_done + 1}" + (f" {style}" if style else "")
        out.append(Prompt(who, "land", text, [ZONE, FACE]))
    else:
        if _may_risk(state, c):
            out.append(Prompt(n, "risk", "Take a Risk: add a die to the Heat for one more d10"))
        out.append(Prompt(n, "count", "All dice are down (count to five if the Heat wobbles): count the result"))
    if c.landings:
        out.append(_correct_prompt(len(c.landings)))
    out += _table_prompts(state, in_conflict=True)
    return out


def _planned_done(c: Conflict) -> int:
    """How many of the Drive and Help dice have been thrown."""
    return sum(1 for l in c.landings if l.kind == "drive" or l.kind == "help")


def _may_risk(state: GameState, c: Conflict) -> bool:
    if c.mode == "finale":
        return True
    return c.risks == 0 and c.skill is None


# -- the turn before the dice ---------------------------------------------------------

def on_turn_action(state: GameState, action: Action, rng: random.Random) -> list[Event]:
    n = narrator(state)
    if isinstance(action, OfferDilemma):
        adv = state.teams[1 - state.active]
        adv.vp -= 1
        state.dilemma = "offered"
        state.phase = "dilemma"
        return [Event(f"{action.player} spends 1 VP on a Dilemma for {n}: are you capable of it?", kind="dilemma")]
    if isinstance(action, AnswerDilemma):
        adv, team = state.teams[1 - state.active], state.teams[state.active]
        if action.answer == "refuse":
            if team.vp < 1:
                raise RuleError("refusing a Dilemma costs 1 VP", f"{team.name} has no VP to refuse with")
            team.vp -= 1
            adv.vp += 2
            state.dilemma = "done"
            state.phase = "threat"
            return [Event(f"{n} refuses the Dilemma: {adv.name} takes back its VP and one more.", kind="dilemma")]
        state.dilemma_accepted = True
        state.dilemma = "done"
        return [Event(f"{n} accepts the Dilemma and faces it at Drive -2.", kind="dilemma")] + _begin_conflict(state)
    if isinstance(action, AskDilemma):
        state.dilemma = "asked"
        state.phase = "coop_dilemma"
        return [Event(f"{n} gambles on a Dilemma.", kind="dilemma")]
    if isinstance(action, GrantDilemma):
        state.dilemma = "done"
        if action.answer == "decline":
            state.phase = "threat"
            return [Event(f"{action.player or 'The table'} declines the Dilemma; play goes on.", kind="dilemma")]
        state.dilemma_accepted = True
        return ([Event(f"{action.player or 'The table'} sets the Dilemma: {n} throws at Drive -2 and a Merit or "
                       "Boon earns 1 extra VP.", kind="dilemma")] + _begin_conflict(state))
    if isinstance(action, CallConflict):
        return [Event(f"{action.player or 'The Adversary'} calls a conflict on {n}.", kind="conflict")] + \
            _begin_conflict(state)
    if isinstance(action, DeclareSkill):
        if state.contestants[n].skills_blocked:
            raise RuleError("a Cursed Skill Declaration ends them for the session",
                            f"{n} may not declare another skill this session")
        skill = action.skill.strip()
        return [Event(f"{n} declares a skill: {skill}. Throw for it; no Risk allowed.", kind="conflict")] + \
            _begin_conflict(state, skill=skill)
    if isinstance(action, AssignTraumas):
        return resolve_pending(state, list(action.to))
    if isinstance(action, BuyGoal):
        return buy_goal(state, action.bonus)
    if isinstance(action, FailRoll):
        c = state.live_conflict()
        return curse(state, c.narrator, d10_number(action.face), f"a d10 of {d10_number(action.face)} at Drive 0")
    raise RuleError("what happens next", f"{action.type} is not expected now")


def _begin_conflict(state: GameState, skill: str | None = None) -> list[Event]:
    n = narrator(state)
    c = state.contestants[n]
    position = min(c.drive + (2 if state.dilemma_accepted else 0), DRIVE_ZERO)
    state.conflict = new_conflict(state, n, state.active, position, _mode(state), skill=skill,
                                  dilemma=state.dilemma_accepted)
    state.phase = "conflict"
    dice = len(state.live_conflict().plan)
    return [Event(f"{n} throws at {drive_name(position)}: {dice} d10 against a Heat of "
                  f"{state.teams[state.active].heat}.", kind="conflict")]


# -- dice ---------------------------------------------------------------------------

def on_help(state: GameState, action: CallForHelp) -> list[Event]:
    c = state.live_conflict()
    team = state.teams[c.team]
    allies = list(action.allies)
    if len(set(allies)) != len(allies):
        raise RuleError("Help costs 1 VP per living teammate", "an ally can only help once")
    if team.vp < len(allies):
        raise RuleError("Help costs 1 VP per living teammate", f"{team.name} has {team.vp} VP")
    seat = team.members
    start = seat.index(c.narrator)
    order = sorted(allies, key=lambda p: (seat.index(p) - start) % len(seat))
    team.vp -= len(allies)
    c.helpers = order
    c.plan, c.kinds = plan_throws(c.narrator, c.position, order)
    return [Event(f"{c.narrator} calls for Help from {', '.join(order)} ({len(order)} VP).", kind="help")]


def on_land(state: GameState, action: Land) -> list[Event]:
    c = state.live_conflict()
    if action.caught is not None and not 0 <= action.caught <= 9:
        raise RuleError("a d10 shows 0 to 9", f"caught must be a face from 0 to 9, not {action.caught}")
    if c.felony_open:
        kind = "felony"
    elif c.risks > sum(1 for l in c.landings if l.kind == "risk"):
        kind = "risk"
    else:
        kind = c.kinds[_planned_done(c)]
    face = read_face(action.face, action.caught)
    result = landing_result(action.zone, face)
    from .models import Landing
    c.landings.append(Landing(thrower=action.player or c.narrator, zone=action.zone, face=face, kind=kind,
                              result=result))
    caught = f" (caught between {action.face} and {action.caught}: counts {face})" if action.caught is not None else ""
    events = [Event(f"{possessive(action.player)} {kind} die lands {action.zone} showing {action.face}{caught}: "
                    f"{RESULT_NAMES[result]}.", kind="die",
                    data={"thrower": action.player, "zone": action.zone, "face": face, "die": kind})]
    if kind == "risk" and c.mode == "play" and state.fluency >= 2 and result != MERIT:
        room = state.felony_track - state.contestants[c.narrator].felony
        if room > 0:
            c.felony_open = True
            c.felony_room = room
            events.append(Event(f"The Risk die is no Merit: the Risk becomes a Felony. {c.narrator} throws up to "
                                "three d10; the first Merit (or a fall) sets the grade.", kind="felony"))
        else:
            events.append(Event(f"{possessive(c.narrator)} Felony track is full: the Risk cannot become a Felony.",
                                kind="felony"))
    elif kind == "felony":
        c.felony_grade += 1
        if result == MERIT or c.felony_grade == 3:
            events += commit_felony(state)
    return events


def commit_felony(state: GameState) -> list[Event]:
    c = state.live_conflict()
    grade = max(c.felony_grade, 1)
    c.felony_grade = grade
    c.felony_open = False
    con = state.contestants[c.narrator]
    stars = min(grade, c.felony_room, state.felony_track - con.felony)
    con.felony += stars
    events = [Event(f"{con.name or c.narrator} commits a {'*' * grade} Felony ({FELONY_CUES[grade]}). Felony rank "
                    f"now {con.felony}.", kind="felony", data={"player": c.narrator, "grade": grade})]
    if state.felony_dice == "drive":
        extra = max(0, drive_dice(c.position - grade) - drive_dice(c.position))
        c.plan += [c.narrator] * extra
        c.kinds += ["drive"] * extra
        events.append(Event(f"The Felony lifts {possessive(c.narrator)} Drive {plural(grade, 'level')} to "
                            f"{drive_name(c.position - grade)}: {extra} more d10; the Felony dice only graded the "
                            "crime.", kind="felony"))
    return events


def on_correct(state: GameState, action: Correct) -> list[Event]:
    c = state.live_conflict()
    landing = c.landings[action.die - 1]
    landing.zone, landing.face = action.zone, action.face
    landing.result = landing_result(action.zone, action.face)
    return [Event(f"Die {action.die} was knocked and now reads {action.zone} {action.face}: "
                  f"{RESULT_NAMES[landing.result]}.", kind="die")]


def on_risk(state: GameState) -> list[Event]:
    c = state.live_conflict()
    c.risks += 1
    if c.mode == "finale":
        side = state.live_finale().sides[state.live_finale().active]
        side.heat += 1
        return [Event(f"{c.narrator} takes a Finale Risk: Heat {side.heat}, one more d10.", kind="risk")]
    team = state.teams[c.team]
    ev = change_heat(team, +1, "Risk")
    instinct = state.contestants[c.narrator].instinct
    cue = f" The Adversary will narrate the outcome with {possessive(c.narrator)} Instinct, {instinct}: " \
          f"{INSTINCT_CUES.get(instinct, '')}." if c.mode == "play" else ""
    return [Event(f"{c.narrator} takes a Risk: one die onto the Heat, one more d10.{cue}", kind="risk"), ev]


def on_heat_fall(state: GameState, action: HeatFall) -> list[Event]:
    faces = list(action.faces)
    if state.finale is not None:
        height = state.live_finale().sides[state.live_finale().active].heat
    else:
        height = state.teams[state.active].heat
    if not 1 <= len(faces) <= height or any(f not in HEAT_FACES for f in faces):
        raise RuleError(f"the Heat is {dice_count(height)} high", f"{len(faces)} fallen d6 faces do not fit that Heat")
    if action.cause == "taking_off":
        if state.phase == "conflict":
            raise RuleError("how the Heat fell", "no dice are being taken off during a throw")
        return [Event("The Heat fell while dice were being taken off: it does not count. Rebuild it.", kind="heat")]
    c = state.conflict
    if c is None or state.phase != "conflict":
        raise RuleError("how the Heat fell", "a fall only counts while someone is throwing")
    if action.thrower not in [c.narrator] + c.helpers:
        raise RuleError("only someone throwing can topple the Heat", f"{action.thrower} is not throwing")
    standing = height - len(faces)
    if c.mode == "finale":
        return fin.finale_fall(state, c.narrator)
    if c.mode == "gauntlet":
        return [Event(f"The Heat falls on {possessive(action.thrower)} throw. In the Gauntlet that kills.", kind="heat")] + \
            kill(state, action.thrower, "the Heat fell in the Gauntlet")
    if state.fluency == 1:
        return [Event("The Heat fell; at fluency level 1 that has no effect. Rebuild it and keep throwing.",
                      kind="heat")]
    events = []
    if c.felony_open:
        events += commit_felony(state)
    base = heat_fall_score(faces, standing)
    what = f"fallen {'+'.join(map(str, faces))}" + (f" + {standing} standing x3" if standing else "")
    return events + curse(state, action.thrower, base, f"the Heat fell ({what} = {base})")


def on_knock(state: GameState, action: TableKnock) -> list[Event]:
    c = state.contestants[action.who]
    c.knocks += 1
    if c.knocks == 1:
        return [Event(f"{action.who} knocked the table. Rebuild the Heat; first time, no harm done.", kind="knock")]
    if state.fluency < 2 or state.finale is not None or state.gauntlet is not None:
        return [Event(f"{action.who} knocked the table again. Rebuild the Heat (no Felonies here).", kind="knock")]
    before = c.felony
    c.felony = min(state.felony_track, c.felony + state.knock_felony)
    rank = f"rises {change(before, c.felony)}" if c.felony > before else f"stays at {c.felony}, the top of the track"
    return [Event(f"{action.who} knocked the table again: a Felony. Felony rank {rank}.",
                  kind="felony", data={"player": action.who, "knock": True})]


# -- counting and consequences ---------------------------------------------------------

def on_count(state: GameState) -> list[Event]:
    c = state.live_conflict()
    if c.mode == "finale":
        return fin.finale_count(state)
    if not c.landings or all(l.kind == "felony" for l in c.landings) and state.felony_dice == "drive":
        if c.mode == "gauntlet" or state.fluency == 1:
            return [Event(f"{c.narrator} has no dice to throw: the attempt fails.", kind="result")] + \
                finish_result(state, CURSE, fail_only=True)
        state.phase = "fail_roll"
        return [Event(f"{c.narrator} has no dice at Drive 0: the attempt fails as a Curse.", kind="result")]
    counted = [l for l in c.landings if l.kind != "felony" or state.felony_dice == "count"]
    results = [l.result for l in counted]
    best = best_result(results, boons=state.fluency >= 2)
    if state.fluency == 1 and best == CURSE:
        best = PASS
        note = " (a Curse counts as a Pass at level 1)"
    else:
        note = ""
    rolled = ", ".join(RESULT_NAMES[r] for r in results)
    events = [Event(f"Count: {rolled}. Result: {RESULT_NAMES[best]}{note}.", kind="result",
                    data={"result": RESULT_NAMES[best]})]
    if best == CURSE:
        if c.mode == "gauntlet":
            return events + finish_result(state, CURSE, fail_only=True)
        base = lowest_curse(l.face for l in counted if l.result == CURSE)
        return events + curse(state, c.narrator, base, f"lowest Curse die {base}")
    return events + finish_result(state, best)


def _narration(state: GameState, result: int) -> str:
    c = state.live_conflict()
    n = c.narrator
    con = state.contestants[n]
    # A Boon's flashback is the Narrator's whoever tells the outcome (docs/rules/hell-for-leather.md,
    # "A Boon's flashback when someone else narrates"), so every cue that hands the outcome on keeps it.
    flashback = f" Then {n} tells {_flashback(con)}." if result == BOON else ""
    if c.mode == "gauntlet":
        told = f"{n} says what happened, ten seconds at most: {RESULT_NAMES[result].lower()}" + \
            (" (a failure)." if result == CURSE else ".")
        return told + (f" Then {n} tells {_flashback(con)}, in ten seconds too." if result == BOON else "")
    if c.risks and c.mode == "play":
        if c.felony_grade:
            return f"The Adversary narrates: a {'*' * c.felony_grade} Felony ({FELONY_CUES[c.felony_grade]}) " \
                   f"that leads to {'failure' if result == CURSE else 'success'}.{flashback}"
        return f"The Adversary narrates the outcome through {possessive(n)} Instinct, {con.instinct}: " \
               f"{INSTINCT_CUES.get(con.instinct, '')}.{flashback}"
    if result == BOON:
        return f"{n} narrates a glorious success, then {_flashback(con)}."
    if result == MERIT:
        return f"{n} narrates the success; no new scene."
    if result == PASS:
        return "The Adversary narrates success with a complication."
    return "The Adversary narrates the failure."


def _flashback(con: Contestant) -> str:
    """What a Boon's flashback must hold: a good moment with the contestant's Why? and a hobby."""
    return f"a happy flashback with their Why? ({con.why}) and a hobby ({' or '.join(con.hobbies)})"


def finish_result(state: GameState, result: int, fail_only: bool = False) -> list[Event]:
    """Apply a Pass, Merit or Boon (or a Curse without the chart) to the Active Team."""
    c = state.live_conflict()
    team = state.teams[c.team]
    n = c.narrator
    events: list[Event] = []
    state.last_result = RESULT_NAMES[result]
    hunted = team.hunter_marks > 0
    if c.skill is not None:
        con = state.contestants[n]
        if result in (MERIT, BOON):
            con.skills.append(c.skill)
            events.append(Event(f"{n} knows {c.skill} from now on.", kind="skill"))
        elif result == PASS:
            events.append(Event(f"{n} manages {c.skill} this time only.", kind="skill"))
        elif not fail_only or c.mode == "gauntlet":
            con.skills_blocked = True
            events.append(Event(f"{n} does not know {c.skill} and may declare no more skills this session.",
                                kind="skill"))
    if state.fluency >= 2 and hunted and result in (MERIT, BOON):
        if result == BOON:
            team.hunter_marks = 0
        else:
            team.hunter_marks -= 1
            team.hunter_crossed += 1
        if team.hunter_marks == 0:
            team.hunter_crossed = 0
            events.append(Event(f"{team.name} shakes off the Hunters.", kind="hunters"))
        else:
            events.append(Event(f"{team.name} crosses off a Hunter Mark; {team.hunter_marks} to go.", kind="hunters"))
    if state.fluency == 3:
        gain = VP_FOR[result]
        if gain and hunted:
            events.append(Event(f"No VP for {team.name} while the Hunters are on them.", kind="vp"))
            gain = 0
        if c.dilemma and single_team(state) and result in (MERIT, BOON):
            gain += 1
        if gain:
            team.vp += gain
            events.append(Event(f"{team.name} gains {gain} VP ({team.vp} in the cup).", kind="vp",
                                data={"team": team.name, "gain": gain}))
    if result == BOON:
        events.append(change_heat(team, -1, "Boon"))
    state.cue = _narration(state, result)
    events.append(Event(state.cue, kind="narration"))
    if (state.fluency == 3 and result in (MERIT, BOON) and goals_left(state, c.team) > 0
            and team.vp >= GOAL_PRICE):
        state.goal_window = n
        state.phase = "goal"
        return events
    return events + end_turn(state)


def goals_left(state: GameState, team: int) -> int:
    if state.gauntlet is not None:
        return len(state.gauntlet.goals) - state.gauntlet.goals_done
    return state.goal_target - state.teams[team].goals_done


def curse(state: GameState, responsible: str, base: int, why: str) -> list[Event]:
    """A Curse at fluency 2 or 3: Felony rank is added and the chart decides."""
    c = state.live_conflict()
    state.last_result = "Curse"
    if c.skill is not None:
        state.contestants[c.narrator].skills_blocked = True
    rank = state.contestants[responsible].felony
    score = base + rank
    effects = curse_effects(score)
    from .models import Pending
    team = state.contestants[responsible].team
    state.pending = Pending(responsible=responsible, team=team, effects=effects, score=score,
                            hunted=state.teams[team].hunter_marks > 0)
    names = {"fail": "Fail", "gain_heat": "Gain Heat", "hunters": "Hunters", "trauma": "Trauma"}
    events = [Event(f"Curse for {responsible}: {why} + Felony rank {rank} = {score}: "
                    f"{', '.join(names[e] for e in effects)}.", kind="curse",
                    data={"player": responsible, "score": score, "effects": effects})]
    if c.skill is not None:
        events.append(Event(f"{c.narrator} does not know {c.skill} and may declare no more skills this session.",
                            kind="skill"))
    extra = effects.count("trauma") - 1
    if extra > 0 and teammates(state, responsible):
        state.phase = "traumas"
        return events
    return events + resolve_pending(state, [responsible] * max(extra, 0))


def resolve_pending(state: GameState, extra_to: list[str]) -> list[Event]:
    pend = state.live_pending()
    allowed = {pend.responsible, *teammates(state, pend.responsible)}
    bad = [p for p in extra_to if p not in allowed]
    if bad:
        raise RuleError("extra Traumas go to you or living teammates", f"cannot give a Trauma to {bad}")
    team = state.teams[pend.team]
    events: list[Event] = []
    # The Heat is rebuilt and raised first; Traumas lower it once their flashbacks are told.
    for e in pend.effects:
        if e == "gain_heat":
            events.append(change_heat(team, +1, "Gain Heat"))
            events.append(Event("The Adversary cuts to Network footage of the contestant's worst crime and sets "
                                "a new challenge.", kind="narration"))
        elif e == "hunters":
            if team.hunter_marks == 0 and team.hunter_crossed == 0:
                team.hunter_marks = HUNTER_MARKS
                events.append(Event(f"Hunters burst in on {team.name}: {HUNTER_MARKS} Merits (or a Boon) to shake "
                                    "them, and no VP until then.", kind="hunters"))
            elif team.hunter_crossed > 0:
                team.hunter_crossed -= 1
                team.hunter_marks += 1
                events.append(Event(f"More Hunters: {team.name} gets a Hunter Mark back ({team.hunter_marks} to "
                                    "go).", kind="hunters"))
            else:
                events.append(Event("More Hunters with no mark to restore: it counts as Gain Heat.", kind="hunters"))
            events.append(change_heat(team, +1, "Hunters"))
    targets = ([pend.responsible] + extra_to) if "trauma" in pend.effects else []
    for p in targets:
        if not alive(state, p):
            continue
        events += trauma(state, p)
        events.append(change_heat(team, -2, "Trauma"))
        if not alive(state, p):
            events += kill(state, p, "a Trauma", end=False)
    if "trauma" not in pend.effects:
        state.cue = "The Adversary narrates the failure" + (" and the Hunters' arrival." if "hunters" in pend.effects
                                                            else ".")
    else:
        state.cue = "Flashback first; then the traumatised contestant narrates the failure."
    state.pending = None
    return events + end_turn(state)


def kill(state: GameState, player: str, why: str, end: bool = True) -> list[Event]:
    """A contestant reaches R.I.P. (or, with the Dying option, comes back at Shotgun)."""
    con = state.contestants[player]
    events: list[Event] = []
    if con.drive < RIP:
        before = con.drive
        con.drive = RIP
        events.append(Event(f"{con.name or player} is dead ({why}).", kind="drive",
                            data={"player": player, "before": before, "after": RIP, "cause": "death"}))
    if state.dying and state.gauntlet is None and state.finale is None and state.setup_mode == "team":
        other = state.teams[1 - con.team]
        events.append(revive_at_shotgun(state, player))
        if other.goals_done < state.goal_target:
            other.goals_done += 1
            events.append(Event(f"{other.name} gets a free Goal for that death ({other.goals_done} of "
                                f"{state.goal_target}).", kind="goal"))
    else:
        events.append(Event(f"R.I.P. {con.name or player}: {player} describes a fitting end.", kind="death",
                            data={"player": player}))
    if end:
        return events + end_turn(state)
    return events


def buy_goal(state: GameState, bonus: str) -> list[Event]:
    n = state.goal_window
    team_index = state.contestants[n].team
    team = state.teams[team_index]
    if bonus == "skip":
        state.goal_window = ""
        return [Event(f"{team.name} keeps its VP.", kind="goal")] + end_turn(state)
    if team.vp < GOAL_PRICE:
        raise RuleError(f"a Goal costs {GOAL_PRICE} VP", f"{team.name} has only {team.vp} VP")
    team.vp -= GOAL_PRICE
    state.goal_window = ""
    if state.gauntlet is not None:
        g = state.gauntlet
        name = g.goals[g.goals_done]
        g.goals_done += 1
        done, total = g.goals_done, len(g.goals)
    else:
        name = team.goals[team.goals_done]
        team.goals_done += 1
        done, total = team.goals_done, state.goal_target
    events = [Event(f"{team.name} buys a Goal for {GOAL_PRICE} VP: {name} ({done} of {total}). Take a break in the "
                    "story: how was it done?", kind="goal", data={"team": team.name, "goals": done})]
    if bonus == "heat":
        events.append(change_heat(team, -1, "Goal"))
    else:
        who = bonus.split(":", 1)[1]
        events.append(heal(state, who, "goal_heal"))
    return events + end_turn(state)


def end_turn(state: GameState) -> list[Event]:
    """The Narrator Cup moves on and (in team play) the team roles switch."""
    state.conflict = None
    state.conflicts_played += 1
    events: list[Event] = []
    if state.gauntlet is not None:
        g = state.gauntlet
        team = state.teams[g.team]
        if not alive_members(state, team):
            state.over = f"Every contestant of {team.name} died storming the Gauntlet."
            state.phase = "over"
            return [Event(state.over, kind="end")]
        if g.goals_done >= len(g.goals):
            events.append(Event(f"{team.name} has stormed the Gauntlet!", kind="end"))
            return events + fin.start_epilogue(state, g.team)
        events.append(change_heat(team, +1, "the Gauntlet rises after every conflict"))
    elif state.setup_mode == "coop":
        team = state.teams[0]
        if not alive_members(state, team):
            state.over = "Every contestant is dead. The Network wins."
            state.phase = "over"
            return [Event(state.over, kind="end")]
        if team.goals_done >= state.goal_target:
            return events + fin.reach_objective(state, 0)
    else:
        for i, team in enumerate(state.teams):
            if not alive_members(state, team):
                return events + _wipeout(state, 1 - i)
        reached = [i for i in (state.active, 1 - state.active) if state.teams[i].goals_done >= state.goal_target]
        if reached:
            return events + fin.reach_objective(state, reached[0])
    if state.fluency < 3 and state.conflicts_played >= state.practice_conflicts:
        state.over = f"Practice session over after {state.conflicts_played} conflicts."
        state.phase = "over"
        return events + [Event(state.over, kind="end")]
    team = state.teams[state.active]
    pass_cup(state, team)
    if not single_team(state):
        state.active = 1 - state.active
        ensure_living_cup(state, state.teams[state.active])
    return events + start_turn(state)


def _wipeout(state: GameState, survivor: int) -> list[Event]:
    team = state.teams[survivor]
    dead = state.teams[1 - survivor]
    events = [Event(f"Every contestant of {dead.name} is dead.", kind="end")]
    if state.fluency < 3:
        state.over = f"{team.name} is the last team standing."
        state.phase = "over"
        return events + [Event(state.over, kind="end")]
    if state.wipeout == "win":
        events.append(Event(f"{team.name} wins: nobody is left to race.", kind="end"))
        return events + fin.start_epilogue(state, survivor)
    return events + fin.start_gauntlet(state, survivor)
