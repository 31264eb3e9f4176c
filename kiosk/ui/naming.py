"""A Promise Hollows naming turn on one screen: every name the die allows, filled in, one tap.

(The Systems at the very start are named the same way: all of them on one screen.)

The rules take one name per action (``add_name``), so a roll of 5 used to be five
rounds of "choose write a name, choose the card, Confirm". Here the turn's names
are shown together, each already suggested and put on a System card (the cards
with no name first, then the emptiest), all editable; "Write these names" hands
them to the rules one by one, in order. Nothing about the rules changes: it is
the same actions, fewer taps (issue 21).
"""

from __future__ import annotations

from typing import Any, Callable

from kivy.uix.boxlayout import BoxLayout

from .fields import ChoiceInput, TextField, suggestion_for
from .theme import px


def naming_turn(public: list, view: dict[str, Any]) -> tuple[Any, int] | None:
    """The ``add_name`` prompt and how many names are left, when the awaited public prompts
    are a Promise Hollows naming turn (its die rolled); None otherwise."""
    if view.get("game") != "promise-hollows" or view.get("phase") != "naming":
        return None
    adds = [p for p in public if p.action == "add_name"]
    if len(adds) != 1 or any(p.action not in ("add_name", "add_detail") for p in public):
        return None
    left = int((view.get("naming") or {}).get("left") or 0)
    return (adds[0], left) if left > 0 else None


def systems_turn(public: list, view: dict[str, Any]) -> tuple[Any, int] | None:
    """The ``name_system`` prompt and how many Systems are still to name, when that is what
    the table is asked (Promise Hollows' first step: one System per player); None otherwise."""
    if view.get("game") != "promise-hollows" or view.get("phase") != "systems":
        return None
    asked = [p for p in public if p.action == "name_system"]
    if len(asked) != 1 or len(public) != 1:
        return None
    left = len(view.get("players") or []) - len(view.get("systems") or [])
    return (asked[0], left) if left > 0 else None


def cards_for(count: int, systems: list[dict[str, Any]]) -> list[str]:
    """Which System card each of ``count`` new names goes on: a card without a name first,
    then always the card with the fewest (the rules want every System named)."""
    held = {s["name"]: len(s.get("names") or []) for s in systems}
    out = []
    for _ in range(count):
        card = min(held, key=lambda name: held[name])  # ties: the first card, in the table's order
        held[card] += 1
        out.append(card)
    return out


