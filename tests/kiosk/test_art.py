"""Drawn game objects, drawn panels and reveals (issue 21): what a player at the table would see."""

from __future__ import annotations

import json
import os
import random
import time
from types import SimpleNamespace

import pytest

from testkit import drive

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")

from kiosk.ui import art, overlays, panels  # noqa: E402

from .uiplay import back_home  # noqa: E402


@pytest.fixture(autouse=True)
def home(app):
    yield
    back_home(app)


@pytest.fixture
def window_size():
    """Set the window to a size for one test; the 800x480 the other tests expect comes back after."""
    from kivy.core.window import Window

    before = Window.size

    def resize(size):
        Window.size = size
        drive.pump(2)

    yield resize
    Window.size = before
    drive.pump(2)


def _texts(widget) -> str:
    return " ".join(str(w.text) for w in drive.walk(widget) if hasattr(w, "text"))


def _every_instruction(group) -> list:
    out = []
    for child in group.children:
        out += _every_instruction(child) if hasattr(child, "children") else [child]
    return out


def _shapes(widget):
    """(x, y, w, h) on the screen of every filled shape an object drew (rectangles, rounded
    ones, ellipses): where it was drawn, carried by the translation a move adds."""
    from kivy.graphics import Ellipse, Rectangle, RoundedRectangle

    dx, dy = widget._shift.xy if hasattr(widget, "_shift") else (0, 0)
    for ins in _every_instruction(widget.canvas):  # a drawing may keep parts in groups of its own
        if isinstance(ins, (Rectangle, RoundedRectangle, Ellipse)):
            yield (ins.pos[0] + dx, ins.pos[1] + dy, *ins.size)


def _shapes_and_meshes(widget):
    from kivy.graphics import Mesh

    return [i for i in _every_instruction(widget.canvas) if isinstance(i, Mesh)]


def _objects():
    card = art.PlayingCard()
    card.show_card("Q♦")
    back = art.PlayingCard()
    back.show_card(None)
    hollows = art.ChallengeCard()
    hollows.show("Gray", owner="Joe")
    tower = art.HeatTower()
    tower.show(9, 14)
    d10 = art.D10()
    d10.show(7, "touching", "Merit")
    chips = art.Chips()
    chips.show(13)
    bar = art.ColorBar()
    bar.show(5, 10)
    roll = art.DiceGroups()
    roll.show([2, 5, 5, 2, 3])
    papers = art.Papers()
    papers.show([("Even", "Ash Harbor", 0), ("Odd", "Velvet Harbor", 3)])
    landed = art.LandedDice()
    landed.show([{"face": 3, "zone": "inside", "result": "Merit"}], "1 die down")
    return [card, back, hollows, tower, d10, chips, bar, roll, papers, landed]


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_every_object_draws_inside_its_box_at_both_screen_sizes(app, window_size, size):
    from kivy.uix.widget import Widget

    window_size(size)
    for obj in _objects():
        obj.size_hint = (None, None)
        obj.size = (panels.px(90), panels.px(130))
        obj.pos = (panels.px(20), panels.px(30))
        shapes = list(_shapes(obj))
        assert shapes, f"{type(obj).__name__} drew nothing"
        slack = 3  # drop shadows sit 2 px off the object
        for x, y, w, h in shapes:
            assert obj.x - slack <= x and x + w <= obj.right + slack + w * 0.02, (type(obj).__name__, size)
            assert obj.y - slack <= y and y + h <= obj.top + slack, (type(obj).__name__, size)
        assert isinstance(obj, Widget)
    big = _objects()[0]
    big.size = (panels.px(90), panels.px(130))
    assert max(h for *_, h in _shapes(big)) >= panels.px(120), "the card does not grow with the screen"


def test_suit_symbols_are_drawn_in_a_font_that_has_them():
    # Kivy's default font (Roboto) draws a box for every suit: the symbols font does not.
    for suit in "♠♥♦♣":
        assert art.has_glyph(suit, art.SYMBOLS), suit
        assert not art.has_glyph(suit, "Roboto"), f"Roboto has {suit} now: has_glyph cannot tell"
    assert f"[font={art.SYMBOLS}]" in panels.suits_markup("SH")
    assert "spades" in panels.suits_markup("SH") and "hearts" in panels.suits_markup("SH")



