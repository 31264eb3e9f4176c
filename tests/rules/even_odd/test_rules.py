"""The Even/Odd case game, rule by rule, as a table would notice it."""

from __future__ import annotations


import pytest
from pydantic import ValidationError

from kiosk.rules import RuleError, Session
from kiosk.rules.even_odd import ENGINE
from tests.rules.harness import public_text


def opened(players=("Ann", "Bo", "Cy"), **options) -> Session:
    """A session past the opening scenes (physical dice unless told otherwise)."""
    setup = {"players": list(players), "dice": "physical", **options}
    s = Session(ENGINE, setup)
    for p in players:
        s.apply({"type": "introduce", "player": p, "name": f"Agent {p}", "description": "sharp"})
    lead = lambda: s.state.lead_name  # noqa: E731
    s.apply({"type": "crime_scene", "player": lead(), "victim": "Olive Marsh", "case": "The Glass Orchard"})
    s.apply({"type": "suspect", "player": lead(), "name": "Felix", "details": "the gardener"})
    s.apply({"type": "suspect", "player": lead(), "name": "Greta", "details": "the niece"})
    return s


def stake(s: Session, **stakes: tuple[str, int]) -> None:
    for player, (side, points) in stakes.items():
        s.apply({"type": "wager", "player": player, "side": side, "points": points})


def roll(s: Session, faces: list[int]) -> None:
    s.apply({"type": "roll", "player": s.state.lead_name, "faces": faces})


def total(s: Session) -> int:
    st = s.state
    staked = sum(w.points for w in st.wagers.values())
    return sum(st.pools.values()) + staked + sum(st.papers.values()) + st.epilogue_pool


# -- setting up ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players, share", [(["A", "B"], 6), (["A", "B", "C"], 4), (["A", "B", "C", "D"], 3)])
def test_twelve_points_are_split_evenly(players, share):
    s = Session(ENGINE, {"players": players})
    assert s.state.pools == {p: share for p in players}
    assert total(s) == 12


def test_setup_refuses_five_players_duplicates_and_a_stranger_as_first_lead():
    with pytest.raises(ValidationError, match="at most 4"):
        Session(ENGINE, {"players": ["A", "B", "C", "D", "E"]})
    with pytest.raises(ValidationError, match="names must differ"):
        Session(ENGINE, {"players": ["A", "A"]})
    with pytest.raises(ValidationError, match="'Zed' is not one of the players"):
        Session(ENGINE, {"players": ["A", "B"], "first_lead": "Zed"})
    assert Session(ENGINE, {"players": ["A", "B"], "first_lead": " "}).state.lead_name == "A"  # blank: first listed


def test_everyone_introduces_an_investigator_before_the_crime_scene():
    s = Session(ENGINE, {"players": ["Ann", "Bo"]})
    assert sorted(p.player for p in s.awaiting()) == ["Ann", "Bo"]
    s.apply({"type": "introduce", "player": "Bo", "name": "Sal Moreno", "description": "vice squad"})
    with pytest.raises(RuleError, match="whose turn"):
        s.apply({"type": "introduce", "player": "Bo", "name": "Again", "description": "twice"})
    s.apply({"type": "introduce", "player": "Ann", "name": "Iris Pell", "description": "forensics"})
    assert s.state.phase == "crime_scene"
    assert s.view()["characters"]["Bo"] == {"name": "Sal Moreno", "description": "vice squad"}


