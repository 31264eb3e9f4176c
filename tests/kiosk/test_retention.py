"""The retention rule (kiosk/retention.py, Store.archive): old finished games move to archive.sqlite3, none lost."""

from __future__ import annotations

import random
import time

import pytest

from kiosk import games
from kiosk.retention import BATCH, DAY_S, Retention
from kiosk.rules import Session, bot
from kiosk.store import Store


def played(store: Store, game: str, seed: int, finish: bool, days_ago: float) -> int:
    """A stored bot game (over, or eight moves in), last played ``days_ago``."""
    rng = random.Random(seed)
    session = Session(games.engine_for(game), {"seed": seed})
    if finish:
        bot.play(session, rng)
    else:
        for _ in range(8):
            bot.step(session, rng)
    sid = store.create(session)
    when = time.time() - days_ago * DAY_S
    store.db.execute("UPDATE sessions SET outcome = ?, started = ?, updated = ? WHERE id = ?",
                     (session.outcome, when - 3600, when, sid))
    return sid


@pytest.fixture
def stand(store):
    """Finished games 100 and 10 days old, an unfinished one 100 days old, and one abandoned 100 days ago."""
    ids = {
        "old": [played(store, g, n, True, 100) for n, g in enumerate(["even-odd", "clincher", "promise-hollows"])],
        "recent": played(store, "even-odd", 7, True, 10),
        "unfinished": played(store, "hell-for-leather", 8, False, 100),
        "abandoned": played(store, "clincher", 9, False, 100),
    }
    store.abandon(ids["abandoned"])
    store.db.execute("UPDATE sessions SET abandoned = ? WHERE id = ?", (time.time() - 100 * DAY_S, ids["abandoned"]))
    return ids


def test_old_finished_games_move_to_the_archive_with_their_logs(store, stand, tmp_path):
    moving = [*stand["old"], stand["abandoned"]]
    lines = {sid: store.lines(sid) for sid in moving}
    outcomes = {sid: store.info(sid).outcome for sid in moving}
    retention = Retention(store, tmp_path / "archive.sqlite3", lambda: 90)
    assert retention.step() == 4
    left = {info.id for info in store.sessions()}
    assert left == {stand["recent"], stand["unfinished"]}  # an unfinished game stays, however old
    archive = Store(tmp_path / "archive.sqlite3", engines=games.engine_for)
    for sid, log in lines.items():
        assert archive.lines(sid) == log  # what `table-noir replay` reads, unchanged
        assert archive.info(sid).outcome == outcomes[sid] == archive.load(sid).outcome  # and it replays to its end
    assert archive.info(stand["abandoned"]).abandoned is not None
    archive.close()
    assert store.db.execute("SELECT COUNT(*) FROM actions WHERE session IN (?, ?, ?, ?)",
                            (*stand["old"], stand["abandoned"])).fetchone()[0] == 0


def test_zero_days_keeps_everything_and_the_recheck_waits(store, stand, tmp_path):
    days = {"value": 0}
    now = {"value": time.time()}
    retention = Retention(store, tmp_path / "archive.sqlite3", lambda: days["value"], clock=lambda: now["value"])
    assert retention.step() == 0 and len(store.sessions()) == 6
    assert not (tmp_path / "archive.sqlite3").exists()
    days["value"] = 30
    assert retention.step() == 4 and retention.step() == 0  # done: nothing more due for an hour
    stand_new = played(store, "even-odd", 11, True, 40)
    assert retention.step() == 0  # within the hour: not even looked for
    now["value"] += 3601
    assert retention.step() == 1 and store.info(stand_new) is None


def test_batches(store, tmp_path):
    template = played(store, "even-odd", 1, True, 200)
    db = store.db
    for _ in range(BATCH + 7):
        cursor = db.execute("INSERT INTO sessions (game, setup, started, updated, outcome, log_format) "
                            "SELECT game, setup, started, updated, outcome, log_format FROM sessions WHERE id = ?",
                            (template,))
        db.execute("INSERT INTO actions SELECT ?, seq, action FROM actions WHERE session = ?",
                   (cursor.lastrowid, template))
    retention = Retention(store, tmp_path / "archive.sqlite3", lambda: 90)
    assert [retention.step(), retention.step(), retention.step()] == [BATCH, 8, 0]
    assert store.sessions() == []


def test_a_kill_between_copy_and_delete_loses_nothing_and_copies_once(store, stand, tmp_path):
    archive = tmp_path / "archive.sqlite3"
    old = stand["old"]
    deleted = []

    class Killed(Exception):
        pass

    real_transaction = store._transaction

    def copy_then_die():
        calls = {"n": 0}

        def transaction(*a, **kw):
            calls["n"] += 1
            if calls["n"] == 2:  # the copy is committed; the kill lands before the delete
                deleted.append(True)
                raise Killed
            return real_transaction(*a, **kw)
        return transaction

    store._transaction = copy_then_die()
    with pytest.raises(Killed):
        store.archive(old, archive)
    store._transaction = real_transaction
    assert deleted and {i.id for i in store.sessions()} >= set(old)  # still here
    assert store.archive(old, archive) == 3
    there = Store(archive, engines=games.engine_for)
    assert sorted(i.id for i in there.sessions()) == sorted(old)  # once each
    there.close()


def test_an_id_the_archive_already_holds_gets_a_new_one(tmp_path):
    """A store started afresh (moved aside when damaged) numbers its games from 1 again."""
    archive = tmp_path / "archive.sqlite3"
    first = Store(tmp_path / "one.sqlite3", engines=games.engine_for)
    a = played(first, "even-odd", 1, True, 100)
    first.archive([a], archive)
    first.close()
    second = Store(tmp_path / "two.sqlite3", engines=games.engine_for)
    b = played(second, "clincher", 2, True, 100)
    assert a == b == 1
    log = second.lines(b)
    second.archive([b], archive)
    second.close()
    there = Store(archive, engines=games.engine_for)
    infos = there.sessions()
    assert sorted(i.game for i in infos) == ["clincher", "even-odd"]
    moved = next(i for i in infos if i.game == "clincher")
    assert moved.id != 1 and there.lines(moved.id) == log
    there.close()


def test_forget_removes_the_archive(store, stand, tmp_path):
    retention = Retention(store, tmp_path / "archive.sqlite3", lambda: 90)
    retention.step()
    assert (tmp_path / "archive.sqlite3").exists()
    retention.forget()
    assert not list(tmp_path.glob("archive.sqlite3*"))


def test_the_home_screen_list_does_not_count_finished_games(store, stand):
    """unfinished() is chosen in SQL; the same games, in the same order, as filtering sessions()."""
    expected = [i for i in store.sessions() if i.outcome is None and i.abandoned is None]
    assert store.unfinished() == expected == [store.info(stand["unfinished"])]
    assert store.info(10**6) is None
