"""The board layer (tray/hw.py, code.py, boot.py) against stand-ins for CircuitPython's modules,
and a check that the tray's pure modules only use what CircuitPython has."""

from __future__ import annotations

import ast
import importlib
import json
import sys
import types
from pathlib import Path

import pytest

from firmware.tray import protocol

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


class FakeSerial:
    """usb_cdc.data as CircuitPython has it: connected, in_waiting, read, write."""

    def __init__(self):
        self.connected = True
        self.incoming = b""
        self.sent = b""
        self.timeout = self.write_timeout = None

    @property
    def in_waiting(self):
        return len(self.incoming)

    def read(self, n):
        data, self.incoming = self.incoming[:n], self.incoming[n:]
        return data

    def write(self, data):
        self.sent += data
        return len(data)

    def messages(self):
        out = []
        for line in self.sent.splitlines():
            message, code, detail = protocol.decode_message(line)
            assert code is None, detail
            out.append(message)
        return out


class FakeSensor:
    """adafruit_vl53l0x.VL53L0X in continuous mode, reading from a script."""

    script: list = []
    fail_to_start = False

    def __init__(self, i2c, address=0x29):
        if FakeSensor.fail_to_start:
            raise ValueError("No I2C device at address: 0x%x" % address)
        self.address = address
        self.measurement_timing_budget = 33000
        self.continuous = False
        self.restarts = 0

    def start_continuous(self):
        self.continuous = True
        self.restarts += 1

    def stop_continuous(self):
        self.continuous = False

    @property
    def data_ready(self):
        return bool(FakeSensor.script)

    @property
    def range(self):
        value = FakeSensor.script.pop(0)
        if isinstance(value, Exception):
            raise value
        return value


class FakeAnalogIn:
    levels: dict = {}

    def __init__(self, pin):
        self.pin = pin

    @property
    def value(self):
        queue = FakeAnalogIn.levels.get(self.pin)
        return queue.pop(0) if queue and len(queue) > 1 else (queue[0] if queue else 100)


@pytest.fixture
def board(monkeypatch):
    """Fake CircuitPython modules in sys.modules, and a fresh import of tray.hw on top of them."""
    serial = FakeSerial()
    nvm = bytearray(4096)
    resets = []
    fakes = {
        "usb_cdc": types.SimpleNamespace(data=serial),
        "board": types.SimpleNamespace(A0="A0", A1="A1", A2="A2", STEMMA_I2C=lambda: "i2c", I2C=lambda: "i2c"),
        "busio": types.SimpleNamespace(I2C=lambda scl, sda: ("i2c", scl, sda)),
        "analogio": types.SimpleNamespace(AnalogIn=FakeAnalogIn),
        "microcontroller": types.SimpleNamespace(nvm=nvm, reset=lambda: resets.append(True)),
        "adafruit_vl53l0x": types.SimpleNamespace(VL53L0X=FakeSensor),
    }
    for name, module in fakes.items():
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.delitem(sys.modules, "firmware.tray.hw", raising=False)
    FakeSensor.script = []
    FakeSensor.fail_to_start = False
    FakeAnalogIn.levels = {}
    hw = importlib.import_module("firmware.tray.hw")
    yield types.SimpleNamespace(hw=hw, serial=serial, nvm=nvm, resets=resets)
    sys.modules.pop("firmware.tray.hw", None)


def types_of(messages):
    return [m["type"] for m in messages]


def test_the_board_streams_heat_from_the_sensor(board):
    FakeSensor.script = [320 - 3 * 16] * 5 + [320 - 1 * 16] * 4
    board.hw.run(loops=20)
    messages = board.serial.messages()
    assert messages[0]["type"] == "hello" and messages[0]["sensor"] == "ok"
    assert [m["dice"] for m in messages if m["type"] == "height"] == [3, 1]
    collapse = [m for m in messages if m["type"] == "collapse"][0]
    assert (collapse["fell"], collapse["standing"]) == (2, 1)


def test_a_missing_sensor_is_announced_and_the_tray_keeps_running(board):
    FakeSensor.fail_to_start = True
    board.serial.incoming = json.dumps(protocol.command("ping", 5)).encode() + b"\n"
    app = board.hw.run(loops=5)
    messages = board.serial.messages()
    assert messages[0]["sensor"] == "missing"
    assert [m["code"] for m in messages if m["type"] == "error"] == ["sensor_missing"]
    assert any(m["type"] == "ack" and m["id"] == 5 for m in messages)
    assert app.sensor == "missing"


def test_an_i2c_fault_is_reported_and_the_sensor_restarted(board):
    FakeSensor.script = [288, OSError(5, "Input/output error"), 288, 288, 288, 288]
    board.hw.run(loops=12)
    messages = board.serial.messages()
    assert [m["code"] for m in messages if m["type"] == "error"] == ["i2c_fault"]
    assert [m["dice"] for m in messages if m["type"] == "height"] == [2]  # back after the restart


