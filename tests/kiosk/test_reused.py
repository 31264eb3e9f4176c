"""The play screen's reused widgets stay few (issue 33): each store keeps at most its bound,
drops the least recently used one first, and never takes a widget from the screen."""

import gc
import random
import weakref

import pytest
from kivy.uix.widget import Widget

from kiosk.ui import play
from kiosk.ui.reused import Reused
from testkit import drive

from .uiplay import bot_step


def test_the_least_recently_used_widget_goes_first():
    kept = Reused(2)
    a, _ = kept.take("a", object)
    b, _ = kept.take("b", object)
    assert kept.take("a", object) == (a, True)  # "a" used again: "b" is now the oldest
    c, fresh = kept.take("c", object)
    assert not fresh and list(kept) == ["a", "c"]
    assert kept.take("b", object)[0] is not b  # a dropped widget is never handed out again
    assert len(kept) == 2
    with pytest.raises(ValueError, match="at least one"):
        Reused(0)


def shown(app) -> list:
    """Every widget in the prompt area and the row pinned under it."""
    return [w for box in (app.play.prompt_box, app.play.footer) for w in box.walk(restrict=True)]


@pytest.mark.parametrize("game", ["promise-hollows", "hell-for-leather"])
def test_a_game_keeps_within_the_bounds_and_the_screen_whole(app, game):
    """The games with the most inputs and buttons a prompt: after every change, each store
    holds at most its bound, and every kept widget on screen is still kept (none was dropped
    while shown, so none can be built again beside itself)."""
    if game not in app.engines:
        pytest.skip(f"{game} engine has not landed yet")
    stores = {"inputs": app.play._inputs_cache, "labels": app.play._labels_cache, "buttons": app.play._buttons_cache}
    bounds = {"inputs": play.INPUTS_KEPT, "labels": play.LABELS_KEPT, "buttons": play.BUTTONS_KEPT}
    app.start_game(game, {"seed": 3})
    rng = random.Random(3)
    ever: dict[str, dict] = {name: {} for name in stores}  # every widget a store has held, by id (kept alive)
    keys: dict[str, set] = {name: set() for name in stores}  # every key a store has held
    for _ in range(60):
        if app.runner.outcome is not None or bot_step(app, rng) is None:
            break
        drive.pump(1)
        on_screen = {id(w) for w in shown(app)}
        assert len(on_screen) == len(shown(app))
        for name, store in stores.items():
            assert len(store) <= bounds[name], f"{name}: {len(store)} kept, bound {bounds[name]}"
            held = {id(w) for w in store.values()}
            ever[name].update((id(w), w) for w in store.values())
            keys[name].update(store)
            assert (ever[name].keys() & on_screen) <= held, f"a {name} widget on screen was dropped from its store"
        # a label or button on screen shows the text it is kept for (a recycled one took its new key's)
        for key, w in [*stores["labels"].items(), *stores["buttons"].items()]:
            if id(w) in on_screen:
                assert w.text == (key[1] if isinstance(key, tuple) else key.split("|", 1)[1].rsplit("|", 1)[0])
    assert all(ever.values())  # the stores were used
    assert any(keys[name] - set(store) for name, store in stores.items()), \
        "no store let a key go (dropped or recycled): the game was too short to test eviction"
    # a dropped widget is freed, unless a container the screen keeps still holds it
    dropped = [weakref.ref(w) for name, store in stores.items() for i, w in ever[name].items()
               if i not in {id(k) for k in store.values()}]
    ever.clear()
    gc.collect()
    kept = {id(box) for box in (app.play.prompt_box, app.play.footer, *app.play.__dict__.get("_offer_grids", {}).values(),
                                *app.play.__dict__.get("_lock_grids", {}).values())}
    leaked = [w for w in (ref() for ref in dropped) if w is not None and id(w.parent) not in kept]
    assert not leaked, f"{len(leaked)} dropped widgets still alive, e.g. {leaked[0]!r}"


