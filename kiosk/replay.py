"""``table-noir replay LOG.jsonl``: replay a session log and print where it ended."""

from __future__ import annotations

import argparse
import json
import sys

from .rules import LogError, load_log


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="table-noir replay", description="Replay a session log.")
    parser.add_argument("log", help="a session log in JSON lines (a header line, then one action per line)")
    parser.add_argument("--as", dest="viewer", metavar="PLAYER", help="show what this player may see")
    parser.add_argument("--recap", action="store_true", help="tell the session as a story instead of JSON")
    args = parser.parse_args(argv)
    try:
        with open(args.log, encoding="utf-8") as handle:
            session = load_log(handle)
    except OSError as err:
        print(f"table-noir replay: cannot read {args.log}: {err.strerror}", file=sys.stderr)
        return 2
    except LogError as err:
        print(f"table-noir replay: {args.log}, {err}", file=sys.stderr)
        return 1
    if args.viewer is not None and args.viewer not in session.engine.players(session.state):
        players = ", ".join(session.engine.players(session.state))
        print(f"table-noir replay: no player called {args.viewer!r} (players: {players})", file=sys.stderr)
        return 2
    if args.recap:
        print("\n".join(session.recap(args.viewer)))
    else:
        print(json.dumps(session.view(args.viewer), indent=2, default=str))
    return 0
