"""The pad board: the Pi's 40-pin header, one keyed socket per pad, and 18 filtered button lines.

``schematic(pads)`` is the netlist the circuit in ``hardware/wiring.py`` asks for.
``layout(pads)`` is the board a maker solders: a stripboard cut from a common
100 x 160 mm sheet, strips along the rows. Where it lies, from left to right:

- columns 0-3, rows 2-21: the 2x20 shrouded header, odd pins (1, 3, ...) in
  column 1 and even pins in column 2. Every strip under the header is cut
  **between** the two header columns (with a knife: the holes are 2.54 mm apart)
  and spot-faced at column 4, so each header pin has a strip piece of its own;
- columns 5-21: one row per button line, with a 3V3 rail row above or below it
  and a GND rail row on the other side. On each line: the link from its header
  pin (column 6), the pull-up standing between the line and its 3V3 row, the
  100 nF capacitor standing between the line and its GND row, and the series
  resistor lying along the line over a spot-faced hole (columns 12-16). Wire
  links at columns 5 and 6 join the 3V3 rows to each other, and the GND rows;
- columns 23-35: the six JST XH sockets standing in column 30, each pin on a
  strip piece of its own (every row is spot-faced at column 22), a link from
  each pin to its line (pin 1 to a GND row); the display's 2-pin header at the
  bottom.

``as_drawn(pads)`` is the board the guide used to imply: the header on the half-
size Perma-Proto the bill of materials listed. Its 5-hole strips run across the
header's two rows, so pin 1 (3V3) meets pin 2 (5V); the netlist test shows it.
"""

from __future__ import annotations

from hardware.config import PadsConfig
from hardware.wiring import FILTER_NF, HEADER, PULLUP_OHMS, SERIES_OHMS, pad_board_lines

from .netlist import Hole, Layout, Part, Pin, Schematic, perma_proto_half, stripboard

COLUMNS, ROWS = 36, 39          # cut from a 100 x 160 mm stripboard (39 strips of 63 holes)
HEADER_TOP = 2                  # row of header pins 1 and 2
HEADER_ROWS = range(HEADER_TOP, HEADER_TOP + 20)
SOCKET_COLUMN = 30
DISPLAY = "P1"                  # the display's 5 V and GND leads plug onto it


def _line_net(pad: int, colour: str) -> str:
    return f"pad {pad} {colour}"


def schematic(pads: PadsConfig) -> Schematic:
    """Net name -> pins. Header pins carry the Pi's names (3V3, 5V, GND, GPIOn)."""
    nets: Schematic = {}
    for pin, name in HEADER.items():
        nets.setdefault(name, set()).add(("H1", str(pin)))
    nets["5V"].add((DISPLAY, "1"))
    nets["GND"].add((DISPLAY, "2"))
    for line in pad_board_lines(pads):
        gpio = f"GPIO{line.gpio}"
        nets[gpio] |= {(line.series, "1"), (line.pullup, "1"), (line.cap, "1")}
        nets["3V3"].add((line.pullup, "2"))
        nets["GND"] |= {(line.cap, "2"), (line.socket, "1")}
        nets[_line_net(line.pad, line.colour)] = {(line.series, "2"), (line.socket, str(line.socket_pin))}
    return nets


def pi_joins() -> tuple[frozenset[Pin], ...]:
    """The header pins the Pi itself joins (every ground, both 3V3, both 5V): the board need not."""
    groups = []
    for name in ("GND", "3V3", "5V"):
        groups.append(frozenset(("H1", str(p)) for p, n in HEADER.items() if n == name))
    return tuple(groups)


