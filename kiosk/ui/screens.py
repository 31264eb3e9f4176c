"""The screens around play: home, setup wizard, rules sheet, operator menu, attract mode.

* Home: one big button per game, every unfinished game to resume (with its
  players, moves and time), the operator menu (behind the PIN).
* Setup: a form generated from the game's setup model (kiosk.setupform);
  a refused setup lists every field to fix and keeps the answers.
* Rules: the game's reference sheet (kiosk/assets/rules/<game>.md), in our words.
* Operator: exit, settings, tray calibration, hardware test, export, clear data.
* Attract mode is kiosk.ui.attract (recorded games replayed).
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup as esc, get_hex_from_color

from kiosk.rules.words import plural, stack_words  # not the core: the home screen is drawn before pydantic loads

from . import theme
from .fields import (ChoiceInput, GroupInput, IntInput, NamesInput, RecordsInput, TextField, scrolled,
                     suggestion_for)
from .theme import Big, Filled, Scroll, ScrollList, Text, px

ASSETS = Path(__file__).resolve().parents[1] / "assets"

BLURBS = {
    "hell-for-leather": "Teams race the Heat: throw d10s at the target, keep the stack standing.",
    "promise-hollows": "Bet Color, challenge with secret cards, and keep your promises, or not.",
    "even-odd": "Investigators split their points, wager Even or Odd, and name the guilty.",
    "clincher": "Draw against up suits, spend tokens, and let the clincher card decide.",
    "toy": "A tiny test game: lock a number, then race to ten.",
}


class HomeScreen(Screen):
    def __init__(self, app, **kw) -> None:
        super().__init__(name="home", **kw)
        self.app = app
        self.root_box = BoxLayout(orientation="vertical", padding=px(12), spacing=px(8))
        self.add_widget(self.root_box)

    def on_pre_enter(self, *_) -> None:
        self.rebuild()

    def rebuild(self) -> None:
        """Refresh the list of unfinished games; rebuild the game cards only when the list of
        games changed, or when they must make room for unfinished games (or may have it back)."""
        menu = self.app.menu()
        unfinished = self.app.store.unfinished() if self.app.store else []
        lessons = [getattr(self.app.lesson_for(game), "minutes", None) for game, _title in menu]
        layout = (menu, lessons, len(unfinished) > 1)  # one waiting game fits above the full cards
        if getattr(self, "_layout", None) != layout:
            self._layout = layout
            self._build(menu, compact=len(unfinished) > 1)
        problems = " ".join(self.app.hardware_problems)
        self.problems.text = esc(problems)
        if problems and self.problems.parent is None:
            self.root_box.add_widget(self.problems, index=len(self.root_box.children) - 1)  # under the title row
        elif not problems and self.problems.parent is not None:
            self.root_box.remove_widget(self.problems)
        self._show_wifi()
        self._list_unfinished(unfinished)

    ROW = 48
    """An unfinished game's row (px at scale 1), a finger's height."""

    NAME_LINE = 28
    """A compact card's line for the game's name (px at scale 1), over its buttons."""

    def _compact_height(self) -> float:
        """A compact game card: its name's line over a row of buttons, and the padding round them."""
        return px(self.NAME_LINE) + px(2) + px(theme.TOUCH) + 2 * px(6)

    def game_actions(self, game: str) -> list[tuple[str, str, Any, str]]:
        """The buttons on one game's card, in order: (label, tag word, action, kind). The tag
        is ``home:<word>:<game>``. A further entry (a lesson, say) is one more tuple here."""
        actions = [("New game", "new", lambda: self.app.open_setup(game), "accent")]
        lesson = self.app.lesson_for(game)  # a guided short game (kiosk.lesson), when one is installed
        if lesson is not None:
            actions.append((f"Learn, {lesson.minutes} min", "learn", lambda: self.app.start_lesson(lesson), "good"))
        return actions + [("Rules", "rules", lambda: self.app.open_rules(game), "quiet")]

    def _list_unfinished(self, unfinished) -> None:
        """Every game not over and not abandoned, newest first, each with its own Resume
        button (tagged ``home:resume``, carrying the session's ``sid``), under the title row.
        The list takes the room the compact game cards leave; more games than fit scroll."""
        from kivy.core.window import Window

        if self.waiting.parent is not None:
            self.root_box.remove_widget(self.waiting)
        self.waiting.data = [{"text": esc(describe_unfinished(info, self.app.title_of(info.game))), "sid": info.id,
                              "resume": self.app.resume} for info in unfinished]
        if unfinished:
            spacing = self.waiting.layout_manager.spacing
            step = px(self.ROW) + spacing
            taken = sum(w.height for w in self.root_box.children if w.size_hint_y is None)
            gaps = self.root_box.spacing * len(self.root_box.children) + 2 * self.root_box.padding[1]
            room = max(1, int((Window.height - taken - gaps) // step))
            rows = min(len(unfinished), room)
            self.waiting.height = rows * step - spacing
            self.waiting.scroll_y = 1  # the newest first
            self.root_box.add_widget(self.waiting, index=len(self.root_box.children) - 1)  # under the title row

    def _show_wifi(self) -> None:
        """With phones on and a network set, the Wi-Fi to join and its password, under the title
        (only once the configuration has been read: the first frame does not wait for it)."""
        config = self.app._config_hw
        text = ""
        if config is not None and config.kiosk.phones:
            from .join import wifi_text  # not before the first frame: it brings the overlays

            network = wifi_text(config.phones)
            text = f"Phones: join {network} In a game, tap Phones for your seat's code." if network else ""
        self.wifi.text = text
        if text and self.wifi.parent is None:
            self.root_box.add_widget(self.wifi, index=len(self.root_box.children) - 1)
        elif not text and self.wifi.parent is not None:
            self.root_box.remove_widget(self.wifi)

    def _build(self, menu, compact: bool = False) -> None:
        """The title row and a card per game. ``compact`` (two or more unfinished games to
        list): each card is one row, the game's button and its rules sheet, without the blurb."""
        box = self.root_box
        box.clear_widgets()
        head = BoxLayout(size_hint_y=None, height=px(52))
        head.add_widget(Text("TABLE NOIR", size=32, bold=True, color=theme.ACCENT, fit=False))
        op = Big("Operator", kind="quiet", size=18, size_hint_x=None, width=px(130))
        op.tag = "home:operator"
        op.bind(on_release=lambda *_: self.app.ask_operator())
        head.add_widget(op)
        box.add_widget(head)
        self.problems = Text("", size=18, color=theme.WARN)
        self.problems.tag = "home:problems"
        self.wifi = Text("", size=18, color=theme.DIM)
        self.wifi.tag = "home:wifi"
        self.waiting = ScrollList(px(self.ROW), ResumeRow, spacing=px(4), size_hint_y=None, bar=8)
        grid = GridLayout(cols=2, spacing=px(8))
        for game, title in menu:
            buttons = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(6))
            for label, tag, action, kind in self.game_actions(game):
                b = Big(label, kind=kind, size=theme.READ)
                b.tag = f"home:{tag}:{game}"
                b.bind(on_release=lambda *_, act=action: act())
                if kind != "accent":
                    theme.fit_width(b, pad=12)  # "New game" takes the room the others leave
                buttons.add_widget(b)
            if compact:
                # The name on a line of its own above the buttons: beside three buttons (a lesson's
                # "Learn, 5 min" among them) it had 35 px at 800x480 and broke into letters.
                cell = Filled(orientation="vertical", bg=theme.PANEL, padding=px(6), spacing=px(2),
                              radius=px(6), size_hint_y=None, height=self._compact_height())
                name = Text(f"[b]{esc(title)}[/b]", size=theme.READ, color=theme.ACCENT, fit=False, shorten=True,
                            shorten_from="right", size_hint_y=None, height=px(self.NAME_LINE))
                cell.add_widget(name)
                cell.add_widget(buttons)
                grid.add_widget(cell)
                continue
            name = Text(f"[b]{esc(title)}[/b]", size=theme.READ + 2, color=theme.ACCENT)
            cell = Filled(orientation="vertical", bg=theme.PANEL, padding=px(8), spacing=px(4), radius=px(6))
            cell.add_widget(name)
            cell.add_widget(Text(BLURBS.get(game, ""), size=16, color=theme.DIM))
            cell.add_widget(BoxLayout())  # the buttons sit at the foot of the card
            cell.add_widget(buttons)
            grid.add_widget(cell)
        if compact:
            rows = (len(menu) + 1) // 2
            grid.size_hint_y, grid.height = None, rows * self._compact_height() + (rows - 1) * px(8)
        box.add_widget(grid)
        if compact:
            box.add_widget(BoxLayout())  # the cards stay under the list, the room left below them


class ResumeRow(Big):
    """One paused game in Home's list (tagged ``home:resume``, carrying the session's ``sid``):
    listed, not shouting, for the new games are the screen's offer. The list makes rows only
    for what is in view and hands each the ``text``, ``sid`` and ``resume`` of the game it
    shows now (``theme.ScrollList``)."""

    def __init__(self, **kw) -> None:
        super().__init__(kind="quiet", size=18, **kw)
        self.tag = "home:resume"
        self.sid = 0
        self.resume: Any = None
        self.bind(on_release=lambda *_: self.resume(self.sid) if self.resume is not None else None)


def describe_unfinished(info, title: str, now: float | None = None) -> str:
    """One waiting game in plain words: "Resume Promise Hollows: Ann, Bo, Cy. 12 moves, last
    played at 14:02" (a day, if not today)."""
    now = time.time() if now is None else now
    when = time.localtime(info.updated)
    day = "" if time.localtime(now)[:3] == when[:3] else time.strftime("%a %d %b ", when)
    players = f" ({', '.join(info.players)})" if info.players else ""
    progress = plural(info.actions, "move") if info.actions else "no moves yet"
    return f"Resume {title}{players}: {progress}, last played {day}at {time.strftime('%H:%M', when)}"


class SetupScreen(Screen):
    def __init__(self, app, **kw) -> None:
        super().__init__(name="setup", **kw)
        self.app = app
        self.game = ""
        self.inputs: dict[str, Any] = {}
        root = BoxLayout(orientation="vertical", padding=px(10), spacing=px(6))
        self.heading = Text("", size=24, bold=True, color=theme.ACCENT)
        root.add_widget(self.heading)
        self.form = BoxLayout(orientation="vertical", size_hint_y=None, spacing=px(10), padding=(0, 0, px(10), 0))
        self.form.bind(minimum_height=self.form.setter("height"))
        root.add_widget(scrolled(self.form))
        self.error = Text("", size=16, color=(1, 0.55, 0.5, 1))
        root.add_widget(self.error)
        row = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(8))
        back = Big("Back", kind="quiet")
        back.tag = "setup:back"
        back.bind(on_release=lambda *_: self.app.go_home())
        start = Big("Start the game", kind="accent", size=20)
        start.tag = "setup:start"
        start.bind(on_release=lambda *_: self.start())
        row.add_widget(back)
        row.add_widget(start)
        root.add_widget(row)
        self.add_widget(root)

    def load(self, game: str) -> None:
        """The wizard for ``game``: every text comes filled in (the last group's names, else
        the setup's stand-ins; words in the game's spirit), so a table that accepts them taps
        Start only."""
        from kiosk.setupform import questions

        self.game = game
        engine = self.app.engines[game]
        self.heading.text = f"New game: {esc(engine.title)}"
        self.error.text = ""
        self.form.clear_widgets()
        self.inputs = {}
        for q in questions(engine.setup_model):
            if q.kind == "int":
                w = IntInput(q.name, q.label, q.min, q.max, q.default, help=q.help)
            elif q.kind == "bool":
                w = ChoiceInput(q.name, q.label, [True, False], q.default, help=q.help)
            elif q.kind == "choice":
                w = ChoiceInput(q.name, q.label, q.choices, q.default, help=q.help)
            elif q.kind == "names":
                w = self._names_input(q)
            elif q.kind == "text":
                default = q.default
                suggest = suggestion_for(game, q.name, q.label)
                if q.name == "objective" and suggest is not None:
                    default = suggest()  # a place in the game's spirit, not the model's placeholder
                w = TextField(q.name, q.label, default, max_len=q.max, suggest=suggest, optional=q.optional,
                              help=q.help)
            elif q.kind == "records":
                w = self._records_input(q)
            elif q.kind == "group" and q.default is not None:
                w = GroupInput(q.name, q.label, q.default, q.parts, help=q.help)
            else:
                continue  # complex options keep their defaults; the operator can change them in a config later
            self.inputs[q.name] = w
            self.form.add_widget(w)

    def _names_input(self, q) -> NamesInput:
        """Players: the last group's names if the kiosk kept them (with "New group" to clear
        them), else stand-in names. Two names of a pair (teams, Sources): drawn in the game's spirit."""
        from kiosk import names

        if q.name == "players":
            remembered = self.app.store.remembered_players() if self.app.store else []
            if remembered:
                default = _fit_names(remembered, q.min, q.max, len(q.default))
                return NamesInput(q.name, q.label + " (the last group's names)", default, q.min, q.max,
                                  redraw=self._new_group, redraw_text="New group", help=q.help)
            return NamesInput(q.name, q.label, q.default, q.min, q.max, redraw=names.player_names, help=q.help)
        if q.max == 2 and q.min == 2 and names.list_for(self.game, q.name):
            which: str = q.name

            def new_pair(count: int) -> list[str]:
                return names.pair(self.game, which)

            return NamesInput(q.name, q.label, names.pair(self.game, q.name), q.min, q.max,
                              redraw=new_pair, help=q.help)
        return NamesInput(q.name, q.label, q.default, q.min, q.max, help=q.help)

    def _records_input(self, q) -> RecordsInput:
        """Clincher: each player's name (the last group's, if kept) and a character for them."""
        from kiosk import names

        remembered = self.app.store.remembered_players() if self.app.store else []

        def rows(n: int, people: list[str] | None = None) -> list[dict]:
            people = people or names.player_names(n)
            characters = random.sample(names.list_for(self.game, "character"), n)
            return [{"name": p, "character": c} for p, c in zip(people, characters)]

        def new_group(n: int) -> list[dict]:
            self.app.store.forget_players()
            return rows(n)

        if "character" not in q.columns or "name" not in q.columns:
            return RecordsInput(q.name, q.label, q.default, q.columns, q.min, q.max, help=q.help)
        if remembered:
            people = _fit_names(remembered, q.min, q.max, len(q.default))
            return RecordsInput(q.name, q.label + " (the last group's names)", rows(len(people), people), q.columns,
                                q.min, q.max, redraw=new_group, redraw_text="New group", help=q.help)
        return RecordsInput(q.name, q.label, q.default, q.columns, q.min, q.max, redraw=rows, help=q.help)

    def _new_group(self, count: int) -> list[str]:
        """A new group sits down: the kiosk forgets the last group's names, and offers stand-ins."""
        from kiosk import names

        self.app.store.forget_players()
        return names.player_names(count)

    def answers(self) -> dict[str, Any]:
        return {name: w.value for name, w in self.inputs.items() if w.value is not None}

    def start(self) -> None:
        from kiosk.setupform import SetupError, answers_to_setup

        engine = self.app.engines[self.game]
        try:
            setup = answers_to_setup(engine.setup_model, self.answers())
        except SetupError as err:
            self.error.text = "Please fix: " + esc("; ".join(err.problems))
            return
        data = setup.model_dump(mode="json")
        try:
            self.app.start_game(self.game, data)
        except Exception as err:  # noqa: BLE001 - a setup the engine refuses: say why, keep the form
            self.error.text = esc(f"The game cannot start with this setup: {err}")
            return
        self._remember(data.get("players", []))

    def _remember(self, players: list) -> None:
        """Keep the group's names for the next setup on this kiosk; the stand-ins the wizard
        offers (the setup model's own) are no group's names and are not kept."""
        from kiosk.setupform import questions

        names_of = lambda rows: [p["name"] if isinstance(p, dict) else p for p in rows or []]  # noqa: E731
        stand_ins: list[Any] = next((q.default for q in questions(self.app.engines[self.game].setup_model)
                          if q.name == "players"), [])
        if self.app.store and names_of(players) and names_of(players) != names_of(stand_ins):
            self.app.store.remember_players(names_of(players))


