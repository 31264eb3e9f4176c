"""The build guide: one Markdown page and a printable PDF, generated from the repo.

    python -m enclosure.guide              # pictures, docs/build/guide.md and docs/build/guide.pdf
    python -m enclosure.guide --no-pictures  # text only (keeps the pictures already in docs/build/img)

Everything a maker needs, in order: tools, what to print and how (the slicer's
times from ``docs/build/print_times.toml``), each assembly step with a picture
rendered from the models, the wiring of every connector (generated from
``table-noir.toml`` by ``hardware/wiring.py``), the bench test of the sensing
before anything is glued, and a first power-on checklist. The guide is built
from one list of blocks, so the Markdown and the PDF say the same thing.

The PDF needs reportlab (in the project's ``dev`` extra); pictures need
OpenSCAD and a display or xvfb-run, like ``python -m enclosure.build --png``.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from hardware import wiring
from hardware.config import Config, load_config

from . import bought
from .bom import ROOT, load_bom

DOCS = ROOT / "docs" / "build"
IMG = DOCS / "img"
MARKDOWN = DOCS / "guide.md"
PDF = DOCS / "guide.pdf"
TIMES = DOCS / "print_times.toml"


# ---- blocks --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 2


@dataclass(frozen=True)
class Para:
    text: str           # plain text with `code` and **bold**


@dataclass(frozen=True)
class Items:
    items: tuple[str, ...]
    numbered: bool = False


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Picture:
    name: str           # docs/build/img/<name>.png
    caption: str
    wide: bool = False  # the page's full width (board layouts, so their labels stay over 9 pt)


@dataclass(frozen=True)
class Code:
    text: str


Block = Heading | Para | Items | Table | Picture | Code


# The pictures: (name, part to render, its .scad file, camera "rx,ry,rz" or "" for OpenSCAD's default).
PICTURES = (
    ("tray_underside", "tray_whole", "tray.scad", "215,0,20"),
    ("tray_mcu", "tray_quarter_mcu", "tray.scad", "235,0,335"),
    ("arm", "arm_assembly", "arm.scad", ""),
    ("head", "arm_head", "arm.scad", "40,0,330"),
    ("pad", "pad_assembly", "pad.scad", "70,0,20"),
    ("pad_open", "pad_assembly_open", "pad.scad", "235,0,30"),
    ("screen_open", "screen_open", "screen.scad", "60,0,20"),
    ("screen_back", "screen_back", "screen.scad", ""),
    ("table", "table_assembly", "assembly.scad", ""),
)

# Pictures with the bought parts in colour and labelled: OpenSCAD draws the .scad part itself (an STL has no colours).
COLOUR_PICTURES = (
    ("weighing", "weighing_callouts", "plinth.scad", "60,0,30"),
    ("screen_parts", "screen_callouts", "screen.scad", "60,0,20"),
    ("pad_parts", "pad_callouts", "pad.scad", "235,0,30"),
    ("tray_parts", "tray_callouts", "tray.scad", "235,0,335"),
    ("head_parts", "head_callouts", "arm.scad", "40,0,330"),
)

# Pictures drawn by Python, not OpenSCAD: the board layouts (hardware/boards/draw.py).
BOARD_PICTURES = ("pad_board_layout", "piezo_board_layout", "piezo_circuit", "button_circuit", "cell_circuit")
# The harnesses, drawn by WireViz from hardware/wiring.py's data (hardware/boards/harnesses.py): a picture per cable.


def harness_pictures(config: Config) -> list[str]:
    return [h.name for h in wiring.harnesses(config.pads)]

ORIENTATION = {
    "tray_quarter": "skirt down, 5 mm brim", "tray_quarter_mcu": "skirt down, 5 mm brim",
    "arm_foot": "socket up", "arm_post": "on a side", "arm_joiner": "standing",
    "arm_boom": "upside down, across the bed, 5 mm brim", "pad_body": "on its back", "pad_base": "pegs up",
    "screen_shell": "face down", "screen_back": "posts up", "screen_stand": "flat",
    "plinth": "top down, stem up", "cell_adapter": "top down", "cell_base": "flat",
}


def print_times() -> dict[str, dict]:
    if not TIMES.exists():
        return {}
    return tomllib.loads(TIMES.read_text())


def _hours(minutes: float) -> str:
    return f"{int(minutes // 60)} h {int(minutes % 60):02d} min"


def print_table(config: Config) -> tuple[Table, float, float]:
    """What to print, how it lies and the slicer's time and filament; and the totals."""
    times = print_times()
    rows, minutes, grams = [], 0.0, 0.0
    for name, orientation in ORIENTATION.items():
        t = times.get(name, {})
        count = len(config.pads.pins) if name.startswith("pad_") else int(t.get("count", 1))
        infill = f"{t['infill']:.0%}" if "infill" in t else "-"
        each_min, each_g = t.get("minutes"), t.get("grams")
        rows.append((f"`{name}`", str(count), orientation, infill,
                     _hours(each_min) if each_min else "-", f"{each_g:.0f} g" if each_g else "-"))
        minutes += (each_min or 0) * count
        grams += (each_g or 0) * count
    header = ("part", "print", "how it lies", "infill", "time each", "filament each")
    return Table(header, tuple(rows)), minutes, grams


