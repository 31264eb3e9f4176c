"""The Objective and after: rewards, the Finale's rounds, Storming the Gauntlet and the Epilogue."""

from __future__ import annotations

from ..core import Action, Event, Field, Prompt, RuleError, change, plural, possessive
from .actions import Entrance, Epilogue, Intent, Reward, TakeCup
from .charts import (
    CURSE, FINALE_HEAT, GAUNTLET_HEAT, HEAT_FLOOR, MERIT, PASS, RESULT_NAMES, RIP, drive_dice, drive_name,
)
from .common import alive, alive_members, cup_holder, heal, new_conflict, trauma
from .models import Finale, FinaleSide, GameState, Gauntlet

FINALE_VP = {CURSE: 0, PASS: 1, MERIT: 2}


def reach_objective(state: GameState, team_index: int) -> list[Event]:
    team = state.teams[team_index]
    events = [Event(f"{team.name} reaches the Objective, {state.objective}!", kind="objective")]
    for t in state.teams:
        t.vp = 0
        t.hunter_marks = t.hunter_crossed = 0
    state.conflict = None
    if state.setup_mode == "coop":
        if state.coop_finale == "gauntlet":
            return events + start_gauntlet(state, 0)
        return events + _start_showdown(state)
    loser = state.teams[1 - team_index]
    rewards = max(0, state.goal_target - loser.goals_done)
    sides = []
    for i, t in enumerate(state.teams):
        bonus = 1 if state.smaller_team == i else 0
        members = alive_members(state, t)
        holder = cup_holder(t)
        cup = members.index(holder) if holder in members else 0
        sides.append(FinaleSide(members=members, heat=t.heat, bonus=bonus, cup=cup))
    state.finale = Finale(sides=sides, leader=team_index, rewards_left=rewards, active=team_index)
    events.append(Event(f"Unspent VP are thrown away and the Hunters are called off. {team.name} earns "
                        f"{plural(rewards, 'reward')}: {state.goal_target} Goals to win, less the "
                        f"{loser.goals_done} the other team reached.", kind="finale"))
    if rewards:
        state.phase = "rewards"
        state.cue = f"{team.name}: spend each reward; every reward spent also lowers your own Heat by 1."
        return events
    return events + _start_entrances(state)


def _start_showdown(state: GameState) -> list[Event]:
    team = state.teams[0]
    n = cup_holder(team)
    living = alive_members(state, team)
    start = living.index(n) if n in living else 0
    order = living[start:] + living[:start]
    if len(order) < 2:
        return [Event(f"{order[0]} is the only one left: nobody to turn on.", kind="finale")] + \
            start_epilogue(state, 0)
    groups = [order[0::2], order[1::2]]
    sides = []
    for g in groups:
        bonus = 1 if len(g) < max(len(x) for x in groups) else 0
        sides.append(FinaleSide(members=g, heat=team.heat, bonus=bonus))
    state.finale = Finale(sides=sides, leader=0, active=0)
    return [Event(f"Showdown at the Objective: {' and '.join(groups[0])} against {' and '.join(groups[1])}.",
                  kind="finale")] + _start_entrances(state)


def _start_entrances(state: GameState) -> list[Event]:
    f = state.live_finale()
    f.entrances = [p for s in f.sides for p in s.members if alive(state, p)]
    state.phase = "entrance"
    state.cue = ("Each contestant makes an entrance at the Objective. Cowards have laid traps, Traitors bring a "
                 "gang of allies, Wretches come heavily armed.")
    return [Event(state.cue, kind="narration")]


def start_gauntlet(state: GameState, team_index: int) -> list[Event]:
    team = state.teams[team_index]
    count = 2 + len(team.members)
    state.gauntlet = Gauntlet(team=team_index, goals=[None] * count)
    state.active = team_index
    before = team.heat
    team.heat = GAUNTLET_HEAT
    team.vp = 0
    team.hunter_marks = team.hunter_crossed = 0
    from .setup_phase import goal_queue
    state.goal_queue = goal_queue([team_index], [team_index], count)
    state.phase = "goals"
    state.cue = (f"Storm the Gauntlet: agree how to break the Network and name {count} Goals. No Felonies, "
                 "Dilemmas, Help or Curse chart; a fallen Heat kills; the Heat rises after every conflict.")
    return [Event(f"{team.name} storms the Gauntlet: {count} Goals, VP thrown away, Heat "
                  f"{change(before, GAUNTLET_HEAT)}.", kind="gauntlet",
                  data={"team": team.name, "before": before, "after": GAUNTLET_HEAT})]


def start_epilogue(state: GameState, team_index: int | None, members: list[str] | None = None) -> list[Event]:
    if members is None and team_index is None:
        raise RuleError("the Epilogue", "the Epilogue needs a team or its members")
    survivors = members if members is not None else alive_members(state, state.teams[team_index or 0])
    state.epilogue = list(survivors)
    if team_index is not None:
        state.winner = state.teams[team_index].name
    state.phase = "epilogue"
    state.conflict = None
    state.cue = "Epilogue: a year later, what became of each winner? Thirty seconds each; mind the hobbies."
    return [Event(state.cue, kind="narration")]