def test_drawn_words_and_labels_of_one_size_share_one_open_font(monkeypatch):
    """Kivy opens a font per size as written: the drawn words asked for 16 and labels for 16.0,
    and eight of a day's fonts were open twice (issue 33, sixth pass)."""
    from kivy.core.text.text_sdl2 import LabelSDL2

    from kiosk.ui import theme

    asked: set[str] = set()
    font_id = LabelSDL2._get_font_id

    def noted(label):
        asked.add(font_id(label))
        return font_id(label)

    monkeypatch.setattr(LabelSDL2, "_get_font_id", noted)
    art._texture("Inside, 7 (a test of fonts)", theme.font(16), bold=True)
    label = theme.Text("[b]Inside, 7 (a label)[/b]", size=16)
    label.texture_update()
    bold = {key for key in asked if key.split("|")[2] == "True"}  # size|font|bold|italic|...
    assert len(bold) == 1, f"one font at one size opened as {sorted(bold)}"

def _play_until(runner, done, rng, limit=3000):
    from kiosk.rules import RuleError, bot

    for _ in range(limit):
        if done(runner.session.view(None)) or runner.outcome is not None:
            return True
        prompts = [p for p in runner.awaiting() if not p.optional and p.action != "end_session"] or runner.awaiting()
        try:
            runner.propose(bot.fill(rng.choice(prompts), rng))
        except RuleError:
            pass
    return False


def test_the_clincher_panel_shows_the_active_card_as_a_playing_card(app):
    app.start_game("clincher", {"seed": 3})
    _play_until(app.runner, lambda v: (v.get("scene") or {}).get("active"), random.Random(3))
    for o in list(app.overlays):
        o.dismiss()
    drive.pump(2)
    active = app.runner.session.view(None)["scene"]["active"]
    cards = [w for w in drive.walk(app.play.panel) if isinstance(w, art.PlayingCard)]
    assert cards and cards[0].face_up
    rank, suit = art.split_card(active)
    assert (cards[0].rank, cards[0].suit) == (rank, suit)
    assert panels.card_text(active) in _texts(app.play.panel)  # and in words beside it


def test_phase_keys_and_names_read_as_words_on_the_panel(app):
    app.start_game("hell-for-leather", {"seed": 1})
    drive.pump(2)
    view = app.runner.session.view(None)
    assert view["phase"] == "bios"
    text = _texts(app.play.panel)
    assert "making the contestants" in text and "bios" not in text
    assert panels.label("Team A") == "Team A"
    assert "point(s)" not in panels.scene_story({"lead": "Ann", "evens": 1, "odds": 2, "points_to": "odd",
                                                 "to_paper": 1})


def test_the_heat_asks_for_no_more_dice_than_the_tray_holds():
    assert "add 2 dice" in panels.match_heat(15, 12)  # the default tray reads 14 dice at most
    assert "add 3" not in panels.match_heat(15, 12)
    assert panels.tray_capacity() == 14
    full = panels.match_heat(15, 14, capacity=14)
    assert "matches" in full and "14" in full and "1 is counted here" in full
    assert "add 1 die" in panels.match_heat(5, 4, capacity=14)


class _Game:
    """A game as the panel sees it: its log (a real runner, which the panel may refer to weakly)."""

    def __init__(self, log: list) -> None:
        self.session = SimpleNamespace(log=log)


def test_the_heat_tower_stands_at_the_heat_and_tumbles_when_it_falls(app):
    panel = panels.HellForLeatherPanel()
    panel.size = (panels.px(330), panels.px(600))
    view = {"phase": "conflict", "teams": [], "heat": {"dice": 6, "status": "Saturated", "whose": "Team A"}}
    runner = _Game([SimpleNamespace(type="throw")])
    panel.update(view, runner=runner, tray=SimpleNamespace(heat=6))
    assert panel.heat.tower.dice == 6 and "Saturated" in panel.heat.words.text
    overlays.ANIMATION_SCALE["value"] = 1.0
    try:
        runner.session.log.append(SimpleNamespace(type="heat_fall", faces=[1, 2, 3, 4]))
        view["heat"] = {"dice": 2, "status": "Quiet", "whose": "Team A"}
        panel.update(view, runner=runner, tray=SimpleNamespace(heat=2))
        assert panel.heat.tower.falling == 4 and panel.heat.tower.dice == 6  # still standing, about to fall
        assert "4 dice down" in panel.fall_note.text
        end = time.monotonic() + 2
        while panel.heat.tower.falling and time.monotonic() < end:
            drive.pump(1)
        assert panel.heat.tower.falling == 0 and panel.heat.tower.dice == 2
    finally:
        overlays.ANIMATION_SCALE["value"] = 0


