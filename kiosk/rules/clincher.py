"""Procedural scenes settled by a clincher card.

A session is a string of procedural scenes drawn from one standard 52-card
deck (shuffled from the session's random source). Each scene goes:

1. **Call.** A player or the GM calls the scene: where, who is there, what
   they are after, and which present character takes the lead (the primary;
   the others present are secondaries). A player whose character is not in
   the scene pays a green token to call it; the GM never pays.
2. **Difficulty.** The GM spends a token. It decides the up suits:
   red: spades, hearts, diamonds (easy); yellow: spades, hearts; green:
   spades only (hard). Every other suit is down. The GM then draws until a
   down card turns up; that card opens the scene.
3. **The primary acts.** Strong ability: two cards, keep the better.
   Middling: one card. Weak: two cards, keep the worse. Best to worst:
   up face, up number, down number, down face (aces are face cards).
4. **Redraws.** Players ask for redraws. Whoever is present may force one
   per scene with any token (red also draws a consequence card that turns bad
   on a down card, green one that turns good on an up card, yellow none).
   Whoever is absent pays green and names the new advantage or obstacle. A
   positive consequence kept from an earlier scene may be cashed in once for
   a redraw. When several ask at once they queue by first press, or the GM
   sets the order (a setup option); queued players may withdraw.
5. **Resolution.** When the GM calls it (or nobody can redraw any more) the
   active card is the clincher: up face, an impressive success; up number, a
   narrow success (both told by the primary's player); down face, a
   disastrous setback; down number, a heart-breaking near miss (both told by
   the GM).

Decisions where the excerpt is silent (token holdings, an empty deck, tied
cards, precedence) are in ``docs/rules/clincher.md``.
"""

from __future__ import annotations

import random
import re
from typing import Annotated, Any, Callable, Literal, Union

from pydantic import BaseModel, Field as PField, TypeAdapter, field_validator, model_validator

from .core import Action, Engine, Event, Field, Model, Prompt, RuleError, Setup, parse_action, possessive

# -- cards ------------------------------------------------------------------------------------

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = "SHDC"  # spades, hearts, diamonds, clubs
SUIT_SIGN = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAME = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
FACES = {"J", "Q", "K", "A"}  # aces count as face cards
FULL_DECK = [rank + suit for suit in SUITS for rank in RANKS]

Colour = Literal["red", "yellow", "green"]
COLOURS: tuple[str, ...] = ("red", "yellow", "green")
UP_SUITS = {"red": "SHD", "yellow": "SH", "green": "S"}
DIFFICULTY = {"red": "easy", "yellow": "ordinary", "green": "hard"}
ABILITIES = ("strong", "middling", "weak")

# Outcome of a clincher by its category: (name, who tells it).
CATEGORIES = ("down face", "down number", "up number", "up face")  # worst to best
RESULTS = {
    "up face": ("an impressive success", "primary"),
    "up number": ("a narrow success", "primary"),
    "down face": ("a disastrous setback", "gm"),
    "down number": ("a heart-breaking near miss", "gm"),
}

# Rule names quoted in refusals.
RULE_CALL_COST = "calling a scene your character is not in costs a green token"
RULE_PRIMARY = "the primary is one of the characters present"
RULE_GM_TOKEN = "the GM spends a token she holds to set the difficulty"
RULE_ONCE = "one token redraw per player per scene"
RULE_TOKEN_LACK = "you can only spend a token you hold"
RULE_ABSENT_GREEN = "a player whose character is absent redraws only with a green token"
RULE_CASH_IN = "a positive consequence is cashed in once, for one redraw"
RULE_PRECEDENCE = "redraws go in order of precedence"
RULE_EMPTY_DECK = "the deck is spent, so the active card stands"


def card_name(card: str) -> str:
    return card[:-1] + SUIT_SIGN[card[-1]]


def is_face(card: str) -> bool:
    return card[:-1] in FACES


def is_up(card: str, up_suits: str) -> bool:
    return card[-1] in up_suits


def category(card: str, up_suits: str) -> str:
    return f"{'up' if is_up(card, up_suits) else 'down'} {'face' if is_face(card) else 'number'}"


def rank_of(card: str, up_suits: str) -> int:
    """0 (worst: a down face card) to 3 (best: an up face card)."""
    return CATEGORIES.index(category(card, up_suits))


# -- setup --------------------------------------------------------------------------------------


class Tokens(Model):
    red: int = PField(1, ge=0, le=99)
    yellow: int = PField(1, ge=0, le=99)
    green: int = PField(1, ge=0, le=99)


class Member(Model):
    name: str
    """The player, as the buttons and the log know them."""
    character: str
    """Their character, as the story knows them."""


