"""A damaged sessions database never stops the kiosk: it is moved aside and a fresh one opened.

Each kind of damage from issue 19 (defect 6) is made on a real store file with games in it.
The old code (``Store(path)`` straight, as the app did) raises on every one of them.
"""

from __future__ import annotations

import json
import os
import sqlite3

import pytest

from kiosk import games
from kiosk.recovery import open_store
from kiosk.rules import Session
from kiosk.store import Store


def _store_with_a_game(path):
    """A store file holding one toy session, closed (as after a power cut, WAL folded in)."""
    store = Store(path, engines=games.engine_for)
    session = Session(games.engine_for("toy"), {"players": ["Ann", "Bo"]})
    session.apply({"type": "lock", "player": "Ann", "number": 4})
    store.create(session)
    store.save_setting("idle_attract_s", 600)
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    return path


def _random_bytes(path):
    path.write_bytes(os.urandom(8192))


def _truncated(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])


def _truncated_inside_the_header(path):
    path.write_bytes(path.read_bytes()[:50])


def _zeroed_header(path):
    data = bytearray(path.read_bytes())
    data[:100] = bytes(100)
    path.write_bytes(bytes(data))


def _directory(path):
    path.unlink()
    path.mkdir()
    (path / "something.txt").write_text("a folder where the database should be")


def _tables_overwritten(path):
    """The second page onwards (the tables) overwritten with noise; the header is fine."""
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page:] = os.urandom(len(data) - page)
    path.write_bytes(bytes(data))


DAMAGE = {
    "random bytes": _random_bytes,
    "truncated file": _truncated,
    "truncated header": _truncated_inside_the_header,
    "zeroed header": _zeroed_header,
    "a directory in its place": _directory,
    "tables overwritten": _tables_overwritten,
}


def _old_open(path):
    """What the kiosk did before: open the store and read its settings (``config_hw``) and games."""
    store = Store(path, engines=games.engine_for)
    try:
        store.settings()
        store.sessions()
    finally:
        store.close()


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_old_way_of_opening_fails_on_each_damage(tmp_path, kind):
    path = _store_with_a_game(tmp_path / "sessions.sqlite3")
    DAMAGE[kind](path)
    with pytest.raises((sqlite3.Error, OSError)):
        _old_open(path)


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_a_damaged_file_is_moved_aside_and_a_fresh_store_opens(tmp_path, kind):
    path = _store_with_a_game(tmp_path / "sessions.sqlite3")
    DAMAGE[kind](path)
    before = sorted(p.name for p in tmp_path.iterdir())
    damaged_content = path.read_bytes() if path.is_file() else None

    store, recovery = open_store(path, engines=games.engine_for)
    try:
        assert recovery is not None and not recovery.games_kept
        assert store.sessions() == []  # a fresh store that works
        sid = store.create(Session(games.engine_for("toy"), {"players": ["Ann", "Bo"]}))
        assert store.load(sid).log == []
    finally:
        store.close()
    # Nothing was deleted: the damaged file is where the message says, byte for byte.
    assert recovery.kept_at.parent == tmp_path and recovery.kept_at.name.startswith("sessions.sqlite3.damaged-")
    if damaged_content is None:
        assert (recovery.kept_at / "something.txt").exists()
    else:
        assert recovery.kept_at.read_bytes() == damaged_content
    assert str(recovery.kept_at) in recovery.explain()
    assert len(list(tmp_path.iterdir())) >= len(before)


def test_side_files_go_aside_with_the_damaged_file(tmp_path):
    path = _store_with_a_game(tmp_path / "sessions.sqlite3")
    _zeroed_header(path)
    (tmp_path / "sessions.sqlite3-wal").write_bytes(b"old wal")
    store, recovery = open_store(path, engines=games.engine_for)
    store.close()
    assert recovery.kept_at.with_name(recovery.kept_at.name + "-wal").read_bytes() == b"old wal"


def test_a_second_damage_the_same_second_does_not_overwrite_the_first(tmp_path):
    path = tmp_path / "sessions.sqlite3"
    kept = []
    for _ in range(2):
        path.write_bytes(os.urandom(4096))
        store, recovery = open_store(path, engines=games.engine_for)
        store.close()
        path.unlink()
        path.with_name(path.name + "-wal").unlink(missing_ok=True)
        path.with_name(path.name + "-shm").unlink(missing_ok=True)
        kept.append(recovery.kept_at)
    assert kept[0] != kept[1] and kept[0].exists() and kept[1].exists()


