"""A convention day at speed: groups after groups on one kiosk, measured every 1,000 actions.

The real kiosk (its window under Xvfb, its store, its phone server, the simulated
table) plays group after group, all four games in turn, nobody at the keyboard:

* each group starts a game, plays it with the random bot (to its end, or until the
  group drifts off), and leaves; attract mode runs between groups;
* now and then: a pause to the home screen and a resume, an undo, a phone joining or
  leaving (real WebSocket clients), the tray's cable pulled and plugged back (its
  link-down and link-up events through the controller, then the operator's "open the
  hardware again"), an export of the game;
* overlays are left as a table leaves them: nothing here closes a reveal or a message
  (attract mode and the kiosk's own code do what they do);
* after about one action in ``--quiet-every`` (10) the table is quiet for a second, as
  between a table's actions (a player reads, thinks, talks): the play clock does not wait
  that second, but the kiosk's once-a-second check sees it and does what it does then
  (its housekeeping, ``kiosk.parts.idle``); ``--quiet-every 0`` plays flat out, with never
  a quiet moment, which no table does;
* every ``--kill-every`` actions the kiosk process is SIGKILLed mid-play and started
  again on the same data folder; it goes back into the game it had on screen.

One kiosk process is a "life". Every 1,000 actions a life prints its resident size,
the Python heap (``sys.getallocatedblocks`` and the objects the collector tracks),
open file descriptors, threads, the database and WAL sizes, and event-to-screen
latency (every 20th action goes in as a phone's answer through the controller's queue,
timed to the end of the frame that shows it). Each drawn change is noted in
``shown.log`` (game, actions, a hash of the public view). At the end: growth after the
first 1,000 actions of each life (to its end and at its highest sample), growth after
warm-up (from the first sample by which the life has put every game on screen once: a
game's first play builds its screens, fonts and drawings, which no number of actions of
the other games does), and whether anything was lost: every game's stored log must
replay to the last view shown of it. Each time the kiosk is at Home between two groups (after its
own collection and trim) it also notes its resident size: the same state every time, so the
report's growth "at rest" is what stays, where a block's sample lands in whatever game is on.

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python benchmarks/convention_day.py [--actions 8000]

Each sample also gives the kiosk's own trims on its way Home (kiosk/housekeeping.py) since the last
one. To look at where memory goes (docs/kiosk.md has what they showed), all off by default:

* ``TN_SOAK_NATIVE=1``: a second line per sample: glibc's heap in use, free but held, and mmapped
  (``mallinfo2``), its arenas, Python's arenas and their free bytes, resident pages of the main
  heap / other anonymous mappings / files, the fonts SDL_ttf holds open, Kivy's caches by
  category and the play screen's reused widgets;
* ``TN_SOAK_MAPS=1``: a third line per sample: the resident set by kind of mapping (see ``maps``),
  the anonymous mappings that grew most since the life's first sample, and the GL objects alive
  (see ``gl_objects``);
* ``TN_SOAK_TRIM=1``: RSS after a ``malloc_trim(0)`` at each sample;
* ``TN_SOAK_FORGET=1`` (an experiment, not the kiosk's behaviour): the play screen's reused
  widgets dropped between groups, to see their share;
* ``TN_SOAK_TRACE=FILE``: ``tracemalloc``'s allocation sites (see ``Trace``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import hashlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchmarks.stats import p95  # noqa: E402
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")

BLOCK = 1000
NATIVE_KEYS = ("malloc_used_mb", "malloc_free_mb", "malloc_mmap_mb", "malloc_chunks", "brk_heap_mb", "anon_maps_mb",
               "file_maps_mb", "maps", "font_fds", "font_ids", "new_fonts", "kivy_cache", "arenas_mb", "pymalloc_arenas",
               "pymalloc_free_mb", "play_caches")


def view_hash(session) -> str:
    return hashlib.sha1(json.dumps(session.view(None), sort_keys=True, default=str).encode()).hexdigest()[:16]


# -- one life: the kiosk in this process ---------------------------------------------------------

class Phones:
    """Players' phones: WebSocket clients on a thread of their own, joining and leaving."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, name="phones-client", daemon=True).start()
        self.session = None
        self.open: dict[str, object] = {}

    def _run(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    def join(self, player: str, url: str) -> None:
        async def go():
            import aiohttp

            if self.session is None:
                self.session = aiohttp.ClientSession()
            base, token = url.split("/#")
            ws = await self.session.ws_connect(base.replace("http", "ws") + "/ws", max_msg_size=0)
            await ws.send_str(json.dumps({"type": "hello", "token": token}))
            await ws.receive()
            self.open[player] = ws

            async def drain():
                async for _ in ws:
                    pass
            asyncio.ensure_future(drain())
        self._run(go())

    def leave(self, player: str) -> None:
        ws = self.open.pop(player, None)
        if ws is not None:
            self._run(ws.close())

    def leave_all(self) -> None:
        for player in list(self.open):
            self.leave(player)


def rss_mb() -> float:
    """This process's resident set now, in MB."""
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def trimmed_rss() -> float | None:
    """Opt-in (TN_SOAK_TRIM=1): RSS after glibc's ``malloc_trim(0)`` hands freed memory back.

    The difference to the RSS before it is memory the kiosk has freed but the allocator still holds:
    a high-water mark, not a leak. (The trim itself lowers the following samples' RSS too.)
    """
    from kiosk import housekeeping

    if not housekeeping.release_memory():
        return None
    housekeeping.TRIMS_MS.pop()  # the benchmark's trim, not one of the kiosk's own
    return rss_mb()


def play_caches(app) -> dict:
    """The play screen's reused widgets (kiosk/ui/play.py): entries and Kivy widgets in each cache."""
    out = {}
    for name in ("_inputs_cache", "_labels_cache", "_buttons_cache"):
        cache = getattr(app.play, name, None) or {}
        out[name.strip("_")] = (len(cache), sum(len(list(w.walk(restrict=True))) for w in cache.values()))
    from kiosk.ui import art

    textures = list(art._TEXTURES.values())  # drawn text (kiosk/ui/art.py): entries, and MB of pixels
    out["art_texts"] = (len(textures), round(sum(t.width * t.height * 4 for t in textures) / 2**20, 2))
    from kiosk.rules.hell_for_leather import play as hfl
    from kiosk.ui import theme

    widths = theme.WORD_WIDTHS  # measured words (``theme.remember_word_widths``): fonts, and words in all
    out["word_widths"] = (len(widths), sum(len(words) for words in widths.values()))
    out["hfl_table_prompts"] = len(hfl._TABLE_CACHE)
    return out


def smaps() -> list[dict]:
    """The process's mappings from /proc/self/smaps: start, end (addresses), perms ("rw-p"),
    name ("" when anonymous) and rss (resident KiB), in address order."""
    vmas: list[dict] = []
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()
        if not head[0].endswith(":"):
            start, end = (int(x, 16) for x in head[0].split("-"))
            vmas.append({"start": start, "end": end, "perms": head[1], "name": " ".join(head[5:]), "rss": 0})
        elif head[0] == "Rss:" and vmas:
            vmas[-1]["rss"] = int(head[1])
    return vmas


def native() -> dict:
    """Where the resident set lives: glibc's heap (in use / free but held / mmapped), anonymous and
    file-backed pages, the main heap and the other anonymous mappings (thread arenas, GL, Python's
    arenas), and Kivy's caches by category."""
    import ctypes
    import re
    import tempfile as tf

    out: dict = {}
    from kiosk.housekeeping import malloc_stats

    info = malloc_stats()
    if info is not None:
        out.update(malloc_used_mb=info.uordblks / 2**20, malloc_free_mb=info.fordblks / 2**20,
                   malloc_mmap_mb=info.hblkhd / 2**20, malloc_chunks=info.ordblks)
    heap = anon = files = 0
    vmas = smaps()
    for vma in vmas:
        if vma["name"] == "[heap]":
            heap += vma["rss"]
        elif vma["name"] == "":
            anon += vma["rss"]
        elif not vma["name"].startswith("["):
            files += vma["rss"]
    regions = len(vmas)
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.fopen.restype = ctypes.c_void_p
        with tf.NamedTemporaryFile(suffix=".xml") as xml:
            fp = libc.fopen(xml.name.encode(), b"w")
            libc.malloc_info(0, ctypes.c_void_p(fp))
            libc.fclose(ctypes.c_void_p(fp))
            text = Path(xml.name).read_text()
        arenas = re.findall(r'<heap nr="(\d+)">.*?<system type="current" size="(\d+)"/>', text, re.S)
        out["arenas_mb"] = [round(int(size) / 2**20, 1) for _, size in arenas]
        fd = os.dup(2)
        with tf.TemporaryFile() as err:
            os.dup2(err.fileno(), 2)
            try:
                sys._debugmallocstats()
            finally:
                os.dup2(fd, 2)
                os.close(fd)
            err.seek(0)
            stats = err.read().decode()
        arena_now = re.search(r"# arenas allocated current\s*=\s*([\d,]+)", stats)
        out["pymalloc_arenas"] = int(arena_now.group(1).replace(",", "")) if arena_now else None
        free = re.search(r"# bytes in available blocks\s*=\s*([\d,]+)", stats)
        out["pymalloc_free_mb"] = int(free.group(1).replace(",", "")) / 2**20 if free else None
    except (OSError, AttributeError):
        pass
    out.update(brk_heap_mb=heap / 1024, anon_maps_mb=anon / 1024, file_maps_mb=files / 1024, maps=regions)
    try:
        from kivy.cache import Cache

        out["kivy_cache"] = {k: len(v) for k, v in Cache._objects.items() if v}
    except ImportError:
        pass
    fonts = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            fonts += os.readlink(f"/proc/self/fd/{fd}").lower().endswith((".ttf", ".otf"))
        except OSError:
            pass
    out["font_fds"] = fonts
    out["font_ids"] = len(FONT_IDS)
    out["new_fonts"] = sorted(FONT_IDS - FONT_IDS_SHOWN)
    FONT_IDS_SHOWN.update(FONT_IDS)
    return out


MAPS_FIRST: dict[int, int] = {}
"""Resident KiB of each anonymous mapping (by start address) at the life's first ``maps`` sample."""

HEAP_MAX = 64 * 2**20
"""glibc reserves each thread arena's heap as 64 MiB aligned on 64 MiB (HEAP_MAX_SIZE on 64-bit)."""


def mapping_kind(vma: dict, before: dict | None, after: dict | None) -> str | None:
    """What a mapping of /proc/self/smaps holds (``maps`` lists the kinds), from its name and
    permissions and its neighbours'; None for a reservation (no access: never resident).
    ``vma``: start, end (addresses), perms ("rw-p"), name ("" when anonymous)."""
    name = vma["name"]
    if name in ("[heap]", "[stack]"):
        return "heap" if name == "[heap]" else "stacks"
    if name.startswith("["):
        return "other"
    if name:
        low = name.lower()
        if low.endswith((".ttf", ".otf")):
            return "fonts"
        if ".so" in low:
            return "so"
        if low.startswith(("/memfd:", "/sysv", "/dev/shm")):
            return "shm"
        return "dev" if low.startswith("/dev/") else "other_files"
    if vma["perms"].startswith("---"):
        return None

    def reserved(other: dict | None) -> bool:
        return other is not None and not other["name"] and other["perms"].startswith("---")

    aligned = vma["start"] % HEAP_MAX == 0
    if aligned and (vma["end"] - vma["start"] == HEAP_MAX or (
            reserved(after) and after["start"] == vma["end"] and after["end"] - vma["start"] == HEAP_MAX)):
        return "thread_arenas"
    if reserved(before) and before["end"] == vma["start"] and before["end"] - before["start"] <= 64 * 1024:
        return "stacks"  # a thread's stack above its guard page
    return "anon"


def maps() -> dict:
    """Opt-in (TN_SOAK_MAPS=1): the resident set by kind of mapping, from /proc/self/smaps, in MB.

    * ``heap``: the main arena's heap ([heap], grown with brk);
    * ``thread_arenas``: glibc's heaps for other threads (a read-write start of a 64 MiB-aligned
      reservation, the rest of it PROT_NONE), with their count;
    * ``stacks``: [stack] and thread stacks (read-write behind a PROT_NONE guard page);
    * ``anon``: every other anonymous mapping: Python's 1 MiB arenas, glibc's own-page blocks
      (72 KiB and up), Mesa's and SDL's buffers; the kernel merges neighbours, so it is counted by
      mapping with its count, and ``anon_grown`` lists the five that grew most since the first sample
      (start address, size, resident now, resident then);
    * files: ``so`` (libraries), ``fonts``, ``dev`` (/dev, e.g. the GPU), ``shm`` (memfd, SysV), ``other_files``.
    """
    vmas = smaps()
    kb: dict[str, int] = dict.fromkeys(("heap", "thread_arenas", "stacks", "anon", "so", "fonts", "dev", "shm",
                                         "other_files", "other"), 0)
    count = {"thread_arenas": 0, "anon": 0}
    anon_now: dict[int, tuple[int, int]] = {}
    for i, vma in enumerate(vmas):
        kind = mapping_kind(vma, vmas[i - 1] if i else None, vmas[i + 1] if i + 1 < len(vmas) else None)
        if kind is None:
            continue
        rss = vma["rss"]
        if kind == "anon":
            anon_now[vma["start"]] = (vma["end"] - vma["start"], rss)
        kb[kind] += rss
        if kind in count:
            count[kind] += 1
    if not MAPS_FIRST:
        MAPS_FIRST.update({start: rss for start, (_, rss) in anon_now.items()})
    grown = sorted(((rss - MAPS_FIRST.get(start, 0), start, size, rss) for start, (size, rss) in anon_now.items()),
                   reverse=True)[:5]
    return {**{f"{k}_mb": round(v / 1024, 1) for k, v in kb.items()}, "thread_arena_count": count["thread_arenas"],
            "anon_count": count["anon"],
            "anon_grown": [(hex(start), round(size / 2**20, 1), round(rss / 1024, 1),
                            round((rss - diff) / 1024, 1)) for diff, start, size, rss in grown]}


def gl_objects() -> dict:
    """Opt-in (TN_SOAK_MAPS=1, with the kiosk's window open): the GL driver's textures and programs
    alive (``glIsTexture``/``glIsProgram`` over the first names), Kivy's Texture, Fbo and Shader
    objects alive (each Fbo links a program of its own; the pictures share one: kiosk/ui/art.py)."""
    from kivy.graphics import opengl

    out = {"gl_textures": sum(opengl.glIsTexture(i) for i in range(1, 40000)),
           "gl_programs": sum(opengl.glIsProgram(i) for i in range(1, 4000))}
    for obj in gc.get_objects():
        name = type(obj).__name__
        if name in ("Texture", "Fbo", "Shader"):
            out[name] = out.get(name, 0) + 1
    return out


FONT_IDS: set[str] = set()
FONT_IDS_SHOWN: set[str] = set()


def watch_fonts() -> None:
    """Note every font (file, size, style) Kivy's SDL2 text provider is asked for."""
    from kivy.core.text.text_sdl2 import LabelSDL2

    font_id = LabelSDL2._get_font_id

    def noted(label):
        key = font_id(label)
        FONT_IDS.add(key)
        return key
    LabelSDL2._get_font_id = noted


def trims_ms() -> list[float] | None:
    """The kiosk's own trims on the way Home since the last sample (kiosk/housekeeping.py): min, median, max ms."""
    from kiosk import housekeeping

    took = list(housekeeping.TRIMS_MS)
    housekeeping.TRIMS_MS.clear()
    return [round(min(took), 1), round(statistics.median(took), 1), round(max(took), 1)] if took else None


def sample(app, latencies: list[float]) -> dict:
    from kiosk.store import Store

    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    db = Path(app.store.path)
    wal = db.with_name(db.name + "-wal")
    assert isinstance(app.store, Store)
    return {
        "rss_mb": rss_mb(),
        "heap_blocks": sys.getallocatedblocks(),
        "gc_objects": len(gc.get_objects()),
        "fds": len(os.listdir("/proc/self/fd")),
        "threads": int(status["Threads"].strip()),
        "py_threads": threading.active_count(),
        "db_mb": db.stat().st_size / 2**20,
        "wal_mb": wal.stat().st_size / 2**20 if wal.exists() else 0.0,
        "lat_p50_ms": statistics.median(latencies) if latencies else float("nan"),
        "lat_p95_ms": p95(latencies),
        "lat_n": len(latencies),
        "reveals": sum(type(o).__name__ == "Reveal" for o in app.overlays),
        "overlays": len(app.overlays),
        "game": app.runner.engine.game if app.runner is not None else None,
        "rss_trimmed_mb": trimmed_rss() if os.environ.get("TN_SOAK_TRIM") else None,
        "trim_ms": trims_ms(),
        "on_window": len(__import__("kivy.core.window", fromlist=["Window"]).Window.children) - 1,
        **(native() if os.environ.get("TN_SOAK_NATIVE") else {}),
        **({"play_caches": play_caches(app)} if os.environ.get("TN_SOAK_NATIVE") else {}),
        **({"mapping_kinds": {**maps(), **gl_objects()}} if os.environ.get("TN_SOAK_MAPS") else {}),
    }


class Trace:
    """Opt-in (TN_SOAK_TRACE=<file>): what grows inside the kiosk between the first sample and each later one.

    tracemalloc's top allocation sites and gc's object counts by type, as differences against the
    first sample of this life, appended to the file. Tracing starts at the first sample (it slows the kiosk
    several times over), so the sites listed are allocations made since then and still alive.
    """

    def __init__(self, path: str) -> None:
        import tracemalloc

        self.out = Path(path).open("a", buffering=1)
        self.tracemalloc = tracemalloc
        self.first: tuple | None = None

    @staticmethod
    def types() -> dict[str, int]:
        counts: dict[str, int] = {}
        for obj in gc.get_objects():
            name = type(obj).__qualname__
            counts[name] = counts.get(name, 0) + 1
        return counts

    def sample(self, actions: int) -> None:
        types = self.types()
        if self.first is None:  # tracing starts here: what the snapshots hold is what was allocated since
            self.tracemalloc.start(int(os.environ.get("TN_SOAK_TRACE_FRAMES", "6")))
            self.first = (actions, self.tracemalloc.take_snapshot(), types)
            return
        at, first_snap, first_types = self.first
        snap = self.tracemalloc.take_snapshot().filter_traces(
            [self.tracemalloc.Filter(False, self.tracemalloc.__file__)])
        self.out.write(f"=== actions {at} -> {actions}\n--- top allocation sites (traceback)\n")
        for stat in snap.compare_to(first_snap, "traceback")[:12]:
            self.out.write(f"{stat.size_diff / 1024:+10.1f} KiB {stat.count_diff:+8d} blocks\n")
            for line in stat.traceback.format()[-16:]:
                self.out.write(f"      {line}\n")
        self.out.write("--- gc objects by type\n")
        grown = sorted(((types.get(k, 0) - first_types.get(k, 0), k) for k in types.keys() | first_types.keys()),
                       reverse=True)
        for diff, name in grown[:25]:
            self.out.write(f"{diff:+8d} {name} ({types.get(name, 0)})\n")


def life(data: Path, config: Path, seed: int, done_before: int, total: int, kill_at: int | None,
         block: int = BLOCK, quiet_every: int = 10) -> int:
    from kivy.base import EventLoop

    from hardware.events import LinkDown, LinkUp
    from testkit import drive
    from kiosk.phones.events import PhoneAction
    from kiosk.rules import RuleError, bot
    from kiosk.ui import overlays

    overlays.ANIMATION_SCALE["value"] = 0
    trace = Trace(os.environ["TN_SOAK_TRACE"]) if os.environ.get("TN_SOAK_TRACE") else None
    if os.environ.get("TN_SOAK_NATIVE"):
        watch_fonts()
    app = drive.start(str(data), config_path=str(config))
    drive.pump(3, draw=True)  # the first frames: the kiosk goes back into the game it had on screen
    rng = random.Random(seed)
    pauses = random.Random(seed + 7919)  # its own stream: the same seed plays the same games at any --quiet-every
    games = [g for g in app.engines if g != "toy"]
    shown = (data / "shown.log").open("a", buffering=1)
    phones = Phones()
    actions, latencies = done_before, []
    counts = dict.fromkeys(["groups", "pauses", "undos", "joins", "leaves", "unplugs", "exports", "reveals shown",
                            "quiet seconds"], 0)
    show_overlay = app.show_overlay

    def counted(overlay) -> None:
        counts["reveals shown"] += type(overlay).__name__ == "Reveal"
        show_overlay(overlay)
    app.show_overlay = counted
    group_left = rng.randint(150, 600)

    def draw() -> None:
        EventLoop.idle()
        runner = app.runner
        if runner is not None:
            shown.write(f"SHOWN {runner.sid} {len(runner.session.log)} {view_hash(runner.session)}\n")

    played: set[str] = set()  # the games this life has put on screen (warm-up: each one's screens built once)

    def new_group() -> None:
        nonlocal group_left
        draw()  # the leaving group's last move on screen (a kiosk draws it before anyone walks off)
        phones.leave_all()
        if os.environ.get("TN_SOAK_FORGET"):  # experiment: the play screen's reused widgets dropped between groups
            for name in ("_inputs_cache", "_labels_cache", "_buttons_cache"):
                getattr(app.play, name, {}).clear()
        app.start_attract()
        for _ in range(3):
            draw()
        app.end_attract()  # Home, where the kiosk collects and trims (``App.go_home``)
        draw()
        print("REST", json.dumps({"actions": actions, "rss_mb": rss_mb(), "played": len(played)}), flush=True)
        game = games[rng.randrange(len(games))]
        app.start_game(game, {"seed": rng.randrange(10**6)})
        played.add(game)
        group_left = rng.randint(150, 600)

    def quiet_second() -> None:
        """A second with nobody at the table's controls, as the kiosk's once-a-second check sees it."""
        from kiosk.parts.idle import QUIET_S

        app.idle.last_input = app.idle.last_event = app.idle.clock() - QUIET_S
        app._idle_check()
        counts["quiet seconds"] += 1

    def timed_event(data_: dict) -> None:
        """A phone's answer through the controller's queue, timed to the end of the frame that shows it."""
        before = len(app.runner.session.log)
        start = time.perf_counter()
        app.controller.receive(PhoneAction(data_["player"], {k: v for k, v in data_.items() if k != "player"}))
        for _ in range(20):
            draw()
            if len(app.runner.session.log) != before:
                latencies.append((time.perf_counter() - start) * 1000)
                return

    if app.runner is None:
        new_group()
    else:
        played.add(app.runner.engine.game)
        print(f"RESUMED session {app.runner.sid} at {len(app.runner.session.log)} actions", flush=True)
    next_block = (actions // block + 1) * block
    while actions < total:
        if app.runner is None or app.runner.outcome is not None or group_left <= 0:
            if app.runner is not None and app.runner.outcome is not None and rng.random() < 0.5:
                app.export_current()  # the recap to take home (a QR code overlay, with phones on)
                counts["exports"] += 1
            new_group()
            counts["groups"] += 1
            continue
        roll = rng.random()
        runner = app.runner
        if roll < 0.01:  # pause to the home screen and resume
            sid = runner.sid
            app.pause_game()
            draw()
            app.resume(sid)
            counts["pauses"] += 1
        elif roll < 0.04:
            shown.write(f"UNDO {runner.sid} {len(runner.session.log)}\n")
            counts["undos"] += 1
            try:
                runner.undo()
            except Exception:  # noqa: BLE001 - a sealed round is refused, as at the table
                pass
        elif roll < 0.05 and app.phones is not None:  # a phone joins, or leaves
            player = rng.choice(runner.players())
            if player in phones.open:
                phones.leave(player)
                counts["leaves"] += 1
            elif (url := app.phones.server.join_url(player)) is not None:
                phones.join(player, url)
                counts["joins"] += 1
        elif roll < 0.053:  # the tray's cable pulled, and later plugged back
            app.controller.receive(LinkDown("serial", "cable pulled", time.time()))
            for _ in range(2):
                draw()
            app.controller.receive(LinkUp("serial", "plugged back", time.time()))
            app.reopen_hardware()
            counts["unplugs"] += 1
        prompts = app.runner.awaiting()
        if not prompts:
            group_left = 0
            continue
        pool = [p for p in prompts if not p.optional] or prompts
        if app.runner.engine.game == "clincher" and len(app.runner.session.log) < 60:
            pool = [p for p in pool if p.action != "end_session"] or pool
        data_ = bot.fill(rng.choice(pool), rng)
        before = len(app.runner.session.log)
        if actions % 20 == 0:
            timed_event(data_)
        else:
            try:
                app.runner.propose(data_)
            except RuleError:
                pass
            if actions % 10 == 0:
                draw()
            else:
                drive.pump(1, draw=False)
        if len(app.runner.session.log) != before:
            actions += 1
            group_left -= 1
            if quiet_every and pauses.random() * quiet_every < 1:
                quiet_second()
        if actions >= next_block:
            draw()
            gc.collect()
            print("BLOCK", json.dumps({"actions": actions, **sample(app, latencies), "counts": counts,
                                       "played": sorted(played), "games": len(games)}), flush=True)
            if trace is not None:
                trace.sample(actions)
            latencies = []
            next_block += block
        if kill_at is not None and actions >= kill_at:
            print("KILL_ME", actions, flush=True)
            kill_at = None  # carry on playing until the signal lands
    draw()
    print("DONE", actions, flush=True)
    os._exit(0)


# -- the day: lives in child processes, the check at the end ---------------------------------------

def lost_games(data: Path) -> tuple[int, int, list[str]]:
    """(games checked, shown changes, problems): every game's stored log must replay to its last shown view."""
    from kiosk import games
    from kiosk.rules import Session
    from kiosk.store import Store

    last: dict[int, tuple[int, str]] = {}
    undo_in_flight: dict[int, int] = {}
    changes = 0
    for line in (data / "shown.log").read_text().splitlines():
        parts = line.split()
        if parts[0] == "SHOWN" and len(parts) == 4:
            last[int(parts[1])] = (int(parts[2]), parts[3])
            undo_in_flight.pop(int(parts[1]), None)
            changes += 1
        elif parts[0] == "UNDO" and len(parts) == 3:
            undo_in_flight[int(parts[1])] = int(parts[2])
    store = Store(data / "sessions.sqlite3", engines=games.engine_for)
    problems = []
    for sid, (n, digest) in last.items():
        lines = store.lines(sid)
        header, stored = json.loads(lines[0]), lines[1:]
        if len(stored) < n:
            problems.append(f"session {sid}: {n} actions shown, {len(stored)} stored")
            continue
        session = Session(games.engine_for(header["game"]), header["setup"])
        for raw in stored[:n]:
            session.apply(json.loads(raw))
        if view_hash(session) != digest:
            problems.append(f"session {sid}: the stored log replays to another view than the one shown")
        elif len(stored) > n + 1 and sid not in undo_in_flight:
            problems.append(f"session {sid}: {len(stored) - n} stored actions were never shown")
    store.close()
    return len(last), changes, problems


def day(args) -> int:
    work = Path(args.data or tempfile.mkdtemp(prefix="tn-day-"))
    data = work / "data"
    data.mkdir(parents=True, exist_ok=True)
    sock = __import__("socket").socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    config = work / "table-noir.toml"
    config.write_text(f"[kiosk]\nidle_attract_s = 7200\n[phones]\nport = {port}\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KIVY_NO_ARGS": "1", "KIVY_LOG_MODE": "PYTHON"}
    blocks: list[dict] = []
    rests: list[dict] = []  # the kiosk at Home between two groups (``REST``)
    done, lives, kills = 0, 0, 0
    started = time.monotonic()
    quiet = f"a quiet second after about one action in {args.quiet_every}" if args.quiet_every else "flat out"
    print(f"convention day: {args.actions} actions, a kill every {args.kill_every or 'never'}, seed {args.seed}, "
          f"{quiet}, data in {data}", flush=True)
    while done < args.actions:
        lives += 1
        kill_at = done + args.kill_every if args.kill_every and done + args.kill_every < args.actions else None
        argv = [sys.executable, __file__, "--life", "--data", str(data), "--config", str(config),
                "--seed", str(args.seed * 1000 + lives), "--from", str(done), "--actions", str(args.actions),
                "--block", str(args.block), "--quiet-every", str(args.quiet_every)]
        if kill_at is not None:
            argv += ["--kill-at", str(kill_at)]
        errors = (work / f"life-{lives}.stderr").open("w")
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=errors, text=True, env=env, cwd=ROOT)
        for line in proc.stdout:
            word, _, rest = line.strip().partition(" ")
            if word == "BLOCK":
                block = {"life": lives, **json.loads(rest)}
                blocks.append(block)
                done = block["actions"]
                trimmed = "" if block.get("rss_trimmed_mb") is None else f" (RSS trimmed {block['rss_trimmed_mb']:.1f} MB)"
                print(f"  life {lives} {block['actions']:>6} actions  RSS {block['rss_mb']:6.1f} MB  heap "
                      f"{block['heap_blocks']:>8} blocks {block['gc_objects']:>7} objects  fds {block['fds']:>3}  "
                      f"threads {block['threads']:>2} ({block['py_threads']} Python)  DB {block['db_mb']:5.1f} MB "
                      f"WAL {block['wal_mb']:4.1f} MB  latency p50 {block['lat_p50_ms']:5.1f} p95 "
                      f"{block['lat_p95_ms']:5.1f} ms (n={block['lat_n']})  {block.get('game')}"
                      f"{trimmed}  trims {block.get('trim_ms')} ms  overlays {block['overlays']} "
                      f"({block['reveals']} reveals, {block['on_window']} on the window)  so far in this life: "
                      f"{', '.join(f'{v} {k}' for k, v in block['counts'].items())}", flush=True)
                if "brk_heap_mb" in block:
                    print("    native: " + ", ".join(f"{k} {v:.1f}" if isinstance(v, float) else f"{k} {v}"
                                                    for k, v in block.items() if k in NATIVE_KEYS), flush=True)
                if "mapping_kinds" in block:
                    print("    maps: " + ", ".join(f"{k} {v}" for k, v in block["mapping_kinds"].items()), flush=True)
            elif word == "REST":
                rests.append({"life": lives, **json.loads(rest)})
            elif word == "KILL_ME":
                time.sleep(random.Random(lives).uniform(0, 0.3))  # lands anywhere in the next actions
                proc.send_signal(signal.SIGKILL)
                kills += 1
                done = int(rest)
                print(f"  life {lives}: SIGKILL after {rest} actions", flush=True)
            elif word in ("RESUMED", "DONE"):
                print(f"  life {lives}: {line.strip()}", flush=True)
                if word == "DONE":
                    done = int(rest)
        proc.wait()
        proc.stdout.close()
        errors.close()
        if proc.returncode not in (0, -signal.SIGKILL):
            print((work / f"life-{lives}.stderr").read_text()[-3000:])
            raise SystemExit(f"life {lives} failed with status {proc.returncode}")
    checked, changes, problems = lost_games(data)
    minutes = (time.monotonic() - started) / 60
    print(f"\n{done} actions in {minutes:.1f} min, {lives} lives ({kills} kills), {checked} games checked, "
          f"{changes} shown changes")
    report(blocks)
    report_rest(rests, blocks)
    did: dict[str, int] = {}
    for life_ in sorted({b["life"] for b in blocks}):  # each life counts from its start: its last block has its total
        for name, n in [b for b in blocks if b["life"] == life_][-1].get("counts", {}).items():
            did[name] = did.get(name, 0) + n
    print("what the table did: " + ", ".join(f"{name} {n}" for name, n in did.items()))
    print(f"lost: {len(problems)}" + "".join(f"\n  {p}" for p in problems[:20]))
    return 1 if problems else 0


def report(blocks: list[dict]) -> None:
    """Growth after the first 1,000 actions of each life, and latency p95 first block against last."""
    for life_no in sorted({b["life"] for b in blocks}):
        mine = [b for b in blocks if b["life"] == life_no]
        if len(mine) < 2:
            print(f"life {life_no}: {len(mine)} block(s), too short for a growth figure")
            continue
        first, last = mine[0], mine[-1]
        lat = [b["lat_p95_ms"] for b in mine]
        highest = max(b["rss_mb"] for b in mine[1:])
        print(f"life {life_no}: after its first block ({first['actions']} actions) to {last['actions']}: RSS "
              f"{first['rss_mb']:.1f} -> {last['rss_mb']:.1f} MB ({pct(first, last['rss_mb'])}, highest {pct(first, highest)}), "
              f"heap blocks {first['heap_blocks']} -> {last['heap_blocks']}, objects {first['gc_objects']} -> "
              f"{last['gc_objects']}, fds {sorted({b['fds'] for b in mine})}, threads "
              f"{sorted({b['threads'] for b in mine})}, latency p95 {lat[0]:.1f} -> {lat[-1]:.1f} ms (spread "
              f"{min(lat):.1f}-{max(lat):.1f})")
        warm = next((b for b in mine if len(b.get("played", ())) >= b.get("games", 1)), None)
        if warm is None:
            print(f"life {life_no}: not every game was played, so no figure after warm-up")
        elif warm is not last:
            after = [b["rss_mb"] for b in mine[mine.index(warm) + 1:]]
            print(f"life {life_no}: after warm-up (every game played once; the first block then: {warm['actions']} "
                  f"actions) to {last['actions']}: RSS {warm['rss_mb']:.1f} -> {last['rss_mb']:.1f} MB "
                  f"({pct(warm, last['rss_mb'])}, highest {pct(warm, max(after))})")


def report_rest(rests: list[dict], blocks: list[dict]) -> None:
    """Memory at rest: the kiosk at Home between two groups, after its own collection and trim.

    A block's sample lands in whatever game is on the table, and the games' working sets differ
    (Promise Hollows holds about twice the live Python objects of a clincher scene), so the
    sample at action 1,000 and the last one can compare a light game with a heavy one. At Home
    between groups every sample is taken in the same state: what grows there stays."""
    for life_no in sorted({r["life"] for r in rests}):
        mine = [r for r in rests if r["life"] == life_no]
        samples = [b["actions"] for b in blocks if b["life"] == life_no]
        block = min(samples) if samples else BLOCK  # the life's first sample: its own first 1,000 actions
        after = [r for r in mine if r["actions"] >= block]
        if len(after) < 2:
            print(f"life {life_no}: {len(after)} time(s) at Home after action {block}, too few for a figure at rest")
            continue
        first, last = after[0], after[-1]
        half = len(after) // 2
        early, late = (statistics.mean(r["rss_mb"] for r in part) for part in (after[:half], after[half:]))
        print(f"life {life_no}: at Home between groups, from the first time after action {block} "
              f"({first['actions']} actions) to the last ({last['actions']}): RSS {first['rss_mb']:.1f} -> "
              f"{last['rss_mb']:.1f} MB ({pct(first, last['rss_mb'])}, highest "
              f"{pct(first, max(r['rss_mb'] for r in after))}; {len(after)} times); the mean of the second half "
              f"against the first: {early:.1f} -> {late:.1f} MB ({100 * (late - early) / early:+.1f} %)")
        print("  at Home (actions: MB): " + ", ".join(f"{r['actions']}: {r['rss_mb']:.1f}" for r in mine))


def pct(base: dict, mb: float) -> str:
    """``mb`` as growth over the block ``base``'s RSS, in per cent."""
    return f"{100 * (mb - base['rss_mb']) / base['rss_mb']:+.1f} %"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=8000)
    parser.add_argument("--kill-every", type=int, default=4000, help="SIGKILL the kiosk after this many actions "
                        "of a life (0: never)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--block", type=int, default=BLOCK, help="actions between two samples")
    parser.add_argument("--quiet-every", type=int, default=10,
                        help="a quiet second at the table after about one action in this many, as between a table's "
                        "actions (0: flat out, never one)")
    parser.add_argument("--data", help="work folder (default: a new temporary one)")
    parser.add_argument("--life", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--config", help=argparse.SUPPRESS)
    parser.add_argument("--from", dest="start", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--kill-at", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.life:
        return life(Path(args.data), Path(args.config), args.seed, args.start, args.actions, args.kill_at, args.block,
                    args.quiet_every)
    return day(args)


if __name__ == "__main__":
    sys.exit(main())
