"""Start-up time to the first interactive frame: the kiosk next to an empty Kivy app.

Each run is a fresh Python process started the same way, on the same X
screen, with the same window settings (size, no multisampling, the same clock
as the kiosk's ``configure``), so the difference is the kiosk's own work. The clock starts just before the process
is spawned and stops when the child reports its first frame flipped with its
widgets in place (for the kiosk: the home screen, with the store opened,
engines loaded and the simulated hardware up). Aim: within 1.5x of the
empty app.

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python benchmarks/kiosk_startup.py [--runs 5]
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
            print("FIRST_FRAME", flush=True)
            os._exit(0)
        Window.bind(on_flip=flipped)
Empty().run()
"""

KIOSK = """
import os, sys
sys.path.insert(0, {root!r})
os.environ["KIVY_NO_ARGS"] = "1"
from kiosk.launch import app_class, configure
configure((800, 480))
from kivy.core.window import Window
App = app_class()

class Timed(App):
    def on_start(self):
        super().on_start()
        def flipped(*_):
            print("FIRST_FRAME", flush=True)
            os._exit(0)
        Window.bind(on_flip=flipped)
Timed(data_dir={data!r}, force_sim=True).run()
"""


def once(code: str) -> float:
    env = {**os.environ, "KIVY_LOG_MODE": "PYTHON", "KIVY_NO_ARGS": "1"}
    folder = Path(tempfile.mkdtemp(prefix="tn-startup-run-"))
    script = folder / "app_under_test.py"  # Kivy's App wants a real file for its class
    script.write_text(code)
    errors = (folder / "stderr.txt").open("w")
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=errors,
                            text=True, env=env, cwd=ROOT)
    for line in proc.stdout:
        if line.startswith("FIRST_FRAME"):
            took = time.perf_counter() - start
            proc.wait(timeout=10)
            return took
    proc.wait(timeout=10)
    raise RuntimeError("the app never showed a frame: " + (folder / "stderr.txt").read_text()[-800:])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="tn-startup-")
    once(EMPTY)  # warm the disk cache for both
    once(KIOSK.format(root=str(ROOT), data=data))
    empty = [once(EMPTY) for _ in range(args.runs)]
    kiosk = [once(KIOSK.format(root=str(ROOT), data=data)) for _ in range(args.runs)]
    e, k = statistics.median(empty), statistics.median(kiosk)
    print(f"start-up to first frame, median of {args.runs} runs (aim: kiosk within 1.5x of an empty Kivy app)")
    print(f"  empty Kivy app   {e * 1000:7.0f} ms   (runs: {', '.join(f'{x * 1000:.0f}' for x in empty)})")
    print(f"  Table Noir kiosk {k * 1000:7.0f} ms   (runs: {', '.join(f'{x * 1000:.0f}' for x in kiosk)})")
    print(f"  ratio            {k / e:7.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
