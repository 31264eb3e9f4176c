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

import logging
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.utils import escape_markup as esc

from .fields import show
from .theme import Text, px, show_texts

log = logging.getLogger(__name__)

HIDDEN_KEYS = {"awaiting", "outcome", "players", "seed"}


def label(key: str) -> str:
    return key.replace("_", " ").strip().capitalize()


def lines_of(view: dict[str, Any], skip: set[str] = HIDDEN_KEYS) -> list[tuple[str, str]]:
    """(heading, text) pairs for a view dict, nested dicts one level deep."""
    out: list[tuple[str, str]] = []
    for key, value in view.items():
        if key in skip or value is None or value == [] or value == {}:
            continue
        if isinstance(value, dict) and value and not any(isinstance(v, (dict, list)) for v in value.values()) \
                and any(isinstance(k, str) and "_" in k for k in value):
            for sub, v in value.items():  # a record such as a player's own secrets: one line each
                if v not in (None, [], {}, ""):
                    out.append((label(sub), show(v)))
        elif isinstance(value, dict) and all(isinstance(v, dict) for v in value.values()):
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
        super().__init__(orientation="vertical", size_hint_y=None, spacing=px(3),
                         padding=(px(6), px(6), px(12), px(6)), **kw)  # right: a lane for the scroll bar
        self.bind(minimum_height=self.setter("height"))

    def update(self, view: dict[str, Any], runner=None, tray=None) -> None:
        self.show_lines([(self.title, None)] + lines_of(view))

    KEPT_TEXTS = 48
    """How many different lines a panel keeps rendered for when they come back."""

    def show_lines(self, lines: list[tuple[str, str | None]]) -> None:
        """Show (heading, text) lines; labels are reused by text (see ``theme.show_texts``)."""
        show_texts(self, [f"[b][color=dbad47]{esc(heading)}[/color][/b]" if text is None  # a section title
                          else f"[b]{esc(heading)}:[/b] {esc(text)}" for heading, text in lines],
                   make=lambda: Text("", size=15), keep=self.KEPT_TEXTS)


PANELS: dict[str, type] = {}


def panel_for(game: str) -> BoxLayout:
    return PANELS.get(game, GenericPanel)()


class SafePanel(BoxLayout):
    """A game's panel that can never stop the game: if it fails to draw a view, the
    same view is shown as plain lines (``GenericPanel``), the error is logged, and
    the game's own panel is tried again with the next view."""

    def __init__(self, game: str, **kw) -> None:
        super().__init__(orientation="vertical", size_hint_y=None, **kw)
        self.bind(minimum_height=self.setter("height"))
        self.game = game
        self.inner = panel_for(game)
        self.plain: GenericPanel | None = None
        self.failed = False
        self.add_widget(self.inner)

    def update(self, view: dict[str, Any], runner=None, tray=None) -> None:
        try:
            self.inner.update(view, runner=runner, tray=tray)
            self._use(self.inner)
            self.failed = False
        except Exception:  # noqa: BLE001 - a display bug must never lock a game away
            log.exception("the %s panel could not draw this view; showing it as plain lines", self.game)
            self.failed = True
            self.plain = self.plain or GenericPanel()
            try:
                self.plain.update(view)
            except Exception:  # noqa: BLE001
                log.exception("the plain panel could not draw it either")
                self.plain.show_lines([("The table", None), ("Note", "this panel could not be drawn; play on")])
            self._use(self.plain)

    def show_tray(self, tray) -> None:
        if hasattr(self.inner, "show_tray"):
            try:
                self.inner.show_tray(tray)
            except Exception:  # noqa: BLE001
                log.exception("the %s panel could not show the tray", self.game)

    def _use(self, panel) -> None:
        if self.children != [panel]:
            self.clear_widgets()
            self.add_widget(panel)


# --------------------------------------------------------------------------
# Purpose-made panels. Each reads only the public view (and the tray's state).
# --------------------------------------------------------------------------

SUITS = {"♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs", "S": "spades", "H": "hearts",
         "D": "diamonds", "C": "clubs"}
RANKS = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack"}


def card_text(card: str | None) -> str:
    """'Q♦' -> 'Queen of diamonds' (the suit named in words, not only a symbol)."""
    if not card:
        return "-"
    rank, suit = card[:-1], card[-1]
    return f"{RANKS.get(rank, rank)} of {SUITS.get(suit, suit)}"


def consequence_text(record: dict[str, Any]) -> str:
    """A consequence card kept from a redraw, in words: the card, good or bad, which scene."""
    kind = "positive" if record.get("good") else "negative"
    used = ", cashed in" if record.get("used") else ""
    return f"{card_text(record.get('card'))}, {kind}, scene {record.get('scene')}{used}"


def suits_text(up: str | None) -> str:
    return ", ".join(SUITS.get(ch, ch) for ch in (up or "")) or "-"


def dice_count(n: int) -> str:
    """'1 die', '4 dice': a count of dice in words."""
    return f"{n} {'die' if n == 1 else 'dice'}"


