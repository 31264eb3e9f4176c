"""The session store and the runner: nothing accepted is lost, nothing refused is kept."""

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk import games
from kiosk.rules import RuleError, Session, bot
from kiosk.runner import Runner
from kiosk.store import Store, StoreError
from tests.rules.toy import ENGINE as TOY

from .commits import CommitGate

ROOT = Path(__file__).resolve().parents[2]


def test_store_uses_wal_and_full_sync(store):
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_resume_lands_on_the_same_state_and_prompt(store):
    runner = Runner.new(store, TOY, {"seed": 4})
    runner.propose({"type": "lock", "player": "Ann", "number": 7})
    runner.propose({"type": "lock", "player": "Bo", "number": 2})
    runner.propose({"type": "add", "player": "Ann", "amount": 3})
    again = Runner.resume(Store(store.path, engines=games.engine_for), runner.sid)
    assert again.session.state == runner.session.state
    assert [p.text for p in again.awaiting()] == ["Bo adds"]


def test_refused_action_is_not_stored_and_says_why(store):
    runner = Runner.new(store, TOY, {"seed": 1})
    with pytest.raises(RuleError, match="number must be from 1 to 9"):
        runner.propose({"type": "lock", "player": "Ann", "number": 12})
    assert store.sessions()[0].actions == 0
    assert runner.session.log == []


def test_listeners_only_hear_after_the_action_is_on_disk(store):
    runner = Runner.new(store, TOY, {"seed": 1})
    seen = []
    runner.listeners.append(lambda change: seen.append(len(store.lines(runner.sid)) - 1))
    runner.propose({"type": "lock", "player": "Ann", "number": 3})
    assert seen == [1]


def test_a_commit_behind_lets_append_return_first_and_is_on_disk_once_settled(tmp_path):
    store = Store(tmp_path / "behind.sqlite3", engines=games.engine_for, commit_behind=True)
    runner = Runner.new(store, TOY, {"seed": 1})
    gate = CommitGate(store)
    gate.open.clear()  # the disk is slow: the commit waits
    runner.propose({"type": "lock", "player": "Ann", "number": 3})  # returns all the same
    other = sqlite3.connect(store.path)
    count = "SELECT COUNT(*) FROM actions WHERE session = ?"
    assert other.execute(count, (runner.sid,)).fetchone()[0] == 0
    gate.open.set()
    store.settled()
    assert other.execute(count, (runner.sid,)).fetchone()[0] == 1
    runner.propose({"type": "lock", "player": "Bo", "number": 5})
    assert [a.player for a in store.load(runner.sid).log] == ["Ann", "Bo"]  # any read waits for the commit
    store.close()


def test_a_commit_behind_that_fails_is_rolled_back_and_named_once(tmp_path):
    store = Store(tmp_path / "behind.sqlite3", engines=games.engine_for, commit_behind=True)
    runner = Runner.new(store, TOY, {"seed": 1})
    runner.propose({"type": "lock", "player": "Ann", "number": 3})
    gate = CommitGate(store)
    gate.fail_next = sqlite3.OperationalError("disk I/O error")
    runner.propose({"type": "lock", "player": "Bo", "number": 5})
    with pytest.raises(StoreError, match=r"could not be saved \(disk I/O error\)"):
        store.settled()
    assert [a.player for a in Store(store.path, engines=games.engine_for).load(runner.sid).log] == ["Ann"]
    store.settled()  # said once; the store works on
    store.append(runner.sid, 2, runner.session.log[1])
    assert [a.player for a in store.load(runner.sid).log] == ["Ann", "Bo"]
    gate.remove()
    store.close()


def test_undo_removes_the_action_from_disk_too(store):
    runner = Runner.new(store, TOY, {"seed": 1})
    runner.propose({"type": "lock", "player": "Ann", "number": 3})
    runner.propose({"type": "lock", "player": "Bo", "number": 5})
    runner.propose({"type": "add", "player": "Ann", "amount": 2})
    undone = runner.undo()
    assert (undone.player, undone.type) == ("Ann", "add")
    assert len(Store(store.path, engines=games.engine_for).load(runner.sid).log) == 2
    with pytest.raises(StoreError, match="expected action 3, got 4"):
        store.append(runner.sid, 4, undone)


