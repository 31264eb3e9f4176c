"""Hardware event -> screen effect latency in the kiosk (prints median and p95).

Runs the real kiosk window (under Xvfb in CI) at its normal 60 fps pacing.
A background thread emits hardware events through the ports, as the real
backends do: a settled d10 on the tray in Hell for Leather (the tray port),
and a Gray press locking an Even/Odd wager (the pad port). A real event comes
at any moment, not just after a frame, so the thread waits a random 0-50 ms
before emitting while the kiosk keeps running its frames. For each event it
measures from the moment the event is emitted to the end of the first frame
flip after the rules have accepted the action, i.e. when the player can see
it; that frame is checked to show it (the die's result, the player locked in
on the lock board or, when a reveal left up covers the board, on the reveal, or
the round the lock closed). Between measured events the
random bot moves the game on (not timed), and nothing is tidied up: reveals
nobody taps stay up and fade by themselves, as at a table.

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python benchmarks/kiosk_latency.py [--events 200] [--size 1280x720]

It prints the figures twice: for every event, and without the first
``--warmup`` events after the kiosk starts (each new kind of prompt builds its
widgets once, each new word is measured once); a kiosk runs for hours, so the
second line is what a table sees, the first what the first throws of the day see.
After each measured frame the same screen is drawn once more, unchanged and untimed in the
figures above: its median says how much of an event's time is the screen's pixels and GL calls
(on a software renderer, mostly pixels) and how much the event's own work. Last, when the log
strip and the row of dice down showed the action too: they are the record, not the news, and come
a frame later.
"""

from __future__ import annotations