# -- prompts ------------------------------------------------------------------------

def awaiting(state: GameState) -> list[Prompt]:
    phase = state.phase
    if phase == "epilogue":  # the Gauntlet's Epilogue comes without a Finale
        return [Prompt(p, "epilogue", f"{p}: a year later, where are you now?") for p in state.epilogue]
    if state.finale is None:
        return []
    f = state.finale
    if phase == "rewards":
        side = f.sides[f.leader]
        chooser = next(p for p in _rotation(state, f.leader) if alive(state, p))
        return [Prompt(chooser, "reward", f"Spend a reward ({f.rewards_left} left)",
                       [Field("use", "choice", choices=reward_choices(state),
                              rule="a reward raises their Heat, heals your Drive, Traumas an opponent without "
                                   "killing, or buys 2 VP")])]
    if phase == "entrance":
        return [Prompt(p, "entrance", f"{p}: make your entrance") for p in f.entrances]
    if phase == "take_cup":
        side, other = f.sides[f.leader], f.sides[1 - f.leader]
        targets = [p for p in other.members if alive(state, p)]
        return [Prompt(p, "take_cup", "Take the Narrator Cup and pick your Target, opposite you",
                       [Field("target", "choice", choices=targets, rule="the Target is a living opponent")])
                for p in side.members if alive(state, p)]
    if phase == "intent":
        side = f.sides[f.active]
        holder = side.members[side.cup]
        return [Prompt(holder, "intent", f"{f.attacked} is under attack: Defend (kill {f.target}) or Ditch",
                       [Field("choice", "choice", choices=["defend", "ditch"])])]
    return []


def _rotation(state: GameState, side_index: int) -> list[str]:
    side = state.live_finale().sides[side_index]
    return side.members[side.cup:] + side.members[:side.cup]


def reward_choices(state: GameState) -> list[str]:
    f = state.live_finale()
    own = [p for p in f.sides[f.leader].members if alive(state, p)]
    foes = [p for p in f.sides[1 - f.leader].members if alive(state, p)]
    out = ["heat", "vp"]
    out += [f"heal:{p}" for p in own if state.contestants[p].drive > 0]
    out += [f"trauma:{p}" for p in foes if _can_wound(state, p)]
    return out


def _can_wound(state: GameState, player: str) -> bool:
    c = state.contestants[player]
    return c.extra_circle or c.drive + 1 < RIP


# -- actions ------------------------------------------------------------------------

def apply(state: GameState, action: Action) -> list[Event]:
    if isinstance(action, Epilogue):  # also after a Gauntlet, which has no Finale
        state.epilogue.remove(action.actor)
        events = [Event(f"{action.player} tells where their contestant is a year on.", kind="narration")]
        if not state.epilogue:
            state.phase = "over"
            state.over = _final_words(state)
            events.append(Event(state.over, kind="end"))
        return events
    f = state.live_finale()
    if isinstance(action, Reward):
        return _reward(state, action.use)
    if isinstance(action, Entrance):
        f.entrances.remove(action.actor)
        events = [Event(f"{action.player} makes an entrance.", kind="narration")]
        if not f.entrances:
            events += _start_round(state)
        return events
    if isinstance(action, TakeCup):
        side, other = f.sides[f.leader], f.sides[1 - f.leader]
        side.cup = side.members.index(action.actor)
        other.cup = other.members.index(action.target)
        f.round += 1
        f.turn = 1
        f.active = f.leader
        f.narrator, f.target, f.attacked = action.actor, action.target, action.target
        state.cue = f"{action.player} Attacks: in a sentence or two, describe how you kill {action.target}."
        return [Event(f"Round {f.round}: {action.player} takes the Narrator Cup; {action.target} is the Target.",
                      kind="finale"), Event(state.cue, kind="narration")] + _begin(state, action.actor)
    if isinstance(action, Intent):
        side = f.sides[f.active]
        holder = side.members[side.cup]
        if action.choice == "ditch":
            victim = f.attacked
            return [Event(f"{holder} Ditches: {victim} is left to die.", kind="finale")] + \
                finale_death(state, victim, "ditched by the team")
        other = f.sides[1 - f.active]
        f.narrator, f.target = holder, other.members[other.cup]
        state.cue = f"{holder} Defends: describe how you kill {f.target}."
        return [Event(state.cue, kind="narration")] + _begin(state, holder)
    raise RuleError("what happens next", f"{action.type} is not expected now")


def _final_words(state: GameState) -> str:
    living = [p for p in state.seats if alive(state, p)]
    names = ", ".join(state.contestants[p].name or p for p in living)
    if state.finale is not None and state.finale.winner is not None:
        side = state.finale.sides[state.finale.winner]
        team = state.contestants[side.members[0]].team
        if state.setup_mode == "team":
            return f"{state.teams[team].name} wins the show. Surviving: {names}."
        return f"The showdown is over. Surviving: {names}."
    if state.gauntlet is not None:
        return f"{state.teams[state.gauntlet.team].name} broke the Network. Surviving: {names}."
    return f"{state.winner} wins: nobody is left to race. Surviving: {names}."


