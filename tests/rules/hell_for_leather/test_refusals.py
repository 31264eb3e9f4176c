"""Illegal moves are refused with the rule named, and a refusal changes nothing."""

import json

import pytest
from pydantic import ValidationError

from kiosk.replay import main as replay_main
from kiosk.rules import RuleError, Session
from kiosk.rules.hell_for_leather import ENGINE

from ..scenarios import played
from .table import (
    call, count, fail_turn, land, merit_turn, narrator, pass_turn, ready, risk, skip_goal, team, trauma_turn,
    until_narrator,
)


def refused(s, action, rule):
    before = (s.state.model_copy(deep=True), list(s.log))
    with pytest.raises(RuleError) as err:
        s.apply(action)
    assert rule in err.value.rule, err.value
    assert (s.state, s.log) == before
    return err.value


def test_a_die_thrown_by_the_wrong_player():
    s = ready()
    call(s)
    err = refused(s, {"type": "land", "player": "Roger", "zone": "inside", "face": 3}, "whose turn it is")
    assert "waiting for Daniel" in str(err)


def test_a_d10_face_of_11():
    s = ready()
    call(s)
    err = refused(s, {"type": "land", "player": "Daniel", "zone": "inside", "face": 11}, "a d10 shows 0 to 9")
    assert "not 11" in str(err)
    refused(s, {"type": "land", "player": "Daniel", "zone": "inside", "face": 4, "caught": 12}, "a d10 shows 0 to 9")


def test_a_risk_in_a_skill_declaration():
    s = ready()
    s.apply({"type": "declare_skill", "player": "Daniel", "skill": "Surgery"})
    land(s, "inside", 8)
    refused(s, {"type": "risk", "player": "Daniel"}, "no Risk in a Skill Declaration")


def test_a_second_risk_and_a_risk_before_the_dice():
    s = ready()
    call(s)
    refused(s, {"type": "risk", "player": "Daniel"}, "a Risk comes after your own dice")
    land(s, "inside", 8)
    risk(s)
    land(s, "inside", 2)
    refused(s, {"type": "risk", "player": "Daniel"}, "one Risk per conflict")


def test_buying_a_goal_with_4_vp():
    s = ready()
    merit_turn(s)              # Daniel: Team A 2 VP
    pass_turn(s)
    fail_turn(s)               # Roger: nothing
    pass_turn(s)
    assert narrator(s) == "Daniel" and team(s, "Daniel").vp == 2
    call(s)
    land(s, "inside", 3)       # a Merit: 4 VP, one short
    count(s)
    assert team(s, "Daniel").vp == 4 and s.state.phase == "threat"
    err = refused(s, {"type": "buy_goal", "player": "Daniel", "bonus": "heat"}, "a Goal costs 5 VP")
    assert "only 4 VP" in str(err)


def test_heat_faces_must_fit_the_heat():
    s = ready()
    call(s)
    three = {"type": "heat_fall", "player": None, "faces": [1, 2, 3], "thrower": "Daniel"}
    refused(s, three, "the Heat is 2 dice high")
    refused(s, {"type": "heat_fall", "player": None, "faces": [7], "thrower": "Daniel"}, "the Heat is 2 dice high")
    refused(s, {"type": "heat_fall", "player": None, "faces": [1], "thrower": "Eoin"}, "only someone throwing")


def test_help_costs_a_vp_per_ally_and_comes_before_the_first_die():
    s = ready()
    call(s)
    refused(s, {"type": "call_help", "player": "Daniel", "allies": ["Roger"]}, "Help costs 1 VP")
    land(s, "inside", 8)
    count(s)                   # Daniel: Team A 1 VP
    pass_turn(s)
    fail_turn(s)               # Roger: nothing
    pass_turn(s)
    assert narrator(s) == "Daniel" and team(s, "Daniel").vp == 1
    call(s)
    refused(s, {"type": "call_help", "player": "Daniel", "allies": ["Eoin"]}, "Help costs 1 VP per living teammate")
    land(s, "inside", 8)
    refused(s, {"type": "call_help", "player": "Daniel", "allies": ["Roger"]}, "Help is called before the first die")


