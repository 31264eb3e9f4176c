"""Start-up with a year of finished games in the store, before and after the retention rule moves them out.

Builds a store of ``--games`` finished games (all four games, copies of real bot
games, last played 100-400 days ago) and five unfinished ones from today, then
times the kiosk's start-up on it: to the first frame, and to the home screen
complete (engines loaded, the unfinished games listed). Then the retention rule
(``kiosk.retention``, ``keep_finished_days = 90``) moves the old games to
``archive.sqlite3`` a batch at a time, as the kiosk does on quiet seconds, and
start-up is timed again. An empty store is timed in the same run as the baseline.

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python benchmarks/retention.py [--games 10000] [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

KIOSK = """
import os, sys
sys.path.insert(0, {root!r})
os.environ["KIVY_NO_ARGS"] = "1"
from kiosk.launch import app_class, configure
configure((800, 480))
from kivy.clock import Clock
from kivy.core.window import Window
App = app_class()

class Timed(App):
    def on_start(self):
        super().on_start()
        self.timing = {{"first": False}}
        Window.bind(on_flip=self.flipped)

    def flipped(self, *_):
        if not self.timing["first"]:
            self.timing["first"] = True
            print("FIRST_FRAME", flush=True)
        elif self.loaded() and self.sm.current == "home":
            print("HOME_READY", len(self.store.unfinished()), flush=True)
            os._exit(0)
        Window.canvas.ask_update()

    def loaded(self):
        later = getattr(self, "later", None)  # kiosk.later: the rest of start-up, a step a frame
        return later.done_at is not None if later is not None else self._engines is not None  # older code

