"""Colours, sizes and the few basic widgets every screen is built from.

The kiosk runs on the official 7" display (800x480) and on 1280x720. Every
size here is multiplied by ``scale()``, which is 1.0 at 800x480, so a layout
that works on the small screen grows evenly on the big one. The smallest touch
target is ``TOUCH`` (56 px at scale 1, above the 48 px a finger needs).

Colour is never the only signal: the Black/White/Gray buttons and the
red/yellow/green tokens always carry their name and a shape too
(``mark_for``).
"""

from __future__ import annotations

import math
import time

from kivy.core.window import Window
from kivy.lang import Builder
from kivy.graphics import BindTexture, Callback, Color, Ellipse, Line, Rectangle, RoundedRectangle, Triangle
from kivy.graphics.scissor_instructions import ScissorPop, ScissorPush
from kivy.graphics.stencil_instructions import StencilPop, StencilUnUse
from kivy.metrics import dp
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.layout import Layout
from kivy.uix.recycleboxlayout import RecycleBoxLayout
from kivy.uix.recycleview import RecycleView
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.screenmanager import NoTransition, ScreenManager
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

Colour = tuple[float, float, float, float]
"""Red, green, blue and opacity, each 0 to 1 (as Kivy's ``Color`` takes them)."""
Mark = tuple[Colour, Colour, str, str]
"""How a table colour is drawn: (fill, text colour, shape, label)."""

INK = (0.93, 0.91, 0.86, 1)  # text on the dark table
DIM = (0.62, 0.60, 0.56, 1)
BG = (0.07, 0.07, 0.09, 1)
PANEL = (0.13, 0.13, 0.16, 1)
RAISED = (0.20, 0.20, 0.24, 1)
ACCENT = (0.86, 0.68, 0.28, 1)  # brass
GOOD = (0.30, 0.66, 0.38, 1)
WARN = (0.90, 0.62, 0.18, 1)
BAD = (0.80, 0.24, 0.22, 1)
REFUSAL = (1, 0.55, 0.5, 1)
"""Red text means one thing: the rules (or a form) refused what was just tried."""
NOTICE = (0.55, 0.78, 0.95, 1)
"""Something that happened, told to the table (a sheet opened, what the tray saw): never red."""
LOCKED = (0.55, 0.85, 0.6, 1)
"""Who has locked in a secret choice (never what they chose)."""

# Named values that have a colour on the table: (fill, text colour, shape, label).
MARKS: dict[str, Mark] = {
    "black": ((0.05, 0.05, 0.05, 1), (0.95, 0.95, 0.95, 1), "square", "Black"),
    "white": ((0.95, 0.95, 0.92, 1), (0.05, 0.05, 0.05, 1), "circle", "White"),
    "gray": ((0.50, 0.50, 0.52, 1), (1, 1, 1, 1), "triangle", "Gray"),
    "grey": ((0.50, 0.50, 0.52, 1), (1, 1, 1, 1), "triangle", "Gray"),
    "red": ((0.72, 0.16, 0.14, 1), (1, 1, 1, 1), "square", "Red"),
    "yellow": ((0.92, 0.78, 0.20, 1), (0.1, 0.1, 0.1, 1), "triangle", "Yellow"),
    "green": ((0.20, 0.55, 0.28, 1), (1, 1, 1, 1), "circle", "Green"),
}


def scale() -> float:
    """How much bigger than the 800x480 design everything is drawn: 1.5 at 1280x720.

    The 1280x720 screen people buy for the kiosk is mostly the 7" Touch Display 2
    turned on its side: the same glass as the original 800x480 display with 1.6
    times the pixels, so text drawn 1.5 times bigger is the same size to a player
    a metre away. What the bigger screen adds is its wider shape (see ``wide``).
    """
    w, h = Window.size
    return max(1.0, min(w / 800.0, h / 480.0))


def wide() -> bool:
    """A 16:9 screen (1280x720): wider than the 5:3 design, so the play screen gives the
    extra width to the status panel."""
    w, h = Window.size
    return w / max(1, h) > 1.7


def px(n: float) -> float:
    """A size in the 800x480 design, grown to the current screen."""
    return dp(n) * scale()


def font(n: float = 18) -> float:
    return px(n)


TOUCH = 56


HEADLINE = 28
"""Whose turn, what to do, the last result, the Heat and the pot: read from a chair 80-100 cm
from the 7" panel, ISO 9241-3's 16 arcmin is about 28 px at 800x480 (issue 30)."""
READ = 20
"""Everything else read during play."""
LEAST = 16
"""Nothing a player must read is smaller (host-only words, such as the tray's link, may be this size)."""


def font_px_line(size: float) -> float:
    """A first guess at one line's height, until the text is measured."""
    return size * 1.4


def mark_for(value: object) -> Mark | None:
    """(fill, ink, shape, label) if ``value`` names a table colour, else None."""
    key = str(value).strip().lower()
    return MARKS.get(key)