def test_the_lead_passes_clockwise_from_the_chosen_first_lead_through_the_opening_scenes():
    s = Session(ENGINE, {"players": ["Ann", "Bo", "Cy", "Dee"], "first_lead": "Cy"})
    for p in ["Ann", "Bo", "Cy", "Dee"]:
        s.apply({"type": "introduce", "player": p, "name": p, "description": "x"})
    assert [p.player for p in s.awaiting()] == ["Cy"]
    with pytest.raises(RuleError, match="whose turn"):
        s.apply({"type": "crime_scene", "player": "Ann", "victim": "V", "case": "C"})
    s.apply({"type": "crime_scene", "player": "Cy", "victim": "Olive Marsh", "case": "The Glass Orchard"})
    s.apply({"type": "suspect", "player": "Dee", "name": "Felix", "details": "the gardener"})
    s.apply({"type": "suspect", "player": "Ann", "name": "Greta", "details": "the niece"})
    view = s.view()
    assert view["case"] == "The Glass Orchard" and view["victim"] == "Olive Marsh"
    assert view["suspects"]["even"]["name"] == "Felix" and view["suspects"]["odd"]["name"] == "Greta"
    assert (view["phase"], view["scene"], view["lead"]) == ("wagers", 1, "Bo")


def test_each_investigation_scene_has_the_next_lead():
    s = opened()  # Ann: crime scene, Bo: Even, Cy: Odd, so Ann leads scene 1
    leads = []
    for _ in range(3):
        leads.append(s.state.lead_name)
        lead = s.state.lead_name
        stake(s, **{p: ("even", 1) if p == lead else ("odd", 0) for p in ("Ann", "Bo", "Cy")})
        roll(s, [2])
    assert leads == ["Ann", "Bo", "Cy"] and s.state.lead_name == "Ann"


# -- wagers ---------------------------------------------------------------------------------------


def test_the_lead_must_stake_at_least_one_point_others_may_stake_none():
    s = opened()
    with pytest.raises(RuleError, match="Lead Investigator stakes at least one point"):
        stake(s, Ann=("even", 0))
    stake(s, Bo=("odd", 0), Ann=("even", 1))
    assert s.state.wagers["Bo"].points == 0


def test_the_engine_itself_refuses_a_lead_staking_nothing():
    s = opened()
    wager = ENGINE.actions.validate_python({"type": "wager", "player": "Ann", "side": "odd", "points": 0})
    with pytest.raises(RuleError) as err:
        ENGINE.apply(s.state, wager, s.rng)
    assert err.value.rule == "the Lead Investigator stakes at least one point"
    assert s.state.pools["Ann"] == 4


def test_staking_more_than_your_pool_is_refused_and_costs_nothing():
    s = opened()
    with pytest.raises(RuleError, match=r"a wager comes out of your own pool \(0 to 4\)"):
        stake(s, Bo=("even", 5))
    with pytest.raises(RuleError, match="own pool"):
        ENGINE.apply(s.state, ENGINE.actions.validate_python(
            {"type": "wager", "player": "Bo", "side": "even", "points": 5}), s.rng)
    assert s.state.pools["Bo"] == 4 and "Bo" not in s.state.wagers


def test_a_malformed_wager_is_refused_naming_what_is_wrong():
    s = opened()
    with pytest.raises(RuleError, match="side"):
        s.apply({"type": "wager", "player": "Bo", "side": "maybe", "points": 1})
    with pytest.raises(RuleError, match="points"):
        s.apply({"type": "wager", "player": "Bo", "side": "even", "points": "two"})
    assert s.state.wagers == {} and s.state.pools["Bo"] == 4


def test_a_locked_wager_cannot_be_changed():
    s = opened()
    stake(s, Bo=("odd", 2))
    with pytest.raises(RuleError, match="whose turn"):
        stake(s, Bo=("even", 1))
    with pytest.raises(RuleError, match="one secret wager"):
        ENGINE.apply(s.state, ENGINE.actions.validate_python(
            {"type": "wager", "player": "Bo", "side": "even", "points": 1}), s.rng)


