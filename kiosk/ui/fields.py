"""Widgets that ask for one value each: a prompt's ``Field`` or a setup question.

* choice -> a grid of big buttons (table colours get their name and shape)
* int    -> a row of numbers when the range is short, a stepper otherwise
* text   -> a text box (on the Pi, an on-screen keyboard with finger-sized keys docks
  below, and the screen moves up so the box being typed in stays just above it)
* list   -> pick buttons that add to a list shown as chips, with undo-last
* bool   -> a Yes / No pair (setup only)

Every input has ``value`` (``None`` until something is chosen) and calls
``on_change`` whenever it changes. Buttons carry a ``tag`` such as
``amount=3`` so the end-to-end tests press exactly what a person would.
"""

from __future__ import annotations

import random
import re
from typing import Any, Callable

from kivy.cache import Cache
from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.textinput import TextInput
from kivy.uix.vkeyboard import VKeyboard
from kivy.utils import escape_markup as esc

from . import theme
from .theme import Big, MarkedButton, Scroll, Text, mark_for, px


LINE_TEXTURES_KEPT = 48
"""How many rendered lines of text fields Kivy keeps for reuse. Kivy's TextInput keeps every
line's texture for 60 s after its last use and no count limit, so a busy table (a bot in the
soak, a quick group naming characters) piles up textures nobody will show again; a count
limit drops the oldest first (kivy.cache), which also bounds what a slow table keeps."""
Cache.register("textinput.label", limit=LINE_TEXTURES_KEPT, timeout=60.0)  # after TextInput registered it


KEY_PX = 48
"""An on-screen key's height in the 800x480 design: 9.2 mm on the official 7" display
(5.2 px per mm), about 8.7 mm on the Touch Display 2 at 1280x720. A finger needs ~9 mm."""
ABOVE_KEYBOARD_PX = 8
"""Room left between the box being typed in and the keyboard's top edge."""


class TableKeyboard(VKeyboard):
    """Kivy's on-screen keyboard, docked along the bottom with finger-sized keys.

    Docked, Kivy scales its 700x200 keyboard to the window's width: on an
    800x480 screen its keys were about 40 px (7.5 mm) high. Here the keyboard
    keeps the window's width and takes the height its rows need at ``KEY_PX``.
    The kiosk installs it with ``Window.set_vkeyboard_class``.
    """

    def setup_mode_dock(self, *largs) -> None:
        win = self.get_parent_window()
        rows = (self.available_layouts.get(self.layout) or {}).get("rows", 5)
        top, _, bottom, _ = self.margin_hint
        self.size = (win.width, rows * theme.px(KEY_PX) / (1.0 - top - bottom))
        super().setup_mode_dock(*largs)  # scale = window width / keyboard width = 1

    def key_height(self) -> float:
        """The height of one key on screen, in pixels."""
        rows = (self.available_layouts.get(self.layout) or {}).get("rows", 5)
        top, _, bottom, _ = self.margin_hint
        return self.height * self.scale * (1.0 - top - bottom) / rows


def keep_above_keyboard(field: TextInput) -> None:
    """Move the screen up just enough that ``field`` sits above the docked keyboard, or back down.

    What moves is the window's child that holds the field, when it is a
    RelativeLayout (the kiosk's root is one): its children keep their own
    coordinates, so the move is exact at once and touches follow it. The
    keyboard is another child of the window and stays at the bottom.
    """
    win = field.get_root_window()
    holder = field
    while holder is not None and holder.parent is not win:
        holder = holder.parent
    if win is None or not isinstance(holder, RelativeLayout):
        return
    keyboard = next((w for w in win.children if isinstance(w, VKeyboard) and w.docked), None)
    if not field.focus or keyboard is None:
        holder.y = 0
        return
    keyboard_top = keyboard.y + keyboard.height * keyboard.scale
    _, bottom = field.to_window(field.x, field.y)
    lift = holder.y + keyboard_top + theme.px(ABOVE_KEYBOARD_PX) - bottom
    # Never more than needed to show the field's top on the screen too.
    _, top = field.to_window(field.x, field.top)
    holder.y = max(0.0, min(lift, holder.y + win.height - top))