def _lit(colour: Colour, gain: float, lift: float = 0.0) -> Colour:
    """``colour`` brightened (a pressed button), each channel at most 1, fully opaque."""
    r, g, b, _ = colour
    return (min(1, r * gain + lift), min(1, g * gain + lift), min(1, b * gain + lift), 1)


def corner_segments(radius: float) -> int:
    """How many straight pieces draw a rounded corner of ``radius`` px within half a pixel of
    the true arc. Kivy's ``RoundedRectangle`` uses 10 whatever the radius, as a fan of thin
    triangles across the whole box, and a software renderer pays for each of them over every
    tile they cross: a reveal's three cards drew 9 % faster with 3 (docs/kiosk.md, "fifteenth pass")."""
    if radius <= 0.5:
        return 1
    half_angle = math.acos(1 - 0.5 / radius)  # the widest piece whose middle is half a pixel in
    return max(1, math.ceil(math.pi / 2 / (2 * half_angle)))


class Filled(BoxLayout):
    """A box with a flat background colour (and optional rounded corners)."""

    bg = ListProperty(PANEL)
    radius = NumericProperty(0)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        with self.canvas.before:
            self._color = Color(*self.bg)
            self._rect = RoundedRectangle(pos=self.pos, size=self.size, radius=[self.radius],
                                          segments=corner_segments(self.radius))
        self.bind(pos=self._redraw, size=self._redraw, bg=self._recolour)

    def _redraw(self, *_):
        self._rect.pos, self._rect.size = self.pos, self.size

    def _recolour(self, *_):
        self._color.rgba = self.bg


class Framed(BoxLayout):
    """A box marked by a thin rounded border, its inside left the table's colour.

    The play screen's two big areas use this rather than ``Filled``: together
    they cover three quarters of the window, and every filled pixel is paid
    again on each frame by a software renderer (the desktop and CI), while a
    border costs almost nothing.
    """

    def __init__(self, line=RAISED, radius: float = 6, **kwargs) -> None:
        super().__init__(**kwargs)
        with self.canvas.before:
            Color(*line)
            self._line = Line(width=1)  # a one-pixel line is drawn as a line, wider ones as many triangles
        self.radius = radius
        self.bind(pos=self._redraw, size=self._redraw)

    def _redraw(self, *_):
        inset = self._line.width
        self._line.rounded_rectangle = (self.x + inset, self.y + inset, max(0, self.width - 2 * inset),
                                        max(0, self.height - 2 * inset), self.radius)


def crisp(*_texture_owner) -> None:
    """Sample textures pixel for pixel (nearest) instead of blending neighbours (linear).

    Text and flat fills are drawn at their own size, so the screen looks the
    same, and a software renderer (llvmpipe) fills nearest-sampled pixels about
    a third faster. Called with no argument it sets the default texture every
    flat fill uses; bound to a label's ``texture`` it sets each new text texture.
    """
    texture = _texture_owner[1] if _texture_owner else Rectangle().texture
    if texture is not None and texture.mag_filter != "nearest":
        texture.mag_filter = texture.min_filter = "nearest"


WORD_WIDTHS: dict[tuple, dict[str, tuple[int, int]]] = {}
"""Measured text sizes by font settings, then by text (see ``remember_word_widths``)."""


def remember_word_widths(limit: int = 2048) -> None:
    """Let Kivy measure each word once per font, not on every render.

    To wrap a label, Kivy measures every word through SDL_ttf, and does it
    again each time any label is rendered: most of the cost of showing a new
    sentence. Kivy's text provider has a documented hook for exactly this,
    ``get_cached_extents``, which SDL2's provider leaves uncached. This fills
    it in: sizes are kept per font settings (everything that changes a width),
    at most ``limit`` texts per font, forgotten all at once when full. Re-check
    on a Kivy upgrade.
    """
    from kivy.core.text.text_sdl2 import LabelSDL2

    def get_cached_extents(label):
        o = label.options
        key = (label._get_font_id(), o.get("font_hinting"), o.get("font_kerning"), o.get("font_direction"),
               o.get("font_script_name"), str(o.get("font_features")))
        known = WORD_WIDTHS.setdefault(key, {})
        measure = label.get_extents

        def extents(text: str):
            size = known.get(text)
            if size is None:
                if len(known) >= limit:
                    known.clear()
                size = known[text] = measure(text)
            return size

        return extents

    LabelSDL2.get_cached_extents = get_cached_extents


def clear_colour_only() -> None:
    """Clear only the window's colour before each frame, not its depth and stencil too.

    Kivy's ``Window.clear`` clears all three. Nothing on the kiosk tests depth, and Kivy's
    stencil mask (``StencilPush``) clears the stencil itself when the first mask of a frame
    opens. On the software renderer the two extra clears cost about 0.13 ms of every frame
    and 0.27 ms of a die landing's (docs/kiosk.md, "Event to screen, eleventh pass").
    Re-check on a Kivy upgrade."""
    from kivy.graphics import opengl as gl

    def clear() -> None:
        gl.glClearColor(*Window.clearcolor)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT)

    Window.clear = clear


