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
