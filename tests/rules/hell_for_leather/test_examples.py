"""The worked examples of the Hell for Leather text, retold as tests (numbers kept, words ours)."""

import pytest

from kiosk.rules.hell_for_leather.charts import curse_effects, heat_fall_score, heat_status, lowest_curse
from kiosk.scenario import read_path

from ..scenarios import played, played_and_rest
from .table import (
    bios, call, count, drive, fail_turn, fall, fall_for, gain_heat_turn, goals, land, merit_turn, narrator, pass_turn,
    ready, risk, skip_goal, team, thrower, trauma_turn, until_narrator,
)


def to_team_b(s):
    """Team A takes a quiet Pass so that Team B (Eoin narrating) becomes the Active Team."""
    pass_turn(s)
    assert narrator(s) == "Eoin"


# -- How to Play 1: the Conflict Target ---------------------------------------------------

def test_only_the_best_die_counts_a_pass_and_a_merit_make_a_merit():
    s = ready()
    call(s)
    land(s, "inside", 8)          # Daniel's Pass
    risk(s)                       # a second die, for the sake of the example
    land(s, "inside", 3)          # a Merit: the Risk die is a Merit, so no Felony
    count(s)
    assert s.state.last_result == "Merit"
    assert team(s, "Daniel").vp == 2


def test_a_knocked_pass_die_now_showing_4_makes_two_merits_a_boon():
    s = played("hell-for-leather-team-a-at-heat-3")  # Team A at Heat 3, by legal moves
    call(s)
    land(s, "inside", 8)
    risk(s)
    land(s, "inside", 3)
    s.apply({"type": "correct", "player": None, "die": 1, "zone": "inside", "face": 4})
    count(s)
    assert s.state.last_result == "Boon"
    assert team(s, "Daniel").heat == 3   # 3, +1 for the Risk, -1 for the Boon


def test_a_risk_adds_a_die_to_the_heat_and_gives_one_more_d10():
    s = ready()
    call(s)
    land(s, "touching", 6)
    assert team(s, "Daniel").heat == 2
    risk(s)
    assert team(s, "Daniel").heat == 3
    assert s.view()["heat"] == {"dice": 3, "status": "Quiet", "whose": team(s, "Daniel").name}
    assert thrower(s) == "Daniel"
    assert "Wretch" in s.recap()[-2]   # the Adversary will narrate with Dillon's Instinct


def test_level_1_treats_a_curse_as_a_pass_and_a_boon_as_a_merit():
    s = ready(fluency=1)
    call(s)
    land(s, "outside", 2)
    count(s)
    assert s.state.last_result == "Pass"
    assert team(s, "Daniel").vp == 0          # no VP before level 3
    call(s)
    land(s, "inside", 1)
    risk(s)
    land(s, "inside", 2)
    count(s)
    assert s.state.last_result == "Merit"
    assert s.state.contestants["Eoin"].felony == 0


def test_pass_hands_the_cup_on_and_switches_the_team_roles():
    s = ready()
    pass_turn(s)
    assert s.view()["active_team"] == "Team B" and narrator(s) == "Eoin"
    pass_turn(s)
    assert narrator(s) == "Roger"     # Team A's cup moved on when it became the Adversary
    pass_turn(s)
    assert narrator(s) == "Jason"


# -- How to Play 2: Curses, the Heat, Felonies, Drive --------------------------------------

def test_several_curse_dice_use_the_lowest_number():
    assert lowest_curse([4, 9]) == 4
    assert lowest_curse([0, 9]) == 9      # a 0 reads as 10
    s = played("hell-for-leather-two-curses-use-the-lowest", leave=4)  # two Traumas put Jason at Shotgun
    assert narrator(s) == "Jason" and drive(s, "Jason") == "Shotgun"   # two dice at once, no Risk needed
    call(s)
    land(s, "outside", 4)
    land(s, "touching", 9)
    count(s)
    assert "= 4: Gain Heat" in " ".join(s.recap())
    assert team(s, "Jason").heat == 3


def test_a_heat_of_three_falling_4_5_3_scores_12_a_trauma():
    assert heat_fall_score([4, 5, 3], standing=0) == 12
    s = played("hell-for-leather-team-b-at-heat-3")  # Team B at Heat 3, by legal moves
    call(s)
    fall(s, [4, 5, 3])
    assert "= 12: Trauma" in " ".join(s.recap())
    assert drive(s, "Eoin") == "Off-Hand"
    assert team(s, "Eoin").heat == 2          # 3 rebuilt, then -2 for the Trauma, never below 2


def test_a_partial_fall_counts_3_for_each_die_still_standing():
    assert heat_fall_score([4], standing=2) == 10
    s = played("hell-for-leather-team-b-at-heat-3")
    call(s)
    fall(s, [4])
    assert "= 10: Hunters" in " ".join(s.recap())
    b = team(s, "Eoin")
    assert b.heat == 4 and b.hunter_marks == 3     # rebuilt to 3, one more die for the Hunters
    assert team(s, "Daniel").heat == 2             # the other team's Heat is its own


