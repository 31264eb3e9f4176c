"""Scenario files: start a game anywhere, by legal moves, for designers and tests.

A scenario is a small TOML file::

    game = "even-odd"
    title = "Three investigators, Oscar leads the first scene"
    source = "where the position comes from (a worked example, a playtest)"

    [setup]                     # the game's setup, in its own words
    players = ["Nadia", "Oscar", "Pilar"]

    [[moves]]                   # the moves that reach the position, oldest first
    type = "introduce"
    player = "Nadia"
    name = "Vera Kask"

    [expect]                    # numbers the position must show (dotted paths in the public view)
    "pools.Nadia" = 4

    [expect_as.Nadia]           # numbers only Nadia may see, read from her own view
    "me.pool" = 4

``moves`` may also be one array of inline tables (``moves = [ { type = "roll", ... }, ]``),
one move a line, which is how ``session_to_toml`` writes a played session.

The engine plays the moves one by one, so a scenario can only reach a position
the rules allow, the log of the session it makes is the truth as for any game,
and ``table-noir replay`` rebuilds it. ``[expect]`` turns a worked example's
numbers into checks: a scenario that no longer reaches them says which.

``table-noir play --scenario FILE`` builds the session, checks it, and stores it
in the kiosk's session store, then opens the kiosk, whose home screen offers to
resume it (``--no-kiosk`` stops after storing; ``--log OUT.jsonl`` also writes the
log ``table-noir replay`` reads).
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kiosk.rules import RuleError, Session, engine_for


class ScenarioError(Exception):
    """A scenario file that cannot be read or played; the message names the file and the move."""


class Scenario(BaseModel):
    """One scenario file, checked."""

    model_config = ConfigDict(extra="forbid")
    game: str
    title: str
    source: str = ""
    """Where the position comes from (which worked example of which rule text, for instance)."""
    setup: dict[str, Any] = Field(default_factory=dict)
    moves: list[dict[str, Any]] = Field(default_factory=list)
    expect: dict[str, Any] = Field(default_factory=dict)
    expect_as: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """Numbers only one player may see (a secret roll, a private sheet), read from that
    player's own view: ``[expect_as.Jane]`` then dotted paths, as in ``[expect]``."""
    path: str = ""
    """The file it was read from (filled in by ``load``)."""

    def build(self) -> Session:
        """Play the moves from the setup; a move the rules refuse names its number."""
        try:
            engine = engine_for(self.game)
        except KeyError as err:
            raise ScenarioError(f"{self.path}: {err.args[0]}") from None
        try:
            session = Session(engine, self.setup)
        except (ValueError, RuleError) as err:
            raise ScenarioError(f"{self.path}: the setup is not valid: {err}") from None
        for number, move in enumerate(self.moves, start=1):
            try:
                session.apply(move)
            except RuleError as err:
                who = f" by {move['player']}" if move.get("player") else ""
                raise ScenarioError(f"{self.path}: move {number} ({move.get('type')}{who}) is refused: {err}") from None
        return session

    def mismatches(self, session: Session) -> list[str]:
        """Each ``[expect]`` entry the session's public view does not show, in words."""
        wrong = _differences(session.view(None, awaiting=False), self.expect, "")
        for player, checks in self.expect_as.items():
            if player not in session.engine.players(session.state):
                wrong.append(f"expect_as.{player}: there is no player {player!r} in this game")
                continue
            wrong += _differences(session.view(player, awaiting=False), checks, f"as {player}, ")
        return wrong


def _differences(view: Any, checks: dict[str, Any], who: str) -> list[str]:
    """Each dotted path in ``checks`` whose value in ``view`` differs, in words."""
    wrong = []
    for path, wanted in checks.items():
        found = read_path(view, path)
        if found != wanted:
            wrong.append(f"{who}{path}: expected {wanted!r}, the position shows {found!r}")
    return wrong


_MISSING = "(nothing there)"