class Entry(TextInput):
    """Kivy's text box, minus a cursor that blinks on after the box has lost focus,
    and kept above the on-screen keyboard while it is typed in.

    Kivy restarts the cursor's blink a frame after a key or a tap; if focus
    moves away within that frame (a last key and a tap on Start together), the
    blink starts anyway and never stops, redrawing the whole window twice a
    second for the rest of the day.
    """

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        # The keyboard is added to the window when focus comes: look a frame later.
        self.fbind("focus", lambda *_: Clock.schedule_once(lambda dt: keep_above_keyboard(self), 0))

    def _reset_cursor_blink(self, *args) -> None:
        if self.focus:
            super()._reset_cursor_blink(*args)
        else:
            self._do_blink_cursor_ev.cancel()


SUIT_WORDS = {"♠": " of spades", "♥": " of hearts", "♦": " of diamonds", "♣": " of clubs"}


def readable(text: str) -> str:
    """Engine text as the screen's font can draw it: card suits in words (the font has no suit glyphs)."""
    for symbol, words in SUIT_WORDS.items():
        text = text.replace(symbol, words)
    return text


def show(value: Any) -> str:
    """How a value reads on a button."""
    if isinstance(value, str) and any(sym in value for sym in SUIT_WORDS):
        return readable(value)
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, str):
        mark = mark_for(value)
        return mark[3] if mark else value.replace("_", " ").capitalize() if value.islower() else value
    if isinstance(value, (list, tuple)):
        return ", ".join(show(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{str(k).replace('_', ' ')} {show(v)}" for k, v in value.items() if v not in (None, [], {}, ""))
    return str(value)


def choice_button(name: str, value: Any, **kw) -> Big:
    tag = f"{name}={value!r}"
    kw.setdefault("size", theme.READ)
    if isinstance(value, str) and mark_for(value):
        button = MarkedButton(value, **kw)
    else:
        button = Big(show(value), **kw)
    button.tag = tag
    button.value = value
    return button


class Input(BoxLayout):
    def __init__(self, name: str, label: str, on_change: Callable[[Any], None] | None = None, help: str = "",
                 **kw) -> None:
        """``help``, if any, is a line of explanation between the label and the input."""
        kw.setdefault("orientation", "vertical")
        kw.setdefault("size_hint_y", None)
        kw.setdefault("spacing", px(4))
        super().__init__(**kw)
        self.name = name
        self.value: Any = None
        self.on_change = on_change or (lambda v: None)
        self.bind(minimum_height=self.setter("height"))
        self.title: Text | None = None
        """The input's name over it, if it has one (a reused form may renumber it)."""
        if label:
            self.title = Text(label, size=theme.READ, color=theme.DIM)
            self.add_widget(self.title)
        if help:
            self.add_widget(Text(esc(help), size=theme.LEAST + 2, color=theme.DIM, italic=True))

    def set(self, value: Any) -> None:
        self.value = value
        self.on_change(value)

    def reset(self) -> None:
        """Back to nothing chosen, so a reused input shows no stale answer."""
        self.set(None)

    def submit_to(self, submit) -> None:
        """Where a one-tap answer goes (inputs are reused from prompt to prompt)."""


class ChoiceInput(Input):
    """Big buttons; ``submit`` (if given) is called the moment one is pressed."""

    def __init__(self, name, label, choices, default=None, submit=None, cols=None, **kw) -> None:
        super().__init__(name, label, **kw)
        self.submit = submit
        count = len(choices)
        cols = cols or (1 if count == 1 else 2 if count in (2, 4) else 3 if count <= 9 else 4)
        grid = GridLayout(cols=cols, spacing=px(6), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        self.buttons = []
        for value in choices:
            button = choice_button(name, value)
            button.bind(on_release=lambda b: self.pick(b.value))
            grid.add_widget(button)
            self.buttons.append(button)
        self.add_widget(grid)
        if default is not None and default in choices:
            self.pick(default, quiet=True)

    def reset(self) -> None:
        self.pick(None, quiet=True)

    def submit_to(self, submit) -> None:
        self.submit = submit

    def pick(self, value, quiet: bool = False) -> None:
        for b in self.buttons:
            if not isinstance(b, MarkedButton):
                b.kind = "accent" if b.value == value else "normal"
            else:
                b.text = ("> " + show(b.value) + " <") if b.value == value else show(b.value)
        self.set(value)
        if self.submit and not quiet:
            self.submit()


class IntInput(Input):
    def __init__(self, name, label, lo=None, hi=None, default=None, submit=None, **kw) -> None:
        super().__init__(name, label, **kw)
        self.lo = int(lo) if lo is not None else 0
        self.hi = int(hi) if hi is not None else self.lo + 99
        self.choice = self.shown = None
        if self.hi - self.lo <= 11:
            self.choice = ChoiceInput(name, "", list(range(self.lo, self.hi + 1)), default, submit=submit,
                                      cols=5 if self.hi - self.lo == 9 else min(6, self.hi - self.lo + 1),  # a d10: two rows of 5
                                      on_change=self.set)
            self.add_widget(self.choice)
            return
        self.choice = None
        row = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(6))
        for step in (-5, -1):
            b = Big(f"{step}", size=20)
            b.tag = f"{name}{step:+d}"
            b.bind(on_release=lambda _b, s=step: self.bump(s))
            row.add_widget(b)
        self.shown = Text("", size=26, bold=True, halign="center", fit=False)
        row.add_widget(self.shown)
        for step in (1, 5):
            b = Big(f"+{step}", size=20)
            b.tag = f"{name}+{step}"
            b.bind(on_release=lambda _b, s=step: self.bump(s))
            row.add_widget(b)
        self.add_widget(row)
        self.set(int(default) if default is not None else self.lo)

    def set(self, value) -> None:
        super().set(value)
        if self.shown is not None:
            self.shown.text = str(value)

    def reset(self) -> None:
        if self.choice is not None:
            self.choice.reset()
        else:
            self.set(self.lo)

    def submit_to(self, submit) -> None:
        if self.choice is not None:
            self.choice.submit = submit

    def bump(self, step: int) -> None:
        self.set(max(self.lo, min(self.hi, (self.value or 0) + step)))


class TextField(Input):
    """A text box, shown filled in when there is a suggestion (``suggest``: a function that
    draws one), with a dice button beside it that draws another: one tap instead of typing.
    ``optional``: a Skip button empties the box (a blank answer means the default)."""

    def __init__(self, name, label, default="", max_len=None, suggest: Callable[[], str] | None = None,
                 optional: bool = False, **kw) -> None:
        super().__init__(name, label, **kw)
        self.suggest = suggest
        self.box = Entry(text=str(default or ""), multiline=False, font_size=theme.font(20),
                         size_hint_y=None, height=px(theme.TOUCH), write_tab=False,
                         background_color=(0.95, 0.94, 0.9, 1))
        self.max_len = max_len
        self.box.bind(text=lambda _w, t: self.set(t if t.strip() else None))
        row = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(6))
        row.add_widget(self.box)
        if suggest is not None:
            row.add_widget(_side_button(f"{name}:new", "New one", lambda: self.draw()))
        if optional:
            row.add_widget(_side_button(f"{name}:skip", "Skip", lambda: setattr(self.box, "text", "")))
        self.add_widget(row)
        self.set(default or None)

    def draw(self) -> None:
        """Put a fresh suggestion in the box (the dice button)."""
        if self.suggest is not None:
            self.box.text = self.suggest()[: self.max_len] if self.max_len else self.suggest()

    def reset(self) -> None:
        """A reused box starts again from a fresh suggestion, or empty when there is none."""
        self.box.text = ""
        self.draw()


def _side_button(tag: str, text: str, action: Callable[[], None]) -> Big:
    """A small button beside a text box ("New one", "Skip"): as wide as its name, never cut
    (at a fixed 104 px the last letter of "New one" was cut off)."""
    b = Big(text, kind="quiet", size=18, size_hint_x=None, width=px(104))
    theme.fit_width(b, pad=10)
    b.tag = tag
    b.bind(on_release=lambda *_: action())
    return b


def how_many(lo: int, hi: int | None) -> str:
    """How many to pick, in words: '2', '1 to 3', 'up to 3', 'at least 1' (never '2 to 2')."""
    if hi is None:
        return f"at least {lo}"
    if lo == hi:
        return str(lo)
    return f"up to {hi}" if lo == 0 else f"{lo} to {hi}"


class ListInput(Input):
    """Pick items one by one; they show as a line of chips. Respects min/max/unique."""

    def __init__(self, name, label, choices, lo=None, hi=None, unique=False, **kw) -> None:
        super().__init__(name, label, **kw)
        self.lo, self.hi, self.unique = lo or 0, hi, unique
        self.picked: list[Any] = []
        self.summary = Text("", size=theme.READ)
        self.add_widget(self.summary)
        grid = GridLayout(cols=3 if len(choices) > 4 else 2, spacing=px(6), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        self.buttons = []
        for value in choices:
            b = choice_button(name, value)
            b.bind(on_release=lambda btn: self.add(btn.value))
            grid.add_widget(b)
            self.buttons.append(b)
        self.add_widget(grid)
        row = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(6))
        back = Big("Remove last", kind="quiet")
        back.tag = f"{name}:remove"
        back.bind(on_release=lambda *_: self.remove())
        row.add_widget(back)
        if _dice_faces(choices) and self.hi is not None and self.hi == self.lo:
            roll = Big("Roll for me", kind="quiet")
            roll.tag = f"{name}:roll"
            roll.bind(on_release=lambda *_: self.roll())
            row.add_widget(roll)
        self.add_widget(row)
        self._refresh()

    submit = None
    """Where "Roll for me" sends the answer when the roll is all the prompt asks (see ``submit_to``)."""

    def submit_to(self, submit) -> None:
        """A prompt asking only for this roll: "Roll for me" answers it at once (one tap, as a
        single choice does); dice entered face by face still wait for Confirm."""
        self.submit = submit

    def roll(self) -> None:
        """No dice at hand: the kiosk rolls them (the whole set, replacing any picked)."""
        self.picked = [random.choice(self.buttons).value for _ in range(self.hi)]
        self._refresh()
        if self.submit is not None:
            self.submit()

    def add(self, value) -> None:
        if self.hi is not None and len(self.picked) >= self.hi:
            return
        if self.unique and value in self.picked:
            return
        self.picked.append(value)
        self._refresh()

    def remove(self) -> None:
        if self.picked:
            self.picked.pop()
        self._refresh()

    def reset(self) -> None:
        self.picked = []
        self._refresh()

    def _refresh(self) -> None:
        chosen = ", ".join(show(v) for v in self.picked) or "nothing yet"
        self.summary.text = f"Chosen: [b]{chosen}[/b]. Pick {how_many(self.lo, self.hi)}."
        for b in self.buttons:
            b.disabled = (self.unique and b.value in self.picked) or (self.hi is not None and len(self.picked) >= self.hi)
        self.set(list(self.picked))


class NamesInput(Input):
    """The players' names: one text box per player, with add and remove.

    ``redraw`` (a function of how many names are wanted) puts fresh names in every box
    at one tap, on a button reading ``redraw_text`` ("New names", or for the last group's
    remembered names "New group")."""

    def __init__(self, name, label, default, lo=None, hi=None, redraw: Callable[[int], list[str]] | None = None,
                 redraw_text: str = "New names", **kw) -> None:
        super().__init__(name, label, **kw)
        self.lo, self.hi = int(lo or 0), int(hi or 8)
        self.redraw = redraw
        self.rows = BoxLayout(orientation="vertical", size_hint_y=None, spacing=px(4))
        self.rows.bind(minimum_height=self.rows.setter("height"))
        self.add_widget(self.rows)
        buttons = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(6))
        self.more = Big("Add a player", kind="quiet")
        self.more.tag = f"{name}:add"
        self.more.bind(on_release=lambda *_: self.add_row(""))
        self.fewer = Big("Remove the last", kind="quiet")
        self.fewer.tag = f"{name}:remove"
        self.fewer.bind(on_release=lambda *_: self.remove_row())
        if self.hi > self.lo:  # a fixed count (the two team names) has nothing to add or remove
            buttons.add_widget(self.more)
            buttons.add_widget(self.fewer)
        if redraw is not None:
            self.fresh = Big(redraw_text, kind="quiet")
            self.fresh.tag = f"{name}:redraw"
            self.fresh.bind(on_release=lambda *_: self.draw_new())
            buttons.add_widget(self.fresh)
        if buttons.children:
            self.add_widget(buttons)
        self.boxes: list[TextInput] = []
        for value in default or []:
            self.add_row(value)
        self._update()

    def add_row(self, text: str) -> None:
        if len(self.boxes) >= self.hi:
            return
        box = Entry(text=text, multiline=False, font_size=theme.font(19), size_hint_y=None,
                    height=px(48), write_tab=False, hint_text=f"Player {len(self.boxes) + 1}")
        box.bind(text=lambda *_: self._update())
        self.boxes.append(box)
        self.rows.add_widget(box)
        self._update()

    def remove_row(self) -> None:
        if len(self.boxes) > self.lo:
            self.rows.remove_widget(self.boxes.pop())
        self._update()

    def draw_new(self) -> None:
        """Fresh names in every box (as many as there are boxes)."""
        if self.redraw is None:
            return
        for box, text in zip(self.boxes, self.redraw(len(self.boxes))):
            box.text = text
        self._update()

    def _update(self) -> None:
        if not hasattr(self, "more"):
            return
        self.more.disabled = len(self.boxes) >= self.hi
        self.fewer.disabled = len(self.boxes) <= self.lo
        self.set([b.text.strip() for b in self.boxes])