@pytest.mark.parametrize("score,effects", [
    (1, ["fail"]), (3, ["fail"]), (4, ["gain_heat"]), (7, ["gain_heat"]), (8, ["hunters"]), (11, ["hunters"]),
    (12, ["trauma"]), (19, ["trauma"]), (20, ["trauma", "hunters"]), (24, ["trauma", "trauma"]),
    (27, ["trauma", "trauma"]), (32, ["trauma", "trauma", "hunters"]),
])
def test_the_curse_chart_and_its_excess_chart(score, effects):
    assert curse_effects(score) == effects


def test_a_curse_of_27_gives_two_traumas_and_the_second_may_go_to_a_teammate():
    s = played("hell-for-leather-a-curse-of-27", leave=3)   # three Gain Heats: Team A at 5, Roger narrates
    assert team(s, "Roger").heat == 5 and narrator(s) == "Roger"
    call(s)
    fall(s, [6, 6, 6, 6, 3])                       # 27
    prompt = s.awaiting()[0]
    assert prompt.action == "assign_traumas" and prompt.fields[0].min == prompt.fields[0].max == 1
    s.apply({"type": "assign_traumas", "player": "Roger", "to": ["Daniel"]})
    assert drive(s, "Roger") == "Off-Hand" and drive(s, "Daniel") == "Off-Hand"
    assert team(s, "Roger").hunter_marks == 0      # remainder 3: nothing more
    assert team(s, "Roger").heat == 2              # 5 - 2 - 2, never below 2


def test_gain_heat_raises_the_active_teams_heat_by_one():
    s = ready()
    call(s)
    land(s, "outside", 5)
    count(s)
    assert "Gain Heat" in " ".join(s.recap()) and team(s, "Daniel").heat == 3


def test_hunters_need_three_merits_or_a_boon_and_block_vp():
    s = ready()
    to_team_b(s)
    call(s)
    land(s, "outside", 9)                       # Curse 9: Hunters
    count(s)
    b = team(s, "Eoin")
    assert b.hunter_marks == 3 and b.heat == 3
    for expected in (2, 1):
        pass_turn(s)                             # Team A
        merit_turn(s)                            # Team B: a Merit crosses off a mark, no VP
        assert b.hunter_marks == expected and b.vp == 0
    pass_turn(s)
    # Another Hunters result while hunted puts a crossed-off mark back and adds a die.
    call(s)
    land(s, "outside", 8)
    count(s)
    assert b.hunter_marks == 2 and b.heat == 4
    pass_turn(s)
    call(s)                                      # a Boon clears every mark
    land(s, "inside", 1)
    risk(s)
    land(s, "inside", 2)
    count(s)
    skip_goal(s)
    assert b.hunter_marks == 0 and b.vp == 0     # hunted when counted: still no VP


def test_hunters_again_with_no_mark_crossed_counts_as_gain_heat():
    s = ready()
    call(s)
    land(s, "outside", 9)
    count(s)
    a = team(s, "Daniel")
    assert a.hunter_marks == 3 and a.heat == 3
    pass_turn(s)
    call(s)
    land(s, "outside", 10 % 10)                 # a 0 reads as 10: Hunters again
    count(s)
    assert a.hunter_marks == 3 and a.heat == 4


def test_trauma_flashback_lowers_drive_and_heat_then_the_cup_moves_on():
    s = played("hell-for-leather-trauma-flashback", leave=2)   # two Gain Heats: Team A at 4, Daniel narrates
    assert team(s, "Daniel").heat == 4 and narrator(s) == "Daniel"
    call(s)
    fall(s, [3, 3, 3, 3])                          # 12: a Trauma
    assert drive(s, "Daniel") == "Off-Hand" and team(s, "Daniel").heat == 2
    assert narrator(s) == "Eoin"
    assert any("Brother in Belmarsh" in line for line in s.recap())


def test_risk_die_not_a_merit_becomes_a_two_star_felony_and_its_merit_makes_a_boon():
    s = ready()
    for _ in range(3):                          # Daniel, Eoin and Roger narrate first
        pass_turn(s)
    assert narrator(s) == "Jason"
    call(s)
    land(s, "inside", 2)                        # John Jackson's Merit
    risk(s)
    land(s, "inside", 7)                        # the Risk die is a Pass: a Felony
    assert s.state.conflict.felony_open
    land(s, "inside", 9)                        # first Felony die: Pass
    land(s, "inside", 4)                        # second: a Merit, grade two, no third die
    assert s.state.contestants["Jason"].felony == 2
    assert [p.action for p in s.awaiting() if not p.optional] == ["count"]
    count(s)
    assert s.state.last_result == "Boon"
    assert "** Felony" in " ".join(s.recap())


def test_felony_rank_is_added_to_every_curse():
    s = played("hell-for-leather-bathroom-felony")  # John Jackson's two-star Felony
    until_narrator(s, "Jason")
    call(s)
    land(s, "outside", 6)                        # 6 + 2 = 8: Hunters rather than Gain Heat
    count(s)
    assert team(s, "Jason").hunter_marks == 3


