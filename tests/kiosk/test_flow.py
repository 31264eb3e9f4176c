"""Fewer taps, remembered names, and leaving and finding games (issue 21), through the real widgets."""

from __future__ import annotations

import importlib.util
import os
import time
from pathlib import Path

import pytest

from kiosk.store import SessionInfo
from testkit import drive

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")

from .uiplay import back_home, bot_step, pin_in  # noqa: E402

GAMES = ("promise-hollows", "hell-for-leather", "even-odd", "clincher")


@pytest.fixture(autouse=True)
def home(app):
    back_home(app)
    drive.pump(1)
    yield


def _start(app, game: str) -> int:
    drive.press(f"home:new:{game}")
    drive.press("setup:start")
    assert app.sm.current == "play", app.setup_screen.error.text
    return app.runner.sid


def _play_a_few(app, moves: int, seed: int = 1) -> None:
    import random

    rng = random.Random(seed)
    start = len(app.runner.session.log)
    while len(app.runner.session.log) < start + moves:
        assert bot_step(app, rng) is not None


# -- leaving and finding games -------------------------------------------------------


def test_players_pause_a_game_without_the_pin_and_it_waits_at_home_with_every_move(app):
    sid = _start(app, "even-odd")
    _play_a_few(app, 2)
    state = app.runner.session.state
    drive.press("bar:menu")
    assert not drive.find_all("pin:OK"), "pausing must not ask for the operator PIN"
    drive.press("gamemenu:pause")
    assert app.sm.current == "home"
    assert [row["sid"] for row in app.home.waiting.data].count(sid) == 1  # listed once
    assert "2 moves" in drive.scrolled_rows(app.home.waiting, "home:resume")[sid]
    drive.press(drive.scrolled_row(app.home.waiting, "home:resume", sid))
    assert app.sm.current == "play" and app.runner.sid == sid
    assert app.runner.session.state == state  # nothing lost


def test_abandoning_a_game_asks_for_the_pin_and_takes_it_off_the_home_list(app):
    sid = _start(app, "clincher")
    drive.press("bar:menu")
    drive.press("gamemenu:abandon")
    assert drive.find_all("pin:OK"), "abandoning a game for good is the operator's call"
    assert app.sm.current == "play" and sid in [i.id for i in app.store.unfinished()]
    pin_in(app)
    drive.press("confirm:yes")
    assert app.sm.current == "home"
    assert sid not in [i.id for i in app.store.unfinished()]
    assert sid not in drive.scrolled_rows(app.home.waiting, "home:resume")
    assert app.store.lines(sid)  # its log is kept, for export


def test_cancelling_the_pin_keeps_the_game(app):
    sid = _start(app, "clincher")
    drive.press("bar:menu")
    drive.press("gamemenu:abandon")
    drive.press("pin:Cancel")
    assert app.sm.current == "play" and app.runner.sid == sid
    assert sid in [i.id for i in app.store.unfinished()]


def test_home_lists_every_unfinished_game_with_its_players_and_moves(app):
    first = _start(app, "even-odd")
    _play_a_few(app, 1)
    players_first = app.runner.players()
    app.go_home()
    second = _start(app, "hell-for-leather")
    app.go_home()
    drive.pump(1)
    buttons = drive.scrolled_rows(app.home.waiting, "home:resume")  # read top to foot, as a player scrolls
    assert first in buttons and second in buttons
    assert "The Even/Odd case game" in buttons[first] and "Hell for Leather" in buttons[second]
    assert "1 move," in buttons[first] and "1 moves" not in buttons[first]
    assert all(name in buttons[first] for name in players_first)
    drive.press(drive.scrolled_row(app.home.waiting, "home:resume", first))
    assert app.runner.sid == first  # the older one is resumable too, not only the newest


def test_attract_mode_ends_at_home_never_inside_the_last_groups_game(app):
    sid = _start(app, "even-odd")
    app.last_input -= app.config_hw.kiosk.idle_attract_s + 1
    app._idle_check()
    drive.pump(1)
    assert app.sm.current == "attract"
    assert app.controller.runner is None  # a pad press during the loop reaches no game
    drive.tap_at(100, 100)
    drive.pump(1)
    assert app.sm.current == "home"
    assert sid in drive.scrolled_rows(app.home.waiting, "home:resume")  # the game waits in the list


def test_save_the_log_says_where_the_files_went(app):
    sid = _start(app, "even-odd")
    drive.press("bar:menu")
    drive.press("gamemenu:save")
    said = app.play.notice.text
    assert str(app.exports) in said and f"session-{sid}-recap.txt" in said and "kiosk" in said
    assert (app.exports / f"session-{sid}.jsonl").exists()


