"""Who gets what from the pot when the cards of a challenge turn over.

The tables below are the Encounter Challenge Reference Card, entry by entry,
so a reader can hold this file next to the card. ``ALL`` takes the whole pot,
``HALF`` takes the pot halved and rounded down, ``NONE`` takes nothing; any
token nobody takes goes to the discard pile.
"""

from __future__ import annotations

from .model import BLACK as B, GRAY as G, WHITE as W

ALL, HALF, NONE = "all", "half", "none"

TWO_PLAYER: dict[tuple[str, str], tuple[str, str]] = {
    # both extremes: split
    (B, W): (HALF, HALF),
    (W, B): (HALF, HALF),
    # the same extreme: both lose
    (B, B): (NONE, NONE),
    (W, W): (NONE, NONE),
    # one Gray steals everything
    (G, B): (ALL, NONE),
    (G, W): (ALL, NONE),
    (B, G): (NONE, ALL),
    (W, G): (NONE, ALL),
    # two Grays: both lose
    (G, G): (NONE, NONE),
}

THREE_PLAYER: dict[tuple[str, str, str], tuple[str, str, str]] = {
    # (challenger, target, Third Man)
    # three of a kind: everyone loses
    (B, B, B): (NONE, NONE, NONE),
    (W, W, W): (NONE, NONE, NONE),
    (G, G, G): (NONE, NONE, NONE),
    # a pair of one extreme, odd man out with the other extreme: he wins half
    (B, B, W): (NONE, NONE, HALF),
    (W, W, B): (NONE, NONE, HALF),
    (B, W, B): (NONE, HALF, NONE),
    (W, B, W): (NONE, HALF, NONE),
    (W, B, B): (HALF, NONE, NONE),
    (B, W, W): (HALF, NONE, NONE),
    # a pair of extremes, odd man out with Gray: he steals all
    (B, B, G): (NONE, NONE, ALL),
    (W, W, G): (NONE, NONE, ALL),
    (B, G, B): (NONE, ALL, NONE),
    (W, G, W): (NONE, ALL, NONE),
    (G, B, B): (ALL, NONE, NONE),
    (G, W, W): (ALL, NONE, NONE),
    # all three differ, a challenger steals: the Third Man loses
    (B, G, W): (NONE, ALL, NONE),
    (W, G, B): (NONE, ALL, NONE),
    (G, B, W): (ALL, NONE, NONE),
    (G, W, B): (ALL, NONE, NONE),
    # all three differ, the Third Man steals while the challengers split: he loses
    (B, W, G): (HALF, HALF, NONE),
    (W, B, G): (HALF, HALF, NONE),
    # a challenger steals and so does the Third Man: those two split
    (B, G, G): (NONE, HALF, HALF),
    (W, G, G): (NONE, HALF, HALF),
    (G, B, G): (HALF, NONE, HALF),
    (G, W, G): (HALF, NONE, HALF),
    # both challengers steal, the Third Man plays an extreme: not on the card,
    # see docs/rules/promise-hollows.md (option third_man_vs_two_stealers)
    (G, G, B): (NONE, NONE, HALF),
    (G, G, W): (NONE, NONE, HALF),
}

ALL_LOSE_VARIANT = {(G, G, B): (NONE, NONE, NONE), (G, G, W): (NONE, NONE, NONE)}


def shares(cards: list[str], two_stealers: str = "odd-man-half") -> tuple[str, ...]:
    """The share (ALL / HALF / NONE) of each card, in the order given.

    ``cards`` is [challenger, target] or [challenger, target, Third Man].
    """
    if len(cards) == 2:
        return TWO_PLAYER[(cards[0], cards[1])]
    key = (cards[0], cards[1], cards[2])
    if two_stealers == "all-lose" and key in ALL_LOSE_VARIANT:
        return ALL_LOSE_VARIANT[key]
    return THREE_PLAYER[key]


def pay(pot: int, parts: tuple[str, ...]) -> tuple[list[int], int]:
    """Color paid to each share and the Color discarded (lost and odd tokens)."""
    paid = [pot if s == ALL else pot // 2 if s == HALF else 0 for s in parts]
    return paid, pot - sum(paid)