def test_a_closed_secret_round_cannot_be_undone_one_choice_at_a_time(store):
    """The Even/Odd defect, on the toy: once every lock is in, Undo may not reopen the last
    player's choice (they would re-choose knowing the others'), not even two taps later."""
    from kiosk.runner import SEALED

    runner = Runner.new(store, TOY, {"seed": 1})
    runner.propose({"type": "lock", "player": "Ann", "number": 3})
    runner.propose({"type": "lock", "player": "Bo", "number": 5})
    runner.propose({"type": "add", "player": "Ann", "amount": 2})
    runner.undo()  # the public add after the reveal: fine
    with pytest.raises(RuleError) as refused:
        runner.undo()
    assert refused.value.rule == SEALED
    assert [a.player for a in runner.session.log] == ["Ann", "Bo"]
    assert len(store.load(runner.sid).log) == 2  # nothing left the disk either
    assert runner.undo_plan().sealed


def test_the_operator_reopens_a_closed_round_whole_and_never_one_choice(store):
    runner = Runner.new(store, TOY, {"seed": 1})
    runner.propose({"type": "lock", "player": "Ann", "number": 3})
    runner.propose({"type": "lock", "player": "Bo", "number": 5})
    runner.undo(operator=True)
    assert runner.session.log == [] and store.load(runner.sid).log == []
    (round_,) = runner.secret_rounds()
    assert (round_.locked, sorted(round_.waiting)) == ([], ["Ann", "Bo"])


def test_an_open_round_lock_may_be_taken_back_before_anything_is_revealed(store):
    runner = Runner.new(store, TOY, {"seed": 1})
    runner.propose({"type": "lock", "player": "Ann", "number": 3})
    assert not runner.undo_plan().sealed
    runner.undo()
    assert runner.session.log == []


def test_sealed_rounds_are_known_again_after_a_resume(store):
    runner = Runner.new(store, TOY, {"seed": 1})
    runner.propose({"type": "lock", "player": "Ann", "number": 3})
    runner.propose({"type": "lock", "player": "Bo", "number": 5})
    resumed = Runner.resume(store, runner.sid)
    assert resumed.closed_rounds == [(0, 1)]
    with pytest.raises(RuleError):
        resumed.undo()


def test_secret_round_shows_who_locked_and_reveals_together(store):
    runner = Runner.new(store, TOY, {"seed": 1})
    changes = []
    runner.listeners.append(changes.append)
    runner.propose({"type": "lock", "player": "Bo", "number": 8})
    (round_,) = runner.secret_rounds()
    assert (round_.locked, round_.waiting) == (["Bo"], ["Ann"])
    assert changes[-1].reveal is None
    runner.propose({"type": "lock", "player": "Ann", "number": 2})
    assert changes[-1].reveal is not None
    assert runner.secret_rounds() == []


def test_locks_survive_resume_and_undo(store):
    runner = Runner.new(store, TOY, {"seed": 1})
    runner.propose({"type": "lock", "player": "Bo", "number": 8})
    resumed = Runner.resume(store, runner.sid)
    assert resumed.secret_rounds()[0].locked == ["Bo"]
    resumed.undo()
    assert resumed.secret_rounds()[0].locked == []


def test_export_is_a_log_replay_reads_and_a_recap(store, tmp_path):
    runner = Runner.new(store, TOY, {"seed": 9})
    rng = random.Random(9)
    while runner.outcome is None:
        try:
            runner.propose(bot.fill(rng.choice(runner.awaiting()), rng))
        except RuleError:
            pass
    log = store.export_jsonl(runner.sid, tmp_path / "game.jsonl")
    replayed = Session(TOY, json.loads(log.read_text().splitlines()[0])["setup"])
    for line in log.read_text().splitlines()[1:]:
        replayed.apply(json.loads(line))
    assert replayed.state == runner.session.state
    recap = store.export_recap(runner.sid, tmp_path / "recap.txt").read_text()
    assert runner.outcome in recap and "locked a number" in recap
    assert "you locked" not in recap  # private events stay out of the public recap
    assert store.unfinished() == []


