"""Face-Offs: calling out a character whose Private Die has reached 1.

1. Window: Mr. Gray has first claim on every exposed character but himself.
   If he declines, anyone else still in the story may claim (first come);
   when everyone has declined, the window closes and the story goes on.
2. Every other character (not the suspect, not the accuser) says in the open
   whether they join the accusers.
3. The accusers vote in secret with Black, White or Gray; the votes turn over
   together once all are locked.
4. Black: the suspect confesses and is killed off. White: confesses and
   escapes. Gray: keeps the secret and the Private Die goes back to 6. Ties go
   toward life and innocence: Gray before White before Black.
"""

from __future__ import annotations

import random
from typing import Callable
from collections import Counter

from kiosk.rules.core import Event, Field, Prompt, RuleError, possessive

from . import actions as A
from . import wins
from .model import BLACK, CARDS, GRAY, WHITE, FaceOff, HollowsState
from .scenes import open_face_off_window

LENIENCY = [GRAY, WHITE, BLACK]
"""Most lenient first: a tie goes to the earliest colour in this list."""


def decide(votes: list[str], count: str = "plurality") -> str:
    """The Face-Off result for these votes (see the option ``face_off_count``)."""
    tally = Counter(votes)
    if count == "majority":
        winners = [c for c in CARDS if tally[c] * 2 > len(votes)]
        return winners[0] if winners else GRAY
    top = max(tally.values())
    return next(c for c in LENIENCY if tally[c] == top)


def accusers(fo: FaceOff) -> list[str]:
    return [fo.declarer or ""] + [p for p, joined in fo.joins.items() if joined]


def _claimants(state: HollowsState, fo: FaceOff) -> list[str]:
    """Who may still claim the Face-Off now (Mr. Gray alone while he has first claim)."""
    inv = state.investigator
    if not fo.investigator_done and state.people[inv].active and [c for c in fo.candidates if c != inv]:
        return [inv]
    return [p for p in state.active()
            if p != inv and p not in fo.declined and [c for c in fo.candidates if c != p]]


def prompts(state: HollowsState) -> list[Prompt]:
    fo = state.face_off
    if state.phase != "face_off" or fo is None:
        return []
    if fo.suspect is None:
        out = []
        for p in _claimants(state, fo):
            suspects = [c for c in fo.candidates if c != p]
            if suspects:
                out.append(Prompt(p, "declare_face_off", f"{p}, call a Face-Off?",
                                  [Field("suspect", "choice", choices=suspects,
                                         rule="a Face-Off targets a character whose Private Die is at 1")]))
            out.append(Prompt(p, "decline_face_off", f"{p}, let it pass"))
        return out
    undecided = [p for p in _jury(state, fo) if p not in fo.joins]
    if undecided:
        return [Prompt(p, "join_accusers", f"{p}, do you stand with {fo.declarer} against {fo.suspect}?",
                       [Field("join", "choice", choices=[True, False], rule="answer yes or no")])
                for p in undecided]
    return [Prompt(p, "vote", f"{p}, vote on {fo.suspect} with your pad",
                   [Field("card", "choice", choices=CARDS, rule="vote Black, White or Gray")], secret=True)
            for p in accusers(fo) if p not in fo.votes]


def _jury(state: HollowsState, fo: FaceOff) -> list[str]:
    return [p for p in state.active() if p not in (fo.suspect, fo.declarer)]


def _window(state: HollowsState) -> FaceOff:
    fo = state.face_off
    if state.phase != "face_off" or fo is None:
        raise RuleError("Face-Offs follow a Private Die at 1", "no Face-Off is open")
    return fo


def declare_face_off(state: HollowsState, a: A.DeclareFaceOff, rng: random.Random) -> list[Event]:
    fo = _window(state)
    who = a.player or ""
    if fo.suspect is not None:
        raise RuleError("one Face-Off at a time", f"{fo.declarer} has already called one")
    if who not in _claimants(state, fo):
        raise RuleError("Mr. Gray has first claim, then anyone still in the story",
                        f"{who} may not call this Face-Off now")
    if a.suspect == who or a.suspect not in fo.candidates:
        raise RuleError("a Face-Off targets a character whose Private Die is at 1",
                        f"{a.suspect} cannot be called out now")
    fo.declarer, fo.suspect = who, a.suspect
    events = [Event(f"Face-Off! {state.people[who].name} ({who}) calls out {state.people[a.suspect].name} "
                    f"({a.suspect}). No ante; someone had better bring danger into the scene.", "face-off")]
    return events + _maybe_vote(state)


