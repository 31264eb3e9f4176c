"""Status panels: the left half of the play screen, drawn from the PUBLIC view only.

``GenericPanel`` shows any engine's public view as readable lines: numbers
and words as "Label: value", per-player dictionaries as one line per player.
Games with their own panel (``PANELS``) draw a purpose-made one on top of the
same view dict; a panel never sees anything but ``Session.view(None)``, so it
cannot leak a secret.

``private_lines`` finds what one player may see that the table may not
(the difference between their view and the public one), for the
pass-the-screen flow.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.utils import escape_markup as esc

from . import theme
from .fields import show
from .theme import Text, px

HIDDEN_KEYS = {"awaiting", "outcome", "players", "seed"}


def label(key: str) -> str:
    return key.replace("_", " ").strip().capitalize()


def lines_of(view: dict[str, Any], skip: set[str] = HIDDEN_KEYS) -> list[tuple[str, str]]:
    """(heading, text) pairs for a view dict, nested dicts one level deep."""
    out: list[tuple[str, str]] = []
    for key, value in view.items():
        if key in skip or value is None or value == [] or value == {}:
            continue
        if isinstance(value, dict) and all(isinstance(v, dict) for v in value.values()):
            for name, sub in value.items():
                parts = [f"{label(k)} {show(v)}" for k, v in sub.items() if v not in (None, [], {})]
                out.append((f"{label(key)}: {name}", "; ".join(parts)))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for i, sub in enumerate(value, start=1):
                parts = [f"{label(k)} {show(v)}" for k, v in sub.items() if v not in (None, [], {})]
                out.append((f"{label(key)} {i}", "; ".join(parts)))
        else:
            out.append((label(key), show(value)))
    return out


def private_lines(public: dict[str, Any], mine: dict[str, Any]) -> list[tuple[str, str]]:
    """What ``mine`` shows that ``public`` does not: a player's own secrets."""
    extra = {k: v for k, v in mine.items() if k != "awaiting" and public.get(k) != v}
    return lines_of(extra, skip={"awaiting"}) or [("Secrets", "nothing private to show right now")]


class GenericPanel(BoxLayout):
    """Any game's public view as a list of labelled lines."""

    title = "The table"

    def __init__(self, **kw) -> None:
        super().__init__(orientation="vertical", size_hint_y=None, spacing=px(3), padding=px(6), **kw)
        self.bind(minimum_height=self.setter("height"))

    def update(self, view: dict[str, Any], runner=None, tray=None) -> None:
        self.show_lines([(self.title, None)] + lines_of(view))

    def show_lines(self, lines: list[tuple[str, str | None]]) -> None:
        """Show (heading, text) lines, reusing the labels already there (cheap on every action)."""
        labels = list(reversed(self.children))
        while len(labels) < len(lines):
            labels.append(Text("", size=15))
            self.add_widget(labels[-1])
        for extra in labels[len(lines):]:
            self.remove_widget(extra)
        for label_widget, (heading, text) in zip(labels, lines):
            if text is None:  # a section title
                label_widget.text = f"[b][color=dbad47]{esc(heading)}[/color][/b]"
            else:
                label_widget.text = f"[b]{esc(heading)}:[/b] {esc(text)}"


PANELS: dict[str, type] = {}


def panel_for(game: str) -> BoxLayout:
    return PANELS.get(game, GenericPanel)()
