"""Start-up (issue 35): Home is the first frame, drawn before any engine, pydantic, the phone
server, the sound or the lessons' check loads; the rest follows a step a frame (kiosk.later),
and a touch that needs something before its turn gets it at once."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk import games
from kiosk.later import Later
from testkit import drive

ROOT = Path(__file__).resolve().parents[2]
PLAYED = ("hell-for-leather", "promise-hollows", "even-odd", "clincher")

FIRST_FRAME = """
import json, sys
from testkit import drive

app = drive.start(sys.argv[1], at_first_frame=True)
tags = sorted({w.tag for root in drive.roots() for w in drive.walk(root) if isinstance(getattr(w, "tag", None), str)})
resume = [w.text for w in drive.find_all("home:resume")]
print("FIRST_FRAME " + json.dumps({"modules": sorted(sys.modules), "tags": tags, "resume": resume,
                                   "waiting": app.later.waiting, "screen": app.sm.current}))
"""


def test_the_first_frame_is_home_complete_without_engines_pydantic_phones_or_sound(tmp_path):
    from kiosk.rules import Session
    from kiosk.store import Store

    store = Store(tmp_path / "sessions.sqlite3", engines=games.engine_for)
    store.create(Session(games.engine_for("even-odd"), {"seed": 2}))  # a paused game for Home's list
    store.close()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KIVY_NO_ARGS": "1", "KIVY_LOG_MODE": "PYTHON"}
    done = subprocess.run([sys.executable, "-c", FIRST_FRAME, str(tmp_path)], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=60)
    line = next((x for x in done.stdout.splitlines() if x.startswith("FIRST_FRAME ")), None)
    assert line, done.stderr[-2000:]
    seen = json.loads(line.split(" ", 1)[1])
    assert seen["screen"] == "home" and seen["waiting"][:2] == ["configuration", "table"]  # nothing of the rest has run
    for game in PLAYED:  # each game's card, whole: its buttons are there to touch
        assert {f"home:new:{game}", f"home:learn:{game}", f"home:rules:{game}"} <= set(seen["tags"])
    assert len(seen["resume"]) == 1 and "Resume The Even/Odd case game" in seen["resume"][0]
    loaded = set(seen["modules"])
    engines = {m for m in loaded for module in games.modules().values() if m == module or m.startswith(module + ".")}
    assert engines == set()
    # (the operator part reads the shipped PIN from hardware.operator_pin, three constants: the
    # package may be there, but nothing that reads the config or opens the pads or the tray)
    heavy = ["kiosk.rules.core", "pydantic", "aiohttp", "kiosk.phones", "kiosk.phones.server", "kiosk.sound",
             "kiosk.lesson", "kiosk.scenario", "hardware.config", "hardware.factory", "hardware.sim",
             "hardware.backends", "hardware.events", "kiosk.controller", "kiosk.ui.play"]
    assert [m for m in heavy if m in loaded] == []


def test_each_menu_title_is_its_engines_own():
    assert {g: games.title(g) for g in games.modules()} == {g: e.title for g, e in games.available().items()}


@pytest.fixture
def fresh(tmp_path):
    """A kiosk whose first frame has just been drawn; stopped (and off the shared window) after."""
    from kiosk.ui import overlays

    overlays.ANIMATION_SCALE["value"] = 0
    drive.DRAW["value"] = False
    (tmp_path / "lessons").mkdir()
    apps = []

    def start():
        apps.append(drive.start(str(tmp_path), at_first_frame=True))
        return apps[-1]

    yield start
    for app in apps:
        drive.stop(app)


def rest_of_startup(app) -> None:
    for _ in range(60):
        if app.later.done_at is not None:
            return
        drive.pump(1)
    raise AssertionError(f"start-up never finished: {app.later.waiting} still waiting")


def test_a_tap_on_new_game_in_the_first_frame_opens_it_and_the_game_starts(fresh):
    app = fresh()
    assert app.later.waiting[:2] == ["configuration", "table"] and app.controller is None
    drive.tap_now("home:new:even-odd")  # before any frame after the first: its engine loads on the spot
    assert app.sm.current == "setup" and app.setup_screen.game == "even-odd"
    assert "even-odd" not in app.engines.pending() and "hell-for-leather" in app.engines.pending()
    assert drive.find_all("setup:start")
    assert app.later.waiting[:2] == ["configuration", "table"]  # the tap did not wait for the rest of start-up
    drive.pump(1)
    drive.tap_now("setup:start")  # the rest (the pads and the tray first) loads before the game attaches
    assert app.sm.current == "play" and app.runner.engine.game == "even-odd"
    assert app.controller is not None and app.controller.runner is app.runner
    rest_of_startup(app)
    assert app.engines.pending() == [] and app.runner.engine.game == "even-odd"


def test_a_game_whose_engine_does_not_load_says_so_when_tapped_and_leaves_home(fresh, monkeypatch):
    monkeypatch.setenv("TABLE_NOIR_EXTRA_GAMES", "toy=tests.rules.toy,broken=tests.kiosk.no_such_engine")
    app = fresh()
    drive.tap_now("home:new:broken")  # listed before its engine was tried
    assert app.sm.current == "home" and app.runner is None
    assert "broken cannot be played on this kiosk" in app.toast_text.text
    assert not drive.find_all("home:new:broken") and drive.find_all("home:new:toy")


def test_a_lesson_that_fails_its_check_leaves_home_and_a_tap_before_says_why(fresh, tmp_path):
    broken = tmp_path / "lessons" / "mine.toml"
    broken.write_text('game = "toy"\ntitle = "Learn the toy"\nminutes = 2\nscenario = "nowhere.toml"\n\n'
                      '[[steps]]\nsay = "Lock a number."\n', encoding="utf-8")
    app = fresh()
    assert drive.find_all("home:learn:toy")  # offered from the file alone, before it is checked
    drive.tap_now("home:learn:toy")
    assert app.runner is None and app.sm.current == "home"
    assert app.toast_text.text.startswith(f"{broken}: ")  # the file, then what is wrong with it (kiosk.lesson)
    rest_of_startup(app)
    assert not drive.find_all("home:learn:toy") and drive.find_all("home:learn:even-odd")


def test_a_press_as_the_pads_open_reaches_the_game_a_restart_resumes(fresh, tmp_path):
    """The pads, the tray and the restart into the game on screen are one step: a press the
    controller queued as the pads opened is handled after the resume, by the resumed game."""
    from kiosk.rules import Session
    from kiosk.store import Store
    from kiosk.watchdog import OnScreen

    store = Store(tmp_path / "sessions.sqlite3", engines=games.engine_for)
    sid = store.create(Session(games.engine_for("even-odd"), {"seed": 2}))
    OnScreen(store).showing(sid)  # on screen when the last run ended without closing
    store.close()
    app = fresh()
    opened, handled = app._open_hardware, []

    def open_and_press():
        opened()
        app.controller.on_handled.append(lambda h: handled.append((type(h.event).__name__, app.controller.runner)))
        app.sim_pads.tap(1, "black")

    app._open_hardware = open_and_press
    rest_of_startup(app)
    assert app.sm.current == "play" and app.runner.sid == sid
    assert [kind for kind, _ in handled] == ["ButtonPressed", "ButtonReleased"]
    assert all(runner is app.runner for _, runner in handled)


def test_later_runs_a_step_a_tick_and_finish_runs_the_rest_but_the_idle_ones():
    ticks, ran, done = [], [], []
    later = Later(ticks.append)
    for name in ("a", "b", "c"):
        later.add(name, lambda name=name: ran.append(name))
    later.add("idle", lambda: ran.append("idle"), idle_only=True)
    later.on_done.append(lambda: done.append(True))
    later.start()
    ticks.pop(0)()
    assert ran == ["a"] and later.waiting == ["b", "c", "idle"]
    later.finish()
    assert ran == ["a", "b", "c"] and later.waiting == ["idle"] and not done
    ticks.pop(0)()
    assert ran == ["a", "b", "c", "idle"] and done == [True] and later.done_at is not None and ticks == []
    later.finish()
    assert done == [True]  # told once


def test_a_step_that_finishes_start_up_itself_runs_the_rest_once():
    ran = []
    later = Later(lambda tick: None)
    later.add("table", lambda: (ran.append("table"), later.finish()))
    later.add("engines", lambda: ran.append("engines"))
    later.add("freeze", lambda: ran.append("freeze"), idle_only=True)
    later.finish()
    assert ran == ["table", "engines"] and later.waiting == ["freeze"]


def test_a_cancelled_later_runs_nothing_more():
    ticks, ran = [], []
    later = Later(ticks.append)
    later.add("phones", lambda: ran.append("phones"))
    later.start()
    later.cancel()  # the kiosk closed before the step's turn
    ticks.pop(0)()
    assert ran == [] and later.waiting == [] and ticks == []
