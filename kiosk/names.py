"""Ready-made words for every text the kiosk asks for: one tap instead of typing.

A setup question or a prompt's text field is shown filled in with a suggestion
drawn from these lists, and a dice button beside it draws another. Players may
still type their own; the suggestion only saves the table the typing when it
does not care (a convention table rarely does).

The lists are in each game's spirit, in our own words: smoky 1940s noir for
Promise Hollows, the Even/Odd case game and the clincher scenes; outlaw bikers,
getaway drivers and small-town crime for Hell for Leather. Nothing here is
copied from the rule texts.

``suggest(game, field, label)`` is the one entry point the widgets use; it
picks by the field's name (and, where a name means two things, its label).
"""

from __future__ import annotations

import random
from typing import Iterable

FLAVOUR = {"hell-for-leather": "road", "promise-hollows": "noir", "even-odd": "noir", "clincher": "noir"}
"""Which word lists each game draws from; a game not listed (the toy) gets the noir ones."""

FIRST_NAMES = ["Ada", "Bram", "Cleo", "Dex", "Edie", "Finn", "Greta", "Hank", "Iris", "Jude", "Kit", "Lou",
               "Mae", "Nico", "Opal", "Pip", "Rosa", "Sol", "Tess", "Vic", "Wren", "Zed"]
"""Short first names for the people at the table (stand-ins a group replaces or keeps)."""