def wiring_blocks(config: Config) -> list[Block]:
    pads = config.pads
    return [
        Heading("The pad board and the pads' sockets", 3),
        Para("The pad board is a stripboard, not a breadboard-style board: on a Perma-Proto's 5-hole strips a 2x20 "
             "header would join pin 1 (3V3) to pin 2 (5V) and GPIO2 to 5V. Cut the board 36 holes long from a "
             "100 x 160 mm sheet. First the cuts: with a knife, cut the copper **between** the header's two rows "
             "on all 20 strips under it (red bars), and spot-face every hole marked with a red cross. Check each "
             "cut with the multimeter before soldering. Then the wire links (blue), the standing pull-ups "
             "(4.7 kΩ) and capacitors (100 nF), the series resistors (1 kΩ) lying along their lines, the header "
             "(pin 1, the square pad, top left) and the six sockets (pin 1 at the top). The layout is drawn from "
             "the data `tests/enclosure/test_boards.py` checks net by net against the circuit."),
        Picture("pad_board_layout", "The pad board, component side: strips, cuts (red), links (blue), parts, "
                "and each strip's net on the right.", wide=True),
        Para("Every button line is the same:"),
        Picture("button_circuit", "One button line on the pad board (all eighteen are the same).", wide=True),
        Code(wiring.line_diagram()),
        Table(*_md_table(wiring.connector_table(pads))),
        Para("Crimp each pad's cable into its XH plug in the same order: pin 1 the ground wire (both buttons' "
             "common), pins 2, 3 and 4 Black, White and Gray. Mark the plug with its pad number."),
        *(Picture(h.name, f"Pad {h.name.removeprefix('harness_pad')}'s cable, from its buttons to its plug on the pad "
                  "board (pin 1 the buttons' common ground), with the GPIO each line reaches through the ribbon.", wide=True)
          for h in wiring.pad_harnesses(pads)),
        Heading("The Pi's header (through the ribbon)", 3),
        Para("The ribbon's socket covers all 40 pins; its red stripe goes to pin 1, the header's corner pin whose "
             "solder pad is square. The ribbon also brings 5 V (pins 2 and 4) and ground to the pad board, where "
             "the display's red and black leads plug onto a 2-pin header: nothing else touches the Pi's header. "
             "What each pin carries:"),
        Code(wiring.header_diagram(pads)),
        Table(*_md_table(wiring.pin_table(pads))),
        Heading("The tray", 3),
        Table(("from", "to", "how"), (
            ("QT Py STEMMA QT port", "the NAU7802's first STEMMA QT port", "200 mm cable round the piezo ring's channel"),
            ("the NAU7802's second port", "the join on the boom", "500 mm Qwiic cable, through the tray's channel, the foot and the post"),
            ("the join", "VL53L0X, the STEMMA QT socket toward the post", "200 mm Qwiic cable along the boom's groove"),
            ("QT Py USB-C", "a USB-A port of the Pi", "1 m data cable, woven between the exit's two pegs"),
            ("piezo 1, 2, 3 (red lead)", "QT Py A0, A1, A2 through the piezo board", "10 kΩ in series, 1 MΩ to GND, two 1N5817 to GND and 3V3"),
            ("piezo black leads", "QT Py GND", "on the piezo board"),
        )),
        Para("Each cable as it is plugged or soldered, end to end (the colours are the wires'; STEMMA QT cables "
             "are all black GND, red 3V3, blue SDA, yellow SCL):"),
        Picture("harness_piezos", "The piezos' leads to the piezo board: red to the channel's 10 kΩ, black to GND.", wide=True),
        Picture("harness_qt_adc", "The 200 mm STEMMA QT cable from the QT Py to the NAU7802.", wide=True),
        Picture("harness_qt_long", "The 500 mm cable from the NAU7802's other port to the join on the boom.", wide=True),
        Picture("harness_qt_short", "The 200 mm cable from the join to the VL53L0X.", wide=True),
        Picture("harness_cell", "The load cell's four leads to the NAU7802's pads.", wide=True),
        Picture("harness_usb", "The tray's USB data cable: USB-C into the QT Py, USB-A into the Pi.", wide=True),
        Heading("The screen", 3),
        Table(("from", "to", "how"), (
            ("display DSI (15-pin)", "Pi 5 DSI port (22-pin)", "the 200 mm Pi 5 display cable, contacts as printed on it"),
            ("display 5V, GND", "the pad board's 2-pin header (5 V and GND from the ribbon)", "the display's red and black leads"),
            ("pad board", "Pi header", "40-way ribbon, red stripe to pin 1, keyed at the board"),
            ("Pi USB-C", "27 W supply", "through the bottom wall's middle window"),
        )),
    ]