def test_a_fall_tumbles_when_the_panel_catches_up_after_two_actions_and_only_then(app):
    """The panel catches up a frame after the news, so a fall and another action can both be new
    by then: the fall still tumbles when it is the newest. A game put on screen whose last action
    was a fall, or a log an undo made shorter, tumbles nothing."""
    panel = panels.HellForLeatherPanel()
    panel.size = (panels.px(330), panels.px(600))
    view = {"phase": "conflict", "teams": [], "heat": {"dice": 6, "status": "Saturated", "whose": "Team A"}}
    game = _Game([SimpleNamespace(type="throw")])
    panel.update(view, runner=game)
    game.session.log += [SimpleNamespace(type="land"), SimpleNamespace(type="heat_fall", faces=[1, 2, 3])]
    panel.update(view, runner=game)  # one catch-up for two actions
    assert "3 dice down" in panel.fall_note.text
    game.session.log.pop()  # undone
    panel.update(view, runner=game)
    assert panel.fall_note.text == ""
    resumed = _Game([SimpleNamespace(type="throw"), SimpleNamespace(type="heat_fall", faces=[1])])
    panel.update(view, runner=resumed)  # another game on screen: its fall is history
    assert panel.fall_note.text == "" and panel.heat.tower.falling == 0


def test_landed_d10s_are_drawn_with_their_zone(app):
    panel = panels.HellForLeatherPanel()
    dice = [{"thrower": "Ann", "zone": "inside", "face": 7, "die": "drive", "result": "Merit"},
            {"thrower": "Ann", "zone": "outside", "face": 2, "die": "risk", "result": "Curse"}]
    view = {"phase": "conflict", "teams": [], "conflict": {"drive": "Drive 1", "risks": 1, "dice": dice}}
    panel.update(view)
    time.sleep(art.NEXT_FRAME * 2)
    drive.pump(1)  # the row is the record: it draws in the frame after the news
    assert isinstance(panel.landed, art.LandedDice) and panel.landed.height > 0
    assert panel.landed.dice == [(7, "inside", "Merit"), (2, "outside", "Curse")]  # left to right
    assert len(list(_shapes_and_meshes(panel.landed))) >= 2
    assert panel.landed.caption == "2 dice down"


def test_the_even_odd_panel_shows_the_last_roll_as_dice_grouped(app):
    panel = panels.EvenOddPanel()
    record = {"number": 1, "lead": "Ann", "faces": [2, 5, 5, 2, 3], "evens": 2, "odds": 3, "points_to": "odd",
              "to_paper": 3}
    panel.update({"scene": 2, "lead": "Bo", "phase": "wagers", "history": [record], "papers": {"even": 0, "odd": 3},
                  "suspects": {"even": {"name": "Ash Harbor"}, "odd": {"name": "Velvet Harbor"}}})
    assert panel.papers.sides == [("Even", "Ash Harbor", 0), ("Odd", "Velvet Harbor", 3)]
    assert panel.roll.faces == [2, 5, 5, 2, 3] and panel.roll.height > 0
    assert "Scene 1's roll" in panel.roll_title.text


def _open_reveal(app, faces):
    reveal = overlays.Reveal("Revealed together", [], faces=faces)
    app.show_overlay(reveal)
    return reveal


def _turning(reveal) -> bool:
    """Some card has not finished turning: its face is not written yet, or it is still squeezed."""
    return any(not _face_shown(card) or card.squeeze != 1.0 for card in reveal.cards)


def _face_shown(card) -> bool:
    """Whether a card shows its face (main's cards had no ``turned``: their face was their label)."""
    return getattr(card, "turned", card.label.text == card.face)


def _tap(widget):
    x, y = widget.to_window(*widget.center)
    drive.tap_at(x, y)
    drive.pump(1)


def test_a_reveal_holds_the_backs_for_a_beat_then_turns_and_a_tap_shows_every_face_at_once(app):
    # Issue 30: a reveal turned in half a second, with nothing to wait for. Now the backs are
    # held for a beat (a second or more), then every card turns together, drawn as what it is.
    overlays.ANIMATION_SCALE["value"] = 1.0
    try:
        drive.pump(1)  # Kivy times a new event from its last frame: make that now, as a running kiosk's is
        reveal = _open_reveal(app, {"Joe": "Gray", "Bee": "Black (Third Man)"})
        opened = time.monotonic()
        drive.pump(1)
        assert _turning(reveal) and not any(_face_shown(card) for card in reveal.cards)  # backs first
        backs_until = None
        slowest = 0.0
        while _turning(reveal) and time.monotonic() - opened < 4:
            t = time.monotonic()
            drive.pump(1)
            slowest = max(slowest, time.monotonic() - t)
            if backs_until is None and any(card.squeeze < 1.0 or _face_shown(card) for card in reveal.cards):
                backs_until = time.monotonic() - opened
        took = time.monotonic() - opened
        assert backs_until is not None and backs_until >= 1.0, backs_until  # a beat of suspense
        assert not _turning(reveal) and took < overlays.flip_seconds() + 3 * slowest + 0.1, (took, slowest)
        assert [card.picture.colour for card in reveal.cards] == ["Gray", "Black"]  # drawn as the cards
        assert [card.label.text for card in reveal.cards] == ["", "(Third Man)"]  # the colour is not said twice
        reveal.close()

        closed = []
        reveal = overlays.Reveal("Revealed together", [], faces={"Ann": "1 on Odd", "Bo": "2 on Even"},
                                 on_close=lambda: closed.append(1))
        app.show_overlay(reveal)
        drive.pump(1)
        assert _turning(reveal)
        _tap(reveal.cards[0])  # first tap, still in the beat: every face at once, still open
        assert not _turning(reveal)
        assert [(c.picture.points, c.picture.side) for c in reveal.cards] == [(1, "Odd"), (2, "Even")]  # wagers
        assert reveal in app.overlays and not closed
        _tap(reveal.cards[1])  # second tap: back to the game
        assert reveal not in app.overlays and closed == [1]
    finally:
        overlays.ANIMATION_SCALE["value"] = 0


