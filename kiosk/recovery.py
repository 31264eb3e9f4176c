"""Open the session store even when its file is damaged, and say what was done.

A kiosk that cannot start is a black screen (and, under systemd, a restart
loop), so a damaged database must never stop it. ``open_store`` opens the
store and reads everything the kiosk reads at start-up (the schema, the
session list, the saved settings). If that fails, the damaged file is moved
aside, never deleted, under a name that says when (``sessions.sqlite3.damaged-
20261124-091500``), together with its ``-wal`` and ``-shm`` companions, and a
fresh store is opened in its place. The returned ``Recovery`` says, in words for
the operator, what happened and where the old file now is.

One kind of damage is milder: a saved kiosk setting that is not JSON. The games
are still readable, so the file stays in place: a copy is kept aside first, then
only the unreadable settings are dropped (the config file's values apply again).

This module knows the store only through its public methods and one read-only
query per check, so the store's own schema work (versions, migrations) can
change underneath it.
"""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.store import Store, StoreError

log = logging.getLogger(__name__)

COMPANIONS = ("-wal", "-shm", "-journal")
"""SQLite's side files: they belong to the damaged file and go aside with it."""


@dataclass(frozen=True)
class Recovery:
    """What ``open_store`` had to do, for the operator's screen and the log."""

    problem: str
    """What was wrong, in plain words."""
    kept_at: Path
    """Where the damaged file (or a copy of it) now is."""
    games_kept: bool
    """True when only settings were dropped and the saved games are still there."""

    def explain(self) -> str:
        """The full message for the operator's screen."""
        if self.games_kept:
            return (f"The settings changed on this kiosk could not be read ({self.problem}). They were dropped and "
                    f"the config file's settings apply; saved games are kept. A copy of the database as it was is at "
                    f"{self.kept_at}.")
        return (f"The saved-games database could not be opened ({self.problem}). The kiosk started with an empty "
                f"one. Nothing was deleted: the damaged file was moved to {self.kept_at}. Saved games from before "
                f"are in that file; copy it off the card if they matter.")


def open_store(path: str | Path, **store_kw: Any) -> tuple[Store, Recovery | None]:
    """The store at ``path``, opened whatever state its file is in.

    Returns the store and None when all was well, or a fresh (or repaired) store
    and the ``Recovery`` that says what was done. Raises only if a fresh store
    cannot be made either (a read-only or full disk), which no fallback can fix.
    """
    path = Path(path)
    try:
        store = Store(path, **store_kw)
    except (sqlite3.Error, OSError) as err:
        return _start_afresh(path, _describe(err), store_kw)
    try:
        _check_readable(store)
    except (sqlite3.Error, OSError) as err:
        _close_quietly(store)
        return _start_afresh(path, _describe(err), store_kw)
    bad = _unreadable_settings(store)
    if bad:
        return store, _drop_settings(store, bad)
    return store, None


def _check_readable(store: Store) -> None:
    """Read what the kiosk reads at start-up; SQLite raises if the file is damaged.

    Not a full ``PRAGMA quick_check``: it reads every page, 70-400 ms on a 73 MB
    store (1,000 games) before the first frame. A damaged page that only one game's
    actions use is found when that game is resumed, and the kiosk says so then.
    """
    store.unfinished()
    store.db.execute("SELECT name, value FROM settings").fetchall()


def _unreadable_settings(store: Store) -> list[str]:
    """Names of saved settings whose value is not JSON."""
    bad = []
    for name, value in store.db.execute("SELECT name, value FROM settings"):
        try:
            json.loads(value)
        except (TypeError, ValueError):
            bad.append(str(name))
    return bad


def _drop_settings(store: Store, names: list[str]) -> Recovery:
    """Copy the file aside, then delete only the unreadable settings rows."""
    store.db.execute("PRAGMA wal_checkpoint(FULL)")  # so the copy holds everything committed
    kept = _aside_name(store.path, "copy")
    shutil.copy2(store.path, kept)
    store.db.executemany("DELETE FROM settings WHERE name = ?", [(n,) for n in names])
    problem = f"{', '.join(sorted(names))}: not JSON"
    log.error("kiosk settings %s were not readable; dropped them, copy kept at %s", names, kept)
    return Recovery(problem=problem, kept_at=kept, games_kept=True)


def _start_afresh(path: Path, problem: str, store_kw: dict[str, Any]) -> tuple[Store, Recovery]:
    """Move the damaged file aside and open a fresh store in its place.

    With no file there, nothing is damaged: the folder itself refuses (under /proc,
    a read-only mount, a full disk), and no fresh store can help. That is said in one
    ``StoreError`` naming the file, as is a damaged file that cannot be moved aside.
    """
    if not (path.exists() or path.is_symlink()):
        raise StoreError(f"cannot make the saved-games database {path}: {problem}")
    try:
        kept = _move_aside(path)
    except OSError as err:
        raise StoreError(f"the saved-games database {path} cannot be opened ({problem}) and cannot be "
                         f"moved aside ({err.strerror or err})") from err
    log.error("session store %s is damaged (%s); moved it to %s and started a fresh one", path, problem, kept)
    return Store(path, **store_kw), Recovery(problem=problem, kept_at=kept, games_kept=False)


def _move_aside(path: Path) -> Path:
    """Rename the damaged file (or folder) and its side files; return the new name."""
    kept = _aside_name(path, "damaged")
    path.rename(kept)
    for suffix in COMPANIONS:
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.rename(kept.with_name(kept.name + suffix))
    return kept


def _aside_name(path: Path, what: str) -> Path:
    """``sessions.sqlite3.damaged-20261124-091500`` (with -2, -3... if that is taken)."""
    stem = f"{path.name}.{what}-{time.strftime('%Y%m%d-%H%M%S')}"
    candidate, n = path.with_name(stem), 1
    while candidate.exists() or candidate.is_symlink():
        n += 1
        candidate = path.with_name(f"{stem}-{n}")
    return candidate


def _describe(err: BaseException) -> str:
    """SQLite's reason in a few words ("file is not a database")."""
    text = str(err).strip() or type(err).__name__
    return text[0].lower() + text[1:]


def _close_quietly(store: Store) -> None:
    try:
        store.close()
    except (sqlite3.Error, OSError) as err:
        log.warning("closing the damaged store: %s", err)