Timed(data_dir={data!r}, config_path={config!r}, force_sim=True).run()
"""


def startup(data: Path, config: Path, code: Path = ROOT) -> tuple[float, float]:
    """Seconds to the first frame and to the complete home screen, in a fresh process running
    the kiosk from ``code`` (this checkout, or an older one for a before-and-after)."""
    folder = Path(tempfile.mkdtemp(prefix="tn-retention-run-"))
    script = folder / "app_under_test.py"
    script.write_text(KIOSK.format(root=str(code), data=str(data), config=str(config)))
    env = {**os.environ, "KIVY_LOG_MODE": "PYTHON", "KIVY_NO_ARGS": "1"}
    errors = (folder / "stderr.txt").open("w")
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=errors, text=True,
                            env=env, cwd=ROOT)
    first = None
    for line in proc.stdout:
        if line.startswith("FIRST_FRAME"):
            first = time.perf_counter() - start
        elif line.startswith("HOME_READY"):
            home = time.perf_counter() - start
            proc.wait(timeout=10)
            proc.stdout.close()
            errors.close()
            return first, home
    raise RuntimeError("the kiosk never showed its home screen: " + (folder / "stderr.txt").read_text()[-800:])


def build_store(path: Path, games: int, seed: int = 5) -> None:
    """``games`` finished games (copies of 40 real bot games) and 5 unfinished ones from today."""
    from kiosk import games as registry
    from kiosk.rules import Session, bot
    from kiosk.store import Store

    rng = random.Random(seed)
    store = Store(path, engines=registry.engine_for)
    kinds = [g for g in registry.GAMES]
    templates = []
    for n in range(40):
        session = Session(registry.engine_for(kinds[n % len(kinds)]), {"seed": rng.randrange(10**6)})
        bot.play(session, rng)
        assert session.outcome is not None, "a bot game did not end"
        sid = store.create(session)
        store.db.execute("UPDATE sessions SET outcome = ? WHERE id = ?", (session.outcome, sid))
        templates.append(sid)
    for n in range(5):
        session = Session(registry.engine_for(kinds[n % len(kinds)]), {"seed": rng.randrange(10**6)})
        for _ in range(8):
            bot.step(session, rng)
        store.create(session)
    db = store.db
    now = time.time()
    db.execute("BEGIN")
    for n in range(games - len(templates)):
        template = templates[n % len(templates)]
        cursor = db.execute("INSERT INTO sessions (game, setup, started, updated, outcome, log_format) "
                            "SELECT game, setup, ?, ?, outcome, log_format FROM sessions WHERE id = ?",
                            (0.0, 0.0, template))
        db.execute("INSERT INTO actions SELECT ?, seq, action FROM actions WHERE session = ?",
                   (cursor.lastrowid, template))
    db.execute("COMMIT")
    ended = [sid for (sid,) in db.execute("SELECT id FROM sessions WHERE outcome IS NOT NULL")]
    db.execute("BEGIN")
    for sid in ended:  # last played 100 to 400 days ago, over a couple of hours
        played = now - rng.uniform(100, 400) * 86_400
        db.execute("UPDATE sessions SET started = ?, updated = ? WHERE id = ?", (played - 5400, played, sid))
    db.execute("COMMIT")
    store.close()


def size_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*")) / 2**20


def spread(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:6.0f} ms (runs {', '.join(f'{v * 1000:.0f}' for v in values)})"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--older-code", type=Path, help="also time start-up on the full store with the kiosk "
                        "from this folder (e.g. `git archive COMMIT | tar -x -C DIR`), the code before retention")
    args = parser.parse_args()
    from kiosk.retention import BATCH, Retention
    from kiosk.store import Store

    work = Path(tempfile.mkdtemp(prefix="tn-retention-"))
    config = work / "table-noir.toml"
    config.write_text("[kiosk]\nkeep_finished_days = 0\n")  # no moving while start-up is timed
    empty, full = work / "empty", work / "full"
    empty.mkdir()
    full.mkdir()
    built = time.perf_counter()
    build_store(full / "sessions.sqlite3", args.games)
    print(f"store of {args.games} finished games built in {time.perf_counter() - built:.0f} s: "
          f"{size_mb(full / 'sessions.sqlite3'):.0f} MB, "
          f"{sqlite3.connect(full / 'sessions.sqlite3').execute('SELECT COUNT(*) FROM actions').fetchone()[0]} actions")

    older_config = work / "older.toml"  # the code before retention does not know its setting
    older_config.write_text("[kiosk]\n")

    def timed(data: Path, code: Path = ROOT) -> tuple[list[float], list[float]]:
        conf = config if code == ROOT else older_config
        startup(data, conf, code)  # warm the disk cache
        runs = [startup(data, conf, code) for _ in range(args.runs)]
        return [r[0] for r in runs], [r[1] for r in runs]

    base_first, base_home = timed(empty)
    before_first, before_home = timed(full)
    if args.older_code:
        old_first, old_home = timed(full, args.older_code)

    store = Store(full / "sessions.sqlite3")
    retention = Retention(store, full / "archive.sqlite3", lambda: 90)
    batches = []
    while True:
        t = time.perf_counter()
        moved = retention.step()
        batches.append(time.perf_counter() - t)
        if moved == 0:
            break
    left = len(store.sessions())
    store.close()
    after_first, after_home = timed(full)
    archived = Store(full / "archive.sqlite3")
    in_archive = len(archived.sessions())
    archived.close()

    print(f"kiosk start-up, median of {args.runs} runs each, same machine and run")
    print(f"  empty store               first frame {spread(base_first)}   home complete {spread(base_home)}")
    if args.older_code:
        print(f"  {args.games} finished, older code  first frame {spread(old_first)}   home complete {spread(old_home)}")
    print(f"  {args.games} finished games  first frame {spread(before_first)}   home complete {spread(before_home)}")
    print(f"  after retention (90 days) first frame {spread(after_first)}   home complete {spread(after_home)}")
    print(f"  home complete vs empty store: before {statistics.median(before_home) / statistics.median(base_home):.2f}x,"
          f" after {statistics.median(after_home) / statistics.median(base_home):.2f}x")
    print(f"retention: {len(batches) - 1} batches of up to {BATCH} games, median {statistics.median(batches) * 1000:.0f} ms, "
          f"max {max(batches) * 1000:.0f} ms, total {sum(batches):.1f} s; {in_archive} games in the archive, "
          f"{left} left in the store")
    print(f"  store file {size_mb(full / 'sessions.sqlite3'):.0f} MB (SQLite reuses the freed pages; VACUUM would "
          f"shrink it), archive {size_mb(full / 'archive.sqlite3'):.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
