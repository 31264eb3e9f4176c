"""Everything a player must read or press is readable and in reach, at both designed sizes.

Random games of each of the four games are played at 800x480 and at 1280x720
through the real widgets (the bot picks each answer, the screen follows, and
each public prompt the bot answers is first opened the way a player opens it).
Every state shown is checked for:

* a button whose text is clipped: its rendered text wider or taller than the
  button, Kivy dropping part of it (an ellipsis, lines cut off), or a word
  broken across two lines ("Secret / s");
* a primary action (Confirm, Go on, Back, a player's "answer on screen", the
  game-over buttons, the overlays' own buttons, the top bar) outside the
  window, outside the part of its scroll area that is shown (below the fold),
  or under another widget drawn on top of it;
* a character in any shown text that the label's font has no glyph for (Kivy
  draws it as an empty box): checked against the font file's character map
  with fontTools;
* a menu or optional button that does not name its player when more than one
  player has something to press;
* at 800x480, prompt text a player must read smaller than 20 px.

CI runs one game per engine per size, a bounded number of states each. For a
longer run: ``TN_LAYOUT_SEEDS=20 TN_LAYOUT_STATES=100000 ./tn test tests/kiosk/test_layout.py``.
"""

from __future__ import annotations

import os
import random
import re
from functools import lru_cache

import pytest

from testkit import drive

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")

from .uiplay import GAMES, close_overlays  # noqa: E402

SIZES = [(800, 480), (1280, 720)]
SEEDS = range(int(os.environ.get("TN_LAYOUT_SEEDS", "1")))
STATES = int(os.environ.get("TN_LAYOUT_STATES", "120"))  # per game: a bounded sample for CI

PRIMARY = ("prompt:confirm", "prompt:back", "over:", "private:", "reveal:close", "secret:", "bar:",
           "confirm:", "hold:cancel", "whose:")
"""Tags (or tag prefixes) of the buttons that move a game on: they must be in reach."""

READ_AT_20 = ("text", "menu", "lock:")
"""Tags of prompt-area labels every player must read from their seat (20 px at 800x480)."""


# -- the checks -------------------------------------------------------------------------


@lru_cache(maxsize=None)
def _cmap(path: str) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    with TTFont(path, fontNumber=0, lazy=True) as font:
        return frozenset(font.getBestCmap())


MARKUP = re.compile(r"\[/?[a-z_]+(=[^\]]*)?\]")


def plain(label) -> str:
    """The characters a label draws: its text without markup tags, entities decoded."""
    text = label.text
    if getattr(label, "markup", False):
        text = MARKUP.sub("", text).replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")
    return text


def font_file(label) -> str | None:
    core = getattr(label, "_label", None)
    if core is None:
        return None
    path = core.options.get("font_name_r")
    return path if path and os.path.exists(path) else None


FONT_TAG = re.compile(r"\[font=([^\]]*)\]|\[/font\]")


def _font_path(name: str) -> str | None:
    """A markup font name as Kivy resolves it: a registered name, or a file."""
    from kivy.core.text import LabelBase

    registered = LabelBase._fonts.get(name)
    path = registered[0] if registered else name
    return path if path and os.path.exists(path) else None


