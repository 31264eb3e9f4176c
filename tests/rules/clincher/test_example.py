"""examples/clincher.jsonl is a real session that ``table-noir replay`` plays to the end."""

from __future__ import annotations

import json
import pathlib

from kiosk import replay
from kiosk.rules import load_log

from .example import build

EXAMPLE = pathlib.Path(__file__).resolve().parents[3] / "examples" / "clincher.jsonl"


def test_the_example_file_is_the_scripted_session():
    assert EXAMPLE.read_text(encoding="utf-8") == build().to_jsonl()


def test_replay_plays_the_example_to_the_end(capsys):
    assert replay.main([str(EXAMPLE)]) == 0
    final = json.loads(capsys.readouterr().out)
    assert final["phase"] == "over" and final["awaiting"] == []
    assert [s["result"] for s in final["finished"]] == [
        "a narrow success", "a heart-breaking near miss", "a disastrous setback"]
    assert final["consequences"][1]["good"] and final["consequences"][1]["cashed"]
    assert final["deck_size"] + len(final["discards"]) == 52


def test_replay_recap_and_a_players_view(capsys):
    assert replay.main([str(EXAMPLE), "--recap"]) == 0
    recap = capsys.readouterr().out
    assert "Mara sets the order: Jun, Lena." in recap and "cashes in the good turn" in recap
    assert replay.main([str(EXAMPLE), "--as", "Jun"]) == 0
    session = load_log(EXAMPLE.read_text(encoding="utf-8").splitlines())
    assert session.outcome.startswith("Session over after 3 scenes")