def quiet_kv_bindings() -> None:
    """Let a kv rule's binding set its value without first writing debug lines nobody reads.

    Each time a property a kv rule watches changes (some fifty times in a die landing's
    frame: a label's texture, a button's colour, a box's size), Kivy 2.3 runs
    ``kivy.lang.builder.call_fn``. Unless Python runs with ``-O``, it first formats two
    trace messages from the widget, the rule and the value, their reprs included, and hands
    them to a logger that drops them. This does the same work without them; with Kivy's log
    at its trace level, Kivy's own function is kept. Installed before the first screen is
    built (bindings made earlier keep Kivy's, which does the same). Re-check on a Kivy upgrade.
    """
    import kivy.lang.builder as builder
    from kivy.logger import LOG_LEVELS, Logger

    if Logger.isEnabledFor(LOG_LEVELS["trace"]) or getattr(builder.call_fn, "quiet", False):
        return

    def call_fn(args, instance, value) -> None:
        element, key, expression, rule, idmap = args
        rule.count += 1
        setattr(element, key, eval(expression, idmap))

    call_fn.quiet = True  # type: ignore[attr-defined]
    builder.call_fn = call_fn


def drop_text_surfaces() -> None:
    """Let a rendered text's pixels go once its texture has them.

    Kivy's SDL2 text provider renders a text into an SDL surface, copies the pixels out
    (``get_data`` returns bytes) for the GL texture, and then keeps the surface on the
    label until its next render (its pygame provider drops it; the SDL2 one does not). So
    every text on screen, and every one the art's texture cache holds, was kept twice: 7-8.5
    MB of surfaces alive in a day's soak, growing with the texts a day has rendered
    (heaptrack, issue 33). This drops the surface as soon as the pixels are copied.
    Re-check on a Kivy upgrade.
    """
    try:
        from kivy.core.text.text_sdl2 import LabelSDL2
    except ImportError:  # another text provider: nothing of this kind to drop
        return
    if getattr(LabelSDL2._render_end, "drops_surface", False):
        return

    def _render_end(self):
        data = self._surface.get_data()  # a copy of the pixels
        self._surface = None
        return data

    _render_end.drops_surface = True  # type: ignore[attr-defined]
    LabelSDL2._render_end = _render_end


def tight_text(label: Label, inset: float = 0) -> None:
    """Keep ``label``'s text texture no wider than its text, wrapping only what does not fit.

    Kivy wraps a label by giving it a ``text_size``, and then renders a texture
    as wide as that, mostly transparent for a short line. Those pixels are drawn
    on every frame, and on a software renderer (the desktop, CI) drawing text
    was the larger part of a frame. So a label first renders its text
    unwrapped, each line as it was written (cheap: no word-by-word measuring),
    and only when that is wider than the room (the label's width less
    ``inset``), or surely too wide, wraps it within the room. The unwrapped
    width is remembered for the text, so when the room changes (layout often
    starts a label a few pixels wide, then widens it) the label unwraps again
    if it fits now. ``Text`` draws its texture at the side its ``halign``
    names (see the rule below), so a short left-aligned line stays where it was.
    """
    one_line: list[float | None] = [None]  # the text's unwrapped width, once seen

    def fit(*_) -> None:
        room = max(1, label.width - inset)
        if one_line[0] is not None:
            wrap = one_line[0] > room
        else:  # not measured yet: render unwrapped, unless even narrow letters would not fit
            longest = max(len(line) for line in label.text.split("\n"))
            wrap = longest * label.font_size * 0.25 > room
        label.text_size = (room, None) if wrap else (None, None)

    def rendered(*_) -> None:
        if label.text_size[0] is None and label.text:
            one_line[0] = label.texture_size[0]
        fit()

    def restyled(*_) -> None:
        one_line[0] = None
        fit()

    label.fbind("text", restyled)
    label.fbind("font_size", restyled)
    label.fbind("width", fit)
    label.fbind("texture_size", rendered)
    fit()


Builder.load_string("""
<-Text>:
    canvas:
        Color:
            rgba: 1, 1, 1, 1
        Rectangle:
            texture: self.texture
            size: self.texture_size
            pos: (int(self.x) if self.halign == 'left' else int(self.right - self.texture_size[0]) \
                if self.halign == 'right' else int(self.center_x - self.texture_size[0] / 2.)), \
                int(self.center_y - self.texture_size[1] / 2.)
""")


