"""Runs once at power-up, before USB starts: turn on the second USB serial port.

The console (REPL, print output) stays on the first port; the tray's messages
use the data port. A change here needs a hard reset (press reset or replug).
"""

import usb_cdc

usb_cdc.enable(console=True, data=True)
