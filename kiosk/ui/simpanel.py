"""The sim panel: a drawer that stands in for the table (F2 or the SIM button).

It presses any player's buttons through ``SimPads`` and works the simulated
tray through ``SimTray`` (add or take a Heat die, topple the stack, throw a
d10 onto a zone). Everything it does travels the same path as real hardware:
port -> controller -> rules -> store -> screen.
"""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.utils import escape_markup as esc

from hardware.events import ButtonColour, Zone

from . import theme
from .fields import ChoiceInput, scrolled
from .theme import Big, Filled, MarkedButton, Text, px


class SimPanel(Filled):
    def __init__(self, app, **kw) -> None:
        super().__init__(orientation="vertical", bg=(0.10, 0.12, 0.15, 1), padding=px(8), spacing=px(6), **kw)
        self.app = app
        self.rebuild()

    def rebuild(self) -> None:
        self.clear_widgets()
        head = BoxLayout(size_hint_y=None, height=px(48))
        head.add_widget(Text("Simulated table", size=18, bold=True, color=theme.ACCENT, fit=False))
        close = Big("Close (F2)", kind="quiet", size=14, size_hint_x=None, width=px(120), height=px(48))
        close.tag = "sim:close"
        close.bind(on_release=lambda *_: self.app.toggle_sim())
        head.add_widget(close)
        self.add_widget(head)
        inner = BoxLayout(orientation="vertical", size_hint_y=None, spacing=px(6))
        inner.bind(minimum_height=inner.setter("height"))
        pads, tray = self.app.sim_pads, self.app.sim_tray
        if pads is None and tray is None:
            inner.add_widget(Text("No simulated hardware: the kiosk is using the real table.", size=15))
        if pads is not None:
            inner.add_widget(Text("Player pads (keys: pad 1 is q/a/z for Black/White/Gray, pad 2 w/s/x, and so on)",
                                  size=14, bold=True))
            names = self.app.runner.players() if self.app.runner else []
            count = max(2, len(names)) if names else 6
            for pad in range(1, min(count, 6) + 1):
                row = BoxLayout(size_hint_y=None, height=px(48), spacing=px(4))
                who = names[pad - 1] if pad <= len(names) else ""
                row.add_widget(Text(esc(f"{pad}. {who}"[:12]), size=14, fit=False, size_hint_x=0.4))
                for colour in ButtonColour:
                    b = MarkedButton(colour.value, size=13, height=px(48))
                    b.tag = f"sim:pad:{pad}:{colour.value}"
                    b.bind(on_release=lambda *_, p=pad, c=colour: self.app.sim_press(p, c))
                    row.add_widget(b)
                inner.add_widget(row)
        if tray is not None:
            inner.add_widget(Text("Heat stack", size=15, bold=True))
            actions = [("Add a die", "add", tray.add_die), ("Take a die", "remove", tray.remove_die),
                       ("Topple", "topple", tray.topple)]
            if self.app.runner and "heat" in self.app.runner.session.view(awaiting=False):
                actions.append(("Match the game", "match", self.match_game))
            row = GridLayout(cols=len(actions), size_hint_y=None, height=px(48), spacing=px(4))
            for text, tag, fn in actions:
                b = Big(text, size=14, height=px(48))
                b.tag = f"sim:heat:{tag}"
                b.bind(on_release=lambda *_, f=fn: self.tray_do(f))
                row.add_widget(b)
            inner.add_widget(row)
            # Why the last tray action did nothing, if it did not (no stack to topple, ...).
            self.note = Text("", size=13, color=theme.ACCENT)
            inner.add_widget(self.note)
            inner.add_widget(Text("Throw a d10", size=15, bold=True))
            self.zone = ChoiceInput("zone", "", ["random"] + [z.value for z in Zone], "random", cols=4)
            self.face = ChoiceInput("face", "", ["random"] + list(range(1, 11)), "random", cols=6)
            inner.add_widget(self.zone)
            inner.add_widget(self.face)
            throw = Big("Throw", kind="accent", size=16, height=px(48))
            throw.tag = "sim:throw"
            throw.bind(on_release=lambda *_: self.throw())
            inner.add_widget(throw)
        self.add_widget(scrolled(inner))

    def tray_do(self, fn) -> None:
        """Work the simulated tray; a control the table cannot honour does nothing and says why here."""
        self.app.sim_tray_do(fn)
        refusal = getattr(self.app.sim_tray, "refusal", None)
        self.note.text = esc(f"Nothing happened: {refusal}") if refusal else ""

    def match_game(self) -> None:
        """Build the simulated stack to the Heat the game has now (as far as the tray measures)."""
        tray, runner = self.app.sim_tray, self.app.runner
        on_table = runner.session.view(awaiting=False).get("heat") if runner else None
        if on_table:
            tray.build_to(min(on_table["dice"], tray.sim.geometry.max_heat_dice))

    def throw(self) -> None:
        zone = None if self.zone.value in (None, "random") else Zone(self.zone.value)
        face = None if self.face.value in (None, "random") else int(self.face.value)
        self.tray_do(lambda: self.app.sim_tray.throw(accuracy=0.9, zone=zone, face=face))
