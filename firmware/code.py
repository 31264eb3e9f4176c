"""Table Noir's sensing tray: CircuitPython firmware for an RP2040 board.

Everything the tray decides lives in the ``tray`` folder (app.py, heat.py,
impact.py, protocol.py: pure Python, tested on a desktop); ``tray/hw.py`` ties
it to the pins. Messages go out on the USB *data* port that boot.py turns on,
so the REPL console stays free for you. See README.md and PROTOCOL.md.
"""

from tray.hw import run

run()
