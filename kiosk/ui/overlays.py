"""Full-screen moments laid over the current screen.

* ``Confirm``: a yes/no question (undo, clear data, leave a game).
* ``PinPad``: the operator PIN, digit by digit; a wrong PIN says so and clears.
* ``Reveal``: a secret round turns over at once, every card flipping together.
* ``PrivateLook``: pass the screen to one player ("only Ann looks"), tap to
  show, tap to hide; when it closes nothing private is left on any widget.
* ``HoldToOpen``: a player proves it is them asking for their private sheet by
  holding Gray on their own pad.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Callable

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.graphics import PopMatrix, PushMatrix, Scale
from kivy.lang import Builder
from kivy.properties import BooleanProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.utils import escape_markup as esc
from kivy.utils import get_hex_from_color

from kiosk.rules.words import names_and

from . import art, theme
from .fields import for_field, scrolled
from .motion import ANIMATION_SCALE  # re-exported: tests and benchmarks set overlays.ANIMATION_SCALE
from .theme import Big, Filled, Text, font_px_line, px

log = logging.getLogger(__name__)


def box_colour(background: Any, dim: Any, shown: float) -> tuple[float, float, float, float]:
    """The colour to paint an overlay's box with, straight over the screen under it, so that
    it looks exactly as Kivy's own way of drawing it: the whole window dimmed (``dim``, its
    alpha times ``shown``, the opening fade), then ``background`` over the box.

    Blending is linear, so the two layers fold into one: the screen under the box keeps the
    share (1 - a)(1 - d) of itself, and the rest is the background's and the dim's colour.
    """
    a, d = float(background[3]), float(dim[3]) * shown
    alpha = 1 - (1 - a) * (1 - d)
    if alpha <= 0:
        return (0.0, 0.0, 0.0, 0.0)
    r, g, b = ((a * c + (1 - a) * d * k) / alpha for c, k in zip(background[:3], dim[:3]))
    return (r, g, b, alpha)


# An overlay draws its dim around its box and paints the box once (``box_colour``), instead of
# Kivy's dim over the whole window and the box on top: every pixel a software renderer fills
# is paid again on each frame, and a reveal's box is most of the window (docs/kiosk.md, "Event
# to screen, sixth pass"). ``<-Overlay>`` replaces ModalView's own drawing.
Builder.load_string("""
<-Overlay>:
    canvas:
        Color:
            rgba: root.overlay_color[:3] + [root.overlay_color[-1] * self._anim_alpha]
        Rectangle:
            pos: 0, 0
            size: (self._window.width if self._window else 0), max(0, self.y)
        Rectangle:
            pos: 0, self.top
            size: (self._window.width if self._window else 0), max(0, (self._window.height if self._window else 0) - self.top)
        Rectangle:
            pos: 0, self.y
            size: max(0, self.x), self.height
        Rectangle:
            pos: self.right, self.y
            size: max(0, (self._window.width if self._window else 0) - self.right), self.height
        Color:
            rgba: root.box_colour(root.background_color, root.overlay_color, self._anim_alpha)
        Rectangle:
            pos: self.pos
            size: (0, 0) if root.box_hidden else self.size