class Text(Label):
    """A label that wraps inside its width and grows to fit its text."""

    def __init__(self, text: str = "", size: float = 18, color=INK, bold=False, halign="left", fit=True, markup=True,
                 **kw) -> None:
        super().__init__(text=text, font_size=font(size), color=color, bold=bold, halign=halign, valign="middle",
                         markup=markup, **kw)
        self.fbind("texture", crisp)
        tight_text(self)
        if fit:
            self.size_hint_y: float | None = None
            self.height = px(4) if not text else px(font_px_line(size))
            self.bind(texture_size=lambda *_: setattr(self, "height", max(self.texture_size[1], px(4))))


def show_texts(box, texts: list[str], make, keep: int) -> None:
    """Make the labels in ``box`` show ``texts`` in order, rendering as little text as it can.

    Rendering a label's text is what costs, so labels are kept by the text they
    show (at most ``keep`` texts), and each line takes, in this order:

    1. the label at its place, if that already shows its text;
    2. a label showing its text elsewhere or kept from before (the line moved,
       or came back: "Wagers locked: Bo" appears, pushing the lines below down);
    3. a label whose text is no longer wanted, preferably the one at its place
       (a text that changed in place), which renders the new text;
    4. a new label from ``make()``.

    Then only the labels whose place changed are moved (``set_children``).
    """
    current = list(reversed(box.children))
    if [label_widget.text for label_widget in current] == texts:
        return
    made: dict[str, list] = box.__dict__.setdefault("_made", {})  # text -> labels showing it
    if len(made) > keep:
        made.clear()
        for label_widget in current:
            made.setdefault(label_widget.text, []).append(label_widget)
    ordered: list = [None] * len(texts)
    used: set[int] = set()
    wanted = set(texts)

    def take(i: int, label_widget) -> None:
        ordered[i] = label_widget
        used.add(id(label_widget))

    for i, text in enumerate(texts):  # 1.
        if i < len(current) and current[i].text == text:
            take(i, current[i])
    for i, text in enumerate(texts):  # 2.
        found = next((w for w in made.get(text, []) if id(w) not in used), None) if ordered[i] is None else None
        if found is not None:
            take(i, found)
    spare = list({id(w): w for w in current + [w for ws in made.values() for w in ws]
                  if id(w) not in used and w.text not in wanted}.values())
    for i, text in enumerate(texts):  # 3. and 4.
        if ordered[i] is not None:
            continue
        here = current[i] if i < len(current) and current[i] in spare else (spare[0] if spare else None)
        if here is None:
            here = make()
        else:
            spare.remove(here)
            if here in made.get(here.text, []):
                made[here.text].remove(here)
        here.text = text
        made.setdefault(text, []).append(here)
        take(i, here)
    set_children(box, ordered)


def set_children(box, widgets: list) -> None:
    """Make ``widgets`` the children of ``box``, in order, moving as few as it can.

    Kivy lays out again whatever is taken out and put back, so only the run
    between the unchanged start and the unchanged end is replaced: a prompt
    that changes one sentence keeps its buttons where they are.
    """
    current = list(reversed(box.children))
    if current == widgets:
        return
    shortest = min(len(current), len(widgets))
    start = 0
    while start < shortest and current[start] is widgets[start]:
        start += 1
    end = 0
    while end < shortest - start and current[-1 - end] is widgets[-1 - end]:
        end += 1
    for widget in current[start:len(current) - end]:
        box.remove_widget(widget)
    for widget in widgets[start:len(widgets) - end]:
        if widget.parent is not None:
            widget.parent.remove_widget(widget)
        box.add_widget(widget, index=end)  # Kivy counts from the last child: just above the unchanged end


def fit_width(button, pad: float = 12) -> None:
    """Make ``button`` exactly as wide as its text on one line plus ``pad`` px either side.

    For the top bar: a button given a share of the row ("Secrets" in 9 % of 800 px)
    wrapped its own name into "Secret / s". Measured once per text and font size.
    """
    from kivy.core.text import Label as CoreLabel

    def measure(*_) -> None:
        plain = button.text.replace("[b]", "").replace("[/b]", "")
        width = CoreLabel(font_size=button.font_size, bold=button.bold).get_extents(plain)[0]
        button.size_hint_x = None
        button.width = width + 2 * px(pad)

    if not getattr(button, "_fits_width", False):
        button._fits_width = True
        button.fbind("text", measure)
        button.fbind("font_size", measure)
    measure()


class Gather(list):
    """Stands in for a layout while the widgets for it are gathered (see ``set_children``)."""

    def add_widget(self, widget) -> None:
        self.append(widget)


# Big fills one flat rectangle: Kivy's Button rule draws a nine-patch image and binds its
# image sources, which a flat colour does not need (a disabled Big is darkened by _paint).
Builder.load_string("""
<-Big>:
    canvas:
        Color:
            rgba: self.background_color
        Rectangle:
            pos: self.pos
            size: self.size
        Color:
            rgba: 1, 1, 1, 1
        Rectangle:
            texture: self.texture
            size: self.texture_size
            pos: int(self.center_x - self.texture_size[0] / 2.), int(self.center_y - self.texture_size[1] / 2.)
""")


