"""Issue 19, defect 8: no Kivy built-in a plugged-in keyboard can reach opens on the kiosk.

Kivy binds F1 to its settings panel (no PIN; a change there was written to
~/.kivy/config.ini and survived restarts), and activates any module its config
lists: the inspector (Ctrl+E), keybinding (F11 rotates the screen, F12 writes a
screenshot), the recorder (F7/F8). A fresh kiosk process is started with a Kivy
home whose config.ini asks for all of them, and each key is pressed.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")

KIVY_CONFIG = """\
[kivy]
log_enable = 1
log_dir = logs
[graphics]
rotation = 0
[modules]
inspector =
keybinding =
recorder =
monitor =
showborder =
touchring =
"""


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    home = tmp_path_factory.mktemp("kivy-home")
    (home / "config.ini").write_text(KIVY_CONFIG)
    work = tmp_path_factory.mktemp("cwd")
    env = {k: v for k, v in os.environ.items() if k not in ("KIVY_LOG_MODE", "KIVY_NO_CONFIG", "KIVY_NO_FILELOG")}
    env.update(KIVY_HOME=str(home), TABLE_NOIR_EXTRA_GAMES="toy=tests.rules.toy",
               PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    done = subprocess.run([sys.executable, "-m", "tests.deploy.keys_probe", str(work / "data")], cwd=work, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["config_after"] = (home / "config.ini").read_text()
    return result


def test_f1_does_not_open_kivys_settings_panel(probe):
    assert not probe["keys"]["F1"]["settings_open"]


def test_ctrl_e_does_not_open_the_inspector(probe):
    assert not probe["keys"]["Ctrl+E"]["inspector"]


@pytest.mark.parametrize("key", ["F11", "Shift+F11"])
def test_f11_does_not_rotate_or_resize_the_screen(probe, key):
    assert probe["keys"][key]["rotation"] == probe["rotation_before"]
    assert probe["keys"][key]["size"] == probe["size_before"]


def test_f12_writes_no_screenshot(probe):
    assert probe["screenshots"] == []


def test_no_kivy_module_is_active_whatever_kivys_config_asks(probe):
    assert probe["active_modules"] == []


def test_kivys_config_file_is_neither_rewritten_nor_a_log_folder_filled(probe):
    assert probe["config_after"] == KIVY_CONFIG
    assert probe["kivy_logs"] == []
