"""Every move in Promise Hollows, as a typed action.

Grouped the way the game runs: building the town, confessing, playing a
scene, card challenges, revelations, Face-Offs.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field as PField, TypeAdapter

from kiosk.rules.core import Action

# -- town-building -------------------------------------------------------------


class NameSystem(Action):
    type: Literal["name_system"] = "name_system"
    name: str


class RollForNames(Action):
    type: Literal["roll_for_names"] = "roll_for_names"
    roll: int


class AddName(Action):
    type: Literal["add_name"] = "add_name"
    system: str
    name: str


class AddDetail(Action):
    """The "And Did You Know" option: a detail about a name instead of a new name."""

    type: Literal["add_detail"] = "add_detail"
    name: str
    detail: str


class WritePersona(Action):
    type: Literal["write_persona"] = "write_persona"
    name: str | None = None
    """The name taken from a System card (the Investigator is always Mr. Gray)."""
    occupation: str
    cheer: str
    helps: str
    special: str
    pride: str
    friend: str


class RollForCrime(Action):
    """The private 2d6: a total of 7 turns the Guilt into a Crime."""

    type: Literal["roll_for_crime"] = "roll_for_crime"
    dice: list[int]


class WritePrivateSelf(Action):
    type: Literal["write_private_self"] = "write_private_self"
    hurt: str
    hurt_object: str
    need: str
    need_object: str
    want: str
    want_object: str
    guilt: str
    enemy: str


class RollColor(Action):
    type: Literal["roll_color"] = "roll_color"
    dice: list[int]


# -- confessions ----------------------------------------------------------------


class Confess(Action):
    type: Literal["confess"] = "confess"
    text: str


class ChooseCase(Action):
    type: Literal["choose_case"] = "choose_case"
    card: str


# -- scenes ---------------------------------------------------------------------


class OpenScene(Action):
    type: Literal["open_scene"] = "open_scene"


class SkipScene(Action):
    type: Literal["skip_scene"] = "skip_scene"


class Ante(Action):
    type: Literal["ante"] = "ante"
    how: Literal["character", "setting"] = "character"


class StayOut(Action):
    type: Literal["stay_out"] = "stay_out"


class Call(Action):
    type: Literal["call"] = "call"


class Raise(Action):
    type: Literal["raise"] = "raise"
    amount: int
    """Color added on top of what it costs to call."""
    trait: str = "none"
    """The public-persona trait the narration draws on, or "none"."""


class Monologue(Action):
    type: Literal["monologue"] = "monologue"
    target: str
    amount: int
    trait: str = "none"


class Pass(Action):
    type: Literal["pass"] = "pass"


class BuyColor(Action):
    type: Literal["buy_color"] = "buy_color"


# -- challenges -------------------------------------------------------------------


class Challenge(Action):
    type: Literal["challenge"] = "challenge"
    target: str


class JoinAsThirdMan(Action):
    type: Literal["join_as_third_man"] = "join_as_third_man"


class LockCard(Action):
    type: Literal["lock_card"] = "lock_card"
    card: str


class TellThirdMan(Action):
    """What a challenger says they played. It may be a lie; the device never judges."""

    type: Literal["tell_third_man"] = "tell_third_man"
    card: str


# -- revelation -------------------------------------------------------------------


class BuyRevelation(Action):
    type: Literal["buy_revelation"] = "buy_revelation"
    target: str


class SkipRevelation(Action):
    type: Literal["skip_revelation"] = "skip_revelation"


class RevealPart(Action):
    type: Literal["reveal_part"] = "reveal_part"
    part: str


# -- face-off ---------------------------------------------------------------------


class DeclareFaceOff(Action):
    type: Literal["declare_face_off"] = "declare_face_off"
    suspect: str


class DeclineFaceOff(Action):
    type: Literal["decline_face_off"] = "decline_face_off"


class JoinAccusers(Action):
    type: Literal["join_accusers"] = "join_accusers"
    join: bool


class Vote(Action):
    type: Literal["vote"] = "vote"
    card: str


HollowsAction = Annotated[
    Union[
        NameSystem, RollForNames, AddName, AddDetail, WritePersona, RollForCrime, WritePrivateSelf, RollColor,
        Confess, ChooseCase,
        OpenScene, SkipScene, Ante, StayOut, Call, Raise, Monologue, Pass, BuyColor,
        Challenge, JoinAsThirdMan, LockCard, TellThirdMan,
        BuyRevelation, SkipRevelation, RevealPart,
        DeclareFaceOff, DeclineFaceOff, JoinAccusers, Vote,
    ],
    PField(discriminator="type"),
]

ACTIONS = TypeAdapter(HollowsAction)