def read_path(data: Any, path: str) -> Any:
    """``read_path(view, "teams.0.vp")``: dict keys and list indices, dot-separated."""
    for part in path.split("."):
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and part.lstrip("-").isdigit() and -len(data) <= int(part) < len(data):
            data = data[int(part)]
        else:
            return _MISSING
    return data


def read_toml(path: Path, error: type[Exception] = ScenarioError) -> dict[str, Any]:
    """A designer's TOML file as a dict; a file that cannot be read raises ``error`` naming it
    and why (also used for lesson files, kiosk.lesson)."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise error(f"cannot read {path}: {err.strerror}") from None
    except UnicodeDecodeError:
        raise error(f"{path} is not a text file (UTF-8)") from None
    except tomllib.TOMLDecodeError as err:
        raise error(f"{path} is not valid TOML: {err}") from None


def load(path: str | Path) -> Scenario:
    """Read and check a scenario file; any problem is one ``ScenarioError`` naming the file."""
    path = Path(path)
    data = read_toml(path)
    try:
        return Scenario.model_validate({**data, "path": str(path)})
    except ValidationError as err:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'file'}: {e['msg']}" for e in err.errors())
        raise ScenarioError(f"{path}: {problems}") from None


def start(path: str | Path) -> Session:
    """The session a scenario file describes, checked against its ``[expect]``."""
    scenario = load(path)
    session = scenario.build()
    wrong = scenario.mismatches(session)
    if wrong:
        raise ScenarioError(f"{scenario.path} does not reach its position: " + "; ".join(wrong))
    return session


SHIPPED = Path(__file__).resolve().parents[1] / "scenarios"
"""The scenario files that come with the project (one per worked example of the rule texts)."""


@dataclass(frozen=True)
class Listed:
    """One scenario file as a picker shows it: read and checked, or the one problem that stops it."""

    path: Path
    scenario: Scenario | None = None
    problem: str | None = None

    @property
    def section(self) -> str:
        """Where in the rule text the position comes from (the file's ``source``)."""
        return self.scenario.source if self.scenario else ""


def listing(folders: list[Path]) -> list[Listed]:
    """Every ``*.toml`` in ``folders`` (missing folders are skipped), sorted by name within each.

    A file that cannot be read is listed with its problem rather than left out, so a
    designer who dropped a broken file in the data folder sees why it does not start.
    Moves are not played here (that is ``start``): listing stays quick.
    """
    found = []
    for path in toml_files(folders):
        try:
            found.append(Listed(path, scenario=load(path)))
        except ScenarioError as err:
            found.append(Listed(path, problem=str(err)))
    return found


def toml_files(folders: list[Path]) -> list[Path]:
    """Every ``*.toml`` in ``folders``, folder by folder, sorted by name in each; a missing folder is skipped."""
    return [path for folder in folders if folder.is_dir() for path in sorted(folder.glob("*.toml"))]


def _toml_value(value: Any) -> str:
    """One value in TOML's inline syntax (strings, numbers, booleans, lists, tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid TOML basic string
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise ScenarioError(f"a scenario cannot hold {type(value).__name__} values ({value!r})")


def _toml_key(key: str) -> str:
    bare = key.replace("_", "").replace("-", "").isalnum() and key.isascii()
    return key if bare else json.dumps(key)


def to_toml(game: str, title: str, source: str, setup: dict[str, Any], moves: list[dict[str, Any]],
            expect: dict[str, Any], notes: dict[int, str] | None = None,
            expect_as: dict[str, dict[str, Any]] | None = None) -> str:
    """A scenario file's text: one move a line, so a long way to a position stays readable.

    ``notes`` puts a comment line before the move of that index (counted from 0), to say
    what the moves that follow do at the table. ``load`` reads the result back.
    """
    notes = notes or {}
    lines = [f"# {title}", f"game = {_toml_value(game)}", f"title = {_toml_value(title)}",
             f"source = {_toml_value(source)}", f"setup = {_toml_value(setup)}", "",
             "# The moves that reach the position, oldest first; the rules accept or refuse each one", "moves = ["]
    for index, move in enumerate(moves):
        if index in notes:
            lines.append(f"  # {notes[index]}")
        lines.append(f"  {_toml_value(move)},")
    lines += ["]", "", "# The example's numbers, read from the public view (dotted paths; list items counted from 0)",
              "[expect]"]
    lines += [f"{_toml_value(k)} = {_toml_value(v)}" for k, v in expect.items()]
    for player, checks in (expect_as or {}).items():
        lines += ["", f"# What only {player} may see, read from {player}'s own view", f"[expect_as.{_toml_key(player)}]"]
        lines += [f"{_toml_value(k)} = {_toml_value(v)}" for k, v in checks.items()]
    return "\n".join(lines) + "\n"


def session_to_toml(session: Session, title: str, source: str = "", expect: dict[str, Any] | None = None,
                    notes: dict[int, str] | None = None, expect_as: dict[str, dict[str, Any]] | None = None) -> str:
    """A played session as a scenario file (its setup and every move so far).

    This is how the shipped scenarios were written: play the example's moves in
    Python (or at the kiosk, then replay its export), pick the numbers the example
    states, and write them here as ``expect``. Defaults are left out so each move
    reads as what was said at the table.
    """
    full = session.setup.model_dump(mode="json")
    lean = session.setup.model_dump(mode="json", exclude_defaults=True)
    setup = {k: v for k, v in full.items() if k in lean or k == "players"}
    moves = []
    for action in session.log:
        fields = action.model_dump(mode="json", exclude_defaults=True)
        moves.append({"type": action.type, **{k: v for k, v in fields.items() if k != "type"}})
    return to_toml(session.engine.game, title, source, setup, moves, expect or {}, notes, expect_as)


@dataclass(frozen=True)
class Played:
    """What ``table-noir play`` did: its exit status, and the arguments to open the kiosk with
    (``None``: leave it closed, after ``--no-kiosk`` or a scenario that could not be played)."""

    status: int
    kiosk_argv: list[str] | None = None


def play(argv: list[str] | None = None) -> Played:
    """``table-noir play --scenario FILE``: build the session, check it, store it, and say how to
    open the kiosk on it. The kiosk itself is opened by the entry point (``kiosk.cli.play``): the
    scenario runner sits below the app and never imports it."""
    parser = argparse.ArgumentParser(prog="table-noir play", description="Start a game from a scenario file.")
    parser.add_argument("--scenario", required=True, metavar="FILE", help="a scenario file (TOML)")
    parser.add_argument("--data", help="the kiosk's data folder (default: where the kiosk keeps its sessions)")
    parser.add_argument("--log", metavar="OUT.jsonl", help="also write the session log that table-noir replay reads")
    parser.add_argument("--no-kiosk", action="store_true", help="store the session but do not open the kiosk")
    args, kiosk_args = parser.parse_known_args(argv)
    try:
        session = start(args.scenario)
    except ScenarioError as err:
        print(f"table-noir play: {err}", file=sys.stderr)
        return Played(1)
    from kiosk.store import Store, default_path

    store_path = Path(args.data) / "sessions.sqlite3" if args.data else default_path()
    store = Store(store_path)
    try:
        sid = store.create(session)
    finally:
        store.close()
    if args.log:
        Path(args.log).write_text(session.to_jsonl(), encoding="utf-8")
    prompts = "; ".join(p.text for p in session.awaiting() if not p.secret) or "(secret choices)"
    print(f"{session.engine.title}: {len(session.log)} moves played, stored as session {sid} in {store_path}.")
    print(f"Next: {prompts}")
    print(json.dumps(session.view(None, awaiting=False), indent=2, default=str) if args.no_kiosk else
          "Opening the kiosk: press Resume on its home screen.")
    if args.no_kiosk:
        return Played(0)
    return Played(0, [*kiosk_args, *(["--data", args.data] if args.data else [])])