def test_the_unfinished_game_line_reads_in_plain_words():
    from kiosk.ui.screens import describe_unfinished

    now = time.time()
    one = SessionInfo(1, "even-odd", now, now, 1, None, players=("Ann", "Bo"))
    many = SessionInfo(2, "even-odd", now, now, 12, None, players=("Ann", "Bo"))
    assert "(Ann, Bo): 1 move, last played at" in describe_unfinished(one, "Even/Odd", now)
    assert "12 moves" in describe_unfinished(many, "Even/Odd", now)
    yesterday = SessionInfo(3, "even-odd", now - 86400 * 2, now - 86400 * 2, 0, None)
    assert "no moves yet" in describe_unfinished(yesterday, "Even/Odd", now)
    assert time.strftime("%a", time.localtime(now - 86400 * 2)) in describe_unfinished(yesterday, "E", now)


# -- one-tap defaults and remembered names ---------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_text_of_the_setup_comes_filled_in_and_a_tap_draws_another(app, game):
    from kiosk.ui.fields import NamesInput, RecordsInput, TextField

    drive.press(f"home:new:{game}")
    inputs = app.setup_screen.inputs
    assert drive.find_all("players:redraw"), f"{game}: no one-tap new names for the players"
    for name, w in inputs.items():
        if isinstance(w, TextField) and not drive.find_all(f"{name}:skip"):
            assert w.value, f"{game}: {name} is empty"
            assert drive.find_all(f"{name}:new"), f"{game}: {name} has no button for another suggestion"
        if isinstance(w, (NamesInput, RecordsInput)) and name != "team_a":
            assert w.value and all(w.value), f"{game}: {name} has an empty row"
    texts = [n for n, w in inputs.items() if isinstance(w, TextField) and drive.find_all(f"{n}:new")]
    for name in texts:
        seen = {inputs[name].value}
        for _ in range(6):
            drive.press(f"{name}:new")
            seen.add(inputs[name].value)
        assert len(seen) > 1, f"{game}: the dice button on {name} never drew another"
    drive.press("setup:back")


def test_optional_fields_skip_in_one_tap(app):
    drive.press("home:new:promise-hollows")
    box = app.setup_screen.inputs["investigator"]
    box.box.text = "Somebody"
    drive.press("investigator:skip")
    assert box.value is None
    drive.press("setup:back")


def test_no_internal_words_in_setup_labels():
    from kiosk import setupform
    from kiosk.rules import engine_for

    labels = {q.name: q.label for q in setupform.questions(engine_for("hell-for-leather").setup_model)}
    assert labels["team_a"] == "Team A"


def test_prompt_text_fields_are_filled_in_the_games_spirit(app):
    from kiosk import names

    _start(app, "hell-for-leather")
    runner = app.runner
    while not any(p.action == "contestant" for p in runner.awaiting()):
        bot_step(app, __import__("random").Random(3))
    prompts = [p for p in runner.awaiting() if p.action == "contestant"]
    drive.pump(1)
    if drive.find_all("act:0"):
        drive.press(f"act:{[p for p in runner.awaiting() if not p.secret and not p.optional].index(prompts[0])}")
    inputs = app.play.inputs
    texts = [f.name for f in prompts[0].fields if f.kind == "text"]
    assert texts and all(inputs[n].value for n in texts), {n: inputs[n].value for n in texts}
    assert inputs["hobby1"].value in names.ROAD["hobby"]
    label = [w.text for w in drive.walk(inputs["hobby1"]) if getattr(w, "text", None) and "obby" in w.text]
    assert label == ["Hobby 1"], label  # not "Hobby1"
    before = len(runner.session.log)
    drive.press("instinct=" + repr(prompts[0].fields[-1].choices[0]))
    drive.press("prompt:confirm")
    assert len(runner.session.log) == before + 1  # the suggestions were taken as they stand


def test_the_kiosk_rolls_for_a_table_without_dice(app):
    from kiosk.ui.fields import ListInput

    rolls = set()
    for _ in range(20):
        roll = ListInput("dice", "", [1, 2, 3, 4, 5, 6], 3, 3)
        roll.roll()
        assert len(roll.value) == 3 and set(roll.value) <= {1, 2, 3, 4, 5, 6}
        rolls.add(tuple(roll.value))
    assert len(rolls) > 1


