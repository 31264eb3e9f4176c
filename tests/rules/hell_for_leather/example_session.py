"""The example session log shipped as examples/hell-for-leather.jsonl.

The playtest group (Daniel and Roger as Goliath, Eoin and Jason as Phoenix)
race to the Royal Palace with a Goal Target of 2. Along the way: a Risk, a
Gain Heat, Help, a Dilemma that ends in a two-star Felony, a Heat that falls
4-5-3 for a Trauma, Hunters shaken off with Merits, a Skill Declaration, two
Goals, and a Finale with rewards, an Attack, Defends, a Ditch and a fatal fall.

Regenerate the file with ``python -m tests.rules.hell_for_leather.example_session``.
"""

from __future__ import annotations

import pathlib

from kiosk.rules import Session
from kiosk.rules.hell_for_leather import ENGINE

from .table import BIOS

PATH = pathlib.Path(__file__).resolve().parents[3] / "examples" / "hell-for-leather.jsonl"

SETUP = {
    "seed": 2009, "players": ["Daniel", "Roger", "Eoin", "Jason"], "team_a": ["Daniel", "Roger"],
    "team_names": ["Goliath", "Phoenix"], "goal_target": 2, "objective": "Royal Palace, Brussels",
    "sources": ["Phoenix Park, Dublin", "Budapest"],
}


def conflict(caller, *dice, narrator=None):
    """A called conflict: each die is (thrower, zone, face)."""
    steps = [{"type": "call_conflict", "player": caller}]
    steps += [{"type": "land", "player": who, "zone": zone, "face": face} for who, zone, face in dice]
    return steps


def count(who):
    return {"type": "count", "player": who}


def risk(who):
    return {"type": "risk", "player": who}


def land(who, zone, face):
    return {"type": "land", "player": who, "zone": zone, "face": face}


