"""Demo mode: a convention stand that looks after itself (issue 34; docs/lessons.md).

With ``demo_mode`` on (an operator setting), the stand goes back to attract mode

* ``demo_idle_s`` after the last input from any pad, phone, tray or touch, and
* ``GAME_OVER_S`` after the last input once a game on screen has ended (or sooner,
  if ``demo_idle_s`` is shorter),

and attract mode replays recorded games rather than fading titles: the shipped
example sessions (``examples/*.jsonl``), one action at a time, through the rules,
showing only what the shared screen would (the public view and the public recap).
The store's own games are never replayed: a group's names and story are theirs,
not the next passer-by's.

Nothing here imports Kivy (``kiosk.ui.attract`` draws it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hardware.events import ButtonPressed, Collapse, DieAdded, DieRemoved, HeatFalling, ThrowImpact, ThrowSettled
from kiosk.phones.events import PhoneAction
from kiosk.rules import Session, engine_for

GAME_OVER_S = 30
"""In demo mode, the quiet time after a game's end before the stand returns to attract."""

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
"""The recorded sessions attract mode replays (one per game)."""

INPUTS = (ButtonPressed, ThrowImpact, ThrowSettled, DieAdded, DieRemoved, HeatFalling, Collapse, PhoneAction)
"""Events that are someone at the table (a distance sample, a link change or a fault is not)."""


def is_input(event: Any) -> bool:
    """True if ``event`` is a person at the table: a pad press, a die thrown or stacked, a fall,
    or anything from a phone."""
    return isinstance(event, INPUTS)


def attract_due(quiet_s: float, idle_attract_s: int, demo_mode: bool, demo_idle_s: int, game_over: bool) -> bool:
    """Whether the stand should show attract mode after ``quiet_s`` seconds with no input."""
    if not demo_mode:
        return quiet_s >= idle_attract_s
    return quiet_s >= (min(GAME_OVER_S, demo_idle_s) if game_over else demo_idle_s)


class Replay:
    """A recorded session played again from its start, one action per ``step``.

    The public view and recap only: secret choices stay hidden until the rules reveal them,
    exactly as on the shared screen when the game was played.
    """

    def __init__(self, lines: list[str], name: str = "") -> None:
        header = json.loads(lines[0])
        self.name = name
        self.actions = [json.loads(line) for line in lines[1:] if line.strip()]
        self.session = Session(engine_for(header["game"]), header["setup"])
        self.played = 0

    @classmethod
    def read(cls, path: Path) -> "Replay":
        return cls(path.read_text(encoding="utf-8").splitlines(), path.stem)

    @property
    def game(self) -> str:
        return self.session.engine.game

    @property
    def done(self) -> bool:
        return self.played >= len(self.actions)

    def step(self) -> bool:
        """Play the next recorded action; False when there is none left."""
        if self.done:
            return False
        self.session.apply(self.actions[self.played])
        self.played += 1
        return True

    def view(self) -> dict[str, Any]:
        return self.session.view(None, awaiting=False)

    def recap(self, last: int) -> list[str]:
        return self.session.recap(None, last=last)


def recordings(folder: Path = EXAMPLES, games: list[str] | None = None) -> list[Path]:
    """The session logs attract mode can replay (for ``games`` only, when given), by name."""
    found = sorted(folder.glob("*.jsonl")) if folder.is_dir() else []
    if games is None:
        return found
    return [p for p in found if json.loads(p.read_text(encoding="utf-8").split("\n", 1)[0]).get("game") in games]
