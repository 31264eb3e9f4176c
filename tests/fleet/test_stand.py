"""The kiosk's side of the fleet: what a stand reads from the table and what it makes of it."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from kiosk import games
from kiosk.controller import TrayState
from kiosk.fleet.stand import StandReporter
from kiosk.runner import Runner
from kiosk.store import Store

from .broker import MOSQUITTO, USERS, WHY_SKIPPED, Listener


class Recorder:
    """Stands in for the publisher: keeps what the reporter hands it."""

    def __init__(self) -> None:
        self.events: list[dict] = []
        self.statuses: list[dict] = []

    def event(self, kind: str, **fields) -> None:
        self.events.append({"kind": kind, **fields})

    def status(self, table: dict) -> None:
        self.statuses.append(table)


def play_to_the_end(runner, seed: int = 1) -> None:
    """A random bot answers what the game awaits until it is over (bounded)."""
    import random

    from kiosk.rules import RuleError, bot

    rng = random.Random(seed)
    for _ in range(5000):
        if runner.outcome is not None:
            return
        prompts = runner.awaiting()
        prompt = rng.choice([p for p in prompts if not p.optional] or prompts)
        try:
            runner.propose(bot.fill(prompt, rng))
        except RuleError:
            pass
    raise AssertionError("the game did not end in 5000 actions")


@pytest.fixture
def table(tmp_path):
    store = Store(tmp_path / "s.sqlite3", engines=games.engine_for)
    app = SimpleNamespace(sm=SimpleNamespace(current="home"), runner=None, hardware_problems=[], phones_problem=None,
                          controller=SimpleNamespace(tray_state=TrayState(link="serial")), store=store)
    yield app
    store.close()


def test_a_game_started_played_and_finished_becomes_two_events_and_a_status_without_names(table):
    app, out = table, Recorder()
    reporter = StandReporter(app, out, every_s=10)
    reporter.tick()
    assert [e["kind"] for e in out.events] == ["stand_started"] and out.statuses[-1]["state"] == "idle"
    app.runner = Runner.new(app.store, games.engine_for("even-odd"), {"players": ["Ann", "Bo", "Cy"], "seed": 3})
    app.sm.current = "play"
    reporter.tick()
    assert out.events[-1] == {"kind": "game_started", "game": "even-odd", "players": 3}
    status = out.statuses[-1]
    assert status["state"] == "playing" and status["phase"] == app.runner.session.view(None)["phase"]
    assert status["players"] == 3 and not any(name in repr(status) for name in ("Ann", "Bo", "Cy"))
    statuses = len(out.statuses)
    reporter.tick()  # nothing changed, the next status is not due yet
    assert len(out.statuses) == statuses and out.events[-1]["kind"] == "game_started"
    play_to_the_end(app.runner)
    reporter.tick()
    assert out.events[-1]["kind"] == "game_finished" and out.events[-1]["length_s"] >= 0
    assert "Ann" not in repr(out.events) and out.statuses[-1]["state"] == "idle"


def test_the_tray_unplugged_and_back_and_a_new_fault_are_events_once(table):
    app, out = table, Recorder()
    reporter = StandReporter(app, out, every_s=10)
    reporter.tick()
    tray = app.controller.tray_state
    tray.connected = False
    reporter.tick()
    reporter.tick()
    assert [e["kind"] for e in out.events] == ["stand_started", "tray_unplugged"]
    assert out.statuses[-1]["faults"] == ["Tray unplugged (serial unplugged)."]
    tray.connected = True
    app.hardware_problems.append("Pads not working: no pin factory. Secret answers go on the screen.")
    reporter.tick()
    reporter.tick()
    assert [e["kind"] for e in out.events][2:] == ["tray_back", "fault"]
    assert out.events[-1]["detail"].startswith("Pads not working")


def test_a_reading_that_fails_is_logged_and_the_kiosk_goes_on(table, caplog):
    app, out = table, Recorder()
    app.runner = SimpleNamespace(engine=None)  # half-built: reading it raises
    StandReporter(app, out, every_s=10).tick()
    assert "fleet: the table was not read" in caplog.text


@pytest.mark.ui  # drives the real kiosk window
@pytest.mark.skipif(MOSQUITTO is None, reason=WHY_SKIPPED)
def test_the_real_kiosk_reports_its_game_to_the_broker(tmp_path, broker):
    from testkit import drive

    listener = Listener(broker.port)
    config = tmp_path / "table-noir.toml"
    config.write_text(f'[fleet]\nbroker = "127.0.0.1"\nport = {broker.port}\nstand = "hall-a"\n'
                      f'username = "hall-a"\npassword = "{USERS["hall-a"]}"\nstatus_every_s = 2\n'
                      '[kiosk]\nphones = false\n')
    app = drive.start(str(tmp_path / "data"), config_path=str(config))
    try:
        assert app.fleet is not None

        def pump_until(condition, what: str) -> None:
            end = time.monotonic() + 15
            while time.monotonic() < end and not condition():
                drive.pump(1)
                time.sleep(0.01)
            assert condition(), f"timed out waiting for {what}; got {listener.got[-5:]}"

        pump_until(lambda: any(s["state"] == "idle" for s in listener.payloads("/status")), "an idle status")
        drive.press("home:new:clincher")
        drive.press("setup:start")
        assert app.sm.current == "play"
        pump_until(lambda: any(e["kind"] == "game_started" for e in listener.payloads("/events")), "game started")
        pump_until(lambda: listener.payloads("/status")[-1]["state"] == "playing", "a playing status")
        status = listener.payloads("/status")[-1]
        assert status["game"] == "clincher" and status["players"] == len(app.runner.players())
        assert status["today"]["started"] == 1 and status["memory_mb"] > 0
        assert not any(p in repr(listener.got) for p in app.runner.players())
    finally:
        drive.stop(app)
        listener.wait(lambda: listener.payloads("/status")[-1]["state"] == "offline", what="the stand's goodbye")
        listener.close()


def test_a_lesson_is_reported_as_a_lesson_not_a_game(table):
    app, out = table, Recorder()
    reporter = StandReporter(app, out, every_s=10)
    app.runner = Runner.new(app.store, games.engine_for("clincher"), {"seed": 2})
    app.sm.current, app.coach = "play", object()  # the coach bar is up while a lesson runs
    reporter.tick()
    assert out.events[-1]["kind"] == "lesson_started" and out.statuses[-1]["state"] == "lesson"


def test_todays_counts_come_from_the_stores_play_counts_when_it_keeps_them(tmp_path):
    """Schema 4 (the lessons work) keeps a ``plays`` table; an older store is counted from its sessions."""
    import sqlite3

    from kiosk.store import local_day
    from kiosk.fleet.publisher import today_counts

    now = time.time()
    db = sqlite3.connect(tmp_path / "s.sqlite3")
    db.execute("CREATE TABLE sessions (id INTEGER PRIMARY KEY, game TEXT, setup TEXT, started REAL, updated REAL, "
               "outcome TEXT, abandoned REAL)")
    db.executemany("INSERT INTO sessions (game, setup, started, updated, outcome, abandoned) VALUES (?, '{}', ?, ?, ?, ?)",
                   [("clincher", now - 100, now - 40, "over", None), ("clincher", now - 50, now - 10, None, now),
                    ("clincher", now - 90000, now - 89000, "over", None)])  # yesterday's is not today's
    assert today_counts(db, now).model_dump() == {"day": local_day(now), "started": 2, "finished": 1, "abandoned": 1,
                                                  "lessons": 0, "average_s": 60}
    db.execute("CREATE TABLE plays (session INTEGER PRIMARY KEY, game TEXT, kind TEXT, day TEXT, started REAL, "
               "finished REAL)")
    db.executemany("INSERT INTO plays (game, kind, day, started, finished) VALUES ('clincher', ?, ?, ?, ?)",
                   [("game", local_day(now), now - 300, now - 100), ("game", local_day(now), now - 50, None),
                    ("lesson", local_day(now), now - 30, now - 5), ("game", "2001-01-01", 0, 10)])
    assert today_counts(db, now).model_dump() == {"day": local_day(now), "started": 2, "finished": 1, "abandoned": 1,
                                                  "lessons": 1, "average_s": 200}
    db.close()


@pytest.mark.ui  # drives the real kiosk window
@pytest.mark.skipif(MOSQUITTO is None, reason=WHY_SKIPPED)
def test_a_kiosk_with_a_wrong_password_says_so_on_its_screen_and_plays_on(tmp_path, broker):
    import os

    from testkit import drive

    config = tmp_path / "table-noir.toml"
    config.write_text(f'[fleet]\nbroker = "127.0.0.1"\nport = {broker.port}\nstand = "hall-a"\n'
                      'username = "hall-a"\npassword = "not-it"\n[kiosk]\nphones = false\n')
    app = drive.start(str(tmp_path / "data"), config_path=str(config))
    try:
        end = time.monotonic() + 15
        while time.monotonic() < end and "refused" not in app.toast_text.text:
            drive.pump(1)
            time.sleep(0.01)
        said = app.toast_text.text
        assert f"the broker at 127.0.0.1:{broker.port} refused this stand" in said and "not-it" not in said
        assert app.toast.opacity == 1
        if os.environ.get("FLEET_SCREENSHOT_DIR"):
            drive.screenshot(os.path.join(os.environ["FLEET_SCREENSHOT_DIR"], "kiosk-refused.png"))
        drive.press("home:new:even-odd")  # the table plays on
        drive.press("setup:start")
        assert app.sm.current == "play" and app.runner is not None
    finally:
        drive.stop(app)


def test_a_stuck_button_and_a_hardware_fault_leave_at_once_and_a_new_controller_is_followed(table):
    from hardware.events import ButtonColour, ButtonStuck, HardwareFault
    from kiosk.controller import Controller

    app, out = table, Recorder()
    app.controller = Controller(None, None)
    reporter = StandReporter(app, out, every_s=10)
    reporter.tick()
    app.controller.handle(ButtonStuck(2, ButtonColour.GRAY, 0.0, 31.0))
    assert out.events[-1] == {"kind": "fault", "detail": "Pad 2: a button seems stuck."}  # not which button
    old, app.controller = app.controller, Controller(None, None)  # the hardware opened again
    reporter.tick()
    old.handle(HardwareFault("tray", "bad line", 0.0))
    app.controller.handle(HardwareFault("tray", "sensor missing", 0.0))
    assert [e.get("detail") for e in out.events[-2:]] == ["Pad 2: a button seems stuck.", "tray: sensor missing"]
    reporter.publisher.close = lambda: None
    reporter.close()
    assert reporter._handled not in app.controller.on_handled


def test_a_ca_file_that_is_not_a_certificate_is_a_message_not_a_crash(tmp_path):
    from hardware.config import Config, FleetConfig
    from kiosk.fleet.stand import open_stand

    ca = tmp_path / "ca.pem"
    ca.write_text("not a certificate\n")
    config = Config(fleet=FleetConfig(broker="127.0.0.1", port=1, tls=True, ca_file=str(ca)))
    said: list[str] = []
    app = SimpleNamespace(config_hw=config, message=said.append, store=None)
    assert open_stand(app, tmp_path) is None
    assert said and said[0].startswith("Fleet: not reporting to 127.0.0.1:") and "plays on" in said[0]
