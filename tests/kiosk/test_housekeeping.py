"""The kiosk hands freed memory back to the system (kiosk/housekeeping.py, issue 33).

Each case runs in a fresh interpreter (a tenth of a second): what glibc's allocator
keeps depends on everything the process allocated before, and pytest's own process
has done a lot. The blocks are interleaved with small ones that stay, as a game's
text textures are with the widgets and rule state that outlive them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kiosk import housekeeping

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import ctypes, os, sys
from kiosk import housekeeping

def rss_mb():
    return int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

tune, size, trim, every = sys.argv[1] == "tuned", int(sys.argv[2]), sys.argv[3] == "trim", int(sys.argv[4])
if tune:
    assert housekeeping.tune_allocator()
libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
first = libc.malloc(1 << 20)  # a big block freed: glibc raises its bar for the next ones
ctypes.memset(first, 1, 1 << 20)
libc.free(first)
before = rss_mb()
freed, kept = [], []
for n in range((80 << 20) // size):  # 80 MiB of blocks, with a small one that stays after every few
    block = libc.malloc(size)
    ctypes.memset(block, 1, size)
    freed.append(block)
    if n % every == 0:
        kept.append(libc.malloc(64))
for block in freed:
    libc.free(block)
if trim:
    assert housekeeping.release_memory()
print(round(rss_mb() - before, 1))
"""


def still_resident(mode: str, size: int, trim: bool, every: int = 1) -> float:
    """MiB of the 80 MiB freed that the process still holds (a block that stays after every ``every``)."""
    done = subprocess.run([sys.executable, "-c", SCRIPT, mode, str(size), "trim" if trim else "no", str(every)],
                          capture_output=True, text=True, timeout=30, cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    return float(done.stdout)


pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")


def test_freed_text_textures_go_back_to_the_system_at_once():
    # 96 KiB: a line of 28 px text about 700 px wide, as an RGBA texture
    assert still_resident("default", 96 * 1024, trim=False) > 40  # glibc's own bar kept them: the old kiosk
    assert still_resident("tuned", 96 * 1024, trim=False) < 4


def test_smaller_textures_go_back_on_the_way_home():
    # 48 KiB: a line of 20 px text about 600 px wide. Below the bar, so from the heap; the trim returns them
    assert still_resident("tuned", 48 * 1024, trim=False) > 40
    assert still_resident("tuned", 48 * 1024, trim=True) < 4


MMAPPED = """
import ctypes, sys
from kiosk import housekeeping

libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
if sys.argv[1] == "tuned":
    assert housekeeping.tune_allocator()
before = housekeeping.malloc_stats().hblks
block = libc.malloc(64 * 1024)
print(housekeeping.malloc_stats().hblks - before)
libc.free(block)
"""


def test_the_software_renderers_bins_stay_in_the_heap():
    # Mesa's llvmpipe takes 64 KiB bins and frees them every frame, about 90 a frame for a play
    # screen: each one mmapped (the old 32 KiB bar) made every frame about 1 ms slower.
    def mmapped(mode: str) -> int:
        done = subprocess.run([sys.executable, "-c", MMAPPED, mode], capture_output=True, text=True, timeout=30,
                              cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
        assert done.returncode == 0, done.stderr
        return int(done.stdout)

    assert mmapped("tuned") == 0
    assert housekeeping.MMAP_THRESHOLD > 64 * 1024 + 16  # the block and glibc's header


def test_small_blocks_freed_by_a_game_go_back_on_the_way_home():
    # a game's small blocks (rule state, widgets' C parts), a few that outlive it among them
    assert still_resident("tuned", 2048, trim=False, every=16) > 40
    assert still_resident("tuned", 2048, trim=True, every=16) < 16  # the pages with a block that stays
