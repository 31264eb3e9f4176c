"""Each shipped lesson played from Home to its end through the real widgets: touch, the
simulated pads and tray. A step cannot be skipped by another input, Leave goes home at any
step, and the end offers the real game with the same players."""

import random

import pytest

from hardware.events import ButtonColour
from kiosk.rules import bot
from testkit import drive

from .uiplay import GAMES, answer, back_home, close_overlays, sim_table

pytestmark = pytest.mark.ui


@pytest.fixture(autouse=True, scope="module")
def four_games_on_home(app):
    """Home as a stand shows it: the four games, without the test-only toy game (a fifth card
    leaves the cards too little room at 800x480, and they overlap)."""
    everything = app.menu
    app.menu = lambda: [(game, title) for game, title in everything() if game != "toy"]
    yield
    app.menu = everything


def home_with_nothing_to_resume(app) -> None:
    """Home as a group walking up finds it: no game waiting."""
    for info in app.store.unfinished():
        app.store.abandon(info.id)
    back_home(app)
    drive.pump(3, draw=True)


def play_lesson(app, game: str, seed: int) -> list[str]:
    """Tap Learn on Home, then do what each step asks, as the table would (the bot picks the
    answers); returns the coach's lines in order."""
    rng = random.Random(seed)
    home_with_nothing_to_resume(app)
    drive.press(f"home:learn:{game}")
    runner = app.runner
    assert app.sm.current == "play" and runner.lesson.game == game
    said = []
    for _ in range(len(runner.lesson.steps)):
        close_overlays(app)
        step, before = runner.step, runner.index
        assert drive.find("coach:say").text == step.say
        said.append(step.say)
        if step.done.action is None:
            drive.press("coach:next")
        for _attempt in range(40):
            if runner.index != before:
                break
            prompt = rng.choice(runner.awaiting())
            if not sim_table(app, prompt, rng):
                answer(app, prompt, bot.fill(prompt, rng), rng)
            close_overlays(app)
        assert runner.index == before + 1, f"step {before + 1} of the {game} lesson never completed: {step.say}"
    assert runner.finished and drive.find_all("coach:real")
    return said


@pytest.mark.parametrize("game", GAMES)
def test_each_lesson_plays_from_home_to_its_end_and_offers_the_real_game(app, game):
    play_lesson(app, game, seed=11)
    lesson_runner = app.runner
    drive.press("coach:real")
    assert app.sm.current == "play" and app.runner is not lesson_runner
    assert not hasattr(app.runner, "lesson") and not drive.find_all("coach:bar")
    assert app.runner.players() == lesson_runner.engine.players(lesson_runner.session.state)
    assert app.runner.session.log == []  # the real game, from its beginning
    unfinished = {info.id for info in app.store.unfinished()}
    assert lesson_runner.sid not in unfinished and app.runner.sid in unfinished
    back_home(app)


def test_a_pad_press_for_a_later_step_changes_nothing_and_leave_goes_home(app):
    home_with_nothing_to_resume(app)
    drive.press("home:learn:even-odd")
    runner = app.runner
    drive.press("coach:next")
    assert runner.progress() == "Step 2 of 7"  # Nadia's secret wager
    for colour in (ButtonColour.WHITE, ButtonColour.GRAY):  # Pilar (pad 3) locks a bet of 1 on Even
        app.sim_pads.tap(3, colour)
        drive.pump(2)
    assert runner.progress() == "Step 2 of 7" and len(runner.session.log) == runner.start_len
    with pytest.raises(Exception, match="Nadia, bet in secret"):
        runner.propose({"type": "wager", "player": "Pilar", "side": "even", "points": 1})
    app.sim_pads.tap(1, ButtonColour.BLACK)
    app.sim_pads.tap(1, ButtonColour.GRAY)  # Nadia: 1 on Odd, locked
    drive.pump(2)
    assert runner.progress() == "Step 3 of 7" and drive.find("coach:say").text.startswith("Oscar")
    drive.press("coach:leave")
    assert app.sm.current == "home" and not drive.find_all("coach:bar") and app.runner is None
    assert runner.sid not in {info.id for info in app.store.unfinished()}  # a lesson is not kept to resume
    assert app.sm.height == drive.find("home:operator").get_root_window().height  # the screen has its room back


def test_a_phone_answers_its_step_and_is_told_the_step_when_it_is_not_its_turn(app):
    from kiosk.phones.events import PhoneAction

    home_with_nothing_to_resume(app)
    drive.press("home:learn:even-odd")
    runner = app.runner
    drive.press("coach:next")
    early = app.controller.handle(PhoneAction("Oscar", {"type": "wager", "side": "odd", "points": 2}))
    assert early.error is not None and "Nadia, bet in secret" in early.error  # back to Oscar's phone only
    assert len(runner.session.log) == runner.start_len and runner.progress() == "Step 2 of 7"
    assert "Nadia" not in app.play.error.text  # the shared screen says nothing of a phone's refusal
    ok = app.controller.handle(PhoneAction("Nadia", {"type": "wager", "side": "even", "points": 1}))
    assert ok.error is None and runner.progress() == "Step 3 of 7"
    drive.press("coach:leave")
