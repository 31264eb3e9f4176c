"""One tap is one touch, and a portrait panel is turned to landscape (issue 22)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_only_sdls_pointer_is_an_input_provider():
    """Kivy's default also lists probesysfs, which reads the touchscreen under /dev/input a
    second time (X already turns the finger into pointer events): each tap came twice."""
    from kivy.config import Config

    from kiosk.launch import configure

    Config.set("input", "%(name)s", "probesysfs,provider=hidinput")  # what Kivy's defaults put there on a Pi
    configure()
    assert Config.options("input") == ["mouse"]


PROBE = """
import json, sys
from kiosk.launch import configure
configure((480, 800), rotation=int(sys.argv[1]))
from kivy.core.window import Window
print(json.dumps({"rotation": Window.rotation, "size": list(Window.size), "system": list(Window.system_size)}))
"""


@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")
@pytest.mark.parametrize("rotation", [90, 270])
def test_a_portrait_panel_turned_shows_the_kiosk_in_landscape(rotation):
    env = {k: v for k, v in os.environ.items() if k != "KIVY_NO_CONFIG"}
    done = subprocess.run([sys.executable, "-c", PROBE, str(rotation)], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["system"] == [480, 800]  # the panel as it is mounted: portrait
    assert seen["rotation"] == rotation and seen["size"] == [800, 480]  # the kiosk lays out in landscape
