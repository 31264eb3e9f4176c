"""Confessions: every player writes a card, the President alone reads them and picks the case.

The device keeps who wrote which card. By default the President reads them
without names, in shuffled order, and sees only whether each is a Crime or a
Guilt (option ``president_sees_authors`` shows the names too). The chosen
card's text is announced; its author becomes the Criminal and is told so in
private. The Investigator's own card can never be the case.
"""

from __future__ import annotations

import random
from typing import Callable

from kiosk.rules.core import Event, Field, Prompt, RuleError

from . import actions as A
from .model import TEXT_MAX, Card, HollowsState


def prompts(state: HollowsState) -> list[Prompt]:
    if state.phase == "confessions":
        return [Prompt(p, "confess", f"{p}, write your confession card (screen turned to you)",
                       [Field("text", "text", label="Someone ... (name the victim and the wrong)", max=TEXT_MAX,
                              rule="a confession names a victim and a wrong")], secret=True)
                for p in state.players if state.people[p].confession is None]
    if state.phase == "case":
        pres = state.president
        return [Prompt(pres, "choose_case", f"{pres}, read the confessions in private and choose the case",
                       [Field("card", "choice", choices=[c.id for c in state.cards], label=_card_list(state),
                              rule="the President chooses one confession card")], secret=True)]
    return []


def _card_list(state: HollowsState) -> str:
    """The cards as the President reads them on the turned screen (the prompt is secret)."""
    authors = state.options.president_sees_authors
    return " | ".join(f"{c.id}: \u201c{c.text}\u201d ({c.kind}{', by ' + c.author if authors else ''})"
                      for c in state.cards)


def confess(state: HollowsState, a: A.Confess, rng: random.Random) -> list[Event]:
    text = a.text.strip()
    if not text or len(text) > TEXT_MAX:
        raise RuleError("a confession names a victim and a wrong", f"a confession is 1 to {TEXT_MAX} characters")
    state.person(a.player).confession = text
    handed = "keeps a confession card with the others" if a.player == state.president else \
        f"hands a folded confession to {state.president}"
    events = [Event(f"{a.player} {handed}.", "confession"),
              Event(f"Your confession: {text}", "confession", to=[a.actor])]
    if all(c.confession is not None for c in state.people.values()):
        authors = [p for p in state.players if p != state.investigator]
        rng.shuffle(authors)
        state.cards = [Card(id=f"card {i}", author=p, text=state.people[p].confession or "",
                            kind="Crime" if state.people[p].has_crime else "Guilt")
                       for i, p in enumerate(authors, start=1)]
        state.phase = "case"
        events.append(Event(f"{state.president} reads the confessions in private.", "confession"))
    return events


def choose_case(state: HollowsState, a: A.ChooseCase, rng: random.Random) -> list[Event]:
    card = next((c for c in state.cards if c.id == a.card), None)
    if card is None:
        raise RuleError("the President chooses one confession card", f"there is no {a.card}")
    state.case, state.criminal = card.text, card.author
    state.cards = []  # the cards go back in the box; only the President ever read them
    state.phase = "story"
    framed = " (a Guilt the President made into the case)" if card.kind == "Guilt" else ""
    return [
        Event(f"{state.president} brings Mr. Gray a case: \u201c{card.text}\u201d", "case"),
        Event(f"Your confession was chosen{framed}. You are the Criminal.", "case", to=[card.author]),
        Event(f"The case you chose was a {card.kind}.", "case", to=[state.president]),
        Event("Story-Building begins: Mr. Gray opens the first scene.", "scene"),
    ]


HANDLERS: dict[str, Callable[..., list[Event]]] = {"confess": confess, "choose_case": choose_case}
