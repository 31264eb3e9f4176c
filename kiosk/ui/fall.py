"""The Heat's fall, as the moment of the game it is (Hell for Leather, issue 30).

When the tray senses the stack come down (or the table says it did), the whole
screen turns to the fall:

1. **The fall.** The tower tumbles, and the count the tray weighed is written
   large and already filled in: "3 dice fell, 1 still stands". The table
   confirms it or corrects it with the − and + beside it.
2. **The faces.** The only thing no sensor sees: the number on each fallen die,
   one tap each. Who was throwing and how it fell are filled in when only one
   answer fits (the narrator's throw during a conflict); otherwise asked here too.
3. **The Curse.** What the fall did (the Curse's total and its effects) in large
   type. It asks for nothing, so it goes by itself after ``overlays.FADE_S`` as a
   reveal does; a tap keeps it up until "Carry on".

Nothing here decides anything: it builds the ``heat_fall`` answer the rules
already ask for and shows their reply. "Back" closes it with nothing entered (a
fall sensed by mistake, or one the table wants to enter later from the
optional row).
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget
from kivy.utils import escape_markup as esc

from kiosk.rules import RuleError

from . import art, theme
from .fields import readable
from .overlays import Fades, Overlay
from .theme import Big, Filled, Text, px

log = logging.getLogger(__name__)


def fall_words(fell: int, standing: int) -> str:
    """'3 dice fell, 1 still stands' (the count, as the table reads it)."""
    fallen = f"{fell} {'die' if fell == 1 else 'dice'} fell"
    if standing <= 0:
        return f"{fallen}, none still stand"
    return f"{fallen}, {standing} still {'stands' if standing == 1 else 'stand'}"


def plinth_note(game_heat: int | None, on_plinth: int | None, capacity: int = 14) -> str:
    """Before a throw: what to say when the stack on the plinth is not the game's Heat ('' when it is)."""
    if game_heat is None or on_plinth is None:
        return ""
    target = min(game_heat, capacity)
    if on_plinth == target:
        return ""
    gap = target - on_plinth
    todo = f"add {abs(gap)} {'die' if abs(gap) == 1 else 'dice'}" if gap > 0 else \
        f"take {abs(gap)} {'die' if abs(gap) == 1 else 'dice'} off"
    return f"The game's Heat is {game_heat}, the plinth holds {on_plinth}: {todo} before the throw."