def test_a_prompt_larger_than_a_bound_shows_every_widget(app, monkeypatch):
    """Even a bound smaller than one prompt (never chosen, but a slip must not break the
    screen) only costs rebuilding: every button of the menu is there, each once."""
    for name in ("_inputs_cache", "_labels_cache", "_buttons_cache"):
        monkeypatch.setattr(app.play, name, Reused(1))
    app.start_game("clincher", {"seed": 5})
    drive.pump(1)
    rng = random.Random(5)
    for _ in range(40):
        buttons = [w for w in shown(app) if getattr(w, "tag", "").startswith(("menu:", "offer:", "prompt:"))]
        assert len({id(b) for b in buttons}) == len(buttons)
        if bot_step(app, rng) is None:
            break
        drive.pump(1)
        assert len(app.play._buttons_cache) <= 1


def test_a_text_field_typed_into_all_day_keeps_a_bounded_number_of_rendered_lines(app):
    """Kivy keeps a text field's rendered lines 60 s with no count limit; a table that names
    many characters in a minute (or the soak's bot) must not pile them up."""
    from kivy.cache import Cache

    from kiosk.ui.fields import LINE_TEXTURES_KEPT, Entry

    entry = Entry(size_hint=(None, None), size=(300, 60))
    app.root_float.add_widget(entry)
    try:
        for i in range(3 * LINE_TEXTURES_KEPT):
            entry.text = f"Inspector number {i}"
            drive.pump(1)
        assert 0 < len(Cache._objects["textinput.label"]) <= LINE_TEXTURES_KEPT
        assert entry.text == f"Inspector number {3 * LINE_TEXTURES_KEPT - 1}"
    finally:
        app.root_float.remove_widget(entry)


def alive_after_collection(refs: list) -> list:
    gc.collect()
    return [w for w in (ref() for ref in refs) if w is not None]


def kivys_last_text_box() -> list:
    """The text box Kivy itself keeps: ``TextInput._adjust_viewport`` is wrapped by Kivy's
    ``triggered``, which holds the arguments of its last call, so the last box whose text
    scrolled stays alive until another box scrolls (one box at most), with the input it is in."""
    from kivy.uix.textinput import TextInput

    held = []
    for cell in TextInput._adjust_viewport.__closure__ or ():
        if isinstance(cell.cell_contents, list):
            for box in cell.cell_contents:
                if isinstance(box, Widget):
                    while isinstance(box.parent, Widget):
                        box = box.parent
                    if box.parent is None:  # off the window: the input it is in, held by Kivy alone
                        held.extend(box.walk(restrict=True))
    return held


@pytest.mark.parametrize("game", ["promise-hollows", "hell-for-leather"])
def test_a_finished_game_leaves_nothing_alive_once_another_game_is_on(app, game):
    """A game's runner, its status panel and every widget shown or kept for it go once another
    kind of game is on (issue 33). Kept, the first Promise Hollows game of a day held its panel
    and a hundred kept widgets for the rest of it, and a Hell for Leather five-count held its
    game's whole session. A pause and a resume keep the panel (nothing built again)."""
    if game not in app.engines:
        pytest.skip(f"{game} engine has not landed yet")
    app.start_game(game, {"seed": 4})
    sid, panel = app.runner.sid, app.play.panel
    app.pause_game()
    app.resume(sid)
    assert app.play.panel is panel
    rng = random.Random(4)
    for _ in range(25):
        if bot_step(app, rng) is None:
            break
        drive.pump(1)
    if game == "hell-for-leather":
        app.play._five_count()  # as after a shaky throw
    stores = (app.play._inputs_cache, app.play._labels_cache, app.play._buttons_cache)
    parts = {id(w): weakref.ref(w) for root in (app.play.panel, app.play.prompt_box, app.play.footer,
                                                 *(w for store in stores for w in store.values()))
             for w in root.walk(restrict=True)}
    parts.pop(id(app.play.prompt_box)), parts.pop(id(app.play.footer))  # the screen's own
    runner = weakref.ref(app.runner)
    assert len(parts) > 60
    del panel
    app.go_home()
    app.start_game("even-odd", {"seed": 4})
    drive.pump(2)  # a Kivy trigger set in the last frame holds its widget until it has run
    left = alive_after_collection(list(parts.values()))
    own = {id(w) for w in [*vars(app.play).values(), *kivys_last_text_box()] if isinstance(w, Widget)}
    left = [w for w in left if id(w) not in own]  # the screen's own (its plinth note), and Kivy's
    assert runner() is None, "the finished game's runner (its whole session) is still alive"
    assert not left, f"{len(left)} widgets of the finished game still alive, e.g. {left[0]!r}"
    assert app.play.panel.game == "even-odd" and app.play.panel.parent is not None


