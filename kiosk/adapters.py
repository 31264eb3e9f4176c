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

from hardware.events import ButtonPressed, Collapse, DieAdded, DieRemoved, HeatHeight, ThrowImpact, ThrowSettled


PAD_KEYS = (("black", "square"), ("white", "circle"), ("gray", "triangle"))
"""Each pad button and the shape moulded on its key (hardware/README.md)."""


class Adapter:
    aliases: dict[str, tuple[Any, ...]] = {}
    """Extra choice values each button colour stands for in this game."""
    uses_tray = False
    """Whether the game reads the tray (dice and Heat); if not, the screen leaves the tray out."""
    hint: dict[str, Any] | None = None
    """Part of an action the tray saw but could not finish, for the screen to ask the rest
    (the controller passes it on and clears it)."""

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

    def pad_help(self, prompts: list) -> str | None:
        """How the pads answer these (secret) prompts, in one line for the lock
        board, or None when they cannot. Shapes go with colours: the screen
        never relies on colour alone."""
        if not prompts or not all(len(p.fields) == 1 and p.fields[0].kind == "choice" for p in prompts):
            return None
        meanings = []
        for colour, shape in PAD_KEYS:
            value = self.pick(prompts[0].fields[0].choices, colour)
            if value is not None:
                meanings.append(f"{colour.capitalize()} ({shape}) = {value}")
        return "On your pad: " + ", ".join(meanings) + "." if meanings else None

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


class EvenOddAdapter(Adapter):
    """Even/Odd: a secret wager is entered on the pad (hardware/wager_entry.py).

    White moves the needle one point toward Even, Black one toward Odd, Gray
    locks it in. Votes take White for Even and Black for Odd. The needle's
    position is never shown on the shared screen; only "locked" is.
    """

    aliases = {"white": ("even",), "black": ("odd",)}

    def __init__(self) -> None:
        self.entries: dict[str, tuple[int, Any]] = {}

    def button(self, runner, player, colour):
        from hardware.wager_entry import Step, WagerEntry
        from kiosk.rules import RuleError

        prompt = next((p for p in runner.awaiting() if p.player == player and p.action == "wager"), None)
        if prompt is None:
            self.entries.pop(player, None)
            return super().button(runner, player, colour)
        points = next(f for f in prompt.fields if f.name == "points")
        round_id = _round_start(runner.session.log, "wager")
        known = self.entries.get(player)
        if known is None or known[0] != round_id:
            known = (round_id, WagerEntry(points.max or 0, points.min or 0))
            self.entries[player] = known
        entry = known[1]
        step = entry.press(colour)
        if step is Step.REFUSED:
            raise RuleError(points.rule or "wager", entry.problem or "that wager is too small")
        if step is not Step.LOCKED:
            return None
        del self.entries[player]
        wager = entry.wager
        return {"type": "wager", "player": player, "side": wager.side or "even", "points": wager.points}

    def pad_help(self, prompts):
        if prompts and all(p.action == "wager" for p in prompts):
            return ("On your pad: White (circle) = one point toward Even, Black (square) = one toward Odd, "
                    "Gray (triangle) = lock it in.")
        if prompts and all(p.action == "vote" for p in prompts):
            return "On your pad: White (circle) = the Even Suspect, Black (square) = the Odd Suspect."
        return super().pad_help(prompts)

    def presses_for(self, prompt, data):
        """The presses that enter ``data`` (used by tests and demos)."""
        if prompt.action != "wager":
            return None
        colour = "white" if data["side"] == "even" else "black"
        return [colour] * int(data["points"]) + ["gray"]


class ClincherAdapter(Adapter):
    """Clincher scenes: any button asks for a redraw; the first press wins precedence."""

    def button(self, runner, player, colour):
        for prompt in runner.awaiting():
            if prompt.player == player and prompt.action == "request" and not prompt.fields:
                return {"type": "request", "player": player}
        return super().button(runner, player, colour)


SPLIT_FALL_S = 1.0
"""A stack can come down in two parts (the top slides, then the middle goes); the
tray reports each. Collapses this close together are one fall for the rules."""

FALL_BEFORE_THROW_S = 1.0
"""A fall the tray reports up to this long before a throw's first knock still belongs to
that throw (the tray may weigh the fall before the piezo hears the d10 land)."""