def match_heat(dice: int, sensed: int | None) -> str:
    """What the table should do so the stack on the tray is the game's Heat."""
    if sensed is None:
        return "[color=9e9a8f]The tray is not reading the stack.[/color]"
    if sensed == dice:
        return "[color=4da861]The stack on the tray matches.[/color]"
    gap = dice - sensed
    n = abs(gap)
    todo = f"add {dice_count(n)}" if gap > 0 else f"take {dice_count(n)} off"
    return f"[color=e69e2e][b]The tray sees {sensed}: {todo}[/b][/color]"


class HeatStack(BoxLayout):
    """The Heat as a row of dice with its number and status in words (not colour alone)."""

    def __init__(self, **kw) -> None:
        super().__init__(orientation="vertical", size_hint_y=None, height=px(96), spacing=px(4), **kw)
        from kivy.uix.widget import Widget

        self.words = Text("", size=17, fit=False)
        self.row = Widget(size_hint_y=None, height=px(24))
        self.add_widget(self.words)
        self.add_widget(self.row)
        self.dice = 0
        self.row.bind(pos=lambda *_: self._draw(), size=lambda *_: self._draw())

    def show(self, dice: int, status: str, team: str, sensed: int | None) -> None:
        self.words.text = f"[b]Heat {dice}[/b] ({esc(status)}), {esc(team)}\n{match_heat(dice, sensed)}"
        if dice != self.dice:  # the dice are drawn again only when their number changes
            self.dice = dice
            self._draw()

    def _draw(self) -> None:
        from kivy.graphics import Color, Line, Rectangle

        r = self.row
        r.canvas.clear()
        size = min(r.height, (r.width - px(4)) / 15 - px(3))
        with r.canvas:
            for i in range(min(self.dice, 15)):
                x = r.x + i * (size + px(3))
                Color(0.92, 0.9, 0.84, 1)
                Rectangle(pos=(x, r.y), size=(size, size))
                Color(0.1, 0.1, 0.1, 1)
                Line(rectangle=(x, r.y, size, size), width=1)


class HellForLeatherPanel(GenericPanel):
    title = "Hell for Leather"
    on_table: dict | None = None
    """The game's Heat on the tray now (from the public view), or None between conflicts' teams."""

    def show_tray(self, tray) -> None:
        """The tray's reading changed (or the game's Heat did): say whether the stack matches."""
        if self.on_table:
            self.heat.show(self.on_table["dice"], self.on_table["status"], f"{self.on_table['whose']}'s stack",
                           tray.heat if tray else None)

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.heat = HeatStack()
        self.lines = GenericPanel()
        self.add_widget(self.heat)
        self.add_widget(self.lines)

    def update(self, view, runner=None, tray=None) -> None:
        teams = view.get("teams") or []
        self.on_table = view.get("heat")
        self.heat.opacity, self.heat.height = (1, px(96)) if self.on_table else (0, 0)
        self.show_tray(tray)
        lines: list[tuple[str, str | None]] = []
        phase = str(view.get("phase", "")).replace("_", " ")
        narr = view.get("narrator")
        lines.append(("Now", f"{phase}" + (f", {narr} narrates" if narr else "")))
        for t in teams:
            lines.append((t["name"], None))
            lines.append(("Score", f"VP {t.get('vp', 0)}, Goals {t.get('goals_done', 0)} of "
                                   f"{view.get('goal_target', '?')}, Hunter Marks {t.get('hunter_marks', 0)}"))
            lines.append(("Heat", f"{t.get('heat')} ({t.get('heat_status')}); Narrator Cup: {t.get('narrator_cup')}"))
            if t.get("goals"):
                lines.append(("Goals", "; ".join(t["goals"])))
        people = view.get("contestants") or {}
        if people:
            lines.append(("Contestants", None))
            for player, c in people.items():
                state = "" if c.get("alive", True) else ", OUT"
                lines.append((f"{player} ({c.get('name')})" if c.get("name") else player,
                              f"{c.get('drive')}, Felony {c.get('felony_rank', 0)} of {c.get('felony_track')}{state}"))
        conflict = view.get("conflict")
        if conflict:
            landed = conflict.get("landings") or []
            lines.append(("Conflict", f"{conflict.get('drive')}, Risks {conflict.get('risks', 0)}, "
                                      f"{len(landed)} dice down"))
        if view.get("adversary"):
            lines.append(("Adversary", show(view["adversary"])))
        if view.get("cue"):
            lines.append(("Cue", str(view["cue"])))
        self.lines.show_lines(lines)