TOUCH_GUARD = {"s": 0.4, "changed_at": 0.0}
"""A touch that began before the screen last changed, or less than ``s`` seconds after,
presses nothing: the second tap of a double tap must not land on a button of the next
screen. ``changed_at`` is ``time.time()``, the clock Kivy stamps touches with.
``testkit.drive.press`` acts as a finger that waited for the screen to settle."""


def screen_changed() -> None:
    """Note that what the buttons on screen mean has just changed (a new prompt, an overlay)."""
    TOUCH_GUARD["changed_at"] = time.time()


def stale_touch(touch) -> bool:
    """True for a touch that began before the last change, or within the guard time after it."""
    began, changed = getattr(touch, "time_start", 0.0), TOUCH_GUARD["changed_at"]
    return began < changed or began - changed < TOUCH_GUARD["s"]


class Big(Button):
    """A flat, finger-sized button. ``kind`` picks its colour: normal, accent, good, bad, quiet
    (a low-key action on the table's colour), sunken (the same on a panel, where quiet would vanish)."""

    kind = StringProperty("normal")
    tag = StringProperty("")
    """A stable name tests and the sim panel use to find the button."""

    COLOURS = {"normal": RAISED, "accent": ACCENT, "good": GOOD, "bad": BAD, "quiet": PANEL, "sunken": BG}

    def __init__(self, text: str = "", kind: str = "normal", size: float = 18, **kw) -> None:
        kw.setdefault("size_hint_y", None)
        kw.setdefault("height", px(TOUCH))
        super().__init__(text=text, font_size=font(size), background_normal="", background_down="",
                         halign="center", valign="middle", markup=True, **kw)
        self.kind = kind
        self.fbind("texture", crisp)
        tight_text(self, inset=px(8))
        self._paint()
        self.bind(kind=lambda *_: self._paint(), state=lambda *_: self._paint(), disabled=lambda *_: self._paint())

    def on_touch_down(self, touch) -> bool:
        if self.collide_point(*touch.pos) and not self.disabled and stale_touch(touch):
            return True  # swallowed: meant for the screen that was there a moment ago
        return super().on_touch_down(touch)

    def on_touch_up(self, touch) -> bool:
        if touch.grab_current is self and touch.time_start < TOUCH_GUARD["changed_at"]:
            touch.ungrab(self)  # pressed on the screen before this one: not a press of this button
            self.state = "normal"
            return True
        return super().on_touch_up(touch)

    def _paint(self) -> None:
        base: Colour = self.COLOURS.get(self.kind, RAISED)
        if self.disabled:
            base = (base[0] * 0.5, base[1] * 0.5, base[2] * 0.5, 1)
        if self.state == "down":
            base = _lit(base, 1.3)
        self.background_color = base
        self.color: Colour = (0.08, 0.08, 0.08, 1) if self.kind in ("accent",) else INK


class Shape(Widget):
    """A small filled shape (square, circle, triangle) with an outline, so colour is not alone."""

    shape = StringProperty("square")
    fill = ListProperty([1, 1, 1, 1])

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.bind(pos=self._draw, size=self._draw, shape=self._draw, fill=self._draw)

    def _draw(self, *_):
        self.canvas.clear()
        s = min(self.width, self.height)
        x, y = self.center_x - s / 2, self.center_y - s / 2
        with self.canvas:
            Color(*self.fill)
            if self.shape == "circle":
                Ellipse(pos=(x, y), size=(s, s))
            elif self.shape == "triangle":
                Triangle(points=[x, y, x + s, y, x + s / 2, y + s])
            else:
                Rectangle(pos=(x, y), size=(s, s))
            Color(*INK)
            if self.shape == "circle":
                Line(ellipse=(x, y, s, s), width=1.2)
            elif self.shape == "triangle":
                Line(points=[x, y, x + s, y, x + s / 2, y + s], close=True, width=1.2)
            else:
                Line(rectangle=(x, y, s, s), width=1.2)


class MarkedButton(Big):
    """A button for a table colour: filled with it, named, and with its shape beside the name."""

    def __init__(self, value: object, text: str | None = None, **kw) -> None:
        mark = mark_for(value)
        if mark is None:
            raise ValueError(f"{value!r} is no table colour (one of: {', '.join(MARKS)})")
        fill, ink, shape, label = mark
        super().__init__(text=text or label, **kw)
        self.fill, self.ink = fill, ink
        self.shape = Shape(shape=shape, fill=ink, size_hint=(None, None))
        self.add_widget(self.shape)
        self.bind(pos=self._place, size=self._place)
        self._paint()

    def _place(self, *_):
        s = min(self.height * 0.45, px(24))
        self.shape.size = (s, s)
        self.shape.pos = (self.x + px(10), self.center_y - s / 2)

    def _paint(self) -> None:
        if not hasattr(self, "fill"):
            return super()._paint()
        base: Colour = self.fill
        if self.state == "down":
            base = _lit(base, 1.2, 0.1)
        self.background_color = base
        self.color = self.ink
        if self.disabled:
            self.color = (self.ink[0], self.ink[1], self.ink[2], 0.4)


