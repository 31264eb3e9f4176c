"""The tray's lib/ gets every driver the firmware imports: `circup install -r firmware/requirements.txt`."""

import ast
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"

# Modules built into CircuitPython itself (nothing to install), and the firmware's own package.
BUILT_IN = {"analogio", "binascii", "board", "busio", "digitalio", "json", "math", "microcontroller", "os",
            "supervisor", "time", "usb_cdc", "watchdog", "tray", "__future__", "typing"}


def imported_modules() -> set[str]:
    names = set()
    for path in FIRMWARE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


def required() -> set[str]:
    lines = (FIRMWARE / "requirements.txt").read_text().splitlines()
    return {line.split("#")[0].strip() for line in lines if line.split("#")[0].strip()}


def test_requirements_name_every_driver_the_firmware_imports():
    drivers = imported_modules() - BUILT_IN
    assert {"adafruit_vl53l0x", "cedargrove_nau7802"} <= drivers  # the scan sees the drivers it must
    assert drivers <= required(), f"add to firmware/requirements.txt: {sorted(drivers - required())}"


def test_the_kit_settings_turn_the_load_cell_on():
    import tomllib

    settings = tomllib.loads((FIRMWARE / "settings.toml").read_text())
    assert settings["TRAY_SCALE"] is True