def runs_by_font(label) -> list[tuple[str | None, str]]:
    """(font file, characters) for each run of a label's text: markup's ``[font=X]`` switches
    the font for its run, as Kivy draws it, so a suit in the symbols font is not missing."""
    base = font_file(label)
    if not getattr(label, "markup", False):
        return [(base, label.text)]
    runs: list[tuple[str | None, str]] = []
    stack = [base]
    at = 0
    for tag in FONT_TAG.finditer(label.text):
        runs.append((stack[-1], label.text[at:tag.start()]))
        if tag.group(1) is not None:
            stack.append(_font_path(tag.group(1)) or stack[-1])
        elif len(stack) > 1:
            stack.pop()
        at = tag.end()
    runs.append((stack[-1], label.text[at:]))
    return [(path, MARKUP.sub("", text).replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&"))
            for path, text in runs]


def missing_glyphs(label) -> str:
    gaps: set[str] = set()
    for path, text in runs_by_font(label):
        if path is not None:
            have = _cmap(path)
            gaps |= {c for c in text if not c.isspace() and ord(c) not in have}
    return "".join(sorted(gaps))


def rendered_lines(label) -> list[str]:
    """The lines of text Kivy actually laid out (after wrapping, cutting or shortening)."""
    core = getattr(label, "_label", None)
    lines = getattr(core, "_cached_lines", None) or []
    return ["".join(word.text for word in line.words) for line in lines]


def rendered(label) -> str:
    return "".join(rendered_lines(label))


def clipped(button) -> str | None:
    """Why ``button``'s text does not fit it, or None."""
    from kivy.uix.label import Label

    if not isinstance(button, Label) or not button.text.strip() or button.width < 2:
        return None
    tw, th = button.texture_size
    if tw > button.width + 1 or th > button.height + 1:
        return f"text {tw:.0f}x{th:.0f} px in a {button.width:.0f}x{button.height:.0f} button"
    want = "".join(plain(button).split())
    got = "".join(rendered(button).split())
    if "…" in got and "…" not in want:
        return f"shortened by Kivy to {rendered(button)!r}"
    if got and len(got) < len(want):
        return f"only {rendered(button)!r} drawn"
    words = [w for line in rendered_lines(button) for w in line.split()]
    if words and words != plain(button).split():
        return f"a word broken across lines: {' / '.join(rendered_lines(button))!r}"
    return None


def shown(widget) -> bool:
    w = widget
    while w is not None and w is not w.parent:
        if getattr(w, "opacity", 1) == 0:
            return False
        w = w.parent
    return widget.get_root_window() is not None and widget.width > 1 and widget.height > 1


def window_rect(widget) -> tuple[float, float, float, float]:
    x0, y0 = widget.to_window(widget.x, widget.y)
    return x0, y0, x0 + widget.width, y0 + widget.height


def visible_rect(widget):
    """The part of ``widget`` a player can see: its rectangle cut by every scroll area around it."""
    from kivy.uix.scrollview import ScrollView

    x0, y0, x1, y1 = window_rect(widget)
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, ScrollView):
            a, b, c, d = parent.shown_rect() if hasattr(parent, "shown_rect") else window_rect(parent)
            x0, y0, x1, y1 = max(x0, a), max(y0, b), min(x1, c), min(y1, d)
        parent = parent.parent
    return x0, y0, x1, y1


def draw_order(root):
    """Widgets in the order Kivy draws them (later ones on top)."""
    yield root
    for child in reversed(root.children):
        yield from draw_order(child)


def _draws_something(widget) -> bool:
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    from kiosk.ui.theme import Filled

    if isinstance(widget, Button) or isinstance(widget, Filled):
        return True
    return isinstance(widget, Label) and bool(widget.text.strip())


def out_of_reach(widget, later) -> str | None:
    """Why ``widget`` (a primary action) cannot be seen whole and pressed, or None."""
    from kivy.core.window import Window

    x0, y0, x1, y1 = window_rect(widget)
    if x0 < -1 or y0 < -1 or x1 > Window.width + 1 or y1 > Window.height + 1:
        return f"outside the {Window.width}x{Window.height} window at {x0:.0f},{y0:.0f}-{x1:.0f},{y1:.0f}"
    v = visible_rect(widget)
    seen = max(0, v[2] - v[0]) * max(0, v[3] - v[1])
    if seen < 0.98 * widget.width * widget.height:
        return f"below the fold: {seen / (widget.width * widget.height):.0%} of it shown in its scroll area"
    for other in later:
        if drive.descends(other, widget) or not _draws_something(other) or not shown(other):
            continue
        o = visible_rect(other)
        w, h = min(v[2], o[2]) - max(v[0], o[0]), min(v[3], o[3]) - max(v[1], o[1])
        if w > 2 and h > 2:
            return f"covered by {type(other).__name__} {getattr(other, 'tag', '') or getattr(other, 'text', '')!r}"
    return None