def test_budget_command_restarts_continuous_ranging_with_the_new_budget(board):
    board.serial.incoming = json.dumps(protocol.command("budget", 3, ms=20)).encode() + b"\n"
    board.hw.run(loops=3)
    assert [m["ok"] for m in board.serial.messages() if m["type"] == "ack"] == [True]
    hw = board.hw.Board()
    assert hw.set_budget(20) is None
    assert hw.sensor.measurement_timing_budget == 20000 and hw.sensor.continuous and hw.sensor.restarts == 2


def test_a_budget_without_a_sensor_is_refused_with_the_reason(board):
    FakeSensor.fail_to_start = True
    assert board.hw.Board().set_budget(20) == "no distance sensor"


def test_a_calibration_survives_a_power_cycle_in_nvm(board):
    hw = board.hw.Board()
    hw.save_calibration(402.0, 18.0)
    again = board.hw.Board()
    settings = again.settings()
    assert (settings["empty_mm"], settings["die_mm"], settings["calibrated"]) == (402.0, 18.0, True)


def test_blank_memory_means_the_settings_file_decides(board, monkeypatch):
    monkeypatch.setenv("TRAY_EMPTY_MM", "355")
    monkeypatch.setenv("TRAY_BUDGET_MS", "20")
    settings = board.hw.Board().settings()
    assert settings["empty_mm"] == 355.0 and settings["budget_ms"] == 20 and "calibrated" not in settings


def test_a_bad_setting_falls_back_to_the_default(board, monkeypatch, capsys):
    monkeypatch.setenv("TRAY_SETTLE_MS", "soon")
    assert board.hw.Board().settings()["settle_ms"] == 600
    assert "TRAY_SETTLE_MS" in capsys.readouterr().out


def test_reboot_acknowledges_then_resets(board):
    board.serial.incoming = json.dumps(protocol.command("reboot", 9)).encode() + b"\n"
    board.hw.run(loops=2)
    assert board.resets == [True]
    assert board.serial.messages()[-1]["type"] == "ack"


def test_nothing_is_written_until_the_pi_opens_the_port_then_hello(board):
    board.serial.connected = False
    hw = board.hw.Board()
    assert hw.write(b"x\n") is False and board.serial.sent == b""
    board.serial.connected = True
    assert hw.write(b"x\n") is True


def test_the_loudest_piezo_disc_sets_the_level(board, monkeypatch):
    monkeypatch.setenv("TRAY_PIEZO_PINS", "A0, A1")
    FakeAnalogIn.levels = {"A0": [100] * 64 + [9000], "A1": [100] * 64 + [20000]}
    hw = board.hw.Board()
    assert len(hw.piezos) == 2
    assert hw.piezo_level() == pytest.approx((20000 - 100) / 32767.5, abs=0.01)


def test_without_the_data_port_the_error_says_what_to_do(board, monkeypatch):
    monkeypatch.setitem(sys.modules, "usb_cdc", types.SimpleNamespace(data=None))
    sys.modules.pop("firmware.tray.hw", None)
    hw = importlib.import_module("firmware.tray.hw")
    with pytest.raises(RuntimeError, match="boot.py"):
        hw.Board()


# -- CircuitPython compatibility of the pure modules ---------------------------------
PURE = ["protocol.py", "impact.py", "app.py", "heat.py", "piezo.py"]
CIRCUITPY_STDLIB = {"json", "math", "time"}


@pytest.mark.parametrize("name", PURE)
def test_pure_tray_modules_use_only_what_circuitpython_has(name):
    tree = ast.parse((FIRMWARE / "tray" / name).read_text())
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            problems += [a.name for a in node.names if a.name.split(".")[0] not in CIRCUITPY_STDLIB]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            problems.append(f"from {node.module}")  # only relative imports inside the tray package
        elif isinstance(node, (ast.AnnAssign,)) or (isinstance(node, ast.arg) and node.annotation is not None):
            problems.append(f"annotation at line {node.lineno}")
        elif isinstance(node, (ast.FunctionDef,)) and node.returns is not None:
            problems.append(f"return annotation on {node.name}")
        elif isinstance(node, ast.Name) and node.id == "dataclass":
            problems.append("dataclass")
    assert problems == []


def test_board_files_parse_and_boot_enables_the_data_port():
    for name in ("code.py", "boot.py", "tray/hw.py"):
        ast.parse((FIRMWARE / name).read_text())
    assert "usb_cdc.enable(console=True, data=True)" in (FIRMWARE / "boot.py").read_text()
    assert "from tray.hw import run" in (FIRMWARE / "code.py").read_text()


def test_settings_toml_names_exist_in_hw():
    import tomllib

    settings = tomllib.loads((FIRMWARE / "settings.toml").read_text())
    source = (FIRMWARE / "tray" / "hw.py").read_text()
    for key in settings:
        assert f'"{key}"' in source, key
