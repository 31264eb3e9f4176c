"""The tray's piezo board: three input channels for the tray's analog pins.

Each channel: the piezo's red lead to its own strip; 1 MΩ from there to GND
(bleeds the disc's charge); 10 kΩ from there to the channel's ADC strip (limits
the current); on the ADC strip two Schottky diodes, one with its **anode on GND
and its band (cathode) on the ADC strip**, one with its **anode on the ADC strip
and its band on 3V3**. Turned round, either diode conducts all the time and
clips the signal to a few hundred millivolts, under the impact threshold: the
bench test would then blame the piezo. The layout below is drawn with each
band where it belongs, and the netlist test checks the pins by name (A, K).

A stripboard 8 strips by 16 holes (41 x 21 mm), strips along the rows, no cuts:

    row 0  3V3        row 4-6  piezo 1-3 (red leads)
    row 1-3  A0-A2    row 7    GND (black leads)

every part stands across the strips it joins, one column each.
"""

from __future__ import annotations

from .netlist import Layout, Part, Schematic, stripboard

CHANNELS = 3
ANALOG = ("A0", "A1", "A2")           # the QT Py's pins (a Pico: GP26, GP27, GP28)
COLUMNS, ROWS = 16, 8
V33_ROW, GND_ROW = 0, 7
# The cut board as it lies in its pocket under the tray's floor (enclosure/scad/tray.scad, piezo_board_pocket):
# 16 x 8 holes at 2.54 mm plus the cut edges, and how far it stands from its underside to the top of its
# tallest part (1.6 mm board, the 1N5817s lying down, the solder under it).
OUTLINE_MM = (41.0, 21.0)
HEIGHT_MM = 6.0


def schematic() -> Schematic:
    nets: Schematic = {"3V3": {("OUT", "3V3")}, "GND": {("OUT", "GND")}}
    for n in range(CHANNELS):
        adc, piezo = ANALOG[n], f"piezo {n + 1}"
        nets[adc] = {(f"R{n + 1}", "2"), (f"D{2 * n + 1}", "K"), (f"D{2 * n + 2}", "A"), ("OUT", adc)}
        nets[piezo] = {(f"R{n + 1}", "1"), (f"R{n + 4}", "1"), (f"PZ{n + 1}", "+")}
        nets["GND"] |= {(f"R{n + 4}", "2"), (f"D{2 * n + 1}", "A"), (f"PZ{n + 1}", "-")}
        nets["3V3"].add((f"D{2 * n + 2}", "K"))
    return nets


def layout() -> Layout:
    parts = []
    for n in range(CHANNELS):
        col, adc_row, piezo_row = 5 * n, 1 + n, 4 + n
        parts += [
            Part(f"R{n + 1}", "resistor", {"1": (col, piezo_row), "2": (col, adc_row)}, "10k"),
            Part(f"R{n + 4}", "resistor", {"1": (col + 1, piezo_row), "2": (col + 1, GND_ROW)}, "1M"),
            Part(f"D{2 * n + 1}", "diode", {"A": (col + 2, GND_ROW), "K": (col + 2, adc_row)}, "1N5817"),
            Part(f"D{2 * n + 2}", "diode", {"A": (col + 3, adc_row), "K": (col + 3, V33_ROW)}, "1N5817"),
            Part(f"PZ{n + 1}", "pads", {"+": (col + 4, piezo_row), "-": (col + 4, GND_ROW)}, f"piezo {n + 1}"),
        ]
    out = {"3V3": (15, V33_ROW), "GND": (15, GND_ROW)} | {ANALOG[n]: (15, 1 + n) for n in range(CHANNELS)}
    parts.append(Part("OUT", "pads", out, "to the QT Py"))
    return Layout("piezo board", stripboard(COLUMNS, ROWS, "stripboard"), tuple(parts))
