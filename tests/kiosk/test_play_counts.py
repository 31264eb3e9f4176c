"""Play counts per day in the store (schema 4): games started and finished, lessons, and the
average game length, as the operator menu shows them; kept when old games are deleted."""

import sqlite3
import time

from kiosk import games, lesson
from kiosk.runner import Runner
from kiosk.store import Store
from tests.rules.toy import ENGINE as TOY


def finish_toy(runner) -> None:
    runner.propose({"type": "lock", "player": "Ann", "number": 7})
    runner.propose({"type": "lock", "player": "Bo", "number": 2})
    while runner.outcome is None:
        who = next(p.player for p in runner.awaiting())
        runner.propose({"type": "add", "player": who, "amount": 1})


def test_a_day_counts_games_started_finished_lessons_and_the_average_length(store):
    today = time.strftime("%Y-%m-%d")
    finish_toy(Runner.new(store, TOY, {"seed": 1}))
    Runner.new(store, TOY, {"seed": 2})  # started, left unfinished
    lesson.LessonRunner.begin(store, lesson.load(lesson.SHIPPED / "even-odd.toml"))
    [day] = store.day_counts()
    assert (day.day, day.started, day.finished, day.lessons) == (today, 2, 1, 1)
    assert 0 <= day.average_s < 60


def test_an_undo_after_the_end_unfinishes_the_game_and_deleting_it_keeps_the_count(store):
    runner = Runner.new(store, TOY, {"seed": 1})
    finish_toy(runner)
    assert store.day_counts()[0].finished == 1
    runner.undo()
    assert store.day_counts()[0].finished == 0
    store.delete(runner.sid)
    assert store.day_counts()[0].started == 1  # the count is the day's, not the game's


def test_older_days_are_listed_newest_first_and_only_within_the_window(store):
    day = 86400
    for days_ago, finished in ((0, True), (1, False), (9, True)):
        started = time.time() - days_ago * day
        store.db.execute("INSERT INTO plays (session, game, kind, day, started, finished) VALUES (?, 'toy', 'game', ?, ?, ?)",
                         (100 + days_ago, time.strftime("%Y-%m-%d", time.localtime(started)), started,
                          started + 600 if finished else None))
    listed = store.day_counts(days=7)
    assert [(d.started, d.finished) for d in listed] == [(1, 1), (1, 0)]
    assert listed[0].average_s == 600 and listed[1].average_s is None


def test_a_version_3_store_is_migrated_with_its_games_counted(tmp_path):
    path = tmp_path / "v3.sqlite3"
    old = Store(path, engines=games.engine_for)
    done = Runner.new(old, TOY, {"seed": 1})
    finish_toy(done)
    Runner.new(old, TOY, {"seed": 2})
    old.db.execute("DROP TABLE plays")
    old.db.execute("PRAGMA user_version = 3")
    old.close()
    store = Store(path, engines=games.engine_for)
    try:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == 4
        [day] = store.day_counts()
        assert (day.started, day.finished, day.lessons) == (2, 1, 0)
        assert store.sessions()[0].actions >= 0  # the games are still there, as they were
    finally:
        store.close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT COUNT(*) FROM plays").fetchone()[0] == 2
    db.close()

