"""Face-Offs: Venus Dee Yellow's tie, who may call and vote, and how the game ends."""

import random

import pytest

from kiosk.rules import RuleError
from kiosk.rules.promise_hollows import ENGINE, actions, wins
from kiosk.rules.promise_hollows.face_off import decide

from .helpers import build, do

VENUS = {"need": "Just trying to protect someone", "need_object": "Her son",
         "guilt": "Has not told her son who his real father is"}


def venus_at_one(**options):
    """Jane (Venus Dee Yellow) sells pips for Color down to 2, then Joe wins a challenge and buys
    her secret for 2: her Private Die reaches 1 and the Face-Off window opens."""
    s = build(names={"Jane": "Venus Dee Yellow"}, privates={"Jane": VENUS}, case_author="Cece",
              enemies={"Cece": "Bee", "Bee": "Joe"}, **options)
    do(s, "open_scene", "Joe")  # the Save the Puppies fund-raising dinner
    do(s, "stay_out", "Bee")
    do(s, "stay_out", "Cece")
    for _ in range(4):
        do(s, "buy_color", "Jane")
    assert s.state.people["Jane"].die == 2
    do(s, "ante", "Jane", how="character")
    do(s, "challenge", "Joe", target="Jane")
    do(s, "lock_card", "Joe", card="Gray")
    do(s, "lock_card", "Jane", card="Black")
    do(s, "buy_revelation", "Joe", target="Jane")
    do(s, "reveal_part", "Jane", part="need")
    assert s.state.people["Jane"].die == 1
    return s


def venus_escapes(**options):
    s = venus_at_one(**options)
    do(s, "declare_face_off", "Joe", suspect="Jane")  # "aha!"
    do(s, "join_accusers", "Bee", join=False)
    do(s, "join_accusers", "Cece", join=True)
    do(s, "vote", "Joe", card="White")
    do(s, "vote", "Cece", card="Black")
    return s


def test_a_die_at_one_opens_a_face_off_and_mr_gray_has_first_claim():
    s = venus_at_one()
    assert s.state.phase == "face_off"
    assert {(p.player, p.action) for p in s.awaiting()} == {("Joe", "declare_face_off"), ("Joe", "decline_face_off")}
    assert "Just trying to protect someone" in " ".join(s.recap(None))


def test_venus_dee_yellow_tie_white_black_confesses_and_escapes():
    s = venus_escapes()
    jane = next(p for p in s.view(None)["players"] if p["player"] == "Jane")
    assert jane["out"] == "White"
    assert jane["confessed"] == VENUS["guilt"]
    assert "The verdict is White." in " ".join(s.recap(None))
    # she had no role in the case: the true killer is still at large
    assert s.outcome is None and s.state.phase == "story"
    assert all(p.player != "Jane" for p in s.awaiting())


def test_votes_stay_secret_until_all_accusers_have_voted():
    s = venus_at_one()
    do(s, "declare_face_off", "Joe", suspect="Jane")
    do(s, "join_accusers", "Bee", join=True)
    do(s, "join_accusers", "Cece", join=True)
    do(s, "vote", "Joe", card="Black")
    public = s.view(None)
    assert public["face_off"]["voted"] == ["Joe"] and "Black" not in " ".join(s.recap(None)[-2:])
    assert s.view("Joe")["me"]["vote"] == "Black" and s.view("Bee")["me"]["vote"] is None
    with pytest.raises(RuleError):
        do(s, "vote", "Joe", card="Gray")  # a locked vote stays locked
    do(s, "vote", "Bee", card="Gray")
    do(s, "vote", "Cece", card="Gray")
    assert s.state.people["Jane"].die == 6 and s.state.people["Jane"].active


def test_when_mr_gray_declines_anyone_else_may_call_it():
    s = venus_at_one()
    do(s, "decline_face_off", "Joe")
    assert {p.player for p in s.awaiting()} == {"Bee", "Cece"}
    do(s, "decline_face_off", "Bee")
    do(s, "decline_face_off", "Cece")
    assert s.state.phase == "story" and s.state.exposed == []


def test_nobody_calls_a_face_off_on_himself():
    s = venus_at_one()
    do(s, "decline_face_off", "Joe")
    with pytest.raises(RuleError):
        do(s, "declare_face_off", "Jane", suspect="Jane")