""")


class Overlay(ModalView):
    """A ModalView drawn more cheaply (the rule above): the same dim and box, but a
    ``background`` image (ModalView's ``BorderImage``) is not drawn; none is used here."""

    box_hidden = BooleanProperty(False)
    """True while the overlay's content paints every pixel of its box an opaque colour (a
    square ``Filled`` filling it, as every overlay here has): the box itself is then not
    painted, since nobody would see it."""

    box_colour = staticmethod(box_colour)

    def __init__(self, **kw) -> None:
        kw.setdefault("auto_dismiss", False)
        kw.setdefault("background_color", (0, 0, 0, 0.85))
        kw.setdefault("background", "")
        super().__init__(**kw)

    def add_widget(self, widget, *args, **kw) -> None:
        super().add_widget(widget, *args, **kw)
        self._follow(widget, True)

    def remove_widget(self, widget, *args, **kw) -> None:
        super().remove_widget(widget, *args, **kw)
        self._follow(widget, False)

    def _follow(self, widget, watch: bool) -> None:
        """Watch (or stop watching) what decides ``box_hidden``: the panel's colour and corners."""
        if isinstance(widget, Filled):
            bind = widget.fbind if watch else widget.funbind
            bind("bg", self._check_box)
            bind("radius", self._check_box)
        self._check_box()

    def _check_box(self, *_) -> None:
        content = self.children[0] if len(self.children) == 1 else None
        self.box_hidden = (isinstance(content, Filled) and content.bg[3] >= 1 and not content.radius
                           and tuple(content.size_hint) == (1, 1) and not any(self.padding))

    @property
    def covers(self) -> bool:
        """Nothing under this overlay can be seen: its box is painted opaque and either fills
        the window or has an opaque surround. The screens under it are then not drawn at all
        while it is up (``TableNoirApp.show_overlay``)."""
        if not self.box_hidden or self._anim_alpha < 1:
            return False
        return tuple(self.size_hint) == (1, 1) or self.overlay_color[3] >= 1

    def dismiss(self, *args, **kw) -> None:
        kw.setdefault("animation", False)  # gone at once: the next touch must reach the screen
        super().dismiss(*args, **kw)


class Confirm(Overlay):
    def __init__(self, question: str, yes: str, on_yes: Callable[[], None], no: str = "Cancel") -> None:
        super().__init__(size_hint=(0.8, 0.6))
        box = Filled(orientation="vertical", padding=px(16), spacing=px(12), bg=theme.PANEL)
        box.add_widget(Text(question, size=22, halign="center", fit=False))
        row = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(12))
        cancel = Big(no, kind="sunken")
        cancel.tag = "confirm:no"
        cancel.bind(on_release=lambda *_: self.dismiss())
        ok = Big(yes, kind="bad")
        ok.tag = "confirm:yes"

        def accept(*_: object) -> None:
            self.dismiss()
            on_yes()

        ok.bind(on_release=accept)
        row.add_widget(cancel)
        row.add_widget(ok)
        box.add_widget(row)
        self.add_widget(box)


class DigitPad(Overlay):
    """A heading over a pad of digits with Delete (the last digit) and one more key
    (``last``), and Cancel across the bottom; each tap goes to ``key``. Buttons are
    tagged ``<tag>:<key>``. The digits typed so far show as stars after ``prompt``
    (the heading, unless given)."""

    def __init__(self, heading: str, last: str, tag: str, prompt: str | None = None) -> None:
        super().__init__(size_hint=(0.6, 0.96))
        self.typed, self.prompt = "", heading if prompt is None else prompt
        box = Filled(orientation="vertical", padding=px(10), spacing=px(6), bg=theme.PANEL)
        self.label = Text(heading, size=19, halign="center")
        box.add_widget(self.label)
        grid = GridLayout(cols=3, spacing=px(6))
        for key in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "Delete", "0", last]:
            b = Big(key, kind="normal" if key.isdigit() else ("accent" if key == "OK" else "sunken"), size=22)
            b.size_hint_y = 1
            b.tag = f"{tag}:{key}"
            b.bind(on_release=lambda btn: self._tap(btn.text))
            grid.add_widget(b)
        box.add_widget(grid)
        cancel = Big("Cancel", kind="sunken", size=18, height=px(theme.TOUCH))
        cancel.tag = f"{tag}:Cancel"
        cancel.bind(on_release=lambda btn: self.dismiss())
        box.add_widget(cancel)
        self.add_widget(box)

    def _tap(self, key: str) -> None:
        if key == "Delete":
            self.typed = self.typed[:-1]
            self.show_typed()
        else:
            self.key(key)

    def show_typed(self) -> None:
        self.label.text = f"{self.prompt}  " + "*" * len(self.typed)

    def key(self, key: str) -> None:
        raise NotImplementedError


