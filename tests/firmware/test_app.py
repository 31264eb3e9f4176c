"""The tray's main-loop logic under CPython: commands, streaming, heartbeat, calibration, Heat."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.tray import protocol
from firmware.tray.app import CALIBRATION_SAMPLES, Hooks, TrayApp
from hardware.config import GeometryConfig
from hardware.sim import TableSimulator


class Link:
    """Collects what the tray writes, checking every line against the protocol as it goes."""

    def __init__(self):
        self.messages = []
        self.accept = True

    def write(self, data):
        assert data.endswith(b"\n") and len(data) <= protocol.MAX_LINE + 1
        message, code, detail = protocol.decode_message(data[:-1])
        assert code is None, (data, detail)
        if not self.accept:
            return False
        self.messages.append(message)
        return True

    def of(self, kind):
        return [m for m in self.messages if m["type"] == kind]

    def types(self):
        return [m["type"] for m in self.messages]


class RecordingHooks(Hooks):
    def __init__(self, budget_problem=None):
        self.calls = []
        self.budget_problem = budget_problem

    def set_budget(self, ms):
        self.calls.append(("budget", ms))
        return self.budget_problem

    def save_calibration(self, empty_mm, die_mm):
        self.calls.append(("save", round(empty_mm, 1), round(die_mm, 2)))

    def save_weighing(self, zero, per_die, spread):
        self.weighing = (zero, per_die, spread)

    def reboot(self):
        self.calls.append(("reboot",))


def make(settings=None, hooks=None):
    link = Link()
    app = TrayApp(link.write, settings, hooks or RecordingHooks())
    app.start(0)
    return app, link


def cmd(app, t_ms, name, command_id=1, **fields):
    app.on_bytes(json.dumps(protocol.command(name, command_id, **fields)).encode() + b"\n", t_ms)


def feed_steady(app, mm, n, start_ms, period_ms=33):
    for i in range(n):
        app.on_sample(mm, start_ms + i * period_ms)
    return start_ms + n * period_ms


# -- hello, heartbeat, sequence numbers ---------------------------------------
def test_the_tray_says_hello_with_its_versions_and_settings():
    app, link = make({"budget_ms": 20, "empty_mm": 400, "die_mm": 18.0})
    hello = link.of("hello")[0]
    # Nobody has offered more yet, so version 1, naming the newest it speaks.
    assert hello["v"] == 1 and hello["max_v"] == protocol.PROTOCOL_VERSION and hello["fw"]
    assert hello["sensor"] == "ok" and hello["budget_ms"] == 20
    assert hello["empty_mm"] == 400 and hello["die_mm"] == 18.0 and hello["calibrated"] is False


def test_a_heartbeat_each_second_with_uptime_and_counts():
    app, link = make()
    for t in range(0, 3500, 10):
        app.tick(t)
    beats = link.of("heartbeat")
    assert [b["t"] for b in beats] == [1000, 2000, 3000]
    assert [b["up_s"] for b in beats] == [1, 2, 3]


def test_sequence_numbers_have_no_gaps_across_message_types():
    app, link = make()
    cmd(app, 5, "ping")
    app.tick(1000)
    cmd(app, 1001, "raw", on=True)
    app.on_sample(300, 1002)
    assert [m["seq"] for m in link.messages] == list(range(len(link.messages)))


def test_messages_nobody_could_take_are_counted_as_dropped():
    app, link = make()
    link.accept = False
    cmd(app, 5, "ping")
    cmd(app, 6, "ping", 2)
    link.accept = True
    app.tick(1000)
    assert link.of("heartbeat")[0]["dropped"] == 2


# -- commands -------------------------------------------------------------------
def test_ping_is_acknowledged_with_its_id():
    app, link = make()
    cmd(app, 10, "ping", 42)
    assert link.of("ack") == [link.of("ack")[0]]
    ack = link.of("ack")[0]
    assert (ack["id"], ack["cmd"], ack["ok"]) == (42, "ping", True)


def test_hello_command_is_answered_with_a_hello_carrying_the_id():
    app, link = make()
    cmd(app, 10, "hello", 9)
    assert link.of("hello")[-1]["id"] == 9


def test_budget_reaches_the_sensor_and_the_next_hello():
    hooks = RecordingHooks()
    app, link = make(hooks=hooks)
    cmd(app, 10, "budget", 3, ms=20)
    assert hooks.calls == [("budget", 20)]
    assert link.of("ack")[-1]["ok"] is True
    cmd(app, 11, "hello", 4)
    assert link.of("hello")[-1]["budget_ms"] == 20


def test_a_budget_the_sensor_refuses_is_reported_and_not_kept():
    app, link = make(hooks=RecordingHooks(budget_problem="sensor did not accept 20 ms"))
    cmd(app, 10, "budget", 3, ms=20)
    ack = link.of("ack")[-1]
    assert ack["ok"] is False and "20 ms" in ack["reason"]
    cmd(app, 11, "hello", 4)
    assert link.of("hello")[-1]["budget_ms"] == 33


def test_a_budget_out_of_range_never_reaches_the_sensor():
    hooks = RecordingHooks()
    app, link = make(hooks=hooks)
    cmd(app, 10, "budget", 3, ms=50)
    assert hooks.calls == []
    error = link.of("error")[-1]
    assert error["code"] == "bad_line" and error["detail"].startswith("bad_value") and "20..33" in error["detail"]
    app.tick(1000)
    assert link.of("heartbeat")[-1]["rejected"] == 1


def test_raw_stream_switches_distance_samples_on_and_off():
    app, link = make()
    app.on_sample(300, 1)
    assert link.of("sample") == []
    cmd(app, 2, "raw", on=True)
    app.on_sample(300, 3)
    app.on_sample(8190, 4)  # the VL53L0X's out-of-range code
    app.on_sample(None, 5)
    assert [m["mm"] for m in link.of("sample")] == [300, None, None]
    cmd(app, 6, "raw", 2, on=False)
    app.on_sample(300, 7)
    assert len(link.of("sample")) == 3


def test_settle_changes_the_quiet_time():
    app, link = make()
    cmd(app, 1, "settle", ms=200)
    app.on_piezo(0.9, 100)
    app.on_piezo(0.0, 250)
    assert link.of("settled") == []
    app.on_piezo(0.0, 301)
    assert link.of("settled")[0]["quiet_ms"] >= 200


def test_an_impact_names_the_disc_that_read_it_only_when_the_board_says():
    app, link = make()
    app.on_piezo(0.9, 100, 2)
    app.on_piezo(0.0, 1000)
    app.on_piezo(0.9, 1100)
    assert [m.get("piezo") for m in link.of("impact")] == [2, None]


def test_reboot_is_acknowledged_before_the_board_restarts():
    hooks = RecordingHooks()
    seen_at_reboot = []
    app, link = make(hooks=hooks)
    hooks.reboot = lambda: seen_at_reboot.append(link.types()[-1])
    cmd(app, 1, "reboot")
    assert seen_at_reboot == ["ack"]


def test_garbage_from_the_pi_is_answered_with_an_error_and_counted():
    app, link = make()
    app.on_bytes(b"hello?\n{not json}\n" + b"x" * 900 + b"\n" + b'{"v":3,"id":1,"cmd":"ping"}\n', 5)
    codes = [m["detail"].split(":")[0] for m in link.of("error")]
    # The first line is the tail of something sent before: counted, not answered. The long one
    # comes first in the error stream because it is noticed while the bytes are still arriving.
    assert sorted(codes) == ["not_json", "too_long", "version"]
    assert app.rejects.by_code == {"partial": 1, "not_json": 1, "too_long": 1, "version": 1}
    cmd(app, 6, "ping", 8)
    assert link.of("ack")[-1]["id"] == 8  # still answering


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=120), max_size=8))
def test_no_input_from_the_pi_can_crash_the_tray_or_make_it_send_a_bad_line(chunks):
    app, link = make()
    for i, chunk in enumerate(chunks):
        app.on_bytes(chunk, i)
    app.on_bytes(b"\n", 99)  # ends whatever the garbage left unfinished, as the Pi does on connecting
    cmd(app, 100, "ping", 77)
    assert link.of("ack")[-1]["id"] == 77


@settings(max_examples=200, deadline=None)
@given(
    st.fixed_dictionaries(
        {"v": st.just(1), "id": st.integers(0, 10)},
        optional={
            "cmd": st.sampled_from(sorted(protocol.COMMANDS)),
            "step": st.sampled_from(["empty", "stack", "cancel", "x"]),
            "dice": st.integers(-2, 40),
            "ms": st.integers(0, 6000),
            "on": st.booleans(),
        },
    ),
    st.lists(st.one_of(st.none(), st.integers(0, 9000)), max_size=80),
)
def test_any_sequence_of_commands_and_readings_keeps_the_tray_consistent(command, readings):
    app, link = make()
    app.on_bytes(json.dumps(command).encode() + b"\n", 1)
    for i, mm in enumerate(readings):
        app.on_sample(mm, 2 + 33 * i)
        app.on_piezo((mm or 0) / 9000, 2 + 33 * i)
    assert len(link.of("ack")) + len(link.of("error")) + len(link.of("hello")) >= 2


# -- calibration ---------------------------------------------------------------
def test_calibration_measures_the_empty_tray_then_a_known_stack():
    hooks = RecordingHooks()
    app, link = make(hooks=hooks)  # defaults: 320 mm floor, 16 mm dice
    cmd(app, 1, "calibrate", 1, step="empty")
    t = feed_steady(app, 402, CALIBRATION_SAMPLES, 10)
    empty = link.of("calibration")[-1]
    assert (empty["step"], empty["ok"], empty["empty_mm"]) == ("empty", True, 402)
    cmd(app, t, "calibrate", 2, step="stack", dice=3)
    t = feed_steady(app, 402 - 3 * 18, CALIBRATION_SAMPLES, t)
    result = link.of("calibration")[-1]
    assert (result["step"], result["ok"], result["empty_mm"], result["die_mm"]) == ("stack", True, 402, 18.0)
    assert hooks.calls[-1] == ("save", 402.0, 18.0)
    # From now on a stack of 5 of these dice reads as 5.
    feed_steady(app, 402 - 5 * 18, 10, t)
    assert link.of("height")[-1]["dice"] == 5
    cmd(app, t + 400, "hello", 3)
    hello = link.of("hello")[-1]
    assert hello["calibrated"] is True and hello["die_mm"] == 18.0


def test_a_stack_step_before_the_empty_step_is_refused():
    app, link = make()
    cmd(app, 1, "calibrate", 5, step="stack", dice=3)
    ack = link.of("ack")[-1]
    assert ack["ok"] is False and "empty" in ack["reason"]


def test_a_stack_step_needs_the_number_of_dice():
    app, link = make()
    cmd(app, 1, "calibrate", 1, step="empty")
    t = feed_steady(app, 320, CALIBRATION_SAMPLES, 2)
    cmd(app, t, "calibrate", 2, step="stack")
    assert link.of("ack")[-1]["ok"] is False and "dice" in link.of("ack")[-1]["reason"]


def test_a_stack_that_is_not_closer_than_the_floor_fails_with_the_reason():
    hooks = RecordingHooks()
    app, link = make(hooks=hooks)
    cmd(app, 1, "calibrate", 1, step="empty")
    t = feed_steady(app, 320, CALIBRATION_SAMPLES, 2)
    cmd(app, t, "calibrate", 2, step="stack", dice=3)
    feed_steady(app, 321, CALIBRATION_SAMPLES, t)
    result = link.of("calibration")[-1]
    assert result["ok"] is False and "not closer than the empty tray" in result["reason"]
    assert not [c for c in hooks.calls if c[0] == "save"]
    cmd(app, t + 2000, "hello", 3)
    assert link.of("hello")[-1]["die_mm"] == 16.0  # the old calibration still stands


def test_a_blind_sensor_fails_the_calibration_instead_of_hanging():
    app, link = make()
    cmd(app, 1, "calibrate", 1, step="empty")
    feed_steady(app, None, 200, 2)
    result = link.of("calibration")[-1]
    assert result["ok"] is False and "reading" in result["reason"]
    assert app.cal_state == "idle"


def test_no_heat_events_while_calibrating_and_cancel_returns_to_work():
    app, link = make()
    feed_steady(app, 320 - 2 * 16, 10, 0)
    assert link.of("height")[-1]["dice"] == 2
    cmd(app, 400, "calibrate", 1, step="empty")
    t = feed_steady(app, 320, CALIBRATION_SAMPLES + 10, 401)  # the operator cleared the tray
    assert link.of("height")[-1]["dice"] == 2 and not link.of("collapse")
    cmd(app, t, "calibrate", 2, step="cancel")
    assert link.of("ack")[-1]["ok"] is True
    feed_steady(app, 320 - 4 * 16, 10, t + 1)
    assert link.of("height")[-1]["dice"] == 4


def test_impossible_piezo_levels_in_settings_fall_back_and_say_so():
    app, link = make({"impact_threshold": 0.05, "quiet_level": 0.2})
    assert link.of("error")[0]["code"] == "bad_settings" and "piezo" in link.of("error")[0]["detail"]
    assert app.impact.threshold == 0.25


def test_a_bad_calibration_in_settings_falls_back_and_says_so():
    app, link = make({"empty_mm": 5000, "die_mm": 16.0, "calibrated": True})
    hello = link.of("hello")[0]
    assert hello["empty_mm"] == 320 and hello["calibrated"] is False
    assert link.of("error")[0]["code"] == "bad_settings"


# -- Heat, impacts and the simulated table ---------------------------------------
def run_sim(app, sim, start_ms=0):
    t = start_ms
    for sample in sim.run_until_idle(extra=40):
        t = start_ms + int(sample.t * 1000)
        app.on_piezo(sample.piezo, t)
        app.on_sample(sample.distance_mm, t)
        app.tick(t)
    return t


def test_a_simulated_collapse_becomes_a_collapse_message():
    sim = TableSimulator(GeometryConfig(), seed=3, start_dice=6)
    app, link = make()
    run_sim(app, sim)
    assert link.of("height")[-1]["dice"] == 6
    sim.throw(accuracy=0.3, collapse=True)
    run_sim(app, sim)
    truth = [r for r in sim.truth if r.kind == "collapse"][-1]
    collapse = link.of("collapse")[-1]
    assert (collapse["fell"], collapse["standing"]) == (truth.fell, truth.standing)
    assert link.types().index("impact") < len(link.types()) - 1 and link.of("settled")


def test_risk_dice_added_by_hand_are_reported_one_by_one():
    sim = TableSimulator(GeometryConfig(), seed=5, start_dice=2)
    app, link = make()
    run_sim(app, sim)
    sim.add_die()
    sim.add_die()
    run_sim(app, sim)
    assert [m["dice"] for m in link.of("added")] == [3, 4]
    assert not link.of("collapse")


def test_a_sensor_fault_is_reported_and_cleared_by_the_next_good_reading():
    app, link = make()
    app.on_sensor_fault("i2c_fault", "read failed: [Errno 5]", 100)
    app.tick(1000)
    assert link.of("error")[-1]["code"] == "i2c_fault" and link.of("heartbeat")[-1]["sensor"] == "fault"
    app.on_sample(300, 1500)
    app.tick(2000)
    assert link.of("heartbeat")[-1]["sensor"] == "ok"


def test_the_tray_sends_every_message_type_the_protocol_defines():
    """The other half of the PROTOCOL.md check: no documented message is one the tray never sends."""
    sim = TableSimulator(GeometryConfig(), seed=3, start_dice=6)
    app, link = make({"empty_mm": 5000})  # a bad setting: an error message
    cmd(app, 1, "raw", on=True)
    t = run_sim(app, sim)
    sim.add_die()
    sim.remove_die()
    sim.throw(accuracy=0.3, collapse=True)
    t = run_sim(app, sim, t)
    cmd(app, t, "calibrate", 2, step="empty")
    feed_steady(app, 320, CALIBRATION_SAMPLES, t + 1)
    # A tray that weighs the Heat, for a Pi that asked: "falling" and the watchman's "mismatch" too.
    from .test_app_weighing import run, weighing_tray  # noqa: PLC0415

    wsim, wapp, wlink, _ = weighing_tray()
    t = run(wapp, wsim)
    wsim.throw(accuracy=0.3, collapse=True)
    t = run(wapp, wsim, t)
    for i in range(100):
        wapp.on_sample(320, t + 33 * i)  # the VL53L0X sees an empty tray where dice are weighed
    assert set(link.types()) | set(wlink.types()) == set(protocol.MESSAGES)


# -- protocol version 2, agreed in the hello (issue 19, defect 10) ------------------
def raw_link():
    """A link that keeps the raw bytes too, to look at the CRC."""
    link = Link()
    link.raw = []
    write = link.write

    def keep(data):
        link.raw.append(data)
        return write(data)

    return link, keep


def test_a_pi_offering_version_2_gets_every_line_with_a_crc_from_then_on():
    link, write = raw_link()
    app = TrayApp(write)
    app.start(0)
    cmd(app, 5, "hello", 3, max_v=2)
    hello = link.of("hello")[-1]
    assert hello["v"] == 2 and hello["id"] == 3 and hello["max_v"] == 2 and "boot" in hello
    app.tick(1000)
    assert link.messages[-1]["type"] == "heartbeat" and link.messages[-1]["v"] == 2
    assert all(line.rstrip(b"\n")[-5:-4] == b"*" for line in link.raw[1:])
    assert link.raw[0].rstrip(b"\n").endswith(b"}")  # the first hello, before the offer, was version 1


def test_an_old_pi_without_max_v_keeps_version_1():
    app, link = make()
    cmd(app, 5, "hello", 3)
    cmd(app, 6, "ping", 4)
    assert [m["v"] for m in link.messages] == [1, 1, 1]
    assert link.of("ack")[-1]["id"] == 4


def v2_command(name, command_id, **fields):
    return protocol.encode(protocol.command(name, command_id, 2, **fields))


def test_after_version_2_a_command_without_a_crc_is_refused_but_hello_starts_over():
    app, link = make()
    cmd(app, 5, "hello", 3, max_v=2)
    app.on_bytes(v2_command("ping", 4), 6)
    assert link.of("ack")[-1]["id"] == 4
    cmd(app, 7, "ping", 5)  # version 1, no CRC
    assert link.of("ack")[-1]["id"] == 4
    assert link.of("error")[-1]["detail"].startswith("version:")
    cmd(app, 8, "hello", 6)  # an older Pi takes over the port: back to version 1
    assert link.of("hello")[-1]["v"] == 1
    cmd(app, 9, "ping", 7)
    assert link.of("ack")[-1]["id"] == 7


def test_a_damaged_command_fails_its_crc_and_is_not_obeyed():
    hooks = RecordingHooks()
    app, link = make(hooks=hooks)
    cmd(app, 5, "hello", 3, max_v=2)
    app.on_bytes(v2_command("budget", 4, ms=20).replace(b'"ms":20', b'"ms":25'), 6)
    assert hooks.calls == [] and link.of("ack") == []
    assert link.of("error")[-1]["detail"].startswith("crc:") and app.rejects.by_code == {"crc": 1}


def test_a_new_listener_on_the_port_starts_again_from_version_1():
    app, link = make()
    cmd(app, 5, "hello", 3, max_v=2)
    app.on_connect(10)
    hello = link.of("hello")[-1]
    assert hello["v"] == 1 and hello["max_v"] == 2 and "id" not in hello


def test_a_tray_that_speaks_only_version_1_behaves_like_the_old_firmware():
    app, link = make({"max_version": 1})
    cmd(app, 5, "hello", 3, max_v=2)
    hello = link.of("hello")[-1]
    assert hello["v"] == 1 and "max_v" not in hello and "boot" not in hello
    app.on_bytes(v2_command("ping", 4), 6)
    assert link.of("ack") == [] and link.of("error")[-1]["detail"].startswith("version:")


def test_each_start_of_the_tray_has_its_own_boot_id():
    first, _ = make()
    second, _ = make()
    assert first.boot_id != second.boot_id


def _padded_command(size, ending):
    obj = protocol.command("ping", 9, pad="")
    obj["pad"] = "p" * (size - len(json.dumps(obj, separators=(",", ":"))))
    data = json.dumps(obj, separators=(",", ":")).encode()
    assert len(data) == size
    return data + ending


def test_a_command_of_exactly_the_limit_is_taken_with_either_line_ending():
    app, link = make()
    for ending in (b"\n", b"\r\n"):
        app.on_bytes(_padded_command(protocol.MAX_LINE, ending), 5)
    assert [a["id"] for a in link.of("ack")] == [9, 9]
    app.on_bytes(_padded_command(protocol.MAX_LINE + 1, b"\r\n"), 6)
    assert len(link.of("ack")) == 2 and app.rejects.by_code == {"too_long": 1}


def test_start_up_problems_follow_every_hello_until_they_are_solved():
    app, link = make({"impact_threshold": 0.05, "quiet_level": 0.2})
    app.set_problem("sensor", "sensor_missing", "no VL53L0X at 0x29")
    cmd(app, 5, "hello", 3)
    after = link.types()[link.types().index("hello", 1):]
    assert after[:3] == ["hello", "error", "error"]
    assert {m["code"] for m in link.of("error")[-2:]} == {"bad_settings", "sensor_missing"}
    app.clear_problem("sensor")
    cmd(app, 6, "hello", 4)
    assert link.types()[-2:] == ["hello", "error"] and link.of("error")[-1]["code"] == "bad_settings"