def test_the_wizard_offers_the_last_groups_names_and_clears_them_in_one_tap(app):
    drive.press("home:new:hell-for-leather")
    inputs = app.setup_screen.inputs
    for box, name in zip(inputs["players"].boxes, ["Rita", "Omar", "Lin"]):
        box.text = name
    drive.press("setup:start")
    app.go_home()
    drive.press("home:new:promise-hollows")  # another game: the names are the kiosk's, not the game's
    assert app.setup_screen.inputs["players"].value[:3] == ["Rita", "Omar", "Lin"]
    drive.press("players:redraw")  # "New group"
    assert not {"Rita", "Omar", "Lin"} & set(app.setup_screen.inputs["players"].value)
    assert app.store.remembered_players() == []  # forgotten by the kiosk too
    drive.press("setup:back")


# -- taps to the first scene -------------------------------------------------------------


def _bench():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "setup_taps.py"
    spec = importlib.util.spec_from_file_location("setup_taps", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game, most", [("hell-for-leather", 40), ("even-odd", 25), ("clincher", 15),
                                        ("promise-hollows", 60)])
def test_taps_to_the_first_scene_stay_within_bounds(app, game, most):
    counts = _bench().opening(app, game, seed=2)
    assert counts["taps"] < most, counts
    assert counts["typed"] == 0, counts  # every text came with a suggestion the table kept


# -- Promise Hollows' shortcuts: a naming turn at one tap, one private visit per player ------


def _texts_on(widget) -> str:
    """Every text a widget tree shows, one string (what a player could read there)."""
    return " ".join(str(getattr(w, "text", "")) for w in drive.walk(widget))


def _hollows_until(app, reached, seed: int = 3, skip: tuple[str, ...] = ()) -> None:
    import random

    rng = random.Random(seed)
    for _ in range(400):
        if reached(app.runner):
            return
        assert bot_step(app, rng, skip=skip) is not None
    raise AssertionError("the game never got there")


def _naming_with(app, least: int) -> None:
    """Play Promise Hollows to a naming turn whose die is rolled with ``least`` or more names left."""
    def there(runner):
        naming = runner.session.view(None)["naming"]
        return naming is not None and naming["roll"] is not None and naming["left"] >= least

    import random

    rng = random.Random(5)
    for _ in range(400):
        if there(app.runner):
            return
        awaited = [p for p in app.runner.awaiting() if not p.optional]
        if [p.action for p in awaited] == ["roll_for_names"]:  # the table rolls a high names die
            app.runner.propose({"type": "roll_for_names", "player": awaited[0].player, "roll": 5})
        else:
            assert bot_step(app, rng, skip=("add_detail",)) is not None
    raise AssertionError("no naming turn")


def test_a_naming_turn_writes_all_its_names_at_one_tap_on_the_cards_shown(app):
    _start(app, "promise-hollows")
    _naming_with(app, least=5)
    drive.pump(1)
    view = app.runner.session.view(None)
    turn, before = view["naming"], len(app.runner.session.log)
    empty = [s["name"] for s in view["systems"] if not s["names"]]
    form = app.play._names_form
    shown = [(where.value, text.box.text) for text, where in form.rows]
    assert len(shown) == turn["left"] == 5
    assert len({name.lower() for _, name in shown}) == 5 and all(name.strip() for _, name in shown)
    assert set(empty) <= {card for card, _ in shown}  # every System still without a name gets one
    assert drive.find("names:confirm").text == "Write these 5 names"
    drive.press("names:confirm")  # the one tap
    log = app.runner.session.log[before:]
    assert [(a.type, a.player) for a in log] == [("add_name", turn["player"])] * 5
    assert [(a.system, a.name) for a in log] == shown
    after = app.runner.session.view(None)
    for card, name in shown:
        assert name in next(s["names"] for s in after["systems"] if s["name"] == card)


def test_a_refused_name_in_a_naming_turn_stops_there_and_loses_none_of_the_rest(app):
    _start(app, "promise-hollows")
    _naming_with(app, least=3)
    drive.pump(1)
    from kiosk.rules.promise_hollows.model import INVESTIGATOR_NAME

    taken = INVESTIGATOR_NAME  # a name the town has already: the rules refuse it
    form = app.play._names_form
    form.rows[1][0].box.text = taken
    wanted = [(where.value, text.box.text) for text, where in form.rows]
    before = len(app.runner.session.log)
    drive.press("names:confirm")
    assert [(a.system, a.name) for a in app.runner.session.log[before:]] == wanted[:1]  # the first went in
    assert taken in app.play.error.text  # the rules' reason, on screen
    form = app.play._names_form  # drawn again for the names left: the refused one and the rest, as they were
    assert [(where.value, text.box.text) for text, where in form.rows] == wanted[1:]


