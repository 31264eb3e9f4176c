"""The setup wizard's questions, read from each game's setup model."""

import pytest

from kiosk import setupform
from kiosk.rules import GAMES, engine_for


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_question_has_a_readable_label_and_help(game):
    questions = setupform.questions(engine_for(game).setup_model)
    assert questions, game
    for q in questions:
        assert q.help, f"{game}: {q.name} has no help text under it"
        assert "_" not in q.label and q.label[0].isupper(), f"{game}: label {q.label!r}"


def test_short_words_keep_their_capitals():
    assert setupform._label("gm_tokens") == "GM tokens"
    assert setupform._label("gm") == "GM"
    assert setupform._label("goal_target") == "Goal target"


def test_a_refused_answer_names_the_question_by_its_label():
    from kiosk.rules.even_odd import EvenOddSetup

    with pytest.raises(setupform.SetupError) as err:
        setupform.answers_to_setup(EvenOddSetup, {"players": ["Ann"], "voted_dice": "wagered"})
    assert any(p.startswith("Players:") for p in err.value.problems)
