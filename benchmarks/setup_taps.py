"""Taps and typed characters from the home screen to each game's first scene, no phones.

Plays each game's setup and opening through the real kiosk widgets (``testkit.drive``:
every touch is a ``drive.press`` on a widget, found and touched as a finger would).
The table it imitates is in a hurry and happy with what the screen offers:

* the setup wizard's answers are taken as shown (the names offered, the options'
  defaults): home, the game's button, "Start the game";
* a text box already filled in (a suggestion) is kept; an empty one is typed into,
  with the random bot's two words (about 11 characters: people write more, so the
  typed counts are a floor);
* every decision (which card, which player, how many, what to do next) is the random
  bot's, made by touching its button; die rolls use the screen's "Roll for me" where
  there is one, else each face is touched;
* a secret answer is given on the shared screen, passed to its player (they prove who
  they are by holding Gray on their pad: counted as a pad hold, not a tap; where the pad
  cannot answer that secret the hold alone opens the sheet, else their name is tapped
  first); when that player has another secret waiting once it is locked, the same visit
  answers it;
* Promise Hollows' Systems, and each naming turn, take the names the screen offers, all
  at one tap (a table that tells the town details instead pays a few taps per detail).

"First scene", per game (docs/kiosk.md says the same):

* Promise Hollows: the case is chosen and the story begins (phase ``story``);
* Hell for Leather: contestants made and every Goal written or drawn, the first
  conflict's Threat awaited (past the ``exam``/``bios``/``goals`` phases);
* the Even/Odd case game: investigators introduced, the crime scene and both suspects
  presented, the first wagers awaited (phase ``wagers``);
* clincher scenes: the GM has called the first scene (past phase ``call``).

A refused answer (a suggestion the rules turned down, say) costs its taps too, and the
table tries again. Run under a virtual screen:

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python benchmarks/setup_taps.py [--seeds 1 2 3]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")

GAMES = ("promise-hollows", "hell-for-leather", "even-odd", "clincher")

FIRST_SCENE = {
    "promise-hollows": lambda state: state.phase == "story",
    "hell-for-leather": lambda state: state.phase not in ("exam", "tiebreak", "bios", "goals"),
    "even-odd": lambda state: state.phase == "wagers",
    "clincher": lambda state: state.phase != "call",
}
"""When each game's first scene has been reached (see the module's docstring)."""


class Counter:
    """Counts what the table does: taps on the screen, characters typed, pad holds."""

    def __init__(self) -> None:
        self.taps = self.typed = self.holds = self.refused = 0
        self.chained: list[str] = []
        """Secret prompts answered in a visit opened for another one (their taps go to that one)."""
        self.again = False
        """The last answer was refused: what is in the text boxes is not good enough."""

    def press(self, tag_or_widget) -> None:
        from testkit import drive

        self.taps += 1
        drive.press(tag_or_widget)


def _set_field(count: Counter, field, value, widget, rng: random.Random) -> None:
    """Give one field the bot's value through its widget, or keep what the screen offers."""
    from testkit import drive

    if field.kind == "choice":
        if widget.value != value:
            count.press(f"{field.name}={value!r}")
    elif field.kind == "int":
        if widget.value == value:
            return
        if drive.find_all(f"{field.name}={value!r}"):
            count.press(f"{field.name}={value!r}")
        else:
            while widget.value != value:
                step = 5 if abs(value - widget.value) >= 5 else 1
                count.press(f"{field.name}{'+' if value > widget.value else '-'}{step}")
    elif field.kind == "text":
        if widget.value and not count.again:  # a suggestion is on screen: the table keeps it
            return
        if widget.value and drive.find_all(f"{field.name}:new"):  # refused: draw another
            count.press(f"{field.name}:new")
            return
        widget.box.focus = True
        widget.box.text = ""
        widget.box.insert_text(value)  # what the on-screen keyboard does, key by key
        widget.box.focus = False
        count.typed += len(value)
        drive.pump(1)
    elif drive.find_all(f"{field.name}:roll"):
        count.press(f"{field.name}:roll")
    else:
        for item in value:
            count.press(f"{field.name}={item!r}")


def _prove(app, count: Counter, player: str) -> None:
    from testkit import drive
    from tests.kiosk import uiplay

    if drive.find_all("hold:cancel"):
        count.holds += 1
    uiplay.prove_it_is(app, player)


def _hold_opens(app, count: Counter, player: str) -> bool:
    """The player holds Gray on their own pad (no tap): True if that opened their sheet."""
    from kiosk.ui.overlays import PrivateLook
    from tests.kiosk import uiplay

    seat = app.runner.players().index(player) + 1
    if app.controller is None or not app.controller.has_pad(seat) or app.overlays:
        return False
    uiplay.hold_gray(app, seat)
    count.holds += 1
    return bool(app.overlays) and isinstance(app.overlays[-1], PrivateLook)


def _fill_and_lock(app, count: Counter, look, data: dict, rng: random.Random) -> None:
    """Answer the secret prompt open in ``look`` and lock it in (a roll that is all it asks
    is locked by "Roll for me" itself)."""
    before, asked = len(app.runner.session.log), look.prompt
    for f in asked.fields:
        _set_field(count, f, data[f.name], look.inputs[f.name], rng)
    if len(app.runner.session.log) == before and look.prompt is asked:
        count.press("private:lock")


