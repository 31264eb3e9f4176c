"""The Even/Odd case game: two to four investigators, twelve dice, one killer.

How a session runs on the device (our own summary; the decisions behind the
unclear parts are in ``docs/rules/even-odd.md``):

1. **Investigators.** Every player introduces a character (a name and a few
   words). The twelve Investigation Points are dealt out evenly: 6 each for
   two players, 4 for three, 3 for four. A player's points are their pool.
2. **Opening scenes.** The first Lead Investigator (picked at setup) sets the
   crime scene: the victim and the name of the case. The lead then passes
   clockwise (the order of ``players``): the next lead presents the Even
   Suspect, the one after that the Odd Suspect.
3. **Investigation scenes.** Each scene has a new lead. Everyone stakes points
   from their pool in secret, on Even or on Odd; the lead must stake at least
   one. When the last wager is locked, all are shown together and the lead
   rolls the staked dice (virtual dice, or real ones typed in). More even faces
   point to the Even Suspect, more odd faces to the Odd Suspect, a draw is
   inconclusive. The dice that backed the winner go on that suspect's paper,
   the others into the Epilogue Pool.
4. **Final Scene.** When a scene's lead has no points left, the leftover points
   of the others join the Epilogue Pool and the lead accuses the suspect with
   the most points on their paper.
5. **Epilogue.** The final lead rolls the Epilogue Pool: even faces go to the
   Even Suspect's paper, odd faces to the Odd Suspect's. If the accused now has
   the most, justice is served; if not, an innocent was convicted.

Wagers and accusation votes are secret until everyone has locked: they live in
the state but only ``view`` decides who sees them.
"""

from __future__ import annotations

import random
from typing import Annotated, Any, Callable, Literal, Union

from pydantic import BaseModel, Field as PField, TypeAdapter, model_validator

from .core import Action, Engine, Event, Field, Prompt, RuleError, Setup, dice_count, plural, possessive

TOTAL_POINTS = 12
Side = Literal["even", "odd"]
SIDES: tuple[str, str] = ("even", "odd")
SUSPECT_TITLE = {"even": "the Even Suspect", "odd": "the Odd Suspect"}
TEXT_MAX = 200

# Rule names quoted in refusals.
RULE_LEAD_MINIMUM = "the Lead Investigator stakes at least one point"
RULE_POOL = "a wager comes out of your own pool"
RULE_ONE_WAGER = "one secret wager per investigator per scene"
RULE_DICE_MODE = "how dice are rolled is chosen at setup"
RULE_DICE_COUNT = "every staked die is rolled and counted"
RULE_ACCUSE_MOST = "the accused is the suspect with the most points on their paper"


def other(side: str) -> str:
    return "odd" if side == "even" else "even"


# --------------------------------------------------------------------------
# Setup: players in clockwise seating order, plus the named rule options.
# --------------------------------------------------------------------------


class EvenOddSetup(Setup):
    players: list[str] = PField(default_factory=lambda: ["Ann", "Bo", "Cy"], min_length=2, max_length=4)
    """The investigators' players in clockwise seating order."""
    first_lead: str | None = None
    """Who sets the crime scene; leave it blank for the first player listed."""
    dice: Literal["virtual", "physical"] = "virtual"
    """Virtual: the device rolls. Physical: the lead rolls real dice and enters the faces or the even count."""
    voted_dice: Literal["wagered", "faces"] = PField("wagered", title="Dice that voted")
    """Which dice "voted" for the winner: those staked on it, or those whose face matched it."""
    tie_dice: Literal["epilogue", "return"] = PField("epilogue", title="Dice of an inconclusive scene")
    """After an inconclusive scene the staked dice go to the Epilogue Pool, or back to their owners."""
    accusation_tie: Literal["lead", "vote"] = PField("lead", title="Papers level at the Final Scene")
    """Papers level at the Final Scene: the final lead picks, or everyone votes in secret."""
    epilogue_tie: Literal["innocent", "justice"] = PField("innocent", title="Papers level after the epilogue")
    """Papers level after the epilogue roll: the accused did not have the most (innocent), or justice holds."""

    @model_validator(mode="after")
    def _players_make_sense(self) -> "EvenOddSetup":
        names = [p.strip() for p in self.players]
        if any(not n for n in names):
            raise ValueError("players: every player needs a name")
        if len(set(names)) != len(names):
            raise ValueError(f"players: names must differ, got {self.players}")
        self.players = names
        if self.first_lead is not None and not self.first_lead.strip():
            self.first_lead = None  # a blank answer means "the first listed player"
        if self.first_lead is not None and self.first_lead not in names:
            raise ValueError(f"first_lead: {self.first_lead!r} is not one of the players {names}")
        return self