def spacer(height: float = 8) -> Widget:
    return Widget(size_hint_y=None, height=px(height))


BAR = (0.7, 0.7, 0.7, 0.45)  # a scroll bar, always this colour: visible before anyone scrolls


def _buttons_in(widget):
    """Every button inside ``widget`` (not itself), depth first."""
    for child in widget.children:
        if isinstance(child, Button):
            yield child
        else:
            yield from _buttons_in(child)


def _leaves(widget):
    """Every widget inside ``widget`` that holds no others (not itself), depth first."""
    for child in widget.children:
        if child.children:
            yield from _leaves(child)
        else:
            yield child


def _put_back(parent, child) -> None:
    """Put ``child``'s canvas back into ``parent``'s, where ``add_widget`` had it: before
    the canvas of the nearest later-drawn sibling still there, else at the end."""
    canvas = parent.canvas
    later = parent.children[:parent.children.index(child)]  # drawn after it (Kivy draws the list from its end)
    for sibling in reversed(later):
        at = canvas.indexof(sibling.canvas)
        if at >= 0:
            canvas.insert(at, child.canvas)
            return
    canvas.add(child.canvas)


class Scroll(ScrollView):
    """A vertical scroll area with a bar of ``bar`` px (at scale 1).

    Three changes to Kivy 2.3's ScrollView, all for a kiosk that runs all day:

    * It binds its bar colour with ``fbind`` on every scroll update but unbinds
      it only once, half a second later. Layout runs several updates per
      change, so every accepted action left callbacks behind for good (about
      400 a game). Dropping the earlier binding first keeps exactly one.
    * It clips with a stencil mask, drawn twice a frame over its whole area; a
      scissor box clips the same upright rectangle without drawing anything.
    * Its bar lights up on every update, content growing included, and half a
      second later fades out over another half second. So every accepted
      action was followed by some 40 redraws of the whole window, the device
      busy for 0.6 s with nothing new to show. The bar here keeps one colour
      (``BAR``), which also tells players there is more to see before they
      touch it.

    And one for the table: it never shows part of a button. A button the
    view's edge would cut (the face buttons under a tray hint, an "Also possible
    now" row) is left out of the clip whole, so the row reads as "more below"
    and nobody presses the half they see; a touch there scrolls, never presses.
    """

    _shown_for: tuple[float, ...] | None = None
    """The view's place, scroll and content that ``_shown`` was worked out for."""
    _shown: tuple[float, float, float, float] = (0, 0, 0, 0)

    culls = True
    """Whether widgets wholly out of view are left out of the drawing (``_cull``)."""
    CULL_MARGIN = 4
    """How far (px at scale 1) past the shown band a widget must lie to be left out: room
    for a drawing that reaches a little past its own box."""

    def __init__(self, bar: float = 6, **kw) -> None:
        kw.setdefault("do_scroll_x", False)
        kw.setdefault("bar_color", BAR)
        kw.setdefault("bar_inactive_color", kw["bar_color"])
        super().__init__(bar_width=px(bar), **kw)
        self._clip_with_scissor()
        with self.canvas.after:  # after the clip: "More below" written in the band left out of it
            self._more_colour = Color(*DIM[:3], 0)
            self._more = Rectangle(size=(0, 0))

    def _clip_with_scissor(self) -> None:
        """Clip with a scissor box instead of Kivy's stencil mask.

        The stencil costs two fills of the view's area every frame; for an
        upright rectangle a scissor box clips the same pixels for nothing. The
        box is placed in window pixels at draw time, so it follows the view
        wherever its parents move it.
        """
        before, after = self.canvas.before, self.canvas.after
        before.clear()  # StencilPush, its mask, StencilUse: nothing else is drawn before
        with before:
            Callback(self._place_clip)
            self._clip = ScissorPush(x=0, y=0, width=1, height=1)
        # canvas.after starts with StencilUnUse, its mask and StencilPop; the scroll bars follow
        children = after.children
        first = next(n for n, i in enumerate(children) if isinstance(i, StencilUnUse))
        last = next(n for n, i in enumerate(children) if isinstance(i, StencilPop))
        for instruction in [i for i in children[first:last + 1] if not isinstance(i, BindTexture)]:
            after.remove(instruction)  # a Rectangle takes its BindTexture with it
        after.insert(first, ScissorPop())

    def shown_rect(self) -> tuple[float, float, float, float]:
        """What the view shows, in window pixels (x0, y0, x1, y1): its own box, less the
        buttons its top or bottom edge would cut in two (see the class's docstring)."""
        x0, y0 = self.to_window(self.x, self.y)
        x1, y1 = x0 + self.width, y0 + self.height
        content = self.children[0] if self.children else None
        key = (x0, y0, self.width, self.height, self.scroll_y, content.height if content else 0,
               len(content.children) if content else 0)
        if self._shown_for == key:
            return self._shown
        bottom, top = y0, y1
        if content is not None and content.height > self.height:
            for w in _buttons_in(content):
                if w.height >= self.height or w.width < 2:
                    continue
                _, b = w.to_window(w.x, w.y)
                t = b + w.height
                if b < y0 - 1 and t > y0 + 1:  # cut by the bottom edge
                    bottom = max(bottom, min(t, y1))
                if b < y1 - 1 and t > y1 + 1:  # cut by the top edge
                    top = min(top, max(b, y0))
            bottom = max(bottom, self._room_for_more(content, y0, bottom, y1))
        self._shown_for, self._shown = key, (x0, bottom, x1, max(bottom, top))
        return self._shown

    def simulate_touch_down(self, touch):
        """A touch on the band left out of the clip scrolls the view but presses nothing under it."""
        x0, y0, x1, y1 = self.shown_rect()
        _, wy = self.to_window(*touch.pos)
        if not y0 <= wy <= y1:
            return False
        return super().simulate_touch_down(touch)

    def _room_for_more(self, content, y0: float, bottom: float, y1: float) -> float:
        """Where the clip's foot goes so that "More below" can be written under it when more
        lies below and nothing was cut to leave room (a heading "Also possible now:" on the
        last line, its buttons all under the edge): ``bottom`` as it was, or higher by the
        words' height with the lines of text that band would cut left out whole. Only text
        makes way: if a button shown whole or a drawing sits in the band, no room is made (a
        button the view's edge cuts is left out whole already)."""
        _, foot = content.to_window(content.x, content.y)
        band = self._more_texture().height + 4
        if foot >= y0 - 1 or bottom - y0 >= band:
            return bottom
        leaves = [(w, *w.to_window(w.x, w.y)) for w in _leaves(content) if w.height >= 1]
        edge, grown = y0 + band, True
        while grown:  # a line left out raises the edge, which may then reach the line above it
            grown = False
            for w, _, b in leaves:
                t = b + w.height
                if t <= y0 + 1 or b >= edge - 1:
                    continue  # wholly below the view, or above the band
                if isinstance(w, Button):
                    if b >= y0 - 1:
                        return bottom  # a button shown whole now would be cut: no room made
                elif isinstance(w, Label) and w.height < self.height:
                    if min(t, y1) > edge:
                        edge, grown = min(t, y1), True  # a line of text the band would cut goes whole
                else:
                    return bottom  # a drawing (a die, a card) would lose more of itself: no room made
        return edge

    def _more_texture(self):
        """The words "More below: scroll", rendered once per view."""
        from kivy.core.text import Label as CoreLabel

        texture = self.__dict__.get("_more_words")
        if texture is None:
            core = CoreLabel(text="More below: scroll", font_size=font(LEAST), italic=True)
            core.refresh()
            texture = self.__dict__["_more_words"] = core.texture
        return texture

    def _show_more(self, band: float, wx: float, wy: float) -> None:
        """Write "More below" in a band of ``band`` px left out of the clip at the view's foot."""
        texture = self._more_texture()
        shown = band >= texture.height + 2
        self._more_colour.a = 1 if shown else 0
        if shown:
            w, h = texture.size
            self._more.texture = texture
            self._more.size = (w, h)
            self._more.pos = (int(self.x + (self.width - w) / 2), int(self.y + (band - h) / 2))

    def _place_clip(self, *_) -> None:
        x0, y0, x1, y1 = self.shown_rect()
        wx, wy = self.to_window(self.x, self.y)
        self._show_more(y0 - wy, wx, wy)
        if self.culls:
            ty = self.g_translate.y  # the content's origin, in the view's parent's coordinates
            self._cull(self.y + y0 - wy - ty, self.y + y1 - wy - ty)
        box = (int(round(x0)), int(round(y0)), int(round(x1 - x0)), int(round(y1 - y0)))
        clip = self._clip
        if (clip.x, clip.y, clip.width, clip.height) != box:
            clip.x, clip.y, clip.width, clip.height = box

    def _cull(self, lo: float, hi: float) -> None:
        """Leave out of this frame's drawing every widget of the content wholly outside the
        shown band (``lo`` to ``hi``, in the content's coordinates), and put back those that
        came into it. Run at draw time, so it follows every scroll and layout.

        Kivy walks and draws every instruction under the view each frame, clipped away or
        not: the Hell for Leather panel's team lines, some 800 px under its fold, were about
        half the landing screen's instructions. A widget left out keeps its place, its
        touches and its layout; only its canvas is out of its parent's until it is back in
        view. A layout across the band's edge is looked into, one level at a time."""
        culled = self.__dict__.setdefault("_culled", {})
        content = self._viewport
        if self.__dict__.get("_culled_in") is not content:  # new content (another game's panel)
            for parent, child in culled.values():
                if child.parent is parent and parent.canvas.indexof(child.canvas) < 0:
                    _put_back(parent, child)  # the old content whole again, should it come back
            culled.clear()  # and none of it kept alive from here
            self._culled_in = content
        margin = px(self.CULL_MARGIN)
        lo, hi = lo - margin, hi + margin
        for key, (parent, child) in list(culled.items()):
            if child.parent is not parent or parent.canvas.indexof(child.canvas) >= 0:
                del culled[key]  # moved, or put back by its parent (``add_widget``): not ours now
            elif child.top >= lo and child.y <= hi or content is None or content.height <= self.height:
                del culled[key]
                _put_back(parent, child)
        if content is None or content.height <= self.height:
            return
        stack = [content]
        while stack:
            parent = stack.pop()
            for child in parent.children:
                if child.top < lo or child.y > hi:
                    if id(child) not in culled and parent.canvas.indexof(child.canvas) >= 0:
                        parent.canvas.remove(child.canvas)
                        culled[id(child)] = (parent, child)
                elif (child.y < lo or child.top > hi) and child.children and isinstance(child, Layout) \
                        and not isinstance(child, (RelativeLayout, ScrollView)):
                    stack.append(child)  # across an edge: its own children may be out of view

    def update_from_scroll(self, *args) -> None:
        self.funbind("bar_color", self._change_bar_color)
        super().update_from_scroll(*args)

    def _bind_inactive_bar_color(self, *_) -> None:
        """No fade: the bar already has its one colour (Kivy animates to the inactive colour here)."""


