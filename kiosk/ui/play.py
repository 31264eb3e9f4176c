"""The play screen: driven entirely by what the game awaits.

Layout (landscape): a top bar (game, tray status, rules, undo, menu), the
status panel on the left (public view only), the prompt area on the right,
and along the bottom the last things that happened plus any error.

The prompt area renders ``Runner.awaiting()``:

* public prompts become their fields' inputs and a Confirm button (a prompt
  with one choice field submits the moment a button is pressed);
* secret prompts become a lock board: who has locked and who is still
  choosing, never what. Each player answers on their pad or on screen through
  the pass-the-screen flow; when the last one locks, the round is revealed.
* optional prompts (things that may happen at any time) sit in a small row.

A refused answer shows the rules' message in red and keeps every input as it
was, so nothing typed is lost.
"""

from __future__ import annotations

import logging
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup as esc

from kiosk import adapters
from kiosk.rules import RuleError

from . import theme
from .fields import for_field, readable, show
from .overlays import Confirm, PrivateLook, Reveal
from .panels import SafePanel, dice_count, private_lines
from .theme import Big, Filled, Framed, Scroll, Text, px


log = logging.getLogger(__name__)

_SOUND: dict[str, Any] = {}


def _tick_sound() -> None:
    """A short tick from kiosk/assets/tick.wav; silent where there is no audio device."""
    if "tick" not in _SOUND:
        try:
            from pathlib import Path

            from kivy.core.audio import SoundLoader

            _SOUND["tick"] = SoundLoader.load(str(Path(__file__).resolve().parents[1] / "assets" / "tick.wav"))
        except Exception:  # noqa: BLE001 - no audio is not an error at a game table
            _SOUND["tick"] = None
    if _SOUND["tick"] is not None:
        try:
            _SOUND["tick"].play()
        except Exception:  # noqa: BLE001
            pass


def describe(action) -> str:
    """A short public description of an action, for the undo question."""
    data = action.model_dump(exclude={"type", "player"})
    who = action.player or "the table"
    return f"{who}: {action.type.replace('_', ' ')}" + (f" ({show(data)})" if data else "")


class RecentLines(BoxLayout):
    """The last things that happened, oldest first, in a strip two rows high.

    The newest line is always shown whole; the one before it only if both fit
    in the two rows. So the strip keeps its height when a line wraps, and the
    play area above does not jump (and is not laid out again) after a throw.
    Only a newest line longer than two rows makes the strip taller, for as long
    as it is the newest.

    Each action moves the newest line up one place and adds one: the label
    showing it moves with it, so only the new line is rendered, and as plain
    text, which renders several times faster than markup.
    """

    def __init__(self, size: float) -> None:
        self.two_rows = 2 * CoreLabel(font_size=theme.font(size)).get_extents("")[1]
        super().__init__(orientation="vertical", size_hint_y=None, height=self.two_rows)
        self._size = size
        self._labels: list[Text] = []  # one per line to show, oldest first

    def show(self, lines: list[str]) -> None:
        if [label.text for label in self._labels] == lines:
            return  # shown already (perhaps the newest alone, see _fit)
        theme.show_texts(self, lines, make=self._make, keep=4)
        self._labels = list(reversed(self.children))
        self._fit()

    def _make(self) -> Text:
        label = Text("", size=self._size, color=theme.DIM, markup=False)
        label.fbind("height", self._fit)  # a line's height is known once its text is rendered
        return label

    def _fit(self, *_) -> None:
        if not self._labels:
            return
        *older, newest = self._labels
        room = max(self.two_rows, newest.height)
        fits = sum(label.height for label in older) + newest.height <= room
        theme.set_children(self, self._labels if fits else [newest])
        self.height = room


