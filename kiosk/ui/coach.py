"""The coach: a bar under the play screen while a lesson runs (``kiosk.lesson``).

It says the step (what to do, in bold, and why, dimmer), shows what the step is
about on the left (the pad button in its colour and shape with the seat's number,
the tray zone, or the card to look at) and outlines the widget the step names on
the screen. **Next** appears only on reading steps; **Leave** is always there (one
tap home; the lesson's game stays in the saved list like any other). When the last
step is done, the bar offers the real game with the same players.

The play screen is not changed: the screen manager is shortened to leave the bar
its room (``show``/``hide``), so nothing of the game is covered.
"""

from __future__ import annotations

from kivy.clock import Clock
from kivy.graphics import Color, Line
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget
from kivy.utils import escape_markup as esc

from kiosk.lesson import LessonRunner, Step

from . import theme
from .theme import Big, Filled, Shape, Text, px

HEIGHT = 112
"""The bar's height (px at scale 1): three short lines and two finger-sized buttons."""

ZONES = {"inside": "Tray: inside the ring", "touching": "Tray: on the ring's line",
         "outside": "Tray: outside the ring", "heat": "Tray: the Heat stack"}


class Outline(Widget):
    """A brass frame around the widget a step points at, pulsing so the eye finds it."""

    def __init__(self, **kw) -> None:
        super().__init__(size_hint=(None, None), **kw)
        with self.canvas:
            self.colour = Color(*theme.ACCENT)
            self.line = Line(rectangle=(0, 0, 0, 0), width=px(3))

    def around(self, target, root) -> None:
        if target is None or target.get_root_window() is None:
            self.opacity = 0
            return
        x, y = root.to_widget(*target.to_window(target.x, target.y))
        pad = px(3)
        self.line.rectangle = (x - pad, y - pad, target.width + 2 * pad, target.height + 2 * pad)
        self.opacity = 1


