"""The idle clock (kiosk.parts.idle) and exports (kiosk.parts.exports), without a window."""

from __future__ import annotations

import json

from hardware.config import KioskConfig
from hardware.events import ButtonColour, ButtonPressed, DistanceSample
from kiosk.demo import GAME_OVER_S
from kiosk.parts.exports import Exports
from kiosk.parts.idle import QUIET_S, Idle


class Clock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


def test_attract_starts_after_the_configured_idle_time_and_a_touch_puts_it_off():
    clock, kiosk = Clock(), KioskConfig(idle_attract_s=120)
    idle = Idle(lambda: kiosk, clock)
    clock.now += 119
    assert not idle.attract_due(game_over=False)
    idle.touched()
    clock.now += 119
    assert not idle.attract_due(game_over=False)
    clock.now += 1
    assert idle.attract_due(game_over=False)


def test_a_pad_press_is_someone_at_the_table_and_a_distance_sample_is_not():
    clock, kiosk = Clock(), KioskConfig(idle_attract_s=60)
    idle = Idle(lambda: kiosk, clock)
    clock.now += 60
    assert not idle.heard(DistanceSample(mm=80, t=0.0), accepted=False)
    assert idle.attract_due(game_over=False)  # the tray's readings keep nobody at the table
    assert not idle.quiet()  # ...but the kiosk is not quiet while they come
    assert idle.heard(ButtonPressed(2, ButtonColour.GRAY, t=0.0), accepted=False)
    assert not idle.attract_due(game_over=False)
    assert idle.heard(DistanceSample(mm=80, t=0.0), accepted=True)  # taken by the rules: someone is there
    clock.now += QUIET_S
    assert idle.quiet()


def test_in_demo_mode_a_finished_game_goes_back_to_attract_sooner():
    clock, kiosk = Clock(), KioskConfig(idle_attract_s=600, demo_mode=True, demo_idle_s=90)
    idle = Idle(lambda: kiosk, clock)
    clock.now += GAME_OVER_S
    assert idle.attract_due(game_over=True) and not idle.attract_due(game_over=False)
    clock.now += 90 - GAME_OVER_S
    assert idle.attract_due(game_over=False)


def test_an_export_names_the_folder_and_both_files_which_replay_the_game(store, tmp_path):
    from kiosk.runner import Runner

    runner = Runner.new(store, store.engines("toy"), {"players": ["Ann", "Bo"]})
    runner.propose({"type": "lock", "player": "Ann", "number": 2})
    store.settled()
    folder = tmp_path / "exports"
    done = Exports(store, folder).export()  # none named: the latest
    sid = runner.sid
    assert not done.failed
    assert str(folder) in done.said and f"session-{sid}.jsonl" in done.said and f"session-{sid}-recap.txt" in done.said
    lines = (folder / f"session-{sid}.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["game"] == "toy" and len(lines) == 2
    assert done.story == (folder / f"session-{sid}-recap.txt").read_text(encoding="utf-8") and "Ann" in done.story


def test_an_export_with_nothing_to_save_or_nowhere_to_write_says_so(store, tmp_path):
    from kiosk.runner import Runner

    assert Exports(store, tmp_path / "exports").export().said == "There is no session to export yet."
    runner = Runner.new(store, store.engines("toy"), {"players": ["Ann", "Bo"]})
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    done = Exports(store, blocked).export(runner.sid)
    assert done.failed and done.said.startswith("The log was not saved:") and "Nothing of the game is lost" in done.said
    assert done.story is None
