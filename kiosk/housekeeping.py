"""Memory housekeeping: keep the kiosk's resident size flat over a convention day.

A game on the table builds widgets, text textures and rule state; when the group
leaves, Python frees them (``App.collect_garbage``), but C's allocator (glibc's
malloc, which Python, Kivy, SDL and Mesa's software renderer all use) keeps the
freed memory for the next allocation instead of returning it. Freed blocks sit
between live ones, so they are rarely at the top of the heap, where malloc would
give them back by itself. The resident size then climbs to the high-water mark
of the games played so far although what is in use stays flat (docs/kiosk.md,
"A convention day", has the measurements). Two remedies:

* ``tune_allocator``, at start-up: every block of 72 KiB or more gets pages of its
  own (``mmap``), returned to the system the moment it is freed. Those blocks are
  mostly pixels: a label's text texture (one line of 28 px text 600 px wide is
  about 80 KiB), SDL's surfaces, the software renderer's copies. glibc starts that bar
  at 128 KiB and raises it each time such a block is freed (up to 32 MiB), so
  after a few screens nearly all of them came from the shared heap and left gaps
  there. Setting the bar also stops it moving. Why not lower: Mesa's software
  renderer (llvmpipe, the desktop's and the tests' renderer) takes its drawing
  bins in blocks of 64 KiB and frees them every frame, about 90 of them for a
  play screen; with the bar at 32 KiB each was a fresh ``mmap`` and ``munmap``
  with zeroed pages, which made every frame about 1 ms slower (docs/kiosk.md,
  "Event to screen, fifth pass"). Smaller text textures come from the heap and
  go back with the trim below.
* ``release_memory``, when nobody is in the middle of an action: on the way Home
  (``App.go_home``) and after a quiet second that followed play (``App._idle_check``),
  each time after the garbage collection there: ``malloc_trim(0)`` returns every
  whole free page, in the middle of the heap too. It takes 1-10 ms; the pages come
  back, zeroed, when the next game needs them. Between two actions of a game, not
  only between games: a day's samples then sat up to 11 MB lower, 6 MB on average
  (docs/kiosk.md, issue 33's eighth pass).

Both are glibc's (Raspberry Pi OS, Debian, Ubuntu); with another C library they
do nothing. ``MALLOC_MMAP_THRESHOLD_`` in the environment, if set, wins.
"""

from __future__ import annotations

import ctypes
import os
import time
from typing import Any

MMAP_THRESHOLD = 72 * 1024
"""Blocks this big or bigger get pages of their own, given back when freed (above the
software renderer's 64 KiB bins, which it takes and frees every frame)."""

M_MMAP_THRESHOLD = -3  # mallopt's parameter number, from glibc's <malloc.h>

TRIMS_MS: list[float] = []
"""How long each ``release_memory`` took, in milliseconds (the last 100; the soak benchmark reports them)."""


def _libc(name: str) -> Any | None:
    """A function of the C library the kiosk runs on, or None where it has no such function."""
    try:
        return getattr(ctypes.CDLL(None), name)
    except (OSError, AttributeError):
        return None


class MallInfo2(ctypes.Structure):
    """glibc's ``struct mallinfo2``: what its allocator holds, in bytes (glibc 2.33 and later)."""

    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def malloc_stats() -> MallInfo2 | None:
    """glibc's own figures (``hblks``: blocks with pages of their own; ``uordblks``: in use;
    ``fordblks``: free but held), or None with another C library. For the soak and the tests."""
    mallinfo2 = _libc("mallinfo2")
    if mallinfo2 is None:
        return None
    mallinfo2.restype = MallInfo2
    return mallinfo2()


def tune_allocator() -> bool:
    """Give big blocks pages of their own (see the module's text); True if the C library took it."""
    if "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return False
    mallopt = _libc("mallopt")
    return mallopt is not None and mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1


def release_memory() -> bool:
    """Return the allocator's free pages to the system; True if the C library could."""
    trim = _libc("malloc_trim")
    if trim is None:
        return False
    start = time.perf_counter()
    trim(0)
    TRIMS_MS.append((time.perf_counter() - start) * 1000)
    del TRIMS_MS[:-100]
    return True
