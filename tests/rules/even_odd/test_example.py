"""examples/even-odd.jsonl is a real session that ``table-noir replay`` plays to the end."""

from __future__ import annotations

import json
import pathlib

from kiosk import replay
from kiosk.rules import load_log

from .example import build

EXAMPLE = pathlib.Path(__file__).resolve().parents[3] / "examples" / "even-odd.jsonl"


def test_the_example_file_is_the_scripted_session():
    assert EXAMPLE.read_text(encoding="utf-8") == build().to_jsonl()


def test_replay_plays_the_example_to_the_verdict(capsys):
    assert replay.main([str(EXAMPLE)]) == 0
    final = json.loads(capsys.readouterr().out)
    assert final["phase"] == "over" and final["justice"] is True
    assert final["outcome"] == "Justice is served: Lucia (the Odd Suspect) was the killer."
    assert final["papers"] == {"even": 4, "odd": 8}


def test_replay_recap_and_a_players_view():
    assert replay.main([str(EXAMPLE), "--recap"]) == 0
    assert replay.main([str(EXAMPLE), "--as", "Nadia", "--recap"]) == 0
    session = load_log(EXAMPLE.read_text(encoding="utf-8").splitlines())
    assert "You staked 2 on Odd." in session.recap("Nadia")
    assert "You staked 2 on Odd." not in session.recap()