def header_hole(pin: int) -> Hole:
    return (1 if pin % 2 else 2, HEADER_TOP + (pin - 1) // 2)


def header_free_hole(pin: int) -> Hole:
    """The hole on a header pin's own strip piece where its link starts."""
    return (0 if pin % 2 else 3, HEADER_TOP + (pin - 1) // 2)


def line_row(i: int) -> int:
    return 2 + 2 * i


def rail_rows(lines: int) -> tuple[list[int], list[int]]:
    """(3V3 rows, GND rows): the odd rows between and around the line rows, alternating."""
    odd = [1 + 2 * i for i in range(lines + 1)]
    return [r for r in odd if r % 4 == 1], [r for r in odd if r % 4 == 3]


def layout(pads: PadsConfig) -> Layout:
    lines = pad_board_lines(pads)
    assert 2 * len(lines) + 1 < ROWS, "more button lines than the board has rows"
    v33, gnd = rail_rows(len(lines))
    parts: list[Part] = [Part("H1", "header", {str(p): header_hole(p) for p in HEADER}, "2x20 shrouded")]
    wires: list[tuple[Hole, Hole]] = []
    cuts = [((1, r), (2, r)) for r in HEADER_ROWS]
    spots = [(4, r) for r in HEADER_ROWS] + [(22, r) for r in range(1, ROWS - 1)]
    for i, line in enumerate(lines):
        y = line_row(i)
        up_is_3v3 = (y - 1) in v33
        pull_col, cap_col = (8, 10) if i % 2 == 0 else (9, 11)
        pull_to = y - 1 if up_is_3v3 else y + 1
        cap_to = y + 1 if up_is_3v3 else y - 1
        parts.append(Part(line.pullup, "resistor", {"1": (pull_col, y), "2": (pull_col, pull_to)}, f"{PULLUP_OHMS / 1000:g}k"))
        parts.append(Part(line.cap, "capacitor", {"1": (cap_col, y), "2": (cap_col, cap_to)}, f"{FILTER_NF:g}n"))
        parts.append(Part(line.series, "resistor", {"1": (12, y), "2": (16, y)}, f"{SERIES_OHMS / 1000:g}k"))
        spots.append((14, y))
        wires.append((header_free_hole(line.header_pin), (6, y)))
    # the sockets, standing in one column; pin 1 is the top one
    by_socket: dict[str, list] = {}
    for i, line in enumerate(lines):
        by_socket.setdefault(line.socket, []).append((i, line))
    for k, (socket, members) in enumerate(by_socket.items()):
        top = 1 + 6 * k
        parts.append(Part(socket, "socket", {str(p): (SOCKET_COLUMN, top + p - 1) for p in range(1, 5)}, "JST XH 4"))
        wires.append(((24, top), (20, gnd[k % len(gnd)])))
        for i, line in members:
            wires.append(((24, top + line.socket_pin - 1), (17, line_row(i))))
    # rails: links alternate between columns 5 and 6 so no hole takes two
    for rows in (v33, gnd):
        wires += [((5 + k % 2, rows[k]), (5 + k % 2, rows[k + 1])) for k in range(len(rows) - 1)]
    wires.append((header_free_hole(1), (7, v33[0])))                 # 3V3 from header pin 1
    wires.append((header_free_hole(6), (7, gnd[0])))                 # GND from header pin 6
    # the display's leads: 5 V on row 37 (its own strip piece), GND on row 38
    parts.append(Part(DISPLAY, "header", {"1": (SOCKET_COLUMN, ROWS - 2), "2": (SOCKET_COLUMN, ROWS - 1)}, "5V GND"))
    wires.append((header_free_hole(2), (32, ROWS - 2)))
    wires.append(((32, ROWS - 1), (20, gnd[-1])))
    return Layout("pad board", stripboard(COLUMNS, ROWS, "stripboard cut from 100 x 160 mm"), tuple(parts),
                  tuple(wires), tuple(cuts), tuple(spots), pi_joins())


def as_drawn(pads: PadsConfig) -> Layout:
    """Today's pad board as the old guide and BOM implied it: the 2x20 header on a half-size
    Perma-Proto. The header's two rows are 2.54 mm apart, so both land in one 5-hole strip
    (here rows c and d, columns 5-24); the passives and sockets were never drawn."""
    parts = (Part("H1", "header", {str(p): (5 + (p - 1) // 2, 4 + (p + 1) % 2) for p in HEADER}, "2x20 shrouded"),)
    return Layout("pad board as drawn (half-size Perma-Proto)", perma_proto_half(), parts, external=pi_joins())

