"""The scripted session behind ``examples/even-odd.jsonl``.

Three investigators with real dice: a scene that points to the Odd Suspect,
an inconclusive one, a third, then the Final Scene and the epilogue roll.
Regenerate the file with ``python -m tests.rules.even_odd.example > examples/even-odd.jsonl``.
"""

from __future__ import annotations

from kiosk.rules import Session
from kiosk.rules.even_odd import ENGINE

SETUP = {"players": ["Nadia", "Oscar", "Pilar"], "first_lead": "Oscar", "dice": "physical", "seed": 7}


def wagers(s: Session, stakes: dict[str, tuple[str, int]]) -> None:
    for player, (side, points) in stakes.items():
        s.apply({"type": "wager", "player": player, "side": side, "points": points})


def build() -> Session:
    s = Session(ENGINE, SETUP)
    s.apply({"type": "introduce", "player": "Nadia", "name": "Vera Kask",
             "description": "a retired cipher clerk who still counts everything twice"})
    s.apply({"type": "introduce", "player": "Oscar", "name": "Tomas Reed",
             "description": "the night-shift coroner, never forgets a face"})
    s.apply({"type": "introduce", "player": "Pilar", "name": "June Achterberg",
             "description": "an insurance investigator who hates loose ends"})
    s.apply({"type": "crime_scene", "player": "Oscar", "victim": "Harriet Vale",
             "case": "The Lantern Street Drowning"})
    s.apply({"type": "suspect", "player": "Pilar", "name": "Edmund",
             "details": "Harriet's business partner, heard shouting at her by the ferry"})
    s.apply({"type": "suspect", "player": "Nadia", "name": "Lucia",
             "details": "the lighthouse keeper's daughter, who says she found the body"})
    # Scene 1, Oscar leads: the evidence leans Odd.
    wagers(s, {"Nadia": ("even", 1), "Oscar": ("odd", 2), "Pilar": ("even", 0)})
    s.apply({"type": "roll", "player": "Oscar", "faces": [3, 5, 2]})
    # Scene 2, Pilar leads: two even, two odd, inconclusive.
    wagers(s, {"Pilar": ("even", 2), "Oscar": ("odd", 1), "Nadia": ("even", 1)})
    s.apply({"type": "roll", "player": "Pilar", "faces": [4, 6, 1, 3]})
    # Scene 3, Nadia leads and goes all in.
    wagers(s, {"Nadia": ("odd", 2), "Pilar": ("even", 1), "Oscar": ("odd", 1)})
    s.apply({"type": "count", "player": "Nadia", "evens": 1})
    # Oscar leads next but has nothing left: the Final Scene, then the epilogue.
    s.apply({"type": "accuse", "player": "Oscar", "suspect": "odd"})
    s.apply({"type": "roll", "player": "Oscar", "faces": [2, 4, 6, 1, 4, 3, 5]})
    return s


if __name__ == "__main__":
    print(build().to_jsonl(), end="")
