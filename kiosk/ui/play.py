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
from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup as esc

from kiosk import adapters
from kiosk.rules import RuleError
from kiosk.rules.core import plural, possessive
from kiosk.rules.words import stack_words

from . import theme
from .art import NEXT_FRAME
from .fields import field_label, for_field, readable, show
from .naming import NamesAtOnce, naming_turn, systems_turn
from .overlays import Confirm, PrivateLook, Reveal
from .panels import SafePanel, private_lines
from .reused import Reused
from .theme import Big, Filled, Framed, Scroll, Text, px


if TYPE_CHECKING:
    from kiosk.runner import Runner

    from .results import ThrowResult

log = logging.getLogger(__name__)

def _tick_sound(app) -> None:
    """The five-count's tick, through the kiosk's sound cues (kiosk.sound: volume, mute and quiet hours apply)."""
    sounds = getattr(app, "sounds", None)
    if sounds is not None:
        sounds.play("tick")


def describe(action, events, asked: str | None = None) -> str:
    """What an action did, in the words the log used for it, for the undo question
    ("Roger's die lands outside the target."), never its code ("land (zone Outside, face 0)").
    With no public sentence, the question it answered ("Bo's answer to: pick a card")."""
    told = [e.text for e in events if e.visible_to(None)]
    if told:
        text = " ".join(told[:2])
        return text if len(text) <= 240 else text[:240].rsplit(" ", 1)[0] + "…"
    who = action.player or "The table"
    return f"{who}'s answer to: {asked}" if asked else f"{who}'s last move"


class RecentLines(BoxLayout):
    """The last things that happened, oldest first, in a strip two rows high (three on a wide screen).

    The newest line is always shown whole; older ones only while they fit in
    the rows left, the oldest stepping aside first. So the strip keeps its height when a line wraps, and the
    play area above does not jump (and is not laid out again) after a throw.
    Only a newest line longer than two rows makes the strip taller, for as long
    as it is the newest.

    Each action moves the newest line up one place and adds one: the label
    showing it moves with it, so only the new line is rendered, and as plain
    text, which renders several times faster than markup.
    """

    def __init__(self, size: float, rows: int = 2) -> None:
        self.rows = rows
        self.two_rows = rows * CoreLabel(font_size=theme.font(size)).get_extents("")[1]  # the strip's room
        super().__init__(orientation="vertical", size_hint_y=None, height=self.two_rows)
        self._size = size
        self._labels: list[Text] = []  # one per line to show, oldest first
        self.fbind("width", self._widen)

    def show(self, lines: list[str]) -> None:
        if [label.text for label in self._labels] == lines:
            return  # shown already (perhaps the newest alone, see _fit)
        theme.show_texts(self, lines, make=self._make, keep=4)
        self._labels = list(reversed(self.children))
        self._widen()
        self._fit()

    def _widen(self, *_) -> None:
        """Give every line the strip's width, also one stepped aside (no longer laid out), so
        its height is the one it would have here and it comes back when it fits."""
        for label in self._labels:
            if label.width != self.width:
                label.width = self.width

    def _make(self) -> Text:
        label = Text("", size=self._size, color=theme.DIM, markup=False)
        label.fbind("height", self._fit)  # a line's height is known once its text is rendered
        return label

    def _fit(self, *_) -> None:
        if not self._labels:
            return
        room = max(self.two_rows, self._labels[-1].height)
        shown = list(self._labels)
        while len(shown) > 1 and sum(label.height for label in shown) > room:
            shown.pop(0)  # the oldest steps aside first
        theme.set_children(self, shown)
        self.height = room


