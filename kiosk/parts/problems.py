"""Start-up problems in the operator's words: what went wrong, what the kiosk did, what to do.

A kiosk that stops on a bad config file or a damaged database is, under systemd, a black
screen restarting every few seconds. So it starts anyway -- on the defaults, on a fresh store,
without the tray -- and shows these once, full screen (``kiosk.ui.problem.ProblemScreen``).
Nothing here imports Kivy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk.recovery import Recovery


@dataclass(frozen=True)
class Problem:
    """One start-up problem in the operator's words."""

    title: str
    """A few words: "The configuration file has errors"."""
    what: str
    """What was wrong and what the kiosk did instead."""
    todo: str
    """What the operator should do now."""


def bad_config(error: str) -> Problem:
    """The site file could not be used (``error`` names the file and each bad field)."""
    return Problem(
        "The configuration file has errors",
        f"{error}\nThe kiosk is running on the built-in defaults, with the simulated pads and tray.",
        "fix the file named above (or run the hardware setup from the operator menu), then restart "
        "the kiosk. Nothing in the saved games was touched.")


def damaged_store(recovery: Recovery) -> Problem:
    """The session store was damaged and moved aside, or some of its settings dropped."""
    return Problem(
        "The saved-games database was damaged" if not recovery.games_kept
        else "Some kiosk settings could not be read",
        recovery.explain(),
        "carry on: the kiosk works normally. To look at the old file, copy it off the SD card "
        "(the operator menu's export does not read it).")


def missing_tray(failed: list[str]) -> list[Problem]:
    """A tray the configuration asks for that is not there (``failed``: why, in sentences), or nothing."""
    if not failed:
        return []
    return [Problem(
        "The tray is missing",
        " ".join(failed) + " The kiosk keeps looking for it: once it is plugged in it is found without "
        "a restart. Meanwhile throws and the Heat are entered by touch.",
        "check the tray's USB cable (the data port of the board in the tray), or open the operator menu's "
        "Hardware setup to find it or to choose the simulated tray.")]
