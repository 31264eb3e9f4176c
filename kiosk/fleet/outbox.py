"""Events waiting for the broker: a small SQLite file beside the session store, bounded.

The stand plays on while the broker is away; what matters (games started and
finished, faults, the tray unplugged) waits here, oldest first, and leaves only
once the broker has acknowledged it (``done``). A restart keeps the file, so an
event is not lost to a power cut either. Each event gets its number (``seq``) from
the row's id, which SQLite never hands out twice in one file (AUTOINCREMENT), and
the file has an id of its own (``boot``), so a reader can tell a number seen before
from a fresh file counting from 1 again.

Bounded: past ``limit`` rows the oldest go, and ``dropped`` counts them (the
status says so, so the organiser knows the story has a gap).

One thread only: the publisher's worker opens, uses and closes it.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY AUTOINCREMENT, topic TEXT NOT NULL, payload TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class Outbox:
    def __init__(self, path: str | Path, limit: int = 500) -> None:
        self.limit = limit
        self.db = sqlite3.connect(str(path), isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(SCHEMA)
        self.db.execute("INSERT OR IGNORE INTO meta VALUES ('boot', ?)", (secrets.token_hex(4),))
        self.db.execute("INSERT OR IGNORE INTO meta VALUES ('dropped', '0')")
        self.boot = self._meta("boot")

    def _meta(self, name: str) -> str:
        return str(self.db.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()[0])

    @property
    def dropped(self) -> int:
        return int(self._meta("dropped"))

    def put(self, topic: str, event: dict[str, Any]) -> dict[str, Any]:
        """Keep ``event`` for ``topic``, numbered; returns it as it will be sent."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            seq = int(self.db.execute("INSERT INTO events (topic, payload) VALUES (?, '')", (topic,)).lastrowid or 0)
            numbered = {**event, "seq": seq, "boot": self.boot}
            self.db.execute("UPDATE events SET payload = ? WHERE id = ?", (json.dumps(numbered, separators=(",", ":")), seq))
            over = self.db.execute("SELECT COUNT(*) FROM events").fetchone()[0] - self.limit
            if over > 0:
                self.db.execute("DELETE FROM events WHERE id IN (SELECT id FROM events ORDER BY id LIMIT ?)", (over,))
                self.db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE name = 'dropped'", (over,))
        return numbered

    def oldest(self) -> tuple[int, str, str] | None:
        """(seq, topic, payload) of the oldest event not yet acknowledged, or None."""
        row = self.db.execute("SELECT id, topic, payload FROM events ORDER BY id LIMIT 1").fetchone()
        return None if row is None else (int(row[0]), str(row[1]), str(row[2]))

    def done(self, seq: int) -> None:
        """The broker has event ``seq``: it leaves the outbox."""
        self.db.execute("DELETE FROM events WHERE id = ?", (seq,))

    def __len__(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM events").fetchone()[0])

    def close(self) -> None:
        self.db.close()