class CoachBar(Filled):
    """The lesson's bar: pointer | the coach's lines | Next and Leave (or, at the end, the real game)."""

    def __init__(self, app, runner: LessonRunner) -> None:
        super().__init__(orientation="horizontal", size_hint=(1, None), height=px(HEIGHT), pos=(0, 0),
                         padding=px(6), spacing=px(8), bg=(0.16, 0.13, 0.08, 1))
        self.tag = "coach:bar"
        self.app, self.runner = app, runner
        self.pointer = BoxLayout(orientation="vertical", size_hint_x=None, width=px(112), spacing=px(2))
        self.add_widget(self.pointer)
        lines = BoxLayout(orientation="vertical", spacing=px(2))
        self.progress = Text("", size=13, color=theme.ACCENT, bold=True)
        self.say = Text("", size=17, bold=True)
        self.say.tag = "coach:say"
        self.why = Text("", size=14, color=theme.DIM)
        self.why.tag = "coach:why"
        for label in (self.progress, self.say, self.why):
            lines.add_widget(label)
        lines.add_widget(BoxLayout())
        self.add_widget(lines)
        self.buttons = BoxLayout(orientation="vertical", size_hint_x=None, width=px(150), spacing=px(4))
        self.add_widget(self.buttons)
        self.outline = Outline()
        self._pulse = None
        runner.on_step.append(lambda _runner: self.refresh())

    # -- what the bar shows ------------------------------------------------------------

    def refresh(self, *_) -> None:
        runner = self.runner
        step = runner.step
        lesson = runner.lesson
        if runner.finished:
            self.progress.text = esc(f"{lesson.title}: done")
            self.say.text = esc(lesson.finish or "That is how a turn goes.")
            self.why.text = esc(f"Play {runner.engine.title} for real with {_names(runner.players())}?")
            self._show_buttons([("Play for real", "coach:real", "accent", self.play_real),
                                ("Home", "coach:home", "sunken", self.leave)])
            self._point(None)
            return
        self.progress.text = esc(f"{lesson.title} · {runner.progress()}")
        self.say.text = esc(step.say)
        self.why.text = esc(step.why)
        buttons = [("Leave", "coach:leave", "sunken", self.leave)]
        if step.done.action is None:
            buttons.insert(0, ("Next", "coach:next", "accent", self.next))
        self._show_buttons(buttons)
        self._point(step)

    def _show_buttons(self, specs) -> None:
        self.buttons.clear_widgets()
        for text, tag, kind, handler in specs:
            b = Big(text, kind=kind, size=16, height=px(48))
            b.tag = tag
            b.bind(on_release=lambda *_, h=handler: h())
            self.buttons.add_widget(b)

    def _point(self, step: Step | None) -> None:
        """Draw what the step is about on the left; outline its widget on the screen."""
        self.pointer.clear_widgets()
        point = step.point if step is not None else None
        if point is not None and point.pad is not None:
            from .theme import mark_for

            fill, _ink, shape, label = mark_for(point.pad)
            seat = self._seat(point.player)
            self.pointer.add_widget(Shape(shape=shape, fill=fill, size_hint=(1, None), height=px(40)))
            self.pointer.add_widget(Text(esc(f"{label}\n{point.player or ''} {seat}".strip()), size=13,
                                         halign="center"))
        elif point is not None and point.zone is not None:
            self.pointer.add_widget(Text(esc(ZONES[point.zone]), size=14, halign="center", bold=True))
        elif point is not None and point.card is not None:
            self.pointer.add_widget(Text(esc(f"Look at {point.card}"), size=13, halign="center"))
        elif point is not None and point.player is not None:
            self.pointer.add_widget(Text(esc(f"{point.player}\n{self._seat(point.player)}"), size=14,
                                         halign="center", bold=True))
        self.pointer.add_widget(BoxLayout())
        self._target = point.button if point is not None else None
        self._follow()
        Clock.schedule_once(self._follow, 0)  # again once the play screen has laid out the new step

    def _seat(self, player: str | None) -> str:
        """'pad 2 (Oscar)': which pad is theirs, by seat; a player with no pad uses the screen."""
        players = self.runner.players()
        if player not in players:
            return "any pad"
        seat = players.index(player) + 1
        controller = self.app.controller
        has_pad = controller is not None and controller.has_pad(seat)
        return f"pad {seat}" if has_pad else "on screen"

    def _follow(self, *_) -> None:
        """Keep the outline on its widget (the play screen redraws and moves things)."""
        target = _find(self.app.root, self._target) if self._target else None
        self.outline.around(target, self.parent or self)
        if target is not None:
            self.outline.colour.a = 0.55 + 0.45 * abs((Clock.get_boottime() % 1.2) - 0.6) / 0.6

    # -- what the buttons do -------------------------------------------------------------

    def next(self) -> None:
        self.runner.next_step()

    def leave(self) -> None:
        self.app.leave_lesson()

    def play_real(self) -> None:
        self.app.start_game(self.runner.engine.game, self.runner.real_setup())

    # -- on and off the screen -------------------------------------------------------------

    def show(self, root, screens) -> None:
        if self.parent is None:
            root.add_widget(self)
            root.add_widget(self.outline)
        screens.size_hint_y = None
        screens.y = self.height
        screens.height = max(0, root.height - self.height)
        root.bind(height=self._fit)
        self._screens = screens
        if self._pulse is None:
            # 15 times a second: the play screen redraws and moves things, and the frame pulses
            # (every frame would keep the Pi drawing at full rate for as long as a lesson lasts)
            self._pulse = Clock.schedule_interval(self._follow, 1 / 15)
        self.refresh()

    def _fit(self, root, height) -> None:
        self._screens.height = max(0, height - self.height)

    def hide(self) -> None:
        if self._pulse is not None:
            self._pulse.cancel()
            self._pulse = None
        root = self.parent
        if root is None:
            return
        root.unbind(height=self._fit)
        root.remove_widget(self)
        root.remove_widget(self.outline)
        self._screens.size_hint_y, self._screens.y = 1, 0


def _find(root, tag: str):
    """The first widget on screen tagged ``tag`` (overlays first: they are on top)."""
    from kivy.core.window import Window

    for top in list(Window.children) + ([root] if root is not None else []):
        stack = [top]
        while stack:
            w = stack.pop()
            if getattr(w, "tag", None) == tag and w.get_root_window() is not None:
                return w
            stack.extend(w.children)
    return None


def _names(players: list[str]) -> str:
    return ", ".join(players[:-1]) + f" and {players[-1]}" if len(players) > 1 else "".join(players)


def follow(app, runner) -> None:
    """Show the coach for a lesson's runner, or take it away for any other game (or none)."""
    bar = getattr(app, "coach", None)
    if bar is not None and bar.runner is runner:
        bar.show(app.root_float, app.sm)
        return
    if bar is not None:
        bar.hide()
        app.coach = None
    if isinstance(runner, LessonRunner):
        app.coach = CoachBar(app, runner)
        app.coach.show(app.root_float, app.sm)
