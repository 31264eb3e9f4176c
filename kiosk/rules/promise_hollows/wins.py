"""Who wins when a Face-Off removes a character.

* The Investigator wins when the Criminal is removed (killed or escaped).
* The President wins with him when her Enemy is out of the story by then
  (her Enemy may be the Criminal).
* The Suburbanites (everyone but the President and the Investigator) win when
  the President is removed.
* The Criminal wins when the Investigator is removed, or when a Face-Off that
  the Investigator called removes the Criminal's Enemy.
* Removing anyone else changes nothing: the story goes on.

Several of these can hold at once; everyone they name wins together.
"""

from __future__ import annotations

from kiosk.rules.core import Event

from .model import HollowsState


def after_removal(state: HollowsState, removed: str, declarer: str) -> list[Event]:
    crim, inv, pres = state.criminal, state.investigator, state.president
    people = state.people
    out = {p for p in state.players if not people[p].active}
    reasons: list[str] = []
    winners: list[str] = []

    def win(names: list[str], why: str) -> None:
        new = [n for n in names if n not in winners]
        if new:
            winners.extend(new)
            reasons.append(why)

    enemy_of = {p: c.private.enemy for p, c in people.items() if c.private}
    if removed == crim:
        win([inv], f"Mr. Gray ({inv}) uncovered the Criminal, {people[removed].name}")
        if enemy_of.get(pres) in out and pres != removed:
            win([pres], f"the President ({pres}) saw the Criminal uncovered and her Enemy gone")
    if removed == inv and crim:
        win([crim], f"the Criminal ({crim}) got rid of Mr. Gray")
    if crim and declarer == inv and removed != crim and removed == enemy_of.get(crim):
        win([crim], f"Mr. Gray took the Criminal's Enemy, {people[removed].name}, for the culprit")
    if removed == pres:
        win([p for p in state.players if p not in (pres, inv)], "the President is out of the story")
    if not winners:
        return [Event(f"{people[removed].name} had no part in the case's ending; the story goes on.", "verdict")]
    state.winners = winners
    state.ending = "; ".join(reasons)
    state.phase = "over"
    return [Event(f"The end: {state.ending}. Winners: {', '.join(winners)}.", "end")]
