"""A tray with a load cell (firmware/tray/app.py): the Heat weighed, negotiated in the hello."""

from __future__ import annotations

from firmware.tray.heat import KNOCK_LEVEL
from firmware.tray.weight import calibrate_weighing
from hardware.config import GeometryConfig
from hardware.sim import TableSimulator
from hardware.weighing import ScaleDesign

from .test_app import RecordingHooks, cmd, make


def weighing_tray(seed: int = 3, start_dice: int = 6, weigh: bool = True, calibrated: bool = True):
    sim = TableSimulator(GeometryConfig(), seed=seed, start_dice=start_dice, scale=ScaleDesign())
    assert sim.scale is not None
    settings: dict = {"scale": "ok"}
    if calibrated:
        cal = calibrate_weighing([sim.scale.still_codes(k, 30) for k in range(15)])
        settings.update(weigh_zero=int(cal.zero), weigh_per_die=cal.per_die, weigh_spread=cal.spread)
    hooks = RecordingHooks()
    app, link = make(settings, hooks)
    if weigh is not None:
        cmd(app, 1, "hello", 9, **({"weigh": True} if weigh else {}))  # stays in version 1, like cmd()
    return sim, app, link, hooks


def run(app, sim, t0: int = 0, extra: int = 40) -> int:
    """Play the table into the app the way the board's loop does (piezo, distance, NAU7802 conversions)."""
    t = t0
    for sample in sim.run_until_idle(extra=extra):
        t = int(sample.t * 1000)
        app.on_piezo(sample.piezo, t)
        app.on_sample(sample.distance_mm, t)
        for tw, code in sample.weights:
            app.on_weight(code, int(tw * 1000))
        app.tick(t)
    return t


def test_a_weighing_tray_says_so_in_its_hello_and_an_old_tray_says_nothing_new():
    _, app, link, _ = weighing_tray()
    hello = link.of("hello")[-1]
    assert hello["scale"] == "ok" and hello["weighed"] is True
    _, old = make()
    assert "scale" not in old.of("hello")[0] and "weighed" not in old.of("hello")[0]


def test_a_fall_is_flagged_then_counted_by_weight():
    sim, app, link, _ = weighing_tray()
    t = run(app, sim)
    assert link.of("height")[-1]["dice"] == 6
    sim.throw(accuracy=0.3, collapse=True)
    run(app, sim, t)
    truth = [r for r in sim.truth if r.kind == "collapse"][-1]
    types = link.types()
    assert types.index("falling") < types.index("collapse")
    assert link.of("falling")[-1]["dice"] == 6
    assert (link.of("collapse")[-1]["fell"], link.of("collapse")[-1]["standing"]) == (truth.fell, truth.standing)


def test_a_pi_that_did_not_ask_gets_no_falling_message_but_the_same_collapse():
    sim, app, link, _ = weighing_tray(weigh=False)
    t = run(app, sim)
    sim.throw(accuracy=0.3, collapse=True)
    run(app, sim, t)
    assert not link.of("falling") and link.of("collapse")
    assert not link.of("mismatch")


def test_the_watchman_alarm_reaches_the_pi():
    sim, app, link, _ = weighing_tray(start_dice=6)
    t = run(app, sim)
    for i in range(100):  # the VL53L0X sees two dice where six are weighed (a jammed plinth)
        t += 33
        app.on_sample(320 - 2 * 16, t)
    assert link.of("mismatch") and link.of("mismatch")[-1]["weighed"] == 6


def test_tare_and_calibration_commands_are_acknowledged_and_kept():
    sim, app, link, hooks = weighing_tray(start_dice=0, calibrated=False)
    cmd(app, 10, "tare", 2)
    assert link.of("ack")[-1]["ok"] is False and "weigh the set" in link.of("ack")[-1]["reason"]
    assert sim.scale is not None
    cal = calibrate_weighing([sim.scale.still_codes(k, 30) for k in range(15)])
    cmd(app, 20, "weighcal", 3, zero=int(cal.zero), per_die=cal.per_die, spread=cal.spread)
    assert link.of("ack")[-1]["ok"] is True and hooks.weighing == (int(cal.zero), cal.per_die, cal.spread)
    run(app, sim, 30)
    cmd(app, 5000, "tare", 4)
    assert link.of("ack")[-1]["ok"] is True


def test_raw_samples_carry_the_latest_conversion():
    sim, app, link, _ = weighing_tray()
    cmd(app, 5, "raw", 4, on=True)
    t = run(app, sim, extra=10)
    app.on_sample(300, t + 33)
    assert app.last_code is not None and link.of("sample")[-1]["w"] == app.last_code


def test_knocks_reach_the_weight_tracker():
    _, app, _, _ = weighing_tray()
    app.on_piezo(KNOCK_LEVEL + 0.1, 1234)
    assert app.weight._knock_t == 1.234