class ScrollList(RecycleView, Scroll):
    """A ``Scroll`` of rows alike, of which only those in view are made (Kivy's RecycleView):
    the rows are ``viewclass`` widgets, given each item of ``data`` (a dict of attributes) as
    they scroll into view and reused as others scroll out. A list that grows all day (Home's
    paused games at a convention) then costs the same few widgets and text textures at any
    length, where a row each cost about 0.25 MB and 1 ms on every way Home (docs/kiosk.md,
    issue 33, tenth pass)."""

    culls = False  # the rows out of view are not made at all

    def __init__(self, row_height: float, viewclass: type, spacing: float = 0, **kw) -> None:
        super().__init__(**kw)
        rows = RecycleBoxLayout(orientation="vertical", size_hint_y=None, spacing=spacing,
                                default_size=(None, row_height), default_size_hint=(1, None))
        rows.bind(minimum_height=rows.setter("height"))
        self.add_widget(rows)
        self.viewclass = viewclass  # after the rows' layout: the view class is kept there


class AtOnce(NoTransition):
    """Kivy's NoTransition, except that a change cut short still finishes.

    A change of screen completes on the next clock tick. Kivy stops one cut short
    (the next change in the same frame, or the kiosk stopping) without telling the
    screen left that it has left, so whatever it let go of in ``on_leave`` (a ticker,
    the pads it captured, the setup's pins, the bench's walk) it kept for good.
    Here a change cut short is completed as its tick would have: the screen in
    enters, the screen out leaves, each once.
    """

    def stop(self) -> None:
        cut_short = self.is_active
        screen_in, screen_out = self.screen_in, self.screen_out  # an on_enter may start the next change
        super().stop()  # Kivy's: the change is over, and neither screen told
        if cut_short:
            screen_in.dispatch("on_enter")
            screen_out.dispatch("on_leave")


