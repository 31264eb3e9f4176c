"""Start-up time: to the kiosk's first frame, next to an empty Kivy app, and to everything loaded.

Each run is a fresh Python process started the same way, on the same X screen,
with the same window settings (size, no multisampling, the same clock as the
kiosk's ``configure``), so the difference is the kiosk's own work. Runs are
interleaved (empty app, kiosk, empty app, kiosk...), so a machine that gets
busier part-way slows both alike. The clock starts just before the process is
spawned and stops:

* **first frame**: when the child's first frame has flipped with Home's widgets
  in place and touchable: the title row with Operator, each game's card with its
  New game, Learn and Rules buttons, and the list of paused games (the child
  checks the New game buttons are there and says how many). The session store is
  open. *Not loaded yet* at that moment: any game engine, the rules core and
  pydantic, the site configuration, the pads and the tray (and the controller),
  the phone server (aiohttp), the convention broker link, the play screen, the
  sound cues, the lessons' full check (Home lists them from their files alone,
  ``kiosk.lessonindex``);
* **all loaded**: when the last of that deferred start-up (``kiosk.later``, a step
  a frame after the first) has run, ``gc.freeze()`` included. Deferring cost
  does not hide it: this number shows it.

The kiosk's data folder is reused across runs (an existing store, as at a table).
Modules load from bytecode, as on a table (pip compiles an installed package; an
editable checkout writes ``__pycache__``): the children get their own bytecode
folder (``PYTHONPYCACHEPREFIX``), filled by the warm-up runs, whatever
``PYTHONDONTWRITEBYTECODE`` says here. ``--source`` compiles every module from
source at each start instead, which costs the kiosk (its own code) and not the
empty app.
``--code DIR`` runs the kiosk from another checkout (e.g. the code before a change,
``git archive COMMIT | tar -x -C DIR``) beside this one, in the same interleaved run;
code from before ``kiosk.later`` counts "all loaded" from its engines being loaded.
Aim: first frame within 1.25x of the empty app.

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python benchmarks/kiosk_startup.py [--runs 3] [--code DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

EMPTY = """
import os, sys
os.environ["KIVY_NO_ARGS"] = "1"
os.environ.setdefault("KIVY_CLOCK", "free_all")
from kivy.config import Config
Config.set("graphics", "width", "800"); Config.set("graphics", "height", "480")
Config.set("graphics", "multisamples", "0")
from kivy.app import App
from kivy.uix.button import Button
from kivy.core.window import Window

class Empty(App):
    def build(self):
        return Button(text="hello")
    def on_start(self):
        def flipped(*_):
            print("FIRST_FRAME 1", flush=True)
            print("ALL_LOADED", flush=True)
            os._exit(0)
        Window.bind(on_flip=flipped)
Empty().run()
"""

KIOSK = """
import os, sys
sys.path.insert(0, {root!r})
os.environ["KIVY_NO_ARGS"] = "1"
if os.path.exists(os.path.join({root!r}, "kiosk", "launch.py")):
    from kiosk.launch import app_class, configure
else:  # code from before the App's split (issue 35): the command line was in kiosk.app
    from kiosk.app import configure, make_app_class as app_class
configure((800, 480))
from kivy.clock import Clock
from kivy.core.window import Window
App = app_class()

def tagged(widget, prefix):
    found = [widget] if str(getattr(widget, "tag", "")).startswith(prefix) else []
    return found + [w for child in widget.children for w in tagged(child, prefix)]

class Timed(App):
    def on_start(self):
        super().on_start()
        self.seen_first = False
        Window.bind(on_flip=self.flipped)
        later = getattr(self, "later", None)
        if later is not None:
            later.on_done.append(self.all_loaded)
        else:  # code from before kiosk.later: everything loaded in one step with the engines
            Clock.schedule_interval(self.engines_loaded, 0)

    def engines_loaded(self, dt):
        if self._engines is not None:
            self.all_loaded()  # (a False returned here would end the interval)

    def flipped(self, *_):
        if not self.seen_first:
            self.seen_first = True
            print("FIRST_FRAME", len(tagged(self.root, "home:new:")), flush=True)

    def all_loaded(self):
        print("ALL_LOADED", flush=True)
        os._exit(0)

