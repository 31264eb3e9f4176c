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
        shown = game if len(game) <= 40 else game[:37] + "..."  # a damaged log may hold anything here
        raise KeyError(f"unknown game {shown!r}; known games: {', '.join(GAMES)}")
    engine: Engine = importlib.import_module(GAMES[game]).ENGINE
    return engine


def load_log(lines: Iterable[str | bytes]) -> Session:
    """Replay a JSON-lines session log into a live session.

    The first line is the header (game, format, setup); each further line is
    one action. A header without ``format`` is read as format 1, the format
    logs had before the header named it. A line that cannot be read or is refused by the rules raises
    ``LogError`` naming the line (counted from 1) and the reason. Lines may be
    bytes (a file opened in binary), so that text which is not UTF-8 is named
    by its line like any other fault.
    """
    from .core import LogError, RuleError

    session: Session | None = None
    number = 0
    for number, raw in enumerate(lines, start=1):
        data = _parse_line(number, raw)
        if data is None:
            continue
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


def _parse_line(number: int, raw: str | bytes) -> dict[str, Any] | None:
    """One log line as a JSON object (None for a blank line), or ``LogError`` saying what is wrong.

    This is the one place where a line's bytes become data, so every way a
    damaged or hostile file can fail (bad UTF-8, JSON nested past Python's
    recursion limit, a number longer than Python will convert) ends here as
    one plain sentence instead of a traceback.
    """
    from .core import LogError

    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            bad = err.object[err.start:err.start + 1].hex()
            raise LogError(number, f"not UTF-8 text (byte 0x{bad} at column {err.start + 1})") from None
    if not raw.strip():
        return None
    try:
        data: Any = json.loads(raw)
    except json.JSONDecodeError as err:
        raise LogError(number, f"not valid JSON ({err.msg} at column {err.colno})") from None
    except RecursionError:
        raise LogError(number, "the JSON is nested too deeply to be a log line") from None
    except ValueError as err:  # e.g. a number with more digits than Python converts (sys.int_info)
        reason = str(err).split(";")[0]
        raise LogError(number, f"not a usable JSON value ({reason[:1].lower()}{reason[1:]})") from None
    if not isinstance(data, dict):
        raise LogError(number, f"expected a JSON object, not {_json_kind(data)}")
    return data


def _json_kind(value: Any) -> str:
    """'a list', 'a number'...: how a JSON value that is not an object is named in a message."""
    names = {list: "a list", str: "a string", bool: "true or false", type(None): "null"}
    return names.get(type(value), "a number")


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
        raise LogError(number, f"the setup is not valid: {_one_line(err)}") from None


def _one_line(err: Exception) -> str:
    """A setup error in one line: pydantic's own message spans several lines and echoes
    whole (possibly huge) inputs, so only each problem's place and reason are kept."""
    from pydantic import ValidationError

    if not isinstance(err, ValidationError):
        return str(err)
    problems = [f"{'.'.join(map(str, e['loc'])) or 'setup'}: {e['msg'][:1].lower()}{e['msg'][1:]}"
                for e in err.errors()[:3]]
    more = f" (and {err.error_count() - 3} more)" if err.error_count() > 3 else ""
    return "; ".join(problems) + more
