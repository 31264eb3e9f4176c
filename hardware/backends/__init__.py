"""Backends behind the hardware ports: gpio and sim pads, serial, i2c and sim trays.

Pick one through hardware.factory (open_pads / open_tray), which reads the config.
"""