class NamesAtOnce(BoxLayout):
    """One row per name still to write: the name (suggested, "New one" draws another) and
    the System card it goes on (chosen already, one tap to change).

    ``systems`` None: the names are the Systems' own (no card to choose), numbered on from
    ``first`` ("System 2 of 4"). ``turn``: whose turn this is (any value), for ``follow``.

    The form is drawn again after every name the rules take (from its own button, a phone
    or the host), one row fewer each time, and at every naming turn. Built anew each time,
    a form of five rows was about 9,500 Python objects in reference cycles left for the
    collector per name, a large part of the garbage that set Python's memory high-water
    mark in a day's first Promise Hollows game (issue 33, seventh pass). So the play screen
    keeps one form and ``follow`` fits it to what is asked now; the rows it takes off are
    kept (at most as many as the largest turn had) for a later turn that needs more."""

    def __init__(self, count: int, systems: list[dict[str, Any]] | None, limit: int | None = None,
                 game: str = "promise-hollows", first: int = 1, of: int | None = None, turn: Any = None) -> None:
        super().__init__(orientation="vertical", size_hint_y=None, spacing=px(8))
        self.bind(minimum_height=self.setter("height"))
        self.shape = self._shape(systems, limit, game, of)
        """What ``follow`` must find unchanged to use this form: the kind of name, the cards, the length."""
        self.what, self.cards, self.limit = self.shape[:3]
        self.turn = turn
        self._suggest = suggestion_for(game, "name", self.what)
        self.rows: list[tuple[TextField, ChoiceInput | None]] = []
        self.spare: list[tuple[TextField, ChoiceInput | None]] = []
        """Rows taken off (the last first), for a turn with more names."""
        self._fit(count, systems, first, of, [""] * count)

    @staticmethod
    def _shape(systems: list[dict[str, Any]] | None, limit: int | None, game: str, of: int | None) -> tuple:
        return "Name" if systems is not None else "System", [s["name"] for s in systems or []], limit, game, of

    def follow(self, count: int, systems: list[dict[str, Any]] | None, limit: int | None = None,
               game: str = "promise-hollows", first: int = 1, of: int | None = None, turn: Any = None,
               taken: set[str] | frozenset[str] = frozenset()) -> bool:
        """Show ``count`` rows (the arguments as ``NamesAtOnce``'s) with the widgets already
        built. In the same turn the names not yet written (not in ``taken``, the town's names in
        lower case) move up in place of those written and the last rows go; a new turn gets fresh
        suggestions. Each row is numbered and given its card as a new form would be. False, with
        nothing changed, when this form cannot: another kind of name, other cards."""
        if self._shape(systems, limit, game, of) != self.shape or count < 1:
            return False
        names = [""] * count
        if turn == self.turn:
            unwritten = [text.box.text for text, _ in self.rows if text.box.text.strip().lower() not in taken]
            # the form's own button writes from the top: the last ones are still to write
            names = unwritten[len(unwritten) - count:] if len(unwritten) >= count else \
                unwritten + [""] * (count - len(unwritten))
        self.turn = turn
        self._fit(count, systems, first, of, names)
        return True

    def _fit(self, count: int, systems: list[dict[str, Any]] | None, first: int, of: int | None,
             names: list[str]) -> None:
        """``count`` rows showing ``names`` (a suggestion where a name is empty), numbered and carded."""
        while len(self.rows) > count:
            row = self.rows.pop()
            for widget in row:
                if widget is not None:
                    self.remove_widget(widget)
            self.spare.append(row)
        while len(self.rows) < count:
            row = self.spare.pop() if self.spare else self._row(len(self.rows))
            for widget in row:
                if widget is not None:
                    self.add_widget(widget)
            self.rows.append(row)
        cards = cards_for(count, systems) if systems else [None] * count
        for i, ((text, where), name, card) in enumerate(zip(self.rows, names, cards)):
            text.box.text = name
            if not name.strip():
                text.draw()
            if text.title is not None:
                text.title.text = f"{self.what} {first + i} of {of or count}"
            if where is not None:
                where.pick(card, quiet=True)

    def _row(self, i: int) -> tuple[TextField, ChoiceInput | None]:
        """The form's row ``i`` (0 on top): its name box, and its cards when names go on cards."""
        text = TextField(f"{self.what.lower()}{i + 1}", f"{self.what} {i + 1}", max_len=self.limit,
                         suggest=self._distinct(self._suggest) if self._suggest else None)
        where = None
        if self.cards:
            where = ChoiceInput(f"system{i + 1}", "", self.cards, cols=min(4, len(self.cards)))
        return text, where

    def _distinct(self, draw: Callable[[], str]) -> Callable[[], str]:
        """``draw``, but trying again (a few times) for a name another row already shows."""
        def fresh() -> str:
            shown = {t.box.text.strip().lower() for t, _ in getattr(self, "rows", [])}
            name = draw()
            for _ in range(8):
                if name.strip().lower() not in shown:
                    break
                name = draw()
            return name
        return fresh

    def answers(self) -> list[tuple[str | None, str]] | str:
        """(card, name) per row, in order (card None for a System's own name); or what is
        wrong, in words, when a row is not ready."""
        out = []
        for i, (text, where) in enumerate(self.rows, start=1):
            name = (text.box.text or "").strip()
            if not name:
                return f"Name {i} is empty: write one, or tap New one."
            if where is not None and where.value is None:
                return f"Choose the card for name {i}."
            out.append((where.value if where is not None else None, name))
        seen = [n.lower() for _, n in out]
        twice = next((n for _, n in out if seen.count(n.lower()) > 1), None)
        if twice:
            return f"{twice} is written twice: change one of them."
        return out

    def fill(self, answers: list[tuple[str | None, str]]) -> None:
        """Put back answers not yet written (after the rules refused one), so nothing is lost."""
        for (text, where), (card, name) in zip(self.rows, answers):
            text.box.text = name
            if where is not None:
                where.pick(card, quiet=True)