class Screens(ScreenManager):
    """The kiosk's screens, switched at once (no sliding transition).

    Kivy's ScreenManager draws a stencil mask over its whole area twice every
    frame, only to clip sliding transitions. With none, the mask is pure cost:
    two full-window fills, which the software renderer pays on every frame
    (about 2 ms of each flip at 800x480).
    """

    def __init__(self, **kw) -> None:
        super().__init__(transition=AtOnce(), **kw)
        self.closed = False  # the kiosk stopped: the screen on show has left (once)
        self.canvas.before.clear()
        self.canvas.after.clear()

    def settle(self) -> None:
        """Complete a change of screen under way now, as the next tick would."""
        self.transition.stop()

    def leave_now(self, screen) -> None:
        """``screen`` lets go of what it holds now, before the change away from it is made
        (the hardware setup's pins must close before the kiosk opens its own). A change to it
        still under way completes first (two taps in one frame can open it and leave it), so
        it does not enter after this. Its ``on_leave`` runs again when the change away
        completes: it must do nothing the second time."""
        self.settle()
        screen.dispatch("on_leave")

    def close(self) -> None:
        """The kiosk stops: a change under way completes, then the screen on show leaves,
        letting go of what it holds as on any other leave."""
        self.settle()
        shown, self.closed = (None if self.closed else self.current_screen), True
        if shown is not None:
            shown.dispatch("on_pre_leave")
            shown.dispatch("on_leave")
