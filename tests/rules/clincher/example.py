"""The scripted session behind ``examples/clincher.jsonl``.

Two procedural scenes with a GM and three players: a tail job in the freight
yard and a theft at a masquerade. The players react to the cards the seeded
deck deals them, so the script decides as a table would: redraw a down card
while someone can pay, step back once the card turns up.
Regenerate with ``python -m tests.rules.clincher.example > examples/clincher.jsonl``.
"""

from __future__ import annotations

from kiosk.rules import Session
from kiosk.rules.clincher import ENGINE, is_up

SETUP = {
    "gm": "Mara",
    "players": [{"name": "Theo", "character": "Sergeant Okafor"}, {"name": "Lena", "character": "Iris Vance"},
                {"name": "Jun", "character": "Doc Halloran"}],
    "precedence": "gm_orders",
    "seed": 347,
}


def card_is_up(s: Session) -> bool:
    scene = s.state.scene
    return scene is not None and is_up(scene.active, scene.up_suits)


def build() -> Session:
    s = Session(ENGINE, SETUP)
    # Scene 1: Theo calls a scene for his own character.
    s.apply({"type": "call_scene", "player": "Theo", "location": "the freight yard at midnight",
             "objective": "Okafor tails the smuggler's truck on foot without being seen",
             "present": ["Theo", "Lena"], "primary": "Theo"})
    s.apply({"type": "difficulty", "player": "Mara", "token": "yellow"})
    s.apply({"type": "act", "player": "Theo", "ability": "strong"})
    if not card_is_up(s):
        s.apply({"type": "request", "player": "Theo"})
        s.apply({"type": "redraw", "player": "Theo", "means": "red"})
    if s.state.scene and not card_is_up(s):
        s.apply({"type": "request", "player": "Jun"})
        s.apply({"type": "redraw", "player": "Jun", "means": "green",
                 "detail": "a freight train rolls between Okafor and the lookout"})
    if s.state.scene:
        s.apply({"type": "stand", "player": "Mara"})
    # Scene 2: the GM calls it; two players press at once and the GM sets the order.
    s.apply({"type": "call_scene", "player": "Mara", "location": "the mayor's masquerade",
             "objective": "Iris lifts the ledger from the study safe before midnight",
             "present": ["Lena", "Jun"], "primary": "Lena"})
    s.apply({"type": "difficulty", "player": "Mara", "token": "green"})
    s.apply({"type": "act", "player": "Lena", "ability": "middling"})
    if s.state.scene and not card_is_up(s):
        s.apply({"type": "request", "player": "Lena"})
        s.apply({"type": "request", "player": "Jun"})
        s.apply({"type": "set_order", "player": "Mara", "order": ["Jun", "Lena"]})
        s.apply({"type": "redraw", "player": "Jun", "means": "green" if s.state.tokens["Jun"]["green"] else "red"})
        if card_is_up(s):
            s.apply({"type": "withdraw", "player": "Lena"})
        elif s.state.scene:
            s.apply({"type": "redraw", "player": "Lena", "means": "yellow"})
    if s.state.scene:
        s.apply({"type": "stand", "player": "Mara"})
    # Scene 3: whoever earned a good turn cashes it in when the card goes against them.
    lucky = next((c.player for c in s.state.consequences if c.good), None)
    if lucky:
        s.apply({"type": "call_scene", "player": lucky, "location": "the hospital basement",
                 "objective": f"{s.state.characters[lucky]} gets the wounded courier talking before the police arrive",
                 "present": [lucky], "primary": lucky})
        s.apply({"type": "difficulty", "player": "Mara", "token": "red"})
        s.apply({"type": "act", "player": lucky, "ability": "weak"})
        if s.state.scene and not card_is_up(s):
            s.apply({"type": "request", "player": lucky})
            s.apply({"type": "redraw", "player": lucky, "means": "consequence"})
        if s.state.scene:
            s.apply({"type": "stand", "player": "Mara"})
    s.apply({"type": "end_session", "player": "Mara"})
    return s


if __name__ == "__main__":
    print(build().to_jsonl(), end="")
