"""Child for the watchdog test: the real kiosk (``kiosk.launch.main``, Kivy's own loop) under a supervisor.

    python -m tests.kiosk.hang_kiosk DATA_DIR HOME_SECONDS MOVES

A first life (no game to go back to) sits on the home screen for HOME_SECONDS
(nothing moves there, so the watchdog's pings must still come), then starts an
Even/Odd game and plays MOVES bot moves, one per tick of the kiosk's clock,
printing ``SHOWN <actions> <json>`` from each frame that shows one, then
``PLAYED``. SIGUSR1 then deadlocks the UI thread (it takes a lock it already
holds) after printing ``FROZEN``; the other threads carry on.

A later life resumes by itself; once the play screen is drawn with the game it
prints ``RESUMED <actions> <json>``.
"""

from __future__ import annotations

import json
import random
import signal
import sys
import threading
import time


def freeze(_signum, _frame) -> None:
    """A deadlock on the UI thread (signal handlers run on the main thread, Kivy's)."""
    print("FROZEN", flush=True)
    stuck = threading.Lock()
    stuck.acquire()
    stuck.acquire()


class Driver:
    def __init__(self, app, home_s: float, moves: int) -> None:
        self.app, self.home_s, self.moves = app, home_s, moves
        self.rng = random.Random(11)
        self.began = time.monotonic()
        self.life: str | None = None  # "first" or "resumed", decided once the kiosk is ready
        self.pending = False  # a move not yet seen on a drawn frame
        self.played = 0

    def tick(self, _dt) -> None:
        from kiosk.rules import RuleError, bot

        app = self.app
        if app.later.done_at is None:  # not ready yet (the rest of start-up runs a step a frame, kiosk.later)
            return
        if self.life is None:
            self.life = "resumed" if app.runner is not None else "first"
        for overlay in list(app.overlays):  # players close reveals; the test reads the play screen
            overlay.dismiss()
        if self.life != "first" or self.pending or self.played >= self.moves:
            return
        if app.runner is None:
            if time.monotonic() - self.began >= self.home_s:
                app.start_game("even-odd", {"seed": 4})
            return
        prompts = app.runner.awaiting()
        pool = [p for p in prompts if not p.optional] or prompts
        try:
            app.runner.propose(bot.fill(self.rng.choice(pool), self.rng))
        except RuleError:
            return
        self.played += 1
        self.pending = True

    def flipped(self, *_args) -> bool:
        from tests.kiosk.kill_kiosk import screen_text

        app = self.app
        if self.pending and not app.play.record_due:  # the move and its record, a frame after it, drawn
            self.pending = False
            print("SHOWN", len(app.runner.session.log), json.dumps(screen_text(app)), flush=True)
            if self.played >= self.moves:
                print("PLAYED", flush=True)
        elif self.life == "resumed" and app.sm.current == "play" and not app.overlays:
            self.life = "reported"
            print("RESUMED", len(app.runner.session.log), json.dumps(screen_text(app)), flush=True)
        return False


def main(data: str, home_s: float, moves: int) -> int:
    import kiosk.launch as kiosk_launch

    real = kiosk_launch.app_class

    def driven_app_class():
        base = real()

        class Driven(base):
            def on_start(self) -> None:
                super().on_start()
                from kivy.clock import Clock
                from kivy.core.window import Window

                self.driver = driver = Driver(self, home_s, moves)  # Kivy keeps only weak references
                Clock.schedule_interval(driver.tick, 0.1)
                Window.bind(on_flip=driver.flipped)

        return Driven

    kiosk_launch.app_class = driven_app_class
    signal.signal(signal.SIGUSR1, freeze)
    return kiosk_launch.main(["--data", data, "--sim"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], float(sys.argv[2]), int(sys.argv[3])))