def test_a_full_felony_track_stops_risks_escalating():
    s = ready(felony_track=3)
    call(s)
    land(s, "inside", 8)
    risk(s)
    land(s, "inside", 8)                         # the Risk die is a Pass: a Felony
    for face in (9, 9, 1):                       # a Merit only on the third Felony die: three stars
        land(s, "inside", face)
    count(s)
    assert s.view()["contestants"]["Daniel"]["felony_rank"] == 3
    until_narrator(s, "Daniel")
    call(s)
    land(s, "inside", 8)
    risk(s)
    land(s, "inside", 8)
    assert not s.state.conflict.felony_open
    count(s)
    assert s.state.contestants["Daniel"].felony == 3


def test_the_drive_track_sets_the_dice():
    drive_1 = ready()
    off_hand = played("hell-for-leather-heat-falls-4-5-3")          # Eoin's Trauma in the alley
    until_narrator(off_hand, "Eoin")
    shotgun = played("hell-for-leather-two-curses-use-the-lowest", leave=4)   # Jason after two Traumas
    drive_0 = played("hell-for-leather-felony-lifts-drive-0", leave=5)        # Jason after three
    for s, level, dice in [(drive_1, "Drive 1", 1), (off_hand, "Off-Hand", 1), (shotgun, "Shotgun", 2),
                           (drive_0, "Drive 0", 0)]:
        assert drive(s, narrator(s)) == level
        call(s)
        assert len(s.state.conflict.plan) == dice, level


def test_drive_0_without_dice_fails_as_a_curse_of_a_d10_plus_felony_rank():
    s = played("hell-for-leather-felony-lifts-drive-0")   # Jason at Drive 0 with a two-star Felony
    land(s, "inside", 8)                                   # his Off-Hand die for this conflict
    count(s)
    until_narrator(s, "Jason")
    call(s)
    assert s.state.conflict.plan == []                     # Drive 0: no dice of his own
    count(s)
    s.apply({"type": "fail_roll", "player": "Jason", "face": 5})   # 5 + rank 2 = 7
    assert "= 7: Gain Heat" in " ".join(s.recap())


def test_skill_declaration_merit_teaches_the_skill_and_a_curse_ends_declarations():
    s = ready()
    s.apply({"type": "declare_skill", "player": "Daniel", "skill": "Flying a jet"})
    assert not any(p.action == "risk" for p in s.awaiting())
    land(s, "inside", 3)
    count(s)
    assert s.state.contestants["Daniel"].skills == ["Flying a jet"]
    pass_turn(s)
    pass_turn(s)
    pass_turn(s)
    assert narrator(s) == "Daniel"
    s.apply({"type": "declare_skill", "player": "Daniel", "skill": "Surgery"})
    land(s, "outside", 2)
    count(s)
    assert s.state.contestants["Daniel"].skills_blocked
    pass_turn(s)
    pass_turn(s)
    pass_turn(s)
    assert narrator(s) == "Daniel"
    assert not any(p.action == "declare_skill" for p in s.awaiting())


def test_the_heat_status_colours_the_narration():
    for height, status in [(2, "Quiet"), (3, "Quiet"), (4, "Busy"), (5, "Busy"), (6, "Saturated"), (7, "Saturated"),
                           (8, "Panic"), (11, "Panic")]:
        assert heat_status(height) == status
    for name, path, status in [
        ("hell-for-leather-setting-up", "teams.0", "Quiet"),                          # Heat 2
        ("hell-for-leather-team-a-at-heat-3", "teams.0", "Quiet"),                    # 3
        ("hell-for-leather-partial-fall-brings-hunters", "teams.1", "Busy"),          # 4
        ("hell-for-leather-finale-risks", "finale.sides.0", "Saturated"),             # 6
        ("hell-for-leather-finale-before-the-ditch", "finale.sides.0", "Panic"),      # 11
    ]:
        assert read_path(played(name).view(), f"{path}.heat_status") == status, name


# -- How to Play 3: VP, Help, Dilemmas, Goals -----------------------------------------------

def test_vp_one_for_a_pass_two_for_a_merit_or_boon_none_for_a_curse():
    s = ready()
    pass_turn(s)
    merit_turn(s)
    assert team(s, "Daniel").vp == 1 and team(s, "Eoin").vp == 2
    call(s)
    land(s, "outside", 1)
    count(s)
    assert team(s, "Daniel").vp == 1


def test_call_for_help_costs_a_vp_per_ally_and_the_helper_throws_after_the_narrators_first_die():
    s = played("hell-for-leather-call-for-help", leave=5)   # Team B hunted, with 1 VP; Jason narrates
    assert narrator(s) == "Jason" and team(s, "Jason").vp == 1 and team(s, "Jason").hunter_marks == 3
    call(s)
    s.apply({"type": "call_help", "player": "Jason", "allies": ["Eoin"]})
    assert team(s, "Jason").vp == 0
    assert thrower(s) == "Jason"
    land(s, "inside", 7)                      # Jason's Pass
    assert thrower(s) == "Eoin"
    land(s, "inside", 2)                      # Eoin's Merit
    count(s)
    assert s.state.last_result == "Merit"
    assert team(s, "Jason").vp == 0 and team(s, "Jason").hunter_marks == 2   # hunted: a mark, no VP


