"""The numbers of Hell for Leather: landings, results, the Curse chart, Drive and Heat.

Everything here is a pure function of small values, so each rule can be read
(and tested) on its own. Page references are to the playtest text (v0.9).
"""

from __future__ import annotations

from typing import Iterable

# Conflict results, best last so ``max`` picks the best one.
CURSE, PASS, MERIT, BOON = 0, 1, 2, 3
RESULT_NAMES = {CURSE: "Curse", PASS: "Pass", MERIT: "Merit", BOON: "Boon"}

ZONES = ["inside", "touching", "outside"]
FACES = list(range(10))  # a d10 face; 0 reads as 10 where a number is needed
HEAT_FACES = [1, 2, 3, 4, 5, 6]

HEAT_FLOOR = 2
HEAT_START = 2
FINALE_HEAT = 3
GAUNTLET_HEAT = 5
HUNTER_MARKS = 3
GOAL_PRICE = 5
STANDING_DIE_COUNTS = 3  # each die still standing after a partial fall

# The Drive track, healthiest first. A contestant's position on it is how many
# circles are crossed out.
DRIVE_LEVELS = ["Drive 1", "Off-Hand", "Shotgun", "Drive 0", "R.I.P."]
OFF_HAND, SHOTGUN, DRIVE_ZERO, RIP = 1, 2, 3, 4


def d10_number(face: int) -> int:
    """The number a d10 face stands for when it is counted: 0 is 10."""
    return 10 if face == 0 else face


def landing_result(zone: str, face: int) -> int:
    """One die: off the Target or on its line is a Curse; inside, 1-5 a Merit, 6-9 and 0 a Pass."""
    if zone != "inside":
        return CURSE
    return MERIT if 1 <= face <= 5 else PASS


def read_face(face: int, caught: int | None) -> int:
    """A die leaning on the Heat between two faces counts the lower number (0 counts as 10)."""
    if caught is None:
        return face
    return min(face, caught, key=d10_number)


def best_result(results: Iterable[int], boons: bool = True) -> int:
    """Only the best result counts; two Merits together make a Boon."""
    merits = 0
    best = CURSE
    for r in results:
        if r == MERIT:
            merits += 1
        if r > best:
            best = r
    if merits >= 2 and boons:
        return BOON
    return best


def lowest_curse(faces: Iterable[int]) -> int:
    """With several Curse dice, the lowest number decides the Curse."""
    return min(d10_number(f) for f in faces)


def heat_fall_score(fallen_faces: Iterable[int], standing: int) -> int:
    """A fallen Heat scores its fallen faces plus 3 for each die still standing."""
    return sum(fallen_faces) + STANDING_DIE_COUNTS * standing


def curse_effects(score: int) -> list[str]:
    """What a Curse of ``score`` does (Felony rank already added).

    1-3 Fail, 4-7 Gain Heat, 8-11 Hunters, 12 Trauma. Above 12 the remainder
    is read again on the excess chart (1-7 nothing more, 8-11 Hunters, 12 and
    up a Trauma, whose own remainder is read again).
    """
    if score <= 3:
        return ["fail"]
    if score <= 7:
        return ["gain_heat"]
    if score <= 11:
        return ["hunters"]
    effects = ["trauma"]
    rest = score - 12
    while rest >= 8:
        if rest >= 12:
            effects.append("trauma")
            rest -= 12
        else:
            effects.append("hunters")
            rest = 0
    return effects


def drive_dice(position: int) -> int:
    """How many d10 a position on the Drive track throws.

    Positions below 0 come from Finale bonuses: each level above Drive 1 is one
    more die (Drive 2 throws two).
    """
    if position <= 0:
        return 1 - position
    if position == OFF_HAND:
        return 1
    if position == SHOTGUN:
        return 2
    return 0


def drive_name(position: int) -> str:
    if position < 0:
        return f"Drive {1 - position}"
    return DRIVE_LEVELS[min(position, RIP)]


def throw_style(position: int) -> str:
    """How the dice of a Drive position are thrown, for the prompt."""
    if position == OFF_HAND:
        return "with your off hand"
    if position == SHOTGUN:
        return "both at once, with your off hand"
    return ""


def heat_status(height: int) -> str:
    """The Heat as a narration cue."""
    if height <= 3:
        return "Quiet"
    if height <= 5:
        return "Busy"
    if height <= 7:
        return "Saturated"
    return "Panic"


HEAT_CUES = {
    "Quiet": "few people know your faces; buses and airlines are still safe",
    "Busy": "you are on the news and people will sell you out for a prize",
    "Saturated": "every channel shows you; ordinary people may try to grab you",
    "Panic": "helicopters, roadblocks and gunfire from nowhere; the whole world hunts you",
}

# Appendix A: a chart to draw Goals from when a table runs dry.
GOAL_CHART = [
    "Assassinate", "Become shame of the nation", "Break into a high-security facility",
    "Break out of a high-security facility", "Demolish a government building", "Face darkest fear",
    "Face your past", "Get a body count of 10", "Get a body count of 50",
    "Get a body count of... no, please", "Harm the innocent", "Hijack a jet", "Hurt your own family",
    "Impersonate a well known politician", "Kidnap", "Make a politician feel 'touchable'",
    "Rescue a kidnapped victim", "Save a political figure's life", "Start a gang war", "Start a riot",
    "Steal a government secret weapon", "Stop a terrorist threat", "Torture",
]

INSTINCTS = ["Coward", "Traitor", "Wretch"]

INSTINCT_CUES = {
    "Coward": "they win through fear: retreat, grovelling, desperation",
    "Traitor": "they win by selling out an ally",
    "Wretch": "they win with added cruelty, greed or spite",
}

FELONY_CUES = {
    1: "bloody harm: a brutal beating, a mangling, a killing that may be an accident",
    2: "a deliberate murder of someone in the way",
    3: "a massacre: many die, horribly, on purpose",
}

# Appendix B: which exam ranks make up each team.
EXAM_TEAMS = {
    4: ([1, 4], [2, 3]),
    5: ([1, 4], [2, 3, 5]),
    6: ([1, 3, 6], [2, 4, 5]),
}
