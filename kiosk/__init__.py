"""Table Noir: the kiosk app and the rules it referees."""

__version__ = "0.1.0"
