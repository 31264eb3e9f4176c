"""The lessons Home offers (kiosk.parts.lessons), without a window."""

from __future__ import annotations

import logging

from kiosk.lessonindex import Offer
from kiosk.parts.lessons import Lessons


def test_the_shipped_lesson_is_offered_and_a_broken_one_is_left_out_and_logged(tmp_path, caplog):
    own = tmp_path / "lessons"
    own.mkdir()
    (own / "half-edited.toml").write_text('game = "even-odd"\ntitle = "Mine"\n[[steps]]\nsay = \n', encoding="utf-8")
    lessons = Lessons(own)
    with caplog.at_level(logging.WARNING, logger="kiosk.parts.lessons"):
        lessons.check()
        lesson = lessons.for_game("even-odd")
    assert lesson is not None and lesson.title == "Learn Even/Odd in 3 minutes"
    assert "lesson not offered" in caplog.text and "half-edited.toml" in caplog.text
    assert lessons.for_game("no-such-game") is None


def test_before_the_check_home_offers_each_lesson_from_its_file_and_the_check_drops_a_broken_one(tmp_path):
    own = tmp_path / "lessons"
    own.mkdir()
    broken = own / "mine.toml"
    broken.write_text('game = "toy"\ntitle = "Learn the toy"\nminutes = 2\nscenario = "nowhere.toml"\n\n'
                      '[[steps]]\nsay = "Lock a number."\n', encoding="utf-8")
    lessons = Lessons(own)
    offered = lessons.for_game("toy")
    assert isinstance(offered, Offer) and offered.minutes == 2 and offered.path == broken
    assert lessons.check() is True  # what Home offers changed: the toy's lesson goes
    assert lessons.for_game("toy") is None and lessons.for_game("even-odd") is not None
    assert lessons.check() is False  # once only


def test_a_missing_folder_of_the_kiosks_own_is_no_problem(tmp_path):
    assert Lessons(tmp_path / "nowhere").for_game("even-odd") is not None
