"""Encounters: a card challenge for the pot, with an optional Third Man.

1. Someone challenges (on their turn, or Mr. Gray at any moment while in the scene).
2. Until the first card is locked, any other player may speak up as the Third Man.
3. The two challengers lock a card each in secret (hooded pads).
4. With a Third Man: each challenger tells him what they played (true or not:
   the device records the claim and never judges it), then he locks his card.
5. Once every party has locked, all cards turn over together and the pot is
   paid out by the reference card (payoffs.py). Nothing locked can change.
6. A single winner closes the scene; with no winner, or two winners who split,
   Mr. Gray closes it.
"""

from __future__ import annotations

import random
from typing import Callable

from kiosk.rules.core import Event, Field, Prompt, RuleError, possessive

from . import actions as A
from . import payoffs
from .model import CARDS, CardChallenge, HollowsState
from .scenes import current_scene, characters_in_scene


def parties(ch: CardChallenge) -> list[str]:
    return [ch.challenger, ch.target] + ([ch.third_man] if ch.third_man else [])


def _lock_prompt(player: str, text: str) -> Prompt:
    return Prompt(player, "lock_card", text,
                  [Field("card", "choice", choices=CARDS, rule="lock a Black, White or Gray card")], secret=True)


def prompts(state: HollowsState) -> list[Prompt]:
    sc = state.scene
    if sc is None or sc.step != "challenge" or sc.challenge is None:
        return []
    ch = sc.challenge
    out: list[Prompt] = []
    for p in (ch.challenger, ch.target):
        if p not in ch.cards:
            out.append(_lock_prompt(p, f"{p}, lock a card on your pad"))
    if ch.third_man is None and not ch.cards:
        for p in _third_man_candidates(state, ch):
            out.append(Prompt(p, "join_as_third_man", f"{p}, join as the Third Man before any card is down",
                              optional=True))
    if ch.third_man and ch.challenger in ch.cards and ch.target in ch.cards:
        told = [p for p in (ch.challenger, ch.target) if p not in ch.claims]
        for p in told:
            out.append(Prompt(p, "tell_third_man", f"{p}, tell {ch.third_man} which card you played (you may lie)",
                              [Field("card", "choice", choices=CARDS, rule="name a Black, White or Gray card")]))
        if not told and ch.third_man not in ch.cards:
            out.append(_lock_prompt(ch.third_man, f"{ch.third_man}, lock your card as the Third Man"))
    return out


def _third_man_candidates(state: HollowsState, ch: CardChallenge) -> list[str]:
    able = state.active() + state.system_players()
    return [p for p in state.players if p in able and p not in (ch.challenger, ch.target)]


def challenge(state: HollowsState, a: A.Challenge, rng: random.Random) -> list[Event]:
    sc = current_scene(state)
    who = a.player or ""
    if sc.step not in ("entrance", "elaboration"):
        raise RuleError("challenges happen in Entrance or Elaboration", "this scene is past its betting")
    if who not in sc.in_scene or not state.person(who).active:
        raise RuleError("only a character in the scene may challenge", f"{who} has no character in this scene")
    if who != state.investigator and sc.turn != who:
        raise RuleError("a challenge takes your turn", f"it is {possessive(sc.turn)} turn, not {who}'s")
    if a.target not in characters_in_scene(state, sc, who):
        raise RuleError("challenge someone in the scene", f"{a.target} has no character in this scene")
    sc.step = "challenge"
    sc.turn = None
    sc.challenge = CardChallenge(challenger=who, target=a.target)
    c, t = state.people[who], state.people[a.target]
    return [Event(f"Encounter! {c.name} ({who}) challenges {t.name} ({a.target}) for the pot of {state.pot}.",
                  "challenge")]