def _md_table(text: str) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    lines = [line.strip().strip("|").split("|") for line in text.strip().splitlines()]
    header = tuple(c.strip() for c in lines[0])
    return header, tuple(tuple(c.strip() for c in row) for row in lines[2:])


def blocks(config: Config) -> list[Block]:
    """The whole guide, in order."""
    g = config.geometry
    bom = load_bom()
    table, minutes, grams = print_table(config)
    slicer = print_times().get("slicer", "a slicer")
    pads = len(config.pads.pins)
    return [
        Heading("Table Noir: the build guide", 1),
        Para(f"This guide builds the default table: a {g.tray_diameter_mm:g} mm tray with the sensor "
             f"{g.sensor_height_mm:g} mm above its floor, {pads} player pads and the 7-inch screen. It is generated "
             "from the repo (`python -m enclosure.guide`), so the pictures, wiring tables and print times follow "
             "the models and `hardware/table-noir.toml`. Everything to buy, with part numbers and prices, is in "
             "the bill of materials in `hardware/README.md`."),
        Picture("table", "The tray, the arm, the plinth and a tallest Heat."),
        Heading("The build, in order"),
        Items(("**Buy** the parts in the table below (the bill of materials; prices, pack sizes and notes in "
               "`hardware/README.md`).",
               "**Print** the parts at the settings under \"Print the parts\".",
               "**Flash the tray**: CircuitPython on the QT Py, its libraries with circup, the tray's firmware.",
               "**Build and wire** the tray with its load cell, the arm, the pads, the pad board and the screen "
               "case, steps 1 to 6 and \"Wiring, connector by connector\".",
               "**Set up the Pi**: the SD card and `kiosk/deploy/setup-pi.sh` (docs/deploy.md).",
               "**First boot**: the hardware setup on the touchscreen finds the tray and learns the pads.",
               "**Bench test** the sensing before anything is glued, then glue.",
               "**Power-on checklist**, then **the first game**."), numbered=True),
        Heading("What to buy"),
        bom_table(bom),
        Heading("Tools"),
        Items(("a 3D printer with a 220 x 220 x 250 mm bed, PLA (PETG for the arm if the room gets warm)",
               "soldering iron with a fine tip, and solder; the same iron sets the heat-set inserts",
               "crimp tool for JST XH contacts, wire stripper, side cutters",
               "multimeter (continuity and volts)",
               "M3 and M4 screwdrivers or hex keys, a 7 mm spanner for the M4 nuts",
               "calipers (to check the sensor board against `enclosure/bought.py`)",
               "hot-glue gun, CA glue, heat-shrink tubing and a heat gun or lighter",
               "a file or sandpaper for the dovetails and pegs, a 3 mm drill bit (a pin vice will do) for the screw skins")),
        Heading("Print the parts"),
        Para("Settings for every part: 0.2 mm layers, 3 perimeters (0.4 mm nozzle), 5 top and 5 bottom layers, "
             "gyroid infill at the figure below, **no supports**: every part is laid so that nothing hangs in "
             "the air, which `tests/enclosure/test_printability.py` checks on the STL files. Turn the slicer's "
             "supports **off**: left on auto, PrusaSlicer still adds a few grams to some parts (hole crowns and "
             "short bridges that print clean without; `enclosure/slicing.py` lists each). Screw recesses that open "
             "to the bed (the cell base, the screen's back) are closed by a 1.2 mm skin so they print "
             "without support: open each with a 3 mm drill from the recess side before fitting its screw. Brim where the "
             "table says. The fit between sliding parts is 0.3 mm; if pegs are tight, raise `fit` in "
             "`enclosure/scad/common.scad` to 0.4 and rebuild (`python -m enclosure.build`)."),
        table,
        Para(f"Times and filament are {slicer}'s estimates at these settings (`python -m enclosure.slicing`), "
             f"about {_hours(minutes)} of printing and {grams / 1000:.2f} kg of filament in all. The tray quarters "
             "are solid from the bed up and take the longest; 15 % infill or 0.28 mm layers save several hours "
             "each without weakening the floor the dice land on."),
        Heading("1. The tray"),
        Picture("tray_underside", "The tray from below: piezo pockets, the wire channels (roofed at 45 degrees), the board pocket with the piezo board's beside it, "
                "the USB exit with its two pegs and the sensor cable's way out under the rim."),
        Items((
            "Fit the four quarters together dry. The dovetails go together one way only; the quarter with the "
            "board pocket sits where the arm will stand. File any tight dovetail until the floor lies flat.",
            "Solder the piezo board on a piece of stripboard 8 strips by 16 holes, as its layout below shows "
            "(no cuts): for each of the three piezos a 10 kΩ resistor from its strip to its analog pin's strip, "
            "1 MΩ from its strip to GND, one 1N5817 with its band (cathode) on the analog strip and its other end "
            "on GND, and one with its band on 3V3 and its other end on the analog strip. A diode turned round "
            "clips every knock below the impact threshold. Wire the right-hand pads to the QT Py's A0, A1, A2, "
            "3V3 and GND.",
            "Lay the QT Py in its pocket under the floor, USB-C toward the exit; hold it with a dab of hot glue "
            "on its edge (not on the USB socket). The piezo board lies in its own pocket beside it, parts up toward the floor, "
            "its wires into the board's pocket.",
            "Plug the USB cable in and weave it round the two pegs in the exit: a pull on the cable now meets "
            "the pegs, not the QT Py's socket.",
            "Lay the piezos in their pockets with their leads in the ring channel, but **do not glue them yet**.",
            "The weighing (the load cell stands on a base of its own, never on the tray): screw the load cell's "
            "fixed end (the end its wires leave) to the `cell_base` pedestal with two M3 x 6 screws from below, "
            "the arrow on the cell pointing down. Screw the `cell_adapter` onto its free end with two M3 x 6 "
            "screws from above. Stick three rubber feet under the base.",
            "The overload stop: put the M3 nut in the trap under the base's cup, and screw the M3 x 12 in from "
            "above, head up. Turn it out until a 0.3 mm feeler gauge (or three sheets of printer paper) just "
            "slides between its head and the adapter's boss: a hand pressing on the Heat then rests on the "
            "screw, not on the cell. Check: 1 kg on the adapter (a full 1 L bottle) must touch the stop.",
            "Wire the cell to the NAU7802 breakout: red to E+, black to E-, green to A+, white to A- (swap A+ "
            "and A- if the weight reads negative). Stick the board on the base beyond the cell with foam tape. "
            "Plug the 200 mm STEMMA QT cable from the QT Py into one of its ports (it runs round the piezo ring's channel); the 500 mm sensor cable "
            "goes into the other.",
            "Set the tray over the base: the adapter's boss stands in the middle of the floor's hole and "
            "nothing of the base touches the tray (look under with a torch). Fill the cup round the boss with "
            "silicone shock oil to 2 mm under its rim. Push the plinth's stem through the target disc's centre "
            "hole into the adapter's socket.",
        ), numbered=True),
        Picture("cell_circuit", "The load cell's four wires to the NAU7802, and its two STEMMA QT ports on the "
                "tray's I2C bus (the QT Py on one, the sensor's 500 mm cable on the other).", wide=True),
        Picture("weighing", "The weighing: plinth and stem, the adapter on the cell's free end, the cell, and "
                "its base with the damping cup and the stop screw under the stem.", wide=True),
        Picture("piezo_circuit", "One piezo channel (A1 and A2 are the same): each diode's bar is its band, the "
                "cathode. Turned round, a diode clips every knock below the impact threshold.", wide=True),
        Picture("piezo_board_layout", "The piezo board, component side, drawn from the data the netlist test "
                "checks: each diode's grey band is its cathode (K).", wide=True),
        Picture("tray_mcu", "The quarter with the board, from below."),
        Picture("tray_parts", "The same quarter with its parts in colour: the QT Py (bought) in its pocket, the USB "
                "cable's plug toward the exit, the piezo board you built beside it, and the piezo disc (bought) in "
                "its pocket under the floor."),
        Heading("2. The sensor arm"),
        Picture("arm", "The arm as it stands on the tray: foot, post pieces, boom and head."),
        Items((
            "Push a joiner into the foot's socket and one into the top of each post piece but the last; the boom's "
            "own peg goes into the last piece.",
            "Thread the 500 mm Qwiic cable from the tray's sensor channel through the foot and up the post, "
            "then out at the boom's groove. Plug it into the Qwiic MultiPort, lay the MultiPort in its bay on top "
            "of the boom next to the post, and plug the 200 mm cable into it for the run along the groove.",
            f"Check the VL53L0X board with calipers against `enclosure/bought.py` (board "
            f"{bought.SENSOR_BOARD_MM[0]:g} x {bought.SENSOR_BOARD_MM[1]:g} mm, chip "
            f"{bought.SENSOR_CHIP_AT_MM[1]:g} mm off the board's centre toward the edge away from the pin header). "
            "If yours differs, change the numbers there and print the boom again: the tests keep the bore within "
            "1 mm of the chip.",
            "Plug the 200 mm cable into the board's STEMMA QT socket on the post side and lay the board face down "
            "in the head: it rests on two ledges, the chip over the bore, the plug in its slot and the cable up "
            "into the groove. **Do not glue it yet.**",
            "Bolt the foot to the rim with two M4 x 40 bolts, washers and nuts; the bolts go through the rim "
            "from inside.",
        ), numbered=True),
        Picture("head", "The head from above: the board's pocket with its two ledges, the sockets' room "
                "and the plug's slot into the groove."),
        Picture("head_parts", "The VL53L0X breakout (bought) in the head's pocket, face down on the ledges, its "
                "chip over the bore."),
        Heading("3. Flash the tray"),
        Items((
            "Download CircuitPython 9 or later for the QT Py RP2040 from circuitpython.org. Hold the board's "
            "BOOT button while plugging it into a computer; copy the `.uf2` onto the `RPI-RP2` drive that "
            "appears. The board restarts as a drive called `CIRCUITPY`.",
            "Install the tray's libraries with circup: `pip install circup`, then "
            "`circup install -r firmware/requirements.txt` (it matches them to your CircuitPython version).",
            "Copy the firmware: `firmware/boot.py`, `code.py` and `settings.toml` to the drive's top, and "
            "`firmware/tray/*.py` into a `tray` folder on it (details in `firmware/README.md`). Unplug and "
            "plug it in again.",
        ), numbered=True),
        Heading("4. Set up the Pi"),
        Items((
            "Write Raspberry Pi OS (64-bit) to the microSD card with Raspberry Pi Imager; boot the Pi, connect "
            "it to the network and clone this repository into `~/table-noir`.",
            "Run `sudo kiosk/deploy/setup-pi.sh` (docs/deploy.md has its options; "
            "`kiosk/deploy/setup-pi.sh --dry-run --board pi5 --image desktop` shows what it would do, on any "
            "computer). Reboot.",
            "First boot: the kiosk opens the **hardware setup**. It finds the tray on USB and shows its live "
            "readings; then it asks for each pad's buttons in turn. Save, and the kiosk uses them.",
        ), numbered=True),
        Heading("5. Bench test of the sensing, before anything is glued"),
        Para("Everything in the tray and the arm can still be moved. Plug the tray into the Pi (or any computer "
             "with the project installed), lay the target disc in its seat and run"),
        Code("~/table-noir/.venv/bin/table-noir hardware bench     # on the Pi: stop the kiosk first, see below"),
        Para("It walks through a checklist with live readings from the tray (empty tray, one die, a stack, a "
             "throw on each quarter) and judges each against the sensing model with tolerances, then prints a "
             "pass or fail report: keep it with the table. A fail names what to move: the board in the head, a "
             "piezo in its pocket, the arm's bolts. Fix it and run the bench again. Only then glue: CA glue in "
             "the dovetails, a ring of hot glue round each piezo, a dab at two corners of the sensor board, a "
             "drop in each arm joint. (`table-noir hardware monitor` shows the raw readings at any time.) On the Pi the "
             "kiosk holds the tray's port and the pads' pins: `sudo systemctl stop table-noir-kiosk` first, and "
             "`sudo systemctl start table-noir-kiosk` after; the command lives in the project's environment, "
             "`~/table-noir/.venv/bin/table-noir` (it is not on the PATH)."),
        Heading("6. The pads"),
        Picture("pad", "A pad on its base: the hood over three buttons, the touch marks in front."),
        Items((
            "Push the three buttons through the panel from above, Black on the left, White in the middle, Gray "
            "on the right (seen by the player), and tighten their rings from inside.",
            "Join one side of all three buttons with a wire through the holes in the ribs: that is the common "
            "ground. Solder the 2 m cable: ground and one wire per button.",
            "Crimp the XH plug at the cable's other end: pin 1 ground, pins 2, 3, 4 Black, White, Gray.",
            "Weave the cable between the base's three pegs, out through the back wall's notch, and screw the "
            f"base on with four M3 x 10 countersunk screws. Repeat for all {pads} pads.",
        ), numbered=True),
        Picture("pad_open", "The body from below: the ribs that carry the front wall in print, with the wire holes."),
        Picture("pad_parts", "The same view with the three bought push buttons in place: their bodies and solder "
                "tabs hang 28 mm under the panel, between the ribs."),
        Heading("7. The pad board and the screen case"),
        Picture("screen_open", "The shell from the back, the cover lifted: the four bosses for the inserts."),
        Picture("screen_parts", "The bought parts in the shell: the display face down in it (black glass, its metal "
                "back), the Pi on the display's back with its USB and Ethernet stack toward the left wall's "
                "windows; the back cover beside it.", wide=True),
        Items((
            "Press an M3 heat-set insert into each of the shell's four bosses with the soldering iron at about "
            "220 °C; keep it straight and stop when it is flush.",
            "Lay the display face down in the shell. Fit the Active Cooler to the Pi 5 and mount the Pi on the "
            "display's back; connect the 200 mm Pi 5 display cable.",
            "Plug the ribbon onto the Pi's header (red stripe to pin 1) and into the pad board's keyed header; "
            "plug the display's 5 V and ground leads onto the pad board's 2-pin header (red to 5 V). The pad "
            "board lies on the back cover beside the GPIO slot.",
            "Screw the back cover's four posts to the display with M3 x 40 screws, then the cover to the bosses "
            "with four M3 x 8 screws. Feed the pad plugs through the GPIO slot and plug each into its socket; "
            "tie the bundle to the two anchors beside the slot, and the power and tray USB cables to the two "
            "anchors near the bottom wall.",
            "Bolt the two stand cheeks to the shell with M3 x 12 screws and nuts.",
        ), numbered=True),
        Picture("screen_back", "The back cover's inner face: posts to the display, notches for the bosses, "
                "the GPIO slot with two tie anchors beside it and two more near the bottom wall."),
        Heading("Wiring, connector by connector"),
        *wiring_blocks(config),
        Heading("First power-on checklist"),
        Items((
            "Before power: the ribbon's red stripe is on pin 1 at both ends; every pad plug sits whole in its socket.",
            "With a multimeter, on the pad board before the ribbon goes on: no continuity between header pins "
            "1 and 2 (3V3, 5V), 3 and 4, 2 and 6 (5V, GND), nor between any pin and its neighbour in the other "
            "row; then no continuity between 5 V (pin 2) and GND (pin 6) with every plug in.",
            "The 27 W supply, not a phone charger; one 5 V source only (the display is fed from the header).",
            "Power on: the Pi's green LED flickers and the screen shows the kiosk within a minute.",
            "`sudo systemctl stop table-noir-kiosk`, then `~/table-noir/.venv/bin/table-noir hardware monitor`: "
            "press each of the "
            f"{3 * pads} buttons once; each shows once, with the right pad and colour, and nothing shows unpressed.",
            f"The empty tray reads close to {g.sensor_height_mm:g} mm; one die on the centre brings it about "
            f"{g.die_size_mm:g} mm closer; a tap on each quarter shows an impact.",
            "`sudo systemctl start table-noir-kiosk` (or reboot) to bring the kiosk back.",
            "After ten minutes with the case closed, `vcgencmd measure_temp` stays below 70 °C.",
            "Keep the bench report from step 5 and this list with the table.",
        )),
        Heading("The first game"),
        Para("From the home screen choose Hell for Leather, let the players join (pads, or phones from the join "
             "screen), and build the first Heat on the plinth: the screen shows the count the tray weighed. "
             "The rules and every decision taken where they were unclear are in `docs/rules/`."),
        Para(f"Bill of materials: {len(bom.part)} kinds of bought parts, priced in `hardware/README.md` "
             f"(prices dated {bom.prices.date})."),
    ]