class PinPad(DigitPad):
    """Asks for the operator PIN; calls ``on_ok(pin)`` only when ``attempt`` takes it.

    ``attempt(pin)`` answers True (right), False (wrong) or None (not taken: too many
    wrong PINs, wait). A PIN is checked only on OK, never when some number of digits
    has been typed, so the pad does not give away how long the PIN is.
    """

    def __init__(self, attempt: Callable[[str], bool | None], on_ok: Callable[[str], None],
                 heading: str = "Operator PIN") -> None:
        super().__init__(heading, last="OK", tag="pin")
        self.attempt, self.on_ok = attempt, on_ok

    def key(self, key: str) -> None:
        if key != "OK":
            self.typed = (self.typed + key)[:8]
            self.show_typed()
            return
        typed, self.typed = self.typed, ""
        result = self.attempt(typed)
        if result:
            self.dismiss()
            self.on_ok(typed)
        elif result is None:
            self.label.text = "[color=e05a4f]Too many wrong PINs: wait a little, then try again[/color]"
        else:
            self.label.text = "[color=e05a4f]Wrong PIN, try again[/color]"


class NewPin(DigitPad):
    """A new operator PIN, typed twice; ``on_new(pin)`` is called only when both agree.

    The digits are shown as stars only, as for the PIN pad."""

    def __init__(self, on_new: Callable[[str], None], heading: str = "New PIN: 4 to 8 digits, then OK") -> None:
        super().__init__(heading, last="OK", tag="newpin", prompt="New PIN")
        self.on_new = on_new
        self.first: str | None = None
        """The PIN typed the first time, waiting to be typed again."""

    def key(self, key: str) -> None:
        if key != "OK":
            self.typed = (self.typed + key)[:8]
            self.show_typed()
            return
        if len(self.typed) < 4:
            self.label.text = "[color=e05a4f]At least 4 digits[/color]"
        elif self.first is None:
            self.first = self.typed
            self.prompt = "The same PIN again"
            self.label.text = "The same PIN again, then OK"
        elif self.typed != self.first:
            self.first = None
            self.prompt = "New PIN"
            self.label.text = "[color=e05a4f]The two did not match: new PIN again[/color]"
        else:
            self.dismiss()
            self.on_new(self.typed)
        self.typed = ""


HOLD_S = 1.0
"""How long Gray is held on a pad to open that player's private sheet."""


class HoldToOpen(Overlay):
    """Only Ann may open Ann's sheet: she holds Gray on her own pad for ``HOLD_S``.

    While this is open, Ann's pad talks to it alone (``Controller.capture``), so the
    hold answers no prompt of the game; other pads play on as usual. It closes by
    itself after ``timeout_s``, giving the pad back.
    """

    def __init__(self, who: str, pad: int, controller, then: Callable[[], None], timeout_s: float = 30) -> None:
        super().__init__(size_hint=(0.8, 0.62))
        self.who, self.pad, self.controller, self.then = who, pad, controller, then
        box = Filled(orientation="vertical", padding=px(16), spacing=px(10), bg=theme.PANEL)
        box.add_widget(Text(f"[b]{who}[/b], hold [b]Gray (triangle)[/b] on your pad for a second "
                            "to open your sheet.", size=22, halign="center", fit=False))
        self.hint = Text("Only your own pad can open it. Everyone else, look away when it opens.", size=17,
                         color=theme.DIM, halign="center")
        box.add_widget(self.hint)
        cancel = Big("Cancel", kind="sunken")
        cancel.tag = "hold:cancel"
        cancel.bind(on_release=lambda *_: self.dismiss())
        box.add_widget(cancel)
        self.add_widget(box)
        controller.capture(pad, self.pad_event)
        self._timeout = Clock.schedule_once(lambda dt: self.dismiss(), timeout_s)

    def pad_event(self, event) -> None:
        from hardware.events import ButtonColour, ButtonReleased

        if not isinstance(event, ButtonReleased) or event.button is not ButtonColour.GRAY:
            return
        if event.held_s < HOLD_S:
            self.hint.text = "Hold Gray a little longer, until this opens."
            return
        self.dismiss()
        self.then()

    def on_dismiss(self) -> None:
        self._timeout.cancel()
        self.controller.release(self.pad, self.pad_event)