class RecordsInput(Input):
    """Rows of text boxes, one column per text field (a player and their character)."""

    def __init__(self, name, label, default, columns, lo=None, hi=None,
                 redraw: Callable[[int], list[dict]] | None = None, redraw_text: str = "New names", **kw) -> None:
        super().__init__(name, label, **kw)
        self.columns, self.lo, self.hi = columns, int(lo or 0), int(hi or 8)
        self.redraw = redraw
        self.rows = BoxLayout(orientation="vertical", size_hint_y=None, spacing=px(4))
        self.rows.bind(minimum_height=self.rows.setter("height"))
        self.add_widget(self.rows)
        buttons = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(6))
        more = Big("Add a row", kind="quiet")
        more.tag = f"{name}:add"
        more.bind(on_release=lambda *_: self.add_row({}))
        fewer = Big("Remove the last", kind="quiet")
        fewer.tag = f"{name}:remove"
        fewer.bind(on_release=lambda *_: self.remove_row())
        buttons.add_widget(more)
        buttons.add_widget(fewer)
        if redraw is not None:
            fresh = Big(redraw_text, kind="quiet")
            fresh.tag = f"{name}:redraw"
            fresh.bind(on_release=lambda *_: self.draw_new())
            buttons.add_widget(fresh)
        self.add_widget(buttons)
        self.boxes: list[list[TextInput]] = []
        for row in default or []:
            self.add_row(row)

    def add_row(self, values: dict) -> None:
        if len(self.boxes) >= self.hi:
            return
        line = BoxLayout(size_hint_y=None, height=px(48), spacing=px(4))
        boxes = []
        for column in self.columns:
            box = Entry(text=str(values.get(column, "")), multiline=False, font_size=theme.font(18),
                        write_tab=False, hint_text=column.replace("_", " ").capitalize())
            box.bind(text=lambda *_: self._update())
            boxes.append(box)
            line.add_widget(box)
        self.boxes.append(boxes)
        self.rows.add_widget(line)
        self._update()

    def remove_row(self) -> None:
        if len(self.boxes) > self.lo:
            self.boxes.pop()
            self.rows.remove_widget(self.rows.children[0])
        self._update()

    def draw_new(self) -> None:
        """Fresh values in every row (as many rows as there are)."""
        if self.redraw is None:
            return
        for boxes, row in zip(self.boxes, self.redraw(len(self.boxes))):
            for column, box in zip(self.columns, boxes):
                box.text = str(row.get(column, box.text))
        self._update()

    def _update(self) -> None:
        self.set([{c: b.text.strip() for c, b in zip(self.columns, boxes)} for boxes in self.boxes])