def test_attract_mode_keeps_only_the_panel_it_shows(app):
    """Attract mode replays recorded games one after another, each with its status panel: the
    panel of a recording no longer shown goes (kept, the loop held all four games' panels)."""
    app.start_attract()
    try:
        drive.pump(2)
        attract = app.attract
        first = attract.panel_box.children[0]  # the panel of the recording on screen
        parts = [weakref.ref(w) for w in first.walk(restrict=True)]
        for _ in range(8):  # on to a recording of another game
            attract._start_next()
            if attract.panel_box.children[0].game != first.game:
                break
        else:
            pytest.skip("only one game has a recording")
        del first
        left = alive_after_collection(parts)
        assert not left, f"{len(left)} widgets of a panel no longer shown still alive"
    finally:
        app.end_attract()


def test_a_widget_shown_in_this_drawing_or_the_last_is_never_recycled():
    """Recycling (a widget no longer shown takes a new key's text instead of being dropped) may
    only take a widget off the screen: not one handed out since the last drawing began, nor in
    that drawing (still shown until the new one is in place); and before the store knows of any
    drawing, nothing is recycled."""
    kept: Reused[list] = Reused(2)
    offered: list = []

    def recycle(widget: list) -> bool:
        offered.append(widget)
        widget[0] = "recycled"
        return True

    a, _ = kept.take("a", lambda: ["a"], recycle)
    b, _ = kept.take("b", lambda: ["b"], recycle)
    c, fresh = kept.take("c", lambda: ["c"], recycle)  # no drawing counted yet: "a" is dropped
    assert not fresh and not offered and list(kept) == ["b", "c"]
    kept.next_draw()
    d, fresh = kept.take("d", lambda: ["d"], recycle)  # "b" and "c" were in the last drawing
    assert not fresh and not offered and list(kept) == ["c", "d"]
    kept.next_draw()
    e, fresh = kept.take("e", lambda: ["e"], recycle)  # "c": two drawings ago, off screen
    assert fresh and e is c and offered == [c] and c == ["recycled"] and list(kept) == ["d", "e"]
    kept.next_draw()
    refused = Reused(1)
    refused.take("x", lambda: ["x"])
    refused.next_draw(), refused.next_draw()
    y, fresh = refused.take("y", lambda: ["y"], lambda widget: False)  # a widget of another style: built anew
    assert not fresh and y == ["y"] and list(refused) == ["y"]


