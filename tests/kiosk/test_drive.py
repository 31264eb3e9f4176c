"""The test kit's own promise (testkit/drive.py): what the kiosk leaves to the next frame is
due in the next frame ``pump`` runs, however late a busy machine starts a frame. Broken, a
test reached for the question the kiosk draws a frame after a landing before it was drawn
("no widget tagged 'act:1' on screen", seen with the machine loaded)."""

from __future__ import annotations

import os
import time

import pytest

needs_display = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")


@needs_display
def test_each_frame_pump_runs_is_a_next_frame_after_the_last_on_the_kiosks_own_clock(app, monkeypatch):
    from kivy.clock import Clock

    from kiosk.ui.art import NEXT_FRAME
    from testkit import drive

    drive.pump(1, draw=False)
    real_tick = Clock.tick
    frames = iter(range(10**6))

    def tick(*args):  # every other frame starts late, as on a loaded machine
        if next(frames) % 2 == 0:
            time.sleep(0.0009)
        return real_tick(*args)

    monkeypatch.setattr(Clock, "tick", tick)
    gaps = []
    for _ in range(60):
        before = Clock.get_time()
        drive.pump(1, draw=False)
        gaps.append(Clock.get_time() - before)
    assert min(gaps) >= NEXT_FRAME, sorted(gaps)[:5]  # a trigger NEXT_FRAME away was not due: "act:1"