def _reward(state: GameState, use: str) -> list[Event]:
    f = state.live_finale()
    win, lose = f.sides[f.leader], f.sides[1 - f.leader]
    events: list[Event] = []
    if use == "heat":
        lose.heat += 1
        events.append(Event(f"Reward: the opponents' Heat rises to {lose.heat}.", kind="reward"))
    elif use == "vp":
        win.vp += 2
        events.append(Event(f"Reward: 2 VP for the first round ({win.vp}).", kind="reward"))
    elif use.startswith("heal:"):
        events.append(heal(state, use[5:], "reward_heal"))
    elif use.startswith("trauma:"):
        victim = use[7:]
        if not _can_wound(state, victim):
            raise RuleError("a reward may not kill", f"another Trauma would kill {victim}")
        events += trauma(state, victim, "reward_trauma")
    before = win.heat
    win.heat = max(HEAT_FLOOR, win.heat - 1)
    events.append(Event(f"Spending the reward lowers the winners' Heat {change(before, win.heat)}.", kind="heat"))
    f.rewards_left -= 1
    if f.rewards_left == 0:
        events += _start_entrances(state)
    return events


def _start_round(state: GameState) -> list[Event]:
    f = state.live_finale()
    state.phase = "take_cup"
    names = " and ".join(p for p in f.sides[f.leader].members if alive(state, p))
    return [Event(f"A new round: {names} pick who takes the Narrator Cup.", kind="finale")]


def _finale_position(state: GameState, player: str, side_index: int) -> int:
    side = state.live_finale().sides[side_index]
    allies = sum(1 for p in side.members if p != player and alive(state, p))
    return state.contestants[player].drive - allies - side.bonus


def _begin(state: GameState, player: str) -> list[Event]:
    f = state.live_finale()
    pos = _finale_position(state, player, f.active)
    state.conflict = new_conflict(state, player, f.active, pos, "finale")
    state.phase = "conflict"
    return [Event(f"{player} throws at {drive_name(pos)}: {drive_dice(pos)} d10 against a Heat of "
                  f"{f.sides[f.active].heat}; every die scores, and Risks are unlimited.", kind="conflict")]


def finale_count(state: GameState) -> list[Event]:
    f = state.live_finale()
    c = state.live_conflict()
    side, other = f.sides[f.active], f.sides[1 - f.active]
    scored = sum(FINALE_VP[min(l.result, MERIT)] for l in c.landings)
    side.vp += scored
    dice = ", ".join(RESULT_NAMES[l.result] for l in c.landings) or "no dice"
    events = [Event(f"{c.narrator} scores {scored} VP ({dice}): {side.vp} against {other.vp}.", kind="finale",
                    data={"vp": scored})]
    state.conflict = None
    if side.vp <= other.vp:
        return events + finale_death(state, c.narrator, "not enough VP")
    events.append(Event(f"{possessive(c.narrator)} narration stands.", kind="narration"))
    f.turn += 1
    f.active = 1 - f.active
    nxt = f.sides[f.active]
    f.attacked = nxt.members[nxt.cup]
    if f.turn > 2:
        size = len(nxt.members)
        for step in range(1, size + 1):
            i = (nxt.cup + step) % size
            if alive(state, nxt.members[i]):
                nxt.cup = i
                break
    f.target = f.sides[1 - f.active].members[f.sides[1 - f.active].cup]
    state.phase = "intent"
    state.cue = f"{nxt.members[nxt.cup]}: Defend {f.attacked} by killing {f.target}, or Ditch them."
    return events


def finale_fall(state: GameState, player: str) -> list[Event]:
    state.conflict = None
    return [Event(f"The Heat falls on {possessive(player)} turn.", kind="heat")] + finale_death(state, player, "the Heat fell")


def finale_death(state: GameState, player: str, why: str) -> list[Event]:
    f = state.live_finale()
    con = state.contestants[player]
    before = con.drive
    con.drive = RIP
    state.conflict = None
    events = [Event(f"{con.name or player} dies ({why}); {player} narrates the death.", kind="drive",
                    data={"player": player, "before": before, "after": RIP, "cause": "death"})]
    lost = next(i for i, s in enumerate(f.sides) if player in s.members)
    if not any(alive(state, p) for p in f.sides[lost].members):
        f.winner = 1 - lost
        winners = [p for p in f.sides[f.winner].members if alive(state, p)]
        events.append(Event(f"Only {', '.join(winners)} {'remains' if len(winners) == 1 else 'remain'}. "
                              "The crowd roars.", kind="end"))
        return events + start_epilogue(state, None, winners)
    for s in f.sides:
        s.heat = FINALE_HEAT
        s.vp = 0
    f.leader = 1 - lost
    events.append(Event(f"Every Heat back to {FINALE_HEAT}, every VP back to 0. The killers tidy up the story.",
                        kind="finale"))
    return events + _start_round(state)
