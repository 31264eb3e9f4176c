"""The table's circuit boards as data: the bare board, its cuts, the parts on it and the wires.

A maker solders what a drawing shows; a drawing can be wrong in ways no eye
catches (a 2x20 header across a breadboard-style strip joins pin 1 to pin 2).
So every board here is described hole by hole (``netlist.Layout``), its nets
are computed from the copper, the cuts, the parts' pins and the wires, and a
test compares them with the schematic's netlist: no two nets joined, none split,
no pin missing. The guide's layout pictures are drawn from the same data
(``draw.py``), so the picture a maker follows is the board the test checked.

- ``netlist.py``: stock boards (stripboard, breadboard-style Perma-Proto), layouts, nets, the comparison
- ``pad_board.py``: the pad board (the Pi's header, six pad sockets, 18 button lines), and today's
  "as drawn" half-size Perma-Proto kept as the counter-example
- ``piezo_board.py``: the tray's piezo board (three channels, each diode's orientation)
- ``draw.py``: a PNG of a layout for the build guide
"""