def test_a_helper_who_topples_the_heat_takes_the_curse():
    s = ready()
    for _ in range(4):                        # Daniel, Eoin, Roger, Jason: quiet Passes
        pass_turn(s)
    assert narrator(s) == "Daniel" and team(s, "Daniel").vp == 2
    call(s)
    s.apply({"type": "call_help", "player": "Daniel", "allies": ["Roger"]})
    land(s, "inside", 7)
    fall(s, [6, 6], thrower="Roger")          # 12: a Trauma for Roger
    assert drive(s, "Roger") == "Off-Hand" and drive(s, "Daniel") == "Drive 1"


def test_a_dilemma_at_off_hand_leaves_drive_0_and_a_broke_team_cannot_refuse():
    s = played("hell-for-leather-dilemma-at-off-hand", leave=2)   # Elsa at Off-Hand, Team B broke
    assert drive(s, "Eoin") == "Off-Hand" and narrator(s) == "Eoin"
    assert team(s, "Daniel").vp == 1 and team(s, "Eoin").vp == 0
    s.apply({"type": "offer_dilemma", "player": "Roger"})
    assert team(s, "Daniel").vp == 0
    answer = s.awaiting()[0]
    assert answer.fields[0].choices == ["accept"]
    s.apply({"type": "answer_dilemma", "player": "Eoin", "answer": "accept"})
    c = s.state.conflict
    assert c.plan == [] and s.view()["conflict"]["drive"] == "Drive 0"
    assert {p.action for p in s.awaiting() if not p.optional} == {"risk", "count"}   # a Felony is the way out


def test_refusing_a_dilemma_pays_the_adversary_back_plus_one():
    s = ready()
    pass_turn(s)                              # Daniel: Team A 1 VP
    pass_turn(s)                              # Eoin: Team B 1 VP
    pass_turn(s)                              # Roger: Team A 2 VP
    fail_turn(s)                              # Jason: a Fail, no VP
    assert narrator(s) == "Daniel" and team(s, "Daniel").vp == 2 and team(s, "Eoin").vp == 1
    s.apply({"type": "offer_dilemma", "player": "Eoin"})
    s.apply({"type": "answer_dilemma", "player": "Daniel", "answer": "refuse"})
    assert team(s, "Daniel").vp == 1 and team(s, "Eoin").vp == 2
    assert s.state.phase == "threat"


def test_buying_a_goal_after_a_skill_merit_heals_a_teammate():
    s = played("hell-for-leather-heathrow-goal", leave=4)   # Team A at 3 VP, Dillon at Off-Hand
    a = team(s, "Roger")
    assert narrator(s) == "Roger" and a.vp == 3 and drive(s, "Daniel") == "Off-Hand"
    s.apply({"type": "declare_skill", "player": "Roger", "skill": "Flying a jet"})
    land(s, "inside", 2)
    count(s)
    assert a.vp == 5 and s.state.phase == "goal"
    s.apply({"type": "buy_goal", "player": "Roger", "bonus": "heal:Daniel"})
    assert a.vp == 0 and a.goals_done == 1 and drive(s, "Daniel") == "Drive 1"


def test_reaching_the_goal_target_starts_the_finale_and_throws_away_vp():
    s = ready(goal_target=1)
    pass_turn(s)                              # Daniel: Team A 1 VP
    merit_turn(s)                             # Eoin: Team B 2 VP
    merit_turn(s)                             # Roger: Team A 3 VP
    pass_turn(s)                              # Jason: Team B 3 VP
    a, b = team(s, "Daniel"), team(s, "Eoin")
    call(s)
    land(s, "inside", 1)
    count(s)                                  # Daniel's Merit: Team A 5 VP
    assert a.vp == 5 and b.vp == 3
    s.apply({"type": "buy_goal", "player": "Daniel", "bonus": "heat"})
    assert s.state.phase == "rewards" and a.vp == 0 and b.vp == 0
    assert s.state.finale.rewards_left == 1


# -- The Finale ---------------------------------------------------------------------------

def test_rewards_raise_heat_wound_an_opponent_and_lower_the_winners_heat():
    s, rest = played_and_rest("hell-for-leather-rewards", leave=6)   # Team B: 3 Goals, Heat 6; Team A: 2, Heat 3
    b, a = team(s, "Eoin"), team(s, "Daniel")
    assert (b.goals_done, a.goals_done, b.heat, a.heat) == (3, 2, 6, 3) and b.vp >= 3
    for move in rest[:3]:                     # Team B's Merit
        s.apply(move)
    s.apply({"type": "buy_goal", "player": rest[3]["player"], "bonus": "heat"})   # Heat 6 -> 5
    f = s.state.finale
    assert f.rewards_left == 2 and f.sides[1].heat == 5
    chooser = s.awaiting()[0].player
    s.apply({"type": "reward", "player": chooser, "use": "heat"})
    s.apply({"type": "reward", "player": chooser, "use": "trauma:Daniel"})
    assert f.sides[0].heat == 4            # Team A's Heat 3 + 1
    assert f.sides[1].heat == 3            # Team B's Heat 5 - 2 rewards
    assert drive(s, "Daniel") == "Off-Hand"
    assert s.state.phase == "entrance"


