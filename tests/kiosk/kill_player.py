"""Child process for the kill-and-resume test: plays a bot game through a Runner.

Prints ``SHOWN <n> <public view as JSON>`` each time the screen would show
action n (that is, after the runner has stored it), then keeps playing until
it is killed or the game ends.
"""

import json
import random
import sys
import time

from kiosk import games
from kiosk.rules import bot
from kiosk.runner import Runner
from kiosk.store import Store


def main(db: str, game: str, seed: int) -> None:
    store = Store(db, engines=games.engine_for)
    runner = Runner.new(store, games.engine_for(game), {"seed": seed})

    def shown(change):
        view = json.dumps(runner.session.view(None), sort_keys=True, default=str)
        print("SHOWN", len(runner.session.log), view, flush=True)

    runner.listeners.append(shown)
    rng = random.Random(seed)
    while runner.outcome is None:
        prompts = [p for p in runner.awaiting() if not p.optional] or runner.awaiting()
        try:
            runner.propose(bot.fill(rng.choice(prompts), rng))
        except Exception:
            continue
        time.sleep(0.002)
    print("DONE", flush=True)
    time.sleep(60)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
