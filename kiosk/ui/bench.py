"""The maker's bench test on the touchscreen (operator menu, "Tray bench test").

The same checklist as ``table-noir hardware bench`` (``hardware.bench``), one step at a time
with big buttons: the screen says what to set up, the operator taps "Done: record" when it is
set (for a hand, a drop or a topple: "Record, then do it", and does it while the tray
records), the live readings show while the tray records, and each step's verdict appears as
it is judged. At the end the pass/fail report is saved to a file in the kiosk's data folder and the
screen says where.

With a real tray (serial, or the sensor on the Pi's I2C), the kiosk's own tray connection is
closed for the walk and a fresh one opened with every reading on (``raw``); the kiosk opens its
hardware again afterwards. With
the simulated table, the walk runs on a virtual tray seen through the optical model
(``hardware.bench.open_virtual_bench``), and a simulated maker does each step when the button
is tapped.

``BenchWalk`` runs the checklist on a worker thread and reports to a queue; the screen drains
it ten times a second, so nothing here blocks the UI.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from pathlib import Path
from typing import Any, Callable

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup as esc

from hardware.bench import STEPS, Bench, SimMaker, Step, open_virtual_bench, wait_connected

from . import theme
from .theme import Big, Filled, Scroll, Text, px

log = logging.getLogger(__name__)

PACE = {"value": 1.0}
"""How fast the virtual tray runs against real time (tests set it below 1)."""

SIMULATED_SET: dict[str, Any] = {"scale": None}
"""The weighing design of the simulated table's Heat set (None: the kit's matched set; tests give a mixed one)."""


class BenchWalk:
    """One walk through the checklist on a worker thread, without widgets.

    ``messages`` gets ("step", number, Step, steps in all), ("live", line), ("verdict", Verdict),
    ("done", report text, saved path or None) and ("failed", reason). ``go()`` answers the
    step waiting for the maker; ``cancel()`` stops the walk.
    """

    def __init__(self, open_tray: Callable[[], tuple[Any, SimMaker | None, Callable[[], None]]],
                 geometry: Any, design: str, save_to: Path) -> None:
        self._open_tray = open_tray
        self.geometry = geometry
        self.design = design
        self.save_to = save_to
        self.messages: queue.Queue = queue.Queue()
        self._go = threading.Event()
        self._bench: Bench | None = None
        self._cancelled = threading.Event()
        self._thread = threading.Thread(target=self._run, name="bench-walk", daemon=True)

    def start(self) -> "BenchWalk":
        self._thread.start()
        return self

    def go(self) -> None:
        self._go.set()

    def cancel(self) -> None:
        self._cancelled.set()
        if self._bench is not None:
            self._bench.cancelled.set()
        self._go.set()

    def join(self, seconds: float = 5.0) -> None:
        self._thread.join(seconds)

    def _ready(self, step: Step) -> None:
        """Show the step and wait for the maker's tap (the bench records from there on)."""
        steps = self._bench.steps if self._bench is not None else STEPS
        number = next(i for i, s in enumerate(steps, 1) if s.key == step.key)
        self.messages.put(("step", number, step, len(steps)))
        self._go.wait()
        self._go.clear()

    def _run(self) -> None:
        try:
            tray, act, close = self._open_tray()
        except Exception as err:  # the port vanished, a pseudo-terminal could not open: say so
            log.exception("bench: the tray did not open")
            self.messages.put(("failed", f"The tray did not open: {err}"))
            return
        try:
            if not wait_connected(tray):
                self.messages.put(("failed", "The tray did not answer within 10 s: is it plugged in?"))
                return
            bench = self._bench = Bench(tray, self.geometry, self.design, ready=self._ready, act=act,
                                        say=lambda line: self.messages.put(("live", line.strip())))
            if self._cancelled.is_set():
                bench.cancelled.set()
            self._walk(bench)
        finally:
            if self._bench is not None:
                self._bench.close()
            close()

    def _walk(self, bench: Bench) -> None:
        """The remaining steps, one by one, reporting each verdict as it comes."""
        before = None
        for number, step in enumerate(bench.steps, 1):
            got = bench.run_step(step, number, len(bench.steps), before)
            if got is None:  # cancelled
                return
            self.messages.put(("verdict", got))
            if step.kind == "still":
                before = bench.records[step.key]
        report = bench.report()
        path: str | None = None
        try:
            self.save_to.mkdir(parents=True, exist_ok=True)
            target = self.save_to / time.strftime("bench-%Y%m%d-%H%M%S.txt")
            target.write_text(report, encoding="utf-8")
            path = str(target)
        except OSError as err:
            log.error("bench report not saved: %s", err)
        self.messages.put(("done", report, path, bench.passed))


