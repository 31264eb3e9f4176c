"""Town-building: Systems, naming names (Miss Ruby Redd's turn), characters, Crime rolls, Color."""

import pytest

from kiosk.rules import RuleError, Session
from kiosk.rules.promise_hollows import ENGINE

from .helpers import build, do, persona, private_self

FIVE = ["Jane", "Joe", "Bee", "Cece", "Dan"]  # Jane names names first


def five_systems() -> Session:
    s = Session(ENGINE, {"seed": 1, "players": FIVE, "investigator": "Joe", "president": "Bee"})
    for name in ("Milky Milk Dairy Emporium", "Town Welcoming Committee", "Save the Puppies Fund", "PTA",
                 "Golf Club"):
        do(s, "name_system", None, name=name)
    return s


def test_one_system_per_player_then_naming_starts_with_the_first_seat():
    s = five_systems()
    assert s.state.phase == "naming"
    assert [(p.player, p.action) for p in s.awaiting()] == [("Jane", "roll_for_names")]


def test_miss_ruby_redd_rolls_four_writes_three_names_and_one_did_you_know():
    s = five_systems()
    do(s, "roll_for_names", "Jane", roll=4)
    do(s, "add_name", "Jane", system="Milky Milk Dairy Emporium", name="Joe Blue")
    do(s, "add_name", "Jane", system="Town Welcoming Committee", name="Sienna Blaze")
    do(s, "add_name", "Jane", system="Town Welcoming Committee", name="Miss Orangey")
    assert s.awaiting()[0].player == "Jane"  # one entry left
    do(s, "add_detail", "Jane", name="Joe Blue", detail="the handsomest man in Promise Hollows")
    public = s.view(None)
    assert public["systems"][0] == {"name": "Milky Milk Dairy Emporium", "names": ["Joe Blue"]}
    assert public["systems"][1]["names"] == ["Sienna Blaze", "Miss Orangey"]
    assert public["did_you_know"] == {"Joe Blue": ["the handsomest man in Promise Hollows"]}
    assert s.awaiting()[0].player == "Joe"  # four entries used: Joe's turn to roll


def test_a_name_already_in_town_is_refused():
    s = five_systems()
    do(s, "roll_for_names", "Jane", roll=2)
    do(s, "add_name", "Jane", system="PTA", name="Joe Blue")
    with pytest.raises(RuleError, match="a name must be new to the town"):
        do(s, "add_name", "Jane", system="Golf Club", name="joe blue")
    with pytest.raises(RuleError, match="a name must be new to the town"):
        do(s, "add_name", "Jane", system="Golf Club", name="Mr. Gray")
    assert s.state.naming.left == 1


def test_naming_goes_on_until_every_system_has_a_name():
    s = five_systems()
    for p in FIVE:
        do(s, "roll_for_names", p, roll=1)
        do(s, "add_name", p, system="PTA", name=f"Neighbour {p}")
    assert s.state.phase == "naming"  # four Systems are still empty
    assert "still without a name" in s.recap()[-1]
    systems = ["Milky Milk Dairy Emporium", "Town Welcoming Committee", "Save the Puppies Fund", "Golf Club"]
    for p, system in zip(FIVE, systems):
        do(s, "roll_for_names", p, roll=1)
        do(s, "add_name", p, system=system, name=f"Another {p}")
    assert s.state.phase == "characters"


def test_ruby_redd_rolls_nine_and_keeps_a_guilt_in_private():
    s = build(["Joe", "Bee", "Cece", "Jane"], stop_before="characters")
    do(s, "write_persona", "Jane", name="Miss Ruby Redd", friend="Bee", **persona(
        "Jane", cheer="Always cast as the lead in community theatre", helps="A gifted piano teacher",
        special="Natural curly bright red hair", pride="Runner-up for the beauty pageant last year"))
    do(s, "roll_for_crime", "Jane", dice=[4, 5])
    assert "You rolled 9: your secret is a Guilt." in s.recap("Jane")
    assert not any("rolled 9" in line for line in s.recap(None))
    guilt_field = next(f for f in s.awaiting()[-1].fields if f.name == "guilt")
    assert guilt_field.label.startswith("Guilt")
    do(s, "write_private_self", "Jane", enemy="Cece", **private_self(
        "Jane", hurt="Dumped for my best friend", hurt_object="Joe Blue",
        need="Validation", need_object="Miss Orangey, the President",
        want="A promotion", want_object="My boss Sienna Blaze",
        guilt="Spread a rumour that Jujube Brown cheats on Joe Blue"))
    public = s.view(None)
    jane = next(p for p in public["players"] if p["player"] == "Jane")
    assert jane["character"] == "Miss Ruby Redd" and jane["cheer"].startswith("Always cast")
    text = str(public) + "\n".join(s.recap(None))
    for secret in ("Dumped for my best friend", "Validation", "My boss Sienna Blaze", "rumour", "enemy"):
        assert secret not in text, secret
    me = s.view("Jane")["me"]
    assert me["secret_kind"] == "Guilt" and me["private_self"]["enemy"] == "Cece"
    assert s.view("Bee")["me"]["private_self"] is None


def test_a_seven_makes_it_a_crime_and_the_prompt_says_so_only_to_the_roller():
    s = build(["Joe", "Bee", "Cece", "Jane"], stop_before="characters")
    do(s, "write_persona", "Jane", name="Miss Ruby Redd", friend="Bee", **persona("Jane"))
    do(s, "roll_for_crime", "Jane", dice=[3, 4])
    prompt = next(p for p in s.awaiting() if p.player == "Jane")
    assert prompt.secret and next(f for f in prompt.fields if f.name == "guilt").label.startswith("Crime")
    assert prompt.public()["fields"] == []
    assert s.view("Jane")["me"]["secret_kind"] == "Crime"


def test_the_investigator_is_mr_gray_tied_to_no_system_and_never_rolls_for_a_crime():
    s = build(stop_before="confessions")
    joe = s.state.people["Joe"]
    assert joe.name == "Mr. Gray" and joe.system is None and joe.crime_roll is None
    assert s.state.people["Bee"].system == "Save the Puppies Fund"
    assert "President of Save the Puppies Fund" in " ".join(s.recap(None))


def test_starting_color_is_three_dice_from_the_box_and_private_die_is_six():
    s = build(colors={"Joe": [6, 3, 1]}, stop_before="confessions")
    joe = s.view(None)["players"][0]
    assert joe["color"] == 10 and joe["private_die"] == 6
    assert s.state.box == 500 - 10 - 3 * 12


def test_setup_is_checked_with_clear_messages():
    with pytest.raises(ValueError, match="3 to 8 players"):
        Session(ENGINE, {"players": ["Ann", "Bo"]})
    with pytest.raises(ValueError, match="cannot also be the President"):
        Session(ENGINE, {"players": ["Ann", "Bo", "Cy"], "investigator": "Bo", "president": "Bo"})
    with pytest.raises(ValueError, match="not one of the players"):
        Session(ENGINE, {"players": ["Ann", "Bo", "Cy"], "president": "Zed"})