def cece_exposed_after_venus():
    """After Venus has gone, Cece (the Criminal) sells pips down to 1 in Bee's scene."""
    s = venus_escapes()
    do(s, "open_scene", "Bee")
    for _ in range(5):
        do(s, "buy_color", "Cece")
    do(s, "stay_out", "Cece")
    do(s, "ante", "Joe", how="character")
    do(s, "challenge", "Bee", target="Joe")
    do(s, "lock_card", "Bee", card="White")
    do(s, "lock_card", "Joe", card="Black")
    do(s, "skip_revelation", "Joe")
    assert s.state.phase == "face_off" and s.state.face_off.candidates == ["Cece"]
    do(s, "declare_face_off", "Joe", suspect="Cece")
    do(s, "join_accusers", "Bee", join=True)
    return s


def test_a_vote_from_a_removed_player_is_refused():
    s = cece_exposed_after_venus()
    with pytest.raises(RuleError, match="Jane is out of the story.*removed characters take no part"):
        do(s, "vote", "Jane", card="Black")
    with pytest.raises(RuleError, match="removed characters take no part"):
        ENGINE.apply(s.state.model_copy(deep=True), actions.Vote(player="Jane", card="Black"), random.Random(0))
    assert s.state.face_off.votes == {}


def test_uncovering_the_criminal_wins_for_mr_gray():
    s = cece_exposed_after_venus()
    do(s, "vote", "Joe", card="Black")
    do(s, "vote", "Bee", card="Black")
    assert s.state.winners == ["Joe"]
    assert s.outcome.startswith("Joe wins: Mr. Gray (Joe) uncovered the Criminal")
    public = s.view(None)
    assert public["criminal"] == "Cece" and public["phase"] == "over"
    with pytest.raises(RuleError, match="the game is over"):
        do(s, "open_scene", "Jane")


def test_systems_play_keeps_a_removed_player_at_the_table_with_setting_only():
    s = venus_escapes(systems_play=True)
    do(s, "open_scene", "Bee")
    do(s, "stay_out", "Cece")
    prompts = {p.action: p for p in s.awaiting() if p.player == "Jane"}
    assert prompts["ante"].fields[0].choices == ["setting"]
    do(s, "stay_out", "Jane")
    do(s, "ante", "Joe", how="character")
    do(s, "challenge", "Bee", target="Joe")
    assert any(p.player == "Jane" and p.action == "join_as_third_man" for p in s.awaiting())
    do(s, "join_as_third_man", "Jane")  # the only way a System earns Color
    assert not any(p.player == "Jane" and p.action == "buy_color" for p in s.awaiting())


# -- the vote count ---------------------------------------------------------------------


@pytest.mark.parametrize("votes, plurality, majority", [
    (["White", "Black"], "White", "Gray"),            # a tie leans to life
    (["Gray", "Black"], "Gray", "Gray"),              # ...and to innocence
    (["Black", "Black", "White"], "Black", "Black"),
    (["Black", "Black", "White", "Gray"], "Black", "Gray"),  # most votes, but not more than half
    (["White", "White", "Gray", "Gray"], "Gray", "Gray"),
    (["Black"], "Black", "Black"),
])
def test_the_face_off_count(votes, plurality, majority):
    assert decide(votes, "plurality") == plurality
    assert decide(votes, "majority") == majority


# -- who wins -------------------------------------------------------------------------------


def ended(removed, declarer="Joe", already_out=(), case_author="Cece", enemies=None):
    s = build(case_author=case_author, enemies=enemies or {})
    state = s.state.model_copy(deep=True)
    for p in (*already_out, removed):
        state.people[p].removed = "Black"
    wins.after_removal(state, removed, declarer)
    return state


def test_removing_the_investigator_wins_for_the_criminal():
    assert ended("Joe", declarer="Bee").winners == ["Cece"]


def test_mr_gray_taking_the_criminals_enemy_for_the_culprit_wins_for_the_criminal():
    assert ended("Jane", declarer="Joe", enemies={"Cece": "Jane"}).winners == ["Cece"]
    assert ended("Jane", declarer="Bee", enemies={"Cece": "Jane"}).phase == "story"


def test_the_president_wins_with_mr_gray_when_her_enemy_is_already_out():
    state = ended("Cece", already_out=("Jane",), enemies={"Bee": "Jane"})
    assert state.winners == ["Joe", "Bee"]
    assert ended("Cece", enemies={"Bee": "Jane"}).winners == ["Joe"]


def test_removing_the_president_wins_for_the_suburbanites():
    assert ended("Bee", declarer="Jane").winners == ["Cece", "Jane"]


def test_a_criminal_president_removed_wins_for_mr_gray_and_the_suburbanites():
    assert ended("Bee", case_author="Bee").winners == ["Joe", "Cece", "Jane"]


def test_removing_someone_without_a_role_changes_nothing():
    state = ended("Jane", enemies={"Cece": "Bee"})
    assert state.winners == [] and state.phase == "story"