Timed(data_dir={data!r}, force_sim=True).run()
"""


BYTECODE = {"folder": ""}
"""Where the children keep compiled modules (``PYTHONPYCACHEPREFIX``), or "" to compile from source."""


def once(code: str) -> tuple[float, float]:
    """Seconds to the first frame and to everything loaded, in a fresh process."""
    env = {**os.environ, "KIVY_LOG_MODE": "PYTHON", "KIVY_NO_ARGS": "1"}
    if BYTECODE["folder"]:  # as at a table: modules load from bytecode compiled on the first run
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = BYTECODE["folder"]
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    folder = Path(tempfile.mkdtemp(prefix="tn-startup-run-"))
    script = folder / "app_under_test.py"  # Kivy's App wants a real file for its class
    script.write_text(code)
    errors = (folder / "stderr.txt").open("w")
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=errors,
                            text=True, env=env, cwd=ROOT)
    first = None
    for line in proc.stdout:
        if line.startswith("FIRST_FRAME"):
            first = time.perf_counter() - start
            if int(line.split()[1]) < 1:
                raise RuntimeError("the first frame had no New game button: Home was not in place")
        elif line.startswith("ALL_LOADED") and first is not None:
            took = time.perf_counter() - start
            proc.wait(timeout=10)
            return first, took
    proc.wait(timeout=10)
    raise RuntimeError("the app never finished starting: " + (folder / "stderr.txt").read_text()[-800:])


def _ms(values: list[float]) -> str:
    return ", ".join(f"{x * 1000:.0f}" for x in values)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--code", help="also time the kiosk from this checkout (the code before a change)")
    parser.add_argument("--source", action="store_true",
                        help="compile every module from source at each start (no bytecode cache)")
    args = parser.parse_args()
    BYTECODE["folder"] = "" if args.source else tempfile.mkdtemp(prefix="tn-startup-pyc-")
    data = tempfile.mkdtemp(prefix="tn-startup-")
    kiosks = {"this kiosk": KIOSK.format(root=str(ROOT), data=data)}
    if args.code:
        other = tempfile.mkdtemp(prefix="tn-startup-other-")  # its own store: an older schema must not meet ours
        kiosks[f"kiosk at {args.code}"] = KIOSK.format(root=str(Path(args.code).resolve()), data=other)
    once(EMPTY)  # warm the disk cache for each
    for code in kiosks.values():
        once(code)
    empty: list[float] = []
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in kiosks}
    for _ in range(args.runs):  # interleaved: each round has one run of each
        empty.append(once(EMPTY)[0])
        for name, code in kiosks.items():
            times[name].append(once(code))
    e = statistics.median(empty)
    print(f"start-up, median of {args.runs} interleaved runs (aim: first frame within 1.25x of an empty Kivy app); "
          + ("every module compiled from source at each start" if args.source else "modules from bytecode"))
    print(f"  empty Kivy app, first frame      {e * 1000:6.0f} ms   (runs: {_ms(empty)})")
    for name, runs in times.items():
        first, loaded = [f for f, _ in runs], [a for _, a in runs]
        ratios = [f / x for f, x in zip(first, empty)]
        f, a = statistics.median(first), statistics.median(loaded)
        print(f"  {name}:")
        print(f"    first frame (Home)             {f * 1000:6.0f} ms   (runs: {_ms(first)})")
        print(f"    ratio to the empty app         {f / e:6.2f}x    (run by run: {', '.join(f'{r:.2f}' for r in ratios)})")
        print(f"    everything loaded              {a * 1000:6.0f} ms   (runs: {_ms(loaded)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