def decline_face_off(state: HollowsState, a: A.DeclineFaceOff, rng: random.Random) -> list[Event]:
    fo = _window(state)
    who = a.player or ""
    if fo.suspect is not None or who not in _claimants(state, fo):
        raise RuleError("Mr. Gray has first claim, then anyone still in the story", f"{who} has nothing to decline")
    if who == state.investigator:
        fo.investigator_done = True
    else:
        fo.declined.append(who)
    events = [Event(f"{who} lets the Face-Off pass.", "face-off")]
    if not _claimants(state, fo):
        state.exposed = []
        state.face_off = None
        state.phase = "story"
        events.append(Event("Nobody calls a Face-Off; the story goes on.", "face-off"))
    return events


def join_accusers(state: HollowsState, a: A.JoinAccusers, rng: random.Random) -> list[Event]:
    fo = _window(state)
    who = a.player or ""
    if fo.suspect is None or who not in _jury(state, fo) or who in fo.joins:
        raise RuleError("each other character answers once", f"{who} has no open question to answer")
    fo.joins[who] = a.join
    side = "joins the accusers" if a.join else "stays out of the vote"
    return [Event(f"{who} {side}.", "face-off")] + _maybe_vote(state)


def vote(state: HollowsState, a: A.Vote, rng: random.Random) -> list[Event]:
    fo = _window(state)
    who = a.player or ""
    if not state.person(who).active:
        raise RuleError("removed characters have no vote", f"{who} is out of the story")
    if fo.suspect is None or [p for p in _jury(state, fo) if p not in fo.joins]:
        raise RuleError("votes come after the accusers are known", "the accusers are not all known yet")
    if who not in accusers(fo):
        raise RuleError("only the accusers vote", f"{who} is not among the accusers")
    if who in fo.votes:
        raise RuleError("a locked vote cannot be changed", f"{who} has already voted")
    fo.votes[who] = a.card
    events = [Event(f"{who} lays a vote face down.", "lock"), Event(f"You voted {a.card}.", "lock", to=[who])]
    if len(fo.votes) == len(accusers(fo)):
        events += _resolve(state)
    return events


def _maybe_vote(state: HollowsState) -> list[Event]:
    fo = _window(state)
    if [p for p in _jury(state, fo) if p not in fo.joins]:
        return []
    return [Event(f"Accusers: {', '.join(accusers(fo))}. They vote in secret.", "face-off")]


def _resolve(state: HollowsState) -> list[Event]:
    fo = _window(state)
    suspect = fo.suspect or ""
    c = state.people[suspect]
    votes = [fo.votes[p] for p in accusers(fo)]
    result = decide(votes, state.options.face_off_count)
    fo.result = result
    shown = ", ".join(f"{p} {fo.votes[p]}" for p in accusers(fo))
    events = [Event(f"Votes turn over: {shown}. The verdict is {result}.", "verdict",
                    data={"faces": {p: fo.votes[p] for p in accusers(fo)},
                          "summary": f"The verdict is {result}."})]
    state.exposed = [p for p in state.exposed if p != suspect]
    guilt = c.private.guilt if c.private else ""
    if result == GRAY:
        c.die = 6
        events.append(Event(f"{c.name} keeps every secret; {possessive(suspect)} Private Die returns to 6. "
                            f"{suspect} narrates how it ends.", "verdict"))
    else:
        c.removed = "Black" if result == BLACK else "White"
        fate = "is killed off" if result == BLACK else "escapes"
        events.append(Event(f"{c.name} confesses \u201c{guilt}\u201d and {fate}. {suspect} narrates the end.",
                            "verdict"))
        if state.options.systems_play:
            events.append(Event(f"{suspect} takes over a System and stays at the table.", "verdict"))
        events += wins.after_removal(state, suspect, fo.declarer or "")
    if state.phase == "over":
        state.face_off = None
        return events
    state.face_off = None
    return events + open_face_off_window(state)


HANDLERS: dict[str, Callable[..., list[Event]]] = {
    "declare_face_off": declare_face_off, "decline_face_off": decline_face_off,
    "join_accusers": join_accusers, "vote": vote,
}
