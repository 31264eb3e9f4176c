"""The maker's bench test (hardware/bench.py), walked through on the virtual tray: the simulated
table read through the optical model, the tray's own firmware on a pseudo-terminal, the Pi's
SerialTray reading it, exactly as a maker's tray would be read over USB."""

from __future__ import annotations

import pytest

from hardware.backends.serial import SerialTray
from hardware.bench import STEPS, Bench, Record, SimMaker, judge, Expectations
from hardware.config import Config
from hardware.events import LinkUp
from hardware.optics import DESIGNS, OpticalSensor
from hardware.virtual_tray import VirtualTray

from .test_serial import Events


def walk(tmp_path, design: str, seed: int = 7, steps=STEPS):
    config = Config()
    vt = VirtualTray(config, seed=seed, link=tmp_path / "tray", start_dice=0, pace=0.15)
    vt.sim.use_optics(OpticalSensor(config.geometry, DESIGNS[design]))
    vt.start()
    port = SerialTray(config.tray, port=vt.path, retry_s=0.05)
    try:
        Events(port).wait_for(LinkUp)
        port.set_raw(True)
        said = []
        bench = Bench(port, config.geometry, design, ready=SimMaker(vt.sim, vt._lock, vt.idle), say=said.append)
        bench.run(steps)
        return bench, said
    finally:
        port.close()
        vt.close()


def test_the_bench_walks_a_good_tray_to_a_pass_and_a_report(tmp_path):
    bench, said = walk(tmp_path, "low-limit")
    report = bench.report(when="2026-11-24 10:00")
    failed = [v for v in bench.verdicts if not v.passed]
    assert failed == [], report
    assert bench.passed and "result: PASS (9 of 9 steps passed)" in report
    assert [v.step.key for v in bench.verdicts] == [s.key for s in STEPS]
    assert any(line.startswith("Step 2 of 9: one die.") for line in said)
    assert any("readings, impacts" in line for line in said)  # live readings while it records
    assert "calibration curve (mm over 0, 1, 2, ... dice):" in report
    curve = [float(x) for x in report.split("dice): ")[1].split()]
    assert len(curve) == 15 and curve == sorted(curve, reverse=True)


def test_the_as_built_arm_fails_on_a_weak_signal_and_says_what_to_do(tmp_path):
    bench, _ = walk(tmp_path, "as-built", steps=STEPS[:2])
    report = bench.report(when="2026-11-24 10:00")
    assert not bench.passed and "result: FAIL (0 of 2 steps passed)" in report
    assert "0 % valid" in report and "the signal is weak" in report and "0.06 MCPS" in report


def test_a_drop_the_piezo_did_not_feel_fails_naming_the_zone():
    model = Expectations(Config().geometry, DESIGNS["low-limit"])
    still = model.still(8)[0]
    quiet = Record(readings=[round(still)] * 45)
    verdict = judge(STEPS[6], quiet, model, before=Record(readings=[round(still)] * 150))
    assert not verdict.passed and "did not feel a d10 landing touching" in verdict.advice
    felt = Record(readings=[round(still)] * 45, impacts=1)
    assert judge(STEPS[6], felt, model, before=Record(readings=[round(still)] * 150)).passed


def test_a_stack_off_the_models_reading_fails_with_the_offset():
    model = Expectations(Config().geometry, DESIGNS["low-limit"])
    off = Record(readings=[round(model.still(3)[0]) + 40] * 150)
    verdict = judge(STEPS[2], off, model)
    assert not verdict.passed and "+40 mm from the model" in verdict.advice


@pytest.mark.parametrize("design", ["low-limit"])
def test_the_model_expects_a_valid_signal_at_every_bench_height(design):
    model = Expectations(Config().geometry, DESIGNS[design])
    assert [model.still(s.dice)[2] for s in STEPS if s.kind == "still"] == [0, 0, 0, 0]


def test_the_bench_command_walks_the_virtual_tray_and_writes_its_report(tmp_path, capsys):
    from hardware import cli

    report = tmp_path / "bench.txt"
    assert cli.main(["bench", "--sim", "--fast", "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert "Step 1 of 9: empty tray." in out and "result: PASS (9 of 9 steps passed)" in report.read_text()


@pytest.mark.parametrize("args, message", [
    (["--sim", "--design", "nope"], "--design 'nope' is not one of as-built, low-limit, post, wide-mouth"),
    (["--sim", "--report", "/no/such/folder/r.txt"], "--report /no/such/folder/r.txt: no folder /no/such/folder"),
    ([], 'the configured tray is the simulator (tray.backend = "sim"): add --sim for a simulated walk-through, '
         'or set tray.backend to "serial" or "i2c"'),
])
def test_the_bench_command_refuses_bad_arguments_in_one_line(args, message, capsys, tmp_path):
    from hardware import cli

    site = tmp_path / "table-noir.toml"
    site.write_text('[tray]\nbackend = "sim"\n')
    assert cli.main(["bench", "--config", str(site), *args]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"table-noir hardware bench: {message}"
