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
import weakref
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.utils import escape_markup as esc

from kiosk.rules.core import dice_count, plural, possessive

from . import art, theme
from .fields import show
from .results import MEANING_COLOUR
from .theme import Text, px, show_texts

log = logging.getLogger(__name__)

HIDDEN_KEYS = {"awaiting", "outcome", "players", "seed"}


def label(key: str) -> str:
    """'goal_target' -> 'Goal target'; a name stays as written ('Team A', never 'Team a')."""
    text = key.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


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
        lines: list[tuple[str, str | None]] = [(self.title, None), *lines_of(view)]
        self.show_lines(lines)

    KEPT_TEXTS = 48
    """How many different lines a panel keeps rendered for when they come back."""

    TEXT_SIZE = 20
    """Panel lines are read from a metre away: 20 px at 800x480 (issue 21)."""

    def show_lines(self, lines: list[tuple[str, str | None]]) -> None:
        """Show (heading, text) lines; labels are reused by text (see ``theme.show_texts``).

        A text that starts with ``MARKUP`` is already markup (suit symbols, say) and is not escaped."""
        show_texts(self, [f"[b][color=dbad47]{esc(heading)}[/color][/b]" if text is None  # a section title
                          else f"[b]{esc(heading)}:[/b] {_body(text)}" for heading, text in lines],
                   make=lambda: Text("", size=self.TEXT_SIZE), keep=self.KEPT_TEXTS)


MARKUP = "\x00"
"""Prefix of a panel line's text that is markup already (see ``GenericPanel.show_lines``)."""


def _body(text: str) -> str:
    return text[len(MARKUP):] if text.startswith(MARKUP) else esc(text)


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
        try:
            self.inner = panel_for(game)
        except Exception:  # noqa: BLE001 - a panel that cannot even be built is shown as plain lines
            log.exception("the %s panel could not be built; showing plain lines", game)
            self.inner = GenericPanel()
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
# Purpose-made panels. Each reads only the public view (and the tray's state),
# and leads with the game's objects drawn (``art``), words beside them.
# --------------------------------------------------------------------------

SUITS = {"♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs", "S": "spades", "H": "hearts",
         "D": "diamonds", "C": "clubs"}
RANKS = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack"}

PHASES = {
    # Hell for Leather
    "bios": "making the contestants", "goals": "choosing Goals", "tiebreak": "breaking the tie",
    "threat": "the Adversary's Threat", "intent": "saying what you try", "conflict": "throwing dice",
    "dilemma": "a Dilemma", "coop_dilemma": "a Dilemma for everyone", "fail_roll": "rolling for failure",
    "goal": "a Goal scene", "traumas": "Traumas", "take_cup": "passing the Narrator Cup",
    "entrance": "the Finale's entrance", "rewards": "the Finale's rewards", "epilogue": "the epilogue",
    "over": "the end",
    # Promise Hollows
    "systems": "founding the town's Systems", "naming": "naming the town", "characters": "making characters",
    "confessions": "confessions", "case": "the case", "story": "scenes", "face_off": "the Face-Off",
    "elaboration": "elaborating", "challenge": "a challenge", "revelation": "a revelation", "reveal": "revealing",
    # Even/Odd
    "crime_scene": "the crime scene", "even_suspect": "the Even Suspect", "odd_suspect": "the Odd Suspect",
    "wagers": "secret wagers", "roll": "rolling the dice", "final": "the final scene", "vote": "the vote",
    # clincher
    "call": "calling a scene", "difficulty": "setting the difficulty", "act": "acting", "redraws": "redraws",
    "draw": "drawing",
}
"""The engines' phase keys in plain words for the table (never "Now: bios")."""


def phase_words(key: Any) -> str:
    key = str(key or "")
    return PHASES.get(key, key.replace("_", " "))


def card_text(card: str | None) -> str:
    """'Q♦' -> 'Queen of diamonds' (the suit named in words, not only a symbol)."""
    if not card:
        return "-"
    rank, suit = card[:-1], card[-1]
    return f"{RANKS.get(rank, rank)} of {SUITS.get(suit, suit)}"


def card_markup(card: str | None) -> str:
    """'Q♦' as markup: the rank, the suit symbol in the symbols font, then the card in words."""
    if not card:
        return "-"
    return f"{esc(card[:-1])}{art.suit_markup(card[-1])} ({esc(card_text(card))})"