class PlayScreen(Screen):
    panel: SafePanel
    """The status panel of the game on screen, or of the last one (``attach``)."""

    def __init__(self, app, **kw) -> None:
        super().__init__(name="play", **kw)
        self.app = app
        self.runner: Runner | None = None
        """The game on screen, if one is attached (``attach``)."""
        self.selected: int = 0
        self.inputs: dict[str, Any] = {}
        self._signature: tuple[int, Any, Any] | None = None
        self._shown_heat: int | None = None
        self._inputs_cache: Reused[Any] = Reused(INPUTS_KEPT)
        self._labels_cache: Reused[Text] = Reused(LABELS_KEPT)
        self._buttons_cache: Reused[Big] = Reused(BUTTONS_KEPT)
        self.reveal: Reveal | None = None
        """The reveal on screen, if one is (never more than one)."""
        self._owed: list[list] = []  # rounds whose reveal waits behind the open one, oldest first
        self._withheld: dict[int, tuple[list, list[str]]] = {}  # lines the strip keeps back until a reveal turns
        self.plinth = _silent_empty(Text("", size=22, bold=True, color=theme.WARN, fit=False))  # before a throw
        self.plinth.tag = "prompt:plinth"
        root = BoxLayout(orientation="vertical", padding=px(6), spacing=px(6))  # the window clears to theme.BG
        # top bar: the game's name and the tray's state share what the buttons leave
        bar = BoxLayout(size_hint_y=None, height=px(BAR_HEIGHT), spacing=px(6))
        self.title = Text("", size=20, bold=True, color=theme.ACCENT, fit=False, size_hint_x=0.6)
        self.status = Text("", size=theme.LEAST, color=theme.DIM, fit=False, size_hint_x=0.4)
        bar.add_widget(self.title)
        bar.add_widget(self.status)
        for text, tag, handler in [("Rules", "rules", self.open_rules), ("Secrets", "secrets", self.ask_whose_secrets),
                                   ("Undo", "undo", self.ask_undo), ("Menu", "menu", self.open_menu)]:
            b = Big(text, kind="quiet", size=theme.READ, height=px(BAR_HEIGHT))
            b.tag = f"bar:{tag}"
            b.bind(on_release=lambda *_, h=handler: h())
            bar.add_widget(b)
        bar.bind(children=lambda *_: _fit_bar(bar))  # SIM and Phones are added later, by the app
        _fit_bar(bar)
        root.add_widget(bar)
        self.bar = bar
        # tray banner (only while the tray is away)
        self.banner = Filled(size_hint_y=None, height=0, bg=theme.WARN, padding=(px(8), 0))  # news, not a refusal
        self.banner_text = Text("", size=theme.READ, bold=True, fit=False, color=theme.BG)
        self.banner.add_widget(self.banner_text)
        root.add_widget(self.banner)
        # body
        body = BoxLayout(spacing=px(6))
        left = self.panel_frame = Framed(size_hint_x=0.45 if theme.wide() else 0.42, radius=px(6))  # wide: more
        self.panel_scroll = Scroll(bar=5)
        left.add_widget(self.panel_scroll)
        body.add_widget(left)
        right = Framed(orientation="vertical", padding=px(6), spacing=px(6), radius=px(6),
                       size_hint_x=0.55 if theme.wide() else 0.58)
        self.prompt_scroll = Scroll(bar=5)
        self.prompt_box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=px(6),
                                    padding=(0, 0, px(9), 0))  # a lane for the scroll bar, clear of the buttons
        self.prompt_box.bind(minimum_height=self.prompt_box.setter("height"))
        self.prompt_scroll.add_widget(self.prompt_box)
        right.add_widget(self.prompt_scroll)
        # The prompt's main buttons (Confirm, Back, the game-over ones) are pinned under the
        # scrolling part, so a long list of options never pushes them below the fold.
        # Under them, refusals (red means "not allowed") and events told to the table; both are
        # rare, so they take no room while they say nothing (issue 30: a d10's last faces).
        bottom = BoxLayout(orientation="vertical", size_hint_y=None, height=px(theme.TOUCH))
        bottom.bind(minimum_height=bottom.setter("height"))
        self.footer = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(6))
        bottom.add_widget(self.footer)
        self.error = _silent_empty(Text("", size=theme.READ, color=theme.REFUSAL, fit=False))
        self.notice = _silent_empty(Text("", size=theme.READ, color=theme.NOTICE, italic=True, fit=False))
        bottom.add_widget(self.error)
        bottom.add_widget(self.notice)
        right.add_widget(bottom)
        body.add_widget(right)
        root.add_widget(body)
        # what just happened
        self.recent = RecentLines(size=theme.READ, rows=2)  # two lines at 20 px: the record, not the news
        root.add_widget(self.recent)
        # The record follows the news by one frame: the frame an action is shown in draws what it
        # changed (the die's result, the lock board, the next question) and the strip's new line
        # comes in the next one. Its label, layout and texture were 0.6-1.0 ms of a landing's
        # frame, a tenth of it (docs/kiosk.md, "Event to screen, seventh pass").
        self._recent_due = Clock.create_trigger(self._catch_up_recent, NEXT_FRAME)
        # The status panel is the record too, and so is the next question after a die lands,
        # whose large result is the news: an action's frame leaves them to the next one
        # (``refresh(news_only=True)``, docs/kiosk.md, "Event to screen, fifteenth pass").
        self._panel_due = Clock.create_trigger(self._catch_up_panel, NEXT_FRAME)
        self._prompts_due = Clock.create_trigger(self._catch_up_prompts, NEXT_FRAME)
        self.add_widget(root)

    @property
    def game(self) -> Runner:
        """The game on screen; everything but ``attach`` runs with one attached."""
        if self.runner is None:
            raise RuntimeError("the play screen has no game attached")
        return self.runner

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
        self._detach()
        self.runner = runner
        runner.listeners.append(self._on_change)
        self.title.text = esc(runner.engine.title)
        self.title.font_size = theme.font(theme.READ)  # a long name takes two lines
        if "panel" not in self.__dict__ or self.panel.game != runner.engine.game:
            # The panel of the game on screen only (kept through a pause, built again for another
            # game): one kept per game made a process's first Promise Hollows game its memory
            # for the rest of the day (issue 33, docs/kiosk.md "fifth pass").
            self._forget_widgets()
            self.panel = SafePanel(runner.engine.game)
            self._shown_heat = None  # a new panel has no tray shown yet
        self.panel_scroll.clear_widgets()
        self.panel_scroll.add_widget(self.panel)
        self._signature = None
        self.error.text = ""
        self.refresh()
        self._recent_due.cancel()
        self._show_recent()  # a new game's strip at once: never the last game's lines, even for a frame

    def _on_change(self, change) -> None:
        self.error.text = self.notice.text = ""
        landed = change.action is not None and change.action.type == "land"
        if landed:
            self._show_throw(change.events)
        if self.fall is not None and not self.fall.result_shown and not self.fall.submitting and \
                not any(p.action == "heat_fall" for p in self.game.awaiting()):
            self.fall.close()  # entered elsewhere (a phone, the operator) or no longer asked: nothing to enter here
        if change.reveal is not None and _turns_over(change.reveal):
            # what the round revealed stays off the strip under the overlay until the cards turn
            self._withheld[id(change.reveal)] = (change.reveal, [e.text for e in change.reveal])
            self._owe_reveal(change.reveal)
        self.refresh(news_only=True, landed=landed)
        self._locks_on_reveal()

    def _show_throw(self, events: list) -> None:
        """A d10 landed: its zone, face and meaning in large type for a moment (kiosk.ui.results)."""
        from .results import landing_of

        landing = landing_of(events)
        if landing is not None:
            self._throw_result().show(landing)

    def _throw_result(self) -> ThrowResult:
        """The throw result (made once), placed over the top of the status panel, whose Heat
        and dice it sums up: never over the question on the right, which the next thrower
        reads and answers in these seconds."""
        from .results import ThrowResult

        result = self.__dict__.get("throw_result")
        if result is None:
            result = self.throw_result = ThrowResult()
            self.add_widget(result)
        frame, margin = self.panel_frame, px(6)
        result.size = (frame.width - 2 * margin, px(ThrowResult.HEIGHT_PX))
        result.pos = (frame.x + margin, frame.top - margin - result.height)
        return result

    # -- reveals: one on screen at a time ------------------------------------------

    def _owe_reveal(self, events: list) -> None:
        """A secret round closed: the table is owed its reveal. One reveal is on screen at a time
        (issue 33): a newer round waits behind the open one until the table has read it
        (``Reveal.read``), then replaces it; so pads and phones answering round after round
        with nobody at the screen pile nothing up. At most ``OWED_MAX`` wait (the oldest
        steps aside; every round is in the log and the recap too)."""
        self._owed.append(events)
        for dropped in self._owed[:-OWED_MAX]:
            self._release(dropped)
        del self._owed[:-OWED_MAX]
        if self.reveal is None:
            self._next_reveal()
        elif self.reveal.read:
            self.reveal.close()  # read already: the newer round takes its place (its on_close opens it)

    def _locks_on_reveal(self) -> None:
        """The lock board is under the open reveal: who has locked the next secret choice is
        written on the reveal instead (``Reveal.show_locked``), in the frame of the lock."""
        if self.reveal is None:
            return
        try:
            names = [name for rnd in self.game.secret_rounds() for name in rnd.locked]
            self.reveal.show_locked(list(dict.fromkeys(names)), all_in=not names and bool(self._owed))
        except Exception:  # noqa: BLE001 - a display bug must never lock a game away
            log.exception("the reveal could not say who has locked in")

    def _next_reveal(self) -> None:
        self.reveal = None
        while self._owed and self.reveal is None:
            events = self._owed.pop(0)
            try:
                overlay = reveal_overlay(events)
            except Exception:  # noqa: BLE001 - the reveal is in the recap too; the game goes on
                log.exception("the reveal could not be drawn")
                overlay = Reveal("Now everyone knows", ["(the cards could not be drawn: see what happened below)"])
            if overlay is None:
                self._release(events)
                continue
            overlay.on_close = self._next_reveal
            overlay.on_turned = partial(self._release, events)
            overlay.bind(on_dismiss=self._reveal_gone)
            self.reveal = overlay
            self.app.show_overlay(overlay)
            self._locks_on_reveal()  # a choice locked while it waited its turn

    def _reveal_gone(self, overlay: Reveal) -> None:
        """A reveal closed by something other than the table (Home, attract, a failed save):
        the table has left the game, so nothing more is owed on screen."""
        if overlay is self.reveal and not overlay.closed_by_table:
            self.forget_reveals()

    def forget_reveals(self) -> None:
        """Close the open reveal and drop the waiting ones (on the way Home, or to another game)."""
        owed, self._owed = self._owed, []
        for events in owed:
            self._release(events)
        reveal, self.reveal = self.reveal, None
        if reveal is not None:
            reveal.on_close = lambda: None
            reveal.stop_fading()  # its timer would hold it, cards and all, for FADE_S more
            reveal.dismiss()

    def _release(self, events: list) -> None:
        """The strip may now show what a round revealed."""
        if self._withheld.pop(id(events), None) is not None and self.runner is not None:
            self._show_recent()

    def on_touch_down(self, touch) -> bool:
        """A finger in the frame between a landing and its next question meets the next
        question: it is drawn before the touch goes on (``refresh`` leaves it a frame)."""
        if self._prompts_due.is_triggered and self.collide_point(*touch.pos):
            self._prompts_due.cancel()
            self._catch_up_prompts(0)
        return super().on_touch_down(touch)

    def on_leave(self, *_) -> None:
        self.forget_reveals()
        self._forget_throw()

    def _forget_count(self) -> None:
        """The five-count counts for one runner: stopped and let go with it (kept, it held a
        finished game's whole session until the next count)."""
        count = self.__dict__.pop("_five", None)
        if count is not None:
            count.stop()

    def _forget_widgets(self) -> None:
        """Another kind of game comes on: the widgets kept for the last one go (issue 33). Its
        questions and sentences are not this game's: of 1,043 widgets kept at such a switch,
        the next game asked for 110 again, mostly "Confirm" and "Go on"; kept, they held the
        last game's memory while this one built its own."""
        for store in (self._inputs_cache, self._labels_cache, self._buttons_cache):
            store.clear()
        for name in ("_offer_grids", "_lock_grids", "_names_form"):
            self.__dict__.pop(name, None)

    def _detach(self) -> None:
        """Stop following the game on screen: its reveals, throw result and five-count go, and
        its changes no longer reach this screen."""
        self.forget_reveals()
        self._forget_throw()
        self._forget_count()
        if self.runner is not None and self._on_change in self.runner.listeners:
            self.runner.listeners.remove(self._on_change)

    def let_go(self) -> None:
        """The group has gone (attract mode): the screen keeps nothing of its game, neither the
        runner (its whole session), nor the status panel, nor the widgets kept for reuse, so
        an idle stand holds the kiosk and no group's game. Each game keeps its widgets while
        it is on and through a pause (they make its next prompts quick); between groups they
        only held memory, Promise Hollows' about 85,000 objects (docs/kiosk.md, issue 33, tenth
        pass). The next game, a resumed one too, builds its own (``attach``)."""
        self._detach()
        self.runner = None
        theme.set_children(self.prompt_box, [])  # its last question and answers
        self._pin([])
        self.inputs = {}
        self.current_prompt = None
        self.recent.show([])  # the strip's record of its last moves
        self._forget_widgets()
        if self.__dict__.pop("panel", None) is not None:
            self.panel_scroll.clear_widgets()

    def _forget_throw(self) -> None:
        """The last throw's result belongs to the game it was thrown in: gone with it."""
        result = self.__dict__.get("throw_result")
        if result is not None and result.shown is not None:
            result.hide()

    # -- drawing ---------------------------------------------------------------

    def refresh(self, news_only: bool = False, landed: bool = False) -> None:
        """Bring the screen up to the game. With ``news_only`` (an action was just taken), this
        frame draws what the table looks at for it, and the record follows in the next frame:
        the log strip and the status panel always, and the next question too when a die
        ``landed``, since the die's large result is the news then (see ``__init__``)."""
        runner = self.runner
        if runner is None:
            return
        view = runner.session.view(None, awaiting=False)
        self._on_table = view.get("heat")  # the game's Heat in play (Hell for Leather), for the plinth note
        if news_only:
            self._panel_due()
        else:
            self._panel_due.cancel()
            self._update_panel(view)
        self._recent_due()  # the strip in the next frame (see __init__)
        self.update_status()
        signature = (len(runner.session.log), runner.outcome, getattr(runner, "index", None))  # a lesson's step too
        if signature != self._signature:
            self._signature = signature
            if news_only and (landed or not self.app.screens_drawn):
                self._prompts_due()  # the large result is the news, or a reveal covers the screen
            else:
                self._prompts_due.cancel()
                self.draw_prompts()

    @property
    def record_due(self) -> bool:
        """The record of the last action (the strip, the panel, the next question after a
        landing) is still to be drawn: it comes in the next frame."""
        return any(due.is_triggered for due in (self._recent_due, self._panel_due, self._prompts_due))

    def _update_panel(self, view: dict) -> None:
        c = self.app.controller
        self.panel.update(view, runner=self.runner, tray=c.tray_state if c is not None else None)

    def _catch_up_panel(self, _dt: float) -> None:
        if self.runner is not None:  # the panel catches its own errors (SafePanel)
            self._update_panel(self.runner.session.view(None, awaiting=False))

    def _catch_up_prompts(self, _dt: float) -> None:
        if self.runner is not None:  # draw_prompts catches its own errors
            self.draw_prompts()

    def _catch_up_recent(self, _dt: float) -> None:
        if self.runner is None:
            return
        try:
            self._show_recent()
        except Exception:  # noqa: BLE001 - a display bug must never lock a game away (nor stop the clock)
            log.exception("the strip of what just happened could not be drawn")

    def _show_recent(self) -> None:
        """The last lines of the public recap, less what a reveal still face down would give away."""
        hidden = [text for _, texts in self._withheld.values() for text in texts]
        lines = self.game.session.recap(None, last=self.recent.rows + len(hidden))
        for text in hidden:
            for i in range(len(lines) - 1, -1, -1):
                if lines[i] == text:
                    del lines[i]
                    break
        lines = lines[-self.recent.rows:]
        self.recent.show([readable(line) for line in lines] or ["The game begins."])

    def _show_plinth(self) -> None:
        """Before a throw, say so when the stack on the plinth is not the game's Heat (issue 29)."""
        from .fall import plinth_note
        from .panels import tray_capacity

        c = self.app.controller
        on_table = self._on_table
        sensed = c.tray_state.heat if c is not None and c.tray_state.connected else None
        note = plinth_note(on_table["dice"] if on_table else None, sensed, tray_capacity())
        if note != self.plinth.text:
            self.plinth.text = note

    def update_status(self) -> None:
        if self.plinth.parent is not None:
            self._show_plinth()
        c = self.app.controller
        if c is None:
            return
        tray = c.tray_state
        uses_tray = adapters.for_game(self.runner.engine.game).uses_tray if self.runner else False
        stack = stack_words(tray.heat)
        self.status.text = f"Tray: {tray.link_text}\nStack: {stack}" if uses_tray else ""  # a line each: never "Stack:" alone
        if uses_tray and hasattr(self.panel, "show_tray") and tray.heat != self._shown_heat:
            self._shown_heat = tray.heat
            self.panel.show_tray(tray)
        self.banner.height = px(34) if uses_tray and not tray.connected and tray.expected else 0
        self.banner.opacity = 1 if self.banner.height else 0
        self.banner_text.text = "Tray unplugged: enter throws and Heat by touch below. Sensing resumes when it is back." \
            if self.banner.height else ""

    def draw_prompts(self) -> None:
        for store in (self._labels_cache, self._buttons_cache):
            store.next_draw()  # what the last drawing did not ask for again is off screen: it may be recycled
        box = theme.Gather()  # the prompt area's new children, put in place at the end
        footer = theme.Gather()  # and the buttons pinned under it
        self.inputs = {}
        try:
            if self.game.outcome is not None:
                self._draw_outcome(box, footer)
            else:
                self._draw_awaited(box, footer)
        except Exception:  # noqa: BLE001 - a display bug must never lock a game away
            log.exception("the prompt area could not be drawn; showing the plain one")
            box, footer = theme.Gather(), theme.Gather()
            self._draw_plain(box)
        theme.set_children(self.prompt_box, box)
        self._pin(footer)
        self.prompt_scroll.scroll_y = 1  # a new question starts at its top
        theme.screen_changed()

    def _pin(self, buttons: list) -> None:
        """Show ``buttons`` in the row under the prompt area; with none, the row folds away and
        the room goes to the options above (a lock board, a menu)."""
        for b in buttons:
            self._free(b)
        theme.set_children(self.footer, buttons)
        self.footer.height = px(theme.TOUCH) if buttons else 0

    def _draw_plain(self, box) -> None:
        """The prompt area at its plainest: one button per thing the game awaits, each
        opening its own entry. Shown when the usual drawing failed."""
        box.add_widget(Text("Part of this screen could not be drawn (it is logged). Play goes on:", size=16,
                            color=theme.DIM))
        for i, prompt in enumerate(self.game.awaiting()):
            if prompt.secret:
                b = Big(esc(f"{prompt.player}: answer on screen"), size=16)
                b.handler = lambda p=prompt: self.ask_private(p.player, p)
            else:
                b = Big(esc(readable(prompt.text)), size=16)
                b.handler = lambda p=prompt: self._open_optional(p)
            b.tag = f"plain:{i}"
            b.bind(on_release=lambda btn: btn.handler())
            box.add_widget(b)
        if self.game.outcome is not None:
            home = Big("Home", kind="accent")
            home.tag = "over:home"
            home.bind(on_release=lambda *_: self.app.go_home())
            box.add_widget(home)

    def _draw_awaited(self, box, footer) -> None:
        runner = self.game
        prompts = runner.awaiting()
        secret = [p for p in prompts if p.secret]
        public = [p for p in prompts if not p.secret and not p.optional]
        optional = [p for p in prompts if not p.secret and p.optional]
        if secret:
            self._draw_locks(box, secret)
        several = len({p.player for p in prompts if not p.secret}) > 1  # then every button says whose it is
        # only Promise Hollows has naming forms: other games' prompts (a die landing) pay nothing for them
        view = runner.session.view(None, awaiting=False) if runner.engine.game == "promise-hollows" else {}
        turn = naming_turn(public, view)
        systems = systems_turn(public, view)
        if turn is not None:
            self._draw_naming(box, footer, public, *turn)
        elif systems is not None:
            self._draw_systems(box, footer, *systems)
        elif len(public) == 1:
            self._draw_prompt(box, public[0], footer)
        elif public:
            self._draw_menu(box, public, several)
        if optional:
            self._draw_optional(box, optional, several)
        if any(p.action == "land" for p in public):
            self._throw_result().render_ahead()  # what a landing shows, ready before the die lands

    def _draw_naming(self, box, footer, public, prompt, left: int) -> None:
        """A Promise Hollows naming turn: all its names at once, suggested and already on a
        card (kiosk.ui.naming), one tap to write them; a detail instead stays one tap away."""
        view = self.game.session.view(None, awaiting=False)
        limit = next((f.max for f in prompt.fields if f.name == "name"), None)
        heading = f"{_name(prompt.player)}: write {plural(left, 'name')} on the System cards"
        box.add_widget(self._label("text", heading, size=theme.HEADLINE, bold=True))
        if prompt.action == "land" and adapters.for_game(self.game.engine.game).uses_tray:
            self._free(self.plinth)
            self._show_plinth()
            box.add_widget(self.plinth)  # before the zone and face: the stack is put right before the throw
        systems = view.get("systems") or []
        taken = {name.lower() for s in systems for name in s.get("names") or []}
        box.add_widget(self._names_form_for(left, systems, taken, limit=limit, turn=prompt.player))
        detail = next((p for p in public if p.action == "add_detail"), None)
        if detail is not None:
            other = self._button("names:detail", "Or tell the town something about a name", kind="quiet", size=theme.READ)
            other.handler = lambda p=detail: self._open_optional(p)
            box.add_widget(other)
        ok = self._button("names:confirm", "Write this name" if left == 1 else f"Write these {left} names",
                          kind="accent", size=20)
        ok.handler = lambda p=prompt: self._write_names(p)
        footer.add_widget(ok)
        self.current_prompt = prompt

    def _draw_systems(self, box, footer, prompt, left: int) -> None:
        """Promise Hollows' Systems, every one still to name on one screen, suggested; one tap."""
        view = self.game.session.view(None, awaiting=False)
        limit = next((f.max for f in prompt.fields if f.name == "name"), None)
        of = len(view.get("players") or [])
        box.add_widget(self._label("text", esc(f"Name the town's Systems: clubs, employers or groups ({of})"),
                                   size=theme.HEADLINE, bold=True))
        taken = {s["name"].lower() for s in view.get("systems") or []}
        box.add_widget(self._names_form_for(left, None, taken, limit=limit, first=of - left + 1, of=of))
        ok = self._button("names:confirm", "Name this System" if left == 1 else f"Name these {left} Systems",
                          kind="accent", size=20)
        ok.handler = lambda p=prompt: self._write_names(p)
        footer.add_widget(ok)
        self.current_prompt = prompt

    def _names_form_for(self, left: int, systems, taken: set[str], **kw) -> NamesAtOnce:
        """The names form for ``left`` names (``NamesAtOnce``'s arguments): the one kept, fitted to
        them (``NamesAtOnce.follow``), or a new one when it cannot be; free to add to the box."""
        form = self.__dict__.get("_names_form")
        if form is None or not form.follow(left, systems, taken=taken, **kw):
            form = self._names_form = NamesAtOnce(left, systems, **kw)
        self._free(form)
        return form

    def _write_names(self, prompt) -> None:
        """Hand the form's names to the rules one by one; a refused one (a name the town has
        already) stops there, with the names not yet written put back in the form."""
        answers = self._names_form.answers()
        if isinstance(answers, str):
            self.error.text = esc(answers)
            return
        for k, (card, name) in enumerate(answers):
            data = {"type": prompt.action, "player": prompt.player, "name": name}
            if card is not None:
                data["system"] = card
            problem = self.propose(data)
            if problem:
                self._names_form.fill(answers[k:])  # the form was drawn again for what is left
                self.error.text = esc(problem)
                return

    def _draw_optional(self, box, optional, several: bool) -> None:
        """Things that may be done now, under the main question, in a smaller voice."""
        box.add_widget(self._label("optional:title", "Also possible now:", size=theme.READ, color=theme.DIM))
        self._draw_offers(box, "optional", optional, several, kind="quiet",
                          tag=lambda i, p: f"optional:{p.action}:{p.player}", act=self._open_optional)

    def _draw_menu(self, box, public, several: bool) -> None:
        """Several things may be done now: one button each. A button without values acts at once."""
        players = {p.player for p in public}
        if len(players) == 1:
            who = next(iter(players)) or "The table"
            box.add_widget(self._label("menu", f"{_name(who)}, choose what to do:", size=theme.HEADLINE))
        else:
            box.add_widget(self._label("menu", "Choose what happens next:", size=theme.HEADLINE))
        self._draw_offers(box, "menu", public, several, kind="normal",
                          tag=lambda i, p: f"act:{i}", act=self._choose)

    def _draw_offers(self, box, place: str, prompts, several: bool, kind: str, tag, act) -> None:
        """One button per prompt, named for whoever may press it when several players could.

        The same offer open to several players is its words once, then one short button
        per player ("Spend 1 VP to force a Dilemma on the Narrator:" [Daniel] [Eoin] ...):
        one long button each was cut to "Spend 1 VP to force a Dilemma on the Nar..." with no
        name, and four copies of a sentence take four times the room. The grids are kept by
        place and reused, so a new state re-renders only the buttons whose text changed."""
        grids = self.__dict__.setdefault("_offer_grids", {})
        index = {id(p): i for i, p in enumerate(prompts)}
        for g, (heading, offers) in enumerate(group_offers(prompts, several)):
            if heading:
                box.add_widget(self._label(f"{place}:{g}:text", esc(readable(heading)), size=20))
            grid = grids.get((place, g))
            if grid is None:
                grid = grids[(place, g)] = GridLayout(spacing=px(6), size_hint_y=None)
                grid.bind(minimum_height=grid.setter("height"))
            else:
                self._free(grid)
            names = heading is not None and all(len(text) <= 12 for _, text in offers)
            grid.cols = (4 if theme.wide() else 3) if names and len(offers) > 2 else 2
            buttons = []
            for p, text in offers:
                b = self._button(tag(index[id(p)], p), esc(readable(text)), kind=kind, size=theme.READ,
                                 grows=True)
                b.handler = lambda p=p: act(p)
                buttons.append(b)
            theme.set_children(grid, buttons)
            _same_height(grid, px(theme.TOUCH))
            box.add_widget(grid)

    def _choose(self, prompt) -> None:
        if not prompt.fields:
            self.submit(prompt)
            return
        self._open_optional(prompt)

    def _draw_prompt(self, box, prompt, footer=None) -> None:
        """One question: whose it is (big, their name in colour, readable across the table),
        its inputs, and Confirm pinned under them (into ``footer``, else the box)."""
        footer = box if footer is None else footer
        text = readable(prompt.text)
        if prompt.player:
            heading = f"{_name(prompt.player)}: {esc(_without_name(text, prompt.player))}"
        else:
            heading = esc(text)
        box.add_widget(self._label("text", heading, size=theme.HEADLINE, bold=True))
        if prompt.action == "land" and adapters.for_game(self.game.engine.game).uses_tray:
            self._free(self.plinth)
            self._show_plinth()
            box.add_widget(self.plinth)  # before the zone and face: the stack is put right before the throw
        single = len(prompt.fields) == 1 and prompt.fields[0].kind in ("choice", "int")
        roll_only = len(prompt.fields) == 1 and prompt.fields[0].kind == "list"  # "Roll for me" answers it
        beside = prompt.action == "land"  # a d10's zone and face: every face button above the fold at 800x480
        for f in prompt.fields:
            widget = self._input_for(f, beside=beside)
            widget.submit_to((lambda p=prompt: self.submit(p)) if single or roll_only else None)
            self.inputs[f.name] = widget
            box.add_widget(self._beside(f, widget) if beside else widget)
        if prompt.action == "count" and self.game.engine.game == "hell-for-leather":
            box.add_widget(self._five_count())
        if not single:
            ok = self._button("prompt:confirm", "Confirm" if prompt.fields else "Go on", kind="accent", size=20)
            ok.handler = lambda p=prompt: self.submit(p)
            footer.add_widget(ok)
        self.current_prompt = prompt

    # Widgets are reused from one prompt to the next: a game asks the same kinds of
    # question again and again, and building Kivy widgets (and their text textures)
    # is the slowest part of showing a change. A reused input is reset first. Each
    # store keeps only the most recently used few (kiosk.ui.reused, INPUTS_KEPT...).

    def _input_for(self, f, beside: bool = False):
        """The input for field ``f``; with ``beside``, without its name over it (``_beside``)."""
        key = (f.name, f.kind, repr(f.choices), f.min, f.max, f.unique, f.label, beside)
        widget, kept = self._inputs_cache.take(key, lambda: for_field(f, label="" if beside else None))
        if kept:
            if widget.parent is not getattr(widget, "beside_row", None):
                self._free(widget)
            widget.reset()
        return widget

    def _beside(self, f, widget) -> BoxLayout:
        """``widget`` (an input made without its name) in a row with the name to its left: a
        d10's "Zone" and "Face" over their buttons took two rows that pushed the last faces
        under "More below" at 800x480 (issue 30). The row is kept with its input."""
        row = getattr(widget, "beside_row", None)
        if row is None:
            row = widget.beside_row = BoxLayout(size_hint_y=None, height=widget.height, spacing=px(6))
            row.add_widget(Text(f.label or field_label(f.name), size=theme.READ, color=theme.DIM, fit=False,
                                size_hint_x=None, width=px(58)))
            widget.bind(height=row.setter("height"))
            chooser = getattr(widget, "choice", None) or widget  # a face is an int shown as buttons
            for b in getattr(chooser, "buttons", []):
                b.height = px(D10_BUTTON)
        if widget.parent is not row:
            self._free(widget)
            row.add_widget(widget)
        self._free(row)
        return row

    def _label(self, key: str, text: str, **kw) -> Text:
        """The label for one place on the screen (``key``) showing ``text``.

        Labels are kept by place and text: a game shows the same sentences again
        and again, and one already rendered costs nothing to show again.
        """

        def build() -> Text:
            # Born as wide as the prompt area's room, the width layout will give it, so its
            # text is rendered at that width only, not first wrapped into a new widget's
            # 100 px and rendered again when layout widens it.
            box = self.prompt_box
            label = Text(text, width=box.width - box.padding[0] - box.padding[2], **kw)
            label.tag, label.style = key, kw
            return label

        def recycle(label: Text) -> bool:  # a label no longer shown, in the same style, takes the new text
            if label.style != kw:
                return False
            label.text, label.tag = text, key
            return True

        label_widget, kept = self._labels_cache.take((key, text), build, recycle)
        if kept:
            self._free(label_widget)
        return label_widget

    def _button(self, tag: str, text: str, kind: str = "normal", size: float = 18, grows: bool = False,
                **kw) -> Big:
        """The button for ``tag`` showing ``text``; the caller sets its ``handler``. ``grows``: in a
        grid of options, where every button grows as tall as the one with the most text."""
        style = (size, grows, kw)

        def build() -> Big:
            button = Big(text, kind=kind, size=size, **kw)
            button.style = style
            button.bind(on_release=lambda btn: btn.handler())
            if grows:
                button.bind(texture_size=lambda btn, ts: _same_height(btn.parent, px(theme.TOUCH)))
            return button

        def recycle(button: Big) -> bool:  # a button no longer shown, in the same style, takes the new text
            if button.style != style:
                return False
            button.text, button.kind, button.handler = text, kind, lambda: None
            return True

        b, kept = self._buttons_cache.take(f"{tag}|{text}|{kind}", build, recycle)
        if kept:
            self._free(b)
        b.tag = tag
        return b

    def _free(self, widget) -> None:
        """Take a reused widget from where it was shown, unless that is the prompt area or
        one of its kept containers, where ``theme.set_children`` moves only what changed."""
        kept = (self.prompt_box, self.footer, *self.__dict__.get("_offer_grids", {}).values(),
                *self.__dict__.get("_lock_grids", {}).values())
        if widget.parent is not None and widget.parent not in kept:
            widget.parent.remove_widget(widget)

    def _five_count(self):
        """After a shaky throw the table counts to five before reading the dice: a big countdown
        with a tick each second (kiosk.ui.countdown), kept while the count prompt is redrawn."""
        from .countdown import FiveCount

        count = self.__dict__.get("_five")
        if count is None or count.runner is not self.runner:
            tray = lambda: self.app.controller.tray_state if self.app.controller else None  # noqa: E731
            count = self._five = FiveCount(self.runner, tray=tray, tick=lambda: _tick_sound(self.app))
        self._free(count)
        count.refresh()
        return count

    def _open_optional(self, prompt) -> None:
        if not prompt.fields:
            self.submit(prompt)
            return
        if prompt.action == "heat_fall":  # entered by touch: the same screen, the table sets the count
            self.open_fall(prompt, None)
            return
        self.prompt_box.clear_widgets()
        self.inputs = {}
        footer = theme.Gather()
        back = Big("Back", kind="quiet", size=20, size_hint_x=0.5)
        back.tag = "prompt:back"
        back.bind(on_release=lambda *_: self.draw_prompts())
        footer.add_widget(back)
        self._draw_prompt(self.prompt_box, prompt, footer)
        self._pin(footer)
        self.prompt_scroll.scroll_y = 1
        self._signature = None

    def _draw_locks(self, box, secret) -> None:
        """Each secret round: what is being chosen, who has locked in (one line), and one
        named button per player still choosing, two to a row so a table of five fits above
        the fold. Widgets are reused (labels by place and text, buttons by player), so a
        lock re-renders only what changed."""
        grids = self.__dict__.setdefault("_lock_grids", {})
        rounds = self.game.secret_rounds()
        has_pads = self.app.controller is not None and self.app.controller.pads is not None
        for r, rnd in enumerate(rounds):
            waiting = [p for p in secret if p.action == rnd.action]
            text = waiting[0].text if len(waiting) == 1 else rnd.action.replace("_", " ").capitalize()
            box.add_widget(self._label(f"lock:{r}:title", f"Secret choice: [b]{esc(readable(text))}[/b]", size=20))
            if rnd.locked:
                names = ",  ".join(f"[b]{esc(name)}[/b]: locked in" for name in rnd.locked)
                box.add_widget(self._label(f"lock:{r}:locked", names, size=20,
                                           color=theme.LOCKED))
            grid = grids.get(r)
            if grid is None:
                grid = grids[r] = GridLayout(cols=2, spacing=px(6), size_hint_y=None)
                grid.bind(minimum_height=grid.setter("height"))
            else:
                self._free(grid)
            buttons = []
            for p in waiting:
                b = self._button(f"secret:{p.player}", esc(f"{p.player}: answer on screen"), size=theme.READ,
                                 grows=True)
                b.handler = lambda p=p: self.ask_private(p.player, p)
                buttons.append(b)
            theme.set_children(grid, buttons)
            _same_height(grid, px(theme.TOUCH))
            box.add_widget(grid)
        # How to answer, said once under the buttons (two rounds open said it twice, above them).
        adapter = adapters.for_game(self.game.engine.game)
        helps = [adapter.pad_help([p for p in secret if p.action == rnd.action]) for rnd in rounds] if has_pads else []
        pads = " ".join(dict.fromkeys(h for h in helps if h)) or None
        if not has_pads:
            how = "Tap your name: the host hands you the screen, where only you look."
        elif pads:  # Gray answers on the pad here: a sheet needs the name tapped first
            how = "Or tap your name, then hold Gray on your pad to answer on screen."
        else:  # nothing here is a pad press: a hold alone opens the sheet (Controller.on_sheet_hold)
            how = "Hold Gray on your pad for a second to answer on screen (or tap your name first)."
        box.add_widget(self._label("lock:help", f"{esc(pads)} {how}" if pads else how, size=theme.READ, color=theme.DIM))

    def _draw_outcome(self, box, footer) -> None:
        """Who won and how, the story's highlights, a few numbers, and what to do next
        (kiosk.ui.screens.game_over_story has the words)."""
        from .screens import game_over_story

        ending, highlights, numbers = game_over_story(self.runner)
        box.add_widget(Text("Game over", size=theme.HEADLINE, bold=True, color=theme.ACCENT, halign="center"))
        box.add_widget(Text(esc(ending), size=theme.READ + 2, halign="center"))
        if highlights:
            box.add_widget(Text("[b]The story's big moments[/b]", size=theme.READ, color=theme.ACCENT))
            for line in highlights:
                box.add_widget(Text(esc(line), size=theme.READ))
        box.add_widget(Text(esc(numbers), size=theme.READ, color=theme.DIM))
        game = self.game.engine.game
        for text, tag, handler in [("Play again", "again", lambda: self.app.open_setup(game)),
                                   ("Save the log", "export", self.app.export_current),
                                   ("Home", "home", self.app.go_home)]:
            b = Big(text, kind="accent" if tag == "again" else "normal", size=theme.READ)
            b.tag = f"over:{tag}"
            b.bind(on_release=lambda *_, h=handler: h())
            footer.add_widget(b)

    def apply_hint(self, hint: dict[str, Any]) -> None:
        """The tray saw part of what happened: open that prompt with what is known filled in."""
        prompts = [p for p in self.game.awaiting() if p.action == hint.get("action")]
        if not prompts:
            return
        prompt = prompts[0]
        if prompt.action == "heat_fall":
            self.open_fall(prompt, hint.get("fell"))
            return
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
        self.notice.text = "The tray saw the die land" + (f" ({', '.join(known)})" if known else "") + \
            ": enter the rest by touch."

    _on_table: dict | None = None
    fall: Any = None
    """The fall on screen (``kiosk.ui.fall.FallOverlay``), if the Heat has just come down."""

    def open_fall(self, prompt, fell: int | None) -> None:
        """The Heat fell: the whole screen turns to it, with the count the tray weighed (``fell``,
        None when the table enters the fall by touch)."""
        from .fall import FallOverlay

        if self.fall is not None and not self.fall.result_shown:
            if fell is not None:
                self.fall.recount(fell)  # the rest of the same fall, or the count once it settled
            return
        if self.fall is not None:
            self.fall.close()  # the last fall's Curse, read: this is a new fall
        height = next((f.max for f in prompt.fields if f.name == "faces"), None) or max(fell or 1, 1)
        land = next((p for p in self.game.awaiting() if p.action == "land"), None)

        def closed(overlay=None) -> None:
            if self.fall is overlay:
                self.fall = None

        overlay = FallOverlay(prompt, fell, height, propose=self.game.propose,
                              thrower=land.player if land is not None else None)
        overlay.on_close = lambda: closed(overlay)
        overlay.bind(on_dismiss=lambda o: closed(o))
        self.fall = overlay
        self.app.show_overlay(overlay)

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
            self.game.propose(data)
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
        asked = self._asked(last)
        text = f"{last.player}'s locked choice" if asked is not None and asked.secret else \
            describe(last, self.runner.session.caused(), asked.text if asked else None)
        self.app.show_overlay(Confirm(f"Take back the last action?\n{esc(text)}", "Take it back", self.do_undo))

    def _asked(self, action):
        """The prompt ``action`` answered (a secret one first: a locked secret is shown only
        as "X's locked choice", never its value), or None."""
        from kiosk.rules import Session

        probe = Session(self.runner.engine, self.runner.session.setup)
        for a in self.runner.session.log[:-1]:
            probe.apply(a)
        asked = [p for p in probe.awaiting() if p.action == action.type and p.player in (action.player, None)]
        return next((p for p in asked if p.secret), asked[0] if asked else None)

    def do_undo(self) -> None:
        try:
            self.game.undo()
        except RuleError as err:  # the game moved on while the question was open
            self.error.text = esc(err.message)

    def _ask_reopen(self) -> None:
        runner = self.game
        self.app.ask_operator(lambda: self._reopen(runner), why="Operator PIN to reopen the round")

    def _reopen(self, runner: Runner) -> None:
        if runner is not self.runner:
            return
        runner.undo(operator=True)
        self.app.show_screen("play")
        self.notice.text = "The operator reopened the round: everyone in it chooses again."

    def ask_private(self, player: str, prompt=None) -> None:
        """Open ``player``'s private sheet (and ``prompt``, a secret choice of theirs) only
        for them: a player with a pad holds Gray on it; one without needs the host's PIN.
        Either way the table is told whose sheet was opened."""
        players = self.game.players()
        seat = players.index(player) + 1 if player in players else 0  # 0: no seat, so no pad of their own
        controller = self.app.controller
        runner = self.runner

        def opened(how: str) -> None:
            if self.runner is not runner:
                return
            self.app.show_screen("play")
            self.open_private(player, prompt)
            self.notice.text = esc(f"{possessive(player)} sheet was opened{how}.")

        if controller is not None and controller.has_pad(seat):
            from .overlays import HoldToOpen

            self.app.show_overlay(HoldToOpen(player, seat, controller, lambda: opened("")))
        else:
            self.app.ask_operator(lambda: opened(" (handed over by the host)"),
                                  why=f"Host: PIN to hand the screen to {player}")

    def open_by_hold(self, player: str) -> None:
        """``player`` held Gray on their own pad (which proves it is them) while a secret of
        theirs waits that the pad cannot answer: their sheet opens with it, behind the cover,
        as after a tap on their name and the same hold. Not over anything else on screen
        (a reveal, someone else's sheet): then the hold does nothing."""
        if self.runner is None or self.app.overlays:
            return
        prompt = next((p for p in self.runner.awaiting() if p.secret and p.player == player), None)
        if prompt is None:
            return
        self.open_private(player, prompt)
        self.notice.text = esc(f"{possessive(player)} sheet was opened.")

    def open_private(self, player: str, prompt=None) -> None:
        lines, mine = self._sheet(player)
        notes = self.app.controller.private_notes if self.app.controller else {}
        note = esc(notes.pop(player, ""))
        follow = (lambda: self._next_secret(player)) if prompt is not None else None
        self.app.show_overlay(PrivateLook(player, lines, prompt, answer=self.propose, note=note, mine=mine,
                                          follow=follow))

    def _next_secret(self, player: str):
        """After ``player`` locked a secret answer: their sheet as it is now and their next
        waiting secret prompt (the same visit answers it), or None when none waits."""
        if self.app.overlays and not isinstance(self.app.overlays[-1], PrivateLook):
            return None  # the answer turned a round over: the table looks at the reveal now, the visit ends
        prompt = next((p for p in self.game.awaiting() if p.secret and p.player == player), None)
        if prompt is None:
            return None
        lines, mine = self._sheet(player)
        return lines, prompt, mine

    def _sheet(self, player: str):
        """``player``'s private sheet: its lines, and their own view (drawn as a hand where the
        game has one)."""
        session = self.game.session
        try:
            lines = [(esc(h), esc(t)) for h, t in private_lines(session.view(None), session.view(player))]
        except Exception:  # noqa: BLE001 - a sheet that fails to draw must not stop the game
            log.exception("drawing %s's private sheet", player)
            lines = [("Sheet", "this sheet could not be drawn; the game is safe, play on")]
        try:
            mine = session.view(player)  # drawn as the player's hand where the game has one (issue 21)
        except Exception:  # noqa: BLE001
            mine = None
        return lines, mine

    def ask_whose_secrets(self) -> None:
        from .overlays import Overlay

        chooser = Overlay(size_hint=(0.8, 0.8))
        box = Filled(orientation="vertical", padding=px(12), spacing=px(8), bg=theme.PANEL)
        box.add_widget(Text("Whose sheet? That player opens it from their own pad (or the host, with the PIN).",
                            size=19, halign="center"))
        def ask(name: str) -> None:
            chooser.dismiss()
            self.ask_private(name)

        for name in self.game.players():
            b = Big(esc(name))
            b.tag = f"whose:{name}"
            b.bind(on_release=lambda *_, n=name: ask(n))
            box.add_widget(b)
        cancel = Big("Cancel", kind="quiet")
        cancel.bind(on_release=lambda *_: chooser.dismiss())
        box.add_widget(cancel)
        chooser.add_widget(box)
        self.app.show_overlay(chooser)

    def open_rules(self) -> None:
        self.app.open_rules(self.game.engine.game)

    def open_menu(self) -> None:
        self.app.open_game_menu()  # pause and go home without the PIN; abandon and the operator menu behind it