def _answer(app, count: Counter, prompt, rng: random.Random) -> None:
    from kiosk.rules import bot
    from testkit import drive

    data = bot.fill(prompt, rng)
    if prompt.secret:
        if not _hold_opens(app, count, prompt.player):  # else: their name, then the hold
            count.press(f"secret:{prompt.player}")
            _prove(app, count, prompt.player)
        count.press("private:show")
        look = app.overlays[-1]
        answered = look.prompt
        _fill_and_lock(app, count, look, data, rng)
        while app.overlays and app.overlays[-1] is look and look.prompt is not answered and look.prompt:
            # the same visit goes on to the player's next waiting secret (a Crime roll, then the private self)
            answered = look.prompt
            count.chained.append(answered.action)
            _fill_and_lock(app, count, look, bot.fill(answered, rng), rng)
        if app.overlays and app.overlays[-1] is look:  # refused: the look stays open with the reason
            count.press("private:hide")
        return
    if drive.find_all("prompt:back"):  # a refused answer left its prompt open: back to the menu
        count.press("prompt:back")
    if prompt.action in ("add_name", "add_detail", "name_system") and drive.find_all("names:confirm"):
        count.press("names:confirm")  # the Systems, or a naming turn: the names offered, all at one tap
        return
    public = [p for p in app.runner.awaiting() if not p.secret and not p.optional]
    if len(public) > 1:
        count.press(f"act:{public.index(prompt)}")
        if not prompt.fields:
            return
    confirm = drive.find_all("prompt:confirm")  # this prompt's own button (a one-tap answer has none)
    before = len(app.runner.session.log)
    for f in prompt.fields:
        _set_field(count, f, data[f.name], app.play.inputs[f.name], rng)
    if len(app.runner.session.log) > before:
        return  # answered already ("Roll for me" when the roll is all it asks)
    if confirm and confirm[0].get_root_window() is not None:
        count.press(confirm[0])


def opening(app, game: str, seed: int, max_actions: int = 400, per_action: dict | None = None) -> dict[str, int]:
    """Home to ``game``'s first scene through the widgets; the counts.

    ``per_action``, when given, gathers what each kind of prompt cost: for each prompt
    action (secret ones marked), [answers, taps], added up over calls."""
    from testkit import drive
    from tests.kiosk import uiplay

    count = Counter()
    uiplay.back_home(app)
    count.press(f"home:new:{game}")
    count.press("setup:start")
    assert app.sm.current == "play", app.setup_screen.error.text
    rng = random.Random(seed)
    reached = FIRST_SCENE[game]
    for _ in range(max_actions):
        uiplay.close_overlays(app)
        if reached(app.runner.session.state):
            break
        before = len(app.runner.session.log)
        prompt = rng.choice([p for p in app.runner.awaiting() if not p.optional])
        taps = count.taps
        _answer(app, count, prompt, rng)
        if per_action is not None:
            cost = per_action.setdefault(prompt.action + (" (secret)" if prompt.secret else ""), [0, 0])
            cost[0] += 1
            cost[1] += count.taps - taps
            for action in count.chained:
                per_action.setdefault(action + " (secret, same visit)", [0, 0])[0] += 1
        count.chained.clear()
        drive.pump(1)
        count.again = len(app.runner.session.log) == before
        count.refused += count.again
    else:
        raise AssertionError(f"{game}: no first scene after {max_actions} answers")
    uiplay.close_overlays(app)
    return {"taps": count.taps, "typed": count.typed, "holds": count.holds, "refused": count.refused,
            "actions": len(app.runner.session.log)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument("--per-action", action="store_true",
                        help="also print, per prompt action, how many answers and taps it cost (over all seeds)")
    args = parser.parse_args()
    from testkit import drive

    app = drive.start(tempfile.mkdtemp(prefix="tn-setup-taps-"))
    try:
        for game in args.games:
            per_action: dict[str, list[int]] = {}
            runs = [opening(app, game, seed, per_action=per_action) for seed in args.seeds]
            taps = [r["taps"] for r in runs]
            typed = [r["typed"] for r in runs]
            print(f"{game}: taps median {statistics.median(taps)} (min {min(taps)}, max {max(taps)}); "
                  f"typed characters median {statistics.median(typed)} (min {min(typed)}, max {max(typed)}); "
                  f"pad holds median {statistics.median(r['holds'] for r in runs)}; "
                  f"actions median {statistics.median(r['actions'] for r in runs)}; "
                  f"refused answers {sum(r['refused'] for r in runs)}; seeds {args.seeds}")
            for seed, r in zip(args.seeds, runs):
                print(f"  seed {seed}: {r}")
            if args.per_action:
                n = len(args.seeds)
                print(f"  per prompt action, mean per seed ({n} seeds): answers, taps (setup's 2 taps not included)")
                for action, (answers, taps) in sorted(per_action.items(), key=lambda kv: -kv[1][1]):
                    print(f"    {action:32} {answers / n:6.1f} {taps / n:7.1f}")
    finally:
        drive.stop(app)
    return 0


if __name__ == "__main__":
    sys.exit(main())
