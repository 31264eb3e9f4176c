"""Confessions: the President alone reads them and picks the case; who wrote it stays secret."""

import pytest

from kiosk.rules import RuleError

from .helpers import build, do


def test_every_player_confesses_in_secret_and_only_the_president_reads_the_cards():
    s = build(stop_before="confessions", crime_rolls={"Cece": [6, 1]})
    for p in ("Joe", "Bee", "Cece", "Jane"):
        assert next(x for x in s.awaiting() if x.player == p).secret
    do(s, "confess", "Joe", text="Someone stopped speaking to his father")
    do(s, "confess", "Bee", text="Someone lied to the fund's donors")
    do(s, "confess", "Cece", text="Someone murdered the Little League coach")
    do(s, "confess", "Jane", text="Someone spreads rumours about Jujube Brown")
    assert s.state.phase == "case"
    cards = s.view("Bee")["me"]["confession_cards"]
    assert len(cards) == 3  # Mr. Gray's own card can never be the case
    assert {c["kind"] for c in cards} == {"Crime", "Guilt"}
    assert all("author" not in c for c in cards)
    assert "confession_cards" not in s.view("Cece")["me"]
    text = str(s.view(None)) + " ".join(s.recap(None))
    assert "murdered" not in text and "rumours" not in text


def test_the_chosen_case_is_announced_and_its_author_learns_in_private_he_is_the_criminal():
    s = build(stop_before="case", crime_rolls={"Cece": [6, 1]})
    card = next(c for c in s.state.cards if c.author == "Cece")
    do(s, "choose_case", "Bee", card=card.id)
    assert s.view(None)["case"] == card.text
    assert s.view("Cece")["me"]["criminal"] is True
    assert s.view("Jane")["me"]["criminal"] is False
    assert "criminal" not in s.view(None)
    assert "You are the Criminal." in " ".join(s.recap("Cece"))
    assert "Criminal" not in " ".join(s.recap(None))
    assert all("Cece" not in line for line in s.recap(None)[-2:])


def test_with_no_crime_the_president_frames_someone_by_choosing_a_guilt():
    s = build(stop_before="case")  # everyone rolled 8: only Guilts
    card = next(c for c in s.state.cards if c.author == "Jane")
    do(s, "choose_case", "Bee", card=card.id)
    assert s.state.criminal == "Jane"
    assert "a Guilt the President made into the case" in " ".join(s.recap("Jane"))


def test_an_option_lets_the_president_see_who_wrote_each_card():
    s = build(stop_before="case", president_sees_authors=True)
    assert {c["author"] for c in s.view("Bee")["me"]["confession_cards"]} == {"Bee", "Cece", "Jane"}


def test_only_the_president_chooses():
    s = build(stop_before="case")
    with pytest.raises(RuleError, match="whose turn"):
        do(s, "choose_case", "Jane", card=s.state.cards[0].id)
