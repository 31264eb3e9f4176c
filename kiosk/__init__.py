"""Table Noir: the kiosk app and the rules it referees."""

__version__ = "0.2.0"
