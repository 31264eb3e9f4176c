"""Play random complete games with the random bot and print how fast the rules run.

    python benchmarks/rules_bench.py [--game ID] [--games N] [--seed S] [--setup JSON] [--profile]

Each game starts from the game's default setup (plus ``--setup``) with its own
seed; the bot answers only what the game awaits. The numbers printed are
wall-clock rates on one core: complete games per second and accepted actions
per second (a refused random try is not counted as an action). Rates use
the CPU time of this process, so a busy machine does not distort them; the
wall-clock time is printed too.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pathlib
import pstats
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from kiosk.rules import Session, bot, engine_for  # noqa: E402
from kiosk.rules.registry import GAMES  # noqa: E402


def run(game: str, games: int, seed: int, setup: dict) -> tuple[int, int, float, float]:
    """Play ``games`` games; return games, actions, wall seconds and CPU seconds of this process."""
    engine = engine_for(game)
    actions = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        session = Session(engine, {**setup, "seed": seed + i})
        bot.play(session, random.Random(seed + i))
        actions += len(session.log)
    return games, actions, time.perf_counter() - wall, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="hell-for-leather", choices=sorted(GAMES))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--setup", default="{}", help="extra setup values as JSON, e.g. '{\"mode\": \"coop\", "
                        "\"players\": [\"A\", \"B\"]}'")
    parser.add_argument("--profile", action="store_true", help="also print the 15 costliest functions")
    args = parser.parse_args(argv)
    setup = json.loads(args.setup)
    try:
        engine_for(args.game)
    except ImportError as err:
        print(f"rules_bench: the {args.game} engine cannot be loaded yet ({err})", file=sys.stderr)
        return 2
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
    games, actions, wall, seconds = run(args.game, args.games, args.seed, setup)
    if args.profile:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(15)
    print(f"{args.game}: {games} games, {actions} actions in {seconds:.2f} s of CPU ({wall:.2f} s wall clock)")
    print(f"  {games / seconds:,.1f} games/s")
    print(f"  {actions / seconds:,.0f} actions/s")
    print(f"  {actions / games:,.1f} actions per game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