def _secrets(session) -> set[str]:
    """Every text some player may see that the table may not."""
    public = json.dumps(session.view(None), default=str)
    found: set[str] = set()

    def walk(value):
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str) and len(value) > 3 and value not in public:
            found.add(value)

    for player in [p["player"] for p in session.view(None).get("players") or []]:
        walk(session.view(player).get("me"))
    return found


def test_the_promise_hollows_panel_draws_nothing_secret(app):
    app.start_game("promise-hollows", {"seed": 5})
    runner, rng = app.runner, random.Random(5)
    from kiosk.rules import RuleError, bot

    challenges = 0
    for step in range(400):
        if runner.outcome is not None:
            break
        prompts = [p for p in runner.awaiting() if not p.optional] or runner.awaiting()
        try:
            runner.propose(bot.fill(rng.choice(prompts), rng))
        except RuleError:
            continue
        for o in list(app.overlays):
            o.dismiss()
        if step % 4:
            continue
        drive.pump(1)
        public = runner.session.view(None)
        text = _texts(app.play.panel)
        leaked = [s for s in _secrets(runner.session) if s in text]
        assert not leaked, leaked
        shown = ((public.get("scene") or {}).get("challenge") or {}).get("cards") or {}
        for card in (w for w in drive.walk(app.play.panel) if isinstance(w, art.ChallengeCard)):
            challenges += 1
            if card.face_up:
                assert shown.get(card.owner) == card.colour, "a card face up before the rules turned it"
    assert challenges, "no challenge was drawn: this seed tests nothing"
    assert not app.play.panel.failed


def test_a_promise_hollows_sheet_is_drawn_as_the_players_hand(app):
    app.start_game("promise-hollows", {"seed": 4})
    runner = app.runner
    _play_until(runner, lambda v: any(p.get("role") for p in v.get("players") or []), random.Random(4))
    who = runner.players()[0]
    mine = runner.session.view(who)
    look = overlays.PrivateLook(who, [("Me", "x")], mine=mine)
    app.show_overlay(look)
    look._open()
    drive.pump(2)
    cards = [w for w in drive.walk(look) if isinstance(w, art.ChallengeCard)]
    assert sorted(c.colour for c in cards) == ["Black", "Gray", "White"]
    assert "Private Die" in _texts(look) and "Role:" in _texts(look)
    look.dismiss()
    drive.pump(1)
    assert not list(drive.walk(look.box))[1:], "something private stayed on a widget"


def test_a_team_name_ending_in_s_takes_a_plain_apostrophe():
    from kiosk.ui.panels import possessive

    assert possessive("Hell's Outriders") == "Hell's Outriders'"  # the panel said "Outriders's stack"
    assert possessive("Jason") == "Jason's"


def test_a_drawn_object_that_moves_is_carried_not_drawn_again(app):
    """A panel's objects move whenever a line above them changes height; building their
    drawing again on every move cost a die landing about half a millisecond."""
    card = art.PlayingCard(size=(90, 130), pos=(10, 10))
    card.show_card("Q♦")
    made = list(card.canvas.children)
    card.pos = (60, 200)
    assert list(card.canvas.children) == made, "a move rebuilt the drawing"
    assert all(card.x - 3 <= x and x + w <= card.right + 3 for x, y, w, h in _shapes(card))
    card.size = (120, 170)
    assert list(card.canvas.children) != made, "a new size must draw again"
    assert all(card.x - 3 <= x and x + w <= card.right + 3 for x, y, w, h in _shapes(card))