class GroupInput(Input):
    """A few numbers that belong together (token counts), each with its own stepper."""

    def __init__(self, name, label, default, parts, **kw) -> None:
        super().__init__(name, label, **kw)
        self.parts = {}
        for q in parts:
            start = (default or {}).get(q.name, q.default)
            if q.kind == "bool":
                w = ChoiceInput(f"{name}.{q.name}", q.label, [True, False], start, on_change=lambda v: self._update())
            else:
                w = IntInput(f"{name}.{q.name}", q.label, q.min, q.max, start, on_change=lambda v: self._update())
            self.parts[q.name] = w
            self.add_widget(w)
        self._update()

    def _update(self) -> None:
        if len(self.parts) == len(getattr(self, "parts", {})):
            self.set({k: w.value for k, w in self.parts.items()})


def field_label(name: str) -> str:
    """A field's name as a label: ``hobby1`` reads "Hobby 1", ``hurt_object`` "Hurt object"."""
    words = re.sub(r"(?<=[a-z])(?=\d)", " ", name).replace("_", " ")
    return words[:1].upper() + words[1:]


def _dice_faces(choices) -> bool:
    """Choices that are the faces of a d6 (a roll the kiosk can make for the table)."""
    return list(choices) == [1, 2, 3, 4, 5, 6]


