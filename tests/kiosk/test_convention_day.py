"""A bounded sample of the convention-day soak (benchmarks/convention_day.py) for CI: well under a minute.

Two lives of the real kiosk with a SIGKILL between them, a sample every 50
actions, and the check that nothing shown was lost. The full day (8,000 actions,
figures in docs/kiosk.md) is the benchmark itself.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_short_day_with_a_kill_loses_nothing(tmp_path):
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks/convention_day.py"), "--actions", "200", "--kill-every", "100",
         "--block", "50", "--seed", "3", "--data", str(tmp_path)],
        capture_output=True, text=True, timeout=170, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "KIVY_NO_ARGS": "1", "KIVY_LOG_MODE": "PYTHON"})
    out = done.stdout
    assert done.returncode == 0, out + done.stderr[-3000:]
    assert "lost: 0" in out
    assert re.search(r"2 lives \(1 kills\)", out), out
    assert "life 2: RESUMED session" in out  # the restarted kiosk went back into its game by itself
    blocks = [line for line in out.splitlines() if re.match(r"\s+life \d+\s+\d+ actions", line)]
    assert len(blocks) == 4, out
    for line in blocks:
        for figure in ("RSS", "heap", "objects", "fds", "threads", "DB", "WAL", "latency p50"):
            assert figure in line, line
    # the kiosk handed freed memory back on its way Home between groups (kiosk/housekeeping.py)
    assert re.search(r"trims \[[\d.]+, [\d.]+, [\d.]+\] ms", blocks[0]), blocks[0]
    # a table's quiet seconds came now and then, and the kiosk's once-a-second check saw them
    assert re.search(r"life \d+: .*at Home", out), out  # memory at rest, between groups (or why there is none)
    quiet = re.search(r"what the table did: .*quiet seconds (\d+)", out)
    assert quiet and 5 <= int(quiet.group(1)) <= 60, out


def test_the_soak_tells_a_threads_arena_from_the_main_heap_and_other_memory():
    """TN_SOAK_MAPS's census (benchmarks/convention_day.py ``maps``): where the resident set lives."""
    import ctypes
    import threading

    sys.path.insert(0, str(ROOT))
    from benchmarks import convention_day as soak

    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]
    filled, done = threading.Event(), threading.Event()
    blocks: list[int] = []

    def worker():  # a thread's small blocks come from a glibc arena of its own, not the main heap
        blocks.extend(libc.malloc(1024) for _ in range(2048))
        for block in blocks:
            ctypes.memset(block, 1, 1024)
        filled.set()
        done.wait(10)
        for block in blocks:
            libc.free(block)

    thread = threading.Thread(target=worker)
    thread.start()
    try:
        assert filled.wait(10)
        census = soak.maps()
    finally:
        done.set()
        thread.join()
    assert census["thread_arena_count"] >= 1 and census["thread_arenas_mb"] >= 1.5, census
    assert census["heap_mb"] > 0 and census["so_mb"] > 0, census

    kind = soak.mapping_kind
    arena = {"start": 64 * 2**20 * 5, "end": 64 * 2**20 * 5 + 2**20, "perms": "rw-p", "name": ""}
    rest = {"start": arena["end"], "end": 64 * 2**20 * 6, "perms": "---p", "name": ""}
    assert kind(arena, None, rest) == "thread_arenas"
    assert kind(rest, arena, None) is None  # reserved, never resident
    guard = {"start": 4096, "end": 8192, "perms": "---p", "name": ""}
    stack = {"start": 8192, "end": 8192 + 8 * 2**20, "perms": "rw-p", "name": ""}
    assert kind(stack, guard, None) == "stacks"
    assert kind({**stack, "start": 12288}, guard, None) == "anon"  # not next to the guard: Python's arenas, Mesa...
    assert kind({**stack, "name": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"}, None, None) == "fonts"
    assert kind({**stack, "name": "/usr/lib/x86_64-linux-gnu/libc.so.6"}, None, None) == "so"
    assert kind({**stack, "name": "[heap]"}, None, None) == "heap"


def test_the_day_reports_growth_after_warm_up_from_the_first_sample_with_every_game_played(capsys):
    # A game's first play builds its screens and fonts; the soak says how memory went from the
    # first sample by which every game had been on screen, beside the figure after 1,000 actions.
    sys.path.insert(0, str(ROOT))
    from benchmarks import convention_day as soak

    def block(actions, rss, played):
        return {"life": 1, "actions": actions, "rss_mb": rss, "heap_blocks": 1, "gc_objects": 1, "fds": 50,
                "threads": 10, "lat_p95_ms": 9.0, "played": played, "games": 4}

    four = ["clincher", "even-odd", "hell-for-leather", "promise-hollows"]
    soak.report([block(1000, 200.0, four[:3]), block(2000, 220.0, four), block(3000, 231.0, four),
                 block(4000, 225.5, four)])
    out = capsys.readouterr().out
    assert "200.0 -> 225.5 MB (+12.8 %, highest +15.5 %)" in out, out
    assert "after warm-up (every game played once; the first block then: 2000 actions) to 4000: " \
           "RSS 220.0 -> 225.5 MB (+2.5 %, highest +5.0 %)" in out, out
    soak.report([block(1000, 200.0, four[:2]), block(2000, 210.0, four[:3])])
    assert "not every game was played" in capsys.readouterr().out