def _fit_names(names_kept: list[str], lo, hi, usual: int) -> list[str]:
    """The kept names cut to the game's most, or topped up with stand-ins to its fewest
    (a group of six who played Hell for Leather, then sit at Even/Odd for four); with no
    names kept, ``usual`` stand-ins."""
    from kiosk import names

    lo = int(lo) if lo is not None else min(3, usual)  # a model with no stated fewest (Promise Hollows: 3)
    hi = int(hi) if hi is not None else 8
    if not names_kept:
        return names.player_names(max(lo, min(hi, usual)))
    kept = list(names_kept)[:hi]
    if len(kept) < lo:
        kept += names.player_names(lo - len(kept), avoid=kept)
    return kept


class RulesScreen(Screen):
    def __init__(self, app, **kw) -> None:
        super().__init__(name="rules", **kw)
        self.app = app
        self.back_to = "home"
        root = BoxLayout(orientation="vertical", padding=px(10), spacing=px(6))
        self.body = BoxLayout(orientation="vertical", size_hint_y=None, spacing=px(4), padding=(0, 0, px(10), 0))
        self.body.bind(minimum_height=self.body.setter("height"))
        self.scroll = Scroll()
        self.scroll.add_widget(self.body)
        root.add_widget(self.scroll)
        back = Big("Back", kind="accent")
        back.tag = "rules:back"
        back.bind(on_release=lambda *_: self.app.show_screen(self.back_to))
        root.add_widget(back)
        self.add_widget(root)

    def _table(self, rows: list[list[str]]) -> GridLayout:
        return _table_grid(rows)

    def load(self, game: str, back_to: str) -> None:
        self.back_to = back_to
        self.body.clear_widgets()
        path = ASSETS / "rules" / f"{game}.md"
        text = path.read_text(encoding="utf-8") if path.exists() else f"# {game}\nNo reference sheet yet."
        table: list[list[str]] = []
        for line in text.splitlines() + [""]:
            if line.startswith("|"):
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if not all(set(c) <= set("-: ") for c in cells):
                    table.append(cells)
                continue
            if table:
                self.body.add_widget(self._table(table))
                table = []
            if not line.strip():
                self.body.add_widget(theme.spacer(4))
            elif line.startswith("# "):
                self.body.add_widget(Text(esc(line[2:]), size=26, bold=True, color=theme.ACCENT))
            elif line.startswith("## "):
                self.body.add_widget(Text(esc(line[3:]), size=20, bold=True, color=theme.ACCENT))
            else:
                self.body.add_widget(Text("- " + esc(line[2:]) if line.startswith("- ") else esc(line), size=16))
        self.scroll.scroll_y = 1