def _kill_and_resume(tmp_path, game, kill_at):
    db = tmp_path / "kill.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("kill_player.py")), str(db), game, "5"],
        stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT,
    )
    shown = {}
    try:
        for line in child.stdout:
            if line.startswith("SHOWN"):
                _, n, view = line.split(" ", 2)
                shown[int(n)] = json.loads(view)
                if int(n) >= kill_at:
                    break
            elif line.startswith("DONE"):
                break
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
    assert shown, "the child showed nothing before it was killed"
    last = max(shown)
    store = Store(db, engines=games.engine_for)
    (info,) = store.sessions()
    resumed = Runner.resume(store, info.id)
    assert len(resumed.session.log) >= last  # everything shown was kept
    replay = Session(resumed.engine, resumed.session.setup)
    for action in resumed.session.log[:last]:
        replay.apply(action)
    assert json.loads(json.dumps(replay.view(None), sort_keys=True, default=str)) == shown[last]


def test_kill_mid_game_and_resume_loses_nothing_shown(tmp_path):
    _kill_and_resume(tmp_path, "toy", kill_at=3)


@pytest.mark.parametrize("game", [g for g in games.modules() if g != "toy"])
def test_kill_mid_real_game_and_resume(tmp_path, game):
    if game not in games.available():
        pytest.skip(f"{game} engine has not landed yet")
    _kill_and_resume(tmp_path, game, kill_at=25)


# -- the schema's version and its migrations --------------------------------------

UNVERSIONED_SCHEMA = """
CREATE TABLE sessions (id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, setup TEXT NOT NULL,
                       started REAL NOT NULL, updated REAL NOT NULL, outcome TEXT);
CREATE TABLE actions (session INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                      seq INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (session, seq));
"""


def _old_store(path, with_settings=True):
    """A store as builds before schema versioning wrote it (user_version 0), with one toy game."""
    db = sqlite3.connect(path)
    db.executescript(UNVERSIONED_SCHEMA)
    if with_settings:
        db.execute("CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO settings VALUES ('idle_attract_s', '600')")
    db.execute("INSERT INTO sessions (game, setup, started, updated) VALUES ('toy', '{\"seed\": 4}', 1.0, 2.0)")
    for seq, action in enumerate([{"type": "lock", "player": "Ann", "number": 7},
                                  {"type": "lock", "player": "Bo", "number": 2},
                                  {"type": "add", "player": "Ann", "amount": 3}], start=1):
        db.execute("INSERT INTO actions VALUES (1, ?, ?)", (seq, json.dumps(action)))
    db.commit()
    db.close()


@pytest.mark.parametrize("with_settings", [True, False], ids=["with-settings", "before-settings"])
def test_a_store_written_before_schema_versioning_opens_with_its_game_and_settings(tmp_path, with_settings):
    path = tmp_path / "old.sqlite3"
    _old_store(path, with_settings)
    store = Store(path, engines=games.engine_for)
    try:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == 4
        assert [(info.game, info.actions) for info in store.unfinished()] == [("toy", 3)]
        assert json.loads(store.lines(1)[0])["format"] == 1  # its actions were written in log format 1
        resumed = Runner.resume(store, 1)
        assert [p.text for p in resumed.awaiting()] == ["Bo adds"]
        resumed.propose({"type": "add", "player": "Bo", "amount": 2})  # and it plays on
        assert store.sessions()[0].actions == 4
        assert store.settings() == ({"idle_attract_s": 600} if with_settings else {})
    finally:
        store.close()


def test_a_migrated_store_opens_again_without_migrating_twice(tmp_path):
    path = tmp_path / "old.sqlite3"
    _old_store(path)
    Store(path, engines=games.engine_for).close()
    again = Store(path, engines=games.engine_for)
    try:
        assert again.db.execute("PRAGMA user_version").fetchone()[0] == 4
        assert len(again.lines(1)) == 4
    finally:
        again.close()


def test_a_store_from_a_newer_build_is_refused_by_name_and_left_alone(tmp_path):
    path = tmp_path / "new.sqlite3"
    Store(path, engines=games.engine_for).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.close()
    with pytest.raises(StoreError, match="schema version 99, written by a newer table-noir; this one reads versions up to 4"):
        Store(path, engines=games.engine_for)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 99
    db.close()