def test_a_long_promise_hollows_game_leaves_few_widgets_to_the_collector(app):
    """A Kivy widget is hundreds of objects in reference cycles: one the play screen drops is
    freed only by Python's cycle collector, which during play may look at old objects a hundred
    actions later. Dropped a few each action (a new sentence on a label or a menu's button),
    they were the largest part of the garbage that piled up to 100,000 memory blocks and more in
    a Promise Hollows game and set Python's memory high-water mark (issue 33, seventh pass). Widgets no longer
    shown take the new sentences instead: the label and button stores drop next to nothing
    (before: 60 of the 140 built in these 80 actions; now 2 of 82)."""
    if "promise-hollows" not in app.engines:
        pytest.skip("promise-hollows engine has not landed yet")
    app.start_game("promise-hollows", {"seed": 6})
    stores = (app.play._labels_cache, app.play._buttons_cache)
    rng = random.Random(6)
    ever: dict[int, Widget] = {}
    steps = 0
    while steps < 80 and app.runner.outcome is None and bot_step(app, rng) is not None:
        drive.pump(1)
        ever.update((id(w), w) for store in stores for w in store.values())
        steps += 1
    held = {id(w) for store in stores for w in store.values()}
    dropped = len(ever.keys() - held)
    assert steps == 80 and len(ever) > 40
    assert dropped <= 6, f"{dropped} of the {len(ever)} labels and buttons built were dropped in 80 actions"


def test_a_challenge_shows_the_cards_of_the_last_one_again(app):
    """Promise Hollows' panel keeps its challenge cards between challenges: built anew, the
    cards of each finished challenge waited for Python's cycle collector (34 in 190 actions of
    one game, issue 33, seventh pass)."""
    from kiosk.ui.panels import PromiseHollowsPanel

    panel = PromiseHollowsPanel()
    panel._show_cards({"challenger": "Ann", "target": "Bo", "third_man": "Cy", "locked": ["Ann"]}, None)
    first = list(reversed(panel.cards.children))
    assert [c.owner for c in first] == ["Ann", "Bo", "Cy"] and [c.dim for c in first] == [False, True, True]
    panel._show_cards(None, None)  # the challenge is over: no cards
    assert not panel.cards.children and panel.cards.height == 0
    panel._show_cards({"challenger": "Di", "target": "Ann", "cards": {"Di": "black"}}, None)
    second = list(reversed(panel.cards.children))
    assert second == first[:2], "new cards were built for the next challenge"
    assert [(c.owner, c.colour, c.face_up) for c in second] == [("Di", "black", True), ("Ann", None, False)]


def test_when_the_group_has_gone_attract_mode_keeps_nothing_of_its_game_and_it_still_resumes(app):
    """Between groups the play screen held the last game's runner, panel and reused widgets
    until the next game came on: Promise Hollows' about 85,000 objects on an idle stand.
    Attract mode now lets them go; the game waits on Home and resumes as it was."""
    if "promise-hollows" not in app.engines:
        pytest.skip("promise-hollows engine has not landed yet")
    app.start_game("promise-hollows", {"seed": 6})
    sid = app.runner.sid
    rng = random.Random(6)
    for _ in range(40):
        if bot_step(app, rng) is None:
            break
        drive.pump(1)
    shown = len(app.runner.session.log)
    stores = (app.play._inputs_cache, app.play._labels_cache, app.play._buttons_cache)
    parts = [weakref.ref(w) for root in (app.play.panel, *(w for store in stores for w in store.values()))
             for w in root.walk(restrict=True)]
    runner = weakref.ref(app.runner)
    assert len(parts) > 60
    app.start_attract()
    drive.pump(2)
    try:
        own = {id(w) for w in kivys_last_text_box()}
        left = [w for w in alive_after_collection(parts) if id(w) not in own]
        assert runner() is None, "the last group's runner (its whole session) is still alive"
        assert not left, f"{len(left)} widgets of the last group's game still alive, e.g. {left[0]!r}"
    finally:
        app.end_attract()
    assert app.sm.current == "home" and sid in drive.scrolled_rows(app.home.waiting, "home:resume")
    app.resume(sid)
    drive.pump(2)
    assert app.sm.current == "play" and app.runner.sid == sid and len(app.runner.session.log) == shown
    assert app.play.panel.game == "promise-hollows" and app.play.panel.parent is not None
    assert drive.find_all("bar:menu")
    app.go_home()