def test_a_naming_turn_written_name_by_name_elsewhere_keeps_its_form_and_the_rest_of_it(app):
    """Names written one at a time (from a phone, the host, the form's own button) draw the
    form again after each: it is the form already shown, one row fewer, the names not yet
    written moved up, each row numbered and carded as a new form would be; the next turn fills
    the same form with fresh names (issue 33, seventh pass: built anew, a form of five rows left
    some 9,500 objects to the cycle collector per name, a large part of the garbage that set
    Python's memory high-water mark in a day's first Promise Hollows game)."""
    from kiosk.ui.naming import cards_for

    _start(app, "promise-hollows")
    _naming_with(app, least=4)
    drive.pump(1)
    form = app.play._names_form
    left = len(form.rows)
    texts = [text.box.text for text, _ in form.rows]
    player = app.runner.session.view(None)["naming"]["player"]
    app.runner.propose({"type": "add_name", "player": player, "name": texts[0], "system": form.rows[0][1].value})
    drive.pump(1)
    assert app.play._names_form is form, "the form was built anew for one name fewer"
    assert len(form.rows) == left - 1 and form.parent is app.play.prompt_box
    assert [text.box.text for text, _ in form.rows] == texts[1:]  # the rest as they were
    assert [text.title.text for text, _ in form.rows] == [f"Name {i} of {left - 1}" for i in range(1, left)]
    systems = app.runner.session.view(None)["systems"]
    assert [where.value for _, where in form.rows] == cards_for(left - 1, systems)
    assert drive.find("names:confirm").text == f"Write these {left - 1} names"
    # a name the form shows in its second row, written from elsewhere (say, a phone): that row goes
    app.runner.propose({"type": "add_name", "player": player, "name": texts[2], "system": systems[0]["name"]})
    drive.pump(1)
    assert app.play._names_form is form
    assert [text.box.text for text, _ in form.rows] == [texts[1], *texts[3:]]
    # the turn's last names written, the next naming turn fills the same form, fresh
    for i, (_, where) in enumerate(list(form.rows)):
        app.runner.propose({"type": "add_name", "player": player, "name": f"Ada Quist {i}", "system": where.value})
    _naming_with(app, least=1)
    drive.pump(1)
    view = app.runner.session.view(None)
    left = view["naming"]["left"]
    assert app.play._names_form is form and len(form.rows) == left
    assert [text.title.text for text, _ in form.rows] == [f"Name {i} of {left}" for i in range(1, left + 1)]
    assert [where.value for _, where in form.rows] == cards_for(left, view["systems"])
    taken = {name.lower() for s in view["systems"] for name in s["names"]}
    assert all(text.box.text.strip() and text.box.text.lower() not in taken for text, _ in form.rows)


def test_one_private_visit_answers_a_players_crime_roll_then_private_self_and_shows_nothing_to_the_table(app):
    from .uiplay import prove_it_is

    _start(app, "promise-hollows")

    def crime_waits(runner):
        return any(p.action == "roll_for_crime" for p in runner.awaiting())

    _hollows_until(app, crime_waits, skip=("roll_for_crime",))
    drive.pump(1)
    who = next(p.player for p in app.runner.awaiting() if p.action == "roll_for_crime")
    others = [p for p in app.runner.players() if p != who]
    before = len(app.runner.session.log)
    drive.press(f"secret:{who}")
    prove_it_is(app, who)
    drive.press("private:show")
    look = app.overlays[-1]
    drive.press("dice:roll")  # the roll is all it asks: rolled and locked in at one tap
    assert [(a.type, a.player) for a in app.runner.session.log[before:]] == [("roll_for_crime", who)]
    assert app.overlays and app.overlays[-1] is look, "the visit goes on to the private self"
    assert look.prompt.action == "write_private_self" and look.prompt.player == who
    assert not drive.find_all("private:show"), "no second pass of the screen: the same player is looking"
    hurt = look.inputs["hurt"].box.text
    assert hurt and hurt not in _texts_on(app.play)  # the shared screen under it shows none of it
    drive.press(f"enemy={others[0]!r}")
    drive.press("private:lock")
    assert look not in app.overlays  # nothing else of theirs waits: the visit ends
    log = app.runner.session.log[before:]
    assert [(a.type, a.player) for a in log] == [("roll_for_crime", who), ("write_private_self", who)]
    assert app.runner.session.state.people[who].private.hurt == hurt  # their answer, to them
    assert hurt not in _texts_on(app.play)
    assert hurt not in str(app.runner.session.view(None))