FLIP = {"delay": 1.2, "half": 0.2}
"""A reveal's timing in seconds (times ``ANIMATION_SCALE``): the backs are held for ``delay``
while the reveal cue plays (suspense; a tap turns them at once), then each card closes and
opens in ``half`` each (issue 30)."""

READ_S = {"value": 4.0}
"""How long turned faces stay up before a newer round may take their place, or before a reveal
that fades (``Reveal(fades=True)``) goes by itself. Wall-clock seconds, not scaled by
``ANIMATION_SCALE``: a table reads at its own pace even when the tests skip animations."""

FADE_S = 8.0
"""How long turned faces of a fading reveal stay up (a tap keeps them until "Carry on")."""


class Fades:
    """For an overlay that announces and asks for no decision (a reveal, the Curse after a
    fall): it goes by itself ``FADE_S`` after ``start_fading`` unless a tap has kept it
    (``keep``), and then it waits for its button. The overlay's ``close`` calls
    ``stop_fading``."""

    kept = False
    _fade: Any = None

    def start_fading(self) -> None:
        self.stop_fading()
        self._fade = Clock.schedule_once(lambda dt: self._fade_out(), max(FADE_S, READ_S["value"]))

    def stop_fading(self) -> None:
        if self._fade is not None:
            self._fade.cancel()
            self._fade = None

    def keep(self) -> bool:
        """A tap on the announcement: the first one keeps it up (True), a later one does not."""
        if self.kept:
            return False
        self.kept = True
        self.stop_fading()
        return True

    def _fade_out(self) -> None:
        self._fade = None
        if not self.kept and getattr(self, "_window", None) is not None:
            self.close()

    def close(self) -> None:
        raise NotImplementedError


def flip_seconds() -> float:
    """How long a reveal's cards take to turn over, from the backs to the last face."""
    return (FLIP["delay"] + 2 * FLIP["half"]) * ANIMATION_SCALE["value"]


def card_colour(face: str) -> str | None:
    """'Gray (Third Man)' -> 'Gray': the Promise Hollows card a face names, if it names one."""
    first = face.split(" ")[0].strip().lower() if face else ""
    return first.capitalize() if first in art.CHALLENGE else None


class FlipCard(Filled):
    """A card that turns over: it shows its back, squeezes to nothing, then opens showing its face.

    ``owner`` (a player's name) stays above the card throughout, so everyone sees
    whose card is whose before and after it turns. A face naming a Promise Hollows
    card (Black, White, Gray) is drawn as that card, with its shape; an Even/Odd
    wager ("2 on Even") as its points in pips over its side; any other face is
    written on the card. ``flip`` schedules the turn; ``finish`` ends it at once.
    ``on_face`` is called once, when the face first shows."""

    def __init__(self, face: str, owner: str = "", on_face: Callable[[], None] = lambda: None, **kw) -> None:
        super().__init__(orientation="vertical", padding=px(8), spacing=px(4), bg=theme.RAISED, radius=px(8), **kw)
        self.face = face
        self.turned = False
        self.on_face = on_face
        self._events: list = []
        if owner:
            self.owner = Text(owner, size=24, bold=True, halign="center", color=theme.INK)
            self.add_widget(self.owner)
        self.picture = art.ChallengeCard()
        self.picture.show(None, face_up=False)
        self.add_widget(self.picture)
        self.label = Text("", size=24, bold=True, halign="center", fit=False, size_hint_y=0.3)
        self.add_widget(self.label)
        with self.canvas.before:
            PushMatrix()
            self._scale = Scale(1, 1, 1)
        with self.canvas.after:
            PopMatrix()
        self.bind(center=lambda *_: setattr(self._scale, "origin", self.center))

    @property
    def squeeze(self) -> float:
        return self._scale.x

    @squeeze.setter
    def squeeze(self, value: float) -> None:
        self._scale.x = value

    def flip(self, delay: float = FLIP["delay"]) -> None:
        k = ANIMATION_SCALE["value"]
        if k == 0:
            self.show_face()
            return
        self._events.append(Clock.schedule_once(lambda dt: self._start(k), delay * k))

    def _start(self, k: float) -> None:
        self.picture.draw_live(True)  # squeezed, a picture would be stretched: the shapes instead
        closing = Animation(sx=0.0, duration=FLIP["half"] * k)
        closing.bind(on_progress=lambda a, w, p: setattr(self, "squeeze", 1 - p),
                     on_complete=lambda *_: self._open(k))
        closing.start(self)

    def _open(self, k: float) -> None:
        if self.turned:
            return
        self.show_face()
        self.squeeze = 0.0
        self.picture.draw_live(True)
        opening = Animation(sx=1.0, duration=FLIP["half"] * k)
        opening.bind(on_progress=lambda a, w, p: setattr(self, "squeeze", p),
                     on_complete=lambda *_: self._square())
        opening.start(self)

    def _square(self) -> None:
        """Turned and square on: the card is a picture again."""
        self.squeeze = 1.0
        self.picture.draw_live(False)

    def finish(self) -> None:
        """Stop turning and show the face, square on (a tap on the reveal does this)."""
        for event in self._events:
            event.cancel()
        Animation.cancel_all(self)
        self.show_face()
        self.picture.draw_live(False)

    @property
    def done(self) -> bool:
        return self.turned and self.squeeze == 1.0

    def show_face(self) -> None:
        first = not self.turned
        self.turned = True
        colour = card_colour(self.face)
        wager = art.wager_of(self.face) if not colour else None
        if colour:
            self.picture.show(colour, face_up=True)
        elif wager is not None:
            self.remove_widget(self.picture)
            self.picture = art.WagerCard()
            self.picture.show(*wager)
            self.add_widget(self.picture, index=1)
        else:
            self.remove_widget(self.picture)  # a written face fills the card (hidden, it was still drawn)
            self.label.size_hint_y = 1
        # a drawn card already says its colour: only what else the face says goes under it ("(Third Man)")
        self.label.text = self.face[len(colour):].strip() if colour else self.face
        self.label.font_size = theme.font(30 if not colour and len(self.face) <= 18 else 24)
        self.bg = theme.PANEL
        self.squeeze = 1.0
        if first:
            self.on_face()

    sx = 1.0  # the value Animation steps; drawing follows squeeze