def test_a_die_landing_draws_only_the_new_die_and_looks_the_same_as_a_fresh_drawing(app):
    dice = [{"face": 3, "zone": "inside", "result": "Merit"}, {"face": 7, "zone": "outside", "result": "Risk"},
            {"face": 0, "zone": "touching", "result": ""}]
    landed = art.LandedDice(size=(300, 120), pos=(10, 10))
    landed.show([], "No dice down, 3 to come")  # a conflict's row, before its first die
    row = (landed._kites, landed._words)
    landed.show(dice[:1], "1 die down")
    assert landed._kites is row[0] and landed._words is row[1], "the conflict's first die drew the whole row again"
    first = [_every_instruction(group) for group in row]
    for n in (2, 3):
        landed.show(dice[:n], f"{n} dice down")
    assert [_every_instruction(group)[:len(before)] for group, before in zip(row, first)] == first, \
        "the dice already down were drawn again"
    fresh = art.LandedDice(size=(300, 120), pos=(10, 10))
    fresh.show(dice, "3 dice down")

    def looks(w):
        return [(type(i).__name__, tuple(getattr(i, "pos", ())), tuple(getattr(i, "size", ())),
                 tuple(getattr(i, "rgba", ())), getattr(i, "texture", None)) for i in _every_instruction(w.canvas)]

    assert looks(landed) == looks(fresh)  # the caption too: "3 dice down", where it was "1 die down"


def test_the_dice_rows_words_come_after_every_kite_whichever_way_it_was_drawn(app):
    """Each word on a die is a texture of its own and a kite has none: drawn die by die, the
    software renderer switched textures three or four times a die on every frame. Every kite
    is drawn first, then every word, whether the row was drawn whole or die by die."""
    from kivy.graphics import Line, Mesh, Rectangle

    dice = [{"face": f, "zone": z, "result": r} for f, z, r in
            ((3, "inside", "Merit"), (7, "outside", "Risk"), (0, "touching", ""), (9, "inside", "Boon"))]
    by_landing = art.LandedDice(size=(300, 120), pos=(10, 10))
    by_landing.show([], "No dice down")
    for n in range(1, 5):
        by_landing.show(dice[:n], f"{n} dice down")
    whole = art.LandedDice(size=(300, 120), pos=(10, 10))
    whole.show(dice, "4 dice down")
    for landed in (by_landing, whole):
        drawn = _every_instruction(landed.canvas)
        caption = {id(i) for i in _every_instruction(landed._head)}  # the words above the row, drawn first
        shapes = [k for k, i in enumerate(drawn) if isinstance(i, (Mesh, Line))]
        words = [k for k, i in enumerate(drawn) if isinstance(i, Rectangle) and i.texture is not None
                 and id(i) not in caption]
        assert len(shapes) == 4 * 3 and len(words) == 4 * 2 + 3  # a kite, its outline and crease; face, zone, result
        assert max(shapes) < min(words), "a die's words were drawn between the kites"


def _drawn_alone(texture, shrink: float = 1.0) -> bytes:
    """The pixels of ``texture`` drawn white at (10, 10) on black, ``shrink`` times its size."""
    from kivy.graphics import ClearBuffers, ClearColor, Color, Fbo, Rectangle

    fbo = Fbo(size=(320, 90))
    with fbo:
        ClearColor(0, 0, 0, 1)
        ClearBuffers()
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, pos=(10, 10), size=(texture.width * shrink, texture.height * shrink))
    fbo.draw()
    return bytes(fbo.pixels)


def test_a_word_from_the_shared_sheet_is_drawn_as_kivys_own_label_draws_it(app):
    """The art's words come from one shared texture (``art.WordSheet``), their pixels taken
    from Kivy's label before it copies them into a texture of its own: a Kivy upgrade that
    changes how a label renders would show here. Upside down, a row off, or a neighbour's
    pixels at the edge would each fail."""
    from kivy.core.text import Label as CoreLabel

    for text, size, bold in (("Inside, 7", 20, True), ("Curse on Marlowe", 33, False), ("g|jpqy ÅÉ", 24, True)):
        label = CoreLabel(text=text, font_size=float(size), bold=bold)
        label.refresh()
        shared = art._texture(text, size, bold)
        assert shared.size == label.texture.size and shared.id == art._SHEETS[-1].texture.id
        assert _drawn_alone(shared) == _drawn_alone(label.texture)
        assert any(_drawn_alone(shared)[0::4])  # something was drawn


def test_a_dice_rows_words_share_one_texture(app):
    """Four dice down: their faces, zones and results and the caption are all drawn from one
    texture, so the software renderer binds it once for the row (the kites, untextured, come
    first: see the test above)."""
    from kivy.graphics import Rectangle

    art._forget_texts()  # as a kiosk starts
    dice = [{"face": f, "zone": z, "result": r} for f, z, r in
            ((3, "inside", "Merit"), (7, "outside", "Risk"), (0, "touching", ""), (9, "inside", "Boon"))]
    row = art.LandedDice(size=(300, 120), pos=(10, 10))
    row.show(dice, "4 dice down")
    words = {i.texture.id for i in _every_instruction(row.canvas) if isinstance(i, Rectangle) and i.texture is not None}
    assert len(words) == 1


