"""The operator PIN's written form: what ``table-noir.toml`` may hold, and the PIN a kiosk ships with.

These are facts about the configuration file, so they live down here with its schema
(``hardware.config``), which checks them when the file is read; ``kiosk.pin`` builds the
hashing and the lockout on top of them. (Not to be confused with the GPIO pins of the pads.)
"""

from __future__ import annotations

PIN_PATTERN = r"^[0-9]{4,8}$"
"""4-8 ASCII digits (``\\d`` would also let in digits of other scripts the pad cannot type)."""

HASH_PATTERN = r"^pbkdf2_sha256\$[0-9]+\$[0-9a-f]{32}\$[0-9a-f]{64}$"
"""A salted PBKDF2 hash as ``table-noir pin-hash`` prints it: ``pbkdf2_sha256$<iterations>$<salt>$<hash>``."""

DEFAULT_PIN = "2468"
"""The PIN the project ships with. It is public, so the first operator entry must change it."""