def bom_table(bom) -> Table:
    """Every bought part, as a maker orders it."""
    rows = tuple((str(p.qty), p.name, p.supplier, p.part_number, f"{p.price:.2f}") for p in bom.part)
    return Table(("qty", "part", "supplier", "part number", f"each ({bom.prices.currency})"), rows)


# ---- Markdown -----------------------------------------------------------------------------------

def to_markdown(items: list[Block]) -> str:
    out = []
    for b in items:
        if isinstance(b, Heading):
            out += ["#" * b.level + " " + b.text, ""]
        elif isinstance(b, Para):
            out += [b.text, ""]
        elif isinstance(b, Items):
            out += [(f"{n}. " if b.numbered else "- ") + text for n, text in enumerate(b.items, start=1)] + [""]
        elif isinstance(b, Table):
            out += ["| " + " | ".join(b.header) + " |", "|" + "---|" * len(b.header)]
            out += ["| " + " | ".join(row) + " |" for row in b.rows] + [""]
        elif isinstance(b, Picture):
            out += [f"![{b.caption}](img/{b.name}.png)", "", f"*{b.caption}*", ""]
        else:
            out += ["```text", b.text, "```", ""]
    return "\n".join(out).rstrip() + "\n"


# ---- PDF ------------------------------------------------------------------------------------------

