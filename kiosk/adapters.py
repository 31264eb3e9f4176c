"""Per-game glue between hardware events and the prompts a game awaits.

An ``Adapter`` answers one question: given this event and what the game is
waiting for, which action (as a dict) does it make, if any?

The generic adapter, used by every game unless it needs more:

* A button press from pad N answers player N's prompt (players in seating
  order) when that prompt has a single choice field and one of its choices
  matches the button: by name ("black", "white", "gray"), or through the
  game's ``aliases`` (Even/Odd's wagers, for instance).
* A tray event answers a table prompt (``player=None``) whose fields it can
  fill completely by name: ``zone`` and ``face`` from a settled throw,
  ``fell`` and ``standing`` from a collapse, ``dice``/``heat`` from the
  stack height. A throw whose zone or face the tray cannot tell is left for
  the screen, where the play screen asks by touch.
"""

from __future__ import annotations

from typing import Any

from hardware.events import ButtonPressed, Collapse, DieAdded, DieRemoved, HeatHeight, ThrowSettled


class Adapter:
    aliases: dict[str, tuple[Any, ...]] = {}
    """Extra choice values each button colour stands for in this game."""

    def action_for(self, event, runner, tray_state) -> dict[str, Any] | None:
        if isinstance(event, ButtonPressed):
            players = runner.players()
            if not 0 < event.player <= len(players):
                return None
            return self.button(runner, players[event.player - 1], event.button.value)
        values = self.tray_values(event)
        if values is None:
            return None
        return self.tray(runner, event, values)

    # -- buttons ---------------------------------------------------------------

    def pick(self, choices: list[Any], colour: str) -> Any:
        for choice in choices:
            if str(choice).lower() == colour:
                return choice
        for alias in self.aliases.get(colour, ()):
            if alias in choices:
                return alias
        return None

    def button(self, runner, player: str, colour: str) -> dict[str, Any] | None:
        mine = [p for p in runner.awaiting() if p.player == player]
        mine.sort(key=lambda p: (not p.secret, p.optional))
        for prompt in mine:
            if len(prompt.fields) == 1 and prompt.fields[0].kind == "choice":
                value = self.pick(prompt.fields[0].choices, colour)
                if value is not None:
                    return {"type": prompt.action, "player": player, prompt.fields[0].name: value}
        return None

    # -- the tray ----------------------------------------------------------------

    def tray_values(self, event) -> dict[str, Any] | None:
        if isinstance(event, ThrowSettled):
            return {"zone": event.zone.value if event.zone else None, "face": event.face}
        if isinstance(event, Collapse):
            return {"fell": event.fell, "standing": event.standing, "dice": event.standing, "heat": event.standing}
        if isinstance(event, (HeatHeight, DieAdded, DieRemoved)):
            return {"dice": event.dice, "heat": event.dice}
        return None

    def tray(self, runner, event, values: dict[str, Any]) -> dict[str, Any] | None:
        for prompt in runner.awaiting():
            if prompt.player is not None or not prompt.fields:
                continue
            names = [f.name for f in prompt.fields]
            if all(values.get(n) is not None for n in names):
                data = {"type": prompt.action, "player": None}
                data.update({n: values[n] for n in names})
                return data
        return None


ADAPTERS: dict[str, Adapter] = {}
DEFAULT = Adapter()


def for_game(game: str) -> Adapter:
    return ADAPTERS.get(game, DEFAULT)