def reward_choices_with_eoin_wounded(traumas: int) -> list[str]:
    """Team A reaches its one Goal after Eoin has taken ``traumas`` Traumas; the reward choices."""
    s = ready(goal_target=1)
    for _ in range(traumas):
        until_narrator(s, "Eoin")
        trauma_turn(s)
    until_narrator(s, "Roger")
    assert team(s, "Roger").vp >= 3
    call(s)
    land(s, "inside", 1)
    count(s)
    s.apply({"type": "buy_goal", "player": "Roger", "bonus": "heat"})
    return s.awaiting()[0].fields[0].choices


def test_a_reward_trauma_may_not_kill():
    shotgun = reward_choices_with_eoin_wounded(2)
    assert "trauma:Jason" in shotgun and "trauma:Eoin" in shotgun      # Shotgun to Drive 0 is not death
    drive_0 = reward_choices_with_eoin_wounded(3)
    assert "trauma:Jason" in drive_0 and "trauma:Eoin" not in drive_0   # from Drive 0 it would be


def enter_finale(s):
    """Both teams enter the Objective (any rewards are taken as VP)."""
    while s.state.phase == "rewards":
        s.apply({"type": "reward", "player": s.awaiting()[0].player, "use": "vp"})
    for p in list(s.state.finale.entrances):
        s.apply({"type": "entrance", "player": p})
    assert s.state.phase == "take_cup"


def finale_example_session():
    """The Finale example's start, reached by the rewards example: Team A at Heat 4 with Dillon
    wounded (Off-Hand), Team B at Heat 3, everyone else at Drive 1."""
    s = played("hell-for-leather-rewards")
    assert [x.heat for x in s.state.finale.sides] == [4, 3] and drive(s, "Daniel") == "Off-Hand"
    enter_finale(s)
    return s


def test_finale_example_round():
    s = finale_example_session()
    f = s.state.finale
    s.apply({"type": "take_cup", "player": "Eoin", "target": "Daniel"})
    acting = f.sides[f.active]
    assert s.view()["heat"]["dice"] == acting.heat and "Eoin" in s.view()["heat"]["whose"]
    # Turn 1, Eoin Attacks: Drive 1 + one ally = two dice, a Pass and a Merit.
    assert len(s.state.conflict.plan) == 2
    land(s, "inside", 9)
    land(s, "inside", 4)
    count(s)
    assert f.sides[1].vp == 3
    # Turn 2, Daniel keeps the cup and Defends: Off-Hand + one ally = Drive 1, one die; three Risks.
    assert s.awaiting()[0].player == "Daniel"
    s.apply({"type": "intent", "player": "Daniel", "choice": "defend"})
    assert len(s.state.conflict.plan) == 1
    land(s, "outside", 3)
    for face in (7, 2, 5):
        risk(s)
        land(s, "inside", face)
    count(s)
    assert f.sides[0].vp == 5 and f.sides[0].heat == 7
    # Turn 3, the cup moves to Jason: a Curse and a Pass, then four Risks for two Passes and two Merits.
    assert s.awaiting()[0].player == "Jason"
    s.apply({"type": "intent", "player": "Jason", "choice": "defend"})
    land(s, "touching", 5)
    land(s, "inside", 6)
    for face in (8, 9, 1, 2):
        risk(s)
        land(s, "inside", face)
    count(s)
    assert f.sides[1].vp == 10 and f.sides[1].heat == 7
    # Turn 4, Roger at Drive 2: a Pass and a Curse, four Risks, and a knocked die turns his Pass to a Merit.
    assert s.awaiting()[0].player == "Roger"
    s.apply({"type": "intent", "player": "Roger", "choice": "defend"})
    land(s, "inside", 7)
    land(s, "outside", 1)
    for zone, face in [("inside", 6), ("inside", 3), ("inside", 0), ("outside", 2)]:
        risk(s)
        land(s, zone, face)
    s.apply({"type": "correct", "player": None, "die": 1, "zone": "inside", "face": 2})
    count(s)
    assert f.sides[0].vp == 11              # 5 + (2 + 1 + 2 + 1): he lives, 11 against 10
    assert f.sides[0].heat == 11            # 7 + 4 Risks
    # Turn 5, Eoin: two Merits, 14.
    s.apply({"type": "intent", "player": "Eoin", "choice": "defend"})
    land(s, "inside", 1)
    land(s, "inside", 5)
    count(s)
    assert f.sides[1].vp == 14
    # Turn 6, Daniel Ditches: Rikard, the one under attack, dies; Heats back to 3 and VP to 0.
    assert s.awaiting()[0].player == "Daniel" and f.attacked == "Roger"
    s.apply({"type": "intent", "player": "Daniel", "choice": "ditch"})
    assert drive(s, "Roger") == "R.I.P."
    assert [x.heat for x in f.sides] == [3, 3] and [x.vp for x in f.sides] == [0, 0]
    assert s.state.phase == "take_cup" and {p.player for p in s.awaiting() if not p.optional} == {"Eoin", "Jason"}


