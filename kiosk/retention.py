"""A year of conventions in one database: finished games leave for an archive file.

Every game a stand plays stays in ``sessions.sqlite3`` until someone clears it,
and what the kiosk reads at start-up (the session list, the unfinished games)
grows with it. The organiser's setting ``kiosk.keep_finished_days`` (in
``table-noir.toml``; 0 keeps everything) says how long a finished game stays:
one that is over (an outcome, or abandoned by the operator) and has not changed
for longer is moved, log and all, to ``archive.sqlite3`` beside the store
(``Store.archive``: copied and committed there first, then deleted here, so a kill
in between loses nothing). The archive has the store's own tables, so
``Store("archive.sqlite3").export_jsonl(id, path)`` gives any old game back in the
format ``table-noir replay`` reads.

The moving is done by the kiosk while nobody plays, a batch of games per quiet
second (``Retention.step``, from the idle check), never at start-up and never in
the middle of an action: a first run over 10,000 old games spreads over about a
quarter of an hour of an idle table instead of holding its first frame back.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Callable

from kiosk.store import Store

log = logging.getLogger(__name__)

DAY_S = 86_400.0
BATCH = 10
"""Games moved per quiet second. Bot games of ~180 actions took 230 ms (median) per 50 on the
loaded development machine, so 10 keep a batch near a garbage collection's 10-50 ms: a press
landing during one waits no longer than it would for that."""
RECHECK_S = 3600.0
"""With nothing (more) to move, how long before looking again."""


class Retention:
    """Moves finished games older than ``days()`` into ``archive``, a batch per call to ``step``."""

    def __init__(self, store: Store, archive: str | Path, days: Callable[[], int],
                 clock: Callable[[], float] = time.time) -> None:
        self.store, self.archive, self.days, self.clock = store, Path(archive), days, clock
        self.moved = 0
        self._next_check = 0.0

    def step(self) -> int:
        """Move one batch if the setting asks for it and one is due; return how many games moved."""
        days, now = self.days(), self.clock()
        if days <= 0 or now < self._next_check:
            return 0
        sids = self.store.finished_before(now - days * DAY_S, limit=BATCH)
        moved = self.store.archive(sids, self.archive)
        self.moved += moved
        if moved < BATCH:  # all moved that was due: look again later
            self._next_check = now + RECHECK_S
            if self.moved:
                log.info("moved %d finished games older than %d days to %s", self.moved, days, self.archive)
                self.moved = 0
        return moved

    def forget(self) -> None:
        """The operator cleared every saved game: the archived ones go too (players' names are in them)."""
        for path in (self.archive, *(self.archive.with_name(self.archive.name + s) for s in ("-wal", "-shm"))):
            path.unlink(missing_ok=True)
        self._next_check = 0.0