class PlayScreen(Screen):
    def __init__(self, app, **kw) -> None:
        super().__init__(name="play", **kw)
        self.app = app
        self.runner = None
        self.selected: int = 0
        self.inputs: dict[str, Any] = {}
        self._signature = None
        self._shown_heat: int | None = None
        self._inputs_cache: dict[tuple, Any] = {}
        self._buttons_cache: dict[str, Big] = {}
        # The same few containers in the prompt area after almost every action: kept, and
        # their buttons changed in place (theme.set_children), not rebuilt.
        self._optional_row = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(4))
        self._menu_grid = GridLayout(cols=2, spacing=px(6), size_hint_y=None)
        self._menu_grid.bind(minimum_height=self._menu_grid.setter("height"))
        root = BoxLayout(orientation="vertical", padding=px(6), spacing=px(6))  # the window clears to theme.BG
        # top bar
        bar = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(6))
        self.title = Text("", size=20, bold=True, color=theme.ACCENT, fit=False, size_hint_x=0.34)
        self.status = Text("", size=14, color=theme.DIM, fit=False, size_hint_x=0.30)
        bar.add_widget(self.title)
        bar.add_widget(self.status)
        for text, tag, handler in [("Rules", "rules", self.open_rules), ("Secrets", "secrets", self.ask_whose_secrets),
                                   ("Undo", "undo", self.ask_undo), ("Menu", "menu", self.open_menu)]:
            b = Big(text, kind="quiet", size=16, size_hint_x=0.09)
            b.tag = f"bar:{tag}"
            b.bind(on_release=lambda *_, h=handler: h())
            bar.add_widget(b)
        root.add_widget(bar)
        self.bar = bar
        # tray banner (only while the tray is away)
        self.banner = Filled(size_hint_y=None, height=0, bg=theme.BAD, padding=(px(8), 0))
        self.banner_text = Text("", size=16, bold=True, fit=False)
        self.banner.add_widget(self.banner_text)
        root.add_widget(self.banner)
        # body
        body = BoxLayout(spacing=px(6))
        left = Framed(size_hint_x=0.42, radius=px(6))
        self.panel_scroll = Scroll(bar=5)
        left.add_widget(self.panel_scroll)
        body.add_widget(left)
        right = Framed(orientation="vertical", padding=px(8), spacing=px(6), radius=px(6),
                       size_hint_x=0.58)
        self.prompt_scroll = Scroll(bar=5)
        self.prompt_box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=px(8),
                                    padding=(0, 0, px(9), 0))  # a lane for the scroll bar, clear of the buttons
        self.prompt_box.bind(minimum_height=self.prompt_box.setter("height"))
        self.prompt_scroll.add_widget(self.prompt_box)
        right.add_widget(self.prompt_scroll)
        self.error = Text("", size=16, color=(1, 0.55, 0.5, 1))
        right.add_widget(self.error)
        body.add_widget(right)
        root.add_widget(body)
        # what just happened
        self.recent = RecentLines(size=14)
        root.add_widget(self.recent)
        self.add_widget(root)

    def show_sim_button(self, shown: bool) -> None:
        for old in [b for b in self.bar.children if getattr(b, "tag", "") == "sim:toggle"]:
            self.bar.remove_widget(old)
        if shown:
            b = Big("SIM", kind="quiet", size=14, size_hint_x=0.07)
            b.tag = "sim:toggle"
            b.bind(on_release=lambda *_: self.app.toggle_sim())
            self.bar.add_widget(b, index=len(self.bar.children) - 2)  # just after the status text

    # -- attaching a game ----------------------------------------------------

    def attach(self, runner) -> None:
        if self.runner is not None and self._on_change in self.runner.listeners:
            self.runner.listeners.remove(self._on_change)
        self.runner = runner
        runner.listeners.append(self._on_change)
        self.title.text = esc(runner.engine.title)
        self.title.font_size = theme.font(20 if len(runner.engine.title) <= 18 else 16)  # one line at 800 px
        panels = self.__dict__.setdefault("_panels", {})  # one panel per game, reused from game to game
        if runner.engine.game not in panels:
            panels[runner.engine.game] = SafePanel(runner.engine.game)
        self.panel = panels[runner.engine.game]
        self.panel_scroll.clear_widgets()
        self.panel_scroll.add_widget(self.panel)
        self._signature = None
        self.error.text = ""
        self.refresh()

    def _on_change(self, change) -> None:
        self.error.text = ""
        self.refresh()
        try:
            overlay = reveal_overlay(change.reveal) if change.reveal is not None else None
        except Exception:  # noqa: BLE001 - the reveal is in the recap too; the game goes on
            log.exception("the reveal could not be drawn")
            overlay = Reveal("Now everyone knows", ["(the cards could not be drawn: see what happened below)"])
        if overlay is not None:
            self.app.show_overlay(overlay)

    # -- drawing ---------------------------------------------------------------

    def refresh(self) -> None:
        runner = self.runner
        if runner is None:
            return
        view = runner.session.view(None, awaiting=False)
        self.panel.update(view, runner=runner, tray=self.app.controller.tray_state if self.app.controller else None)
        self.recent.show([readable(line) for line in runner.session.recap(None, last=2)] or ["The game begins."])
        self.update_status()
        signature = (len(runner.session.log), runner.outcome)
        if signature != self._signature:
            self._signature = signature
            self.draw_prompts()

    def update_status(self) -> None:
        c = self.app.controller
        if c is None:
            return
        tray = c.tray_state
        uses_tray = adapters.for_game(self.runner.engine.game).uses_tray if self.runner else False
        stack = "not read yet" if tray.heat is None else dice_count(tray.heat)
        self.status.text = f"Tray: {tray.link_text}   Stack: {stack}" if uses_tray else ""
        if uses_tray and hasattr(self.panel, "show_tray") and tray.heat != self._shown_heat:
            self._shown_heat = tray.heat
            self.panel.show_tray(tray)
        self.banner.height = px(34) if uses_tray and not tray.connected and tray.expected else 0
        self.banner.opacity = 1 if self.banner.height else 0
        self.banner_text.text = "Tray unplugged: enter throws and Heat by touch below. Sensing resumes when it is back." \
            if self.banner.height else ""

    def draw_prompts(self) -> None:
        box = theme.Gather()  # the prompt area's new children, put in place at the end
        self.inputs = {}
        try:
            if self.runner.outcome is not None:
                self._draw_outcome(box)
            else:
                self._draw_awaited(box)
        except Exception:  # noqa: BLE001 - a display bug must never lock a game away
            log.exception("the prompt area could not be drawn; showing the plain one")
            box = theme.Gather()
            self._draw_plain(box)
        theme.set_children(self.prompt_box, box)
        theme.screen_changed()

    def _draw_plain(self, box) -> None:
        """The prompt area at its plainest: one button per thing the game awaits, each
        opening its own entry. Shown when the usual drawing failed."""
        box.add_widget(Text("Part of this screen could not be drawn (it is logged). Play goes on:", size=16,
                            color=theme.DIM))
        for i, prompt in enumerate(self.runner.awaiting()):
            if prompt.secret:
                b = Big(esc(f"{prompt.player}: answer on screen"), size=16)
                b.handler = lambda p=prompt: self.ask_private(p.player, p)
            else:
                b = Big(esc(readable(prompt.text)), size=16)
                b.handler = lambda p=prompt: self._open_optional(p)
            b.tag = f"plain:{i}"
            b.bind(on_release=lambda btn: btn.handler())
            box.add_widget(b)
        if self.runner.outcome is not None:
            home = Big("Home", kind="accent")
            home.tag = "over:home"
            home.bind(on_release=lambda *_: self.app.go_home())
            box.add_widget(home)

    def _draw_awaited(self, box) -> None:
        runner = self.runner
        prompts = runner.awaiting()
        secret = [p for p in prompts if p.secret]
        public = [p for p in prompts if not p.secret and not p.optional]
        optional = [p for p in prompts if not p.secret and p.optional]
        if secret:
            self._draw_locks(box, secret)
        if len(public) == 1:
            self._draw_prompt(box, public[0])
        elif public:
            self._draw_menu(box, public)
        if optional:
            box.add_widget(self._label("optional:title", "Also possible now:", size=14, color=theme.DIM))
            buttons = []
            for p in optional:
                b = self._button(f"optional:{p.action}:{p.player}", esc(p.text), kind="quiet", size=14)
                if not getattr(b, "fits_row", False):
                    b.fits_row = True
                    b.bind(texture_size=lambda btn, ts: _fit_row(btn.parent))
                b.handler = lambda p=p: self._open_optional(p)
                buttons.append(b)
            theme.set_children(self._optional_row, buttons)
            _fit_row(self._optional_row)
            box.add_widget(self._optional_row)

    def _draw_menu(self, box, public) -> None:
        """Several things may be done now: one button each. A button without values acts at once."""
        players = {p.player for p in public}
        if len(players) == 1:
            who = next(iter(players)) or "The table"
            box.add_widget(self._label("menu", f"[b]{esc(who)}[/b], choose what to do:", size=19))
        else:
            box.add_widget(self._label("menu", "Choose what happens next:", size=19))
        grid = self._menu_grid
        buttons = []
        for i, p in enumerate(public):
            who = p.player or "Table"
            text = p.text if len(players) == 1 or p.text.startswith(who) else f"{who}: {p.text}"
            b = self._button(f"act:{i}", esc(readable(text)), size=15, height=px(64))
            if not getattr(b, "grows", False):
                b.grows = True
                b.bind(texture_size=lambda btn, ts: _same_height(btn.parent))
            b.handler = lambda p=p: self._choose(p)
            buttons.append(b)
        theme.set_children(grid, buttons)
        box.add_widget(grid)
        _same_height(grid)

    def _choose(self, prompt) -> None:
        if not prompt.fields:
            self.submit(prompt)
            return
        self._open_optional(prompt)

    def _draw_prompt(self, box, prompt) -> None:
        who = prompt.player or "The table"
        box.add_widget(self._label("who", f"[b]{esc(who)}[/b]", size=16, color=theme.ACCENT))
        box.add_widget(self._label("text", esc(readable(prompt.text)), size=21, bold=True))
        single = len(prompt.fields) == 1 and prompt.fields[0].kind in ("choice", "int")
        for f in prompt.fields:
            widget = self._input_for(f)
            widget.submit_to((lambda p=prompt: self.submit(p)) if single else None)
            self.inputs[f.name] = widget
            box.add_widget(widget)
        if prompt.action == "count" and self.runner.engine.game == "hell-for-leather":
            box.add_widget(self._five_count())
        if not single:
            ok = self._button("prompt:confirm", "Confirm" if prompt.fields else "Go on", kind="accent", size=20)
            ok.handler = lambda p=prompt: self.submit(p)
            box.add_widget(ok)
        self.current_prompt = prompt

    # Widgets are reused from one prompt to the next: a game asks the same kinds of
    # question again and again, and building Kivy widgets (and their text textures)
    # is the slowest part of showing a change. A reused input is reset first.

    def _input_for(self, f):
        key = (f.name, f.kind, repr(f.choices), f.min, f.max, f.unique, f.label)
        widget = self._inputs_cache.get(key)
        if widget is None:
            if len(self._inputs_cache) > 40:
                self._inputs_cache.clear()
            widget = self._inputs_cache[key] = for_field(f)
        else:
            self._free(widget)
            widget.reset()
        return widget

    def _label(self, key: str, text: str, **kw) -> Text:
        """The label for one place on the screen (``key``) showing ``text``.

        Labels are kept by place and text: a game shows the same sentences again
        and again, and one already rendered costs nothing to show again.
        """
        cache = self.__dict__.setdefault("_labels_cache", {})
        label_widget = cache.get((key, text))
        if label_widget is None:
            if len(cache) > 80:
                cache.clear()
            # Born as wide as the prompt area's room, the width layout will give it, so its
            # text is rendered at that width only, not first wrapped into a new widget's
            # 100 px and rendered again when layout widens it.
            box = self.prompt_box
            label_widget = cache[(key, text)] = Text(text, width=box.width - box.padding[0] - box.padding[2], **kw)
            label_widget.tag = key
        else:
            self._free(label_widget)
        return label_widget

    def _button(self, tag: str, text: str, kind: str = "normal", size: float = 18, **kw) -> Big:
        key = f"{tag}|{text}|{kind}"
        b = self._buttons_cache.get(key)
        if b is None:
            if len(self._buttons_cache) > 60:
                self._buttons_cache.clear()
            b = self._buttons_cache[key] = Big(text, kind=kind, size=size, **kw)
            b.tag = tag
            b.bind(on_release=lambda btn: btn.handler())
        else:
            self._free(b)
        b.tag = tag
        return b

    def _free(self, widget) -> None:
        """Take a reused widget from where it was shown, unless that is the prompt area or
        one of its kept containers, where ``theme.set_children`` moves only what changed."""
        if widget.parent is not None and widget.parent not in (self.prompt_box, self._optional_row, self._menu_grid):
            widget.parent.remove_widget(widget)

    def _five_count(self) -> Big:
        """After a shaky throw the table counts to five before reading the dice: shown big, with a tick."""
        button = self._button("prompt:five-count", "The Heat wobbled: start the five-count", kind="normal", size=17)
        button.handler = lambda: self._count_down(button, 5)
        return button

    def _count_down(self, button: Big, left: int) -> None:
        from kivy.clock import Clock

        from .overlays import ANIMATION_SCALE

        _tick_sound()
        if left == 0:
            button.text = "Five! Read the dice now."
            return
        button.text = f"[size={int(theme.font(30))}][b]{left}[/b][/size]   counting to five..."
        Clock.schedule_once(lambda dt: self._count_down(button, left - 1), 1.0 * ANIMATION_SCALE["value"])

    def _open_optional(self, prompt) -> None:
        if not prompt.fields:
            self.submit(prompt)
            return
        self.prompt_box.clear_widgets()
        self.inputs = {}
        self._draw_prompt(self.prompt_box, prompt)
        back = Big("Back", kind="quiet")
        back.tag = "prompt:back"
        back.bind(on_release=lambda *_: self.draw_prompts())
        self.prompt_box.add_widget(back)
        self._signature = None

    def _draw_locks(self, box, secret) -> None:
        # The lock board changes by one line per lock: its widgets are reused (labels by
        # position, a player's row by name, at most a table's worth kept), so only changed
        # texts re-render.
        rows = self.__dict__.setdefault("_lock_rows", {})
        if len(rows) > 16:
            rows.clear()
        for r, rnd in enumerate(self.runner.secret_rounds()):
            waiting = [p for p in secret if p.action == rnd.action]
            text = waiting[0].text if len(waiting) == 1 else rnd.action.replace("_", " ").capitalize()
            box.add_widget(self._label(f"lock:{r}:title", f"Secret choice: [b]{esc(text)}[/b]", size=19))
            has_pads = self.app.controller is not None and self.app.controller.pads is not None
            pads = adapters.for_game(self.runner.engine.game).pad_help(waiting) if has_pads else None
            how = ("Or tap your name, then hold Gray on your pad to answer on screen." if has_pads
                   else "Tap your name: the host hands you the screen, where only you look.")
            box.add_widget(self._label(f"lock:{r}:help", f"{esc(pads)} {how}" if pads else how,
                                       size=14, color=theme.DIM))
            for i, name in enumerate(rnd.locked):
                box.add_widget(self._label(f"lock:{r}:locked:{i}", f"  [b]{esc(name)}[/b]: locked in", size=18,
                                           color=(0.55, 0.85, 0.6, 1)))
            for p in waiting:
                row = rows.get((r, p.player))
                if row is None:
                    row = rows[(r, p.player)] = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(6))
                    row.add_widget(Text("", size=18, fit=False))
                    b = Big("", kind="normal", size=15)
                    b.bind(on_release=lambda btn: btn.handler())
                    row.add_widget(b)
                else:
                    self._free(row)
                b, label = row.children  # children are listed last added first
                label.text = f"  [b]{esc(p.player)}[/b]: still choosing"
                b.text = esc(f"{p.player}: answer on screen")
                b.tag = f"secret:{p.player}"
                b.handler = lambda p=p: self.ask_private(p.player, p)
                box.add_widget(row)

    def _draw_outcome(self, box) -> None:
        box.add_widget(Text("Game over", size=28, bold=True, color=theme.ACCENT, halign="center"))
        box.add_widget(Text(esc(readable(self.runner.outcome)), size=21, halign="center"))
        row = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(6))
        for text, tag, handler in [("Save the log", "export", self.app.export_current),
                                   ("Home", "home", self.app.go_home)]:
            b = Big(text, kind="accent" if tag == "home" else "normal")
            b.tag = f"over:{tag}"
            b.bind(on_release=lambda *_, h=handler: h())
            row.add_widget(b)
        box.add_widget(row)

    def apply_hint(self, hint: dict[str, Any]) -> None:
        """The tray saw part of what happened: open that prompt with what is known filled in."""
        prompts = [p for p in self.runner.awaiting() if p.action == hint.get("action")]
        if not prompts:
            return
        prompt = prompts[0]
        if getattr(self, "current_prompt", None) is not prompt:
            self._open_optional(prompt)
        known = []
        for name, value in hint.items():
            widget = self.inputs.get(name)
            if widget is not None and value is not None:
                if hasattr(widget, "pick"):
                    widget.pick(value, quiet=True)
                elif hasattr(widget, "choice") and widget.choice is not None:
                    widget.choice.pick(value, quiet=True)
                known.append(f"{name} {show(value)}")
        if hint.get("action") == "heat_fall":
            self.error.text = f"The tray saw the Heat fall ({hint.get('fell')} dice). Enter the fallen faces."
        else:
            self.error.text = "The tray saw the die land" + (f" ({', '.join(known)})" if known else "") + \
                ": enter the rest by touch."

    # -- acting ------------------------------------------------------------------

    def submit(self, prompt) -> None:
        data: dict[str, Any] = {"type": prompt.action, "player": prompt.player}
        for f in prompt.fields:
            widget = self.inputs.get(f.name)
            if widget is None or widget.value is None:
                self.error.text = f"Choose {esc(f.label or f.name.replace('_', ' '))} first."
                return
            data[f.name] = widget.value
        self.propose(data)

    def propose(self, data: dict[str, Any]) -> str | None:
        """Hand an answer to the rules; show their refusal, if any, and return it."""
        try:
            self.runner.propose(data)
        except RuleError as err:
            self.error.text = esc(str(err))
            return str(err)
        return None

    def ask_undo(self) -> None:
        if not self.runner or not self.runner.session.log:
            self.error.text = "Nothing to undo yet."
            return
        if self.runner.undo_plan().sealed:
            self.app.show_overlay(Confirm(
                "That would take back a secret choice after its round was revealed.\n"
                "Only the operator can reopen the round, and then everyone in it chooses again.",
                "Operator: reopen it", self._ask_reopen))
            return
        last = self.runner.session.log[-1]
        text = describe(last) if not self._was_secret(last) else f"{last.player}'s locked choice"
        self.app.show_overlay(Confirm(f"Take back the last action?\n{esc(text)}", "Take it back", self.do_undo))

    def _was_secret(self, action) -> bool:
        # A locked secret is shown only as "X's locked choice", never its value.
        from kiosk.rules import Session

        probe = Session(self.runner.engine, self.runner.session.setup)
        for a in self.runner.session.log[:-1]:
            probe.apply(a)
        return any(p.secret and p.action == action.type and p.player == action.player for p in probe.awaiting())

    def do_undo(self) -> None:
        try:
            self.runner.undo()
        except RuleError as err:  # the game moved on while the question was open
            self.error.text = esc(err.message)

    def _ask_reopen(self) -> None:
        runner = self.runner
        self.app.ask_operator(lambda: self._reopen(runner), why="Operator PIN to reopen the round")

    def _reopen(self, runner) -> None:
        if runner is not self.runner:
            return
        runner.undo(operator=True)
        self.app.show_screen("play")
        self.error.text = "The operator reopened the round: everyone in it chooses again."

    def ask_private(self, player: str, prompt=None) -> None:
        """Open ``player``'s private sheet (and ``prompt``, a secret choice of theirs) only
        for them: a player with a pad holds Gray on it; one without needs the host's PIN.
        Either way the table is told whose sheet was opened."""
        players = self.runner.players()
        seat = players.index(player) + 1 if player in players else 0  # 0: no seat, so no pad of their own
        controller = self.app.controller
        runner = self.runner

        def opened(how: str) -> None:
            if self.runner is not runner:
                return
            self.app.show_screen("play")
            self.open_private(player, prompt)
            self.error.text = esc(f"{player}'s sheet was opened{how}.")

        if controller is not None and controller.has_pad(seat):
            from .overlays import HoldToOpen

            self.app.show_overlay(HoldToOpen(player, seat, controller, lambda: opened("")))
        else:
            self.app.ask_operator(lambda: opened(" (handed over by the host)"),
                                  why=f"Host: PIN to hand the screen to {player}")

    def open_private(self, player: str, prompt=None) -> None:
        session = self.runner.session
        try:
            lines = [(esc(h), esc(t)) for h, t in private_lines(session.view(None), session.view(player))]
        except Exception:  # noqa: BLE001 - a sheet that fails to draw must not stop the game
            log.exception("drawing %s's private sheet", player)
            lines = [("Sheet", "this sheet could not be drawn; the game is safe, play on")]
        notes = self.app.controller.private_notes if self.app.controller else {}
        note = esc(notes.pop(player, ""))
        try:
            mine = session.view(player)  # drawn as the player's hand where the game has one (issue 21)
        except Exception:  # noqa: BLE001
            mine = None
        self.app.show_overlay(PrivateLook(player, lines, prompt, answer=self.propose, note=note, mine=mine))

    def ask_whose_secrets(self) -> None:
        from .overlays import Overlay

        chooser = Overlay(size_hint=(0.8, 0.8))
        box = Filled(orientation="vertical", padding=px(12), spacing=px(8), bg=theme.PANEL)
        box.add_widget(Text("Whose sheet? That player opens it from their own pad (or the host, with the PIN).",
                            size=19, halign="center"))
        for name in self.runner.players():
            b = Big(esc(name))
            b.tag = f"whose:{name}"
            b.bind(on_release=lambda *_, n=name: (chooser.dismiss(), self.ask_private(n)))
            box.add_widget(b)
        cancel = Big("Cancel", kind="quiet")
        cancel.bind(on_release=lambda *_: chooser.dismiss())
        box.add_widget(cancel)
        chooser.add_widget(box)
        self.app.show_overlay(chooser)

    def open_rules(self) -> None:
        self.app.open_rules(self.runner.engine.game)

    def open_menu(self) -> None:
        self.app.ask_operator()


