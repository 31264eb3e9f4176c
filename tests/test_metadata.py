"""The package says what it is: one version, a license, and a changelog that keeps up."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

from firmware.tray.app import FIRMWARE_VERSION
from firmware.tray.protocol import PROTOCOL_VERSION
from kiosk import __version__, cli
from kiosk.rules.core import LOG_FORMAT
from kiosk.store import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[1]


def test_table_noir_version_names_the_package_and_every_format(capsys):
    assert cli.main(["--version"]) == 0
    first, second = capsys.readouterr().out.splitlines()
    assert first == f"table-noir {__version__}"
    assert second == (f"tray protocol {PROTOCOL_VERSION}, tray firmware {FIRMWARE_VERSION}, "
                      f"session log format {LOG_FORMAT}, session store schema {SCHEMA_VERSION}")


def test_the_installed_command_prints_the_version_it_was_installed_as():
    # One source: the metadata pip installed is read from kiosk.__version__.
    out = subprocess.run([sys.executable, "-m", "kiosk.cli", "--version"], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == f"table-noir {importlib.metadata.version('table-noir')}"


def test_the_newest_changelog_entry_names_the_versions_in_the_code():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    newest = re.search(r"^## (\S+).*?\n\nVersions: (.*)$", text, re.MULTILINE)
    assert newest is not None, "CHANGELOG.md: no entry with a 'Versions:' line"
    assert newest.group(1) == __version__
    assert newest.group(2) == (f"package {__version__}, tray protocol {PROTOCOL_VERSION}, "
                               f"tray firmware {FIRMWARE_VERSION}, session log format {LOG_FORMAT}, "
                               f"session store schema {SCHEMA_VERSION}")


def test_the_license_is_an_spdx_expression_with_its_file_shipped():
    meta = importlib.metadata.metadata("table-noir")
    assert meta["License-Expression"] == "MIT"
    assert "LICENSE" in (meta.get_all("License-File") or [])
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