def test_wagers_stay_secret_until_the_last_one_is_locked():
    s = opened()
    stake(s, Bo=("odd", 3), Cy=("even", 2))
    public = s.view()
    assert public["wagers"] == {} and public["locked"] == ["Bo", "Cy"]
    assert public["pools"] == {"Ann": 4, "Bo": 4, "Cy": 4}  # staked dice stay hidden in the hand
    assert all(p["fields"] == [] for p in public["awaiting"])
    other = opened()
    stake(other, Bo=("even", 1), Cy=("odd", 4))  # different secrets, same public picture
    assert public_text(other) == public_text(s)
    assert s.view("Bo")["my_wager"] == {"side": "odd", "points": 3}
    assert s.view("Cy")["my_wager"] == {"side": "even", "points": 2} and "my_wager" not in s.view("Ann")
    assert "You staked 3 on Odd." in s.recap("Bo") and "You staked 3 on Odd." not in s.recap("Cy")
    stake(s, Ann=("even", 1))
    public = s.view()
    assert public["wagers"]["Bo"] == {"side": "odd", "points": 3}
    assert public["pools"] == {"Ann": 3, "Bo": 1, "Cy": 2}
    assert "Wagers revealed: Bo 3 on Odd, Cy 2 on Even, Ann 1 on Even. 6 dice to roll." in s.recap()
    reveal = s.events[-1]
    assert reveal.to is None and reveal.data == {
        "faces": {"Bo": "3 on Odd", "Cy": "2 on Even", "Ann": "1 on Even"}, "summary": "6 dice to roll."}


def test_a_single_die_to_roll_is_said_in_the_singular():
    """One point staked in all: the reveal says "1 die to roll.", never "1 dice"."""
    s = opened()
    stake(s, Ann=("even", 1), Bo=("odd", 0), Cy=("even", 0))
    assert s.events[-1].data["summary"] == "1 die to roll."
    assert "1 dice" not in " ".join(s.recap())
    asked = [p.text for p in s.awaiting() if p.action in ("roll", "count")]
    assert len(asked) == 2 and all("(1 real die)" in text for text in asked), asked  # both ways to enter it


# -- counting the vote -------------------------------------------------------------------------------


def test_an_even_majority_points_to_the_even_suspect():
    s = opened()
    stake(s, Ann=("even", 2), Bo=("odd", 1), Cy=("even", 1))
    roll(s, [2, 4, 6, 5])
    assert s.state.papers == {"even": 3, "odd": 0}
    assert s.state.epilogue_pool == 1
    assert "The evidence points to Felix (the Even Suspect): 3 to their paper, 1 to the Epilogue Pool." in s.recap()[-2]
    assert total(s) == 12


def test_an_odd_majority_points_to_the_odd_suspect():
    s = opened()
    stake(s, Ann=("even", 2), Bo=("odd", 1), Cy=("even", 1))
    roll(s, [1, 3, 5, 2])
    assert s.state.papers == {"even": 0, "odd": 1}
    assert s.state.epilogue_pool == 3


def test_option_faces_moves_the_dice_that_showed_the_winning_parity():
    s = opened(voted_dice="faces")
    stake(s, Ann=("even", 2), Bo=("odd", 1), Cy=("even", 1))
    roll(s, [2, 4, 6, 5])
    assert s.state.papers == {"even": 3, "odd": 0} and s.state.epilogue_pool == 1
    s2 = opened(voted_dice="faces")
    stake(s2, Ann=("even", 2), Bo=("odd", 1), Cy=("even", 1))
    roll(s2, [1, 3, 5, 2])
    assert s2.state.papers == {"even": 0, "odd": 3} and s2.state.epilogue_pool == 1


def test_a_tie_is_inconclusive_and_sends_the_dice_to_the_epilogue_pool():
    s = opened()
    stake(s, Ann=("even", 2), Bo=("odd", 2), Cy=("odd", 0))
    roll(s, [2, 4, 1, 3])
    assert s.state.papers == {"even": 0, "odd": 0} and s.state.epilogue_pool == 4
    assert s.state.history[-1].points_to is None
    assert "Inconclusive: all 4 dice go to the Epilogue Pool." in s.recap()[-2]


