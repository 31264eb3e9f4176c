"""Small helpers that put counts, names and changes into words for the screen.

They live apart from ``kiosk.rules.core`` so that a screen which only needs to
say "12 moves" (the kiosk's home screen, before its first frame) does not pay
for importing the rules core and pydantic. The core re-exports them, so engines
keep importing them from there.
"""

from __future__ import annotations


def plural(n: int, one: str, many: str | None = None) -> str:
    """'1 point', '3 points': a count with its noun, never 'point(s)' on a screen."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def dice_count(n: int) -> str:
    """'1 die', '4 dice': a count of dice in words."""
    return plural(n, "die", "dice")


def stack_words(dice: int | None) -> str:
    """The Heat stack the tray reads, in words: '1 die', '3 dice', or 'not read yet'."""
    return "not read yet" if dice is None else dice_count(dice)


def names_and(names: list[str]) -> str:
    """'Bo', 'Bo and Cy', 'Ann, Bo and Cy': names as a sentence lists them."""
    return names[-1] if len(names) < 2 else ", ".join(names[:-1]) + " and " + names[-1]


def possessive(name: object) -> str:
    """'Bo's', 'Iron Widows'': a name's possessive as a reader expects it, never 'Widows's'."""
    text = str(name)
    return f"{text}'" if text.endswith("s") else f"{text}'s"


def change(before: object, after: object) -> str:
    """'from 2 to 3': how a number or a level moved, in words (never '2 -> 3' on a screen)."""
    return f"from {before} to {after}"
