"""A Boon obliges the Narrator to tell a flashback, even when someone else narrates the outcome.

Issue 19, defect 12: after a Risk (or a Felony) the Adversary narrates the
conflict's outcome, and the cue used to stop there, so the Boon's flashback
was never asked for. The decision is in docs/rules/hell-for-leather.md
("A Boon's flashback when someone else narrates"). What the table sees is the
narration event (the recap and the kiosk's event lines) and, while a Goal may
be bought, the ``cue`` of the public view; both must ask for the flashback.
"""

from .table import call, count, land, merit_turn, narrator, pass_turn, ready, risk, team, trauma_turn, until_narrator
from .test_examples import coop_at_goal


def narration(s) -> str:
    """The narration the last count asked for, as the table reads it."""
    return [e.text for e in s.events if e.kind == "narration"][-1]


def asks_for_daniels_flashback(text: str) -> bool:
    return "happy flashback" in text and "Brother in Belmarsh" in text and "Recreational Drugs" in text


def test_a_boon_after_a_risk_keeps_the_adversarys_narration_and_the_narrators_flashback():
    s = ready()
    call(s)
    land(s, "inside", 3)                      # Merit
    risk(s)
    land(s, "inside", 2)                      # the Risk die is a Merit too: a Boon, no Felony
    count(s)
    assert s.state.last_result == "Boon"
    text = narration(s)
    assert text.startswith("The Adversary narrates the outcome through Daniel's Instinct, Wretch")
    assert "Then Daniel tells a happy flashback" in text and asks_for_daniels_flashback(text)
    assert text in s.recap()                  # the public story carries it


def test_a_boon_made_by_a_felony_die_keeps_the_flashback_after_the_felony():
    """The bathroom example: the Felony's second die is a Merit and makes the Boon."""
    s = ready()
    for _ in range(3):
        pass_turn(s)
    call(s)
    land(s, "inside", 2)                      # John Jackson's Merit
    risk(s)
    land(s, "inside", 7)                      # the Risk die is a Pass: a Felony
    land(s, "inside", 9)
    land(s, "inside", 4)                      # a ** Felony, and a second Merit
    count(s)
    assert s.state.last_result == "Boon"
    text = narration(s)
    assert text.startswith("The Adversary narrates: a ** Felony")
    assert "Jason tells a happy flashback" in text and "Murder trial" in text and "Boxing" in text


def test_the_flashback_shows_in_the_cue_while_the_goal_may_be_bought():
    s = ready()
    merit_turn(s)                             # Daniel: Team A 2 VP
    pass_turn(s)
    pass_turn(s)                              # Roger: 3 VP
    pass_turn(s)
    assert narrator(s) == "Daniel" and team(s, "Daniel").vp == 3   # the Boon's 2 make enough for a Goal
    call(s)
    land(s, "inside", 3)
    risk(s)
    land(s, "inside", 2)
    count(s)
    assert s.state.phase == "goal"
    assert asks_for_daniels_flashback(s.view()["cue"])


def test_no_flashback_is_asked_after_a_risk_that_scores_a_merit():
    s = ready()
    call(s)
    land(s, "inside", 8)                      # Pass
    risk(s)
    land(s, "inside", 3)                      # Merit
    count(s)
    assert s.state.last_result == "Merit"
    assert "flashback" not in narration(s)


def test_a_boon_without_a_risk_still_asks_the_narrator_for_both():
    s = ready()
    for _ in range(2):                        # two Traumas: Dillon at Shotgun throws two dice at once
        until_narrator(s, "Daniel")
        trauma_turn(s)
    until_narrator(s, "Daniel")
    call(s)
    assert s.state.conflict.plan == ["Daniel", "Daniel"]
    land(s, "inside", 3)
    land(s, "inside", 2)
    count(s)
    text = narration(s)
    assert text.startswith("Daniel narrates a glorious success") and asks_for_daniels_flashback(text)


def test_a_boon_in_the_gauntlet_asks_for_a_ten_second_flashback():
    s = coop_at_goal()
    while s.state.phase == "goals":
        p = next(x for x in s.awaiting() if x.action == "roll_goal")
        s.apply({"type": "roll_goal", "player": p.player})
    call(s)
    who = s.state.conflict.narrator
    land(s, "inside", 2)
    risk(s)
    land(s, "inside", 3)                      # no Felony in the Gauntlet; two Merits are a Boon
    count(s)
    assert s.state.last_result == "Boon"
    text = narration(s)
    assert text.startswith(f"{who} says what happened, ten seconds at most: boon.")
    assert f"{who} tells a happy flashback" in text and text.endswith("in ten seconds too.")