class FallOverlay(Fades, Overlay):
    """The fall, its faces and its Curse on one full screen (see the module's docstring).

    ``prompt`` is the game's ``heat_fall`` prompt; ``fell`` the dice the tray counted
    (None when nobody sensed it: the table enters the count); ``height`` the game's Heat
    before the fall; ``thrower`` who was throwing when the tray saw it, if known;
    ``propose`` hands the answer to the rules and returns their refusal or None, and the
    events come back through ``result``."""

    def __init__(self, prompt, fell: int | None, height: int, propose: Callable[[dict[str, Any]], Any],
                 thrower: str | None = None, on_close: Callable[[], None] = lambda: None) -> None:
        super().__init__(size_hint=(1, 1), background_color=(0.02, 0.02, 0.03, 0.97))
        self.prompt, self.height_before, self.propose, self.on_close = prompt, height, propose, on_close
        self.sensed = fell is not None
        self.counted = fell  # what the tray said, even when it is more than the game's Heat
        self.fell = max(1, min(fell or 1, height))
        self.corrected = False
        self.faces: list[int] = []
        fields = {f.name: f for f in prompt.fields}
        self.thrower = _only(fields.get("thrower"), thrower)
        self.cause = _only(fields.get("cause"), "throw")
        self.box = Filled(orientation="vertical", padding=px(12), spacing=px(8), bg=theme.BG)
        self.add_widget(self.box)
        self.tower = art.HeatTower(size_hint_x=None, width=px(110))
        self._draw_entry()
        self.tower.fall(self.fell if self.sensed else 0, height - self.fell if self.sensed else height)

    # -- step 1 and 2: the count, then the faces -----------------------------------------

    def _draw_entry(self) -> None:
        box = self.box
        box.clear_widgets()
        top = BoxLayout(spacing=px(12))
        top.add_widget(self.tower)
        right = BoxLayout(orientation="vertical", spacing=px(6))
        right.add_widget(Text("The Heat fell!", size=34, bold=True, color=theme.WARN))
        count_row = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(8))
        self.count_text = Text("", size=30, bold=True, fit=False)
        self.count_text.tag = "fall:count"
        count_row.add_widget(self.count_text)
        for sign, step in (("-", -1), ("+", 1)):
            b = Big(sign, kind="quiet", size=30, size_hint_x=None, width=px(theme.TOUCH))
            b.tag = f"fall:{'fewer' if step < 0 else 'more'}"
            b.bind(on_release=lambda *_, s=step: self.change_count(s))
            count_row.add_widget(b)
        right.add_widget(count_row)
        self.source = Text("", size=20, color=theme.DIM)
        right.add_widget(self.source)
        self.ask = Text("", size=24, bold=True)
        right.add_widget(self.ask)
        self.chosen = Text("", size=30, bold=True, color=theme.ACCENT)
        self.chosen.tag = "fall:faces"
        right.add_widget(self.chosen)
        right.add_widget(Widget())  # the words sit at the top, the room left under them
        top.add_widget(right)
        box.add_widget(top)
        faces = GridLayout(cols=7, spacing=px(6), size_hint_y=None, height=px(theme.TOUCH))
        for face in range(1, 7):
            b = Big(str(face), kind="normal", size=28)
            b.tag = f"fall:face={face}"
            b.bind(on_release=lambda *_, f=face: self.add_face(f))
            faces.add_widget(b)
        undo = Big("Remove last", kind="quiet", size=18)
        undo.tag = "fall:remove"
        undo.bind(on_release=lambda *_: self.remove_face())
        faces.add_widget(undo)
        box.add_widget(faces)
        self.face_buttons = faces
        self.who_row = None
        throwers: list[Any] = next((f.choices for f in self.prompt.fields if f.name == "thrower"), [])
        if self.thrower is None and throwers:
            row = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(6))
            row.add_widget(Text("Whose throw?", size=22, bold=True, fit=False, size_hint_x=0.3))
            for who in throwers:
                b = Big(esc(str(who)), kind="normal", size=20)
                b.tag = f"fall:thrower={who}"
                b.value = who
                b.bind(on_release=lambda btn: self.pick_thrower(btn.value))
                row.add_widget(b)
            box.add_widget(row)
            self.who_row = row
        causes: list[Any] = next((f.choices for f in self.prompt.fields if f.name == "cause"), [])
        if self.cause is None and causes:
            self.cause = "throw" if "throw" in causes else causes[0]
        self.error = Text("", size=20, color=theme.BAD)
        box.add_widget(self.error)
        row = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(10))
        back = Big("Back (nothing entered)", kind="quiet", size=20)
        back.tag = "prompt:back"
        back.bind(on_release=lambda *_: self.close())
        self.confirm = Big("Confirm the fall", kind="accent", size=22)
        self.confirm.tag = "fall:confirm"
        self.confirm.bind(on_release=lambda *_: self.submit())
        row.add_widget(back)
        row.add_widget(self.confirm)
        box.add_widget(row)
        self._show()

    def _show(self) -> None:
        standing = self.height_before - self.fell
        self.count_text.text = fall_words(self.fell, standing)
        if self.corrected:
            self.source.text = "Counted by the table."
        elif self.sensed and self.counted is not None and self.counted > self.height_before:
            self.source.text = (f"The tray weighed {self.counted} fallen, more than the game's Heat of "
                                f"{self.height_before}: check the count.")
        elif self.sensed:
            self.source.text = "The tray weighed the fall: correct the count if it is wrong."
        else:
            self.source.text = "How many dice fell? Set the count, then the faces."
        need = self.fell - len(self.faces)
        self.ask.text = (f"Tap the face of each fallen die: {need} more" if need > 0 else
                         "All the faces are in: confirm the fall.")
        slots = [str(f) for f in self.faces] + ["[color=6b6860]?[/color]"] * max(0, need)
        self.chosen.text = "Faces:  " + "   ".join(slots)
        for b in self.face_buttons.children:
            if getattr(b, "tag", "").startswith("fall:face="):
                b.disabled = need <= 0
        self.confirm.disabled = need != 0 or self.thrower is None

    def change_count(self, step: int) -> None:
        self.fell = max(1, min(self.height_before, self.fell + step))
        self.corrected = True
        del self.faces[self.fell:]
        self.tower.fall(self.fell, self.height_before - self.fell)
        self._show()

    def recount(self, fell: int) -> None:
        """The tray's count changed (the rest of the same fall came down a moment later);
        a count the table has corrected stays theirs."""
        if not self.corrected and self.result_shown is False:
            self.counted = fell
            self.fell = max(1, min(self.height_before, fell))
            self.sensed = True
            self.tower.fall(self.fell, self.height_before - self.fell)
            self._show()

    def add_face(self, face: int) -> None:
        if len(self.faces) < self.fell:
            self.faces.append(face)
            self._show()

    def remove_face(self) -> None:
        if self.faces:
            self.faces.pop()
            self._show()

    def pick_thrower(self, who: str) -> None:
        self.thrower = who
        for b in self.who_row.children if self.who_row else []:
            if hasattr(b, "value"):
                b.kind = "accent" if b.value == who else "normal"
        self._show()

    def submit(self) -> None:
        if len(self.faces) != self.fell or self.thrower is None:
            return
        data = {"type": "heat_fall", "player": None, "faces": list(self.faces), "thrower": self.thrower,
                "cause": self.cause}
        self.submitting = True
        try:
            events = self.propose(data)
        except RuleError as err:
            self.error.text = esc(err.message)
            return
        finally:
            self.submitting = False
        self.show_result(events or [])

    # -- step 3: what the fall did ---------------------------------------------------------

    result_shown = False
    submitting = False
    """True while this screen's own answer is with the rules."""

    def show_result(self, events: list) -> None:
        self.result_shown = True
        theme.screen_changed()
        box = self.box
        box.clear_widgets()
        public = [e for e in events if getattr(e, "to", None) is None]
        curse = next((e for e in public if e.kind == "curse"), None)
        box.add_widget(Widget())
        if curse is not None:
            effects = ", ".join(EFFECTS.get(e, e) for e in curse.data.get("effects", []))
            box.add_widget(Text(f"Curse {curse.data.get('score')}: {esc(effects)}", size=44, bold=True,
                                color=theme.WARN, halign="center"))
            box.add_widget(Text(f"for {esc(str(curse.data.get('player')))}", size=30, bold=True, halign="center"))
        else:
            box.add_widget(Text("The fall is entered", size=34, bold=True, color=theme.WARN, halign="center"))
        for e in public:
            box.add_widget(Text(esc(readable(e.text)), size=22, halign="center"))
        box.add_widget(Widget())
        done = Big("Carry on", kind="accent", size=22)
        done.tag = "fall:close"
        done.bind(on_release=lambda *_: self.close())
        box.add_widget(done)
        self.done_button = done
        self.start_fading()

    def on_touch_down(self, touch) -> bool:
        if self.result_shown and not self.done_button.collide_point(*self.done_button.to_widget(*touch.pos)) \
                and self.keep():
            return True  # the first tap on the Curse keeps it up until "Carry on"
        return super().on_touch_down(touch)

    def close(self) -> None:
        self.stop_fading()
        self.dismiss()
        self.on_close()


EFFECTS = {"fail": "Fail", "gain_heat": "Gain Heat", "hunters": "Hunters", "trauma": "Trauma"}
"""The Curse chart's effects as the table says them."""


def _only(field, known: str | None) -> str | None:
    """The value a field must take: ``known`` if it is one of its choices, its only choice, or None."""
    if field is None:
        return None
    if known is not None and known in field.choices:
        return known
    return field.choices[0] if len(field.choices) == 1 else None