def script() -> list[dict]:
    steps: list[dict] = []
    for p in SETUP["players"]:
        name, job, town, h1, h2, why, instinct = BIOS[p]
        steps.append({"type": "contestant", "player": p, "name": name, "vocation": job, "hometown": town,
                      "hobby1": h1, "hobby2": h2, "why": why, "instinct": instinct})
    steps += [
        {"type": "write_goal", "player": "Daniel", "goal": "Use a hostage to get into the palace"},
        {"type": "write_goal", "player": "Jason", "goal": "Assassinate the chief of police"},
        {"type": "write_goal", "player": "Roger", "goal": "Kidnap the consul's twins"},
        {"type": "write_goal", "player": "Eoin", "goal": "Steal a jet from Heathrow"},
    ]
    # 1. Daniel (Goliath): a Pass, then a Risk die that is a Merit: no Felony.
    steps += conflict("Eoin", ("Daniel", "inside", 8)) + [risk("Daniel"), land("Daniel", "inside", 3),
                                                          count("Daniel")]
    # 2. Eoin (Phoenix): off the Target with a 5: Gain Heat.
    steps += conflict("Roger", ("Eoin", "outside", 5)) + [count("Eoin")]
    # 3. Roger calls Daniel for Help; two Merits make a Boon.
    steps += [{"type": "call_conflict", "player": "Jason"},
              {"type": "call_help", "player": "Roger", "allies": ["Daniel"]},
              land("Roger", "inside", 4), land("Daniel", "inside", 2), count("Roger")]
    # 4. Goliath forces a Dilemma on Jason; Phoenix has no VP to refuse. Drive -2 is Shotgun: two dice
    #    at once, off-handed, both Curses. The Risk die is a Pass: a Felony, graded two stars.
    steps += [{"type": "offer_dilemma", "player": "Roger"},
              {"type": "answer_dilemma", "player": "Jason", "answer": "accept"},
              land("Jason", "outside", 3), land("Jason", "touching", 8), risk("Jason"), land("Jason", "inside", 9),
              land("Jason", "inside", 8), land("Jason", "inside", 4),
              count("Jason")]
    # 5. Daniel: a Merit.
    steps += conflict("Jason", ("Daniel", "inside", 1)) + [count("Daniel")]
    # 6. Eoin's die knocks the Heat: 4, 5 and 3 fall, one die stands. 15: a Trauma.
    steps += conflict("Daniel", ("Eoin", "inside", 6)) + [
        {"type": "heat_fall", "player": None, "faces": [4, 5, 3], "thrower": "Eoin", "cause": "throw"}]
    # 7. Roger: a Merit, and Goliath buys its first Goal.
    steps += conflict("Eoin", ("Roger", "inside", 3)) + [count("Roger"),
                                                         {"type": "buy_goal", "player": "Roger", "bonus": "heat"}]
    # Roger bumps the table: the first time is forgiven.
    steps += [{"type": "table_knock", "player": None, "who": "Roger"}]
    # 8. Jason, Felony rank 2: a 7 off the Target is a Curse of 9: Hunters.
    steps += conflict("Daniel", ("Jason", "outside", 7)) + [count("Jason")]
    # 9. Daniel: a Merit.
    steps += conflict("Eoin", ("Daniel", "inside", 5)) + [count("Daniel")]
    # 10. Eoin, off-handed now: a Merit crosses off a Hunter Mark, but no VP.
    steps += conflict("Roger", ("Eoin", "inside", 2)) + [count("Eoin")]
    # 11. Roger: a Pass.
    steps += conflict("Jason", ("Roger", "inside", 9)) + [count("Roger")]
    # 12. Jason declares he can defuse bombs, and can.
    steps += [{"type": "declare_skill", "player": "Jason", "skill": "Defusing bombs"},
              land("Jason", "inside", 1), count("Jason")]
    # 13. Daniel: a Merit, the second Goal, and the Objective.
    steps += conflict("Eoin", ("Daniel", "inside", 4)) + [count("Daniel"),
                                                          {"type": "buy_goal", "player": "Daniel", "bonus": "heat"}]
    # The Finale: two rewards for Goliath.
    steps += [{"type": "reward", "player": "Daniel", "use": "trauma:Jason"},
              {"type": "reward", "player": "Daniel", "use": "heat"}]
    steps += [{"type": "entrance", "player": p} for p in ("Daniel", "Roger", "Eoin", "Jason")]
    # Round 1. Daniel Attacks Eoin; his second die knocks the first onto a 5.
    steps += [{"type": "take_cup", "player": "Daniel", "target": "Eoin"},
              land("Daniel", "inside", 9), land("Daniel", "inside", 3),
              {"type": "correct", "player": None, "die": 1, "zone": "inside", "face": 5}, count("Daniel")]
    # Eoin Defends: one die, then Risks until Phoenix is ahead.
    steps += [{"type": "intent", "player": "Eoin", "choice": "defend"}, land("Eoin", "inside", 7),
              risk("Eoin"), land("Eoin", "inside", 2), risk("Eoin"), land("Eoin", "inside", 8), risk("Eoin"),
              land("Eoin", "inside", 1), count("Eoin")]
    # The cup moves to Roger, who Defends.
    steps += [{"type": "intent", "player": "Roger", "choice": "defend"}, land("Roger", "inside", 1),
              land("Roger", "inside", 5), count("Roger")]
    # The cup moves to Jason, who Ditches: Eoin dies.
    steps += [{"type": "intent", "player": "Jason", "choice": "ditch"}]
    # Round 2. Daniel Attacks Jason; Jason Defends, Risks twice, and the Heat comes down.
    steps += [{"type": "take_cup", "player": "Daniel", "target": "Jason"},
              land("Daniel", "inside", 2), land("Daniel", "outside", 4), count("Daniel"),
              {"type": "intent", "player": "Jason", "choice": "defend"}, land("Jason", "inside", 6),
              risk("Jason"), land("Jason", "touching", 3), risk("Jason"),
              {"type": "heat_fall", "player": None, "faces": [2, 6], "thrower": "Jason", "cause": "throw"}]
    steps += [{"type": "epilogue", "player": p} for p in ("Daniel", "Roger")]
    return steps


def build() -> Session:
    session = Session(ENGINE, SETUP)
    for step in script():
        session.apply(step)
    return session


if __name__ == "__main__":
    PATH.write_text(build().to_jsonl())
    print(f"wrote {PATH}")