def _inline(text: str) -> str:
    """`code` and **bold** as reportlab's mini-markup, the rest escaped."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    return re.sub(r"`(.+?)`", r'<font face="Mono">\1</font>', text)


def _fonts() -> None:
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    import reportlab

    dejavu = Path("/usr/share/fonts/truetype/dejavu")
    vera = Path(reportlab.__file__).parent / "fonts"
    if (dejavu / "DejaVuSans.ttf").exists():
        files = {"Body": dejavu / "DejaVuSans.ttf", "Body-Bold": dejavu / "DejaVuSans-Bold.ttf",
                 "Mono": dejavu / "DejaVuSansMono.ttf"}
    else:
        files = {"Body": vera / "Vera.ttf", "Body-Bold": vera / "VeraBd.ttf", "Mono": vera / "Vera.ttf"}
    for name, path in files.items():
        pdfmetrics.registerFont(TTFont(name, str(path if path.exists() else files["Body"])))
    addMapping("Body", 0, 0, "Body")
    addMapping("Body", 1, 0, "Body-Bold")


def to_pdf(items: list[Block], path: Path, img: Path = IMG) -> Path:
    """An A4 PDF of the guide, pictures included where they exist."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import (Image, KeepTogether, ListFlowable, ListItem, Paragraph, Preformatted,
                                    SimpleDocTemplate, Spacer)
    from reportlab.platypus import Table as RLTable
    from reportlab.platypus import TableStyle

    _fonts()
    body = ParagraphStyle("body", fontName="Body", fontSize=9.5, leading=13, spaceAfter=5)
    small = ParagraphStyle("small", parent=body, fontSize=9, leading=11, spaceAfter=0)     # 9 pt at least (issue 32)
    caption = ParagraphStyle("caption", parent=body, fontSize=9, textColor=colors.HexColor("#444444"), alignment=1)
    heads = {1: ParagraphStyle("h1", parent=body, fontName="Body-Bold", fontSize=18, leading=22, spaceAfter=10, keepWithNext=1),
             2: ParagraphStyle("h2", parent=body, fontName="Body-Bold", fontSize=13, leading=17, spaceBefore=10, spaceAfter=6, keepWithNext=1),
             3: ParagraphStyle("h3", parent=body, fontName="Body-Bold", fontSize=10.5, leading=14, spaceBefore=6, spaceAfter=4, keepWithNext=1)}
    mono = ParagraphStyle("mono", fontName="Mono", fontSize=9, leading=10.8, spaceAfter=6)  # wiring drawings: 9 pt
    width = A4[0] - 36 * mm
    story = []
    for b in items:
        if isinstance(b, Heading):
            story.append(Paragraph(_inline(b.text), heads[b.level]))
        elif isinstance(b, Para):
            story.append(Paragraph(_inline(b.text), body))
        elif isinstance(b, Items):
            story.append(ListFlowable([ListItem(Paragraph(_inline(t), body)) for t in b.items],
                                      bulletType="1" if b.numbered else "bullet", bulletFontName="Body",
                                      bulletFontSize=9, leftIndent=14))
        elif isinstance(b, Table):
            data = [[Paragraph(f"<b>{_inline(h)}</b>", small) for h in b.header]]
            data += [[Paragraph(_inline(c), small) for c in row] for row in b.rows]
            t = RLTable(data, colWidths=[width / len(b.header)] * len(b.header), repeatRows=1)
            t.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.3, colors.grey),
                                   ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
                                   ("VALIGN", (0, 0), (-1, -1), "TOP")]))
            story += [t, Spacer(1, 6)]
        elif isinstance(b, Picture):
            png = img / f"{b.name}.png"
            if png.exists():
                picture = (Image(str(png), width=width, height=200 * mm, kind="proportional") if b.wide
                           else Image(str(png), width=120 * mm, height=90 * mm, kind="proportional"))
                group = [picture, Paragraph(_inline(b.caption), caption)]
                if story and getattr(story[-1], "style", None) in heads.values():
                    group.insert(0, story.pop())      # a heading stays on the page of its picture
                story.append(KeepTogether(group))
            else:
                story.append(Paragraph(_inline(f"[picture {b.name}: run python -m enclosure.guide] {b.caption}"), caption))
        else:
            story.append(Preformatted(b.text, mono))

    def footer(canvas, doc):
        canvas.saveState()
        canvas.setFont("Body", 9)
        canvas.drawString(18 * mm, 10 * mm, "Table Noir build guide - generated by python -m enclosure.guide")
        canvas.drawRightString(A4[0] - 18 * mm, 10 * mm, f"page {doc.page}")
        canvas.restoreState()

    doc = SimpleDocTemplate(str(path), pagesize=A4, leftMargin=18 * mm, rightMargin=18 * mm, topMargin=16 * mm,
                            bottomMargin=18 * mm, title="Table Noir build guide", author="Table Noir")
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return path