TURNING_OVER = {"reveal", "verdict", "case", "revelation"}
"""Event kinds that make something secret public: worth stopping the table for."""


OWED_MAX = 12
"""How many reveals may wait behind the open one (see ``PlayScreen._owe_reveal``)."""

# How many reused widgets the play screen keeps (kiosk.ui.reused). One prompt of any game
# shows at most 7 inputs, 6 labels and 7 buttons (the bot playing random games of all
# four; docs/kiosk.md, issue 33, third pass), so each bound holds a whole prompt with room
# over. A game's inputs all come back within 8 questions; labels and buttons (a menu's
# options, a throw's sentences) are many more, and at 24 each a Hell for Leather throw
# took 1-2 ms longer to show than with 40.
INPUTS_KEPT = 12
LABELS_KEPT = 40
BUTTONS_KEPT = 40


def _turns_over(events: list) -> bool:
    """Whether these events make something secret public (a reveal is owed)."""
    return any(e.kind in TURNING_OVER or "faces" in e.data for e in events if e.kind not in ("locked", "lock"))


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
        return Reveal("Now everyone knows", [esc(readable(e.text)) for e in turning], caption=caption, fades=True)
    faces = {esc(str(who)): esc(readable(str(face))) for who, face in faced.data["faces"].items()}
    return Reveal("Revealed together", [], faces=faces, caption=caption, fades=True)


