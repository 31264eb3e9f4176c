"""Which engines exist, and how a session log finds its engine.

Engines are imported lazily so that loading one game never pays for the rest.
Each engine module exposes its engine as ``ENGINE``.
"""

from __future__ import annotations

import importlib
import json
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:  # the core (and pydantic) load when a game or a log is first used
    from .core import Engine, Session

GAMES: dict[str, str] = {
    "hell-for-leather": "kiosk.rules.hell_for_leather",
    "promise-hollows": "kiosk.rules.promise_hollows",
    "even-odd": "kiosk.rules.even_odd",
    "clincher": "kiosk.rules.clincher",
}


def engine_for(game: str) -> Engine:
    if game not in GAMES:
        raise KeyError(f"unknown game {game!r}; known games: {', '.join(GAMES)}")
    engine: Engine = importlib.import_module(GAMES[game]).ENGINE
    return engine


def load_log(lines: Iterable[str]) -> Session:
    """Replay a JSON-lines session log into a live session.

    The first line is the header (game, format, setup); each further line is
    one action. A header without ``format`` is read as format 1, the format
    logs had before the header named it. A line that cannot be read or is refused by the rules raises
    ``LogError`` naming the line (counted from 1) and the reason.
    """
    from .core import LogError, RuleError

    session: Session | None = None
    number = 0
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            data: Any = json.loads(raw)
        except json.JSONDecodeError as err:
            raise LogError(number, f"not valid JSON ({err.msg} at column {err.colno})") from None
        if not isinstance(data, dict):
            raise LogError(number, "expected a JSON object")
        if session is None:
            session = _start(number, data)
            continue
        try:
            session.apply(data)
        except RuleError as err:
            raise LogError(number, str(err)) from None
    if session is None:
        raise LogError(max(number, 1), "the log is empty: it needs a header line")
    return session


def _start(number: int, header: dict[str, Any]) -> Session:
    from .core import LOG_FORMAT, LogError, RuleError, Session

    # Logs written before the header carried a format are format 1.
    found = header.get("format", 1)
    if found != LOG_FORMAT:
        raise LogError(number, f"unsupported log format {found!r} (this build reads format {LOG_FORMAT}; "
                               "a newer table-noir may have written it)")
    try:
        engine = engine_for(str(header.get("game")))
    except KeyError as err:
        raise LogError(number, err.args[0]) from None
    try:
        return Session(engine, header.get("setup") or {})
    except (ValueError, RuleError) as err:
        raise LogError(number, f"the setup is not valid: {err}") from None
