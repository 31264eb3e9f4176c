"""The tray firmware's pure logic. On the board this folder is copied to CIRCUITPY as `tray`;
on the Pi it is importable as `firmware.tray`."""