def drawn_box(widget) -> tuple[float, float, float, float] | None:
    """Where an ``art.Drawn`` widget's drawing really lies (its canvas's rectangles, ellipses,
    lines and triangles, moved by its translation), in the widget's own coordinates."""
    from kivy.graphics import Ellipse, Line, Rectangle, RoundedRectangle, Triangle
    from kivy.graphics.instructions import Canvas, InstructionGroup

    def every(group):  # the drawing's instructions, also those it keeps in groups of its own
        for ins in group.children:
            if isinstance(ins, InstructionGroup) and not isinstance(ins, Canvas):
                yield from every(ins)
            else:
                yield ins

    xs: list[float] = []
    ys: list[float] = []
    for ins in every(widget.canvas):
        if isinstance(ins, (Rectangle, RoundedRectangle, Ellipse)):
            (x, y), (w, h) = ins.pos, ins.size
            xs += [x, x + w]
            ys += [y, y + h]
        elif isinstance(ins, (Line, Triangle)) and ins.points:
            xs += list(ins.points[0::2])
            ys += list(ins.points[1::2])
    if not xs:
        return None
    dx, dy = widget._shift.xy
    return min(xs) + dx, min(ys) + dy, max(xs) + dx, max(ys) + dy


def spilled_art(widget, labels) -> str | None:
    """Why an ``art.Drawn`` widget's drawing is not wholly inside its own box (then part of it
    is cut by the scroll area or drawn over the text beside it: the clincher's card over
    "Tokens:", the Epilogue's sixth die below its box), or None."""
    box = drawn_box(widget)
    if box is None:
        return None
    out = max(widget.x - box[0], widget.y - box[1], box[2] - widget.right, box[3] - widget.top)
    if out <= 3:
        return None
    x0, y0 = widget.to_window(box[0], box[1])
    x1, y1 = widget.to_window(box[2], box[3])
    over = [plain(w)[:30] for w in labels if w is not widget and not drive.descends(w, widget)
            and min(x1, window_rect(w)[2]) - max(x0, window_rect(w)[0]) > 2
            and min(y1, window_rect(w)[3]) - max(y0, window_rect(w)[1]) > 2]
    return f"drawn {out:.0f} px outside its box" + (f", over {over[0]!r}" if over else "")


def partly_shown(widget) -> str | None:
    """Why a button is only partly visible in its scroll area (a player may miss it, or press
    the half they see), or None. A button wholly below the fold is fine: the area scrolls."""
    v = visible_rect(widget)
    seen = max(0, v[2] - v[0]) * max(0, v[3] - v[1]) / max(1, widget.width * widget.height)
    return f"only {seen:.0%} of it shown" if 0.05 < seen < 0.95 else None


def whose_buttons(app) -> dict[str, str]:
    """The player each menu and optional button acts for, by tag, when more than one
    player has something to press now (else nobody needs telling whose it is)."""
    if app.runner is None or app.runner.outcome is not None or app.sm.current != "play":
        return {}
    prompts = [p for p in app.runner.awaiting() if not p.secret]
    if len({p.player for p in prompts}) < 2:
        return {}
    public = [p for p in prompts if not p.optional]
    owners = {f"act:{i}": p.player for i, p in enumerate(public) if p.player}
    owners.update({f"optional:{p.action}:{p.player}": p.player for p in prompts if p.optional and p.player})
    return owners


