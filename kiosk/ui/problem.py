"""A plain full-screen explanation of a start-up problem, instead of a crash and a restart loop.

On a Pi the kiosk runs under systemd. A kiosk that exits on a bad config or a
damaged database is a black screen restarting every few seconds, and the reason
reaches only the journal. So the app starts anyway (on safe defaults, or a fresh
store) and shows this screen first: what went wrong, what to do about it, and
two ways on: carry on to the home screen, or the operator menu (behind the PIN).

Several problems found at one start (say, a bad config and a damaged store) are
listed together, one paragraph each.
"""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup as esc

from kiosk.parts.problems import Problem

from . import theme
from .theme import Big, Scroll, Text, px


class ProblemScreen(Screen):
    """Every start-up problem, what to do, and the way on (home or the operator menu)."""

    def __init__(self, app, **kw) -> None:
        super().__init__(name="problem", **kw)
        self.app = app
        root = BoxLayout(orientation="vertical", padding=px(14), spacing=px(8))
        root.add_widget(Text("The kiosk started, but needs attention", size=26, bold=True, color=theme.WARN))
        self.body = BoxLayout(orientation="vertical", size_hint_y=None, spacing=px(10))
        self.body.bind(minimum_height=self.body.setter("height"))
        scroll = Scroll()
        scroll.add_widget(self.body)
        root.add_widget(scroll)
        row = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(10))
        carry_on = Big("Continue to the games", kind="accent")
        carry_on.tag = "problem:continue"
        carry_on.bind(on_release=lambda *_: self.app.go_home())
        operator = Big("Operator menu", kind="normal")
        operator.tag = "problem:operator"
        operator.bind(on_release=lambda *_: self.app.ask_operator())
        row.add_widget(carry_on)
        row.add_widget(operator)
        root.add_widget(row)
        self.add_widget(root)

    def show(self, problems: list[Problem]) -> None:
        self.body.clear_widgets()
        for problem in problems:
            heading = Text(esc(problem.title), size=20, bold=True, color=theme.ACCENT)
            heading.tag = "problem:title"
            self.body.add_widget(heading)
            what = Text(esc(problem.what), size=16)
            what.tag = "problem:what"
            self.body.add_widget(what)
            todo = Text(esc("What to do: " + problem.todo), size=16, color=theme.DIM)
            todo.tag = "problem:todo"
            self.body.add_widget(todo)

    def texts(self) -> str:
        """Everything the screen says, for tests and the log."""
        return "\n".join(w.text for w in self.body.children[::-1])
