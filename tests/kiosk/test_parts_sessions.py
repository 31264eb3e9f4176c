"""The games in the store (kiosk.parts.sessions), without a window: a scenario that cannot be
played stores nothing and says why, and "Delete all" takes the archive and the names too."""

from __future__ import annotations

from pathlib import Path

from kiosk import games
from kiosk.parts.sessions import Sessions
from kiosk.retention import Retention

SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "promise-hollows-gallery-revelation.toml"


def sessions_of(store, tmp_path, offered: dict | None = None) -> Sessions:
    retention = Retention(store, tmp_path / "archive.sqlite3", lambda: 90)
    engines = games.available() if offered is None else offered
    return Sessions(store, lambda: engines, retention)


def test_a_scenario_is_played_and_stored_or_refused_naming_the_file_with_nothing_stored(store, tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text("game = \n", encoding="utf-8")
    said = sessions_of(store, tmp_path).from_scenario(broken)
    assert isinstance(said, str) and str(broken) in said
    said = sessions_of(store, tmp_path, offered={}).from_scenario(SCENARIO)
    assert said == f"{SCENARIO}: Promise Hollows cannot be played on this kiosk"
    assert store.sessions() == []
    runner = sessions_of(store, tmp_path).from_scenario(SCENARIO)
    assert not isinstance(runner, str) and runner.session.log  # its moves were played
    assert [s.id for s in store.sessions()] == [runner.sid]


def test_delete_all_forgets_the_games_the_archive_and_the_names_but_not_the_settings(store, tmp_path):
    sessions = sessions_of(store, tmp_path)
    sessions.new("toy", {"players": ["Ann", "Bo"]})
    store.remember_players(["Ann", "Bo"])
    store.save_setting("idle_attract_s", 120)
    (tmp_path / "archive.sqlite3").write_bytes(b"")  # an archive of older games
    sessions.clear()
    assert store.sessions() == [] and store.remembered_players() == []
    assert not (tmp_path / "archive.sqlite3").exists()
    assert store.settings() == {"idle_attract_s": 120}