def test_a_full_sheet_is_never_written_over_and_the_texts_kept_stay_bounded(app):
    """Words go on a sheet until it is full, then on the next; a word already on screen keeps
    its pixels (a canvas may show it for hours). At a third sheet, or past 400 texts, the kept
    texts are forgotten and drawn again when next asked for, so a long day holds at most two."""
    art._forget_texts()
    first = art._texture("Outside, 9", 24, True)
    before = _drawn_alone(first)
    sheets: list = []
    for i in range(1500):  # a long day of new words
        art._texture(f"Word number {i}", 30, True)
        if art._SHEETS[-1] not in sheets:
            sheets.append(art._SHEETS[-1])
        assert len(art._SHEETS) <= art.SHEETS_KEPT and len(art._TEXTURES) <= 401
    assert len(sheets) >= 3  # the day went through several sheets
    assert _drawn_alone(first) == before  # the first word's pixels, long after its sheet filled
    again = art._texture("Outside, 9", 24, True)
    assert again is not first and _drawn_alone(again) == before  # drawn again from the new sheet


def test_words_rendered_just_before_a_sheet_fills_are_still_kept_after_it(app):
    """A landing's words are rendered ahead, one a frame; when a sheet fills among them, the
    next sheet starts and only the oldest sheet's words are forgotten: the words rendered a
    moment ago stay ready (forgetting them all, the landing rendered them again on its frame)."""
    art._forget_texts()
    recent: list[tuple] = []
    rollovers = 0
    newest = None
    for i in range(1200):
        key = (f"Ahead word {i}", 30, True, None)
        art._texture(*key[:3])
        if newest is not None and art._SHEETS[-1] is not newest:
            rollovers += 1
            assert all(k in art._TEXTURES for k in recent), f"words rendered ahead were forgotten at word {i}"
        newest = art._SHEETS[-1]
        recent = (recent + [key])[-20:]
    assert rollovers >= 3


def test_words_on_screen_come_back_when_the_gl_context_is_lost(app):
    """Should the GL context be lost, every texture is made again, empty: a sheet renders its
    words again where they were, even once the kiosk has moved on to a newer sheet, and a
    word too big for a sheet renders itself again."""
    import gc

    from kivy.graphics.context import get_context

    art._forget_texts()
    small, big = art._texture("Touching, 4", 24, True), art._texture("8", 200, True)
    before = _drawn_alone(small), _drawn_alone(big)
    art._forget_texts()  # only the regions still hold the sheet's texture, as a canvas would
    gc.collect()
    get_context().reload()
    drive.pump(2)
    assert (_drawn_alone(small), _drawn_alone(big)) == before


@pytest.mark.parametrize("box", [((10, 10), (380, 120)), ((13.4, 7.6), (301.3, 97.7))])
def test_the_papers_shadow_looks_as_it_did_when_drawn_whole(app, monkeypatch, box):
    """The Even/Odd papers' shadow fills only the strips the paper leaves uncovered; the
    pixels must be the ones a whole shadow under the paper gave."""
    from kivy.graphics import Color, Rectangle

    sides = [("Even", "Ann Vale", 3), ("Odd", "", 12)]

    def pixels():
        papers = art.Papers(pos=box[0], size=box[1])
        papers.show(sides)
        image = papers.export_as_image()
        return image.texture.pixels

    drawn = pixels()

    def whole(x, y, w, h):  # the shadow as it was drawn before: the whole sheet, moved 2 px
        Color(0.02, 0.02, 0.02, 0.45)
        Rectangle(pos=(x + 2, y), size=(w, h))

    monkeypatch.setattr(art, "paper_shadow", whole)
    assert drawn == pixels()


