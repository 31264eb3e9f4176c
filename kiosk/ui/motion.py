"""How fast the kiosk's animations run, in one place every widget may read.

``ANIMATION_SCALE["value"]`` multiplies every animation's duration: 1.0 at the table, 0 in
tests and screenshot runs (cards already turned, dice already fallen). It lives in this
module of its own, which imports nothing, so the drawn pieces (``kiosk.ui.art``), the
overlays that use them (``kiosk.ui.overlays``) and the countdown can all read it without
importing each other. It is a dict rather than a number so that whoever sets it changes it
for every module that imported it.
"""

from __future__ import annotations

ANIMATION_SCALE: dict[str, float] = {"value": 1.0}
"""Multiplies every animation's duration; the tests set it to 0 to skip them."""
