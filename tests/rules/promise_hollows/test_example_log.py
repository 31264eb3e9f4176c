"""examples/promise-hollows.jsonl: a real session that `table-noir replay` plays to the end."""

import json

from kiosk import replay

from .example_game import LOG, example_session


def test_the_committed_log_matches_the_script():
    assert LOG.read_text(encoding="utf-8") == example_session().to_jsonl()


def test_replay_prints_the_final_public_state(capsys):
    assert replay.main([str(LOG)]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["phase"] == "over" and view["winners"] == ["Joe"]
    assert view["outcome"].startswith("Joe wins: Mr. Gray (Joe) uncovered the Criminal, Roy G. Biv")
    assert "me" not in view


def test_replay_recap_tells_the_story_without_private_lines(capsys):
    assert replay.main([str(LOG), "--recap"]) == 0
    story = capsys.readouterr().out
    assert "Joe takes 24 of the 24 Color." in story
    assert "Roy G. Biv reveals: \u201cA problem with anger\u201d" in story
    assert "You are the Criminal" not in story and "You rolled" not in story
    assert "Dumped for her best friend" not in story  # Ruby's secrets never came out


def test_replay_as_a_player_adds_only_that_players_secrets(capsys):
    assert replay.main([str(LOG), "--as", "Jane", "--recap"]) == 0
    story = capsys.readouterr().out
    assert "You rolled 9: your secret is a Guilt." in story
    assert "You rolled 7" not in story and "You are the Criminal" not in story
    assert replay.main([str(LOG), "--as", "Jane"]) == 0
    me = json.loads(capsys.readouterr().out)["me"]
    assert me["private_self"]["hurt"] == "Dumped for her best friend" and me["criminal"] is False