class BenchScreen(Screen):
    """The bench walk, drawn: the step, what to do, the live reading, the verdicts, the report."""

    def __init__(self, app: Any, **kw: Any) -> None:
        super().__init__(name="bench", **kw)
        self.app = app
        self.walk: BenchWalk | None = None
        self._ticker: Any = None
        root = BoxLayout(orientation="vertical", padding=px(10), spacing=px(6))
        head = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(8))
        title = Text("Tray bench test", size=24, bold=True, color=theme.ACCENT, fit=False)
        head.add_widget(title)
        self.step_label = Text("", size=18, color=theme.DIM, fit=False, halign="right")
        self.step_label.tag = "bench:step"
        head.add_widget(self.step_label)
        root.add_widget(head)
        body = BoxLayout(spacing=px(8))
        left = Filled(orientation="vertical", bg=theme.PANEL, padding=px(10), spacing=px(8), radius=px(6))
        self.instruction = Text("", size=22, bold=True)
        self.instruction.tag = "bench:instruction"
        left.add_widget(self.instruction)
        self.live = Text("", size=17, color=theme.DIM)
        self.live.tag = "bench:live"
        left.add_widget(self.live)
        left.add_widget(BoxLayout())
        self.go_button = Big("Done: record", kind="accent", size=22)
        self.go_button.tag = "bench:go"
        self.go_button.height = px(theme.TOUCH * 1.4)
        self.go_button.bind(on_release=lambda *_: self.go())
        left.add_widget(self.go_button)
        body.add_widget(left)
        right = Filled(orientation="vertical", bg=theme.PANEL, padding=px(10), spacing=px(4), radius=px(6),
                       size_hint_x=0.8)
        self.verdicts = Text("", size=15)
        self.verdicts.tag = "bench:verdicts"
        # 25 steps' verdicts are taller than the box at 800x480: they scroll, the newest in view
        self.verdict_scroll = Scroll(bar=5)
        self.verdict_scroll.add_widget(self.verdicts)
        self.verdicts.bind(height=lambda *_: setattr(self.verdict_scroll, "scroll_y", 0))
        right.add_widget(self.verdict_scroll)
        self.result = Text("", size=17, bold=True)
        self.result.tag = "bench:result"
        right.add_widget(self.result)
        body.add_widget(right)
        root.add_widget(body)
        row = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(6))
        self.again = Big("Run it again", kind="normal", size=17)
        self.again.tag = "bench:again"
        self.again.bind(on_release=lambda *_: self.begin())
        row.add_widget(self.again)
        back = Big("Back to the operator menu", kind="normal", size=17)
        back.tag = "bench:back"
        back.bind(on_release=lambda *_: self.app.leave_bench())
        row.add_widget(back)
        root.add_widget(row)
        self.add_widget(root)
        self._lines: list[str] = []
        self._acting = False  # the step shown is a hand, a drop or a topple: recorded from the tap
        self._total = len(STEPS)  # the walk's steps (a tray that weighs the Heat walks the weighing first)
        self.report = ""
        self.saved_to: str | None = None

    # -- the walk -----------------------------------------------------------------------
    def begin(self) -> None:
        """Start a walk (again): on the real tray, or on a virtual one when the table is simulated."""
        self.stop()
        self._lines, self.report, self.saved_to = [], "", None
        self.verdicts.text = self.result.text = self.live.text = ""
        self.instruction.text = "Connecting to the tray..."
        self.step_label.text = ""
        self.go_button.disabled = True
        self.again.disabled = True
        config = self.app.config_hw
        self.walk = BenchWalk(self._opener(config), config.geometry, "low-limit",
                              Path(self.app.exports).parent / "bench").start()

    def _opener(self, config: Any) -> Callable[[], tuple[Any, SimMaker | None, Callable[[], None]]]:
        if config.tray.backend != "sim" and getattr(self.app, "sim_tray", None) is None:  # a real tray
            def open_real() -> tuple[Any, None, Callable[[], None]]:
                from hardware.factory import open_tray

                tray = open_tray(config)
                return tray, None, tray.close
            return open_real

        def open_virtual() -> tuple[Any, SimMaker, Callable[[], None]]:
            virtual = open_virtual_bench(config, "low-limit", seed=0, pace=PACE["value"],
                                         scale=SIMULATED_SET["scale"])
            return virtual.tray, virtual.act, virtual.close
        return open_virtual

    def go(self) -> None:
        if self.walk is not None and not self.go_button.disabled:
            self.go_button.disabled = True
            self.live.text = "Recording: do it now." if self._acting else "Recording..."
            self.walk.go()

    def stop(self) -> None:
        if self.walk is not None:
            self.walk.cancel()
            self.walk.join()
            self.walk = None

    def on_enter(self, *_: Any) -> None:
        self._ticker = Clock.schedule_interval(lambda dt: self.drain(), 0.1)
        if self.walk is None:
            self.begin()

    def on_leave(self, *_: Any) -> None:
        if self._ticker:
            self._ticker.cancel()
            self._ticker = None
        self.stop()

    def drain(self) -> None:
        """Show what the walk has reported since the last look."""
        walk = self.walk
        if walk is None:
            return
        while True:
            try:
                message = walk.messages.get_nowait()
            except queue.Empty:
                return
            kind = message[0]
            if kind == "step":
                _, number, step, self._total = message
                self.step_label.text = f"Step {number} of {self._total}: {esc(step.title)}"
                self.instruction.text = esc(step.instruction)
                self._acting = step.action
                if self._acting:
                    self.go_button.text = "Record, then do it"
                    self.live.text = (f"Tap [b]Record, then do it[/b]: the tray records for about "
                                      f"{step.seconds} s from the tap.")
                else:
                    self.go_button.text = "Done: record"
                    self.live.text = "Tap [b]Done: record[/b] when it is set up."
                self.go_button.disabled = False
            elif kind == "live":
                self.live.text = esc(message[1])
            elif kind == "verdict":
                v = message[1]
                mark = "[color=#4da861]PASS[/color]" if v.passed else "[color=#cc3d38]FAIL[/color]"
                self._lines.append(f"{mark}  {esc(v.step.title)}" + (f"\n      {esc(v.advice)}" if v.advice else ""))
                self.verdicts.text = "\n".join(self._lines)
            elif kind == "done":
                _, self.report, self.saved_to, passed = message
                verdict = "PASS" if passed else "FAIL"
                count = sum(1 for line in self._lines if "PASS" in line)
                where = f"Report saved to {esc(self.saved_to)}" if self.saved_to else "The report could not be saved."
                self.result.text = f"Result: {verdict} ({count} of {self._total} steps passed)\n{where}"
                self.result.color = theme.GOOD if passed else theme.BAD
                self.step_label.text = "Finished"
                self.go_button.text = "Done: record"
                self.instruction.text = "The bench test is done." + ("" if passed else " See what to do for each FAIL.")
                self.live.text = ""
                self.again.disabled = False
            elif kind == "failed":
                self.instruction.text = esc(message[1])
                self.again.disabled = False