def test_roll_for_me_answers_a_prompt_that_asks_only_for_the_roll_and_faces_by_hand_still_wait(app):
    _start(app, "promise-hollows")

    def colour_waits(runner):
        return any(p.action == "roll_color" for p in runner.awaiting())

    _hollows_until(app, colour_waits, skip=("roll_color",))
    drive.pump(1)
    public = [p for p in app.runner.awaiting() if not p.secret and not p.optional]
    mine = next(p for p in public if p.action == "roll_color")
    if len(public) > 1:
        drive.press(f"act:{public.index(mine)}")
    before = len(app.runner.session.log)
    drive.press("dice=3")
    drive.press("dice=4")
    assert len(app.runner.session.log) == before, "dice touched face by face wait for Confirm"
    drive.press("dice:remove")
    drive.press("dice:remove")
    drive.press("dice:roll")  # one tap: rolled and recorded
    log = app.runner.session.log[before:]
    assert [(a.type, a.player) for a in log] == [("roll_color", mine.player)]
    assert len(log[0].dice) == 3 and all(1 <= d <= 6 for d in log[0].dice)
    assert app.runner.session.view(None)["players"][app.runner.players().index(mine.player)]["color"] == sum(log[0].dice)


def test_the_systems_are_named_all_at_one_tap_with_different_names(app):
    _start(app, "promise-hollows")
    drive.pump(1)
    players = app.runner.players()
    form = app.play._names_form
    shown = [text.box.text for text, _ in form.rows]
    assert len(shown) == len(players) and len({n.lower() for n in shown}) == len(players)
    assert drive.find("names:confirm").text == f"Name these {len(players)} Systems"
    drive.press("names:confirm")
    view = app.runner.session.view(None)
    assert [s["name"] for s in view["systems"]] == shown
    assert view["phase"] == "naming"


def _crime_roll_waits(app, least: int = 1) -> str:
    """Play Promise Hollows until ``least`` Crime rolls (a secret no pad press answers) wait; whose is the first."""
    _start(app, "promise-hollows")
    _hollows_until(app, lambda r: sum(p.action == "roll_for_crime" for p in r.awaiting()) >= least,
                   skip=("roll_for_crime",))
    drive.pump(1)
    return next(p.player for p in app.runner.awaiting() if p.action == "roll_for_crime")


def test_a_gray_hold_on_your_own_pad_opens_your_sheet_for_a_secret_no_press_answers(app):
    from kiosk.ui.overlays import PrivateLook

    from .uiplay import hold_gray

    who = _crime_roll_waits(app)
    seat = app.runner.players().index(who) + 1
    assert "Hold Gray on your pad" in _texts_on(app.play)  # the lock board says how
    app.sim_pads.press(seat, "gray", app.sim_pads._clock())
    app.sim_pads.release(seat, "gray", app.sim_pads._clock() + 0.3)  # a short press: nothing opens
    drive.pump(2)
    assert not app.overlays
    hold_gray(app, seat)
    look = app.overlays[-1]
    assert isinstance(look, PrivateLook) and look.who == who and look.prompt.action == "roll_for_crime"
    assert drive.find_all("private:show"), "the sheet still opens behind the cover"
    assert f"{who}'s sheet was opened" in app.play.notice.text
    before = len(app.runner.session.log)
    drive.press("private:show")
    drive.press("dice:roll")
    assert [(a.type, a.player) for a in app.runner.session.log[before:]] == [("roll_for_crime", who)]
    drive.press("private:hide")


def test_a_gray_hold_opens_nothing_over_someone_elses_sheet_or_for_a_player_with_no_secret(app):
    from kiosk.ui.overlays import PrivateLook

    from .uiplay import hold_gray

    who = _crime_roll_waits(app, least=2)
    waiting = {p.player for p in app.runner.awaiting() if p.secret}
    free = [p for p in app.runner.players() if p not in waiting]
    seat = app.runner.players().index(who) + 1
    if free:  # a player with no secret waiting: their hold opens nothing
        hold_gray(app, app.runner.players().index(free[0]) + 1)
        assert not app.overlays
    hold_gray(app, seat)
    look = app.overlays[-1]
    drive.press("private:show")
    others = [p for p in waiting if p != who]
    assert others, "another player's secret waits too"
    for other in others:  # another player's hold while the sheet is open: it stays theirs, alone
        hold_gray(app, app.runner.players().index(other) + 1)
        assert app.overlays[-1] is look and look.who == who
        assert sum(isinstance(o, PrivateLook) for o in app.overlays) == 1
    drive.press("private:hide")