class Reveal(Fades, Overlay):
    """Every locked answer turns over together, with suspense; "Carry on" goes back to the game.

    ``faces`` maps each player to what they had locked: one card each, named.
    Without faces, each line of ``lines`` is a card. ``caption`` (what the
    reveal led to, e.g. how many dice to roll) sits under the cards, and shows
    only once they have turned: nothing on screen gives the answer away before.

    The timeline: the backs are held for ``FLIP["delay"]`` (the reveal cue
    plays), then every card turns at once; a tap while they wait or turn shows
    every face at once. The faces stay up until the table has read them: a tap
    after that (or the button) closes it. ``read`` says the faces have been up
    ``READ_S``; a reveal that ``fades`` closes by itself after ``FADE_S`` unless
    a tap has kept it. ``on_turned`` is called once, when the faces show.

    The round is already saved and in the log when this opens; the cards only
    show it. Its surround is opaque, so the game is not drawn under it
    (``Overlay.covers``), and a secret choice locked while it is up is said on
    its caption line (``show_locked``)."""

    def __init__(self, title: str, lines: list[str], on_close: Callable[[], None] = lambda: None,
                 faces: dict[str, str] | None = None, caption: str = "", fades: bool = False,
                 on_turned: Callable[[], None] = lambda: None) -> None:
        # An opaque surround: the game under a reveal is not drawn while it is up (``covers``);
        # a wager locked meanwhile shows on the reveal itself (``show_locked``).
        super().__init__(size_hint=(0.94, 0.92), background_color=(0, 0, 0, 0.97), overlay_color=(0, 0, 0, 1))
        self.on_close, self.on_turned, self.fades = on_close, on_turned, fades
        self.opened_at = time.time()
        self.turned_at: float | None = None
        self.closed_by_table = False
        box = Filled(orientation="vertical", padding=px(12), spacing=px(8), bg=theme.BG)
        box.add_widget(Text(title, size=30, bold=True, halign="center", color=theme.ACCENT))
        pairs = list(faces.items()) if faces else [("", line) for line in lines or ["(nothing to show)"]]
        cols = 1 if len(pairs) <= 1 else len(pairs) if len(pairs) <= 4 else 3 if len(pairs) <= 6 else 4
        grid = GridLayout(cols=cols, spacing=px(10))
        self.cards = [FlipCard(face, owner, on_face=self._card_turned) for owner, face in pairs]
        for card in self.cards:
            grid.add_widget(card)
        box.add_widget(grid)
        # One line under the cards, kept from the start so that nothing moves when words come:
        # what the round led to once the cards have turned, and who has locked their next
        # secret choice meanwhile (pads go on while a reveal is up).
        self.caption_text, self.locked_text = caption, ""
        self.caption = Text("", size=22, halign="center", fit=False, shorten=True, shorten_from="right",
                            size_hint_y=None, height=px(font_px_line(22)))
        self.caption.bind(width=lambda label, w: setattr(label, "text_size", (w, None)))
        box.add_widget(self.caption)
        done = Big("Carry on", kind="accent")
        done.tag = "reveal:close"
        done.bind(on_release=lambda *_: self.close())
        box.add_widget(done)
        self.done_button = done
        self.add_widget(box)

    def on_open(self) -> None:
        """The backs are held from the moment the reveal is on screen (a reveal that waited
        behind another starts its beat when its turn comes)."""
        for card in self.cards:
            card.flip()  # all at once: a simultaneous reveal

    @property
    def turning(self) -> bool:
        return not all(card.done for card in self.cards)

    @property
    def read(self) -> bool:
        """The faces have been up long enough to be read: a newer round may take this one's place."""
        return self.turned_at is not None and time.monotonic() - self.turned_at >= READ_S["value"]

    def _card_turned(self) -> None:
        if self.turned_at is not None or not all(card.turned for card in self.cards):
            return
        self.turned_at = time.monotonic()
        self._write_caption()
        if self.fades:
            self.start_fading()
        self.on_turned()

    def show_locked(self, names: list[str], all_in: bool = False) -> None:
        """Who has locked the next secret choice while this reveal is up (the lock board is
        under it): only names, never what they chose. ``all_in``: that choice has closed and
        its own reveal waits behind this one."""
        if all_in:
            text = "Next secret choice: everyone has locked in."
        elif names:
            text = f"Next secret choice: {names_and(names)} locked in."
        else:
            text = ""
        if text != self.locked_text:
            self.locked_text = text
            self._write_caption()

    def _write_caption(self) -> None:
        words = [self.caption_text] if self.turned_at is not None and self.caption_text else []
        if self.locked_text:
            words.append(f"[color={get_hex_from_color(theme.LOCKED)}]{esc(self.locked_text)}[/color]")
        self.caption.text = "   ".join(words)

    def on_touch_down(self, touch) -> bool:
        if getattr(touch, "time_start", self.opened_at) < self.opened_at:
            return True  # a touch from before the cards were on screen turns nothing
        if self.turning:
            self.skip()
            return True
        if self.done_button.collide_point(*self.done_button.to_widget(*touch.pos)):
            return super().on_touch_down(touch)  # the button closes it, as any button would
        if self.fades and self.keep():
            return True  # the first tap on a fading reveal keeps it up; the next one closes it
        self.close()  # a second tap anywhere else: back to the game
        return True

    def skip(self) -> None:
        for card in self.cards:
            card.finish()

    def close(self) -> None:
        if self.closed_by_table:
            return
        self.closed_by_table = True
        self.stop_fading()
        self.skip()
        self.dismiss()
        self.on_close()


