"""Kill anywhere: SIGKILL a player at a random moment, resume, check, and again, over whole games.

Used by ``tests/kiosk/test_kill_anywhere.py`` (a few rounds in CI) and by
``scripts/kill_anywhere.py`` (many). Run as a script, this module is the child:

    python tests/kiosk/kill_anywhere.py DB GAME SEED

It opens the store as the kiosk does (``commit_behind``), resumes the game's
unfinished session or starts a new one, and plays bot moves with undos mixed
in (runs of one to three). After each change is on disk and would be shown it
prints ``DID <n> <action json> <view sha>`` or ``UNDID <n> <view sha>``, where
``n`` is the log's length and the sha is of the public view. The parent
rebuilds from those lines the log the screen last showed.

After each kill the parent checks what a table would notice:

* ``PRAGMA integrity_check`` is ``ok`` and the stored actions are numbered
  1..n with no hole;
* the stored log is the shown log, or differs only by the one change that was
  in flight when the process died (one more action, or one fewer for an undo);
* where it is the shown log, the resumed public view is the one shown;
* the resumed state, and every player's view, equal a fresh replay of the
  stored log through ``load_log`` (what ``table-noir replay`` does).
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UNDO_CHANCE = 0.12


def view_sha(session) -> str:
    return hashlib.sha256(json.dumps(session.view(None), sort_keys=True, default=str).encode()).hexdigest()[:16]


# -- the child ----------------------------------------------------------------------------------------

def child(db: str, game: str, seed: int) -> None:
    from kiosk import games
    from kiosk.rules import RuleError, bot
    from kiosk.runner import Runner
    from kiosk.store import Store

    store = Store(db, engines=games.engine_for, commit_behind=True)
    unfinished = [info for info in store.unfinished() if info.game == game]
    if unfinished:
        runner = Runner.resume(store, unfinished[0].id)
    else:
        runner = Runner.new(store, games.engine_for(game), {"seed": seed})
    print("READY", len(runner.session.log), view_sha(runner.session), flush=True)
    rng = random.Random(seed * 7919 + len(runner.session.log))
    while runner.outcome is None:
        if runner.session.log and rng.random() < UNDO_CHANCE:
            for _ in range(rng.randint(1, 3)):
                if not runner.session.log:
                    break
                try:
                    runner.undo()
                except RuleError:  # an undo the rules refuse (a revealed secret round): play on
                    break
                print("UNDID", len(runner.session.log), view_sha(runner.session), flush=True)
            continue
        prompts = runner.awaiting()
        required = [p for p in prompts if not p.optional]
        pool = prompts if not required or rng.random() < 0.02 else required
        try:
            runner.propose(bot.fill(rng.choice(pool), rng))
        except RuleError:
            continue
        runner.settle()  # the kiosk shows an action only once it is on disk
        action = runner.session.log[-1].model_dump_json()
        print("DID", len(runner.session.log), action, view_sha(runner.session), flush=True)
    print("DONE", flush=True)
    store.close()


# -- the parent ---------------------------------------------------------------------------------------

@dataclass
class Tally:
    games: int = 0
    kills: int = 0
    resumes: int = 0
    undos: int = 0
    actions: int = 0
    in_flight: int = 0
    """Kills that landed while a change was between the store and the screen."""
    failures: list[str] = field(default_factory=list)
    known: list[str] = field(default_factory=list)
    """The stored log of the game in play, as the last check found it (what the next child resumes)."""


def check_store(db: Path, game: str, shown: list[str] | None,
                shown_sha: str | None) -> tuple[bool, bool, list[str]]:
    """Check the store after a kill (see the module docstring).

    Returns whether the game is over, whether the kill caught a change in flight,
    and the stored log (what the next player will resume).

    ``shown`` is the log the screen last showed (None if the child never got that far).
    """
    from kiosk import games
    from kiosk.rules import load_log
    from kiosk.runner import Runner
    from kiosk.store import Store

    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)], "integrity_check failed"
        tables = {name for (name,) in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        # No tables yet: the very first start was killed before its schema was written.
        numbered = raw.execute("SELECT session, COUNT(*), MAX(seq) FROM actions GROUP BY session") \
            if "actions" in tables else []
        for sid, count, top in numbered:
            assert count == top, f"session {sid}: {count} actions numbered up to {top}"
    raw.close()
    store = Store(db, engines=games.engine_for)
    try:
        mine = [info for info in store.sessions() if info.game == game]
        if not mine:
            assert not shown, "a session was shown but none is stored"
            return False, False, []
        info = mine[0]  # the latest session of this game
        resumed = Runner.resume(store, info.id)
        stored = [a.model_dump_json() for a in resumed.session.log]
        in_flight = False
        if shown is not None:
            if stored == shown:
                assert view_sha(resumed.session) == shown_sha, "the resumed screen differs from the one shown"
            elif stored[:-1] == shown:
                in_flight = True  # an action stored but not yet shown
            elif stored == shown[:-1]:
                in_flight = True  # an undo started on disk, not yet shown
            else:
                same = next((i for i, (a, b) in enumerate(zip(stored, shown)) if a != b), min(len(stored), len(shown)))
                raise AssertionError(f"stored log ({len(stored)} actions) is not the shown one ({len(shown)}) "
                                     f"or one change from it; they part at action {same + 1}: "
                                     f"stored {stored[same:same + 3]}, shown {shown[same:same + 3]}")
        fresh = load_log(store.lines(info.id))
        assert fresh.state == resumed.session.state, "the resumed state differs from a fresh replay of the log"
        for viewer in [None, *resumed.players()]:
            assert fresh.view(viewer) == resumed.session.view(viewer), f"{viewer}'s view differs after resume"
        return resumed.outcome is not None, in_flight, ([] if resumed.outcome is not None else stored)
    finally:
        store.close()


def play_with_kills(db: Path, game: str, seed: int, rng: random.Random, tally: Tally,
                    window_s: float = 0.3, steps: int = 8, max_rounds: int = 10_000, games_to_finish: int = 1,
                    stop_at: float | None = None) -> None:
    """Play ``games_to_finish`` games of ``game`` in ``db``, killing the player at random moments and
    checking the store after every kill, until each game ends (or ``stop_at`` passes)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLE_NOIR_EXTRA_GAMES": "toy=tests.rules.toy"}
    finished = 0
    for _ in range(max_rounds):
        if finished >= games_to_finish or (stop_at is not None and time.monotonic() > stop_at):
            return
        proc = subprocess.Popen([sys.executable, __file__, str(db), game, str(seed)], stdout=subprocess.PIPE,
                                text=True, env=env, cwd=ROOT)
        try:
            shown, sha, done, resumed = _watch(proc, rng, window_s, steps, tally, tally.known)
            tally.kills += not done
            tally.resumes += resumed
            ended, in_flight, stored = check_store(db, game, shown, sha)
            assert shown is not None or stored in (tally.known, []), "the store changed before the player was ready"
            tally.known = stored
        except AssertionError as err:
            tally.failures.append(f"{game} seed {seed}: {err}")
            return
        tally.in_flight += in_flight
        if ended or done:
            finished += 1
            tally.games += 1
            seed += 1
            tally.known = []


