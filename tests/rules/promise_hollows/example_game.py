"""The scripted session behind examples/promise-hollows.jsonl.

Run ``python -m tests.rules.promise_hollows.example_game`` to rewrite the
file; a test checks that the committed log still matches this script and
that ``table-noir replay`` plays it to the end.

The story: Mr. Gray (Joe) opens a gallery in town; the President of the Save
the Puppies Fund (Bee) hands him a case: the murder of the Little League
coach. Roy G. Biv (Cece) wrote that confession. Joe wins the gallery pot as a
Third Man, buys Roy's secrets scene by scene, Roy sells his last pips for
Color, and the Face-Off that follows uncovers him.
"""

from __future__ import annotations

from pathlib import Path

from kiosk.rules import Session
from kiosk.rules.promise_hollows import ENGINE

LOG = Path(__file__).resolve().parents[3] / "examples" / "promise-hollows.jsonl"


def example_session() -> Session:
    s = Session(ENGINE, {"seed": 1951, "players": ["Joe", "Bee", "Cece", "Jane"],
                         "investigator": "Joe", "president": "Bee"})

    def go(type: str, player: str | None = None, **fields) -> None:
        s.apply({"type": type, "player": player, **fields})

    # -- town-building ------------------------------------------------------------------
    for name in ("Save the Puppies Fund", "Milky Milk Dairy Emporium", "Town Welcoming Committee",
                 "Little League"):
        go("name_system", name=name)
    go("roll_for_names", "Joe", roll=2)
    go("add_name", "Joe", system="Save the Puppies Fund", name="Perry Winkle")
    go("add_detail", "Joe", name="Perry Winkle", detail="Has chaired every charity gala for ten years")
    go("roll_for_names", "Bee", roll=1)
    go("add_name", "Bee", system="Little League", name="Roy G. Biv")
    go("roll_for_names", "Cece", roll=2)
    go("add_name", "Cece", system="Milky Milk Dairy Emporium", name="Joe Blue")
    go("add_name", "Cece", system="Town Welcoming Committee", name="Miss Ruby Redd")
    go("roll_for_names", "Jane", roll=4)
    go("add_name", "Jane", system="Town Welcoming Committee", name="Sienna Blaze")
    go("add_name", "Jane", system="Town Welcoming Committee", name="Miss Orangey")
    go("add_name", "Jane", system="Milky Milk Dairy Emporium", name="Jujube Brown")
    go("add_detail", "Jane", name="Joe Blue", detail="Easily the best-looking man in town")

    go("write_persona", "Joe", occupation="Gallery owner", cheer="Throws the liveliest openings",
       helps="Frames children's drawings for free", special="Came from the big city",
       pride="Opening a new art gallery", friend="Cece")
    go("write_persona", "Bee", name="Perry Winkle", occupation="Retired judge", cheer="Hands out lemon bars",
       helps="Runs the puppy adoption drive", special="Knows every dog by name",
       pride="Raised a record sum for the shelter", friend="Jane")
    go("write_persona", "Cece", name="Roy G. Biv", occupation="Insurance adjuster",
       cheer="Tells the corniest jokes at the barbecue", helps="Coaches batting practice",
       special="I know Japanese", pride="Won the county pie-eating contest", friend="Joe")
    go("write_persona", "Jane", name="Miss Ruby Redd", occupation="Piano teacher",
       cheer="Always cast as the lead in community theatre", helps="A gifted piano teacher",
       special="Natural curly bright red hair", pride="Runner-up in last year's pageant", friend="Bee")

    go("roll_for_crime", "Bee", dice=[3, 5])
    go("roll_for_crime", "Cece", dice=[3, 4])  # a seven: Roy's secret is a Crime
    go("roll_for_crime", "Jane", dice=[4, 5])
    go("write_private_self", "Joe", hurt="Never good enough", hurt_object="His father",
       need="To rebel", need_object="Against his father", want="A name of his own", want_object="The art world",
       guilt="Has not spoken to his father in years", enemy="Jane")
    go("write_private_self", "Bee", hurt="Lost an election", hurt_object="Miss Orangey",
       need="To be thanked", need_object="The whole town", want="The mayor's chair", want_object="City Hall",
       guilt="Fixed the raffle at the puppy gala", enemy="Jane")
    go("write_private_self", "Cece", hurt="A problem with anger", hurt_object="The Little League coach",
       need="Respect", need_object="The other fathers", want="To coach the team", want_object="His son",
       guilt="Killed the Little League coach after the playoff loss", enemy="Bee")
    go("write_private_self", "Jane", hurt="Dumped for her best friend", hurt_object="Joe Blue",
       need="Validation", need_object="Miss Orangey", want="A promotion", want_object="Her boss Sienna Blaze",
       guilt="Spread a rumour that Jujube Brown cheats on Joe Blue", enemy="Cece")
    go("roll_color", "Joe", dice=[5, 3, 2])
    go("roll_color", "Bee", dice=[4, 4, 4])
    go("roll_color", "Cece", dice=[6, 2, 4])
    go("roll_color", "Jane", dice=[3, 5, 4])

    go("confess", "Joe", text="Someone stopped speaking to his father")
    go("confess", "Bee", text="Someone fixed the raffle at the gala")
    go("confess", "Cece", text="Someone murdered the Little League coach")
    go("confess", "Jane", text="Someone is spreading rumours about Jujube Brown")
    murder = next(c.id for c in s.state.cards if "murdered" in c.text)
    go("choose_case", "Bee", card=murder)

    # -- scene 1: the gallery opening ------------------------------------------------------
    go("open_scene", "Joe")
    go("ante", "Bee", how="character")
    go("ante", "Cece", how="character")
    go("ante", "Jane", how="setting")  # the wine and cheese
    go("raise", "Joe", amount=3, trait="pride")
    go("call", "Bee")
    go("call", "Cece")
    go("raise", "Jane", amount=2, trait="cheer")
    go("raise", "Joe", amount=1, trait="none")
    go("call", "Bee")
    go("challenge", "Cece", target="Bee")
    go("join_as_third_man", "Joe")
    go("lock_card", "Cece", card="Black")
    go("lock_card", "Bee", card="Black")
    go("tell_third_man", "Bee", card="Black")
    go("tell_third_man", "Cece", card="Gray")
    go("lock_card", "Joe", card="Gray")
    go("buy_revelation", "Joe", target="Cece")
    go("reveal_part", "Cece", part="hurt")

    # -- scene 2: Bee's puppy adoption fair ---------------------------------------------------
    go("open_scene", "Bee")
    go("ante", "Cece", how="character")
    go("ante", "Jane", how="setting")
    go("ante", "Joe", how="character")
    go("raise", "Bee", amount=1, trait="none")
    go("call", "Cece")
    go("pass", "Jane")
    go("challenge", "Joe", target="Cece")
    go("lock_card", "Joe", card="Gray")
    go("lock_card", "Cece", card="White")
    go("buy_revelation", "Joe", target="Cece")
    go("reveal_part", "Cece", part="hurt_object")

    # -- scene 3: Roy's batting practice --------------------------------------------------------
    go("open_scene", "Cece")
    go("ante", "Jane", how="character")
    go("ante", "Joe", how="character")
    go("stay_out", "Bee")
    go("monologue", "Cece", target="Joe", amount=1, trait="none")  # "the new man in town sees too much"
    go("challenge", "Jane", target="Cece")
    go("lock_card", "Jane", card="Gray")
    go("lock_card", "Cece", card="Gray")  # both steal, both lose: Mr. Gray closes
    go("buy_revelation", "Joe", target="Cece")
    go("reveal_part", "Cece", part="need")

    # -- scene 4: Ruby's recital; Roy sells his last pips for Color -------------------------------
    go("open_scene", "Jane")
    go("ante", "Joe", how="character")
    go("ante", "Bee", how="character")
    go("buy_color", "Cece")
    go("buy_color", "Cece")
    go("ante", "Cece", how="character")
    go("raise", "Jane", amount=1, trait="none")
    go("challenge", "Joe", target="Jane")
    go("lock_card", "Joe", card="Black")
    go("lock_card", "Jane", card="White")  # a split: Mr. Gray closes
    go("skip_revelation", "Joe")

    # -- the Face-Off ------------------------------------------------------------------------------
    go("declare_face_off", "Joe", suspect="Cece")
    go("join_accusers", "Bee", join=True)
    go("join_accusers", "Jane", join=True)
    go("vote", "Joe", card="Black")
    go("vote", "Bee", card="Black")
    go("vote", "Jane", card="White")
    assert s.outcome, s.awaiting()
    return s


if __name__ == "__main__":
    LOG.write_text(example_session().to_jsonl(), encoding="utf-8")
    print(f"wrote {LOG}")