NOIR = {
    "person": ["Vera Kessler", "Sal Moretti", "Dolores Quint", "Augie Pike", "Lena Marsh", "Harlan Voss",
               "Ruby Calloway", "Felix Drummond", "Ida Blackwood", "Monty Sharpe", "Corinne Vale", "Duke Halloran",
               "Mabel Finch", "Rocco Tate", "Winnie Sloane", "Otto Grieve", "Trixie Lamont", "Cyrus Bell",
               "Hazel Crane", "Nate Ferro", "Louella Hart", "Bruno Kade"],
    "first": ["Vera", "Sal", "Dolores", "Augie", "Lena", "Harlan", "Ruby", "Felix", "Ida", "Monty", "Corinne",
              "Duke", "Mabel", "Rocco", "Winnie", "Otto", "Trixie", "Cyrus", "Hazel", "Nate"],
    "system": ["The Blue Lantern Club", "Harbour Shipping Co.", "St. Brigid's Choir", "The City Gazette",
               "Third Precinct", "Grandview Hotel", "The Dockworkers' Union", "Ladies' Garden Society",
               "Sterling Savings & Loan", "The Orpheum Theatre", "Mercy Hospital", "Kingfisher Taxi Co.",
               "The Rotary Lodge", "Alderman's Office", "Velvet Room Casino", "Hollows Rail Yard"],
    "occupation": ["night nurse", "jazz pianist", "florist", "bank teller", "bookie", "hotel detective",
                   "radio announcer", "pawnbroker", "seamstress", "cab driver", "society columnist",
                   "dock foreman", "lounge singer", "pharmacist", "schoolteacher", "chauffeur"],
    "cheer": ["I whistle on the way to work", "I remember everyone's birthday", "I laugh at my own bad jokes",
              "I never miss the Sunday dance", "I hand out peppermints", "I sing when I sweep the step"],
    "helps": ["I lend money and forget about it", "I fix the neighbours' radios", "I walk old Mrs. Orr home",
              "I find lost cats", "I cover extra shifts", "I drive the choir to its concerts"],
    "special": ["I once shook hands with the mayor", "I can read any lock", "I never forget a face",
                "I won a dance contest in '38", "I speak four languages", "I was born in a lighthouse"],
    "pride": ["I put my sister through college", "I pulled a boy out of the river", "I built my shop myself",
              "I stayed sober ten years", "I won the county spelling bee", "I kept the union together"],
    "hurt": ["betrayed", "abandoned", "cheated", "humiliated", "forgotten", "ruined"],
    "need": ["forgiveness", "money, fast", "a way out of town", "someone to trust", "respect", "proof"],
    "want": ["revenge", "the deed to the hotel", "a second chance", "a quiet life", "the spotlight", "love"],
    "object": ["my brother", "the Gazette's editor", "my old partner", "the alderman", "my landlady",
               "the bandleader", "my first wife", "the night manager", "a letter I burned", "the precinct captain"],
    "guilt": ["I sold out a friend to the police", "I took money from the collection plate",
              "I let a stranger take my blame", "I lied under oath", "I left a man in the rain to die",
              "I burned a ledger that mattered"],
    "confession": ["Someone pushed Eddie down the stairs for his wallet",
                   "Someone poisoned the bandleader over a woman",
                   "Someone framed the night clerk to cover a theft",
                   "Someone sank the ferry for the insurance",
                   "Someone blackmailed the alderman into ruin",
                   "Someone shot the pawnbroker over an old debt"],
    "detail": ["keeps a gun in the flour tin", "owes money to the wrong people", "was seen at the docks at 3 a.m.",
               "writes letters to a prisoner", "has two names", "sings in the choir every Sunday",
               "lost an eye in the war", "drinks only milk", "sleeps at the hotel, never at home"],
    "victim": ["a bandleader found in the river", "the night clerk of the Grandview", "a councilman's secretary",
               "a retired boxer", "the widow upstairs", "a cigarette girl from the Velvet Room"],
    "case": ["The Lantern Affair", "Death at the Orpheum", "The Rail Yard Job", "The Widow's Key",
             "Blue Notes, Red Hands", "The Harbour Ledger", "A Kiss Before the Train", "The Glass Alibi"],
    "suspect_details": ["was the last to see the victim alive", "owed the victim a fortune",
                        "has no alibi after midnight", "was jilted by the victim last spring",
                        "stands to inherit", "was heard arguing on the fire escape"],
    "description": ["a tired ex-cop with a bad knee", "an insurance man who notices everything",
                    "a reporter chasing the story of her life", "a priest with a past",
                    "a rich kid playing detective", "a cab driver who hears everything"],
    "location": ["a rain-soaked rooftop", "the back room of the Velvet Room", "a stalled elevator",
                 "the docks at midnight", "a crowded train platform", "the mayor's garden party"],
    "objective": ["get the ledger before the cops do, by charm", "make the witness talk, with a bribe",
                  "slip out unseen, through the kitchen", "win back the photographs, at cards",
                  "find who tipped off the police, by asking around"],
    "new": ["a stray dog barks and gives them away", "a passing patrol car", "the lights go out",
            "an old friend turns up", "a loose floorboard", "a sudden downpour"],
    "character": ["Marlowe", "Velvet", "Quill", "Slate", "Jinx", "Dusk", "Shade", "Rook", "Ember", "Lark"],
}

ROAD = {
    "person": ["Rusty Vance", "Jolene Cobb", "Tank Mercer", "Lucky Ortega", "Dixie Raines", "Skid Malone",
               "Bonnie Creel", "Hoss Duval", "Rita Sparks", "Crank Wheeler", "Mags Holloway", "Dutch Tolliver",
               "Sadie Burns", "Knuckles Roy", "Cass Monroe", "Gravel Jones"],
    "vocation": ["tow-truck driver", "short-order cook", "mechanic", "rodeo clown", "repo man", "bartender",
                 "roofer", "tattoo artist", "preacher's kid", "bail bondsman", "trucker", "stunt rider"],
    "hometown": ["Dry Creek", "Bitterwater", "Red Mesa", "Galloway Junction", "Lost Springs", "Coyote Flats",
                 "Saltlick", "Broken Bow", "Cinder Gap", "Hollister"],
    "hobby": ["fishing", "darts", "restoring old radios", "line dancing", "card tricks", "bird watching",
              "pool", "knife throwing", "karaoke", "model trains", "bowling", "arm wrestling"],
    "why": ["to pay off Mama's farm", "to prove the town wrong", "to see the ocean once",
            "to get my kid back", "to bury my brother proper", "to never be broke again",
            "to outrun my old gang", "because I promised Dolly"],
    "goal": ["Steal the sheriff's hat", "Lose the state troopers in the canyon", "Win a bar fight in Red Mesa",
             "Get a pardon signed", "Jump the broken bridge", "Rescue Skid from the county jail",
             "Outrun the train at Galloway Junction", "Bribe the toll-booth guard", "Win back the pink slip",
             "Hide the loot in a church"],
    "skill": ["hot-wiring", "lying to cops", "fixing engines", "brawling", "sweet talk", "sharp shooting",
              "reading maps", "picking locks"],
    "team": ["Hell's Outriders", "The Desert Rats", "Chrome Coyotes", "The Dust Devils", "Night Riders",
             "The Road Kings", "Iron Widows", "The Cinder Crew"],
    "objective": ["The Mexican border", "The State Line bar", "Last Chance Motel", "The Hoover Dam",
                  "The county fairground", "Devil's Crossing"],
    "source": ["the county jail", "a burning garage", "a biker wedding", "the bank in Dry Creek",
               "a roadside diner", "a wrecked prison bus", "the rodeo grounds", "a casino back room"],
}