def consequence_text(record: dict[str, Any]) -> str:
    """A consequence card kept from a redraw, in words: the card, good or bad, which scene."""
    kind = "positive" if record.get("good") else "negative"
    used = ", cashed in" if record.get("used") else ""
    return f"{card_text(record.get('card'))}, {kind}, scene {record.get('scene')}{used}"


def suits_text(up: str | None) -> str:
    return ", ".join(SUITS.get(ch, ch) for ch in (up or "")) or "-"


def suits_markup(up: str | None) -> str:
    """Up suits as symbols with their names: '♠ spades, ♥ hearts'."""
    return ", ".join(f"{art.suit_markup(ch)} {SUITS.get(ch, esc(ch))}" for ch in (up or "")) or "none yet"


def tray_capacity() -> int:
    """The tallest Heat stack the tray can read: the site configuration's, else the default."""
    try:
        from kivy.app import App

        app = App.get_running_app()
        if app is not None and getattr(app, "_config_hw", None) is not None:
            return int(app._config_hw.geometry.max_heat_dice)
    except Exception:  # noqa: BLE001 - a capacity is only advice on screen
        log.debug("no site geometry; using the default tray capacity", exc_info=True)
    from hardware.config import GeometryConfig

    return int(GeometryConfig().max_heat_dice)


def match_heat(dice: int, sensed: int | None, capacity: int = 14) -> str:
    """What the table should do so the stack on the tray is the game's Heat.

    The tray reads at most ``capacity`` dice: above that the stack is built to the
    capacity and the screen counts the rest (docs/rules/hell_for_leather.md)."""
    if sensed is None:
        return "[color=9e9a8f]The tray is not reading the stack.[/color]"
    target = min(dice, capacity)
    extra = dice - target
    beyond = f" The tray holds {capacity}; the other {extra} {'is' if extra == 1 else 'are'} counted here." \
        if extra else ""
    if sensed == target:
        return f"[color=4da861]The stack on the tray matches.[/color]{beyond}"
    gap = target - sensed
    todo = f"add {dice_count(abs(gap))}" if gap > 0 else f"take {dice_count(abs(gap))} off"
    return f"[color=e69e2e][b]The tray sees {sensed}: {todo}[/b][/color]{beyond}"


def _row(height: float, *widgets, spacing: float = 8) -> BoxLayout:
    row = BoxLayout(size_hint_y=None, height=px(height), spacing=px(spacing))
    for w in widgets:
        row.add_widget(w)
    return row


class HeatStack(BoxLayout):
    """The Heat as a tower of dice with its number, status and the tray's reading in words beside it."""

    def __init__(self, **kw) -> None:
        super().__init__(orientation="horizontal", size_hint_y=None, height=px(170), spacing=px(8), **kw)
        self.tower = art.HeatTower(size_hint_x=None, width=px(76))
        self.words = Text("", size=20, fit=False)
        self.add_widget(self.tower)
        self.add_widget(self.words)
        self.dice: int | None = None

    def show(self, dice: int, status: str, team: str, sensed: int | None, capacity: int | None = None) -> None:
        capacity = capacity or tray_capacity()
        self.words.text = (f"[b][size={int(theme.font(28))}]Heat {dice}[/size][/b]\n[b]{esc(status)}[/b], "
                           f"{esc(team)}\n{match_heat(dice, sensed, capacity)}")
        self.tower.show(dice, capacity)
        self.dice = dice

    def fell(self, count: int, left: int) -> None:
        """The stack fell: the top ``count`` dice tumble and the tower stands at ``left``."""
        self.tower.fall(count, left)