TURNING_OVER = {"reveal", "verdict", "case", "revelation"}
"""Event kinds that make something secret public: worth stopping the table for."""


def reveal_overlay(events: list) -> Reveal | None:
    """The round turning over: one named card per player when the rules say what each
    had locked (``data["faces"]``), otherwise one card per public event. "X has
    locked" notes are left out: everyone has, that is why it turns over. A round
    that closes with nothing made public (private rolls, say) stops nobody: None."""
    shown = [e for e in events if e.kind not in ("locked", "lock")]
    turning = [e for e in shown if e.kind in TURNING_OVER or "faces" in e.data]
    if not turning:
        return None
    faced = next((e for e in turning if "faces" in e.data), None)
    after = [faced.data.get("summary", "")] if faced else []
    after += [e.text for e in shown if e not in turning]
    caption = " ".join(esc(readable(t)) for t in after if t)
    if faced is None:
        return Reveal("Now everyone knows", [esc(readable(e.text)) for e in turning], caption=caption)
    faces = {esc(str(who)): esc(readable(str(face))) for who, face in faced.data["faces"].items()}
    return Reveal("Revealed together", [], faces=faces, caption=caption)


def _tallest(buttons, least: float) -> float:
    """The height the button with the most text needs, and never under ``least``."""
    return max([least] + [b.texture_size[1] + px(14) for b in buttons])


def _fit_row(row) -> None:
    """A row of buttons as tall as its tallest text needs, at least a finger high."""
    if row is not None:
        row.height = _tallest(row.children, px(theme.TOUCH))


def _same_height(grid) -> None:
    """Every choice in a menu as tall as the one with the most text, so rows line up."""
    if grid is None:
        return
    tallest = _tallest(grid.children, px(64))
    for b in grid.children:
        b.height = tallest