UNTIMED_THROW_S = 3.0
"""When no knock of a settled throw was heard, the throw is taken to have begun this long
before it settled (the tray's settle time is 0.6 s by default, 5 s at most)."""


class HellForLeatherAdapter(Adapter):
    """Hell for Leather: a settled throw answers the awaited ``land`` prompt; a die added to the Heat
    during a conflict answers ``risk``. A d10's 10 is entered as 0, as the rules read it.

    When the tray cannot tell the zone or the face, nothing is guessed: the play
    screen keeps the ``land`` prompt open for touch, with whatever is known
    already filled in (``hint``).

    **A fall wins over a landing that happens with it.** Heat dice coming down knock
    the tray like a d10 does, so a fall is followed by a "settled throw" the tray
    cannot read; and a d10 that hits the Heat lands and settles after the fall it
    caused. The rules apply a fall at once, whatever else was thrown (docs/rules/
    hell-for-leather.md), so a throw during which the Heat fell is never entered or
    asked for as a landing: the screen stays on the fall. A throw is timed from its
    first knock (``ThrowImpact``) to its settling.
    """

    uses_tray = True

    def action_for(self, event, runner, tray_state):
        if runner is not self._runner:  # another game: nothing the tray saw before belongs to it
            self._runner, self._fall, self._falling_at, self._throw_began = runner, None, None, None
        if isinstance(event, ThrowImpact):
            if self._throw_began is None:
                self._throw_began = event.t
            return None
        if type(event).__name__ == "HeatFalling":  # a weighing tray: dice are leaving, the count follows
            self._falling_at = event.t
            self.hint = {"action": "heat_fall", "fell": None}
            return None
        return super().action_for(event, runner, tray_state)

    def tray(self, runner, event, values):
        awaiting = runner.awaiting()
        if isinstance(event, ThrowSettled):
            began, self._throw_began = self._throw_began, None
            if self._fell_during(began if began is not None else event.t - UNTIMED_THROW_S, event.t):
                self.hint = {"action": "heat_fall", "fell": self._fall[1] if self._fall else None}
                return None
            land = next((p for p in awaiting if p.action == "land"), None)
            if land is None:
                return None
            face = event.face % 10 if event.face is not None else None
            zone = event.zone.value if event.zone else None
            if face is None or zone is None:
                self.hint = {"action": "land", "zone": zone, "face": face}
                return None
            return {"type": "land", "player": land.player, "zone": zone, "face": face}
        if isinstance(event, DieAdded):
            risk = next((p for p in awaiting if p.action == "risk"), None)
            on_table = runner.session.view(awaiting=False).get("heat") if risk is not None else None
            # A die that only brings the stack up to the game's Heat is the table catching up, not a Risk.
            if risk is not None and on_table is not None and event.dice > on_table["dice"]:
                return {"type": "risk", "player": risk.player}
        if isinstance(event, Collapse):
            fell = event.fell
            if self._fall is not None and event.t - self._fall[0] <= SPLIT_FALL_S:
                fell += self._fall[1]  # the rest of the same fall, reported a moment later
            self._fall = (event.t, fell)
            self.hint = {"action": "heat_fall", "fell": fell}
        return None

    def _fell_during(self, began: float, settled: float) -> bool:
        """Whether the Heat started falling during a throw that began at ``began`` and settled at ``settled``."""
        times = [t for t in (self._falling_at, self._fall[0] if self._fall else None) if t is not None]
        return any(began - FALL_BEFORE_THROW_S <= t <= settled for t in times)

    _fall: tuple[float, int] | None = None
    """When the last collapse came and how many dice it had brought down in all."""
    _falling_at: float | None = None
    """When a weighing tray last said the Heat was falling (before it had the count)."""
    _runner: Any = None
    """The game the remembered fall and throw belong to."""
    _throw_began: float | None = None
    """The first knock of the throw under way, if one was heard since the last settling."""


def _round_start(log, action_type: str) -> int:
    """Where the current run of ``action_type`` actions began in the log."""
    i = len(log)
    while i > 0 and log[i - 1].type == action_type:
        i -= 1
    return i


ADAPTERS: dict[str, Adapter] = {
    "even-odd": EvenOddAdapter(),
    "clincher": ClincherAdapter(),
    "hell-for-leather": HellForLeatherAdapter(),
}
DEFAULT = Adapter()


def for_game(game: str) -> Adapter:
    return ADAPTERS.get(game, DEFAULT)