D10_BUTTON = 48
"""A d10's zone and face buttons' height at 800x480 (9 mm on the 7" screen, a fingertip):
under the usual ``theme.TOUCH`` so that the heading, the three zones and the ten faces all
show without scrolling, also with two lines of heading and the tray's banner up (issue 30)."""


BAR_HEIGHT = 50
"""The top bar's height at 800x480: its buttons are still wider and taller than a fingertip,
and the 6 px it gives up go to the question below."""


def _fit_bar(bar) -> None:
    """Every button on the top bar as wide as its name and as tall as the bar, never wrapped."""
    for b in bar.children:
        if isinstance(b, Big):
            b.size_hint_y = 1
            theme.fit_width(b, pad=10)


def _silent_empty(label: Text) -> Text:
    """``label`` (made with ``fit=False``) as tall as its text, and no height at all while it
    says nothing, so a line that is usually empty leaves its room to the question."""
    label.size_hint_y = None
    label.height = 0

    def fit(*_) -> None:
        label.height = label.texture_size[1] if label.text else 0

    label.bind(texture_size=fit, text=fit)
    return label


def _name(player: str) -> str:
    """A player's name as a heading shows it: bold, in the accent colour, so whose turn it is
    reads from across the table."""
    r, g, b, _ = theme.ACCENT
    return f"[b][color={int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}]{esc(player)}[/color][/b]"