# --------------------------------------------------------------------------
# Actions.
# --------------------------------------------------------------------------


class Introduce(Action):
    type: Literal["introduce"] = "introduce"
    name: str
    description: str


class CrimeScene(Action):
    type: Literal["crime_scene"] = "crime_scene"
    victim: str
    case: str


class PresentSuspect(Action):
    type: Literal["suspect"] = "suspect"
    name: str
    details: str


class Wager(Action):
    type: Literal["wager"] = "wager"
    side: Side
    points: int


class Roll(Action):
    """The lead rolls. Virtual dice: no faces (the device rolls). Physical dice: every face."""

    type: Literal["roll"] = "roll"
    faces: list[int] | None = None


class Count(Action):
    """Physical dice only: the lead rolled and reports just how many show an even face."""

    type: Literal["count"] = "count"
    evens: int


class Accuse(Action):
    type: Literal["accuse"] = "accuse"
    suspect: Side


class Vote(Action):
    type: Literal["vote"] = "vote"
    suspect: Side


EvenOddAction = Annotated[
    Union[Introduce, CrimeScene, PresentSuspect, Wager, Roll, Count, Accuse, Vote], PField(discriminator="type")
]


# --------------------------------------------------------------------------
# State.
# --------------------------------------------------------------------------

Phase = Literal["characters", "crime_scene", "even_suspect", "odd_suspect", "wagers", "roll", "final", "vote",
                "epilogue", "over"]


class Character(BaseModel):
    name: str
    description: str


class Suspect(BaseModel):
    name: str
    details: str


class Stake(BaseModel):
    side: Side
    points: int


class SceneRecord(BaseModel):
    """One finished investigation scene, as everyone saw it."""

    number: int
    lead: str
    wagers: dict[str, Stake]
    faces: list[int] | None
    evens: int
    odds: int
    points_to: Side | None
    to_paper: int
    to_epilogue: int
    returned: int


class EvenOddState(BaseModel):
    setup: EvenOddSetup
    players: list[str]
    phase: Phase = "characters"
    lead: int
    """Index into ``players`` of the current Lead Investigator."""
    scene: int = 0
    """Number of the current investigation scene (0 during the opening)."""
    characters: dict[str, Character] = {}
    victim: str | None = None
    case: str | None = None
    suspects: dict[str, Suspect] = {}
    pools: dict[str, int]
    wagers: dict[str, Stake] = {}
    """This scene's locked wagers. Secret while ``phase == "wagers"``."""
    papers: dict[str, int] = {"even": 0, "odd": 0}
    epilogue_pool: int = 0
    history: list[SceneRecord] = []
    accused: Side | None = None
    votes: dict[str, Side] = {}
    """Accusation votes (tie option ``vote``). Secret while ``phase == "vote"``."""
    epilogue_faces: list[int] | None = None
    epilogue_counts: dict[str, int] | None = None
    justice: bool | None = None

    @property
    def lead_name(self) -> str:
        return self.players[self.lead]

    def who(self, player: str) -> str:
        """A player's name with their investigator, for the recap."""
        c = self.characters.get(player)
        return f"{player} ({c.name})" if c else player

    def suspect_name(self, side: str) -> str:
        s = self.suspects.get(side)
        return f"{s.name} ({SUSPECT_TITLE[side]})" if s else SUSPECT_TITLE[side]


# --------------------------------------------------------------------------
# The engine.
# --------------------------------------------------------------------------