def test_finale_dice_score_one_by_one_two_merits_two_passes_are_6_not_a_boon():
    s = finale_example_session()
    s.apply({"type": "take_cup", "player": "Jason", "target": "Roger"})
    land(s, "inside", 1)
    land(s, "inside", 2)
    risk(s)
    land(s, "inside", 7)
    risk(s)
    land(s, "inside", 8)
    count(s)
    assert s.state.finale.sides[1].vp == 6


def test_an_attack_without_more_vp_than_the_enemy_kills_the_attacker():
    s = finale_example_session()
    s.apply({"type": "take_cup", "player": "Jason", "target": "Roger"})
    land(s, "outside", 1)
    land(s, "outside", 2)
    count(s)
    assert drive(s, "Jason") == "R.I.P."
    assert s.state.finale.leader == 0


def test_a_fallen_heat_in_the_finale_kills_the_thrower_and_resets_everything():
    s = finale_example_session()
    s.apply({"type": "take_cup", "player": "Eoin", "target": "Roger"})
    land(s, "inside", 1)
    fall(s, [2, 3])
    assert drive(s, "Eoin") == "R.I.P."
    f = s.state.finale
    assert [x.heat for x in f.sides] == [3, 3] and f.leader == 0


def test_last_team_standing_tells_the_epilogue():
    s = played("hell-for-leather-finale-ditch")     # the Finale example's end: Rikard dead, Dillon at Off-Hand
    assert drive(s, "Roger") == "R.I.P." and drive(s, "Daniel") == "Off-Hand"
    s.apply({"type": "take_cup", "player": "Eoin", "target": "Daniel"})
    land(s, "inside", 1)
    land(s, "inside", 2)
    count(s)
    s.apply({"type": "intent", "player": "Daniel", "choice": "ditch"})
    assert s.state.phase == "epilogue"
    for p in ("Eoin", "Jason"):
        s.apply({"type": "epilogue", "player": p})
    assert s.outcome.startswith("Team B wins")


def test_the_smaller_team_gets_one_more_drive_level_in_the_finale():
    s = ready(players=["Daniel", "Roger", "Eoin", "Jason", "Susan"], team_a=["Daniel", "Roger"],
              goal_target=1)
    assert s.state.smaller_team == 0
    pass_turn(s)                                 # Daniel: Team A 1 VP
    pass_turn(s)                                 # Team B
    merit_turn(s)                                # Roger: Team A 3 VP
    until_narrator(s, "Daniel")
    assert team(s, "Daniel").vp == 3
    call(s)
    land(s, "inside", 1)
    count(s)                                     # 5 VP
    s.apply({"type": "buy_goal", "player": "Daniel", "bonus": "heat"})
    assert s.state.finale.rewards_left == 1
    s.apply({"type": "reward", "player": "Daniel", "use": "vp"})
    for p in list(s.state.finale.entrances):
        s.apply({"type": "entrance", "player": p})
    s.apply({"type": "take_cup", "player": "Daniel", "target": "Eoin"})
    assert len(s.state.conflict.plan) == 3       # Drive 1, +1 for Roger, +1 for the smaller team


# -- Appendices ------------------------------------------------------------------------------

def test_exams_rank_the_players_and_split_the_teams():
    from kiosk.rules import Session
    from kiosk.rules.hell_for_leather import ENGINE
    s = Session(ENGINE, {"players": ["Eoin", "Jason", "Daniel", "Roger"], "exams": True})
    for p, points in [("Eoin", 4), ("Jason", 5), ("Daniel", 3), ("Roger", 6)]:
        s.apply({"type": "exam", "player": p, "points": points})
    assert s.state.exam_ranking == ["Roger", "Jason", "Eoin", "Daniel"]
    assert s.state.teams[0].members == ["Roger", "Daniel"] and s.state.teams[1].members == ["Jason", "Eoin"]
    assert s.state.teams[0].vp == 1
    assert s.state.contestants["Roger"].extra_circle and s.state.contestants["Jason"].extra_circle
    assert not s.state.contestants["Eoin"].extra_circle


def test_exam_ties_go_to_sudden_death_dice():
    from kiosk.rules import Session
    from kiosk.rules.hell_for_leather import ENGINE
    s = Session(ENGINE, {"players": ["Eoin", "Jason", "Daniel", "Roger"], "exams": True})
    for p, points in [("Eoin", 5), ("Jason", 5), ("Daniel", 3), ("Roger", 6)]:
        s.apply({"type": "exam", "player": p, "points": points})
    assert s.state.phase == "tiebreak"
    s.apply({"type": "sudden_death", "player": "Eoin", "zone": "inside", "face": 7})
    s.apply({"type": "sudden_death", "player": "Jason", "zone": "inside", "face": 7})
    assert s.state.phase == "tiebreak"          # still tied: again
    s.apply({"type": "sudden_death", "player": "Eoin", "zone": "inside", "face": 2})
    s.apply({"type": "sudden_death", "player": "Jason", "zone": "outside", "face": 2})
    assert s.state.exam_ranking == ["Roger", "Eoin", "Jason", "Daniel"]


