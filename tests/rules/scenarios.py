"""Test positions from the scenario files in ``scenarios/``, reached by legal moves.

``played("hell-for-leather-rewards")`` is the session the file describes. With
``leave=N`` the last N moves are not played but returned, so a test can play the
example's last steps itself and check the numbers on the way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk import scenario
from kiosk.rules import Session

FOLDER = Path(__file__).resolve().parents[2] / "scenarios"


def played(name: str, leave: int = 0) -> Session:
    """The scenario ``name`` (file stem) played up to ``leave`` moves before its end."""
    return played_and_rest(name, leave)[0]


def played_and_rest(name: str, leave: int) -> tuple[Session, list[dict[str, Any]]]:
    whole = scenario.load(FOLDER / f"{name}.toml")
    cut = len(whole.moves) - leave
    session = whole.model_copy(update={"moves": whole.moves[:cut]}).build()
    return session, whole.moves[cut:]