import argparse
import os
import queue
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.stats import p95  # noqa: E402
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=150, help="measured events per game")
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--warmup", type=int, default=20, help="first events also left out in a second line")
    args = parser.parse_args()
    from testkit import drive

    size = tuple(int(n) for n in args.size.split("x"))
    app = drive.start(tempfile.mkdtemp(prefix="tn-bench-"), size=size, maxfps=60)
    from kivy.base import EventLoop

    from hardware.events import ButtonColour, ButtonPressed, ThrowSettled, Zone
    from kiosk.ui import overlays

    overlays.ANIMATION_SCALE["value"] = 0
    outbox: queue.Queue = queue.Queue()
    sent: dict[str, float] = {}

    def emitter() -> None:  # the "hardware thread"
        phase = random.Random(7)
        while True:
            port, event = outbox.get()
            if port is None:
                return
            time.sleep(phase.uniform(0, 0.05))  # anywhere in the frame cycle, as a real press is
            sent["t"] = time.perf_counter()
            port.emit(event)

    threading.Thread(target=emitter, daemon=True).start()
    parts: dict[str, float] = {}
    handle = app.controller.handle

    def timed_handle(event):  # where the time goes: waiting for the UI thread, then rules+store+widgets
        parts["h0"] = time.perf_counter()
        result = handle(event)
        parts["h1"] = time.perf_counter()
        return result

    app.controller.handle = timed_handle
    from kivy.core.window import Window

    def flip_starts(*_):  # bound handlers run just before the window's own flip
        parts["flip"] = time.perf_counter()

    Window.bind(on_flip=flip_starts)
    breakdown: dict[str, list[tuple[float, float, float, float]]] = {}
    redraws: dict[str, list[float]] = {}
    records: dict[str, list[float]] = {}

    def record_shown(news: float) -> float:
        """When the record had caught up with the action: the play screen draws the log strip's
        new line, the status panel (the row of dice down with it) and, after a landing, the
        next question in the frame after the news (``PlayScreen.record_due``)."""
        play = app.sm.get_screen("play")
        if not play.record_due:
            return news
        for _ in range(10):
            EventLoop.idle()
            if not play.record_due:
                break
        return time.perf_counter()

    def reveals() -> tuple:
        """The reveal on screen and how many wait behind it (the play screen shows one at a time)."""
        play = app.sm.get_screen("play")
        return play.reveal, len(play._owed)

    def shows(event, before: tuple) -> bool:
        """The frame shows the action: the die's result, the player locked in (on the lock board,
        or on the reveal a table left up over it), or the round the last lock closed (its reveal
        up, or said on the one a table left up that its reveal waits behind it)."""
        play = app.sm.get_screen("play")
        if isinstance(event, ThrowSettled):
            shown = play.throw_result.shown
            return shown is not None and shown["face"] == event.face % 10 and shown["zone"] == event.zone.value
        player = app.runner.players()[event.player - 1]
        if reveals() != before and play.reveal is not None:
            return True  # the round it closed, turning over
        if not app.screens_drawn:  # a reveal covers the lock board: the reveal must say it
            said = play.reveal.locked_text if play.reveal is not None else ""
            return (player in said and "locked in" in said) or "everyone has locked in" in said
        return any(player in w.text and "locked in" in w.text for w in drive.find_all("lock:", prefix=True))

    def measure(game: str, make_event) -> list[float]:
        rng = random.Random(1)
        app.go_home()
        app.start_game(game, {"seed": 5})
        for _ in range(5):
            EventLoop.idle()
        samples: list[float] = []
        while len(samples) < args.events:
            if app.runner.outcome is not None:
                app.go_home()
                app.start_game(game, {"seed": rng.randrange(10**6)})
            # Nothing is tidied up between events: a reveal nobody taps stays up (and fades by
            # itself) and later rounds wait behind it, as at a table.
            made = make_event(rng)
            if made is None:
                drive.bot_move(app, rng)
                EventLoop.idle()
                continue
            port, event = made
            before = len(app.runner.session.log)
            on_screen = reveals()
            sent.clear()
            parts.clear()
            outbox.put((port, event))
            deadline = time.perf_counter() + 2.0
            while time.perf_counter() < deadline:
                EventLoop.idle()  # one frame: clock (hands the event to the UI thread), layout, draw, flip
                if len(app.runner.session.log) > before and "t" in sent and "h0" in parts:
                    end = time.perf_counter()
                    if not shows(event, on_screen):
                        raise SystemExit(f"the frame after {event} does not show it: not a fair measure")
                    samples.append((end - sent["t"]) * 1000)
                    flip = parts.get("flip", end)
                    flip = flip if flip >= parts["h1"] else end  # a flip from a frame before the event
                    breakdown.setdefault(game, []).append(
                        ((parts["h0"] - sent["t"]) * 1000, (parts["h1"] - parts["h0"]) * 1000,
                         (flip - parts["h1"]) * 1000, (end - flip) * 1000))
                    again = time.perf_counter()  # the same screen once more: its pixels and GL calls alone
                    Window.dispatch("on_draw")
                    Window.dispatch("on_flip")
                    redraws.setdefault(game, []).append((time.perf_counter() - again) * 1000)
                    records.setdefault(game, []).append(record_shown(end) - sent["t"])
                    break
            else:
                drive.bot_move(app, rng)
        return samples

    def throw(rng):
        if any(p.action == "land" for p in app.runner.awaiting()):
            return app.controller.tray, ThrowSettled(time.monotonic(), zone=rng.choice(list(Zone)), face=rng.randint(1, 10))
        return None

    def lock_wager(rng):
        players = app.runner.players()
        for p in app.runner.awaiting():
            if p.action == "wager" and p.fields[1].min == 0:
                return app.controller.pads, ButtonPressed(players.index(p.player) + 1, ButtonColour.GRAY, time.monotonic())
        return None

    results = {
        "tray: settled d10 (Hell for Leather)": measure("hell-for-leather", throw),
        "pad: Gray locks a wager (Even/Odd)": measure("even-odd", lock_wager),
    }
    outbox.put((None, None))
    print(f"hardware event -> screen effect, {args.size}, 60 fps pacing (aim: median and p95 under 16 ms)")
    for name, samples in results.items():
        # Both with and without the first events after the kiosk starts, when each kind
        # of prompt builds its widgets and each new word is measured for the first time.
        for part, kept in (("all", samples), (f"after {args.warmup}", samples[args.warmup:])):
            print(f"  {name:<40} {part:>9}  n={len(kept):4d}  median {statistics.median(kept):6.1f} ms  "
                  f"p95 {p95(kept):6.1f} ms  max {max(kept):6.1f} ms")
    print("where the time goes (each part's own median and p95): until the UI thread takes the event | rules + store + widgets | "
          "layout, text and GL calls | flip (the software renderer rasterises here)")
    for game, rows in breakdown.items():
        for name, pick in (("median", statistics.median), ("p95", p95)):
            wait, work, draw, flip = (pick([r[i] for r in rows]) for i in range(4))
            print(f"  {game + ' ' + name:<40} {wait:6.1f} ms | {work:6.1f} ms | {draw:6.1f} ms | {flip:6.1f} ms")
    print("the same screen drawn again at once, with nothing changed (what its pixels and GL calls cost; "
          "the rest of an event's time is the event's own work):")
    for game, times in redraws.items():
        kept = times[args.warmup:] or times
        print(f"  {game:<40} median {statistics.median(kept):6.1f} ms  p95 {p95(kept):6.1f} ms")
    print("the record of it, the log strip's line, the panel and the next question (a frame after the news), from the event, "
          "after the warm-up:")
    for game, times in records.items():
        kept = [t * 1000 for t in times[args.warmup:] or times]
        print(f"  {game:<40} median {statistics.median(kept):6.1f} ms  p95 {p95(kept):6.1f} ms")
    drive.stop(app)
    return 0


if __name__ == "__main__":
    sys.exit(main())
