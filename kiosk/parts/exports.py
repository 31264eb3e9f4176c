"""Exports: a game's log and its story saved as files the operator can copy off the kiosk.

"Save the log" writes two files into the exports folder (beside the sessions database):
``session-N.jsonl``, the full log that ``table-noir replay`` reads, and ``session-N-recap.txt``,
the story to read. What the table is told names the folder and both files; a disk that
cannot take them is said in words (``kiosk.phones.limits.export_problem``), and nothing of
the game is lost. Nothing here imports Kivy.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk.store import Store

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Exported:
    """The outcome of one export, for the table."""

    said: str
    """What the table is told: the files and their folder, or what went wrong."""
    failed: bool = False
    """True if nothing could be saved (said in red)."""
    story: str | None = None
    """The recap's text, once saved (phones can fetch it by a code)."""


class Exports:
    """Saves sessions of ``store`` into ``folder``."""

    def __init__(self, store: Store, folder: Path) -> None:
        self.store, self.folder = store, folder

    def export(self, sid: int | None = None) -> Exported:
        """Save session ``sid`` (None: the latest one), or say why not."""
        if sid is None:
            sessions = self.store.sessions()
            if not sessions:
                return Exported("There is no session to export yet.")
            sid = sessions[0].id
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            log_path = self.store.export_jsonl(sid, self.folder / f"session-{sid}.jsonl")
            recap = self.store.export_recap(sid, self.folder / f"session-{sid}-recap.txt")
            story = recap.read_text(encoding="utf-8")
        except OSError as err:  # a full, read-only or missing disk, or no file handle left
            from kiosk.phones.limits import export_problem

            log.warning("export of session %s failed: %s", sid, err)
            return Exported(export_problem(err, self.folder), failed=True)
        said = (f"Saved on this kiosk, in the folder {log_path.parent}: {recap.name} (the story, to read) "
                f"and {log_path.name} (the full log, to replay). The operator can copy them off.")
        return Exported(said, story=story)