class ClincherSetup(Setup):
    gm: str = "GM"
    """The GM's name; it must differ from every player's."""
    players: list[Member] = PField(
        default_factory=lambda: [Member(name="Ann", character="Marlowe"), Member(name="Bo", character="Velvet"),
                                 Member(name="Cy", character="Quill")],
        min_length=1, max_length=8)
    """Each player and their character."""
    tokens: Tokens = Tokens()
    """What every player holds at the start (the excerpt does not say: one of each by default)."""
    gm_supply: Literal["unlimited", "counted"] = "unlimited"
    """Unlimited: the GM never runs out of tokens. Counted: the GM holds the tokens below, and no new scene
    can start once they are spent."""
    gm_tokens: Tokens = Tokens(red=3, yellow=3, green=3)
    """The GM's tokens when the supply is counted."""
    precedence: Literal["first_press", "gm_orders"] = "first_press"
    """When several players ask to redraw: first press goes first, or the GM sets the order."""
    empty_deck: Literal["reshuffle", "stands"] = "reshuffle"
    """A spent deck: shuffle the discards into a new one, or let the active card stand as the clincher."""
    fresh_deck_each_scene: bool = False
    """Gather and shuffle all 52 cards after every scene instead of carrying the deck on."""
    deck: Literal["shuffled", "physical"] = "shuffled"
    """Shuffled: the device shuffles and draws. Physical: the table draws real cards and the GM enters
    each one (a card already out of the deck is refused)."""

    @field_validator("players", mode="before")
    @classmethod
    def _names_alone_are_fine(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [{"name": v, "character": v} if isinstance(v, str) else v for v in value]
        return value

    @model_validator(mode="after")
    def _names_differ(self) -> "ClincherSetup":
        names = [m.name for m in self.players]
        if any(not n.strip() for n in names + [self.gm]):
            raise ValueError("players: every player (and the GM) needs a name")
        if len(set(names)) != len(names):
            raise ValueError(f"players: names must differ, got {names}")
        if self.gm in names:
            raise ValueError(f"gm: {self.gm!r} is also a player's name; the GM needs a name of their own")
        return self


# -- actions ---------------------------------------------------------------------------------------


class CallScene(Action):
    type: Literal["call_scene"] = "call_scene"
    location: str
    objective: str
    present: list[str]
    primary: str


class SetDifficulty(Action):
    type: Literal["difficulty"] = "difficulty"
    token: Colour


class PrimaryActs(Action):
    type: Literal["act"] = "act"
    ability: Literal["strong", "middling", "weak"]


class RequestRedraw(Action):
    """A player's button press: 'I want to redraw'. Paid for when their turn comes."""

    type: Literal["request"] = "request"


class SetOrder(Action):
    type: Literal["set_order"] = "set_order"
    order: list[str]


class Redraw(Action):
    type: Literal["redraw"] = "redraw"
    means: Literal["red", "yellow", "green", "consequence"]
    detail: str | None = None
    """An absent character's player names the new advantage or obstacle."""


class Withdraw(Action):
    type: Literal["withdraw"] = "withdraw"


class Stand(Action):
    type: Literal["stand"] = "stand"


class Grant(Action):
    """Between scenes the GM may hand a player a token (the excerpt never says how tokens are earned)."""

    type: Literal["grant"] = "grant"
    to: str
    colour: Colour


class EndSession(Action):
    type: Literal["end_session"] = "end_session"


class Draw(Action):
    """Physical deck: the card just drawn from the table's own deck, as rank then suit ("QD", "10H")."""

    type: Literal["draw"] = "draw"
    card: str


ClincherAction = Annotated[
    Union[CallScene, SetDifficulty, PrimaryActs, RequestRedraw, SetOrder, Redraw, Withdraw, Stand, Grant,
          EndSession, Draw],
    PField(discriminator="type"),
]


# -- state -----------------------------------------------------------------------------------------


class Consequence(BaseModel):
    player: str
    card: str
    good: bool
    scene: int
    cashed: bool = False


class Scene(BaseModel):
    number: int
    caller: str
    location: str
    objective: str
    present: list[str]
    primary: str
    difficulty: Colour | None = None
    up_suits: str = ""
    ability: str | None = None
    active: str | None = None
    redrawn: list[str] = []
    """Players who have used their one token redraw this scene."""
    queue: list[str] = []
    """Players waiting to redraw, in order of precedence."""
    ordered: bool = True
    """False while the GM still has to set the order of a queue of two or more (option ``gm_orders``)."""
    consequence_cards: list[str] = []
    """Consequence cards drawn this scene; they lie out until the scene ends."""
    clincher: str | None = None
    result: str | None = None
    narrator: str | None = None

    def card(self) -> str:
        """The active card (every phase after the opening draw has one)."""
        if self.active is None:
            raise RuleError("the active card", "no card has been drawn in this scene yet")
        return self.active


Phase = Literal["call", "difficulty", "act", "redraws", "over", "draw"]


class ClincherState(BaseModel):
    setup: ClincherSetup
    players: list[str]
    characters: dict[str, str]
    gm: str
    deck: list[str]
    """Face down; the top card is the last. Never shown."""
    discards: list[str] = []
    tokens: dict[str, dict[str, int]]
    gm_tokens: dict[str, int] | None
    consequences: list[Consequence] = []
    phase: Phase = "call"
    scene: Scene | None = None
    finished: list[Scene] = []
    # Physical deck only: an accepted move that still needs cards waits (``phase == "draw"``)
    # while the GM enters them one by one; ``entered`` holds those entered so far.
    waiting: dict[str, Any] | None = None
    resume_phase: Phase = "call"
    entered: list[str] = []

    def live_scene(self) -> Scene:
        """The scene being played (the engine reaches here only in a phase that has one)."""
        if self.scene is None:
            raise RuleError("scenes", "no scene is being played now")
        return self.scene

    def cashable(self, player: str) -> Consequence | None:
        """The player's oldest good turn from an earlier scene that has not been cashed in yet."""
        now = self.scene.number if self.scene else len(self.finished) + 1
        return next((c for c in self.consequences
                     if c.player == player and c.good and not c.cashed and c.scene < now), None)

    def cards_out(self) -> list[str]:
        """Every card not in the deck or the discards (the active card and consequence cards)."""
        if self.scene is None:
            return []
        return ([self.scene.active] if self.scene.active else []) + list(self.scene.consequence_cards)


RULE_PHYSICAL_CARD = "a card drawn from a physical deck is one still in the deck"
CARD_FORM = re.compile(r"(A|[2-9]|10|J|Q|K)([SHDC])")


class _NeedCard(Exception):
    """A move on a physical deck needs a card the GM has not entered yet."""


def parse_card(text: str) -> str:
    """``"qd"``, ``" 10h "`` -> ``"QD"``, ``"10H"``; anything else is refused with what a card looks like."""
    card = text.strip().upper().replace("♠", "S").replace("♥", "H").replace("♦", "D").replace("♣", "C")
    if not CARD_FORM.fullmatch(card):
        raise RuleError(RULE_PHYSICAL_CARD, f"{text.strip()!r} is not a card: write the rank, then the suit "
                                            "(S, H, D or C), as in QD, 10H or AS")
    return card


def where_is(state: ClincherState, card: str) -> str:
    """Where a card out of the deck is, in words, for a refusal."""
    if card in state.discards:
        return "it is in the discards"
    if state.scene is not None and card == state.scene.active:
        return "it is the active card"
    if state.scene is not None and card in state.scene.consequence_cards:
        return "it lies out as a consequence card"
    return "it was drawn already"


def _adopt(state: ClincherState, trial: ClincherState) -> None:
    """Make ``trial`` (a copy the move went through on) the state; the physical deck's wait is over."""
    trial.waiting, trial.entered = None, []
    for name in type(state).model_fields:
        setattr(state, name, getattr(trial, name))


class Clincher(Engine):
    game = "clincher"
    title = "Procedural clincher scenes"
    setup_model = ClincherSetup
    actions = TypeAdapter(ClincherAction)

    # -- starting -------------------------------------------------------------------------

    def start(self, setup: ClincherSetup, rng: random.Random) -> ClincherState:
        deck = list(FULL_DECK)
        if setup.deck == "shuffled":  # a physical deck is shuffled at the table; here it is the set of unseen cards
            rng.shuffle(deck)
        return ClincherState(
            setup=setup,
            players=[m.name for m in setup.players],
            characters={m.name: m.character for m in setup.players},
            gm=setup.gm,
            deck=deck,
            tokens={m.name: setup.tokens.model_dump() for m in setup.players},
            gm_tokens=setup.gm_tokens.model_dump() if setup.gm_supply == "counted" else None,
        )

    def players(self, state: ClincherState) -> list[str]:
        return [*state.players, state.gm]

    # -- prompts ---------------------------------------------------------------------------------

    def awaiting(self, state: ClincherState) -> list[Prompt]:
        gm = state.gm
        if state.phase == "draw":
            return [Prompt(gm, "draw", f"{gm}, draw the top card of the deck and enter it",
                           [Field("card", "text", label="Card drawn (rank then suit: QD, 10H, AS)", max=4,
                                  rule=RULE_PHYSICAL_CARD)])]
        if state.phase == "call":
            prompts = []
            if self._gm_can_set_difficulty(state):
                for who in [gm, *state.players]:
                    cost = "" if who == gm else " (a green token if your character is not in it)"
                    prompts.append(Prompt(who, "call_scene", f"{who}, call a scene: where, who is there, what they "
                                          f"want, and who takes the lead{cost}", self._call_fields(state)))
            if state.finished or not prompts:
                prompts.append(Prompt(gm, "end_session", f"{gm}, end the session here"))
            prompts.append(Prompt(gm, "grant", f"{gm}, hand a player a procedural token", [
                Field("to", "choice", label="Player", choices=list(state.players), rule="tokens go to players"),
                Field("colour", "choice", label="Token", choices=list(COLOURS), rule="tokens are red, yellow or green"),
            ], optional=True))
            return prompts
        if state.scene is None:
            return []
        scene = state.scene
        if state.phase == "difficulty":
            held = list(COLOURS) if state.gm_tokens is None else [c for c in COLOURS if state.gm_tokens[c] > 0]
            return [Prompt(gm, "difficulty", f"{gm}, spend a token for the difficulty: red is easy, yellow ordinary, "
                           "green hard", [Field("token", "choice", label="Token", choices=held, rule=RULE_GM_TOKEN)])]
        if state.phase == "act":
            who = scene.primary
            return [Prompt(who, "act", f"{who}, {state.characters[who]} makes the first move: is the ability they "
                           "use strong, middling or weak?",
                           [Field("ability", "choice", label="Ability", choices=list(ABILITIES),
                                  rule="an ability is strong, middling or weak")])]
        if state.phase == "redraws":
            return self._redraw_prompts(state, scene)
        return []

    def _call_fields(self, state: ClincherState) -> list[Field]:
        return [
            Field("location", "text", label="Where", max=200),
            Field("objective", "text", label="What they want, and how", max=300),
            Field("present", "list", label="Characters present", choices=list(state.players), min=1,
                  max=len(state.players), unique=True, rule="name each character present once"),
            Field("primary", "choice", label="Who takes the lead", choices=list(state.players), rule=RULE_PRIMARY),
        ]

    def _redraw_prompts(self, state: ClincherState, scene: Scene) -> list[Prompt]:
        gm, card = state.gm, card_name(scene.card())
        prompts = [Prompt(gm, "stand", f"{gm}, no more redraws: {card} stands as the clincher")]
        if len(scene.queue) > 1 and not scene.ordered:
            prompts.append(Prompt(gm, "set_order", f"{gm}, {', '.join(scene.queue)} all want to redraw: set the order",
                                  [Field("order", "list", label="Order", choices=list(scene.queue),
                                         min=len(scene.queue), max=len(scene.queue), unique=True,
                                         rule=RULE_PRECEDENCE)]))
        elif scene.queue:
            head = scene.queue[0]
            present = head in scene.present
            means = ["red", "yellow", "green", "consequence"] if present else ["green", "consequence"]
            fields = [Field("means", "choice", label="Pay with", choices=means,
                            rule=RULE_TOKEN_LACK if present else RULE_ABSENT_GREEN)]
            text = f"{head}, your turn: pay for the redraw of {card}"
            if not present:
                what = "advantage" if not is_up(scene.card(), scene.up_suits) else "obstacle"
                fields.append(Field("detail", "text", label=f"The new {what}", max=300))
                text += f" and describe the new {what}"
            prompts.append(Prompt(head, "redraw", text, fields))
        for p in state.players:
            if p in scene.queue:
                prompts.append(Prompt(p, "withdraw", f"{p}, step back from your redraw", optional=True))
            else:
                prompts.append(Prompt(p, "request", f"{p}, ask for a redraw of {card}", optional=True))
        return prompts

    # -- applying ----------------------------------------------------------------------------------

    def apply(self, state: ClincherState, action: Action, rng: random.Random) -> list[Event]:
        if state.setup.deck == "physical":
            return self._apply_physical(state, action, rng)
        return self._handle(state, action, rng)

    def _handle(self, state: ClincherState, action: Action, rng: random.Random) -> list[Event]:
        handler: Callable[[ClincherState, Any, random.Random], list[Event]] = getattr(self, f"_do_{action.type}")
        return handler(state, action, rng)

    # -- the physical deck ---------------------------------------------------------------------------
    #
    # A move that draws is tried on a copy of the state. If the copy runs out of entered cards
    # (_NeedCard), the move is accepted but waits: the GM enters cards one ``draw`` at a time, and
    # after each the waiting move is tried again from the start with every card entered so far.
    # Once it goes through, the copy becomes the state. So the move's own code is the same for
    # both decks, and the log (the move, then its cards) replays exactly.

    def _apply_physical(self, state: ClincherState, action: Action, rng: random.Random) -> list[Event]:
        if isinstance(action, Draw):
            return self._do_draw(state, action, rng)
        trial = state.model_copy(deep=True)
        try:
            events = self._handle(trial, action, rng)
        except _NeedCard:
            state.waiting, state.resume_phase, state.phase = action.model_dump(mode="json"), state.phase, "draw"
            return [Event(f"{state.gm} draws a card from the table's deck.", "draw")]
        _adopt(state, trial)
        return events

    def _do_draw(self, state: ClincherState, a: Draw, rng: random.Random) -> list[Event]:
        self._expect(state, "draw", "enter a drawn card")
        self._expect_gm(state, a)
        card = parse_card(a.card)
        if card in state.entered:
            raise RuleError(RULE_PHYSICAL_CARD, f"{card_name(card)} was entered already for this draw")
        # A discard is possible too: when the deck runs out mid-move, the table shuffles its discards
        # into a new deck (empty_deck = "reshuffle"). Whether this card may come now is settled by the
        # try below, which refuses a discard while the deck still has cards (see _draw).
        if card not in state.deck and card not in state.discards:
            raise RuleError(RULE_PHYSICAL_CARD, f"{card_name(card)} is not in the deck: {where_is(state, card)}")
        if state.waiting is None:  # the draw phase always has a waiting move
            raise RuleError("what happens next", "no move is waiting for a card")
        waiting = parse_action(self, state.waiting)
        trial = state.model_copy(deep=True)
        trial.entered.append(card)
        trial.phase, trial.waiting = trial.resume_phase, None
        try:
            events = self._handle(trial, waiting, rng)
        except _NeedCard:
            state.entered.append(card)
            return [Event(f"{card_name(card)} is drawn; {state.gm} draws another.", "draw")]
        _adopt(state, trial)
        return events

    def _do_call_scene(self, state: ClincherState, a: CallScene, rng: random.Random) -> list[Event]:
        self._expect(state, "call", "call a scene")
        unknown = [p for p in a.present if p not in state.characters]
        if unknown or not a.present or len(set(a.present)) != len(a.present):
            raise RuleError("name each character present once", f"not a list of players' characters: {a.present}")
        if a.primary not in a.present:
            raise RuleError(RULE_PRIMARY, f"{a.primary} is not among those present ({', '.join(a.present)})")
        if not self._gm_can_set_difficulty(state):
            raise RuleError(RULE_GM_TOKEN, f"{state.gm} has no token left to set a difficulty")
        pays = a.player != state.gm and a.player not in a.present
        if a.player != state.gm and a.player not in state.tokens:
            raise RuleError("only the GM and the players call scenes", f"{a.player!r} is not at this table")
        if pays and state.tokens[a.player]["green"] < 1:
            raise RuleError(RULE_CALL_COST, f"{a.player} has no green token and is not in this scene")
        if pays:
            state.tokens[a.player]["green"] -= 1
        number = len(state.finished) + 1
        state.scene = Scene(number=number, caller=a.player, location=a.location.strip(),
                            objective=a.objective.strip(), present=list(a.present), primary=a.primary)
        state.phase = "difficulty"
        present = ", ".join(f"{state.characters[p]} ({p})" for p in a.present)
        text = (f"Scene {number}, called by {a.player}, at {state.scene.location}. Present: {present}. "
                f"Objective: {state.scene.objective}. {state.characters[a.primary]} takes the lead.")
        events = [Event(text, "call")]
        if pays:
            events.append(Event(f"{a.player} pays a green token to call a scene without their character.", "token"))
        return events

    def _do_difficulty(self, state: ClincherState, a: SetDifficulty, rng: random.Random) -> list[Event]:
        self._expect(state, "difficulty", "set the difficulty")
        self._expect_gm(state, a)
        if state.gm_tokens is not None:
            if state.gm_tokens[a.token] < 1:
                raise RuleError(RULE_GM_TOKEN, f"{state.gm} holds no {a.token} token")
            state.gm_tokens[a.token] -= 1
        scene = state.live_scene()
        scene.difficulty, scene.up_suits = a.token, UP_SUITS[a.token]
        up = ", ".join(SUIT_NAME[s] for s in scene.up_suits)
        events = [Event(f"{state.gm} spends a {a.token} token: the task is {DIFFICULTY[a.token]}. Up suits: {up}.",
                        "difficulty")]
        # The opening draw: up cards are set aside until the first down card, which opens the scene.
        passed: list[str] = []
        while True:
            card = self._draw(state, rng, events, opening=True)
            if card is None:  # cannot happen with 52 cards, but never loop forever
                break
            if is_up(card, scene.up_suits):
                passed.append(card)
                state.discards.append(card)
                continue
            scene.active = card
            break
        before = f" after {', '.join(map(card_name, passed))}" if passed else ""
        events.append(Event(f"Opening draw: the scene opens on {card_name(scene.card())}{before}.", "draw"))
        state.phase = "act"
        return events

    def _do_act(self, state: ClincherState, a: PrimaryActs, rng: random.Random) -> list[Event]:
        self._expect(state, "act", "make the first move")
        scene = state.live_scene()
        if a.player != scene.primary:
            raise RuleError(RULE_PRIMARY, f"{possessive(scene.primary)} character takes the lead, not {a.player}'s")
        events: list[Event] = []
        wanted = 1 if a.ability == "middling" else 2
        drawn = []
        for _ in range(wanted):
            card = self._draw(state, rng, events)
            if card is not None:
                drawn.append(card)
        scene.ability = a.ability
        if not drawn:
            events.append(Event(f"No card to draw: {card_name(scene.card())} stays.", "draw"))
            return events + self._after_draw(state, rng)
        if a.ability == "weak":
            keep = min(drawn, key=lambda c: rank_of(c, scene.up_suits))  # ties keep the first drawn
        else:
            keep = max(drawn, key=lambda c: rank_of(c, scene.up_suits))
        state.discards.append(scene.card())
        state.discards.extend(c for c in drawn if c != keep)
        scene.active = keep
        character = state.characters[a.player]
        if len(drawn) == 1:
            tail = f"{card_name(keep)} ({category(keep, scene.up_suits)})"
        else:
            which = "worse" if a.ability == "weak" else "better"
            tail = (f"{' and '.join(map(card_name, drawn))}, keeping the {which}, {card_name(keep)} "
                    f"({category(keep, scene.up_suits)})")
        events.append(Event(f"{character} acts with a {a.ability} ability: {tail}.", "act"))
        return events + self._after_draw(state, rng)

    def _do_request(self, state: ClincherState, a: RequestRedraw, rng: random.Random) -> list[Event]:
        self._expect(state, "redraws", "ask for a redraw")
        scene = state.live_scene()
        self._check_can_redraw(state, scene, a.actor)
        if a.player in scene.queue:
            raise RuleError(RULE_PRECEDENCE, f"{a.player} is already waiting to redraw")
        scene.queue.append(a.actor)
        if state.setup.precedence == "gm_orders" and len(scene.queue) > 1:
            scene.ordered = False
        place = f", number {len(scene.queue)} in line" if len(scene.queue) > 1 else ""
        return [Event(f"{a.player} asks for a redraw{place}.", "request")]

    def _do_set_order(self, state: ClincherState, a: SetOrder, rng: random.Random) -> list[Event]:
        self._expect(state, "redraws", "set the order")
        self._expect_gm(state, a)
        scene = state.live_scene()
        if sorted(a.order) != sorted(scene.queue):
            raise RuleError(RULE_PRECEDENCE, f"the order must name exactly {', '.join(scene.queue)}")
        scene.queue, scene.ordered = list(a.order), True
        return [Event(f"{state.gm} sets the order: {', '.join(a.order)}.", "order")]

    def _do_withdraw(self, state: ClincherState, a: Withdraw, rng: random.Random) -> list[Event]:
        self._expect(state, "redraws", "withdraw")
        scene = state.live_scene()
        if a.player not in scene.queue:
            raise RuleError(RULE_PRECEDENCE, f"{a.player} is not waiting to redraw")
        scene.queue.remove(a.player)
        if len(scene.queue) < 2:
            scene.ordered = True
        return [Event(f"{a.player} withdraws the request.", "withdraw")] + self._after_draw(state, rng)

    def _do_redraw(self, state: ClincherState, a: Redraw, rng: random.Random) -> list[Event]:
        self._expect(state, "redraws", "redraw")
        scene = state.live_scene()
        if not scene.queue or a.player != scene.queue[0] or not scene.ordered:
            raise RuleError(RULE_PRECEDENCE, f"it is not {possessive(a.player)} turn to redraw")
        present = a.player in scene.present
        cash = None
        # Check everything first ...
        if a.means == "consequence":
            cash = state.cashable(a.player)
            if cash is None:
                raise RuleError(RULE_CASH_IN, f"{a.player} holds no positive consequence still to cash in")
        else:
            if a.player in scene.redrawn:
                raise RuleError(RULE_ONCE, f"{a.player} has already forced a redraw with a token this scene")
            if not present and a.means != "green":
                raise RuleError(RULE_ABSENT_GREEN, f"{possessive(a.player)} character is not in this scene")
            if state.tokens[a.player][a.means] < 1:
                raise RuleError(RULE_TOKEN_LACK, f"{a.player} holds no {a.means} token")
        if not present and not (a.detail and a.detail.strip()):
            raise RuleError("an absent player names what changes",
                            "describe the new advantage or obstacle your redraw brings")
        if self._deck_is_spent(state):
            raise RuleError(RULE_EMPTY_DECK, "there is no card left to draw")
        # ... then change.
        old = scene.card()
        turned = "obstacle" if is_up(old, scene.up_suits) else "advantage"
        if cash is not None:
            cash.cashed = True
            paid = f"cashes in the good turn from scene {cash.scene} ({card_name(cash.card)})"
        else:
            state.tokens[a.player][a.means] -= 1
            scene.redrawn.append(a.player)
            paid = f"spends a {a.means} token"
        scene.queue.pop(0)
        events: list[Event] = []
        card = self._draw(state, rng, events)
        if card is None:  # checked above: the deck is not spent
            raise RuleError(RULE_EMPTY_DECK, "there is no card left to draw")
        state.discards.append(old)
        scene.active = card
        detail = f" New {turned}: {(a.detail or '').strip()}." if not present else ""
        events.insert(0, Event(f"{a.actor} {paid} to redraw {card_name(old)}: the new card is {card_name(card)} "
                               f"({category(card, scene.up_suits)}).{detail}", "redraw"))
        if present and a.means in ("red", "green") and cash is None:
            events += self._consequence(state, rng, scene, a.player, a.means)
        return events + self._after_draw(state, rng)

    def _consequence(self, state: ClincherState, rng: random.Random, scene: Scene, player: str,
                     colour: str) -> list[Event]:
        """Red: a down card means trouble for the character. Green: an up card means a good turn."""
        events: list[Event] = []
        card = self._draw(state, rng, events)
        if card is None:
            return events + [Event(f"No card is left for {possessive(player)} consequence card.", "consequence")]
        scene.consequence_cards.append(card)
        up = is_up(card, scene.up_suits)
        character = state.characters[player]
        if colour == "red" and not up:
            state.consequences.append(Consequence(player=player, card=card, good=False, scene=scene.number))
            text = f"Consequence card {card_name(card)}: something bad will come of this for {character}."
        elif colour == "green" and up:
            state.consequences.append(Consequence(player=player, card=card, good=True, scene=scene.number))
            text = f"Consequence card {card_name(card)}: something good comes of this for {character}."
        else:
            text = f"Consequence card {card_name(card)}: nothing further for {character}."
        return events + [Event(text, "consequence")]

    def _do_stand(self, state: ClincherState, a: Stand, rng: random.Random) -> list[Event]:
        self._expect(state, "redraws", "settle the scene")
        self._expect_gm(state, a)
        return self._resolve(state, rng, why=f"{state.gm} calls it")

    def _do_grant(self, state: ClincherState, a: Grant, rng: random.Random) -> list[Event]:
        self._expect(state, "call", "hand out tokens")
        self._expect_gm(state, a)
        if a.to not in state.tokens:
            raise RuleError("tokens go to players", f"{a.to!r} is not a player")
        state.tokens[a.to][a.colour] += 1
        return [Event(f"{state.gm} gives {a.to} a {a.colour} token.", "token")]

    def _do_end_session(self, state: ClincherState, a: EndSession, rng: random.Random) -> list[Event]:
        self._expect(state, "call", "end the session")
        self._expect_gm(state, a)
        state.phase = "over"
        return [Event(f"{state.gm} ends the session. {self.outcome(state)}", "end")]

    # -- drawing and settling ------------------------------------------------------------------------

    def _deck_is_spent(self, state: ClincherState) -> bool:
        """True when no further card may be drawn in this scene's contest."""
        return not state.deck and (state.setup.empty_deck == "stands" or not state.discards)

    def _draw(self, state: ClincherState, rng: random.Random, events: list[Event], opening: bool = False) -> str | None:
        """The top card, reshuffling the discards when the deck is spent and the rules allow it.
        With a physical deck, the next card the GM entered (``_NeedCard`` when none is left)."""
        if not state.deck:
            if not state.discards or (state.setup.empty_deck == "stands" and not opening):
                return None
            state.deck = state.discards
            state.discards = []
            rng.shuffle(state.deck)
            events.append(Event(f"The deck is spent: the {len(state.deck)} discards are shuffled into a new deck.",
                                "shuffle"))
        if state.setup.deck == "physical":
            if not state.entered:
                raise _NeedCard()
            card = state.entered.pop(0)
            if card not in state.deck:  # the deck changed under it (a reshuffle while waiting)
                raise RuleError(RULE_PHYSICAL_CARD, f"{card_name(card)} is not in the deck: {where_is(state, card)}")
            state.deck.remove(card)
            return card
        return state.deck.pop()

    def _able(self, state: ClincherState, scene: Scene, player: str) -> bool:
        if state.cashable(player):
            return True
        if player in scene.redrawn:
            return False
        held = state.tokens[player]
        return held["green"] > 0 or (player in scene.present and (held["red"] > 0 or held["yellow"] > 0))

    def _check_can_redraw(self, state: ClincherState, scene: Scene, player: str) -> None:
        if player not in state.tokens:
            raise RuleError("only players force redraws", f"{player!r} is not a player")
        if self._deck_is_spent(state):
            raise RuleError(RULE_EMPTY_DECK, "there is no card left to draw")
        if self._able(state, scene, player):
            return
        if player in scene.redrawn:
            raise RuleError(RULE_ONCE, f"{player} has already forced a redraw with a token this scene")
        if player in scene.present:
            raise RuleError(RULE_TOKEN_LACK, f"{player} holds no token to spend")
        raise RuleError(RULE_ABSENT_GREEN, f"{possessive(player)} character is absent and {player} holds no green token")

    def _after_draw(self, state: ClincherState, rng: random.Random) -> list[Event]:
        """Open the redraw window, or settle the scene at once when nobody can redraw any more."""
        scene = state.live_scene()
        state.phase = "redraws"
        if scene.queue:
            return []
        if self._deck_is_spent(state):
            return self._resolve(state, rng, why="The deck is spent")
        if not any(self._able(state, scene, p) for p in state.players):
            return self._resolve(state, rng, why="Nobody can redraw")
        return []

    def _resolve(self, state: ClincherState, rng: random.Random, why: str) -> list[Event]:
        scene = state.live_scene()
        clincher = scene.card()
        kind = category(clincher, scene.up_suits)
        result, teller = RESULTS[kind]
        scene.clincher, scene.result = clincher, result
        scene.narrator = scene.primary if teller == "primary" else state.gm
        scene.queue = []
        state.discards.append(clincher)
        state.discards.extend(scene.consequence_cards)
        scene.active, scene.consequence_cards = None, []
        state.finished.append(scene)
        state.scene = None
        state.phase = "call"
        events = [Event(f"{why}: the clincher is {card_name(clincher)} ({kind}), {result} for "
                        f"{state.characters[scene.primary]}. {scene.narrator} tells how it ends.", "clincher",
                        data={"card": clincher, "result": result, "narrator": scene.narrator})]
        if state.setup.fresh_deck_each_scene:
            state.deck += state.discards
            state.discards = []
            rng.shuffle(state.deck)
            events.append(Event("All 52 cards are gathered and shuffled for the next scene.", "shuffle"))
        if not self._gm_can_set_difficulty(state):
            events.append(Event(f"{state.gm} has no tokens left: no more procedural scenes.", "end"))
        return events

    @staticmethod
    def _gm_can_set_difficulty(state: ClincherState) -> bool:
        return state.gm_tokens is None or any(v > 0 for v in state.gm_tokens.values())

    # -- checks ------------------------------------------------------------------------------------------

    @staticmethod
    def _expect(state: ClincherState, phase: str, doing: str) -> None:
        if state.phase != phase:
            raise RuleError("what happens next", f"cannot {doing} now (the scene is at: {state.phase})")

    @staticmethod
    def _expect_gm(state: ClincherState, a: Action) -> None:
        if a.player != state.gm:
            raise RuleError("the GM's call", f"only {state.gm}, the GM, may do this")

    # -- views --------------------------------------------------------------------------------------------

    def view(self, state: ClincherState, viewer: str | None) -> dict[str, Any]:
        scene = state.scene
        data: dict[str, Any] = {
            "game": self.game,
            "phase": state.phase,
            "gm": state.gm,
            "players": list(state.players),
            "characters": dict(state.characters),
            "deck_size": len(state.deck),  # the order of the deck is never shown
            "physical_deck": state.setup.deck == "physical",
            "cards_entered": [card_name(c) for c in state.entered],
            "discards": [card_name(c) for c in state.discards],
            "tokens": {p: dict(t) for p, t in state.tokens.items()},
            "gm_tokens": dict(state.gm_tokens) if state.gm_tokens is not None else "unlimited",
            "consequences": [
                {**c.model_dump(), "card": card_name(c.card), "character": state.characters[c.player]}
                for c in state.consequences
            ],
            "scene": self._scene_view(state, scene) if scene else None,
            "finished": [self._scene_view(state, s) for s in state.finished],
            "options": state.setup.model_dump(include={"gm_supply", "precedence", "empty_deck", "fresh_deck_each_scene"}),
        }
        return data

    @staticmethod
    def _scene_view(state: ClincherState, scene: Scene) -> dict[str, Any]:
        data = scene.model_dump()
        data["secondaries"] = [p for p in scene.present if p != scene.primary]
        for key in ("active", "clincher"):
            if data[key]:
                data[key] = card_name(data[key])
                data[f"{key}_category"] = category(getattr(scene, key), scene.up_suits)
        data["consequence_cards"] = [card_name(c) for c in scene.consequence_cards]
        return data

    def outcome(self, state: ClincherState) -> str | None:
        if state.phase != "over":
            return None
        results = [f"{s.result} ({card_name(s.clincher)})" if s.clincher else str(s.result) for s in state.finished]
        played = f"{len(results)} scene{'s' if len(results) != 1 else ''}"
        return f"Session over after {played}: {'; '.join(results) if results else 'none played'}."


ENGINE = Clincher()