def _table_grid(rows: list[list[str]]) -> GridLayout:
    """A small table: the first row bold, cells on a light grid so the columns line up."""
    grid = GridLayout(cols=max(len(r) for r in rows), spacing=px(2), size_hint_y=None, padding=px(2))
    grid.bind(minimum_height=grid.setter("height"))
    for i, row in enumerate(rows):
        for cell in row:
            box = Filled(bg=theme.RAISED if i == 0 else theme.PANEL, size_hint_y=None, padding=(px(6), px(3)))
            label_widget = Text(esc(cell), size=15, bold=i == 0)
            box.add_widget(label_widget)
            label_widget.bind(height=lambda w, h, b=box: setattr(b, "height", h + px(6)))
            grid.add_widget(box)
    return grid


class OperatorScreen(Screen):
    """Behind the PIN: leave, look at the hardware, export, clear."""

    def __init__(self, app, **kw) -> None:
        super().__init__(name="operator", **kw)
        self.app = app
        root = BoxLayout(orientation="vertical", padding=px(10), spacing=px(6))
        root.add_widget(Text("Operator menu", size=24, bold=True, color=theme.ACCENT))
        body = BoxLayout(spacing=px(8))
        buttons = GridLayout(cols=2, spacing=px(6), size_hint_x=0.55)
        for text, tag, kind, handler in [
            ("Back", "back", "accent", self.app.leave_operator),
            ("Hardware test", "hwtest", "normal", lambda: self.show("hardware")),
            ("Open the hardware again", "reopen", "normal", self.reopen),
            ("Hardware setup", "hwsetup", "normal", self.app.open_hwsetup),
            ("Tray calibration", "calibrate", "normal", lambda: self.show("calibration")),
            ("Tray bench test", "bench", "normal", self.app.open_bench),
            ("Settings", "settings", "normal", lambda: self.show("settings")),
            ("Export session", "export", "normal", self.app.export_current),
            ("Start from a scenario", "scenarios", "normal", self.app.open_scenarios),
            ("Home (keep game)", "home", "normal", self.app.go_home),
            ("Clear all data", "clear", "bad", self.app.ask_clear),
            ("Exit the kiosk", "exit", "bad", self.app.really_exit),
            ("Stand: demo, plays", "stand", "normal", lambda: self.show("stand")),  # kiosk/demo.py
        ]:
            b = Big(text, kind=kind, size=17)
            b.size_hint_y = 1
            b.tag = f"op:{tag}"
            b.bind(on_release=lambda *_, h=handler: h())
            buttons.add_widget(b)
        body.add_widget(buttons)
        info = Filled(orientation="vertical", bg=theme.PANEL, padding=px(8), spacing=px(6), radius=px(6))
        self.info = Text("", size=15)
        info.add_widget(self.info)
        self.controls = BoxLayout(orientation="vertical", spacing=px(6), size_hint_y=None, height=0)
        info.add_widget(self.controls)
        info.add_widget(BoxLayout())
        body.add_widget(info)
        root.add_widget(body)
        self.add_widget(root)
        self.mode = "hardware"
        self._ticker = None

    def on_enter(self, *_) -> None:
        # the hardware test and calibration show live readings; settings change only when tapped
        self._ticker = Clock.schedule_interval(lambda dt: self.refresh() if self.mode != "settings" else None, 0.1)
        self.refresh()

    def on_leave(self, *_) -> None:
        if self._ticker:
            self._ticker.cancel()

    ATTRACT_STEPS = (30, 60, 120, 300, 600, 900, 1800, 3600, 7200)
    """The idle times the operator can step through (seconds), all within the config's bounds."""

    def show(self, mode: str) -> None:
        self.mode = mode
        self.controls.clear_widgets()
        self.controls.height = 0
        if mode == "stand":
            on = self.app.config_hw.kiosk.demo_mode
            self._control_rows([[("Demo mode off" if on else "Demo mode on", "set:demo", self.toggle_demo, "normal"),
                                 ("Sooner", "set:demo:-", lambda: self.step_demo(-1), "normal"),
                                 ("Later", "set:demo:+", lambda: self.step_demo(1), "normal")]])
        if mode == "settings":
            rows = [[("Attract sooner", "set:attract:-", lambda: self.step_attract(-1), "normal"),
                     ("Attract later", "set:attract:+", lambda: self.step_attract(1), "normal")],
                    [("Change the PIN", "set:pin", self.ask_new_pin, "normal"),
                     ("Use the file's settings", "set:forget", self.forget_settings, "sunken")],  # low-key: undoes
                    [("Quieter", "set:volume:-", lambda: self.step_volume(-1), "normal"),
                     ("Louder", "set:volume:+", lambda: self.step_volume(1), "normal"),
                     ("Mute" if not self.app.config_hw.kiosk.muted else "Sound on", "set:mute", self.toggle_mute,
                      "normal"),
                     ("Quiet hours", "set:quiet", self.step_quiet_hours, "normal")]]
            self._control_rows(rows)
        self.refresh()

    def _control_rows(self, rows) -> None:
        """Rows of finger-sized buttons under the info panel: (text, tag, handler, kind) each."""
        for buttons in rows:
            row = BoxLayout(spacing=px(6), size_hint_y=None, height=px(theme.TOUCH))
            for text, tag, handler, kind in buttons:
                b = Big(text, kind=kind, size=15)
                b.tag = tag
                b.bind(on_release=lambda *_, h=handler: h())
                row.add_widget(b)
            self.controls.add_widget(row)
        self.controls.height = len(rows) * px(theme.TOUCH) + (len(rows) - 1) * px(6)

    DEMO_STEPS = (20, 30, 45, 60, 90, 120, 180, 300, 600)
    """The demo-mode idle times the operator steps through (seconds)."""

    def toggle_demo(self) -> None:
        self._said(self.app.change_setting("demo_mode", not self.app.config_hw.kiosk.demo_mode))
        self.show("stand")  # the button now says the other way

    def step_demo(self, direction: int) -> None:
        now = self.app.config_hw.kiosk.demo_idle_s
        steps = [s for s in self.DEMO_STEPS if (s > now if direction > 0 else s < now)]
        if steps:
            self._said(self.app.change_setting("demo_idle_s", min(steps) if direction > 0 else max(steps)))
        self.refresh()

    def step_attract(self, direction: int) -> None:
        now = self.app.config_hw.kiosk.idle_attract_s
        steps = [s for s in self.ATTRACT_STEPS if (s > now if direction > 0 else s < now)]
        if steps:
            self._said(self.app.change_setting("idle_attract_s", min(steps) if direction > 0 else max(steps)))
        self.refresh()

    VOLUME_STEP = 10
    QUIET_HOURS = ("off", "22-8", "23-7", "21-9", "20-10")
    """The quiet hours the operator steps through; any other span can be set in table-noir.toml."""

    def step_volume(self, direction: int) -> None:
        now, step = self.app.config_hw.kiosk.volume, self.VOLUME_STEP
        wanted = (now // step + 1) * step if direction > 0 else (now - 1) // step * step  # the next step's mark
        wanted = max(0, min(100, wanted))
        if wanted != now:
            self._said(self.app.change_setting("volume", wanted))
        self._after_sound_change()

    def toggle_mute(self) -> None:
        self._said(self.app.change_setting("muted", not self.app.config_hw.kiosk.muted))
        self.show("settings")  # the button now says the other way
        self._after_sound_change()

    def step_quiet_hours(self) -> None:
        now = self.app.config_hw.kiosk.quiet_hours
        steps = self.QUIET_HOURS
        self._said(self.app.change_setting("quiet_hours", steps[(steps.index(now) + 1) % len(steps)]
                                           if now in steps else "off"))
        self.refresh()

    def _after_sound_change(self) -> None:
        """Play a tick at the new volume, so the operator hears what the table will (unless silenced)."""
        self.app.sounds.play("tick")
        self.refresh()

    def ask_new_pin(self) -> None:
        from .overlays import NewPin

        self.app.show_overlay(NewPin(self._new_pin))

    def _new_pin(self, pin: str) -> None:
        if not self._said(self.app.change_setting("operator_pin", pin)):
            self.app.message("The operator PIN is changed.")

    def forget_settings(self) -> None:
        self.app.forget_settings()
        self.app.message("Back to the settings in table-noir.toml.")
        self.refresh()

    def _said(self, problem: str | None) -> str | None:
        if problem:
            self.app.message(problem, refused=True)
        return problem

    def reopen(self) -> None:
        """Pads or a tray plugged in after start-up: open them again and show the hardware test."""
        self.app.reopen_hardware()
        self.show("hardware")

    def refresh(self) -> None:
        c = self.app.controller
        tray = c.tray_state if c else None
        if self.mode == "settings":
            from .join import wifi_text

            cfg = self.app.config_hw
            here = self.app.store.settings()  # the settings changed on the kiosk
            self.info.text = (
                "[b]Settings[/b]\n"
                f"Attract mode after {_duration(cfg.kiosk.idle_attract_s)} without a touch "
                f"({'changed here' if 'idle_attract_s' in here else 'from table-noir.toml'})\n"
                f"Operator PIN: {'changed here' if 'operator_pin_hash' in here else 'from table-noir.toml'}"
                f"{plain_pin_note((self.app.settings.from_file or cfg).kiosk) if 'operator_pin_hash' not in here else ''}\n"
                f"Phones: {'on' if cfg.kiosk.phones else 'off'}"
                f"{(' (' + wifi_text(cfg.phones) + ')') if cfg.kiosk.phones and cfg.phones.network_name else ''}\n"
                f"{sound_text(cfg.kiosk, self.app.sounds)}\n"
                f"Pads: {cfg.pads.backend}, {len(cfg.pads.pins)} wired\n"
                f"Tray: {cfg.tray.backend} ({cfg.tray.serial_port})\n"
                "Pins, tray and sensor: edit table-noir.toml, then restart\n"
                f"Sessions file: {esc(str(self.app.store.path))}\n"
                f"Saved sessions: {len(self.app.store.sessions())}"
            )
        elif self.mode == "stand":
            self.info.text = stand_text(self.app.config_hw.kiosk, self.app.store.day_counts())
        elif self.mode == "calibration" and tray:
            self.info.text = (
                "[b]Tray calibration[/b]\nEmpty the tray, then stack dice one by one and check the count.\n\n"
                f"Distance now: {tray.distance_text}\nHeat stack: {stack_words(tray.heat)}\n"
                f"Link: {tray.link_text}"
            )
        elif tray:
            pressed = ", ".join(f"pad {p} {b}" for p, b in sorted(c.held)) or "none"
            warn = get_hex_from_color(theme.WARN)
            problems = "".join(f"\n[color={warn}]{esc(p)}[/color]" for p in self.app.hardware_problems)
            self.info.text = (
                f"[b]Hardware test[/b]\nPress any button on any pad.{problems}\n\n"
                f"Held now: {pressed}\nLast: {esc(c.last_hardware)}\n\n"
                f"Distance: {tray.distance_text}\nHeat: {stack_words(tray.heat)}\n"
                f"Link: {tray.link_text}"
            )


def stand_text(kiosk, days) -> str:
    """The operator's stand panel: demo mode, and the last days' plays (kiosk.store.DayCount)."""
    from kiosk.demo import GAME_OVER_S

    demo = (f"[b]Demo mode: on[/b]. Attract after {_duration(kiosk.demo_idle_s)} with no pad, phone, tray or "
            f"touch, or {_duration(min(GAME_OVER_S, kiosk.demo_idle_s))} after a game ends."
            if kiosk.demo_mode else
            f"[b]Demo mode: off[/b]. Attract after {_duration(kiosk.idle_attract_s)} without a touch.")
    lines = [demo, "", "[b]Plays per day[/b] (games started, finished, average length; lessons)"]
    for day in days:
        average = "-" if day.average_s is None else \
            f"{round(day.average_s / 60)} min" if day.average_s >= 60 else f"{int(day.average_s)} s"
        lines.append(f"{day.day}: {day.started} started, {day.finished} finished, {average}; "
                     f"{plural(day.lessons, 'lesson')}")
    if not days:
        lines.append("Nothing played in the last 7 days.")
    return "\n".join(lines)


def sound_text(kiosk, sounds) -> str:
    """The sound settings in a line: "Sound: volume 70%, quiet hours 22:00-08:00; silent now: quiet hours"."""
    from hardware.config import quiet_span

    span = quiet_span(kiosk.quiet_hours)
    hours = "no quiet hours" if span is None else f"quiet hours {span[0]:02d}:00-{span[1]:02d}:00"
    why = sounds.silenced() or getattr(sounds.player, "silent_because", None)
    return f"Sound: {'muted' if kiosk.muted else f'volume {kiosk.volume}%'}, {hours}" + \
        (f"; silent now: {why}" if why and why != "muted" else "")


def _duration(seconds: int) -> str:
    """300 -> '5 min', 90 -> '90 s', 3600 -> '1 h'."""
    if seconds >= 3600 and seconds % 3600 == 0:
        return f"{seconds // 3600} h"
    if seconds >= 120 and seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds} s"