def _runner_on_screen():
    """The game being played (a kiosk.runner.Runner), or None between games."""
    from kivy.app import App

    return getattr(App.get_running_app(), "runner", None)


def _public_words() -> str:
    """Everything the table can already read about the game on screen, in lower case: a
    suggestion found in it is taken already (a System's or a townsperson's name)."""
    import json

    runner = _runner_on_screen()
    if runner is None:
        return ""
    try:
        return json.dumps(runner.session.view(None), default=str).lower()
    except Exception:  # noqa: BLE001 - a suggestion is a nicety: never let it stop a prompt
        return ""


def suggestion_for(game: str | None, name: str, label: str) -> Callable[[], str] | None:
    """A function that draws a fresh suggestion for a text field, one not yet used in the
    game on screen; None when the field has no list (best left blank)."""
    from kiosk import names

    if not names.list_for(game, name, label):
        return None

    def draw() -> str:
        seen = _public_words()
        pool = [w for w in names.list_for(game, name, label) if w.lower() not in seen]
        return names.suggest(game, name, label) if not pool else random.choice(pool)

    return draw


def for_field(field, submit=None, on_change=None, game: str | None = None, label: str | None = None) -> Input:
    """The input for one prompt ``Field`` (kiosk.rules.core.Field). A text field comes filled
    in with a suggestion in the spirit of ``game`` (default: the game on screen). ``label=""``
    leaves out the field's name over it (the caller shows it elsewhere)."""
    label = (field.label or field_label(field.name)) if label is None else label
    if field.kind == "choice":
        return ChoiceInput(field.name, label, field.choices, submit=submit, on_change=on_change)
    if field.kind == "int":
        return IntInput(field.name, label, field.min, field.max, submit=submit, on_change=on_change)
    if field.kind == "text":
        runner = _runner_on_screen()
        game = game or (runner.engine.game if runner is not None else None)
        widget = TextField(field.name, label, max_len=field.max, on_change=on_change,
                           suggest=suggestion_for(game, field.name, label))
        widget.draw()
        return widget
    return ListInput(field.name, label, field.choices, field.min, field.max, field.unique, on_change=on_change)


def scrolled(widget) -> Scroll:
    view = Scroll()
    view.add_widget(widget)
    return view
