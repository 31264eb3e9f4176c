"""The setup a table chooses and the state of a game in progress."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..core import RuleError, Setup
from .charts import HEAT_START, RIP


class HellForLeatherSetup(Setup):
    """What the table decides before the first scene."""

    players: list[str] = Field(
        default=["Daniel", "Roger", "Eoin", "Jason"], min_length=2, max_length=6,
        description="Everyone at the table, in seating order (clockwise).",
    )
    mode: Literal["team", "coop"] = Field(
        default="team", description="Two teams against each other, or co-op (2-3 players, one team).")
    team_a: list[str] = Field(
        default=[], description="Team A's players in seating order. Empty: the first half of the table "
        "(or the Exams decide). Everyone else is Team B.")
    team_names: list[str] = Field(default=["Team A", "Team B"], min_length=2, max_length=2,
                                  description="What the two teams call themselves.")
    goal_target: int = Field(default=3, ge=1, le=9, description="Goals each team needs; about an hour each.")
    objective: str = Field(default="The Objective", min_length=1, max_length=80,
                           description="Where the Finale happens.")
    sources: list[str] = Field(default=["Team A's Source", "Team B's Source"], min_length=2, max_length=2,
                               description="Where each team's story starts.")
    fluency: Literal[1, 2, 3] = Field(
        default=3, description="How to Play level: 1 the Conflict Target only, 2 adds Heat, Curses, "
        "Felonies and Drive, 3 adds Victory Points, Help, Dilemmas, Goals and the Finale.")
    practice_conflicts: int = Field(
        default=12, ge=1, le=200, description="Levels 1 and 2 have no Objective: the session ends after "
        "this many conflicts.")
    exams: bool = Field(default=False, description="Appendix B: a throwing exam ranks the players and "
                        "splits the teams (4-6 players).")
    dying: bool = Field(default=False, description="Appendix A: nobody dies before the Finale; a death "
                        "gives the other team a free Goal and the contestant returns at Shotgun.")
    coop_finale: Literal["gauntlet", "showdown"] = Field(
        default="gauntlet", description="Co-op at the Objective: Storm the Gauntlet together, or turn on "
        "each other with the Finale rules.")
    wipeout: Literal["gauntlet", "win"] = Field(
        default="gauntlet", description="When a whole team dies before the Objective: the survivors Storm "
        "the Gauntlet, or simply win.")
    felony_track: int = Field(default=6, ge=1, le=12,
                              description="How many stars a contestant's Felony track holds.")
    knock_felony: int = Field(default=1, ge=1, le=3,
                              description="Stars for knocking the table a second time.")
    felony_dice: Literal["count", "drive"] = Field(
        default="count", description="How a Felony helps the conflict: its grading dice count like any other "
        "die (count), or they only grade the crime and the Felony lifts the Drive by its stars (drive).")

    @model_validator(mode="after")
    def _check(self) -> "HellForLeatherSetup":
        names = [p.strip() for p in self.players]
        if any(not n for n in names):
            raise ValueError("every player needs a name")
        if len(set(names)) != len(names):
            raise ValueError("two players have the same name")
        self.players = names
        if self.mode == "coop":
            if not 2 <= len(names) <= 3:
                raise ValueError("co-op play is for 2 or 3 players")
            if self.team_a or self.exams:
                raise ValueError("co-op has one team: leave team_a empty and the Exams off")
            if self.dying:
                raise ValueError("the Dying option gives a Goal to the other team, so it needs two teams")
        else:
            unknown = [p for p in self.team_a if p not in names]
            if unknown:
                raise ValueError(f"team_a names players who are not at the table: {unknown}")
            if self.exams and self.team_a:
                raise ValueError("with the Exams the ranking picks the teams: leave team_a empty")
            if self.exams and not 4 <= len(names) <= 6:
                raise ValueError("the Exams split 4 to 6 players into teams")
            if self.team_a and len(self.team_a) == len(names):
                raise ValueError("Team B needs at least one player")
        if self.dying and self.fluency < 3:
            raise ValueError("the Dying option trades deaths for Goals, which start at fluency level 3")
        return self


class State(BaseModel):
    model_config = ConfigDict(validate_assignment=False)


class Contestant(State):
    player: str
    team: int = 0
    name: str = ""
    vocation: str = ""
    hometown: str = ""
    hobbies: list[str] = []
    why: str = ""
    instinct: str = ""
    drive: int = 0
    """Position on the Drive track: 0 Drive 1 ... 4 R.I.P."""
    extra_circle: bool = False
    """Exams: Contestant 1's spare circle takes the first Trauma."""
    felony: int = 0
    skills: list[str] = []
    skills_blocked: bool = False
    knocks: int = 0

    @property
    def alive(self) -> bool:
        return self.drive < RIP