def plain_pin_note(kiosk) -> str:
    """What to do about a PIN written in plain text in table-noir.toml (the kiosk only
    keeps its hash, but the file is readable by anyone who gets the SD card)."""
    if not kiosk.plain_pin_in_file:
        return ""
    return ("\n[color=e69e2e]table-noir.toml holds the PIN in plain text: replace operator_pin there with "
            "the operator_pin_hash line that 'table-noir pin-hash' prints.[/color]")


HIGHLIGHT_KINDS = {"finale", "gauntlet", "death", "curse", "trauma", "goal",  # Hell for Leather
                   "face-off", "revelation", "verdict", "confession", "payout",  # Promise Hollows
                   "epilogue", "tie", "vote", "case",  # Even/Odd
                   "consequence", "result"}  # clincher
"""Event kinds that make a story's highlights on the game-over screen (the rest is the record)."""


def game_over_story(runner, most: int = 3) -> tuple[str, list[str], str]:
    """The game-over screen's words: how it ended (the rules' sentence), up to ``most``
    highlights from the public story (its big moments, else its last lines) and a few numbers."""
    from kiosk.ui.fields import readable

    session = runner.session
    public = [e for e in session.events if e.visible_to(None)]
    big = [e.text for e in public if e.kind in HIGHLIGHT_KINDS]
    ending = readable(runner.outcome or "")
    picked = [t for t in (big or [e.text for e in public]) if t.strip() and t not in ending][-most:]
    reveals = len(getattr(runner, "closed_rounds", []) or [])
    numbers = [plural(len(runner.players()), "player"), plural(len(session.log), "move")]
    if reveals:
        numbers.append(plural(reveals, "secret round"))
    return ending, [readable(t) for t in picked], ", ".join(numbers)