class HellForLeatherPanel(GenericPanel):
    title = "Hell for Leather"
    on_table: dict | None = None
    """The game's Heat on the tray now (from the public view), or None between conflicts' teams."""

    def show_tray(self, tray) -> None:
        """The tray's reading changed (or the game's Heat did): say whether the stack matches."""
        if self.on_table:
            self.heat.show(self.on_table["dice"], self.on_table["status"], f"{possessive(self.on_table['whose'])} stack",
                           tray.heat if tray else None)

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.heat = HeatStack()
        self.fall_note = Text("", size=20, bold=True, color=theme.WARN)
        self.top_lines = GenericPanel()
        self.landed = art.LandedDice(size_hint_y=None, height=0)
        self.lines = GenericPanel()
        for w in (self.heat, self.fall_note, self.top_lines, self.landed, self.lines):
            self.add_widget(w)
        self._seen_log = 0
        self._watched: weakref.ref | None = None  # the game whose log ``_seen_log`` counts (not kept alive)

    def update(self, view, runner=None, tray=None) -> None:
        teams = view.get("teams") or []
        self.on_table = view.get("heat")
        self.heat.opacity, self.heat.height = (1, px(170)) if self.on_table else (0, 0)
        self._watch_fall(runner)
        self.show_tray(tray)
        top: list[tuple[str, str | None]] = []
        narr = view.get("narrator")
        top.append(("Now", phase_words(view.get("phase")) + (f", {narr} narrates" if narr else "")))
        conflict = view.get("conflict")
        if conflict:
            top.append(("Conflict", f"{conflict.get('drive')}, {plural(conflict.get('risks', 0), 'Risk')}"))
        self.top_lines.show_lines(top)
        self._show_landed(conflict)
        lines: list[tuple[str, str | None]] = []
        for t in teams:
            lines.append((t["name"], None))
            lines.append(("Score", f"{t.get('vp', 0)} VP, Goals {t.get('goals_done', 0)} of "
                                   f"{view.get('goal_target', '?')}, {plural(t.get('hunter_marks', 0), 'Hunter Mark')}"))
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
        if view.get("adversary"):
            lines.append(("Adversary", show(view["adversary"])))
        if view.get("cue"):
            lines.append(("Cue", str(view["cue"])))
        self.lines.show_lines(lines)

    def _show_landed(self, conflict: dict | None) -> None:
        """This conflict's landed d10s, as dice coloured and named by zone, under how many are
        down. The row keeps its height for the whole conflict and draws its own words, so a
        landing lays nothing out and renders no label. Like the whole panel, it is the record:
        it joins a frame after the landing's large result (``PlayScreen.refresh``)."""
        self.landed.height = px(124) if conflict else 0
        dice = (conflict or {}).get("dice") or []
        to_come = (conflict or {}).get("dice_to_come", 0)
        caption = f"{dice_count(len(dice))} down" + (f", {to_come} to come" if to_come else "") if conflict else ""
        try:
            self.landed.show(dice, caption)
            if conflict:  # the next die's words, ready before it lands (a risk die leaves "to come" as it was)
                down = f"{dice_count(len(dice) + 1)} down"
                after = {to_come, max(0, to_come - 1)}
                self.landed.render_ahead([down + (f", {n} to come" if n else "") for n in sorted(after)],
                                         art.D10_FACES, art.ZONES, MEANING_COLOUR)
        except Exception:  # noqa: BLE001 - a display bug must never lock a game away (nor stop the clock)
            log.exception("the row of landed dice could not be drawn")

    def _watch_fall(self, runner) -> None:
        """When the newest action, new since the panel last looked, is a fall of the Heat, the
        tower tumbles and the fallen count shows. The panel catches up a frame after the news
        (``PlayScreen.refresh``), so more than one action may be new by then; what a game
        brings when it is put on screen (another game, or a game resumed) is not news, nor is
        a log an undo made shorter."""
        log_ = runner.session.log if runner is not None else []
        watched = self._watched() if self._watched is not None else None
        if runner is not watched:
            self._watched = weakref.ref(runner) if runner is not None else None
            self._seen_log = len(log_)
            self.fall_note.text = ""
            return
        if len(log_) == self._seen_log:
            return
        grew = len(log_) > self._seen_log
        self._seen_log = len(log_)
        last = log_[-1] if log_ else None
        if grew and last is not None and last.type == "heat_fall" and self.on_table:
            fell = len(getattr(last, "faces", []) or [])
            self.heat.fell(fell, self.on_table["dice"])
            self.fall_note.text = f"The Heat fell: {dice_count(fell)} down"
        else:
            self.fall_note.text = ""