def problems(app, size) -> list[str]:
    """Everything wrong with what is on the window now."""
    from kivy.core.window import Window
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    from kiosk.ui import art, theme

    drive.pump(2)
    found: list[str] = []
    owners = whose_buttons(app)
    top = Window.children[0]  # an open overlay, else the app: what the players' fingers reach
    ordered = [w for root in reversed(Window.children) for w in draw_order(root)]
    on_top = {id(w) for w in draw_order(top)}
    labels = [w for w in ordered if isinstance(w, Label) and shown(w) and w.text.strip()]
    for w in ordered:
        if isinstance(w, art.Drawn) and shown(w):
            why = spilled_art(w, labels)
            if why:
                found.append(f"{type(w).__name__} {why}")
    for i, w in enumerate(ordered):
        if not isinstance(w, Label) or not shown(w):
            continue
        name = getattr(w, "tag", "") or plain(w)[:40]
        gaps = missing_glyphs(w)
        if gaps:
            found.append(f"{name!r}: no glyph for {gaps!r} in {os.path.basename(font_file(w))}")
        if isinstance(w, Button):
            why = clipped(w) or partly_shown(w)
            if why:
                found.append(f"button {name!r} clipped: {why}")
        tag = getattr(w, "tag", "")
        if tag and id(w) in on_top and isinstance(w, Button) and tag.startswith(PRIMARY):
            why = out_of_reach(w, ordered[i + 1:])
            if why:
                found.append(f"primary action {tag!r} {why}")
        owner = owners.get(tag)
        if owner and owner not in plain(w):
            found.append(f"button {tag!r} ({plain(w)[:40]!r}) does not say it is {owner}'s, and others could press it")
        if size == (800, 480) and (tag in READ_AT_20 or tag.startswith("lock:")) and not tag.endswith(":help") \
                and drive.descends(w, app.play) and w.font_size < theme.font(20) - 0.5:
            found.append(f"{tag!r} is {w.font_size:.0f} px, under the 20 px players read at a metre")
    return found


# -- walking the games ---------------------------------------------------------------------