def test_contestant_1s_spare_circle_takes_the_first_trauma_only():
    s = played("hell-for-leather-exams")         # Roger tops the exams: Contestant 1 of Team A
    bios(s)
    goals(s)
    assert s.view()["contestants"]["Roger"]["spare_circle"]
    until_narrator(s, "Roger")
    trauma_turn(s)
    assert drive(s, "Roger") == "Drive 1" and not s.view()["contestants"]["Roger"]["spare_circle"]
    until_narrator(s, "Roger")
    trauma_turn(s)
    assert drive(s, "Roger") == "Off-Hand"


def test_a_caught_die_counts_its_lower_number():
    s = ready()
    call(s)
    land(s, "inside", 6, caught=5)
    count(s)
    assert s.state.last_result == "Merit"


def test_knocking_the_table_is_forgiven_once_then_a_felony():
    s = ready()
    s.apply({"type": "table_knock", "player": None, "who": "Roger"})
    assert s.state.contestants["Roger"].felony == 0
    s.apply({"type": "table_knock", "player": None, "who": "Roger"})
    assert s.state.contestants["Roger"].felony == 1


def test_a_fall_while_taking_dice_off_does_not_count():
    s = ready()
    before = s.state.model_copy(deep=True)
    fall(s, [2, 3], thrower="Daniel", cause="taking_off")
    assert s.state.teams == before.teams and s.state.contestants == before.contestants


def daniel_at_drive_0_takes_a_trauma(**setup):
    """Three Traumas take Dillon to Drive 0; at his next conflict a Risk gives him a die, and the Heat
    falls for a Curse of 12: a fourth Trauma."""
    s = ready(**setup)
    for _ in range(3):
        until_narrator(s, "Daniel")
        trauma_turn(s)
    assert drive(s, "Daniel") == "Drive 0"
    until_narrator(s, "Daniel")
    call(s)
    assert s.state.conflict.plan == []           # Drive 0: no dice of his own
    risk(s)
    fall_for(s, 12)
    return s


def test_dying_option_gives_the_other_team_a_free_goal_and_returns_at_shotgun():
    s = daniel_at_drive_0_takes_a_trauma(dying=True)
    assert drive(s, "Daniel") == "Shotgun"
    assert team(s, "Eoin").goals_done == 1


def test_without_the_dying_option_a_trauma_at_drive_0_is_rip_and_the_dead_never_act():
    s = daniel_at_drive_0_takes_a_trauma()
    assert drive(s, "Daniel") == "R.I.P."
    for _ in range(6):
        assert all(p.player != "Daniel" for p in s.awaiting())
        pass_turn(s)
        assert narrator(s) != "Daniel"


# -- Co-op and Storming the Gauntlet ---------------------------------------------------------

def coop(**extra):
    return ready(mode="coop", players=["Susan", "Alex", "Joe"], **extra)


def test_coop_only_the_narrator_moves_and_everyone_else_is_the_adversary():
    s = coop()
    assert narrator(s) == "Susan"
    assert {p.player for p in s.awaiting() if p.action == "call_conflict"} == {"Alex", "Joe"}
    pass_turn(s)
    assert narrator(s) == "Alex" and s.view()["active_team"] == "Team A"


def coop_at_goal(**extra):
    """A co-op table that reaches its one Goal: Merits for Susan and Alex, Joe's Pass (5 VP),
    then Susan's Merit buys it."""
    s = coop(goal_target=1, **extra)
    merit_turn(s)
    merit_turn(s)
    pass_turn(s)
    who = narrator(s)
    assert who == "Susan"
    call(s)
    land(s, "inside", 1)
    count(s)
    assert s.state.teams[0].vp == 7
    s.apply({"type": "buy_goal", "player": who, "bonus": "heat"})
    return s


def test_coop_dilemma_is_a_gamble_worth_an_extra_vp_even_with_hunters():
    s = coop()
    a = s.state.teams[0]
    call(s)
    land(s, "outside", 9)                      # Susan's Curse of 9: Hunters
    count(s)
    assert a.hunter_marks == 3 and narrator(s) == "Alex"
    s.apply({"type": "ask_dilemma", "player": "Alex"})
    s.apply({"type": "grant_dilemma", "player": "Joe", "answer": "grant"})
    assert len(s.state.conflict.plan) == 2     # Drive 1 - 2 walks the track to Shotgun: two dice at once
    land(s, "inside", 3)
    land(s, "inside", 8)
    count(s)
    assert s.state.last_result == "Merit"
    assert a.vp == 1 and a.hunter_marks == 2   # Merit VP blocked by the Hunters, the Dilemma VP kept


def test_storming_the_gauntlet():
    s = coop_at_goal()
    a = s.state.teams[0]
    g = s.state.gauntlet
    assert len(g.goals) == 5 and a.vp == 0 and a.heat == 5     # 2 + one per player
    while s.state.phase == "goals":
        p = next(x for x in s.awaiting() if x.action == "roll_goal")
        s.apply({"type": "roll_goal", "player": p.player})
    assert all(g.goals)
    actions = {p.action for p in s.awaiting()}
    assert "ask_dilemma" not in actions
    call(s)
    assert not any(p.action == "call_help" for p in s.awaiting())
    land(s, "outside", 9)
    count(s)
    assert a.heat == 6 and a.hunter_marks == 0            # no Curse chart; the Heat rises anyway
    call(s)
    land(s, "inside", 8)
    risk(s)
    land(s, "inside", 8)                                    # no Felony in the Gauntlet
    assert not s.state.conflict.felony_open
    count(s)
    assert a.heat == 8                                      # +1 Risk, +1 after the conflict
    call(s)
    who = s.state.conflict.narrator
    fall(s, [1, 1])
    assert drive(s, who) == "R.I.P."


