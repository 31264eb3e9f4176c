"""The session store: every accepted action goes to SQLite before the screen shows it.

One database file holds every game the kiosk has run. Its tables:

* ``sessions``: one row per game (game id, setup as JSON, when it started,
  once it is over the outcome, the session-log format of its actions, and when
  it was abandoned, if the table gave it up).
* ``actions``: one row per accepted action, numbered from 1 in each session.
* ``settings``: what the organiser changed on the kiosk.
* ``plays``: one row per game or lesson started, for the operator's counts per day
  (kept when a session is deleted; see ``day_counts``).

The schema carries its version (``PRAGMA user_version``); opening a store from
an older build runs the numbered ``MIGRATIONS`` it lacks (see ``migrate``).

The database runs in WAL mode with ``synchronous=FULL``, so a committed
append survives a killed process or a cut cable. ``append`` commits before it
returns, so nothing a player has seen can be lost.

The kiosk opens its store with ``commit_behind=True``: then ``append`` hands
its COMMIT (the disk sync: a median 1 ms and a p95 2.6 ms on the development
machine's disk, and an SD card is slower) to a worker thread and returns, the
screen builds and draws the new frame meanwhile, and the kiosk calls
``settled()`` (through ``Runner.settle``) just before that frame is shown. The promise is the same:
nothing reaches the screen before it is on disk. Any other use of the store
also waits for the commit first, so the connection is never used by two
threads at once.

Resuming replays the stored actions through the engine (the log is the
truth), which lands exactly where the game was, prompt included. Exports are
the JSON-lines log ``table-noir replay`` reads and a plain-text recap.
"""

from __future__ import annotations

import json
import queue
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # the rules (and pydantic) load when a game is stored or read, not when the kiosk opens
    from kiosk.rules import Engine, Session
    from kiosk.rules.core import Action

# The schema is versioned with SQLite's ``PRAGMA user_version``. Each migration takes a
# store from the version before it to its number, in one transaction with the new
# number, so a store is always at one version or the next, never between. Stores
# from before versioning read 0. Add a migration (never edit a shipped one) and
# note it in CHANGELOG.md.
MIGRATIONS: dict[int, str] = {
    # 1: the tables as first shipped (unversioned stores have them, or all but settings).
    1: """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    setup TEXT NOT NULL,
    started REAL NOT NULL,
    updated REAL NOT NULL,
    outcome TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    session INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (session, seq)
);
CREATE TABLE IF NOT EXISTS settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
""",
    # 2: each session remembers the session-log format its actions were written in,
    # so an export says which format it is and a later build can read old actions.
    2: "ALTER TABLE sessions ADD COLUMN log_format INTEGER NOT NULL DEFAULT 1;",
    # 3: a game the table gave up on for good (behind the PIN) keeps its log but leaves
    # the home screen's list of unfinished games: when it was abandoned, or NULL.
    3: "ALTER TABLE sessions ADD COLUMN abandoned REAL;",
    # 4: play counts for the operator (convention stands): one row per game started, kept
    # when its session is deleted, so a day's counts survive clearing old games. ``kind`` is
    # "game" or "lesson"; ``day`` the local date it started; ``finished`` when it reached its
    # end (NULL: not finished). Games stored before this version are counted from their rows.
    4: """
CREATE TABLE IF NOT EXISTS plays (
    session INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'game',
    day TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL
);
INSERT OR IGNORE INTO plays (session, game, kind, day, started, finished)
    SELECT id, game, 'game', date(started, 'unixepoch', 'localtime'), started,
           CASE WHEN outcome IS NOT NULL THEN updated END FROM sessions;
""",
}
SCHEMA_VERSION = max(MIGRATIONS)


def migrate(db: sqlite3.Connection) -> int:
    """Bring the store's schema up to ``SCHEMA_VERSION``; return the version it had.

    A store written by a newer build is left untouched and refused, since this
    build cannot know what its tables mean.
    """
    found = int(db.execute("PRAGMA user_version").fetchone()[0])
    if found > SCHEMA_VERSION:
        raise StoreError(f"this session store has schema version {found}, written by a newer "
                         f"table-noir; this one reads versions up to {SCHEMA_VERSION}")
    for version in range(found + 1, SCHEMA_VERSION + 1):
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in MIGRATIONS[version].split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {version}")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
    return found