class PromiseHollowsPanel(GenericPanel):
    title = "Promise Hollows"

    def update(self, view, runner=None, tray=None) -> None:
        lines: list[tuple[str, str | None]] = [(self.title, None)]
        lines.append(("Pot", f"{view.get('pot', 0)} Color (box {view.get('box', '-')})"))
        if view.get("case"):
            lines.append(("The case", str(view["case"])))
        scene = view.get("scene") or {}
        if scene:
            lines.append(("Scene", f"opened by {scene.get('opener')}, {str(scene.get('step', '')).replace('_', ' ')}, "
                                   f"stake {scene.get('stake', 0)}"))
        lines.append(("Players", None))
        for p in view.get("players") or []:
            out = f", out ({p['out']})" if p.get("out") else ""
            who = f"{p.get('player')} ({p['character']})" if p.get("character") else str(p.get("player"))
            lines.append((who,
                          f"{p.get('role')}, Color {p.get('color')}, Private Die {p.get('private_die')}{out}"))
        if scene.get("turn"):
            lines.append(("Betting", f"{scene['turn']} to act; passed: {', '.join(scene.get('passed') or []) or 'nobody'}"))
        if scene.get("challenge"):
            lines.append(("Challenge", show(scene["challenge"])))
        if view.get("face_off"):
            lines.append(("Face-Off", show(view["face_off"])))
        if view.get("exposed"):
            lines.append(("Exposed", show(view["exposed"])))
        if view.get("winners"):
            lines.append(("Winners", ", ".join(view["winners"])))
        self.show_lines(lines)


class EvenOddPanel(GenericPanel):
    title = "The case"

    def update(self, view, runner=None, tray=None) -> None:
        lines: list[tuple[str, str | None]] = [(self.title, None)]
        if view.get("case"):
            lines.append(("Case", f"{view['case']} (victim: {view.get('victim')})"))
        lines.append(("Scene", f"{view.get('scene')}, led by {view.get('lead')} ({str(view.get('phase')).replace('_', ' ')})"))
        papers = view.get("papers") or {}
        for side, suspect in (view.get("suspects") or {}).items():
            lines.append((f"{side.capitalize()} Suspect", f"{suspect.get('name')}: paper {papers.get(side, 0)}"))
        if not view.get("suspects"):
            lines.append(("Papers", f"Even {papers.get('even', 0)}, Odd {papers.get('odd', 0)}"))
        lines.append(("Epilogue Pool", str(view.get("epilogue_pool", 0))))
        pools = view.get("pools") or {}
        lines.append(("Pools", ", ".join(f"{p} {n}" for p, n in pools.items())))
        if view.get("locked"):
            lines.append(("Wagers locked", ", ".join(view["locked"])))
        if view.get("wagers"):
            lines.append(("Wagers", ", ".join(f"{p} {w.get('points')} on {w.get('side')}"
                                              for p, w in view["wagers"].items())))
        history = view.get("history") or []
        if history:
            lines.append((f"Scene {history[-1]['number']}", scene_story(history[-1])))
        if view.get("accused"):
            accused = (view.get("suspects") or {}).get(view["accused"]) or {}
            lines.append(("Accused", f"{accused.get('name', '?')}, the {view['accused'].capitalize()} Suspect"))
        self.show_lines(lines)


def scene_story(record: dict) -> str:
    """One finished Even/Odd scene in a sentence: the dice, the count, where the points went."""
    faces = record.get("faces")
    dice = f"dice {' '.join(map(str, faces))}: " if faces else ""
    counted = f"{dice}{record['evens']} even, {record['odds']} odd"
    side = record.get("points_to")
    went = f"{record['to_paper']} to the {side.capitalize()} paper" if side else "no winner"
    if record.get("to_epilogue"):
        went += f", {record['to_epilogue']} to the Epilogue Pool"
    if record.get("returned"):
        went += f", {record['returned']} back to their owners"
    return f"led by {record['lead']}; {counted}; {went}"


class ClincherPanel(GenericPanel):
    title = "Clincher"

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.card = Text("", size=30, bold=True, halign="center")
        self.lines = GenericPanel()
        self.add_widget(self.card)
        self.add_widget(self.lines)

    def update(self, view, runner=None, tray=None) -> None:
        scene = view.get("scene") or {}
        active = scene.get("active")
        self.card.text = f"Active card: {card_text(active)}" if active else "No card drawn yet"
        lines: list[tuple[str, str | None]] = []
        if scene:
            lines.append((f"Scene {scene.get('number')}", None))
            lines.append(("Where", str(scene.get("location"))))
            lines.append(("Lead", f"{scene.get('primary')}, difficulty {scene.get('difficulty') or '-'} token"))
            lines.append(("Up suits", suits_text(scene.get("up_suits"))))
            if scene.get("queue"):
                lines.append(("Redraws asked", ", ".join(scene["queue"])))
        lines.append(("Tokens", None))
        for player, t in (view.get("tokens") or {}).items():
            lines.append((player, f"Red {t.get('red')}, Yellow {t.get('yellow')}, Green {t.get('green')}"))
        lines.append(("Deck", f"{view.get('deck_size')} cards left"))
        for done in (view.get("finished") or [])[-3:]:
            lines.append((f"Scene {done.get('number')}", f"{done.get('result')} ({card_text(done.get('clincher'))})"))
        for c in view.get("consequences") or []:
            lines.append((f"Consequence for {c.get('player')}", consequence_text(c)))
        self.lines.show_lines(lines)


PANELS.update({
    "hell-for-leather": HellForLeatherPanel,
    "promise-hollows": PromiseHollowsPanel,
    "even-odd": EvenOddPanel,
    "clincher": ClincherPanel,
})