class Team(State):
    name: str
    members: list[str]
    source: str = ""
    heat: int = HEAT_START
    vp: int = 0
    goals: list[str] = []
    goals_done: int = 0
    hunter_marks: int = 0
    """Marks still to cross off; 0 means no Hunters."""
    hunter_crossed: int = 0
    cup: int = 0
    """Index into members of who holds this team's Narrator Cup."""


class Landing(State):
    thrower: str
    zone: str
    face: int
    kind: str
    """drive, help, risk or felony."""
    result: int = 0


class Conflict(State):
    narrator: str
    team: int
    position: int
    """The narrator's Drive position for this conflict (after Dilemma or Finale levels)."""
    plan: list[str] = []
    """Who throws the Drive and Help dice, in order."""
    kinds: list[str] = []
    helpers: list[str] = []
    skill: str | None = None
    dilemma: bool = False
    landings: list[Landing] = []
    risks: int = 0
    felony_grade: int = 0
    felony_open: bool = False
    felony_room: int = 0
    """Stars still free on the narrator's track when the Risk escalated."""
    mode: Literal["play", "finale", "gauntlet"] = "play"


class Pending(State):
    """A Curse waiting for its Traumas to be handed out."""

    responsible: str
    team: int
    effects: list[str]
    score: int
    hunted: bool


class FinaleSide(State):
    members: list[str]
    heat: int
    vp: int = 0
    cup: int = 0
    bonus: int = 0
    """Extra Drive levels for the smaller side of an uneven game."""


class Finale(State):
    sides: list[FinaleSide]
    leader: int = 0
    """The side that starts the next round."""
    rewards_left: int = 0
    entrances: list[str] = []
    round: int = 0
    turn: int = 0
    active: int = 0
    narrator: str = ""
    target: str = ""
    attacked: str = ""
    winner: int | None = None


class Gauntlet(State):
    team: int
    goals: list[str | None]
    goals_done: int = 0


class GameState(State):
    setup_mode: str
    fluency: int
    goal_target: int
    objective: str
    phase: str
    contestants: dict[str, Contestant]
    seats: list[str]
    teams: list[Team]
    active: int = 0
    exam_scores: dict[str, int] = {}
    exam_groups: list[list[str]] = []
    tiebreak: dict[str, int] = {}
    exam_ranking: list[str] = []
    goal_queue: list[list[int]] = []
    """Goals still to write: [writing team, team it is for, slot]."""
    dilemma: str = ""
    """'' none; 'offered' (team play) or 'asked' (co-op); 'done' once settled this turn."""
    dilemma_accepted: bool = False
    conflict: Conflict | None = None
    pending: Pending | None = None
    goal_window: str = ""
    """The narrator who may buy a Goal now."""
    conflicts_played: int = 0
    finale: Finale | None = None
    gauntlet: Gauntlet | None = None
    epilogue: list[str] = []
    winner: str = ""
    """Who the Epilogue celebrates, once the game is won."""
    over: str | None = None
    cue: str = ""
    """The narration prompt of the moment."""
    last_result: str = ""
    # Options copied from the setup, so the rules never need the setup again.
    dying: bool = False
    wipeout: str = "gauntlet"
    coop_finale: str = "gauntlet"
    felony_track: int = 6
    knock_felony: int = 1
    felony_dice: str = "count"
    practice_conflicts: int = 12
    smaller_team: int | None = None
    """The team that started with fewer players (Finale bonus), if any."""

    # The engine reaches these only in a phase that has one; they say so if that ever breaks.
    def live_conflict(self) -> Conflict:
        """The conflict being played."""
        if self.conflict is None:
            raise RuleError("conflicts", "no conflict is being played now")
        return self.conflict

    def live_finale(self) -> Finale:
        """The Finale being played."""
        if self.finale is None:
            raise RuleError("the Finale", "the Finale has not begun")
        return self.finale

    def live_pending(self) -> Pending:
        """The Curse or Felony waiting to be settled."""
        if self.pending is None:
            raise RuleError("what happens next", "nothing is waiting to be settled")
        return self.pending
