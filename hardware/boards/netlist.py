"""Boards as data, their nets computed from the copper, and the check against a schematic.

A hole is ``(column, row)`` counted from 0 at the top left, seen from the
component side. A **stock** board says which neighbouring holes its copper joins
(a stripboard joins each row end to end; a half-size Perma-Proto joins each
column's five holes a-e and f-j, and runs four rails). A **layout** adds what the
maker does to it: **cuts** (the copper between two neighbouring holes broken; a
spot-face cut at a hole breaks both sides and leaves the hole unused), **parts**
(a designator and the hole of each pin) and **wires** (insulated links between
two holes). ``nets(layout)`` is then a union-find over the holes, and
``problems(layout, schematic)`` names every difference from the schematic:

- two schematic nets joined on the board (a short),
- one schematic net split into pieces (an open),
- a pin the schematic names that the layout does not place,
- two leads in one hole, or a lead in a hole whose copper was drilled away.

``external`` joins are what lies off the board and joins its pins anyway (the Pi
joins its header's ground pins, say), so the board need not wire each one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

Hole = tuple[int, int]
Pin = tuple[str, str]          # (designator, pin name), e.g. ("R1", "1"), ("H1", "17")
Link = tuple[Hole, Hole]


@dataclass(frozen=True)
class Stock:
    """A bare board: its size in holes and the copper between neighbouring holes."""
    name: str
    columns: int
    rows: int
    copper: frozenset[frozenset[Hole]]     # pairs of neighbouring holes joined by copper
    strips: str = "rows"                   # how to draw it: "rows" (stripboard), "perma-proto"

    def holes(self) -> Iterable[Hole]:
        return ((c, r) for r in range(self.rows) for c in range(self.columns))


def stripboard(columns: int, rows: int, name: str = "stripboard") -> Stock:
    """Copper strips along each row, the whole width of the board."""
    copper = frozenset(frozenset({(c, r), (c + 1, r)}) for r in range(rows) for c in range(columns - 1))
    return Stock(f"{name}, {rows} strips x {columns} holes", columns, rows, copper, "rows")


PERMA_PROTO_RAILS = (0, 1, 12, 13)     # rows of the four rails; rows 2-6 are a-e, 7-11 are f-j


def perma_proto_half() -> Stock:
    """Adafruit's half-size Perma-Proto (1609): 30 columns of two 5-hole strips, four full-length rails."""
    links: set[frozenset[Hole]] = set()
    for c in range(30):
        for first in (2, 7):
            links |= {frozenset({(c, r), (c, r + 1)}) for r in range(first, first + 4)}
    for r in PERMA_PROTO_RAILS:
        links |= {frozenset({(c, r), (c + 1, r)}) for c in range(29)}
    return Stock("half-size Perma-Proto (breadboard-style 5-hole strips)", 30, 14, frozenset(links), "perma-proto")


@dataclass(frozen=True)
class Part:
    """A placed part: designator, what it is, and the hole of each pin."""
    ref: str
    kind: str                     # "resistor", "capacitor", "diode", "header", "socket", "pads"
    pins: dict[str, Hole]
    value: str = ""


@dataclass(frozen=True)
class Layout:
    name: str
    stock: Stock
    parts: tuple[Part, ...]
    wires: tuple[Link, ...] = ()
    cuts: tuple[Link, ...] = ()               # copper broken between two neighbouring holes
    spots: tuple[Hole, ...] = ()              # holes spot-faced: copper on both sides broken, hole unused
    external: tuple[frozenset[Pin], ...] = ()  # pins joined off the board
    notes: tuple[str, ...] = field(default=())

    def broken(self) -> set[frozenset[Hole]]:
        gone = {frozenset(cut) for cut in self.cuts}
        for c, r in self.spots:
            gone |= {frozenset({(c, r), (c - 1, r)}), frozenset({(c, r), (c + 1, r)}),
                     frozenset({(c, r), (c, r - 1)}), frozenset({(c, r), (c, r + 1)})}
        return gone


class _Union:
    def __init__(self) -> None:
        self.parent: dict[object, object] = {}

    def find(self, x: object) -> object:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def join(self, a: object, b: object) -> None:
        self.parent[self.find(a)] = self.find(b)


def nets(layout: Layout) -> list[set[Pin]]:
    """The board's nets: each a set of part pins joined by copper, wires or external joins."""
    union = _Union()
    broken = layout.broken()
    for link in layout.stock.copper - broken:
        a, b = tuple(link)
        union.join(a, b)
    for a, b in layout.wires:
        union.join(a, b)
    for part in layout.parts:
        for name, hole in part.pins.items():
            union.join((part.ref, name), hole)
    for group in layout.external:
        first, *rest = sorted(group)
        for pin in rest:
            union.join(first, pin)
    groups: dict[object, set[Pin]] = {}
    for part in layout.parts:
        for name in part.pins:
            groups.setdefault(union.find((part.ref, name)), set()).add((part.ref, name))
    return list(groups.values())


Schematic = dict[str, set[Pin]]     # net name -> the pins on it


def problems(layout: Layout, schematic: Schematic) -> list[str]:
    """Every way the layout's nets differ from the schematic's, as sentences (empty: they agree)."""
    found: list[str] = []
    net_of = {pin: name for name, pins in schematic.items() for pin in pins}
    placed = {(p.ref, name) for p in layout.parts for name in p.pins}
    for pin in sorted(set(net_of) - placed):
        found.append(f"{pin[0]} pin {pin[1]} (net {net_of[pin]}) is not on the board")
    found += _hole_problems(layout)
    board = nets(layout)
    for net in board:
        names = sorted({net_of[pin] for pin in net if pin in net_of})
        if len(names) > 1:
            found.append("short: " + " and ".join(names) + " are joined (" + ", ".join(f"{r}.{p}" for r, p in sorted(net)[:6]) + ")")
    for name, pins in schematic.items():
        pieces = [net & pins for net in board if net & pins]
        if len(pieces) > 1:
            found.append(f"open: net {name} is in {len(pieces)} pieces: "
                         + " | ".join(", ".join(f"{r}.{p}" for r, p in sorted(piece)[:4]) for piece in pieces))
    return found


def _hole_problems(layout: Layout) -> list[str]:
    found = []
    used: dict[Hole, str] = {}
    leads = [(f"{p.ref}.{name}", hole) for p in layout.parts for name, hole in p.pins.items()]
    leads += [(f"wire {a}-{b}", end) for a, b in layout.wires for end in (a, b)]
    for what, hole in leads:
        c, r = hole
        if not (0 <= c < layout.stock.columns and 0 <= r < layout.stock.rows):
            found.append(f"{what} is off the board at {hole}")
        elif hole in used:
            found.append(f"{what} and {used[hole]} share hole {hole}")
        elif hole in layout.spots:
            found.append(f"{what} sits in hole {hole}, which is cut away")
        used.setdefault(hole, what)
    return found


def net_names(layout: Layout, schematic: Schematic) -> dict[Hole, str]:
    """For a drawing: each hole with copper that reaches a schematic net, and that net's name."""
    union = _Union()
    for link in layout.stock.copper - layout.broken():
        a, b = tuple(link)
        union.join(a, b)
    for a, b in layout.wires:
        union.join(a, b)
    names: dict[object, str] = {}
    net_of = {pin: name for name, pins in schematic.items() for pin in pins}
    for part in layout.parts:
        for pin, hole in part.pins.items():
            if (part.ref, pin) in net_of:
                names.setdefault(union.find(hole), net_of[(part.ref, pin)])
    return {hole: names[union.find(hole)] for hole in layout.stock.holes() if union.find(hole) in names}