def test_option_return_gives_tied_dice_back_to_their_owners():
    s = opened(tie_dice="return")
    stake(s, Ann=("even", 2), Bo=("odd", 2), Cy=("odd", 0))
    roll(s, [2, 4, 1, 3])
    assert s.state.pools == {"Ann": 4, "Bo": 4, "Cy": 4} and s.state.epilogue_pool == 0


def test_real_dice_can_be_entered_as_a_count_of_even_faces():
    s = opened()
    stake(s, Ann=("odd", 3), Bo=("odd", 0), Cy=("even", 0))
    with pytest.raises(RuleError, match="0 to 3 even faces"):
        s.apply({"type": "count", "player": "Ann", "evens": 4})
    with pytest.raises(RuleError, match="enter 3 faces from 1 to 6"):
        s.apply({"type": "roll", "player": "Ann", "faces": [1, 2]})
    with pytest.raises(RuleError, match="whose turn"):
        s.apply({"type": "count", "player": "Bo", "evens": 1})
    s.apply({"type": "count", "player": "Ann", "evens": 1})
    assert s.state.papers["odd"] == 3


def test_virtual_dice_come_from_the_session_and_refuse_typed_faces():
    s = opened(dice="virtual", seed=11)
    stake(s, Ann=("odd", 4), Bo=("even", 0), Cy=("even", 0))
    with pytest.raises(RuleError, match="virtual dice"):
        s.apply({"type": "roll", "player": "Ann", "faces": [1, 1, 1, 1]})
    with pytest.raises(RuleError, match="not expected now"):
        s.apply({"type": "count", "player": "Ann", "evens": 2})
    s.apply({"type": "roll", "player": "Ann"})
    faces = s.state.history[-1].faces
    assert len(faces) == 4 and all(1 <= f <= 6 for f in faces)
    again = opened(dice="virtual", seed=11)
    stake(again, Ann=("odd", 4), Bo=("even", 0), Cy=("even", 0))
    again.apply({"type": "roll", "player": "Ann"})
    assert again.state.history[-1].faces == faces


# -- the Final Scene and the epilogue ---------------------------------------------------------------


def to_final(papers_even: bool = False, **options) -> Session:
    """Two players, 6 points each. Bo leads scene 1 (Ann set the crime scene and the Odd Suspect).

    Ann stakes all six on Even, Bo two on Odd. Then Ann leads scene 2 with an empty pool: the Final
    Scene. With ``papers_even`` the roll is a 4-4 tie and both papers stay empty; otherwise the odd
    faces win, Bo's two dice go on the Odd Suspect's paper and Ann's six into the Epilogue Pool."""
    s = opened(players=("Ann", "Bo"), **options)
    assert s.state.lead_name == "Bo"
    stake(s, Ann=("even", 6), Bo=("odd", 2))
    roll(s, [1, 3, 5, 1, 2, 4, 6, 2] if papers_even else [1, 3, 5, 1, 3, 2, 4, 6])
    return s


def test_players_with_empty_pools_are_not_asked_to_wager():
    s = opened()  # Ann leads scene 1
    stake(s, Ann=("even", 1), Bo=("odd", 0), Cy=("odd", 4))
    roll(s, [1, 3, 5, 2, 4])
    assert s.state.lead_name == "Bo" and s.state.pools["Cy"] == 0
    assert sorted(p.player for p in s.awaiting()) == ["Ann", "Bo"]
    stake(s, Ann=("odd", 1), Bo=("even", 1))
    assert s.state.phase == "roll"  # revealed without waiting for Cy


