"""Every sentence a player reads is in plain words: no code, no internal names, no slips.

Random games of all four games are played through the real widgets at 800x480
(the bot picks each answer, the screen follows). In every state the test reads
what the window shows (the status panel, the prompt and its buttons, the log
strip, any reveal or other overlay), the question Undo would ask, now and then
a player's private sheet, and at the end the whole story as the log tells it.
Each sentence is checked for the marks of text that was never meant for a
player (see ``SLIPS``): a Python list ("Crime roll: [2, 6]"), an arrow
("Heat 2 -> 3"), a snake_case name ("zone Outside, face 0"), "None", "(s)",
a word said twice ("Ivory Ivory"), a possessive after a final s ("Widows's"),
a range that is one number ("needs 2 to 2"), a bare count after a colon
("Scene: 0", "box 500"), a count of one with a plural noun ("1 dice to roll").

CI plays a bounded number of states per game; for a longer run:
``TN_SENTENCE_SEEDS=10 TN_SENTENCE_STATES=100000 ./tn test tests/kiosk/test_sentences.py``.
"""

from __future__ import annotations

import os
import random
import re

import pytest

from testkit import drive

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")

from .test_layout import plain, shown  # noqa: E402
from .uiplay import GAMES, close_overlays  # noqa: E402

SEEDS = range(int(os.environ.get("TN_SENTENCE_SEEDS", "2")))
STATES = int(os.environ.get("TN_SENTENCE_STATES", "150"))  # per game and seed: a bounded sample for CI

SLIPS: dict[str, re.Pattern[str]] = {
    "a list in brackets": re.compile(r"\[[^\]]*\]|\{[^}]*\}"),
    "an arrow": re.compile(r"->|=>|→"),
    "a snake_case name": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "None": re.compile(r"\bNone\b"),
    "a '(s)' plural": re.compile(r"\(s\)|\(es\)"),
    "a word said twice": re.compile(r"\b([A-Za-z]{2,})\s+\1\b", re.IGNORECASE),
    "a possessive after a final s": re.compile(r"\b\w*s's\b"),
    "a range of one number": re.compile(r"\b(\d+) to \1\b"),
    "an internal word": re.compile(r"\bbox \d|\bScene: \d|\w - \w|\(\d+, "),
    "an action in code": re.compile(r"^[\w ]+: [a-z][a-z ]* \([a-z_]+ ", re.MULTILINE),
    "one of a plural": re.compile(r"(?<![\d.,])\b1 (dice|points|players|cards|tokens|scenes|Risks|votes|chips)\b"),
}
"""What gives away text that was never written for a player, by name."""


def slips(text: str) -> list[str]:
    """The names of the slips in ``text`` (empty: it reads as plain words)."""
    return [name for name, pattern in SLIPS.items() if pattern.search(text)]


def test_the_checks_catch_each_slip_the_issue_names():
    for seen in ("Your roll: [2, 6]", "Roger: land (zone Outside, face 0)", "GM: difficulty (token Green)",
                 "box 500", "difficulty - token", "Chosen (0, needs 2 to 2): nothing yet", "Scene: 0",
                 "Heat 2 -> 3", "Iron Widows's Heat", "Ivory Ivory", "1 point(s)", "winner: None", "1 dice to roll."):
        assert slips(seen), seen
    for fine in ("Roger's die landed outside the target.", "Chosen: nothing yet. Pick 2.", "Scene 3, called by Bo",
                 "The Dockworkers' Union", "Iron Widows' Heat rises from 2 to 3", "Bo wagers 2 on Even.",
                 "1 die to roll.", "11 dice to roll.", "21 points"):
        assert not slips(fine), (fine, slips(fine))


def on_screen() -> list[str]:
    """Every text the window shows now (overlays included), as a player reads it."""
    from kivy.core.window import Window
    from kivy.uix.label import Label
    from kivy.uix.textinput import TextInput

    texts = []
    for root in Window.children:
        for w in drive.walk(root):
            if isinstance(w, Label) and shown(w) and w.text.strip():
                texts.append(plain(w))
            elif isinstance(w, TextInput) and shown(w) and w.text.strip():
                texts.append(w.text)
    return texts


def undo_question(app) -> str | None:
    """The question Undo asks now, read from its overlay, which is then closed."""
    if not app.runner.session.log or app.overlays:
        return None
    app.play.ask_undo()
    drive.pump(1)
    if not app.overlays:
        return None
    overlay = app.overlays[-1]
    text = " ".join(plain(w) for w in drive.walk(overlay) if hasattr(w, "text") and hasattr(w, "markup"))
    overlay.dismiss()
    drive.pump(1)
    return text


def private_sheet(app, prompt) -> list[str]:
    app.play.open_private(prompt.player, prompt)
    look = app.overlays[-1]
    look._open()
    drive.pump(1)
    texts = on_screen()
    look.dismiss()
    drive.pump(1)
    return texts


def read_a_game(app, game: str, seed: int, states: int) -> dict[str, list[str]]:
    """Play a random game through the screen; every sentence with a slip, by where it was first read."""
    from kiosk.rules import RuleError, bot

    rng = random.Random(seed)
    app.start_game(game, {"seed": seed})
    found: dict[str, list[str]] = {}

    def read(where: str, texts) -> None:
        for text in texts:
            for name in slips(text):
                found.setdefault(f"{name}: {text[:160]!r}", []).append(where)

    for step in range(states):
        drive.pump(1)
        if app.overlays:  # a reveal: read it, then close it
            read(f"step {step} overlay", on_screen())
            close_overlays(app)
        if app.runner.outcome is not None:
            break
        read(f"step {step}", on_screen())
        if step % 3 == 0:
            question = undo_question(app)
            if question:
                read(f"step {step} undo", [question])
        prompts = app.runner.awaiting()
        required = [p for p in prompts if not p.optional]
        pool = prompts if not required or rng.random() < 0.1 else required
        prompt = rng.choice(pool)
        if prompt.secret and rng.random() < 0.25:
            read(f"step {step} {prompt.player}'s sheet", private_sheet(app, prompt))
        try:
            app.runner.propose(bot.fill(prompt, rng))
        except RuleError:
            pass
    drive.pump(1)
    read("the last screen", on_screen())
    close_overlays(app)
    read("game over", on_screen())
    read("the log", app.runner.session.recap())
    for player in app.runner.players():
        read(f"{player}'s log", app.runner.session.recap(player))
    app.go_home()
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_sentence_of_a_random_game_reads_as_plain_words(app, game):
    found: dict[str, list[str]] = {}
    for seed in SEEDS:
        for slip, where in read_a_game(app, game, seed=7 + seed, states=STATES).items():
            found.setdefault(slip, []).extend(where)
    report = [f"{s}  (first at {w[0]}, {len(w)} times)" for s, w in sorted(found.items())]
    assert not report, f"{game}:\n" + "\n".join(report)


def test_a_team_whose_name_ends_in_s_owns_its_heat_in_plain_words():
    """The log said "Iron Widows's Heat 2 -> 3 (Risk); status Quiet." (a team name from kiosk.names)."""
    from kiosk.rules.hell_for_leather.common import change_heat
    from kiosk.rules.hell_for_leather.models import Team

    team = Team(name="Iron Widows", members=["Ann", "Bo"], heat=2)
    text = change_heat(team, 1, "Risk").text
    assert text.startswith("Iron Widows' Heat rises from 2 to 3") and not slips(text), text
