"""Scenario files: each reaches its worked example's position by legal moves and shows its numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiosk import cli, scenario
from kiosk.rules import load_log
from kiosk.scenario import ScenarioError
from kiosk.store import Store

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))


def test_there_are_scenarios():
    assert len(SCENARIOS) >= 3


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_each_scenario_reaches_its_examples_numbers_and_its_log_replays(path):
    loaded = scenario.load(path)
    assert loaded.expect, f"{path.name} checks no number of its example"
    session = scenario.start(path)  # raises if a move is refused or a number differs
    assert len(session.log) == len(loaded.moves)
    replayed = load_log(session.to_jsonl().splitlines())
    assert replayed.state == session.state


def test_the_best_die_example_scores_a_merit_worth_2_vp():
    session = scenario.start(ROOT / "scenarios" / "hell-for-leather-best-die-counts.toml")
    daniel_team = session.view(None)["teams"][0]
    assert (daniel_team["vp"], daniel_team["heat"]) == (2, 3)


def test_a_scenario_that_misses_its_numbers_says_which(tmp_path):
    text = (ROOT / "scenarios" / "hell-for-leather-best-die-counts.toml").read_text(encoding="utf-8")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(text.replace('"teams.0.vp" = 2', '"teams.0.vp" = 3'), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"does not reach its position: teams.0.vp: expected 3, the position shows 2"):
        scenario.start(wrong)


def test_a_refused_move_is_named_by_its_number(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "even-odd"\ntitle = "t"\n[setup]\nplayers = ["Ann", "Bo"]\n'
                   '[[moves]]\ntype = "wager"\nplayer = "Ann"\nside = "even"\npoints = 1\n', encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"bad.toml: move 1 \(wager by Ann\) is refused: 'wager' is not expected"):
        scenario.start(bad)


@pytest.mark.parametrize("content, message", [
    ("game = [", "is not valid TOML"),
    ('game = "chess"\ntitle = "t"\n', "unknown game 'chess'"),
    ('title = "t"\n', "game: Field required"),
])
def test_a_broken_scenario_file_gets_one_clear_message(tmp_path, content, message):
    path = tmp_path / "broken.toml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ScenarioError, match=message):
        scenario.start(path)


def test_table_noir_play_stores_the_scenario_for_the_kiosk_and_writes_a_log(tmp_path, capsys):
    path = ROOT / "scenarios" / "promise-hollows-gallery-revelation.toml"
    log = tmp_path / "game.jsonl"
    assert cli.main(["play", "--scenario", str(path), "--data", str(tmp_path), "--log", str(log), "--no-kiosk"]) == 0
    assert "stored as session 1" in capsys.readouterr().out
    store = Store(tmp_path / "sessions.sqlite3")
    try:
        (info,) = store.unfinished()  # the kiosk's home screen offers to resume it
        resumed = store.load(info.id)
    finally:
        store.close()
    expected = scenario.start(path)
    assert resumed.state == expected.state
    assert json.loads(log.read_text().splitlines()[0])["game"] == "promise-hollows"
    assert load_log(log.read_text().splitlines()).state == expected.state


def test_table_noir_play_opens_the_kiosk_on_the_stored_game_with_the_kiosks_own_options(tmp_path, monkeypatch, capsys):
    opened = []
    monkeypatch.setattr("kiosk.launch.main", lambda argv: opened.append(argv) or 0)
    path = ROOT / "scenarios" / "promise-hollows-gallery-revelation.toml"
    assert cli.main(["play", "--scenario", str(path), "--data", str(tmp_path), "--size", "1024x600"]) == 0
    assert opened == [["--size", "1024x600", "--data", str(tmp_path)]]
    assert "press Resume" in capsys.readouterr().out
    assert cli.main(["play", "--scenario", str(tmp_path / "nope.toml"), "--data", str(tmp_path)]) == 1
    assert len(opened) == 1  # a file that cannot be played opens nothing


def test_table_noir_play_with_a_missing_file_says_so(tmp_path, capsys):
    assert cli.main(["play", "--scenario", str(tmp_path / "nope.toml"), "--no-kiosk", "--data", str(tmp_path)]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_a_played_session_written_as_a_scenario_rebuilds_the_same_position(tmp_path):
    from kiosk.rules import Session, engine_for

    played = Session(engine_for("even-odd"), {"players": ["Åsa", "Bo"], "dice": "physical"})
    played.apply({"type": "introduce", "player": "Åsa", "name": "Vera \"the Clerk\" Kask", "description": "counts twice"})
    text = scenario.session_to_toml(played, "Two investigators", "a test", {"pools.Åsa": 6},
                                    notes={0: "Åsa introduces her investigator"})
    path = tmp_path / "written.toml"
    path.write_text(text, encoding="utf-8")
    assert "# Åsa introduces her investigator" in text
    rebuilt = scenario.start(path)
    assert rebuilt.state == played.state and len(rebuilt.log) == 1


def test_every_game_has_a_scenario_for_its_worked_examples():
    games = {scenario.load(p).game for p in SCENARIOS}
    assert games == {"hell-for-leather", "promise-hollows", "even-odd", "clincher"}


def test_the_readme_table_lists_every_scenario_file():
    table = (ROOT / "scenarios" / "README.md").read_text(encoding="utf-8")
    missing = [p.name for p in SCENARIOS if f"`{p.name}`" not in table]
    assert not missing, f"scenarios/README.md does not list {missing}"