def test_final_scene_when_the_lead_has_nothing_left_and_leftovers_join_the_epilogue_pool():
    s = to_final()
    assert s.state.phase == "final" and s.state.lead_name == "Ann"
    assert s.state.pools == {"Ann": 0, "Bo": 0}
    assert s.state.papers == {"even": 0, "odd": 2}
    assert s.state.epilogue_pool == 6 + 4  # Ann's six losing dice, then Bo's four leftover points
    assert total(s) == 12
    [prompt] = s.awaiting()
    assert prompt.player == "Ann" and prompt.fields[0].choices == ["odd"]
    with pytest.raises(RuleError, match="most points on their paper"):
        s.apply({"type": "accuse", "player": "Ann", "suspect": "even"})
    with pytest.raises(RuleError, match="most points on their paper"):
        ENGINE.apply(s.state, ENGINE.actions.validate_python(
            {"type": "accuse", "player": "Ann", "suspect": "even"}), s.rng)


def test_justice_is_served_when_the_accused_still_has_the_most_after_the_epilogue():
    s = to_final()
    s.apply({"type": "accuse", "player": "Ann", "suspect": "odd"})
    assert s.state.phase == "epilogue" and s.outcome is None
    s.apply({"type": "roll", "player": "Ann", "faces": [2, 4, 6, 1, 1, 1, 3, 3, 5, 5]})
    assert s.state.papers == {"even": 3, "odd": 9} and s.state.epilogue_pool == 0
    assert s.outcome == "Justice is served: Greta (the Odd Suspect) was the killer."
    assert total(s) == 12


def test_an_innocent_is_convicted_when_the_epilogue_overturns_the_papers():
    s = to_final()
    s.apply({"type": "accuse", "player": "Ann", "suspect": "odd"})
    s.apply({"type": "count", "player": "Ann", "evens": 8})
    assert s.state.papers == {"even": 8, "odd": 4}
    assert s.outcome == "An innocent was convicted: Greta (the Odd Suspect) did not do it."


def test_level_papers_at_the_final_scene_let_the_lead_choose_by_default():
    s = to_final(papers_even=True)
    assert s.state.papers == {"even": 0, "odd": 0} and s.state.epilogue_pool == 12
    [prompt] = s.awaiting()
    assert prompt.fields[0].choices == ["even", "odd"]
    s.apply({"type": "accuse", "player": "Ann", "suspect": "even"})
    assert s.state.accused == "even"
    assert any("Ann breaks the tie and accuses Felix (the Even Suspect)" in line for line in s.recap())


def test_option_vote_settles_level_papers_by_secret_votes():
    s = to_final(papers_even=True, accusation_tie="vote")
    assert s.state.phase == "vote"
    s.apply({"type": "vote", "player": "Bo", "suspect": "even"})
    assert s.view()["votes"] == {} and s.view()["voted"] == ["Bo"]
    other = to_final(papers_even=True, accusation_tie="vote")
    other.apply({"type": "vote", "player": "Bo", "suspect": "odd"})
    assert public_text(other) == public_text(s)
    assert s.view("Bo")["my_vote"] == "even" and "my_vote" not in s.view("Ann")
    s.apply({"type": "vote", "player": "Ann", "suspect": "odd"})
    assert s.state.accused == "odd"  # one vote each: the final lead (Ann) decides
    assert s.view()["votes"] == {"Bo": "even", "Ann": "odd"}


def test_a_level_result_after_the_epilogue_is_not_justice_unless_the_option_says_so():
    for option, expected in (("innocent", False), ("justice", True)):
        s = to_final(epilogue_tie=option)
        s.apply({"type": "accuse", "player": "Ann", "suspect": "odd"})
        s.apply({"type": "count", "player": "Ann", "evens": 6})  # even 6, odd 2 + 4
        assert s.state.papers == {"even": 6, "odd": 6}
        assert s.state.justice is expected


def test_nothing_more_after_the_verdict():
    s = to_final()
    s.apply({"type": "accuse", "player": "Ann", "suspect": "odd"})
    s.apply({"type": "count", "player": "Ann", "evens": 0})
    assert s.outcome is not None and s.awaiting() == []
    with pytest.raises(RuleError, match="the game is over"):
        s.apply({"type": "count", "player": "Ann", "evens": 0})