def test_coop_showdown_splits_the_survivors():
    s = coop_at_goal(coop_finale="showdown")
    f = s.state.finale
    assert [x.members for x in f.sides] == [["Susan", "Joe"], ["Alex"]]
    assert f.sides[1].bonus == 1


def test_felony_dice_option_drive_lifts_drive_0_to_off_hand_for_a_two_star_felony():
    """The Drive track's example, read literally: the Felony's stars raise the Drive for this conflict."""
    s = played("hell-for-leather-felony-lifts-drive-0", leave=5)   # three Traumas: Jason at Drive 0
    assert narrator(s) == "Jason" and drive(s, "Jason") == "Drive 0"
    call(s)
    risk(s)
    land(s, "inside", 9)                          # the Risk die is a Pass: a Felony
    land(s, "inside", 7)
    land(s, "inside", 1)                          # two stars
    assert s.state.contestants["Jason"].felony == 2
    assert thrower(s) == "Jason"                   # Drive 0 + 2 levels = Off-Hand: one more die
    land(s, "outside", 6)
    count(s)
    # The grading Merit does not count under this option: Pass (Risk die) beats the Curse.
    assert s.state.last_result == "Pass"


def test_goals_are_written_last_first_alternating_between_teams():
    from kiosk.rules import Session
    from kiosk.rules.hell_for_leather import ENGINE
    from .table import TEAM_SETUP, bios
    s = Session(ENGINE, {**TEAM_SETUP, "goal_target": 3})
    bios(s)
    order = []
    for goal in ["Use a hostage to get in", "Assassinate the chief", "Face darkest fear", "Steal a jet",
                 "Kidnap the twins", "Hijack a catamaran"]:
        prompt = next(p for p in s.awaiting() if p.action == "write_goal")
        order.append(s.state.teams[s.state.contestants[prompt.player].team].name)
        s.apply({"type": "write_goal", "player": prompt.player, "goal": goal})
    assert order == ["Team A", "Team B"] * 3
    assert s.state.teams[1].goals == ["Kidnap the twins", "Face darkest fear", "Use a hostage to get in"]
    assert s.state.teams[0].goals == ["Hijack a catamaran", "Steal a jet", "Assassinate the chief"]


def test_finale_risks_example_curse_then_pass_merit_merit_is_5_vp_at_heat_6():
    s = played("hell-for-leather-finale-risks", leave=9)   # after the Ditch: Daniel alone, Heats at 3
    assert s.awaiting()[0].action == "intent" and s.state.finale.sides[0].heat == 3
    s.apply({"type": "intent", "player": "Daniel", "choice": "defend"})
    assert len(s.state.conflict.plan) == 1          # Off-Hand, no ally left: one die
    land(s, "outside", 5)
    for face in (7, 3, 1):
        risk(s)
        land(s, "inside", face)
    count(s)
    assert s.state.finale.sides[0].vp == 5 and s.state.finale.sides[0].heat == 6


def test_level_2_has_curses_and_felonies_but_no_vp_and_ends_after_its_practice_conflicts():
    s = ready(fluency=2, practice_conflicts=3)
    call(s)
    land(s, "outside", 5)
    count(s)
    assert team(s, "Daniel").heat == 3 and team(s, "Daniel").vp == 0      # Gain Heat, no VP at level 2
    call(s)
    land(s, "inside", 6)
    risk(s)
    land(s, "inside", 6)
    assert s.state.conflict.felony_open                                  # Felonies exist at level 2
    land(s, "inside", 2)
    count(s)
    assert team(s, "Eoin").vp == 0 and s.state.contestants["Eoin"].felony == 1
    assert not any(p.action in ("offer_dilemma", "ask_dilemma") for p in s.awaiting())
    merit_turn(s)
    assert s.outcome == "Practice session over after 3 conflicts."


def test_a_boon_cues_a_happy_flashback_with_the_why_and_a_hobby_and_lowers_the_heat():
    s = ready()
    gain_heat_turn(s)                         # Daniel: Heat 3
    pass_turn(s)
    gain_heat_turn(s)                         # Roger: Heat 4
    pass_turn(s)
    pass_turn(s)                              # Daniel: 1 VP
    until_narrator(s, "Daniel")
    assert team(s, "Daniel").heat == 4 and team(s, "Daniel").vp >= 1
    call(s)
    s.apply({"type": "call_help", "player": "Daniel", "allies": ["Roger"]})
    land(s, "inside", 1)
    land(s, "inside", 5)
    count(s)
    assert s.state.last_result == "Boon" and team(s, "Daniel").heat == 3
    story = " ".join(s.recap()[-4:])
    assert "flashback" in story and "Brother in Belmarsh" in story and "Hip Hop" in story


