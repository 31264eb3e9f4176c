"""Every move in Hell for Leather, as a typed action that serialises to one JSON line.

Dice thrown at the Conflict Target arrive one at a time as ``Land`` (the tray
or the touchscreen says where each die rested and what it shows). The Heat's
dice arrive as ``HeatFall`` (the faces of the fallen dice). Everything else is
a choice somebody at the table makes.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field as PField, TypeAdapter

from ..core import Action

Zone = Literal["inside", "touching", "outside"]


# -- before the first scene ---------------------------------------------------

class Exam(Action):
    """Appendix B: how many of ten d10 came to rest inside the Target."""
    type: Literal["exam"] = "exam"
    points: int


class SuddenDeath(Action):
    """A tie-break die in the Exams."""
    type: Literal["sudden_death"] = "sudden_death"
    zone: Zone
    face: int


class CreateContestant(Action):
    type: Literal["contestant"] = "contestant"
    name: str
    vocation: str
    hometown: str
    hobby1: str
    hobby2: str
    why: str
    instinct: Literal["Coward", "Traitor", "Wretch"]


class WriteGoal(Action):
    type: Literal["write_goal"] = "write_goal"
    goal: str


class RollGoal(Action):
    """Draw the Goal from the random Goal chart instead of writing one."""
    type: Literal["roll_goal"] = "roll_goal"


# -- a turn -----------------------------------------------------------------------

class OfferDilemma(Action):
    """Team play: the Adversary pays 1 VP to force a Dilemma."""
    type: Literal["offer_dilemma"] = "offer_dilemma"


class AnswerDilemma(Action):
    type: Literal["answer_dilemma"] = "answer_dilemma"
    answer: Literal["accept", "refuse"]


class AskDilemma(Action):
    """Co-op: the Narrator gambles on a Dilemma."""
    type: Literal["ask_dilemma"] = "ask_dilemma"


class GrantDilemma(Action):
    type: Literal["grant_dilemma"] = "grant_dilemma"
    answer: Literal["grant", "decline"]


class CallConflict(Action):
    type: Literal["call_conflict"] = "call_conflict"


class DeclareSkill(Action):
    type: Literal["declare_skill"] = "declare_skill"
    skill: str


class CallForHelp(Action):
    type: Literal["call_help"] = "call_help"
    allies: list[str]


class Land(Action):
    """One d10 came to rest. ``caught``: the other face of a die leaning on the Heat."""
    type: Literal["land"] = "land"
    zone: Zone
    face: int
    caught: int | None = None


class Correct(Action):
    """A die already read was knocked by a later one: read it again (before the count)."""
    type: Literal["correct"] = "correct"
    die: int
    zone: Zone
    face: int


class Risk(Action):
    """Add a die to the Heat for one more d10."""
    type: Literal["risk"] = "risk"


class Count(Action):
    """All dice are thrown (and the five-count is over): count the result."""
    type: Literal["count"] = "count"


class FailRoll(Action):
    """Drive 0 with no dice: a d10 rolled off the Target sets the Curse."""
    type: Literal["fail_roll"] = "fail_roll"
    face: int


class HeatFall(Action):
    """The Heat came down. ``faces``: what the fallen dice show; the rest still stand."""
    type: Literal["heat_fall"] = "heat_fall"
    faces: list[int]
    thrower: str
    cause: Literal["throw", "adding", "taking_off"] = "throw"


class TableKnock(Action):
    """Someone knocked the table and the Heat was rebuilt."""
    type: Literal["table_knock"] = "table_knock"
    who: str


class AssignTraumas(Action):
    """A Curse over 12 gave extra Traumas: who takes each one."""
    type: Literal["assign_traumas"] = "assign_traumas"
    to: list[str]


class BuyGoal(Action):
    """Spend 5 VP after a Merit or Boon; ``bonus`` is 'heat', 'heal:PLAYER' or 'none' (keep the VP)."""
    type: Literal["buy_goal"] = "buy_goal"
    bonus: str


# -- the Finale ---------------------------------------------------------------------

class Reward(Action):
    """'heat', 'vp', 'heal:PLAYER' or 'trauma:PLAYER'."""
    type: Literal["reward"] = "reward"
    use: str


class Entrance(Action):
    type: Literal["entrance"] = "entrance"


class TakeCup(Action):
    type: Literal["take_cup"] = "take_cup"
    target: str


class Intent(Action):
    type: Literal["intent"] = "intent"
    choice: Literal["defend", "ditch"]


class Epilogue(Action):
    type: Literal["epilogue"] = "epilogue"


AnyAction = Annotated[
    Union[
        Exam, SuddenDeath, CreateContestant, WriteGoal, RollGoal, OfferDilemma, AnswerDilemma, AskDilemma,
        GrantDilemma, CallConflict, DeclareSkill, CallForHelp, Land, Correct, Risk, Count, FailRoll, HeatFall,
        TableKnock, AssignTraumas, BuyGoal, Reward, Entrance, TakeCup, Intent, Epilogue,
    ],
    PField(discriminator="type"),
]
ACTIONS = TypeAdapter(AnyAction)