class PromiseHollowsPanel(GenericPanel):
    title = "Promise Hollows"

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.chips = art.Chips(size_hint_x=0.45)
        self.pot_words = Text("", size=theme.READ, fit=False)
        self.pot = _row(64, self.chips, self.pot_words)
        self.top_lines = GenericPanel()
        self.people = BoxLayout(orientation="vertical", size_hint_y=None, spacing=px(2))
        self.people.bind(minimum_height=self.people.setter("height"))
        self.cards_title = Text("", size=20)
        self.cards = BoxLayout(size_hint_y=None, height=0, spacing=px(8))
        self.lines = GenericPanel()
        self.players_title = Text("[b][color=dbad47]Players[/color][/b]", size=20)
        for w in (self.pot, self.top_lines, self.cards_title, self.cards, self.players_title, self.people, self.lines):
            self.add_widget(w)
        self._rows: dict[str, tuple] = {}
        self._cards: list[art.ChallengeCard] = []
        """Every challenge card built, shown or not: the next challenge shows them again."""

    def update(self, view, runner=None, tray=None) -> None:
        pot = view.get("pot", 0)
        self.chips.show(pot)
        box = view.get("box")
        left = f"\n[color=9e9a8f]{box} left in the box[/color]" if box is not None else ""
        self.pot_words.text = f"[b][size={int(theme.font(theme.HEADLINE))}]Pot: {pot}[/size] Color[/b]{left}"
        top: list[tuple[str, str | None]] = [("Now", phase_words(view.get("phase")))]  # the top bar names the game
        if view.get("case"):
            top.append(("The case", str(view["case"])))
        scene = view.get("scene") or {}
        if scene:
            top.append(("Scene", f"opened by {scene.get('opener')}, {phase_words(scene.get('step'))}, "
                                 f"stake {scene.get('stake', 0)}"))
        if scene.get("turn"):
            top.append(("Betting", f"{scene['turn']} to act; passed: {', '.join(scene.get('passed') or []) or 'nobody'}"))
        self.top_lines.show_lines(top)
        self._show_people(view.get("players") or [])
        self._show_cards(scene.get("challenge"), view.get("face_off"))
        lines: list[tuple[str, str | None]] = []
        if view.get("exposed"):
            lines.append(("Exposed", show(view["exposed"])))
        if view.get("winners"):
            lines.append(("Winners", ", ".join(view["winners"])))
        self.lines.show_lines(lines)

    def _show_people(self, players: list[dict]) -> None:
        """One row per player: name, character and role in words; Color as a bar; the Private Die as a die."""
        most = max([p.get("color", 0) for p in players] + [1])
        rows = []
        for p in players:
            name = str(p.get("player"))
            row = self._rows.get(name)
            if row is None:
                words = Text("", size=20)
                bar = art.ColorBar(size_hint_x=0.62)
                die = PipDie(size_hint_x=0.38)
                box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=px(2))
                box.add_widget(words)
                box.add_widget(_row(34, bar, die))
                box.bind(minimum_height=box.setter("height"))
                row = self._rows[name] = (box, words, bar, die)
            box, words, bar, die = row
            who = f"{name} ({p['character']})" if p.get("character") else name
            out = f", out ({p['out']})" if p.get("out") else ""
            words.text = f"[b]{esc(who)}[/b], {esc(str(p.get('role')))}{esc(out)}"
            bar.show(int(p.get("color") or 0), most)
            die.show(p.get("private_die"), "Private Die")
            rows.append(box)
        theme.set_children(self.people, rows)

    def _show_cards(self, challenge: dict | None, face_off: dict | None) -> None:
        """A challenge's cards (or a Face-Off's votes): face down once locked, face up once turned."""
        cards: list[tuple[str, str | None, bool]] = []  # owner, colour shown, locked
        title = ""
        if challenge:
            parties = [challenge.get("challenger"), challenge.get("target"), challenge.get("third_man")]
            shown = challenge.get("cards") or {}
            locked = set(challenge.get("locked") or [])
            for who in [p for p in parties if p]:
                cards.append((who, shown.get(who), who in locked or who in shown))
            title = "[b]Challenge:[/b] " + (f"{esc(challenge.get('challenger'))} against {esc(challenge.get('target'))}")
        elif face_off and face_off.get("suspect"):
            voted = set(face_off.get("voted") or [])
            joined = [face_off.get("declarer")] + [p for p, yes in (face_off.get("joins") or {}).items() if yes]
            for who in [p for p in joined if p]:
                cards.append((who, None, who in voted))
            title = f"[b]Face-Off:[/b] {esc(face_off.get('suspect'))} accused; votes face down"
        # Kept between challenges: a card let go waited for Python's cycle collector, dozens of
        # them in a game (issue 33, seventh pass); a table has three or so, a Face-Off one a player.
        widgets = self._cards
        while len(widgets) < len(cards):
            widgets.append(art.ChallengeCard(size_hint_x=None, width=px(72)))
        for w, (who, colour, is_locked) in zip(widgets, cards):
            w.show(colour, face_up=colour is not None, owner=who, dim=not is_locked)
        theme.set_children(self.cards, widgets[:len(cards)])
        self.cards.height = px(120) if cards else 0
        waiting = [who for who, colour, locked in cards if not locked]
        if waiting and title:
            title += f"\n[color=9e9a8f]still choosing: {esc(', '.join(waiting))}[/color]"
        self.cards_title.text = title
        self.cards_title.height = self.cards_title.height if title else px(4)