def _watch(proc: subprocess.Popen, rng: random.Random, window_s: float, steps: int, tally: Tally,
           known: list[str]):
    """Read the child's lines until a random moment, then SIGKILL it.

    Lines the child wrote before it died are read to the end after the kill, since
    what it printed was on the screen even if the parent had not read it yet.
    Returns the log the child last showed (None if it never said READY), that view's
    sha, whether it finished the game by itself, and whether it resumed a session.
    """
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        for line in proc.stdout:
            if line.endswith("\n"):  # a line cut short by the kill was never fully said
                lines.put(line[:-1])
        lines.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    seen = _Seen(known)
    # One kill in ten lands anywhere from the start (imports, opening the store, resuming).
    # The rest land a random time (up to window_s) after a random number of changes (up to
    # steps), so that short games are killed in play too, not only long ones.
    early = rng.random() < 0.1
    deadline = time.monotonic() + (rng.uniform(0, 1.0) if early else 120.0)
    changes_left = rng.randint(0, steps)
    try:
        while not seen.done:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            seen.read(line, tally)
            if early or seen.shown is None:
                continue
            if line.startswith(("DID", "UNDID")):
                changes_left -= 1
            if changes_left == 0:
                changes_left = -1
                deadline = time.monotonic() + rng.uniform(0, window_s)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.wait()
        reader.join(timeout=5)
        proc.stdout.close()
    while (line := lines.get_nowait() if not lines.empty() else None) is not None:
        seen.read(line, tally)
    return seen.shown, seen.sha, seen.done, seen.resumed


class _Seen:
    """What the child's lines say it showed."""

    def __init__(self, known: list[str]) -> None:
        self.known = known
        self.shown: list[str] | None = None
        self.sha: str | None = None
        self.done = self.resumed = False

    def read(self, line: str, tally: Tally) -> None:
        word, _, rest = line.partition(" ")
        if word == "READY":
            n, self.sha = rest.split(" ")
            self.resumed = int(n) > 0
            assert int(n) in (0, len(self.known)), f"resumed {n} actions, the store held {len(self.known)}"
            self.shown = list(self.known) if self.resumed else []
        elif word == "DID":
            n, rest = rest.split(" ", 1)
            action, self.sha = rest.rsplit(" ", 1)
            self.shown.append(action)
            assert int(n) == len(self.shown), f"the player showed action {n} after {len(self.shown) - 1} shown"
            tally.actions += 1
        elif word == "UNDID":
            n, self.sha = rest.split(" ")
            self.shown.pop()
            assert int(n) == len(self.shown), f"the player undid to {n} actions, {len(self.shown)} were shown"
            tally.undos += 1
        elif word == "DONE":
            self.done = True


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    child(sys.argv[1], sys.argv[2], int(sys.argv[3]))