def test_no_dilemma_on_a_hunted_team_and_no_refusal_without_vp():
    s = ready()
    call(s)
    land(s, "outside", 9)      # Daniel's Curse of 9: Hunters on Team A, which has no VP
    count(s)
    pass_turn(s)               # Eoin: Team B 1 VP
    assert narrator(s) == "Roger" and team(s, "Daniel").hunter_marks == 3
    refused(s, {"type": "offer_dilemma", "player": "Eoin"}, "no Dilemma against a team with Hunters")
    call(s)
    land(s, "inside", 1)
    risk(s)
    land(s, "inside", 2)       # Roger's Boon: every Hunter Mark gone, no VP while hunted
    count(s)
    skip_goal(s)
    pass_turn(s)               # Jason: Team B 2 VP
    assert team(s, "Daniel").hunter_marks == 0 and team(s, "Daniel").vp == 0
    s.apply({"type": "offer_dilemma", "player": "Eoin"})
    refused(s, {"type": "answer_dilemma", "player": "Daniel", "answer": "refuse"}, "refusing a Dilemma costs 1 VP")


def test_extra_traumas_stay_in_the_team():
    s = played("hell-for-leather-a-curse-of-27", leave=1)   # Roger's Curse of 27: one extra Trauma to give
    assert s.awaiting()[0].action == "assign_traumas"
    refused(s, {"type": "assign_traumas", "player": "Roger", "to": ["Eoin"]}, "extra Traumas go to you or living")


def test_a_cursed_skill_declaration_blocks_the_next():
    s = ready()
    s.apply({"type": "declare_skill", "player": "Daniel", "skill": "Surgery"})
    land(s, "outside", 2)
    count(s)
    for _ in range(3):
        pass_turn(s)
    refused(s, {"type": "declare_skill", "player": "Daniel", "skill": "Piloting"}, "a Cursed Skill Declaration")


def test_nothing_after_the_end_and_nobody_outside_the_prompt():
    s = ready(fluency=1, practice_conflicts=1)
    pass_turn(s)
    assert s.outcome.startswith("Practice session over")
    refused(s, {"type": "call_conflict", "player": "Eoin"}, "the end of the game")


def test_malformed_actions_name_the_field():
    s = ready()
    with pytest.raises(RuleError, match="zone"):
        s.apply({"type": "land", "player": "Daniel", "zone": "nearby", "face": 3})
    with pytest.raises(RuleError, match="shape of an action"):
        s.apply({"type": "teleport", "player": "Daniel"})


@pytest.mark.parametrize("setup,message", [
    ({"mode": "coop", "players": ["A", "B", "C", "D"]}, "co-op play is for 2 or 3 players"),
    ({"players": ["A", "A", "B"]}, "same name"),
    ({"players": ["A", "B", "C"], "exams": True}, "the Exams split 4 to 6 players"),
    ({"players": ["A", "B"], "team_a": ["Z"]}, "not at the table"),
    ({"fluency": 2, "dying": True}, "fluency level 3"),
    ({"players": ["A"]}, "at least 2"),
])
def test_bad_setups_say_what_is_wrong(setup, message):
    with pytest.raises(ValidationError, match=message):
        Session(ENGINE, setup)


def test_replay_stops_at_a_truncated_line_with_its_number(tmp_path, capsys):
    s = ready()
    call(s)
    lines = s.to_jsonl().splitlines()
    bad = tmp_path / "cut.jsonl"
    bad.write_text("\n".join(lines[:-1] + [lines[-1][:10]]) + "\n")
    assert replay_main([str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"line {len(lines)}: not valid JSON" in err
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text("\n".join(lines + [json.dumps({"type": "land", "player": "Daniel", "zone": "in", "face": 3})]))
    assert replay_main([str(wrong)]) == 1
    assert f"line {len(lines) + 1}:" in capsys.readouterr().err


def test_the_dead_and_strangers_cannot_act_even_where_the_table_may_answer():
    s = ready(mode="coop", players=["Susan", "Alex"])
    for _ in range(4):                              # four Traumas: Alex's contestant is dead
        until_narrator(s, "Alex")
        trauma_turn(s)
    assert s.view()["contestants"]["Alex"]["drive"] == "R.I.P."
    until_narrator(s, "Susan")
    assert [p.player for p in s.awaiting() if p.action == "call_conflict"] == [None]   # the table answers
    with pytest.raises(RuleError, match="nobody acts after R.I.P."):
        s.apply({"type": "call_conflict", "player": "Alex"})
    with pytest.raises(RuleError, match="only players at this table act"):
        s.apply({"type": "call_conflict", "player": "Zed"})