class StoreError(Exception):
    """The store cannot do what was asked; the message says why."""


@dataclass(frozen=True)
class SessionInfo:
    """A stored game, as the home screen lists it."""

    id: int
    game: str
    started: float
    updated: float
    actions: int
    outcome: str | None
    abandoned: float | None = None
    """When the table gave this game up for good (None: it may be resumed, or it is over)."""
    players: tuple[str, ...] = ()
    """Who plays, in seating order, as the setup names them."""


@dataclass(frozen=True)
class DayCount:
    """One day's play at the table, as the operator menu shows it."""

    day: str
    """The local date, YYYY-MM-DD."""
    started: int
    finished: int
    lessons: int
    average_s: float | None
    """The average length of the games finished (from their start), or None if none was."""


def local_day(t: float) -> str:
    """The local date of time ``t`` (as SQLite's ``date(t, 'unixepoch', 'localtime')``): the day a play
    counts for, here and in the fleet's report of the stand's day (``kiosk.fleet.publisher``)."""
    return time.strftime("%Y-%m-%d", time.localtime(t))


class Store:
    """A SQLite file of sessions and their action logs.

    ``engines`` turns a game id into its engine; the default is the rules
    registry. Tests pass their own to store the toy game. ``commit_behind``:
    see the module's docstring.
    """

    def __init__(self, path: str | Path, engines: Callable[[str], Engine] | None = None,
                 commit_behind: bool = False) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        if engines is None:
            from kiosk.rules import engine_for

            engines = engine_for
        self.engines: Callable[[str], Engine] = engines
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        try:
            migrate(self._db)
        except BaseException:
            self._db.close()
            raise
        self._committer = _Committer(self._db) if commit_behind else None

    @property
    def db(self) -> sqlite3.Connection:
        """The connection, once a commit still running behind has finished."""
        if self._committer is not None:
            self._committer.wait()
        return self._db

    def settled(self) -> None:
        """Return once every append is on disk.

        Raises ``StoreError``, once, if an append's commit failed; it was rolled
        back, so the stored log ends with the action before it.
        """
        if self._committer is not None:
            self._committer.wait()
            self._committer.raise_failure()

    def close(self) -> None:
        if self._committer is not None:
            self._committer.wait()  # a failure now has no screen to tell: the next start resumes from disk
            self._committer.stop()
        self._db.close()

    # -- writing -------------------------------------------------------------

    def create(self, session: Session) -> int:
        """Store a new session (and any actions it already has); return its id."""
        from kiosk.rules.core import LOG_FORMAT

        now = time.time()
        with self._transaction():
            cursor = self.db.execute(
                "INSERT INTO sessions (game, setup, started, updated, log_format) VALUES (?, ?, ?, ?, ?)",
                (session.engine.game, session.setup.model_dump_json(), now, now, LOG_FORMAT),
            )
            sid = cursor.lastrowid
            assert sid is not None  # sqlite3 sets it after every INSERT of a row
            for seq, action in enumerate(session.log, start=1):
                self.db.execute("INSERT INTO actions VALUES (?, ?, ?)", (sid, seq, action.model_dump_json()))
            self.db.execute("INSERT OR REPLACE INTO plays (session, game, kind, day, started) VALUES (?, ?, ?, ?, ?)",
                            (sid, session.engine.game, "game", local_day(now), now))
        return sid

    def mark_lesson(self, sid: int) -> None:
        """Count session ``sid`` as a lesson, not a game (kiosk.lesson)."""
        with self._transaction():
            self.db.execute("UPDATE plays SET kind = 'lesson' WHERE session = ?", (sid,))

    def append(self, sid: int, seq: int, action: Action, outcome: str | None = None) -> None:
        """Record action number ``seq`` (counted from 1). Committed to disk on return.

        ``seq`` must follow the last stored action, so a log can never get a hole
        or a duplicate, even if two screens race.
        """
        with self._transaction(behind=self._committer is not None):
            last = self._count(sid)
            if seq != last + 1:
                raise StoreError(f"session {sid}: expected action {last + 1}, got {seq}")
            self.db.execute("INSERT INTO actions VALUES (?, ?, ?)", (sid, seq, action.model_dump_json()))
            now = time.time()
            self.db.execute("UPDATE sessions SET updated = ?, outcome = ? WHERE id = ?", (now, outcome, sid))
            if outcome is not None:
                self.db.execute("UPDATE plays SET finished = ? WHERE session = ? AND finished IS NULL", (now, sid))

    def truncate(self, sid: int, length: int, outcome: str | None = None) -> None:
        """Keep only the first ``length`` actions (undo)."""
        with self._transaction():
            self.db.execute("DELETE FROM actions WHERE session = ? AND seq > ?", (sid, length))
            self.db.execute("UPDATE sessions SET updated = ?, outcome = ? WHERE id = ?", (time.time(), outcome, sid))
            if outcome is None:  # an undo after the end: the game is not finished any more
                self.db.execute("UPDATE plays SET finished = NULL WHERE session = ?", (sid,))

    def delete(self, sid: int) -> None:
        with self._transaction():
            self.db.execute("DELETE FROM actions WHERE session = ?", (sid,))
            self.db.execute("DELETE FROM sessions WHERE id = ?", (sid,))

    def clear(self) -> None:
        """Forget every session (the operator's 'clear data')."""
        with self._transaction():
            self.db.execute("DELETE FROM actions")
            self.db.execute("DELETE FROM sessions")

    def save_setting(self, name: str, value: Any) -> None:
        """Keep a setting changed on the kiosk (JSON), laid over the config file at the next start.

        Settings are the organiser's, not game data: ``clear`` leaves them."""
        with self._transaction():
            self.db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (name, json.dumps(value)))

    def forget_setting(self, name: str) -> None:
        """Drop one setting changed on the kiosk."""
        with self._transaction():
            self.db.execute("DELETE FROM settings WHERE name = ?", (name,))

    def forget_settings(self) -> None:
        """Drop every setting changed on the kiosk: the config file's apply again."""
        with self._transaction():
            self.db.execute("DELETE FROM settings")

    LAST_PLAYERS = "last_players"
    """The setting that keeps the last group's names (one list per kiosk, not per game)."""

    def remember_players(self, names: list[str]) -> None:
        """Keep the names of the group that just started a game, to offer the next setup."""
        self.save_setting(self.LAST_PLAYERS, [str(n) for n in names if str(n).strip()])

    def remembered_players(self) -> list[str]:
        """The last group's names, or [] (none kept, or forgotten)."""
        value = self.settings().get(self.LAST_PLAYERS)
        return [str(n) for n in value] if isinstance(value, list) else []

    def forget_players(self) -> None:
        self.forget_setting(self.LAST_PLAYERS)

    def settings(self) -> dict[str, Any]:
        """Every setting changed on the kiosk, by name."""
        return {name: json.loads(value) for name, value in self.db.execute("SELECT name, value FROM settings")}

    # -- retention: finished games leave for an archive file ------------------

    ARCHIVED_COLUMNS = "id, game, setup, started, updated, outcome, log_format, abandoned"
    """The session columns an archive keeps (the schema's as of version 3)."""

    def finished_before(self, when: float, limit: int) -> list[int]:
        """Up to ``limit`` games that are over (an outcome, or abandoned) and untouched since
        ``when`` (seconds since the epoch), oldest first."""
        rows = self.db.execute(
            "SELECT id FROM sessions WHERE (outcome IS NOT NULL OR abandoned IS NOT NULL) AND updated < ? "
            "AND COALESCE(abandoned, 0) < ? ORDER BY updated, id LIMIT ?", (when, when, limit)).fetchall()
        return [sid for (sid,) in rows]

    def archive(self, sids: list[int], archive: str | Path) -> int:
        """Move these games, log and all, into the SQLite file ``archive``; return how many moved.

        The archive has the store's own tables (``Store(archive)`` opens it, and its
        ``export_jsonl`` and ``export_recap`` work there). Each game is first copied
        and committed there, then deleted here, so a kill between the two leaves it in
        both, never in neither; the next run finds the copy (same id, same start time)
        and only deletes. A game whose id the archive already holds for another game
        (a store started afresh numbers from 1 again) gets a new id there; a copy is
        recognised by its game, setup and start time, which an index in the archive finds.
        """
        if not sids:
            return 0
        Store(archive, engines=self.engines).close()  # makes the file and its tables, or brings them up to date
        db = self.db
        db.execute("ATTACH DATABASE ? AS archive", (str(archive),))
        try:
            db.execute("CREATE INDEX IF NOT EXISTS archive.archived_by_start ON sessions (started)")
            with self._transaction():  # writes only the archive: its commit is the copy's
                for sid in sids:
                    self._copy_to_archive(db, sid)
            with self._transaction():
                marks = ",".join("?" * len(sids))
                db.execute(f"DELETE FROM main.actions WHERE session IN ({marks})", sids)
                db.execute(f"DELETE FROM main.sessions WHERE id IN ({marks})", sids)
        finally:
            db.execute("DETACH DATABASE archive")
        return len(sids)

    def _copy_to_archive(self, db: sqlite3.Connection, sid: int) -> None:
        cols = self.ARCHIVED_COLUMNS
        row = db.execute(f"SELECT {cols} FROM main.sessions WHERE id = ?", (sid,)).fetchone()
        if row is None:
            return
        if db.execute("SELECT 1 FROM archive.sessions WHERE started = ? AND game = ? AND setup = ?",
                      (row[3], row[1], row[2])).fetchone():
            return  # copied before a kill: only the delete was left to do
        taken = db.execute("SELECT 1 FROM archive.sessions WHERE id = ?", (sid,)).fetchone()
        new_id = None if taken else sid  # None: the archive numbers it
        cursor = db.execute(f"INSERT INTO archive.sessions ({cols}) VALUES ({','.join('?' * len(row))})",
                            (new_id, *row[1:]))
        db.execute("INSERT INTO archive.actions (session, seq, action) "
                   "SELECT ?, seq, action FROM main.actions WHERE session = ?", (cursor.lastrowid, sid))

    # -- reading -------------------------------------------------------------

    def sessions(self) -> list[SessionInfo]:
        """Every stored session, most recently played first."""
        return self._infos()

    def day_counts(self, days: int = 7, now: float | None = None) -> list[DayCount]:
        """Per day (the last ``days`` local dates that had any, newest first): games started,
        games finished, lessons started, and the average length of the finished games."""
        since = local_day((now if now is not None else time.time()) - (days - 1) * 86400)
        rows = self.db.execute(
            "SELECT day, SUM(kind = 'game'), SUM(kind = 'game' AND finished IS NOT NULL), SUM(kind = 'lesson'), "
            "AVG(CASE WHEN kind = 'game' AND finished IS NOT NULL THEN finished - started END) "
            "FROM plays WHERE day >= ? GROUP BY day ORDER BY day DESC", (since,)).fetchall()
        return [DayCount(day, int(started), int(done), int(lessons), avg) for day, started, done, lessons, avg in rows]

    def unfinished(self) -> list[SessionInfo]:
        """Games that may be resumed: not over, not abandoned; most recently played first.

        Chosen by SQLite before the actions are counted: the home screen reads this at
        every start, and a stand's finished games (thousands, until the retention rule
        moves them out) would otherwise all be counted first (0.9 s for 10,000 here)."""
        return self._infos("WHERE s.outcome IS NULL AND s.abandoned IS NULL")

    def info(self, sid: int) -> SessionInfo | None:
        """One stored session as the home screen would list it, or None."""
        found = self._infos("WHERE s.id = ?", (sid,))
        return found[0] if found else None

    def _infos(self, where: str = "", params: tuple[Any, ...] = ()) -> list[SessionInfo]:
        rows = self.db.execute(
            "SELECT s.id, s.game, s.started, s.updated, COUNT(a.seq), s.outcome, s.abandoned, s.setup "
            f"FROM sessions s LEFT JOIN actions a ON a.session = s.id {where} GROUP BY s.id "
            "ORDER BY s.updated DESC, s.id DESC", params
        ).fetchall()
        return [SessionInfo(sid, game, started, updated, actions, outcome, abandoned, players=_players_of(setup))
                for sid, game, started, updated, actions, outcome, abandoned, setup in rows]

    def abandon(self, sid: int) -> None:
        """Give a game up for good: it leaves the list of unfinished games; its log stays
        (export and replay still read it)."""
        with self._transaction():
            if self.db.execute("SELECT 1 FROM sessions WHERE id = ?", (sid,)).fetchone() is None:
                raise StoreError(f"no stored session {sid}")
            self.db.execute("UPDATE sessions SET abandoned = ? WHERE id = ?", (time.time(), sid))

    def lines(self, sid: int) -> list[str]:
        """The session as JSON lines: a header, then one action per line."""
        row = self.db.execute("SELECT game, setup, log_format FROM sessions WHERE id = ?", (sid,)).fetchone()
        if row is None:
            raise StoreError(f"no stored session {sid}")
        game, setup, log_format = row
        header = json.dumps({"game": game, "format": log_format, "setup": json.loads(setup)})
        actions = [a for (a,) in self.db.execute("SELECT action FROM actions WHERE session = ? ORDER BY seq", (sid,))]
        return [header, *actions]

    def load(self, sid: int) -> Session:
        """Rebuild the session by replaying its stored log."""
        from kiosk.rules import LogError, Session

        lines = self.lines(sid)
        header = json.loads(lines[0])
        try:
            engine = self.engines(header["game"])
        except KeyError as err:
            raise StoreError(f"session {sid}: {err.args[0]}") from None
        session = Session(engine, header["setup"])
        for number, raw in enumerate(lines[1:], start=2):
            try:
                session.apply(json.loads(raw))
            except Exception as err:  # noqa: BLE001 - a log this build cannot replay: say where
                raise StoreError(f"session {sid}: {LogError(number, str(err))}") from None
        return session

    def export_jsonl(self, sid: int, path: str | Path) -> Path:
        """Write the log in the format ``table-noir replay`` reads."""
        path = Path(path)
        path.write_text("\n".join(self.lines(sid)) + "\n", encoding="utf-8")
        return path

    def export_recap(self, sid: int, path: str | Path) -> Path:
        """Write the public story of the session, one event a line."""
        session = self.load(sid)
        path = Path(path)
        title = f"{session.engine.title}, session {sid}"
        ending = session.outcome or "(still being played)"
        path.write_text("\n".join([title, "", *session.recap(None), "", f"Result: {ending}"]) + "\n", encoding="utf-8")
        return path

    # -- helpers -------------------------------------------------------------

    def _count(self, sid: int) -> int:
        row = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE session = ?", (sid,)).fetchone()
        exists = self.db.execute("SELECT 1 FROM sessions WHERE id = ?", (sid,)).fetchone()
        if exists is None:
            raise StoreError(f"no stored session {sid}")
        return int(row[0])

    def _transaction(self, behind: bool = False) -> "_Transaction":
        return _Transaction(self.db, self._committer if behind else None)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT (here, or by ``committer``), rolled back on error."""

    def __init__(self, db: sqlite3.Connection, committer: "_Committer | None" = None) -> None:
        self.db, self.committer = db, committer

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, value, tb) -> None:
        if kind is None and self.committer is not None:
            self.committer.start()
        else:
            self.db.execute("COMMIT" if kind is None else "ROLLBACK")


class _Committer:
    """Runs one COMMIT at a time on a worker thread (see the module's docstring)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self._jobs: queue.SimpleQueue[bool] = queue.SimpleQueue()
        self._started, self._done = threading.Event(), threading.Event()
        self._done.set()
        self._error: sqlite3.Error | None = None
        threading.Thread(target=self._run, name="store-commit", daemon=True).start()

    def start(self) -> None:
        self._done.clear()
        self._started.clear()
        self._jobs.put(True)
        # Wait until the worker holds the connection: it then runs the sync without the
        # interpreter lock, instead of waiting up to Python's 5 ms switch interval for it.
        self._started.wait()

    def wait(self) -> None:
        self._done.wait()

    def raise_failure(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            raise StoreError(f"The last action could not be saved ({error})")

    def stop(self) -> None:
        self._jobs.put(False)

    def _run(self) -> None:
        while self._jobs.get():
            self._started.set()
            try:
                self.db.execute("COMMIT")
            except sqlite3.Error as err:
                self._error = err
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # SQLite has rolled back already
            finally:
                self._done.set()


def _players_of(setup_json: str) -> tuple[str, ...]:
    """The players a stored setup names (plain names, or a clincher's name-and-character rows)."""
    try:
        players = json.loads(setup_json).get("players") or []
    except (ValueError, AttributeError):
        return ()
    return tuple(str(p.get("name", "")) if isinstance(p, dict) else str(p) for p in players)


def default_path() -> Path:
    """Where the kiosk keeps its sessions: ``$TABLE_NOIR_DATA`` or the user data folder."""
    import os

    if env := os.environ.get("TABLE_NOIR_DATA"):
        return Path(env) / "sessions.sqlite3"
    from platformdirs import user_data_dir

    return Path(user_data_dir("table-noir")) / "sessions.sqlite3"