FIELD_LIST = {
    # Promise Hollows
    "system": "system", "occupation": "occupation", "cheer": "cheer", "helps": "helps", "special": "special",
    "pride": "pride", "hurt": "hurt", "need": "need", "want": "want", "hurt_object": "object",
    "need_object": "object", "want_object": "object", "guilt": "guilt", "text": "confession", "detail": "detail",
    # the Even/Odd case game
    "victim": "victim", "case": "case", "details": "suspect_details", "description": "description",
    # clincher scenes
    "location": "location", "objective": "objective", "character": "character", "gm": "player",
    # Hell for Leather
    "vocation": "vocation", "hometown": "hometown", "hobby1": "hobby", "hobby2": "hobby", "why": "why",
    "goal": "goal", "skill": "skill", "team_names": "team", "sources": "source",
    # names of people
    "name": "person", "investigator": "", "president": "", "first_lead": "",
}
"""A field's name -> the list its suggestions come from. An empty list name: no suggestion
(the field is optional and means "the default player"; blank is the right answer)."""


def lists(game: str | None) -> dict[str, list[str]]:
    return ROAD if FLAVOUR.get(game or "") == "road" else NOIR


def list_for(game: str | None, field: str, label: str = "") -> list[str]:
    """The words a text field called ``field`` is suggested from (empty: leave it blank)."""
    key = FIELD_LIST.get(field)
    if key is None:
        return []
    if key == "person" and "first name" in label.lower():
        key = "first"  # the Even/Odd suspects go by first names
    if key == "person" and label.lower() == "system":
        key = "system"  # Promise Hollows: naming a System asks for its "name"
    if key == "detail" and field == "detail" and label.lower().startswith("the new"):
        key = "new"  # clincher: the new advantage or obstacle a redraw brings
    if key == "player":
        return list(FIRST_NAMES)
    words = lists(game)
    return list(words.get(key) or NOIR.get(key) or [])


def suggest(game: str | None, field: str, label: str = "", rng: random.Random | None = None,
            avoid: Iterable[str] = ()) -> str:
    """A suggestion for one text field, different from ``avoid`` when the list allows; "" when
    the field has none (an optional one that is best left blank)."""
    pool = list_for(game, field, label)
    if not pool:
        return ""
    taken = {a.strip().lower() for a in avoid}
    fresh = [w for w in pool if w.lower() not in taken] or pool
    return (rng or random).choice(fresh)


def player_names(count: int, rng: random.Random | None = None, avoid: Iterable[str] = ()) -> list[str]:
    """``count`` different first names for the people at the table."""
    taken = {a.strip().lower() for a in avoid}
    fresh = [n for n in FIRST_NAMES if n.lower() not in taken]
    return (rng or random).sample(fresh, min(count, len(fresh)))


def pair(game: str | None, field: str, rng: random.Random | None = None) -> list[str]:
    """Two different suggestions (the two team names, the two Sources)."""
    pool = list_for(game, field)
    return (rng or random).sample(pool, 2) if len(pool) >= 2 else pool
