"""Promise Hollows: the setup, its named rule options, and the game state.

Everything the table knows lives in ``HollowsState``. Secret things (private
selves, Crime rolls, confessions, the Criminal, locked cards and votes) are
plain fields here too; they leave the state only through ``views.py``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field as PField, model_validator

from kiosk.rules.core import RuleError, Setup

BLACK, WHITE, GRAY = "Black", "White", "Gray"
CARDS = [BLACK, WHITE, GRAY]

INVESTIGATOR_NAME = "Mr. Gray"
TRAITS = ["cheer", "helps", "special", "pride"]
"""The four public-persona traits a raise or a monologue may be narrated from."""

PARTS = ["hurt", "hurt_object", "need", "need_object", "want", "want_object"]
"""The six parts of a private self a revelation can bring out."""

TEXT_MAX = 80
NAME_MAX = 40


class HollowsSetup(Setup):
    """Who plays (in clockwise seating order), who takes which role, and the options."""

    players: list[str] = PField(default_factory=lambda: ["Joe", "Bee", "Cece", "Jane"])
    """Three to eight players, in clockwise seating order."""
    investigator: str | None = None
    """Plays Mr. Gray. Defaults to the first player."""
    president: str | None = None
    """Presides over a System and chooses the case. Defaults to the second player."""

    color_per_pip: int = PField(3, ge=0, le=6, title="Color per Private Die pip")
    """Color taken from the box for lowering your own Private Die by one (0: not allowed)."""
    chips: int = PField(500, ge=1)
    """Tokens in the box at the start; starting Color comes out of it."""
    systems_play: bool = False
    """Removed players stay on as a System (setting only, Color only as a Third Man)."""
    president_sees_authors: bool = False
    """The President reads the confessions with their authors' names (default: anonymous)."""
    face_off_count: Literal["plurality", "majority"] = PField("plurality", title="Face-Off verdict")
    """plurality: the colour with most votes wins; majority: it must have more than half."""
    third_man_vs_two_stealers: Literal["odd-man-half", "all-lose"] = PField(
        "odd-man-half", title="Third Man against two Grays")
    """Both challengers Gray, the Third Man Black or White: he wins half, or nobody wins."""

    @model_validator(mode="after")
    def _check(self) -> "HollowsSetup":
        names = self.players
        if not 3 <= len(names) <= 8:
            raise ValueError(f"Promise Hollows needs 3 to 8 players, not {len(names)}")
        if len({n.strip().lower() for n in names}) != len(names) or any(not n.strip() for n in names):
            raise ValueError("player names must be non-empty and different")
        inv = self.investigator or names[0]
        pres = self.president or (names[1] if inv == names[0] else names[0])
        for role, who in (("investigator", inv), ("president", pres)):
            if who not in names:
                raise ValueError(f"the {role} {who!r} is not one of the players {names}")
        if inv == pres:
            raise ValueError("the Investigator cannot also be the President")
        if self.chips < 18 * len(names):
            raise ValueError(f"the box needs at least {18 * len(names)} chips for {len(names)} players")
        self.investigator, self.president = inv, pres
        return self


class System(BaseModel):
    name: str
    names: list[str] = []


class PrivateSelf(BaseModel):
    hurt: str
    hurt_object: str
    need: str
    need_object: str
    want: str
    want_object: str
    guilt: str
    enemy: str


class Character(BaseModel):
    """One player's character, table pieces and progress through town-building."""

    player: str
    role: Literal["Investigator", "President", "Suburbanite"]
    # public persona
    name: str | None = None
    occupation: str = ""
    cheer: str = ""
    helps: str = ""
    special: str = ""
    pride: str = ""
    friend: str | None = None
    system: str | None = None
    # private self (secret)
    crime_roll: list[int] | None = None
    private: PrivateSelf | None = None
    confession: str | None = None
    # table pieces
    color: int = 0
    color_rolled: bool = False
    die: int = 6
    revealed: list[str] = []
    """Part keys (see PARTS) brought out by revelations, in order."""
    removed: Literal["Black", "White"] | None = None
    """How a Face-Off removed the character: killed (Black) or escaped (White)."""

    @property
    def has_crime(self) -> bool:
        return self.crime_roll is not None and sum(self.crime_roll) == 7

    @property
    def active(self) -> bool:
        return self.removed is None


class NamingTurn(BaseModel):
    player: str
    roll: int | None = None
    left: int = 0


class Card(BaseModel):
    """A confession card as the President reads it."""

    id: str
    author: str
    text: str
    kind: Literal["Crime", "Guilt"]


class CardChallenge(BaseModel):
    """A card challenge in progress (the state; the move that starts one is actions.Challenge)."""

    challenger: str
    target: str
    third_man: str | None = None
    cards: dict[str, str] = {}
    """Locked cards (secret until every party has locked)."""
    claims: dict[str, str] = {}
    """What each challenger told the Third Man (public, maybe a lie)."""
    revealed: bool = False
    shares: dict[str, int] = {}


class Scene(BaseModel):
    opener: str
    order: list[str]
    """Who may take part, clockwise from the opener."""
    step: Literal["entrance", "elaboration", "challenge", "revelation", "reveal"] = "entrance"
    in_scene: dict[str, Literal["character", "setting"]] = {}
    entrance_done: list[str] = []
    passed: list[str] = []
    stake: int = 0
    put: dict[str, int] = {}
    turn: str | None = None
    challenge: CardChallenge | None = None
    closer: str | None = None
    revealing: str | None = None
    """Whose part is being revealed (a bought revelation waiting for the target)."""


class FaceOff(BaseModel):
    candidates: list[str]
    investigator_done: bool = False
    declined: list[str] = []
    declarer: str | None = None
    suspect: str | None = None
    joins: dict[str, bool] = {}
    votes: dict[str, str] = {}
    """Locked votes (secret until every accuser has voted)."""
    result: str | None = None


Phase = Literal["systems", "naming", "characters", "confessions", "case", "story", "face_off", "over"]


class HollowsState(BaseModel):
    players: list[str]
    investigator: str
    president: str
    options: HollowsSetup
    phase: Phase = "systems"
    people: dict[str, Character]
    # town
    systems: list[System] = []
    details: dict[str, list[str]] = {}
    naming: NamingTurn | None = None
    naming_turns: int = 0
    # confessions
    cards: list[Card] = []
    case: str | None = None
    criminal: str | None = None
    # color
    box: int
    pot: int = 0
    discard: int = 0
    # story
    scene: Scene | None = None
    last_opener: str | None = None
    scenes_played: int = 0
    skipped_in_a_row: int = 0
    exposed: list[str] = []
    face_off: FaceOff | None = None
    # the end
    winners: list[str] = []
    ending: str | None = None

    def person(self, player: str | None) -> Character:
        if player not in self.people:
            raise RuleError("who plays", f"{player!r} is not a player at this table")
        return self.people[player]

    def active(self) -> list[str]:
        """Players whose characters are still in the story, clockwise."""
        return [p for p in self.players if self.people[p].active]

    def system_players(self) -> list[str]:
        if not self.options.systems_play:
            return []
        return [p for p in self.players if not self.people[p].active]

    def all_names(self) -> list[str]:
        return [n for s in self.systems for n in s.names]

    def clockwise_from(self, player: str) -> list[str]:
        i = self.players.index(player)
        return self.players[i:] + self.players[:i]

    def color_total(self) -> int:
        return self.box + self.pot + self.discard + sum(c.color for c in self.people.values())