def join_as_third_man(state: HollowsState, a: A.JoinAsThirdMan, rng: random.Random) -> list[Event]:
    ch = _challenge(state)
    if ch.cards:
        raise RuleError("a Third Man speaks up before any card is down",
                        f"{a.player} is too late: a card is already locked")
    if ch.third_man is not None:
        raise RuleError("one Third Man per challenge", f"{ch.third_man} is already the Third Man")
    if a.player not in _third_man_candidates(state, ch):
        raise RuleError("a Third Man is a third player", f"{a.player} cannot be the Third Man here")
    ch.third_man = a.player
    return [Event(f"{a.player} joins the challenge as the Third Man.", "challenge")]


def lock_card(state: HollowsState, a: A.LockCard, rng: random.Random) -> list[Event]:
    ch = _challenge(state)
    who = a.player or ""
    if who not in parties(ch):
        raise RuleError("only the parties to a challenge lock cards", f"{who} is not in this challenge")
    if who in ch.cards:
        raise RuleError("a locked card cannot be changed", f"{who} has already locked a card")
    if who == ch.third_man and (len(ch.cards) < 2 or len(ch.claims) < 2):
        raise RuleError("the Third Man plays last", "the challengers have not both locked and told him yet")
    ch.cards[who] = a.card
    events = [Event(f"{who} locks a card face down.", "lock"), Event(f"You locked {a.card}.", "lock", to=[who])]
    if len(ch.cards) == len(parties(ch)):
        events += _reveal(state)
    return events


def tell_third_man(state: HollowsState, a: A.TellThirdMan, rng: random.Random) -> list[Event]:
    ch = _challenge(state)
    who = a.player or ""
    if ch.third_man is None or who not in (ch.challenger, ch.target):
        raise RuleError("challengers tell the Third Man", f"{who} has no Third Man to tell")
    if who in ch.claims:
        raise RuleError("each challenger tells once", f"{who} has already told {ch.third_man}")
    if len(ch.cards) < 2:
        raise RuleError("cards are down before the telling", "both challengers must lock first")
    ch.claims[who] = a.card
    return [Event(f"{who} tells {ch.third_man}: \u201cI played {a.card}.\u201d", "claim")]


def _reveal(state: HollowsState) -> list[Event]:
    sc = current_scene(state)
    ch = _challenge(state)
    order = parties(ch)
    cards = [ch.cards[p] for p in order]
    parts = payoffs.shares(cards, state.options.third_man_vs_two_stealers)
    paid, lost = payoffs.pay(state.pot, parts)
    pot = state.pot
    shown = ", ".join(f"{p}{' (Third Man)' if p == ch.third_man else ''} {ch.cards[p]}" for p in order)
    faces = {p: f"{ch.cards[p]}{' (Third Man)' if p == ch.third_man else ''}" for p in order}
    events = [Event(f"Cards turn over: {shown}.", "reveal", data={"faces": faces})]
    for p, amount in zip(order, paid):
        state.people[p].color += amount
        ch.shares[p] = amount
    state.pot = 0
    state.discard += lost
    ch.revealed = True
    winners = [p for p, amount in zip(order, paid) if amount > 0]
    if winners:
        events.append(Event(" and ".join(f"{p} takes {ch.shares[p]}" for p in winners) + f" of the {pot} Color.",
                            "payout"))
    else:
        events.append(Event(f"Nobody wins the pot of {pot}.", "payout"))
    if lost:
        events.append(Event(f"{lost} Color {'goes' if lost == 1 else 'go'} to the discard pile.", "payout"))
    sc.closer = winners[0] if len(winners) == 1 else state.investigator
    sc.step = "revelation"
    why = "the winner" if len(winners) == 1 else "no single winner, so Mr. Gray's player"
    events.append(Event(f"{sc.closer} closes the scene ({why}).", "exit"))
    return events


def _challenge(state: HollowsState) -> CardChallenge:
    sc = current_scene(state)
    if sc.step != "challenge" or sc.challenge is None:
        raise RuleError("cards are played in a challenge", "no challenge is waiting for cards")
    return sc.challenge


HANDLERS: dict[str, Callable[..., list[Event]]] = {
    "challenge": challenge, "join_as_third_man": join_as_third_man, "lock_card": lock_card,
    "tell_third_man": tell_third_man,
}