def test_a_settings_row_that_is_not_json_drops_only_that_setting_and_keeps_the_games(tmp_path):
    path = _store_with_a_game(tmp_path / "sessions.sqlite3")
    with sqlite3.connect(path) as db:
        db.execute("INSERT OR REPLACE INTO settings VALUES ('operator_pin', '{not json')")
    with pytest.raises(json.JSONDecodeError):
        _old_open(path)  # the old kiosk died in config_hw on this

    store, recovery = open_store(path, engines=games.engine_for)
    try:
        assert recovery is not None and recovery.games_kept
        assert "operator_pin" in recovery.problem
        assert store.settings() == {"idle_attract_s": 600}  # the readable setting stays
        assert len(store.sessions()) == 1  # and so do the games
    finally:
        store.close()
    with sqlite3.connect(recovery.kept_at) as copy:  # the copy is the file as it was
        rows = dict(copy.execute("SELECT name, value FROM settings"))
    assert rows["operator_pin"] == "{not json"
    assert "{not json" not in recovery.explain()  # a setting's value (maybe a PIN) is never echoed


def test_a_healthy_store_is_left_alone(tmp_path):
    path = _store_with_a_game(tmp_path / "sessions.sqlite3")
    store, recovery = open_store(path, engines=games.engine_for)
    store.close()
    assert recovery is None
    assert sorted(p.name for p in tmp_path.iterdir() if ".damaged-" in p.name or ".copy-" in p.name) == []


# -- the kiosk itself: it starts, and the operator reads what happened -------------------------------

needs_display = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")


def _start_kiosk(data_dir, **kw):
    from kiosk.ui import overlays
    from testkit import drive

    overlays.ANIMATION_SCALE["value"] = 0
    drive.DRAW["value"] = False
    return drive.start(str(data_dir), **kw)


@needs_display
@pytest.mark.parametrize("kind", ["random bytes", "zeroed header", "a directory in its place"])
def test_the_kiosk_starts_on_a_damaged_database_and_says_where_the_old_file_is(tmp_path, kind):
    from testkit import drive

    path = _store_with_a_game(tmp_path / "sessions.sqlite3")
    DAMAGE[kind](path)
    app = _start_kiosk(tmp_path)
    try:
        assert app.sm.current == "problem"
        said = app._screens["problem"].texts()
        kept = next(tmp_path.glob("sessions.sqlite3.damaged-*"))
        assert str(kept) in said and "damaged" in said
        drive.press("problem:continue")
        assert app.sm.current == "home"
        drive.press("home:new:toy")  # and a new game plays on the fresh store
        drive.press("setup:start")
        assert app.runner is not None and app.store.sessions()[0].game == "toy"
    finally:
        _stop(app)


@needs_display
def test_the_kiosk_starts_on_unreadable_settings_and_keeps_the_games(tmp_path):
    from testkit import drive

    path = _store_with_a_game(tmp_path / "sessions.sqlite3")
    with sqlite3.connect(path) as db:
        db.execute("INSERT OR REPLACE INTO settings VALUES ('idle_attract_s', 'x')")
    app = _start_kiosk(tmp_path)
    try:
        assert app.sm.current == "problem"
        assert "saved games are kept" in app._screens["problem"].texts()
        drive.press("problem:continue")
        assert drive.find_all("home:resume")  # the game from before is still there to resume
    finally:
        _stop(app)


@needs_display
def test_a_bad_config_opens_the_explanation_with_a_way_into_the_operator_menu(tmp_path):
    from testkit import drive

    bad = tmp_path / "site.toml"
    bad.write_text('[tray]\nbackend = "serail"\n[kiosk]\nidle_attract_s = 5\n')
    app = _start_kiosk(tmp_path / "data", config_path=str(bad))
    try:
        assert app.sm.current == "problem"
        said = app._screens["problem"].texts()
        assert str(bad) in said and "tray.backend" in said and "idle_attract_s" in said
        assert app.config_hw.tray.backend == "sim"  # running on the defaults meanwhile
        drive.press("problem:operator")
        assert [type(o).__name__ for o in app.overlays] == ["PinPad"]
    finally:
        for o in list(app.overlays):
            o.dismiss()
        _stop(app)


def _stop(app) -> None:
    """Stop a kiosk started here (``drive.stop`` also takes it off the shared window)."""
    from testkit import drive

    drive.stop(app)