class EvenOdd(Engine):
    game = "even-odd"
    title = "The Even/Odd case game"
    setup_model = EvenOddSetup
    actions = TypeAdapter(EvenOddAction)

    # -- starting ----------------------------------------------------------

    def start(self, setup: EvenOddSetup, rng: random.Random) -> EvenOddState:
        players = list(setup.players)
        share = TOTAL_POINTS // len(players)
        first = players.index(setup.first_lead) if setup.first_lead else 0
        return EvenOddState(setup=setup, players=players, lead=first, pools={p: share for p in players})

    def players(self, state: EvenOddState) -> list[str]:
        return state.players

    # -- what the game waits for -----------------------------------------------

    def awaiting(self, state: EvenOddState) -> list[Prompt]:
        phase, lead = state.phase, state.lead_name

        def text(name: str, label: str) -> Field:
            return Field(name, "text", label=label, max=TEXT_MAX)

        if phase == "characters":
            return [
                Prompt(p, "introduce", f"{p}, introduce your investigator: a name and a few words about them",
                       [text("name", "Investigator's name"), text("description", "Who they are")])
                for p in state.players if p not in state.characters
            ]
        if phase == "crime_scene":
            return [Prompt(lead, "crime_scene", f"{lead}, set the crime scene: who was the victim, and what is the "
                           "case called?", [text("victim", "Victim"), text("case", "Name of the case")])]
        if phase in ("even_suspect", "odd_suspect"):
            side = phase.split("_")[0]
            return [Prompt(lead, "suspect", f"{lead}, present {SUSPECT_TITLE[side]}: a first name and how they are "
                           "mixed up in the killing", [text("name", "First name"), text("details", "Details")])]
        if phase == "wagers":
            return [self._wager_prompt(state, p) for p in state.players
                    if p not in state.wagers and state.pools[p] > 0]
        if phase == "roll":
            return self._roll_prompts(state, lead, sum(w.points for w in state.wagers.values()), "the staked dice")
        if phase == "final":
            choices = self._accusable(state)
            named = " or ".join(state.suspect_name(s) for s in choices)
            return [Prompt(lead, "accuse", f"{lead}, present the Final Scene and accuse {named}",
                           [Field("suspect", "choice", choices=choices, rule=RULE_ACCUSE_MOST)])]
        if phase == "vote":
            return [Prompt(p, "vote", f"{p}, secretly name the suspect you would accuse",
                           [Field("suspect", "choice", choices=list(SIDES), rule="vote for one of the two suspects")],
                           secret=True)
                    for p in state.players if p not in state.votes]
        if phase == "epilogue":
            return self._roll_prompts(state, lead, state.epilogue_pool, "the Epilogue Pool")
        return []

    def _wager_prompt(self, state: EvenOddState, player: str) -> Prompt:
        pool = state.pools[player]
        leading = player == state.lead_name
        low, rule = (1, f"{RULE_LEAD_MINIMUM}, and {RULE_POOL}") if leading else (0, RULE_POOL)
        extra = " You lead this scene, so stake at least one." if leading else ""
        return Prompt(
            player, "wager", f"{player}, secretly stake points from your pool on Even or Odd.{extra}",
            [Field("side", "choice", label="Even or Odd", choices=list(SIDES), rule="a wager backs Even or Odd"),
             Field("points", "int", label="Points", min=low, max=pool, rule=f"{rule} ({low} to {pool})")],
            secret=True,
        )

    def _roll_prompts(self, state: EvenOddState, lead: str, count: int, what: str) -> list[Prompt]:
        if state.setup.dice == "virtual":
            return [Prompt(lead, "roll", f"{lead}, roll {what} ({dice_count(count)})")]
        real = plural(count, "real die", "real dice")
        return [
            Prompt(lead, "roll", f"{lead}, roll {what} ({real}) and enter every face",
                   [Field("faces", "list", label="Faces", choices=[1, 2, 3, 4, 5, 6], min=count, max=count,
                          rule=f"{RULE_DICE_COUNT}: enter {count} faces from 1 to 6")]),
            Prompt(lead, "count", f"{lead}, roll {what} ({real}) and enter how many show an even face",
                   [Field("evens", "int", label="Even faces", min=0, max=count,
                          rule=f"{RULE_DICE_COUNT}: 0 to {count} even faces")]),
        ]

    @staticmethod
    def _accusable(state: EvenOddState) -> list[str]:
        even, odd = state.papers["even"], state.papers["odd"]
        if even == odd:
            return list(SIDES)
        return ["even" if even > odd else "odd"]

    # -- applying actions -------------------------------------------------------

    def apply(self, state: EvenOddState, action: Action, rng: random.Random) -> list[Event]:
        handler: Callable[[EvenOddState, Any, random.Random], list[Event]] = getattr(self, f"_do_{action.type}")
        return handler(state, action, rng)

    def _do_introduce(self, state: EvenOddState, a: Introduce, rng: random.Random) -> list[Event]:
        self._expect(state, "characters", "introduce an investigator")
        if a.player not in state.pools:
            raise RuleError("only seated players take part", f"{a.player!r} is not playing")
        if a.player in state.characters:
            raise RuleError("one investigator per player",
                            f"{a.player} has already introduced {state.characters[a.player].name}")
        state.characters[a.player] = Character(name=a.name.strip(), description=a.description.strip())
        events = [Event(f"{a.player} plays {a.name.strip()}: {a.description.strip()}", "character")]
        if len(state.characters) == len(state.players):
            share = TOTAL_POINTS // len(state.players)
            state.phase = "crime_scene"
            events.append(Event(f"Each investigator takes {share} Investigation Points into their pool. "
                                 f"{state.lead_name} leads the crime scene.", "setup"))
        return events

    def _do_crime_scene(self, state: EvenOddState, a: CrimeScene, rng: random.Random) -> list[Event]:
        self._expect(state, "crime_scene", "set the crime scene")
        self._expect_lead(state, a)
        state.victim, state.case = a.victim.strip(), a.case.strip()
        events = [Event(f"The case of {state.case}: {state.victim} is dead. {a.player} sets the scene.", "crime")]
        return events + self._pass_lead(state, "even_suspect")

    def _do_suspect(self, state: EvenOddState, a: PresentSuspect, rng: random.Random) -> list[Event]:
        if state.phase not in ("even_suspect", "odd_suspect"):
            raise RuleError("what happens next", "no suspect is being presented now")
        self._expect_lead(state, a)
        side = state.phase.split("_")[0]
        state.suspects[side] = Suspect(name=a.name.strip(), details=a.details.strip())
        events = [Event(f"{a.player} presents {state.suspect_name(side)}: {a.details.strip()}", "suspect")]
        return events + self._pass_lead(state, "odd_suspect" if side == "even" else "wagers")

    def _do_wager(self, state: EvenOddState, a: Wager, rng: random.Random) -> list[Event]:
        self._expect(state, "wagers", "wager")
        if a.player not in state.pools:
            raise RuleError("only seated players take part", f"{a.player!r} is not playing")
        if a.player in state.wagers:
            raise RuleError(RULE_ONE_WAGER, f"{a.player} has already locked a wager this scene")
        pool = state.pools[a.player]
        if a.points > pool:
            raise RuleError(RULE_POOL, f"{a.player} has {plural(pool, 'point')} in their pool and cannot stake {a.points}")
        if a.points < 0:
            raise RuleError(RULE_POOL, "a wager cannot be negative")
        if a.player == state.lead_name and a.points < 1:
            raise RuleError(RULE_LEAD_MINIMUM, f"{a.player} leads this scene and must stake at least 1 point")
        state.pools[a.player] -= a.points
        state.wagers[a.player] = Stake(side=a.side, points=a.points)
        events = [
            Event(f"{a.player} has locked a wager.", "locked"),
            Event(f"You staked {a.points} on {a.side.capitalize()}.", "wager", to=[a.player]),
        ]
        if all(p in state.wagers or state.pools[p] == 0 for p in state.players):
            events += self._reveal_wagers(state)
        return events

    def _reveal_wagers(self, state: EvenOddState) -> list[Event]:
        state.phase = "roll"
        parts = [f"{p} {w.points} on {w.side.capitalize()}" if w.points else f"{p} nothing"
                 for p, w in state.wagers.items()]
        total = sum(w.points for w in state.wagers.values())
        faces = {p: f"{w.points} on {w.side.capitalize()}" if w.points else "nothing"
                 for p, w in state.wagers.items()}
        to_roll = f"{dice_count(total)} to roll."
        return [Event(f"Wagers revealed: {', '.join(parts)}. {to_roll}", "reveal",
                      data={"faces": faces, "summary": to_roll})]

    def _read_dice(self, state: EvenOddState, a: Roll | Count, count: int,
                   rng: random.Random) -> tuple[list[int] | None, int]:
        """Check the roll and return (faces if known, number of even faces). Draws from rng only when virtual."""
        if state.setup.dice == "virtual":
            if isinstance(a, Count) or a.faces is not None:
                raise RuleError(RULE_DICE_MODE, "this game uses virtual dice: the device rolls, enter no faces")
            faces = [rng.randint(1, 6) for _ in range(count)]
            return faces, sum(1 for f in faces if f % 2 == 0)
        if isinstance(a, Count):
            if not 0 <= a.evens <= count:
                raise RuleError(RULE_DICE_COUNT, f"between 0 and {count} of the {count} dice can be even")
            return None, a.evens
        if a.faces is None:
            raise RuleError(RULE_DICE_MODE, "with real dice, enter every face (or use count for the even faces)")
        if len(a.faces) != count or any(f not in range(1, 7) for f in a.faces):
            raise RuleError(RULE_DICE_COUNT, f"enter exactly {count} faces, each from 1 to 6")
        return list(a.faces), sum(1 for f in a.faces if f % 2 == 0)

    def _do_count(self, state: EvenOddState, a: Count, rng: random.Random) -> list[Event]:
        return self._do_roll(state, a, rng)

    def _do_roll(self, state: EvenOddState, a: Roll | Count, rng: random.Random) -> list[Event]:
        if state.phase == "epilogue":
            return self._epilogue_roll(state, a, rng)
        self._expect(state, "roll", "roll")
        self._expect_lead(state, a)
        count = sum(w.points for w in state.wagers.values())
        faces, evens = self._read_dice(state, a, count, rng)
        odds = count - evens
        winner: Side | None = None if evens == odds else ("even" if evens > odds else "odd")
        staked = {side: sum(w.points for w in state.wagers.values() if w.side == side) for side in SIDES}
        to_paper = to_epilogue = returned = 0
        if winner is None:
            if state.setup.tie_dice == "return":
                returned = count
                for p, w in state.wagers.items():
                    state.pools[p] += w.points
            else:
                to_epilogue = count
        elif state.setup.voted_dice == "wagered":
            to_paper, to_epilogue = staked[winner], staked[other(winner)]
        else:  # "faces": the dice showing the winning parity
            to_paper = evens if winner == "even" else odds
            to_epilogue = count - to_paper
        if winner:
            state.papers[winner] += to_paper
        state.epilogue_pool += to_epilogue
        record = SceneRecord(number=state.scene, lead=state.lead_name, wagers=dict(state.wagers), faces=faces,
                             evens=evens, odds=odds, points_to=winner, to_paper=to_paper,
                             to_epilogue=to_epilogue, returned=returned)
        state.history.append(record)
        state.wagers = {}
        shown = f" ({' '.join(map(str, faces))})" if faces else ""
        head = f"{a.player} rolls {dice_count(count)}{shown}: {evens} even, {odds} odd."
        if winner:
            tail = (f" The evidence points to {state.suspect_name(winner)}: {to_paper} to their paper, "
                    f"{to_epilogue} to the Epilogue Pool.")
        elif returned:
            tail = " Inconclusive: the staked dice go back to their owners."
        else:
            tail = (" Inconclusive: the die goes to the Epilogue Pool." if count == 1
                    else f" Inconclusive: all {count} dice go to the Epilogue Pool.")
        events = [Event(head + tail, "roll", data=record.model_dump())]
        return events + self._pass_lead(state, "wagers")

    def _do_accuse(self, state: EvenOddState, a: Accuse, rng: random.Random) -> list[Event]:
        self._expect(state, "final", "accuse")
        self._expect_lead(state, a)
        if a.suspect not in self._accusable(state):
            raise RuleError(RULE_ACCUSE_MOST, f"{state.suspect_name(other(a.suspect))} has more points on their paper")
        tied = len(self._accusable(state)) == 2
        how = f"{a.player} breaks the tie and accuses" if tied else f"{a.player} accuses"
        return self._set_accused(state, a.suspect, how)

    def _do_vote(self, state: EvenOddState, a: Vote, rng: random.Random) -> list[Event]:
        self._expect(state, "vote", "vote")
        if a.player not in state.pools:
            raise RuleError("only seated players take part", f"{a.player!r} is not playing")
        if a.player in state.votes:
            raise RuleError("one secret vote each", f"{a.player} has already voted")
        state.votes[a.player] = a.suspect
        events = [Event(f"{a.player} has locked a vote.", "locked"),
                  Event(f"You voted to accuse {state.suspect_name(a.suspect)}.", "vote", to=[a.player])]
        if len(state.votes) < len(state.players):
            return events
        tally = {side: sum(1 for v in state.votes.values() if v == side) for side in SIDES}
        shown = ", ".join(f"{p} {v.capitalize()}" for p, v in state.votes.items())
        faces = {p: state.suspect_name(v) for p, v in state.votes.items()}
        events.append(Event(f"Votes revealed: {shown}.", "reveal", data={"faces": faces}))
        choice: Side
        if tally["even"] != tally["odd"]:
            choice, how = ("even" if tally["even"] > tally["odd"] else "odd"), "The table accuses"
        else:
            lead_vote: Side = "even" if state.votes[state.lead_name] == "even" else "odd"
            choice, how = lead_vote, f"The votes are level; {possessive(state.lead_name)} vote decides:"
        return events + self._set_accused(state, choice, how)

    def _epilogue_roll(self, state: EvenOddState, a: Roll | Count, rng: random.Random) -> list[Event]:
        self._expect_lead(state, a)
        count = state.epilogue_pool
        faces, evens = self._read_dice(state, a, count, rng)
        odds = count - evens
        state.epilogue_pool = 0
        state.papers["even"] += evens
        state.papers["odd"] += odds
        state.epilogue_faces = faces
        state.epilogue_counts = {"even": evens, "odd": odds}
        shown = f" ({' '.join(map(str, faces))})" if faces else ""
        event = Event(f"{a.player} rolls the Epilogue Pool, {dice_count(count)}{shown}: {evens} to "
                      f"{state.suspect_name('even')}, {odds} to {state.suspect_name('odd')}.", "epilogue")
        return [event] + self._verdict(state)

    # -- moving the story along ---------------------------------------------------

    def _pass_lead(self, state: EvenOddState, next_phase: Phase) -> list[Event]:
        """Hand the lead clockwise and open the next scene."""
        state.lead = (state.lead + 1) % len(state.players)
        lead = state.lead_name
        if next_phase != "wagers":
            state.phase = next_phase
            side = next_phase.split("_")[0]
            return [Event(f"The lead passes to {lead}, who presents {SUSPECT_TITLE[side]}.", "lead")]
        if state.pools[lead] > 0:
            state.phase = "wagers"
            state.scene += 1
            return [Event(f"Investigation scene {state.scene}: {state.who(lead)} leads.", "scene")]
        return self._final_scene(state)

    def _final_scene(self, state: EvenOddState) -> list[Event]:
        leftovers = sum(state.pools.values())
        for p in state.players:
            state.pools[p] = 0
        state.epilogue_pool += leftovers
        lead = state.lead_name
        even, odd = state.papers["even"], state.papers["odd"]
        events = [Event(f"{state.who(lead)} has no points left to stake: the Final Scene. "
                        f"{leftovers} leftover point{'s' if leftovers != 1 else ''} join the Epilogue Pool. "
                        f"Papers: Even {even}, Odd {odd}.", "final")]
        if even == odd and state.setup.accusation_tie == "vote":
            state.phase = "vote"
            events.append(Event("The papers are level: every investigator votes in secret on whom to accuse.", "tie"))
        else:
            state.phase = "final"
            if even == odd:
                events.append(Event(f"The papers are level: {lead} chooses whom to accuse.", "tie"))
        return events

    def _set_accused(self, state: EvenOddState, side: Side, how: str) -> list[Event]:
        state.accused = side
        events = [Event(f"{how} {state.suspect_name(side)} of the murder"
                        f"{' of ' + state.victim if state.victim else ''}.", "accusation")]
        if state.epilogue_pool > 0:
            state.phase = "epilogue"
            events.append(Event(f"Epilogue: {state.lead_name} will roll the {dice_count(state.epilogue_pool)} of the "
                                "Epilogue Pool.", "epilogue"))
            return events
        return events + self._verdict(state)

    def _verdict(self, state: EvenOddState) -> list[Event]:
        accused = state.accused
        if accused is None:
            raise RuleError("the verdict", "nobody has been accused yet")
        mine, theirs = state.papers[accused], state.papers[other(accused)]
        state.justice = mine > theirs or (mine == theirs and state.setup.epilogue_tie == "justice")
        state.phase = "over"
        return [Event(f"Final papers: Even {state.papers['even']}, Odd {state.papers['odd']}. "
                      f"{self.outcome(state)}", "verdict")]

    # -- checks ------------------------------------------------------------------------

    @staticmethod
    def _expect(state: EvenOddState, phase: str, doing: str) -> None:
        if state.phase != phase:
            raise RuleError("what happens next", f"cannot {doing} now (the game is at: {state.phase})")

    @staticmethod
    def _expect_lead(state: EvenOddState, a: Action) -> None:
        if a.player != state.lead_name:
            raise RuleError("the Lead Investigator runs the scene", f"only {state.lead_name}, the lead, may do this")

    # -- what people see ------------------------------------------------------------------

    def view(self, state: EvenOddState, viewer: str | None) -> dict[str, Any]:
        hiding = state.phase == "wagers"
        pools = dict(state.pools)
        if hiding:  # staked dice stay in the hand: show pools as they were before the wagers
            for p, w in state.wagers.items():
                pools[p] += w.points
        data: dict[str, Any] = {
            "game": self.game,
            "phase": state.phase,
            "scene": state.scene,
            "lead": state.lead_name,
            "players": list(state.players),
            "characters": {p: c.model_dump() for p, c in state.characters.items()},
            "victim": state.victim,
            "case": state.case,
            "suspects": {s: v.model_dump() for s, v in state.suspects.items()},
            "pools": pools,
            "locked": sorted(state.wagers) if hiding else [],
            "wagers": {} if hiding else {p: w.model_dump() for p, w in state.wagers.items()},
            "papers": dict(state.papers),
            "epilogue_pool": state.epilogue_pool,
            "history": [r.model_dump() for r in state.history],
            "accused": state.accused,
            "voted": sorted(state.votes) if state.phase == "vote" else [],
            "votes": {} if state.phase == "vote" else dict(state.votes),
            "epilogue_roll": state.epilogue_counts and {"faces": state.epilogue_faces, **state.epilogue_counts},
            "justice": state.justice,
            "options": state.setup.model_dump(exclude={"seed", "players", "first_lead"}),
        }
        if viewer is not None and viewer in state.pools:
            if hiding and viewer in state.wagers:
                data["my_wager"] = state.wagers[viewer].model_dump()
            if state.phase == "vote" and viewer in state.votes:
                data["my_vote"] = state.votes[viewer]
        return data

    def outcome(self, state: EvenOddState) -> str | None:
        if state.phase != "over" or state.accused is None:
            return None
        accused = state.suspect_name(state.accused)
        if state.justice:
            return f"Justice is served: {accused} was the killer."
        return f"An innocent was convicted: {accused} did not do it."


ENGINE = EvenOdd()