class PrivateLook(Overlay):
    """Pass-the-screen: only ``who`` looks. Tap to show, answer or read, tap to hide.

    ``secret`` is a list of (heading, text) lines of the player's own view;
    ``prompt`` (optional) is a secret prompt this player answers here;
    ``answer`` receives the filled action and returns an error text or None.
    ``follow`` (optional), asked after each locked answer, returns the player's sheet
    again with their next waiting secret prompt, as ``(secret, prompt, mine)``, or None:
    one visit answers every secret of theirs in turn (a Crime roll, then the private
    self), with no new pass of the screen, since the same player is still looking.
    """

    def __init__(self, who: str, secret: list[tuple[str, str]], prompt=None,
                 answer: Callable[[dict[str, Any]], str | None] | None = None, note: str = "",
                 mine: dict[str, Any] | None = None,
                 follow: Callable[[], tuple[list, Any, dict[str, Any] | None] | None] | None = None) -> None:
        super().__init__(size_hint=(1, 1), background_color=(0.03, 0.03, 0.04, 1))
        self.who, self.secret, self.prompt, self.answer, self.note = who, secret, prompt, answer, note
        self.mine, self.follow = mine, follow
        """The player's own view; a Promise Hollows one is drawn as their hand (``hand_widgets``)."""
        self.box = Filled(orientation="vertical", padding=px(14), spacing=px(10), bg=theme.BG)
        self.add_widget(self.box)
        self.inputs: dict[str, Any] = {}
        self._cover()

    def _cover(self) -> None:
        theme.screen_changed()
        self.box.clear_widgets()
        self.inputs = {}
        self.box.add_widget(Text(f"Only [b]{self.who}[/b] looks now.", size=30, halign="center", fit=False))
        self.box.add_widget(Text("Everyone else, look away. Pass the screen over.", size=18,
                                 color=theme.DIM, halign="center"))
        show = Big(f"I am {self.who}: show me", kind="accent", size=22)
        show.tag = "private:show"
        show.bind(on_release=lambda *_: self._open())
        back = Big("Not now", kind="quiet")
        back.tag = "private:cancel"
        back.bind(on_release=lambda *_: self.dismiss())
        self.box.add_widget(show)
        self.box.add_widget(back)

    def _open(self) -> None:
        theme.screen_changed()
        self.box.clear_widgets()
        self.inputs = {}  # only this prompt's answers (a visit may go on to the next one)
        self.box.add_widget(Text(f"{self.who}, this is for you alone", size=20, bold=True, color=theme.ACCENT))
        inner = BoxLayout(orientation="vertical", size_hint_y=None, spacing=px(6))
        inner.bind(minimum_height=inner.setter("height"))
        if self.note:  # why a pad answer of theirs was not taken (the table was told only "not accepted")
            inner.add_widget(Text(f"[b]Your last pad answer was not taken:[/b] {self.note}", size=18,
                                  color=theme.BAD))
        hand = None
        if self.mine is not None:
            try:
                hand = hand_widgets(self.who, self.mine)
            except Exception:  # noqa: BLE001 - the plain lines below say the same
                log.exception("drawing %s's hand", self.who)
        if self.prompt is not None:  # the task first: what this player came to the screen to do
            inner.add_widget(Text(self.prompt.text, size=22, bold=True, color=theme.ACCENT))
            for f in self.prompt.fields:
                widget = for_field(f)
                if len(self.prompt.fields) == 1 and f.kind == "list":
                    widget.submit_to(self._lock)  # a roll is all it asks: "Roll for me" locks it in
                self.inputs[f.name] = widget
                inner.add_widget(widget)
            self.error = Text("", size=17, color=theme.BAD)
            inner.add_widget(self.error)
        for widget in hand or [Text(f"[b]{heading}:[/b] {text}", size=20) for heading, text in self.secret]:
            inner.add_widget(widget)
        self.box.add_widget(scrolled(inner))
        row = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(10))
        hide = Big("Hide", kind="quiet")
        hide.tag = "private:hide"
        hide.bind(on_release=lambda *_: self.dismiss())
        row.add_widget(hide)
        if self.prompt is not None:
            lock = Big("Lock it in", kind="accent")
            lock.tag = "private:lock"
            lock.bind(on_release=lambda *_: self._lock())
            row.add_widget(lock)
        self.box.add_widget(row)

    def _lock(self) -> None:
        data = {"type": self.prompt.action, "player": self.prompt.player}
        for name, widget in self.inputs.items():
            if widget.value is None:
                self.error.text = f"Choose {name.replace('_', ' ')} first."
                return
            data[name] = widget.value
        problem = self.answer(data) if self.answer else None
        if problem:
            self.error.text = problem
            return
        nxt = self.follow() if self.follow else None
        if nxt is not None and nxt[1] is not None:
            self.secret, self.prompt, self.mine = nxt
            self.note = ""
            self._open()  # the next secret of theirs, on the sheet as it is now
            return
        self.dismiss()

    def on_dismiss(self) -> None:
        self.box.clear_widgets()  # nothing private stays on a widget
        self.inputs, self.note, self.mine = {}, "", None