@pytest.fixture(scope="module", params=SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def sized(request, tmp_path_factory):
    from kiosk.ui import overlays

    overlays.ANIMATION_SCALE["value"] = 0
    drive.DRAW["value"] = False
    app = drive.start(str(tmp_path_factory.mktemp("layout")), size=request.param)
    yield app, request.param
    drive.stop(app)


def _open_like_a_player(app, prompt, public) -> None:
    """Open ``prompt`` the way a player would before answering it, so its fields and Confirm show."""
    if prompt.optional:
        tag = f"optional:{prompt.action}:{prompt.player}"
    elif len(public) > 1 and prompt.fields:
        tag = f"act:{public.index(prompt)}"
    else:
        return
    if drive.find_all(tag):
        drive.press(tag)


def _peek_private(app, prompt) -> list[str]:
    """Open a secret prompt's private sheet as its player sees it; report its problems."""
    app.play.open_private(prompt.player, prompt)
    look = app.overlays[-1]
    look._open()
    found = problems(app, None)
    look.dismiss()
    return found


def walk_game(app, size, game: str, seed: int, states: int) -> dict[str, list[str]]:
    """Play a random game through the screen and collect every problem, by the state it was seen in."""
    from kiosk.rules import RuleError, bot

    rng = random.Random(seed)
    app.start_game(game, {"seed": seed})
    seen: dict[str, list[str]] = {}

    def note(where: str, found: list[str]) -> None:
        for f in found:
            seen.setdefault(f, []).append(where)

    for step in range(states):
        if app.overlays:  # a reveal: check it, then close it
            note(f"step {step} reveal", problems(app, size))
            close_overlays(app)
        if app.runner.outcome is not None:
            break
        note(f"step {step}", problems(app, size))
        prompts = app.runner.awaiting()
        required = [p for p in prompts if not p.optional]
        pool = prompts if not required or rng.random() < 0.1 else required
        prompt = rng.choice(pool)
        public = [p for p in prompts if not p.secret and not p.optional]
        if prompt.secret:
            if rng.random() < 0.2:
                note(f"step {step} {prompt.player}'s sheet", _peek_private(app, prompt))
        else:
            _open_like_a_player(app, prompt, public)
            note(f"step {step} {prompt.action}", problems(app, size))
        try:
            app.runner.propose(bot.fill(prompt, rng))
        except RuleError:
            app.play.draw_prompts()
    close_overlays(app)
    note("game over", problems(app, size))
    app.go_home()
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_every_prompt_is_readable_and_in_reach(sized, game):
    app, size = sized
    seen: dict[str, list[str]] = {}
    for seed in SEEDS:
        for problem, where in walk_game(app, size, game, seed=31 + seed, states=STATES).items():
            seen.setdefault(problem, []).extend(where)
    report = [f"{p}  (first at {w[0]}, {len(w)} times)" for p, w in sorted(seen.items())]
    assert not report, f"{game} at {size[0]}x{size[1]}:\n" + "\n".join(report)


def test_the_checks_catch_a_clipped_button_a_broken_word_a_missing_glyph_and_a_button_below_the_fold(sized):
    """The checks themselves: each kind of problem, made on purpose, is reported."""
    from kiosk.ui import theme
    from kiosk.ui.theme import Big

    app, size = sized
    app.start_game("even-odd", {"seed": 3})
    drive.pump(2)
    before = set(problems(app, size))
    box = app.play.prompt_box
    squeezed = Big("Spend 1 VP to force a Dilemma on the Narrator", size_hint=(None, None), width=60, height=30)
    squeezed.tag = "probe:squeezed"
    suits = Big("Redraw ♠♥", size_hint_y=None)
    suits.tag = "probe:suits"
    from kiosk.ui.art import SYMBOLS

    drawn = Big(f"Redraw [font={SYMBOLS}]♣♦[/font]", size_hint_y=None)  # suits in the symbols font
    drawn.tag = "probe:drawn-suits"
    below = Big("Confirm")
    below.tag = "prompt:confirm"
    narrow = Big("Secrets", size_hint=(None, None), width=theme.px(60), height=theme.px(56))
    narrow.tag = "probe:narrow"
    tall = Big("", size_hint_y=None, height=size[1] * 3)
    tall.tag = "probe:tall"
    for w in (squeezed, narrow, suits, drawn, tall, below):
        box.add_widget(w)
    app.play.prompt_scroll.scroll_y = 1
    found = "\n".join(set(problems(app, size)) - before)
    for w in (squeezed, narrow, suits, drawn, tall, below):
        box.remove_widget(w)
    app.go_home()
    assert "'probe:squeezed' clipped" in found
    assert "'probe:narrow' clipped: a word broken across lines" in found  # the old top bar's "Secret / s"
    assert "no glyph for '♠♥'" in found
    assert "♣" not in found and "♦" not in found  # a [font=...] run is checked against its own font
    assert "'prompt:confirm' below the fold" in found or "'prompt:confirm' outside" in found


def test_the_checks_catch_art_drawn_over_text_and_a_button_half_shown(sized):
    """Drawn art outside its box (the clincher's card over "Tokens:", the Epilogue's sixth die
    below its box) and a button a scroll area cuts in two are reported."""
    from kivy.graphics import Color, Rectangle
    from kivy.uix.button import Button
    from kivy.uix.scrollview import ScrollView

    from kiosk.ui import art
    from kiosk.ui.theme import Text

    class Spilling(art.Drawn):
        def draw(self) -> None:
            Color(1, 0, 0, 1)
            Rectangle(pos=(self.x, self.y - 40), size=(self.width, self.height + 40))

    app, size = sized
    app.start_game("clincher", {"seed": 3})
    drive.pump(2)
    before = set(problems(app, size))
    box = app.play.prompt_box
    spill = Spilling(size_hint_y=None, height=60)
    under = Text("Tokens under the card")
    plain_scroll = ScrollView(size_hint=(None, None), size=(200, 90), pos=(300, 200))  # Kivy's own: cuts buttons
    inner = BoxLayout_with_buttons(6)
    plain_scroll.add_widget(inner)
    for w in (spill, under):
        box.add_widget(w)
    app.root.add_widget(plain_scroll)
    app.play.prompt_scroll.scroll_y = 1
    drive.pump(3)
    found = "\n".join(set(problems(app, size)) - before)
    for w in (spill, under):
        box.remove_widget(w)
    app.root.remove_widget(plain_scroll)
    app.go_home()
    assert "Spilling drawn 40 px outside its box, over 'Tokens under the card'" in found
    assert any(isinstance(b, Button) for b in inner.children)
    assert "'probe:row" in found and "% of it shown" in found


def BoxLayout_with_buttons(n: int):
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button

    inner = BoxLayout(orientation="vertical", size_hint_y=None, height=n * 56)
    for i in range(n):
        b = Button(text=f"Row {i}")
        b.tag = f"probe:row{i}"
        inner.add_widget(b)
    return inner


def test_a_scroll_area_never_shows_half_a_button_nor_presses_the_hidden_half(sized):
    """The face buttons under a tray hint were half hidden, and the half shown could be pressed."""
    from kiosk.ui import theme

    app, size = sized
    app.go_home()
    drive.pump(1)
    scroll = theme.Scroll(size_hint=(None, None), size=(300, 150), pos=(10, 10))
    inner = BoxLayout_with_buttons(8)  # 8 rows of 56 px in a 150 px view: the third row is cut
    scroll.add_widget(inner)
    pressed = []
    for b in inner.children:
        b.bind(on_release=lambda btn: pressed.append(btn.tag))
    app.root.add_widget(scroll)
    try:
        scroll.scroll_y = 1
        drive.pump(3)
        x0, y0, x1, y1 = scroll.shown_rect()
        third = inner.children[-3]
        tx, ty = third.to_window(third.x, third.y)
        assert y0 >= ty + third.height - 1, "the cut row is left out of the view whole"
        assert all(partly_shown(b) is None for b in inner.children)
        drive.tap_at(*third.to_window(third.center_x, third.top - 10))  # the part that was shown before
        drive.pump(3)
        assert "probe:row2" not in pressed
        drive.press("probe:row2")  # scrolled into view, it is pressed as usual
        assert "probe:row2" in pressed
    finally:
        app.root.remove_widget(scroll)


def test_clincher_game_over_shows_the_last_clincher_not_no_card_drawn_yet(sized):
    """After 16 scenes the panel still said "No card drawn yet" beside a card back."""
    from kiosk.rules import RuleError, bot

    app, size = sized
    rng = random.Random(4)
    app.start_game("clincher", {"seed": 4})
    for _ in range(3000):
        if app.runner.outcome is not None:
            break
        prompts = [p for p in app.runner.awaiting() if not p.optional] or app.runner.awaiting()
        if len(app.runner.session.view(None)["finished"]) < 3:
            prompts = [p for p in prompts if p.action != "end_session"] or prompts
        try:
            app.runner.propose(bot.fill(rng.choice(prompts), rng))
        except RuleError:
            pass
        close_overlays(app)
    drive.pump(2)
    panel = app.play.panel.inner
    finished = app.runner.session.view(None)["finished"]
    assert app.runner.outcome is not None and finished
    assert "No card drawn yet" not in panel.card_words.text
    assert panel.card.face_up and f"Scene {finished[-1]['number']}" in panel.card_words.text
    app.go_home()


def test_home_with_paused_games_shows_each_name_whole_and_cuts_no_button(sized):
    """Two or more paused games make Home's game cards compact. Beside three buttons (a lesson's
    "Learn, 5 min" among them) a name had 35 px at 800x480: it broke into letters ("Hel / l")
    and ran up over the list of paused games."""
    from kivy.uix.label import Label

    app, size = sized
    for i, game in enumerate(GAMES):
        app.start_game(game, {"seed": i})
        app.go_home()
    drive.pump(2)
    assert len(app.store.unfinished()) >= 2
    found = problems(app, size)
    labels = [w for w in drive.walk(app.home) if isinstance(w, Label) and shown(w) and w.text.strip()]
    titles = {app.title_of(game) for game in GAMES}
    assert titles <= {plain(w) for w in labels}
    found += [f"{plain(w)!r}: {clipped(w)}" for w in labels if clipped(w)]
    assert found == []
