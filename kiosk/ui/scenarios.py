"""Designer mode's "Start from a scenario": pick a scenario file, land on the play screen at its position.

The list holds the scenario files shipped in ``scenarios/`` and any the designer put
in the kiosk's data folder (``<data>/scenarios/*.toml``). Each row names the
scenario, its game and the rule-text section it comes from. Starting one plays its
moves through the rules (``kiosk.scenario.start``), stores the session like any
other game and attaches it; a file that cannot be read or played is named here with
what is wrong, and nothing else changes (the game in play, the store).
"""

from __future__ import annotations

from pathlib import Path

from kivy.uix.boxlayout import BoxLayout
from kivy.utils import escape_markup as esc

from kiosk import scenario
from kiosk.ui import theme
from kiosk.ui.overlays import Overlay
from kiosk.ui.theme import Big, Filled, Scroll, Text, px


def folders(data_folder: Path) -> list[Path]:
    """Where scenario files are looked for: the shipped ones first, then the designer's own."""
    return [scenario.SHIPPED, data_folder / "scenarios"]


class ScenarioPicker(Overlay):
    """A scrolling list of scenario files, one finger-sized row each, and Cancel."""

    def __init__(self, app) -> None:
        super().__init__(size_hint=(0.94, 0.96))
        self.app = app
        box = Filled(orientation="vertical", padding=px(10), spacing=px(6), bg=theme.PANEL)
        box.add_widget(Text("Start from a scenario", size=22, bold=True, color=theme.ACCENT,
                            size_hint_y=None, height=px(34)))
        self.status = Text("Pick a position to play from. The game in play stays saved.", size=15,
                           size_hint_y=None, height=px(48))
        self.status.tag = "scenarios:status"
        self.status.bind(texture_size=lambda label, size: setattr(label, "height", max(px(48), size[1])))
        box.add_widget(self.status)
        rows = BoxLayout(orientation="vertical", spacing=px(6), size_hint_y=None)
        rows.bind(minimum_height=rows.setter("height"))
        self.listed = scenario.listing(folders(app.exports.parent))
        for number, item in enumerate(self.listed):
            rows.add_widget(self._row(number, item))
        if not self.listed:
            rows.add_widget(Text("No scenario files found.", size=16, size_hint_y=None, height=px(40)))
        scroll = Scroll()
        scroll.add_widget(rows)
        box.add_widget(scroll)
        cancel = Big("Cancel", kind="sunken", size=18)
        cancel.tag = "scenarios:cancel"
        cancel.bind(on_release=lambda *_: self.dismiss())
        box.add_widget(cancel)
        self.add_widget(box)

    def _row(self, number: int, item: scenario.Listed) -> Big:
        """One file: its title and game over its section; a broken file says it cannot be used."""
        if item.scenario is not None:
            first = f"[b]{esc(item.scenario.title)}[/b]"
            second = f"{esc(self.app.title_of(item.scenario.game))} · {esc(item.section or item.path.name)}"
            kind = "normal"
        else:
            first = f"[b]{esc(item.path.name)}[/b]: cannot be used"
            second = "Tap to see what is wrong."
            kind = "bad"
        button = Big(f"{first}\n[size={int(theme.font(13))}]{second}[/size]", kind=kind, size=16,
                     height=px(72))
        # as tall as its wrapped text (a long title or section takes three or four lines)
        button.bind(texture_size=lambda b, size: setattr(b, "height", max(px(72), size[1] + px(16))))
        button.tag = f"scenario:{item.path.stem}"
        button.bind(on_release=lambda *_, n=number: self.choose(n))
        return button

    def choose(self, number: int) -> None:
        """Start the chosen file; a problem is said here, in one message naming the file."""
        item = self.listed[number]
        problem = item.problem or self.app.start_scenario(item.path)
        if problem:
            self.status.text = esc(problem)
            self.status.color = theme.BAD
            return
        self.dismiss()