class PipDie(art.Drawn):
    """A small d6 showing a number as pips, its name in words beside it ("Private Die")."""

    def __init__(self, **kw) -> None:
        self.face, self.name = None, ""
        super().__init__(**kw)

    def show(self, face, name: str) -> None:
        if (face, name) != (self.face, self.name):
            self.face, self.name = face, name
            self._redraw()

    def draw(self) -> None:
        s = self.height * 0.9
        art.draw_d6(self.x + px(4), self.center_y - s / 2, s, self.face if isinstance(self.face, int) else None)
        label = max(px(14), min(px(16), self.height * 0.5))
        tex_x = self.x + px(10) + s
        art.draw_text(self.name, tex_x + (self.right - tex_x) / 2, self.center_y, label, theme.DIM)


class EvenOddPanel(GenericPanel):
    title = "The case"

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.top_lines = GenericPanel()
        self.papers = art.Papers(size_hint_y=None, height=px(110))
        self.roll_title = Text("", size=20)
        self.roll = art.DiceGroups(size_hint_y=None, height=0)
        self.lines = GenericPanel()
        for w in (self.top_lines, self.papers, self.roll_title, self.roll, self.lines):
            self.add_widget(w)

    def update(self, view, runner=None, tray=None) -> None:
        lines: list[tuple[str, str | None]] = [(self.title, None)]
        if view.get("case"):
            lines.append(("Case", f"{view['case']} (victim: {view.get('victim')})"))
        number = view.get("scene") or 0
        when = f"Scene {number}" if number else "Before the first scene"
        lines.append((when, f"led by {view.get('lead')}; {phase_words(view.get('phase'))}"))
        papers = view.get("papers") or {}
        suspects = view.get("suspects") or {}
        self.papers.show([(side.capitalize(), str((suspects.get(side) or {}).get("name") or ""), papers.get(side, 0))
                          for side in ("even", "odd")])
        self.top_lines.show_lines(lines)
        history = view.get("history") or []
        epilogue = view.get("epilogue_roll") or {}
        faces, title = None, ""
        if epilogue.get("faces"):
            faces, title = epilogue["faces"], "[b]The Epilogue roll[/b]"
        elif history and history[-1].get("faces"):
            faces, title = history[-1]["faces"], f"[b]Scene {history[-1]['number']}'s roll[/b]"
        self.roll_title.text = title
        self.roll.show(faces or [])
        self.roll.height = px(42) + px(40) * max(1, (max(len([f for f in (faces or []) if f % 2 == 0]),
                                                        len([f for f in (faces or []) if f % 2]), 1) + 4) // 5) \
            if faces else 0
        more: list[tuple[str, str | None]] = []
        if history:
            more.append((f"Scene {history[-1]['number']}", scene_story(history[-1])))
        more.append(("Epilogue Pool", str(view.get("epilogue_pool", 0))))
        pools = view.get("pools") or {}
        more.append(("Pools", ", ".join(f"{p} {n}" for p, n in pools.items())))
        if view.get("locked"):
            more.append(("Wagers locked", ", ".join(view["locked"])))
        if view.get("wagers"):
            more.append(("Wagers", ", ".join(f"{p} {w.get('points')} on {w.get('side')}"
                                             for p, w in view["wagers"].items())))
        if view.get("accused"):
            accused = (view.get("suspects") or {}).get(view["accused"]) or {}
            more.append(("Accused", f"{accused.get('name', '?')}, the {view['accused'].capitalize()} Suspect"))
        self.lines.show_lines(more)


def scene_story(record: dict) -> str:
    """One finished Even/Odd scene in a sentence: the dice, the count, where the points went."""
    faces = record.get("faces")
    dice = f"dice {' '.join(map(str, faces))}: " if faces else ""
    counted = f"{dice}{record['evens']} even, {record['odds']} odd"
    side = record.get("points_to")
    went = f"{plural(record['to_paper'], 'point')} to the {side.capitalize()} paper" if side else "no winner"
    if record.get("to_epilogue"):
        went += f", {record['to_epilogue']} to the Epilogue Pool"
    if record.get("returned"):
        went += f", {record['returned']} back to their owners"
    return f"led by {record['lead']}; {counted}; {went}"


TOKEN_ORDER = ("red", "yellow", "green")


class Tokens(art.Drawn):
    """One player's procedural tokens: each colour's shape (red square, yellow triangle,
    green circle, as on the pads) with its count beside it; the panel's title line names them."""

    def __init__(self, **kw) -> None:
        self.counts: dict[str, Any] = {}
        super().__init__(**kw)

    def show(self, counts: dict[str, Any]) -> None:
        counts = {k: counts.get(k) for k in TOKEN_ORDER}
        if counts != self.counts:
            self.counts = counts
            self._redraw()

    def draw(self) -> None:
        step = self.width / 3
        s = min(self.height * 0.86, step * 0.45)
        for i, key in enumerate(TOKEN_ORDER):
            fill, ink, shape, word = theme.MARKS[key]
            cx = self.x + step * i + s / 2 + px(2)
            art.draw_shape(shape, cx, self.center_y, s, fill, theme.INK)
            art.draw_text(show(self.counts.get(key)), cx + s * 0.9 + px(8), self.center_y, px(22), theme.INK,
                          bold=True)


class ClincherPanel(GenericPanel):
    title = "Clincher"

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.card = art.PlayingCard(size_hint_x=None, width=px(96))
        self.card_words = Text("", size=20, fit=False)
        self.head = _row(136, self.card, self.card_words, spacing=10)
        self.tokens_title = Text("[b][color=dbad47]Tokens:[/color][/b] " + "  ".join(
            f"[font={art.SYMBOLS}][color={colour}]{glyph}[/color][/font] {word}"
            for glyph, colour, word in (("■", "c8302c", "Red"), ("▲", "ebc733", "Yellow"), ("●", "3a9a4e", "Green"))),
            size=20)
        self.tokens = BoxLayout(orientation="vertical", size_hint_y=None, spacing=px(2))
        self.tokens.bind(minimum_height=self.tokens.setter("height"))
        self.lines = GenericPanel()
        for w in (self.head, self.tokens_title, self.tokens, self.lines):
            self.add_widget(w)
        self._token_rows: dict[str, tuple] = {}

    def update(self, view, runner=None, tray=None) -> None:
        scene = view.get("scene") or {}
        last = (view.get("finished") or [{}])[-1]
        if scene or not last.get("clincher"):
            active = scene.get("active")
            self.card.show_card(active)
            head = f"[b]Scene {scene.get('number')}[/b], {esc(phase_words(view.get('phase')))}\n" if scene else ""
            card = f"[b]{esc(card_text(active))}[/b]" if active else "No card drawn yet"
            up = f"\n[b]Up suits:[/b] {suits_markup(scene.get('up_suits'))}" if scene else ""
            self.card_words.text = head + card + up
        else:  # between scenes and after the last one: the clincher that decided the last scene
            self.card.show_card(last["clincher"])
            self.card_words.text = (f"[b]Scene {last.get('number')}[/b] ended\n"
                                    f"{esc(str(last.get('result')))}: {card_markup(last['clincher'])}")
        self._show_tokens(view.get("tokens") or {})
        lines: list[tuple[str, str | None]] = []
        if scene:
            lines.append(("Where", str(scene.get("location"))))
            difficulty = scene.get("difficulty")
            lines.append(("Lead", f"{scene.get('primary')}, " + (f"{difficulty} token for the difficulty"
                                                                  if difficulty else "difficulty not set yet")))
            if scene.get("queue"):
                lines.append(("Redraws asked", ", ".join(scene["queue"])))
        lines.append(("Deck", f"{plural(view.get('deck_size') or 0, 'card')} left"))
        for done in (view.get("finished") or [])[-3:]:
            lines.append((f"Scene {done.get('number')}", MARKUP + f"{esc(str(done.get('result')))}, "
                                                              f"{card_markup(done.get('clincher'))}"))
        for c in view.get("consequences") or []:
            lines.append((f"Consequence for {c.get('player')}", consequence_text(c)))
        self.lines.show_lines(lines)

    def _show_tokens(self, tokens: dict[str, dict]) -> None:
        rows = []
        for player, counts in tokens.items():
            row = self._token_rows.get(player)
            if row is None:
                name = Text(f"[b]{esc(player)}[/b]", size=20, fit=False, size_hint_x=0.4)
                chips = Tokens(size_hint_x=0.6)
                row = self._token_rows[player] = (_row(36, name, chips), chips)
            row[1].show(counts)
            rows.append(row[0])
        theme.set_children(self.tokens, rows)


PANELS.update({
    "hell-for-leather": HellForLeatherPanel,
    "promise-hollows": PromiseHollowsPanel,
    "even-odd": EvenOddPanel,
    "clincher": ClincherPanel,
})