# ---- pictures -------------------------------------------------------------------------------------

def render_pictures(config: Config, img: Path = IMG) -> list[Path]:
    from . import build as enclosure_build
    version = enclosure_build.openscad_version()
    values = enclosure_build.defines(config)
    img.mkdir(parents=True, exist_ok=True)
    made = []
    for name, part, source, camera in PICTURES:
        stl, _ = enclosure_build.render_part(enclosure_build.Part(part, source, "0", False, ""), values,
                                             enclosure_build.DEFAULT_CACHE, version)
        made.append(enclosure_build.render_png(stl, img / f"{name}.png", camera))
    for name, part, source, camera in COLOUR_PICTURES:
        made.append(enclosure_build.render_scad_png(source, part, values, img / f"{name}.png", camera))
    return made


def board_pictures(config: Config, img: Path = IMG) -> list[Path]:
    """The boards' layouts, drawn from the data the netlist test checks (no OpenSCAD needed)."""
    from hardware.boards import draw, pad_board, piezo_board

    from hardware.boards import harnesses, schematics

    return [draw.draw(pad_board.layout(config.pads), pad_board.schematic(config.pads), img / "pad_board_layout.png"),
            draw.draw(piezo_board.layout(), piezo_board.schematic(), img / "piezo_board_layout.png"),
            schematics.piezo_channel(img / "piezo_circuit.png"), schematics.button_line(img / "button_circuit.png"),
            schematics.load_cell(img / "cell_circuit.png"),
            *(harnesses.render(h, img) for h in wiring.harnesses(config.pads))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m enclosure.guide", description=__doc__.splitlines()[0])
    parser.add_argument("--no-pictures", action="store_true", help="keep the pictures in docs/build/img as they are")
    parser.add_argument("--no-pdf", action="store_true", help="write only the Markdown page")
    args = parser.parse_args(argv)
    config = load_config(ROOT / "hardware" / "table-noir.toml")
    if not args.no_pictures:
        from .build import BuildError
        try:
            render_pictures(config)
        except BuildError as err:
            print(f"guide: {err}", file=sys.stderr)
            return 1
    board_pictures(config)
    items = blocks(config)
    DOCS.mkdir(parents=True, exist_ok=True)
    MARKDOWN.write_text(to_markdown(items))
    print(f"wrote {MARKDOWN}")
    if not args.no_pdf:
        try:
            to_pdf(items, PDF)
        except ImportError:
            print("guide: the PDF needs reportlab (`pip install reportlab`, in the dev extra)", file=sys.stderr)
            return 1
        print(f"wrote {PDF}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