def _same_but_ties(a: bytes, b: bytes, width: int) -> bool:
    """Two RGBA images look the same: every pixel equal, except where an edge lies exactly on
    the line between two pixels (a one-pixel rule at a whole coordinate) and the float
    arithmetic of the two drawings picked the other pixel. Such pixels are few (no more than
    two rows and two columns hold: a rule across the whole width, a row lower), and each
    has a colour close to its own at a neighbour in the other image (a shadow over the rule
    there, over the panel here)."""
    height = len(a) // 4 // width

    def at(img: bytes, x: int, y: int) -> bytes:
        return img[4 * (y * width + x):4 * (y * width + x) + 4]

    def close(p: bytes, q: bytes) -> bool:
        return max(abs(i - j) for i, j in zip(p, q)) <= 48

    differ = [(i // 4 % width, i // 4 // width) for i in range(0, len(a), 4) if a[i:i + 4] != b[i:i + 4]]
    if len(differ) > 2 * (width + height):
        return False
    for x, y in differ:
        around = [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                  if 0 <= x + dx < width and 0 <= y + dy < height]
        if not any(close(at(b, *p), at(a, x, y)) for p in around) or \
                not any(close(at(a, *p), at(b, x, y)) for p in around):
            return False
    return True


def _cached_kinds():
    """One of each drawn object kept as a picture (``Drawn.cached``), showing something."""
    tower = art.HeatTower()
    tower.show(9, 14)
    roll = art.DiceGroups()
    roll.show([2, 5, 5, 2, 3, 6, 1])
    papers = art.Papers()
    papers.show([("Even", "Ann Vale", 3), ("Odd", "", 12)])
    chips = art.Chips()
    chips.show(13)
    bar = art.ColorBar()
    bar.show(5, 10)
    queen, back = art.PlayingCard(), art.PlayingCard()
    queen.show_card("Q♦")
    back.show_card(None)
    gray, hidden = art.ChallengeCard(owner="Ann"), art.ChallengeCard()
    gray.show("Gray", face_up=True)
    hidden.show("Black", face_up=False)
    wager = art.WagerCard()
    wager.show(5, "Odd")
    return [tower, roll, papers, chips, bar, queen, back, gray, hidden, wager]


@pytest.mark.parametrize("box", [((10, 10), (300, 120)), ((13.4, 7.6), (301.3, 97.7))])
def test_objects_kept_as_pictures_look_as_when_drawn_each_frame(app, monkeypatch, box):
    """The drawn objects that change seldom are drawn once into a texture and shown as one
    picture (a software renderer fills a picture faster than the shapes it is made of); a
    player must see the same pixels, on the panel's colour, at a whole or a fractional place."""
    from kivy.graphics import Color, Rectangle
    from kivy.uix.widget import Widget

    from kiosk.ui import theme

    def pixels(obj, cached: bool) -> bytes:
        monkeypatch.setattr(type(obj), "cached", cached)
        ground = Widget(pos=(0, 0), size=(340, 150))
        with ground.canvas.before:
            Color(*theme.PANEL)
            Rectangle(pos=(0, 0), size=(340, 150))
        obj.size_hint = (None, None)
        obj.pos, obj.size = box
        ground.add_widget(obj)
        obj._redraw()
        image = ground.export_as_image().texture.pixels
        ground.remove_widget(obj)
        return image

    kept = [type(obj).__name__ for obj in _cached_kinds() if obj.cached]
    assert kept == ["HeatTower", "DiceGroups", "Papers", "Chips", "ColorBar", "PlayingCard", "PlayingCard",
                    "ChallengeCard", "ChallengeCard", "WagerCard"]
    for obj in _cached_kinds():
        picture = pixels(obj, cached=True)
        textures = [i.texture for i in obj.canvas.children if isinstance(i, Rectangle)]
        assert textures == [obj._picture.texture], f"{type(obj).__name__} is not one picture"
        drawn = pixels(obj, cached=False)
        assert _same_but_ties(picture, drawn, 340), type(obj).__name__
        monkeypatch.undo()


def test_no_drawn_object_draws_a_wide_line_in_a_colour_that_is_not_opaque(app, monkeypatch):
    """Kivy draws a line wider than 1 px in a colour that is not opaque through the stencil
    buffer, a stencil push and a second pass on every frame, and adds the stencil's
    instructions to whichever canvas is open when it first draws: a card back kept as a
    picture carried a stray rectangle and stencil outside its picture. Every object, drawn
    shape by shape, draws its wide lines opaque."""
    from kivy.graphics import Color, Line

    for obj in _cached_kinds():
        monkeypatch.setattr(type(obj), "cached", False)
        obj.size_hint = (None, None)
        obj.pos, obj.size = (10, 10), (300, 120)
        obj._redraw()
        alpha = 1.0
        for ins in _every_instruction(obj.canvas):
            if isinstance(ins, Color):
                alpha = ins.a
            elif isinstance(ins, Line) and ins.width > 1:
                assert alpha == 1, f"{type(obj).__name__}: a {ins.width} px line at alpha {alpha}"
        monkeypatch.undo()


def test_pictures_of_every_size_share_one_gl_program_and_keep_their_own_pixels(app):
    """A table's pictures change size with play (a pot's colour bar, a stack of papers). Each
    Kivy ``Fbo`` links a GL program of its own, and a day made hundreds of them, whose links
    the driver's memory followed (issue 33). Drawn at many sizes, the pictures add no GL
    program, and drawing one picture leaves what another shows as it was."""
    from kivy.graphics import Rectangle, opengl
    from kivy.uix.widget import Widget

    def programs() -> int:
        return sum(opengl.glIsProgram(i) for i in range(1, 4000))

    def shown(obj):
        return next(i.texture for i in obj.canvas.children if isinstance(i, Rectangle))

    ground = Widget(size=(800, 480))
    objects = _cached_kinds()
    for obj in objects:
        obj.size_hint = (None, None)
        ground.add_widget(obj)
    objects[0].pos, objects[0].size = (5, 5), (90, 200)
    objects[0]._redraw()
    first = shown(objects[0]).pixels
    before = programs()
    for step in range(12):  # every object at a new size, twelve times
        for i, obj in enumerate(objects[1:], start=1):
            obj.pos, obj.size = (100 + 3 * step, 20 * i), (150 + 7 * step + i, 60 + 5 * step)
            obj._redraw()
            assert shown(obj).size[0] >= obj.width  # drawn at its new size
    assert programs() == before
    assert shown(objects[0]).pixels == first  # the tower still shows its own picture
    assert any(byte for byte in first[3::4])  # and it has one (not a transparent texture)


def test_a_picture_drawn_inside_another_keeps_both(app):
    """Pictures share their easel; one drawn while another is being drawn (a boxed result inside
    a cached panel, say) gets an easel of its own, and both come out whole."""
    from kivy.graphics import Color, Rectangle

    inner, outer = art.Picture(margin=0), art.Picture(margin=0)

    def draw_outer():
        Color(0, 0, 1, 1)
        Rectangle(pos=(0, 0), size=(40, 40))
        inner.show(lambda: (Color(1, 0, 0, 1), Rectangle(pos=(10, 10), size=(10, 10))), 10, 10, 10, 10)

    assert outer.render(draw_outer, 0, 0, 40, 40)
    pixels = outer.texture.pixels

    def at(x: int, y: int) -> tuple:
        i = 4 * (y * 40 + x)
        return tuple(pixels[i:i + 4])

    assert at(15, 15) == (255, 0, 0, 255)  # the inner picture, inside the outer one
    assert at(2, 2) == (0, 0, 255, 255) and at(35, 35) == (0, 0, 255, 255)  # the outer one around it
    assert tuple(inner.texture.pixels[:4]) == (255, 0, 0, 255)


@pytest.mark.parametrize("box", [((10, 10), (300, 120)), ((13.4, 7.6), (301.3, 97.7))])
def test_the_throw_results_box_as_a_picture_looks_as_when_drawn_each_frame(app, monkeypatch, box):
    """The throw result's box and brass edge are drawn once as a picture (``art.Picture``):
    the same pixels as the shapes, at a whole or a fractional place, under its die and words."""
    from kivy.graphics import Color, Rectangle
    from kivy.uix.widget import Widget

    from kiosk.ui import results, theme

    def pixels() -> tuple[bytes, list]:
        ground = Widget(pos=(0, 0), size=(340, 150))
        with ground.canvas.before:
            Color(*theme.PANEL)
            Rectangle(pos=(0, 0), size=(340, 150))
        result = results.ThrowResult(pos=box[0], size=box[1])
        ground.add_widget(result)
        result.show({"zone": "inside", "face": 7, "meaning": "Merit", "who": None})
        image = ground.export_as_image().texture.pixels
        textures = [i.texture for group in result.canvas.children if hasattr(group, "children")
                    for i in group.children if isinstance(i, Rectangle)]
        result.hide()
        return image, textures + [result._box.texture]

    picture, textures = pixels()
    assert textures[-1] is not None and textures[-1] in textures[:-1]  # the box is shown as its picture
    monkeypatch.setattr(art.Picture, "show", lambda self, draw, *a, **k: draw() or True)  # the shapes instead
    drawn, _ = pixels()
    assert picture == drawn  # every pixel (the box has no rule on a pixel line to tie)


def test_a_throw_result_shown_again_puts_up_the_same_pixels_as_when_first_drawn(app):
    """A result the table has seen before is put up from the drawing kept for it, without a
    redraw: the same pixels as its first showing, after another result was up between."""
    from kivy.graphics import Color, Rectangle
    from kivy.uix.widget import Widget

    from kiosk.ui import results, theme

    ground = Widget(pos=(0, 0), size=(340, 150))
    with ground.canvas.before:
        Color(*theme.PANEL)
        Rectangle(pos=(0, 0), size=(340, 150))
    result = results.ThrowResult(pos=(13.4, 7.6), size=(301.3, 97.7))
    ground.add_widget(result)
    seven = {"zone": "inside", "face": 7, "meaning": "Merit", "who": None}
    result.show(seven)
    first = ground.export_as_image().texture.pixels
    drawing = list(result.canvas.children)
    result.show({"zone": "outside", "face": 2, "meaning": "Curse", "who": None})
    assert ground.export_as_image().texture.pixels != first
    result.show(seven)
    assert [i for i in result.canvas.children if i not in drawing] == [], "drawn again, not kept"
    assert ground.export_as_image().texture.pixels == first
    result.hide()
