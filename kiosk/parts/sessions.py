"""The games in the store: a new one, one resumed, one from a scenario file, and clearing them all.

Each start returns the game's ``Runner`` (``kiosk.runner``), which the App puts on the play
screen. A scenario file (``kiosk.scenario``; designer mode's "Start from a scenario") that
cannot be played is a sentence naming the file, and then nothing is stored. Clearing every
saved game (the operator's "Delete all") takes the archive and the last group's names with
it; the operator's settings stay. Nothing here imports Kivy.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

if TYPE_CHECKING:
    from kiosk.retention import Retention
    from kiosk.rules.core import Engine
    from kiosk.runner import Runner
    from kiosk.store import Store


class Sessions:
    """Starts and clears the games of ``store``; ``engines()`` gives the games this kiosk offers."""

    def __init__(self, store: Store, engines: Callable[[], Mapping[str, Engine]], retention: Retention) -> None:
        self.store, self.engines, self.retention = store, engines, retention

    def new(self, game: str, setup: dict[str, Any]) -> Runner:
        from kiosk.runner import Runner  # imported when the first game starts, not before the first frame

        return Runner.new(self.store, self.engines()[game], setup)

    def resume(self, sid: int) -> Runner:
        """The stored game ``sid``, its log replayed (an unreadable log raises)."""
        from kiosk.runner import Runner

        return Runner.resume(self.store, sid)

    def from_scenario(self, path: Path) -> Runner | str:
        """Play a scenario file's moves and store the game, or say (naming the file) why not."""
        from kiosk import scenario
        from kiosk.runner import Runner

        try:
            session = scenario.start(path)
        except scenario.ScenarioError as err:
            return str(err)
        if session.engine.game not in self.engines():
            return f"{path}: {session.engine.title} cannot be played on this kiosk"
        try:
            sid = self.store.create(session)
        except Exception as err:  # noqa: BLE001 - a full or broken disk: say so, keep the kiosk up
            return f"Cannot store the scenario's game: {err}"
        return Runner(self.store, session, sid)

    def clear(self) -> None:
        """Delete every saved game, the archived ones and the last group's names."""
        self.store.clear()
        self.retention.forget()
        self.store.forget_players()
