"""The shipped example log replays to the end, as JSON, as a recap and as one player's view."""

import json

from kiosk.replay import main as replay_main

from .example_session import PATH, build


def test_the_shipped_log_is_the_scripted_session():
    assert PATH.read_text() == build().to_jsonl(), "regenerate: python -m tests.rules.hell_for_leather.example_session"


def test_replay_prints_the_final_public_state(capsys):
    assert replay_main([str(PATH)]) == 0
    final = json.loads(capsys.readouterr().out)
    assert final["outcome"].startswith("Goliath wins the show")
    assert final["contestants"]["Eoin"]["drive"] == "R.I.P." and final["awaiting"] == []


def test_replay_recap_tells_the_story(capsys):
    assert replay_main([str(PATH), "--recap"]) == 0
    story = capsys.readouterr().out
    for beat in ["+ Felony rank 0 = 15: Trauma", "** Felony", "Hunters burst in", "buys a Goal",
                 "Jason Ditches", "The Heat falls on Jason's turn", "Goliath wins the show"]:
        assert beat in story


def test_replay_as_a_player(capsys):
    assert replay_main([str(PATH), "--as", "Roger"]) == 0
    assert json.loads(capsys.readouterr().out)["you"] == "Roger"
    assert replay_main([str(PATH), "--as", "Nobody"]) == 2
