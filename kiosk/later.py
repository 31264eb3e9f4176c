"""Start-up work the first frame does not wait for, done one step a frame after it.

The kiosk draws its home screen first and only then opens the hardware, imports
the game engines, starts the phone server, checks the lessons and so on. Each of
those is a *step*; ``Later`` runs one step per frame (through ``schedule``, a
Kivy clock call in the kiosk), so a touch that arrives meanwhile waits for one
step at most, never for all of them.

Correctness first: whatever needs a step before its turn (starting a game needs
the hardware open) calls ``finish()``, which runs every step still waiting at
once, in order. A step marked ``idle_only`` is left to the clock: ``finish()``
skips it (the kiosk's ``gc.freeze()`` is one: it must run while no game exists).

``done_at`` is when the last step ended (``time.perf_counter()``), so a benchmark
can show what the deferred work costs in all, and nobody can hide start-up cost
by deferring it forever. Nothing here imports Kivy.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable

log = logging.getLogger(__name__)


@dataclass
class Step:
    name: str
    run: Callable[[], None]
    idle_only: bool = False


class Later:
    """An ordered list of steps, run one per ``schedule``d call, or all at once by ``finish``."""

    def __init__(self, schedule: Callable[[Callable[[], None]], None]) -> None:
        self._schedule = schedule
        self._steps: deque[Step] = deque()
        self._ticking = False
        self.took: dict[str, float] = {}
        """Each step's time in seconds, in the order they ran (for the log and the benchmark)."""
        self.done_at: float | None = None
        self.on_done: list[Callable[[], None]] = []
        """Called once, when the last step has run."""

    def add(self, name: str, run: Callable[[], None], idle_only: bool = False) -> None:
        self._steps.append(Step(name, run, idle_only))

    @property
    def waiting(self) -> list[str]:
        """The names of the steps not run yet, in order."""
        return [step.name for step in self._steps]

    def start(self) -> None:
        """Run the steps from the next frame on, one a frame."""
        if not self._ticking:
            self._ticking = True
            self._schedule(self._tick)

    def cancel(self) -> None:
        """Drop every step still waiting (the kiosk is closing: nothing more may open)."""
        self._steps.clear()
        self._ticking = False

    def _tick(self) -> None:
        if not self._ticking:  # cancelled since this tick was scheduled
            return
        if self._steps:
            self._run(self._steps.popleft())
        if self._steps:
            self._schedule(self._tick)
        else:
            self._ticking = False

    def finish(self) -> None:
        """Run every step still waiting, now, except those left to the idle clock."""
        kept: deque[Step] = deque()
        while self._steps:
            step = self._steps.popleft()
            if step.idle_only:
                kept.append(step)
            else:
                self._run(step)
        self._steps.extendleft(reversed(kept))  # steps a nested finish() added stay behind them
        self._check_done()

    def _run(self, step: Step) -> None:
        began = time.perf_counter()
        try:
            step.run()
        finally:
            self.took[step.name] = time.perf_counter() - began
            self._check_done()

    def _check_done(self) -> None:
        if self._steps or self.done_at is not None:
            return
        self.done_at = time.perf_counter()
        log.info("start-up after the first frame: %s", ", ".join(f"{n} {t * 1000:.0f} ms" for n, t in self.took.items()))
        for call in self.on_done:
            call()
