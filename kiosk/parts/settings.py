"""Where the kiosk runs, and the site configuration with the operator's changes over it."""

from __future__ import annotations

import platform
from pathlib import Path


def on_pi() -> bool:
    """True on a Raspberry Pi (an ARM board with a device tree), where the kiosk is the stand."""
    return platform.machine() in ("aarch64", "armv7l") and Path("/proc/device-tree/model").exists()