def _without_name(text: str, player: str | None) -> str:
    """``text`` without a leading "Name: " or "Name, " (the heading or button says whose it is)."""
    if player:
        for sep in (": ", ", "):
            if text.startswith(player + sep):
                rest = text[len(player) + len(sep):]
                return rest[:1].upper() + rest[1:]
    return text


def group_offers(prompts, several: bool) -> list[tuple[str | None, list[tuple[Any, str]]]]:
    """Prompts as groups of (heading, [(prompt, button text)]).

    Prompts of one action for several players become one group: the words they share
    as its heading, each button its player's name plus whatever is theirs alone
    ("Ann (a green token if your character is not in it)"). Any other prompt is a
    group of its own with no heading, its button named for its player when
    ``several`` players have something to do.
    """
    by_action: dict[str, list] = {}
    for p in prompts:
        by_action.setdefault(p.action, []).append(p)
    groups: list[tuple[str | None, list[tuple[Any, str]]]] = []
    singles: list[tuple[Any, str]] = []
    for action, same in by_action.items():
        rests = [_without_name(p.text, p.player) for p in same]
        shared = _shared_words(rests) if len(same) > 1 and all(p.player for p in same) else ""
        if shared:
            offers = [(p, f"{p.player} {rest[len(shared):].strip()}".strip()) for p, rest in zip(same, rests)]
            groups.append((shared.rstrip(" ,:;") + ":", offers))
            continue
        for p in same:
            named = several and p.player and not p.text.startswith(p.player)
            singles.append((p, f"{p.player}: {p.text}" if named else p.text))
    return ([(None, singles)] if singles else []) + groups


def _shared_words(texts: list[str]) -> str:
    """The longest run of whole words every text starts with ("" if under three words)."""
    words = [t.split(" ") for t in texts]
    shared = []
    for column in zip(*words):
        if any(w != column[0] for w in column):
            break
        shared.append(column[0])
    return " ".join(shared) if len(shared) >= 3 else ""


def _tallest(buttons, least: float) -> float:
    """The height the button with the most text needs, and never under ``least``."""
    return max([least] + [b.texture_size[1] + px(14) for b in buttons])


def _same_height(grid, least: float | None = None) -> None:
    """Every choice in a menu as tall as the one with the most text, so rows line up."""
    if grid is None:
        return
    tallest = _tallest(grid.children, px(64) if least is None else least)
    for b in grid.children:
        b.height = tallest
