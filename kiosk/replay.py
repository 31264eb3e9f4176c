"""``table-noir replay LOG.jsonl``: replay a session log and print where it ended."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import BinaryIO, Iterator

from .rules import LogError, load_log

LONGEST_LINE = 1 << 20
"""Bytes one log line may hold. A real action is a few hundred bytes and a header a few
thousand; the cap keeps a file with no newlines (a disk image, /dev/zero...) from being
read into memory whole before anything can be said about it."""


class LogFileError(Exception):
    """The log file itself cannot be read (missing, a folder, a FIFO, no permission)."""


def read_log(path: str | Path):
    """Replay the session log at ``path``.

    Raises ``LogFileError`` when the file cannot be opened as a regular file, and
    ``LogError`` (with the line number) when a line cannot be read or replayed.
    The file is only read: nothing is written anywhere.
    """
    path = Path(path)
    try:
        if path.exists() and not path.is_file():  # a FIFO would block here forever, a device never end
            kind = "a folder" if path.is_dir() else "not a regular file"
            raise LogFileError(f"cannot read {path}: it is {kind}; give a session log (.jsonl)")
        with path.open("rb") as handle:
            return load_log(_lines(handle))
    except OSError as err:
        raise LogFileError(f"cannot read {path}: {err.strerror or err}") from None


def _lines(handle: BinaryIO) -> Iterator[bytes]:
    """The file's lines as bytes (``load_log`` decodes and names a bad line), each at most
    ``LONGEST_LINE`` long."""
    number = 0
    while line := handle.readline(LONGEST_LINE + 1):
        number += 1
        if len(line) > LONGEST_LINE:
            raise LogError(number, f"longer than {LONGEST_LINE // 1024} KiB; a log line holds one action")
        yield line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="table-noir replay", description="Replay a session log.")
    parser.add_argument("log", help="a session log in JSON lines (a header line, then one action per line)")
    parser.add_argument("--as", dest="viewer", metavar="PLAYER", help="show what this player may see")
    parser.add_argument("--recap", action="store_true", help="tell the session as a story instead of JSON")
    args = parser.parse_args(argv)
    try:
        session = read_log(args.log)
    except LogFileError as err:
        print(f"table-noir replay: {err}", file=sys.stderr)
        return 2
    except LogError as err:
        print(f"table-noir replay: {args.log}, {err}", file=sys.stderr)
        return 1
    if args.viewer is not None and args.viewer not in session.engine.players(session.state):
        players = ", ".join(session.engine.players(session.state))
        print(f"table-noir replay: no player called {args.viewer!r} (players: {players})", file=sys.stderr)
        return 2
    if args.recap:
        _print("\n".join(session.recap(args.viewer)))
    else:
        _print(json.dumps(session.view(args.viewer), indent=2, default=str))
    return 0


def _print(text: str) -> None:
    """Print ``text``; characters the terminal cannot take (a lone surrogate that a JSON
    ``\\ud800`` escape put in a name) come out as escapes instead of stopping the output."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    print(text.encode(encoding, "backslashreplace").decode(encoding))
