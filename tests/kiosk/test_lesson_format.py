"""Lesson files (kiosk/lesson.py): what a designer writes, what a bad file is told, and the
guards that keep a lesson on its step. No Kivy here."""

import pytest

from kiosk import lesson
from kiosk.rules import RuleError

EVEN_ODD = lesson.SHIPPED / "even-odd.toml"

GOOD = """
game = "even-odd"
title = "Learn Even/Odd"
minutes = 3
scenario = "even-odd-first-scene.toml"

[[steps]]
say = "Read the suspect papers."

[[steps]]
say = "Nadia bets."
done = { action = "wager", player = "Nadia" }

[[steps]]
say = "The others bet."
done = { action = "wager", times = 2 }
"""


def write(tmp_path, text, name="mine.toml"):
    """A lesson in a designer's folder, with the shipped start scenario beside it."""
    (tmp_path / "even-odd-first-scene.toml").write_text(
        (lesson.SHIPPED / "even-odd-first-scene.toml").read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_every_shipped_lesson_loads_and_its_scenario_reaches_its_position():
    listed = lesson.listing([lesson.SHIPPED])
    assert [item.problem for item in listed if item.problem] == []
    games = {item.lesson.game for item in listed}
    assert games == {"even-odd", "clincher", "promise-hollows", "hell-for-leather"}
    for item in listed:
        assert item.lesson.title.startswith("Learn ") and f"{item.lesson.minutes} minutes" in item.lesson.title
        item.lesson.start()  # the scenario plays and meets its [expect]


@pytest.mark.parametrize("change, named", [
    (("minutes = 3", "minutes = 0"), "minutes"),
    (('"wager", player = "Nadia"', '"wagr", player = "Nadia"'), "step 2 waits for 'wagr'"),
    (('player = "Nadia"', 'player = "Nadja"'), "step 2 names 'Nadja', who is not at the table"),
    (('scenario = "even-odd-first-scene.toml"', 'scenario = "nowhere.toml"'), "'nowhere.toml' is neither"),
    (('game = "even-odd"', 'game = "clincher"'), "its scenario is for 'even-odd'"),
    (('say = "Nadia bets."', 'say = "Nadia bets."\npoint = { pad = "purple" }'), "steps.2.point.pad"),
    (('say = "Nadia bets."', 'sya = "Nadia bets."'), "steps.2.say: Field required"),
    (('minutes = 3', 'minutes = 3\n[broken'), "not valid TOML"),
])
def test_a_bad_lesson_file_gets_one_message_naming_the_file_and_what_is_wrong(tmp_path, change, named):
    path = write(tmp_path, GOOD.replace(*change))
    with pytest.raises(lesson.LessonError) as err:
        lesson.load(path)
    assert str(path) in str(err.value) and named in str(err.value)
    listed = lesson.listing([tmp_path])  # Home lists it with its problem (and skips the scenario beside it)
    assert [item.path.name for item in listed] == ["mine.toml"] and named in listed[0].problem


def test_a_designer_lesson_is_found_in_the_data_folder(tmp_path):
    write(tmp_path, GOOD)
    assert lesson.for_game([tmp_path], "even-odd").title == "Learn Even/Odd"
    assert lesson.for_game([tmp_path], "clincher") is None


def begin(store, tmp_path):
    return lesson.LessonRunner.begin(store, lesson.load(write(tmp_path, GOOD)))


def test_a_step_offers_only_its_input_and_refuses_any_other_with_the_coach_line(store, tmp_path):
    runner = begin(store, tmp_path)
    assert runner.awaiting() == []  # a reading step: only the coach's Next moves on
    with pytest.raises(RuleError) as err:
        runner.propose({"type": "wager", "player": "Nadia", "side": "odd", "points": 1})
    assert "Read the suspect papers." in str(err.value) and len(runner.session.log) == 6
    assert runner.next_step() and runner.progress() == "Step 2 of 3"
    assert [(p.action, p.player) for p in runner.awaiting()] == [("wager", "Nadia")]
    assert not runner.next_step()  # Next cannot skip a step that waits for play
    with pytest.raises(RuleError, match="Nadia bets."):
        runner.propose({"type": "wager", "player": "Oscar", "side": "odd", "points": 1})
    runner.propose({"type": "wager", "player": "Nadia", "side": "odd", "points": 1})
    assert {p.player for p in runner.awaiting()} == {"Oscar", "Pilar"}
    runner.propose({"type": "wager", "player": "Oscar", "side": "even", "points": 2})
    assert runner.index == 2 and not runner.finished  # times = 2: one more
    runner.propose({"type": "wager", "player": "Pilar", "side": "even", "points": 0})
    assert runner.finished and runner.awaiting() == []
    with pytest.raises(RuleError, match="lesson is over"):
        runner.propose({"type": "roll", "player": "Oscar"})
    assert runner.real_setup() == {"players": ["Nadia", "Oscar", "Pilar"], "first_lead": "Oscar"}


def test_undo_takes_the_step_back_and_never_the_scenario(store, tmp_path):
    runner = begin(store, tmp_path)
    with pytest.raises(RuleError, match="nothing of yours to undo"):
        runner.undo()
    runner.next_step()
    runner.propose({"type": "wager", "player": "Nadia", "side": "odd", "points": 1})
    assert runner.index == 2
    runner.undo()
    assert runner.index == 1 and [(p.action, p.player) for p in runner.awaiting()] == [("wager", "Nadia")]
    assert len(store.lines(runner.sid)) - 1 == 6  # on disk too: the scenario's six moves


def test_the_screen_hears_of_the_new_step_before_it_draws(store, tmp_path):
    runner = begin(store, tmp_path)
    runner.next_step()
    seen = []
    runner.listeners.append(lambda change: seen.append([p.player for p in runner.awaiting()]))
    runner.propose({"type": "wager", "player": "Nadia", "side": "odd", "points": 1})
    assert seen == [["Oscar", "Pilar"]]