SELF_PARTS = [("hurt", "Hurt"), ("need", "Need"), ("want", "Want"), ("guilt", "Guilt")]


def hand_widgets(who: str, mine: dict[str, Any]) -> list | None:
    """A Promise Hollows player's sheet as their hand: the Private Die as a die beside their
    role, their three cards (the locked one marked), then their private self in words.
    None for any other game's view (its sheet stays as lines)."""
    me = mine.get("me")
    if not isinstance(me, dict) or "private_self" not in me or "locked_card" not in me:
        return None
    seat: dict[str, Any] = next((p for p in mine.get("players") or [] if p.get("player") == who), {})
    out: list = []
    character = seat.get("character")
    if character:  # whose sheet this is, in the story: the player reads their character's name first
        out.append(Text(f"You play [b]{esc(str(character))}[/b]", size=20))
    die = _BigDie(size_hint_x=None, width=px(84))
    die.show(seat.get("private_die"))
    role = f"[b]Role:[/b] {esc(str(seat.get('role', '-')))}"
    if me.get("criminal"):
        role += "\n[b][color=e05a4f]You are the Criminal.[/color][/b]"
    if me.get("secret_kind"):
        role += f"\n[b]Your secret is a {esc(str(me['secret_kind']))}[/b]"
    role += f"\n[b]Private Die:[/b] {esc(str(seat.get('private_die', '-')))}"
    locked = me.get("locked_card")
    if locked:
        role += f"\n[b]Locked in:[/b] {esc(str(locked))}"
    # the die, the role and the three cards share one row: the secrets below fit without scrolling
    top = BoxLayout(size_hint_y=None, height=px(104), spacing=px(10))
    top.add_widget(die)
    top.add_widget(Text(role, size=20, fit=False))
    for colour in ("Black", "White", "Gray"):
        card = art.ChallengeCard(size_hint_x=None, width=px(70))
        card.show(colour, owner="locked in" if colour == locked else " ", dim=bool(locked) and colour != locked)
        top.add_widget(card)
    out.append(top)
    private = me.get("private_self") or {}
    shown = set(me.get("revealed_parts") or [])
    secrets = GridLayout(cols=2, spacing=(px(12), px(2)), size_hint_y=None)  # two to a row: no scrolling at 800x480
    secrets.bind(minimum_height=secrets.setter("height"))
    for key, name in SELF_PARTS:
        if private.get(key):
            thing = private.get(f"{key}_object")
            told = " [color=9e9a8f](revealed)[/color]" if key in shown else ""
            secrets.add_widget(Text(f"[b]{name}:[/b] {esc(str(private[key]))}" +
                                    (f" ({esc(str(thing))})" if thing else "") + told, size=20))
    for key, name in (("enemy", "Enemy"),):
        if private.get(key):
            secrets.add_widget(Text(f"[b]{name}:[/b] {esc(str(private[key]))}", size=20))
    if secrets.children:
        out.append(secrets)
    for key, name in (("confession", "Confession"), ("crime_roll", "Crime roll"), ("vote", "Your vote")):
        value = me.get(key)
        if value not in (None, "", []):
            said = " and ".join(map(str, value)) if isinstance(value, list) else str(value)  # dice as words
            out.append(Text(f"[b]{name}:[/b] {esc(said)}", size=20))
    return out


class _BigDie(art.Drawn):
    """The Private Die, drawn as a die showing its number in pips."""

    face: Any = None

    def show(self, face) -> None:
        self.face = face
        self._redraw()

    def draw(self) -> None:
        s = min(self.width, self.height) * 0.9
        art.draw_d6(self.center_x - s / 2, self.center_y - s / 2, s, self.face if isinstance(self.face, int) else None)
