"""Game objects drawn with Kivy canvas instructions: cards, dice, the Heat tower, chips.

Nothing here is a downloaded picture. Every object is a small widget with a
``show(...)`` method; it draws itself inside whatever box layout gives it, so
the same object works at 800x480 and at 1280x720. Text drawn on an object is a
texture rendered once per (text, size, font) and reused (``_texture``), so a
panel that draws the same cards again costs no new text rendering.

Colour is never the only sign: a card says its colour in a word and carries
its shape; a d10 says its zone; a status band says its name.

Suit symbols: Kivy's default font (Roboto) has no suit glyphs and draws a box
for them. Kivy ships DejaVu Sans, which has all four; ``SYMBOLS`` is that font
registered under one name, used for every suit on screen (``suit_markup`` for
text inside a label).
"""

from __future__ import annotations

import functools
import math
import os
import re
from typing import Any, Callable

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.core.text import LabelBase
from kivy.graphics import Callback, Canvas, ClearBuffers, ClearColor, Color, Ellipse, Fbo, Line, Mesh, PopMatrix, PushMatrix, \
    Rectangle, Rotate, RoundedRectangle, Translate, Triangle
from kivy.graphics import opengl as gl
from kivy.graphics.texture import Texture
from kivy.properties import NumericProperty
from kivy.uix.widget import Widget

from . import theme

SYMBOLS = "TableSymbols"
"""The font every suit symbol is drawn in (DejaVu Sans, shipped with Kivy)."""


def symbols_font_path() -> str:
    from kivy import kivy_data_dir

    return os.path.join(kivy_data_dir, "fonts", "DejaVuSans.ttf")


def register_fonts() -> None:
    """Register ``SYMBOLS`` once; safe to call again."""
    if SYMBOLS not in LabelBase._fonts:
        LabelBase.register(name=SYMBOLS, fn_regular=symbols_font_path())


register_fonts()

SUIT_GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "♠": "♠", "♥": "♥", "♦": "♦", "♣": "♣"}
SUIT_WORDS = {"♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs"}
RED_SUITS = {"♥", "♦"}
CARD_RED = (0.78, 0.10, 0.12, 1)
CARD_BLACK = (0.08, 0.08, 0.10, 1)
CARD_WHITE = (0.97, 0.96, 0.92, 1)
CARD_BACK = (0.45, 0.09, 0.11, 1)
DIE_IVORY = (0.93, 0.90, 0.82, 1)
PIP = (0.10, 0.10, 0.12, 1)


def suit_glyph(suit: str) -> str:
    return SUIT_GLYPHS.get(suit, suit)


def suit_colour(suit: str) -> tuple:
    return CARD_RED if suit_glyph(suit) in RED_SUITS else CARD_BLACK


def suit_markup(suit: str, light: bool = True) -> str:
    """A suit symbol for a markup label, in the symbols font and the suit's colour.

    ``light``: the label stands on the dark table, so black suits are drawn in ink."""
    glyph = suit_glyph(suit)
    if glyph in RED_SUITS:
        colour = "ff6b5e" if light else "c81a1f"
    else:
        colour = "ede8dc" if light else "141419"
    return f"[font={SYMBOLS}][color={colour}]{glyph}[/color][/font]"


def split_card(card: str) -> tuple[str, str]:
    """'10♥' -> ('10', '♥'); the suit is always the last character."""
    return card[:-1], suit_glyph(card[-1])


def has_glyph(char: str, font_name: str) -> bool:
    """Whether ``font_name`` draws ``char`` itself rather than its missing-glyph box.

    A font draws every character it lacks as the same box (.notdef), so the
    character is rendered next to one no font has, and the pixels compared."""
    def pixels(text: str) -> bytes:
        label = CoreLabel(text=text, font_name=font_name, font_size=40)
        label.refresh()
        return bytes(label.texture.pixels)

    return pixels(char) != pixels("\U0010fffd")


_TEXTURES: dict[tuple, Any] = {}
"""Every text drawn so far, by (text, size, bold, font): its place on a ``WordSheet``, or a
texture of its own for a text too big for one."""


class _Caught:
    """Stands in for a label's texture to take the pixels the label would copy into it."""

    data: Any = None

    def blit_data(self, data: Any) -> None:
        self.data = data


def _text_pixels(text: str, size: float, bold: bool, font_name: str | None):
    """The pixels of one text (Kivy ``ImageData``, rows from the top), or None for an empty one."""
    # A float, as labels give theirs (``theme.font``): Kivy keeps one open font per size
    # as written, so 16 and 16.0 were the same font opened twice (issue 33, sixth pass).
    options: dict[str, Any] = {"text": text, "font_size": float(int(size)), "bold": bold}
    if font_name:
        options["font_name"] = font_name
    label = CoreLabel(**options)
    # What ``label.refresh()`` does, but keeping the pixels: it makes a texture that renders
    # the text on its first use, in whichever frame first draws it (so a text "rendered
    # ahead" was rendered in the frame that showed it after all).
    label.resolve_font_name()
    width, height = label.render()
    if width <= 1 or height <= 1:
        return None
    label._size = (width, height)
    label.texture = caught = _Caught()
    label.render(real=True)
    return caught.data


class WordSheet:
    """One texture holding many drawn texts, each shown through a region of it.

    The kiosk's software renderer pays for every change of texture within a frame: a dice
    row with a texture per word changed texture at every word (docs/kiosk.md, "Event to
    screen, fourteenth pass"). Texts are packed in rows, left to right, ``GAP`` transparent
    pixels apart so a word drawn shrunk takes nothing from its neighbours. A full sheet is
    never written over, since canvases may still show its words: the next text starts a new
    sheet, and past ``SHEETS_KEPT`` the oldest sheet's texts are forgotten (it goes once
    nothing shows it; the newer sheets' texts, those rendered ahead among them, are kept).
    Should the GL context be lost, the sheet renders its texts again where they were."""

    SIDE = 1024
    HIGH = 512
    """A sheet's width and height: 2 MB, some 150 words of the dice row and the results."""
    GAP = 2
    TALLEST = 160
    """A text taller than this, or wider than the sheet, keeps a texture of its own (the fall's
    big count): a row is as tall as its tallest text, and a sheet of a few tall rows is soon full."""

    def __init__(self) -> None:
        self.texture = Texture.create(size=(self.SIDE, self.HIGH), colorfmt="rgba")
        self.placed: list[tuple[tuple, int, int]] = []  # (text, size, bold, font), x, y
        # A function, not a method: Kivy holds a method's object only weakly, and the texture
        # outlives the sheet while canvases still show its words.
        self.texture.add_reload_observer(functools.partial(_draw_texts_again, self.placed))
        self.x = self.y = self.row = 0
        _blank(self.texture)

    @classmethod
    def fits(cls, width: int, height: int) -> bool:
        return width <= cls.SIDE - cls.GAP and height <= cls.TALLEST

    def add(self, key: tuple, data: Any):
        """``data``'s pixels on the sheet, as a region to draw with; None if the sheet is full."""
        w, h, gap = data.width, data.height, self.GAP
        if self.x + w + gap > self.SIDE:  # a new row
            self.x, self.y, self.row = 0, self.y + self.row, 0
        if self.y + h + gap > self.HIGH:
            return None
        x, y = self.x + gap, self.y + gap
        self.texture.blit_buffer(data.data, size=(w, h), colorfmt=data.fmt, pos=(x, y), bufferfmt="ubyte")
        self.x, self.row = x + w, max(self.row, h + gap)
        self.placed.append((key, x, y))
        region = self.texture.get_region(x, y, w, h)
        region.flip_vertical()  # the rows come top first
        return region


def _blank(texture: Texture) -> None:
    texture.blit_buffer(bytes(texture.width * texture.height * 4), colorfmt="rgba", bufferfmt="ubyte")


def _draw_texts_again(placed: list[tuple[tuple, int, int]], texture: Texture) -> None:
    """A sheet's texture after the GL context was lost: its texts rendered again where they were."""
    _blank(texture)
    for key, x, y in placed:
        data = _text_pixels(*key)
        if data is not None:
            texture.blit_buffer(data.data, size=(data.width, data.height), colorfmt=data.fmt, pos=(x, y),
                                bufferfmt="ubyte")


_SHEETS: list[WordSheet] = []
"""The sheets ``_TEXTURES`` draws from, the one new texts go on last (made on first use: a
sheet needs the window's GL context)."""
SHEETS_KEPT = 2
"""How many sheets the kept texts may span; a new one past it forgets the oldest one's texts."""


def _texture(text: str, size: float, bold: bool = False, font_name: str | None = None):
    """A white text texture (tinted by the Color before it), rendered once per text and size,
    on the shared ``WordSheet`` where it fits."""
    key = (text, int(size), bold, font_name)
    texture = _TEXTURES.get(key)
    if texture is not None:
        return texture
    if len(_TEXTURES) > 400:
        _forget_oldest()
    data = _text_pixels(*key)
    if data is None:
        texture = CoreLabel(text="").texture_1px  # nothing to draw, as Kivy's label gives it
    elif not WordSheet.fits(data.width, data.height):
        texture = Texture.create(size=(data.width, data.height), colorfmt=data.fmt)
        texture.flip_vertical()
        texture.blit_data(data)
        texture.add_reload_observer(lambda lost: lost.blit_data(_text_pixels(*key)))  # the GL context was lost
    else:
        texture = _SHEETS[-1].add(key, data) if _SHEETS else None
        if texture is None:  # no sheet yet, or it is full: the next one
            if len(_SHEETS) >= SHEETS_KEPT:
                _forget_oldest()
            _SHEETS.append(WordSheet())
            texture = _SHEETS[-1].add(key, data)
    _TEXTURES[key] = texture
    return texture


def _forget_oldest() -> None:
    """Forget the texts on the oldest sheet (a text rendered a moment ago, ahead of a landing,
    is on the newest and stays), or every text when there is one sheet or none."""
    if len(_SHEETS) < 2:
        _forget_texts()
        return
    oldest = _SHEETS.pop(0)
    for key, _, _ in oldest.placed:
        kept = _TEXTURES.get(key)
        if kept is not None and kept.id == oldest.texture.id:  # not drawn again since, on a newer sheet
            del _TEXTURES[key]


def _forget_texts() -> None:
    """Forget every kept text: each sheet and texture goes once no canvas shows it."""
    _TEXTURES.clear()
    _SHEETS.clear()


_AHEAD: list[tuple[str, float, bool]] = []
"""Texts waiting to be rendered ahead (``render_ahead``), the next one last."""


def render_ahead(texts: list[tuple[str, float, bool]]) -> None:
    """Render these (text, size, bold) textures in the frames to come, one per frame, so the
    frame that first shows one of them only draws it (a landing's words: kiosk.ui.results).
    A text already rendered, or already waiting, costs a look-up."""
    waiting = set(_AHEAD)
    fresh = [t for t in texts if t[0] and t[1] >= 4 and (t[0], int(t[1]), t[2], None) not in _TEXTURES
             and t not in waiting]
    if not fresh:
        return
    if not _AHEAD:
        Clock.schedule_once(_render_next, NEXT_FRAME)  # not on this frame: it is busy showing a change
    _AHEAD[:0] = reversed(fresh)


NEXT_FRAME = 1e-3
"""A timeout that waits for the next frame. Kivy runs a callback scheduled with 0 from inside
another (a hardware event is handled in one) in the same frame, up to 10 deep; a positive
timeout is measured from the frame's start, so it is due in the next one at the earliest."""


def _render_next(_dt: float) -> None:
    while _AHEAD:
        text, size, bold = _AHEAD.pop()
        if (text, int(size), bold, None) not in _TEXTURES:
            _texture(text, size, bold)
            break
    if _AHEAD:
        Clock.schedule_once(_render_next, NEXT_FRAME)


def draw_text(text: str, cx: float, cy: float, size: float, colour, bold: bool = False,
              font_name: str | None = None, room: float | None = None) -> None:
    """Text centred on (cx, cy), into the canvas being built; shrunk to ``room`` wide if it is wider."""
    if not text or size < 4:
        return
    tex = _texture(text, size, bold, font_name)
    k = min(1.0, room / tex.width) if room and tex.width else 1.0
    w, h = tex.width * k, tex.height * k
    Color(*colour)
    Rectangle(texture=tex, size=(w, h), pos=(int(cx - w / 2), int(cy - h / 2)))


def paper_shadow(x: float, y: float, w: float, h: float) -> None:
    """The shadow of a w x h sheet whose paper lies at (x, y + 2): the shadow is the same
    sheet moved 2 px right and down, but only the two strips the opaque paper leaves
    uncovered are filled. Every pixel of the shadow under the paper was painted again by
    the paper, and a software renderer pays for each one on every frame (about a quarter
    of the Even/Odd papers' drawing time)."""
    Color(0.02, 0.02, 0.02, 0.45)
    Rectangle(pos=(x + w, y), size=(2, h))  # right of the paper
    Rectangle(pos=(x + 2, y), size=(w - 2, 2))  # below the paper


def fit_card(widget: Widget, aspect: float = 5 / 7) -> tuple[float, float, float, float]:
    """The biggest card of ``aspect`` (width / height) centred in the widget: x, y, w, h."""
    h = min(widget.height, widget.width / aspect)
    w = h * aspect
    return widget.center_x - w / 2, widget.center_y - h / 2, w, h


def draw_card(x: float, y: float, w: float, h: float, fill, edge=None, edge_width: float = 1.3) -> float:
    """A card face up: its shadow, its face in ``fill`` and its edge (brass unless ``edge``
    is given). Returns the corner radius, for what is drawn on it."""
    r = max(2.0, w * 0.08)
    Color(0.02, 0.02, 0.02, 0.5)
    RoundedRectangle(pos=(x + 2, y - 2), size=(w, h), radius=[r])
    Color(*fill)
    RoundedRectangle(pos=(x, y), size=(w, h), radius=[r])
    Color(*(edge or theme.ACCENT))
    Line(rounded_rectangle=(x, y, w, h, r), width=edge_width)
    return r


def draw_back(x: float, y: float, w: float, h: float) -> None:
    """A face-down card: a deep red back with a brass frame and a diamond lattice."""
    r = max(2.0, w * 0.08)
    Color(0.02, 0.02, 0.02, 0.5)
    RoundedRectangle(pos=(x + 2, y - 2), size=(w, h), radius=[r])
    Color(*CARD_WHITE)
    RoundedRectangle(pos=(x, y), size=(w, h), radius=[r])
    m = w * 0.07
    Color(*CARD_BACK)
    RoundedRectangle(pos=(x + m, y + m), size=(w - 2 * m, h - 2 * m), radius=[r * 0.6])
    Color(*theme.ACCENT[:3], 0.55)
    step = max(6.0, w / 5)
    ix, iy, iw, ih = x + m, y + m, w - 2 * m, h - 2 * m
    k = -ih
    while k < iw:  # diagonal lattice, clipped by hand to the inner box
        pts = _clip_diag(ix, iy, iw, ih, k, +1)
        if pts:
            Line(points=pts, width=1)
        pts = _clip_diag(ix, iy, iw, ih, k + ih, -1)
        if pts:
            Line(points=pts, width=1)
        k += step
    # The frame in the same brass, mixed with the back by hand: Kivy draws a line wider than
    # 1 px in a colour that is not opaque through the stencil buffer (a stencil push and a
    # second pass on every frame), and adds those instructions to whichever canvas is open
    # when it first draws, which put them outside a card kept as a picture.
    Color(*(0.55 * a + 0.45 * b for a, b in zip(theme.ACCENT[:3], CARD_BACK[:3])), 1)
    Line(rounded_rectangle=(ix + 2, iy + 2, iw - 4, ih - 4, r * 0.5), width=1.2)


def _clip_diag(x: float, y: float, w: float, h: float, k: float, slope: int) -> list[float]:
    """The part of the line u -> (u + k, slope * u) inside the box, in window coordinates."""
    # points (x + k + t, y + t) for slope +1, (x + k - t, y + t) for slope -1, t in [0, h]
    lo, hi = 0.0, h
    if slope > 0:
        lo, hi = max(lo, -k), min(hi, w - k)
        if lo >= hi:
            return []
        return [x + k + lo, y + lo, x + k + hi, y + hi]
    lo, hi = max(lo, k - w), min(hi, k)
    if lo >= hi:
        return []
    return [x + k - lo, y + lo, x + k - hi, y + hi]


def _premultiplied(*_) -> None:
    """Blend a picture drawn into an ``Fbo`` as it is: Kivy's blending left each of its colours
    already multiplied by how much it covers (a shadow's 45 %, a letter's soft edge), and
    multiplying again would darken those pixels."""
    gl.glBlendFuncSeparate(gl.GL_ONE, gl.GL_ONE_MINUS_SRC_ALPHA, gl.GL_ONE, gl.GL_ONE)


def _kivys_blending(*_) -> None:
    """Kivy's own blending again (``glBlendFuncSeparate(SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ONE, ONE)``)."""
    gl.glBlendFuncSeparate(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA, gl.GL_ONE, gl.GL_ONE)


_EASELS: list[Fbo] = []
"""The Kivy ``Fbo``s pictures are drawn in (``easel``): one, and one more for each picture drawn
inside the drawing of another."""
_IN_USE = [0]  # how many pictures are being drawn right now, one inside the other


def easel(size: tuple[int, int], depth: int = 0) -> Fbo:
    """The ``Fbo`` pictures are drawn in, at ``size``. One for all of them: each ``Fbo`` is a GL
    program of its own, compiled and linked when it is made and, on the kiosk's software
    renderer, compiled again to machine code the first time it draws. With an ``Fbo`` per
    picture a convention day made one every 20-30 actions (a pot's colour bar or a stack of
    papers changes size with play), and the driver's memory rose and fell by several MB with
    those links (docs/kiosk.md, issue 33, ninth pass). Resizing keeps the program. A picture
    drawn while another is being drawn gets the next one (``depth``)."""
    while len(_EASELS) <= depth:
        _EASELS.append(Fbo(size=size, noadd=True))  # made in a canvas's ``with``, yet kept out of it
    fbo = _EASELS[depth]
    if tuple(fbo.size) != size:
        fbo.size = size
    return fbo


class Picture:
    """A drawing kept as a texture and shown as one rectangle: a software renderer fills one
    textured rectangle faster than the shapes it shows, and pays for the shapes once, when
    the picture is drawn, instead of on every frame.

    The picture is drawn at the same place within a pixel as on the window, so it is the
    same pixels, with ``margin`` pixels around the box for shadows that reach over its edge,
    and blended as premultiplied colour (a picture blended the usual way came out darker at
    every soft edge and shadow). It is drawn in the shared ``easel`` and its pixels copied
    into a texture of its own, which the canvas shows. ``lost`` is called should the GL
    context be lost (the texture is gone)."""

    def __init__(self, margin: int = 2, lost: Callable[[], Any] | None = None) -> None:
        self.margin = margin
        self.lost = lost
        self.texture: Texture | None = None
        self.drawn: tuple | None = None  # what the texture holds: its place within a pixel, size and key

    def render(self, draw: Callable[[], Any], x: float, y: float, w: float, h: float, key: Any = None) -> bool:
        """Draw the picture of ``draw`` for the box (x, y, w, h), unless it holds that already:
        ``draw`` is called again only if the box or ``key`` changed since the last picture;
        without a key it always is. Returns whether there is anything to show."""
        m = self.margin
        x0, y0 = math.floor(x) - m, math.floor(y) - m
        size = (math.ceil(x + w) + m - x0, math.ceil(y + h) + m - y0)
        drawn = (x0, y0, x - x0, y - y0, size, key)
        if key is not None and drawn == self.drawn:
            return True
        fbo = easel(size, _IN_USE[0])
        fbo.clear()
        with fbo:
            ClearColor(0, 0, 0, 0)
            ClearBuffers()
            Translate(-x0, -y0)
        before = len(fbo.children)
        _IN_USE[0] += 1
        try:
            with fbo:
                draw()
        finally:
            _IN_USE[0] -= 1
        if len(fbo.children) == before:
            fbo.clear()
            self.drawn = None
            return False  # nothing to show: not even a transparent picture to fill on every frame
        fbo.draw()
        texture = self.texture
        if texture is None or tuple(texture.size) != size:
            texture = self.texture = Texture.create(size=size, colorfmt="rgba")
            texture.mag_filter = texture.min_filter = "nearest"
            texture.add_reload_observer(self._lost)
        texture.blit_buffer(fbo.pixels, colorfmt="rgba", bufferfmt="ubyte")
        fbo.clear()  # the easel keeps no drawing (its canvas holds what ``draw`` made)
        self.drawn = drawn
        return True

    def show(self, draw: Callable[[], Any], x: float, y: float, w: float, h: float, key: Any = None) -> bool:
        """``render``, then add the picture to the canvas being built. Returns whether anything is shown."""
        if not self.render(draw, x, y, w, h, key) or self.texture is None or self.drawn is None:
            return False
        x0, y0 = self.drawn[:2]
        Color(1, 1, 1, 1)
        Callback(_premultiplied)
        Rectangle(texture=self.texture, pos=(x0, y0), size=self.texture.size)
        Callback(_kivys_blending)
        return True

    def _lost(self, *_) -> None:
        self.drawn = None
        if self.lost is not None:
            self.lost()


class Drawn(Widget):
    """A widget that draws itself from what ``show`` was last given, again when it resizes.

    A move is not a redraw: the drawing stays as it was made and a translation carries it
    to the new place. A panel's objects move whenever a line above them changes height, and
    building their instructions again on every move cost about half a millisecond of each
    die landing or wager lock (benchmarks/kiosk_latency.py)."""

    cached = False
    """Draw into a texture of its own (a Kivy ``Fbo``) when it changes, and show that as one
    rectangle. The window is drawn again on every frame, through a software renderer on the
    kiosk, and a drawing of many shapes costs more to fill each frame than one picture of it
    (set per class where measured: benchmarks/kiosk_latency.py)."""

    MARGIN = 2
    """Room around the widget's box in its texture, for shadows that reach over its edge."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        with self.canvas.before:
            PushMatrix()
            self._shift = Translate(0, 0)
        with self.canvas.after:
            PopMatrix()
        self._drawn_at = (0.0, 0.0)
        self._picture: Picture | None = None
        self.fbind("pos", self._moved)
        self.fbind("size", self._redraw)

    live = False
    """Drawn shape by shape for now even if ``cached``: while an animation scales it (a card
    turning over), when a picture's pixels would be stretched. Set with ``draw_live``."""

    def as_picture(self) -> bool:
        """Whether to draw into the texture now (``cached``, unless a subclass says otherwise)."""
        return self.cached and not self.live

    def draw_live(self, live: bool) -> None:
        if live != self.live:
            self.live = live
            self._redraw()

    def _moved(self, *_) -> None:
        dx, dy = self.x - self._drawn_at[0], self.y - self._drawn_at[1]
        if self._picture is not None and self.as_picture() and (dx % 1 or dy % 1):
            self._redraw()  # a picture moved by part of a pixel would be resampled: drawn again instead
            return
        self._shift.xy = (dx, dy)

    def _clear(self) -> None:
        """Empty the canvas for a drawing made at the widget's place now (no shift to carry it)."""
        self.canvas.clear()
        self._drawn_at = (self.x, self.y)
        self._shift.xy = (0, 0)

    def _redraw(self, *_) -> None:
        self._clear()
        if self.width < 4 or self.height < 4:
            return
        for alias in ("right", "top", "center_x", "center_y"):
            # while "size" is being dispatched these may still hold the old height or width: a card
            # drawn then sat 50 px low, over the text under it (issue 30)
            self.property(alias).trigger_change(self, None)
        if self.as_picture():
            self._draw_cached()
        else:
            with self.canvas:
                self.draw()

    def _draw_cached(self) -> None:
        """``draw`` into the widget's texture (``Picture``), then that texture onto the canvas.
        Should the GL context be lost, the texture is drawn again."""
        if self._picture is None:
            self._picture = Picture(self.MARGIN, lost=lambda: Clock.schedule_once(self._redraw))
        with self.canvas:
            self._picture.show(self.draw, self.x, self.y, self.width, self.height)

    def draw(self) -> None:
        raise NotImplementedError


class PlayingCard(Drawn):
    """A playing card: white, rounded, the rank and suit in two corners and a big suit
    in the middle; hearts and diamonds red, spades and clubs black. ``show(None, None)``
    or ``face_up=False`` shows its back."""

    cached = True  # a card changes when it is dealt or turned; its back's lattice is two dozen lines

    def __init__(self, rank: str | None = None, suit: str | None = None, face_up: bool = True, **kw) -> None:
        self.rank: str | None = rank
        self.suit: str | None = suit
        self.face_up = face_up
        super().__init__(**kw)

    def show(self, rank: str | None, suit: str | None, face_up: bool = True) -> None:
        new = (rank, suit_glyph(suit) if suit else None, face_up and bool(rank))
        if new != (self.rank, self.suit, self.face_up):
            self.rank, self.suit, self.face_up = new
            self._redraw()

    def show_card(self, card: str | None) -> None:
        """Show a card written as the engines write it ('Q♦'); None shows the back."""
        self.show(*(split_card(card) if card else (None, None)))

    @property
    def words(self) -> str:
        """The card in words, for tests and for a caption beside it."""
        if not self.face_up:
            return "face down"
        names = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack"}
        rank, suit = self.rank or "", self.suit or ""
        return f"{names.get(rank, rank)} of {SUIT_WORDS.get(suit, suit)}"

    def draw(self) -> None:
        x, y, w, h = fit_card(self)
        k = 0.96  # room inside the box for the shadow and the lower corner's suit, which reach past the card
        x, y, w, h = x + w * (1 - k) / 2, y + h * (1 - k) / 2, w * k, h * k
        if not self.face_up or not self.rank:
            draw_back(x, y, w, h)
            return
        rank, suit = self.rank, self.suit or ""  # face up: ``show`` keeps a rank for it
        draw_card(x, y, w, h, CARD_WHITE, edge=(0.55, 0.53, 0.48, 1), edge_width=1)
        ink = suit_colour(suit)
        corner = w * 0.2
        for cx, cy in ((x + w * 0.17, y + h * 0.87), (x + w * 0.83, y + h * 0.13)):
            draw_text(rank, cx, cy + corner * 0.35, corner, ink, bold=True, room=w * 0.3)
            draw_text(suit, cx, cy - corner * 0.6, corner * 0.9, ink, font_name=SYMBOLS)
        draw_text(suit, x + w / 2, y + h / 2, w * 0.55, ink, font_name=SYMBOLS)


CHALLENGE = {"black": "square", "white": "circle", "gray": "triangle"}
"""Promise Hollows' challenge cards and their shapes (the pads' shapes too: ``theme.MARKS``)."""


def draw_shape(shape: str, cx: float, cy: float, s: float, fill, outline=None) -> None:
    x, y = cx - s / 2, cy - s / 2
    Color(*fill)
    if shape == "circle":
        Ellipse(pos=(x, y), size=(s, s))
    elif shape == "triangle":
        Triangle(points=[x, y, x + s, y, cx, y + s * 0.9])
    else:
        Rectangle(pos=(x, y), size=(s, s))
    if outline is not None:
        Color(*outline)
        if shape == "circle":
            Line(ellipse=(x, y, s, s), width=1.2)
        elif shape == "triangle":
            Line(points=[x, y, x + s, y, cx, y + s * 0.9], close=True, width=1.2)
        else:
            Line(rectangle=(x, y, s, s), width=1.2)


class ChallengeCard(Drawn):
    """A Promise Hollows card: Black (square), White (circle) or Gray (triangle), its
    colour named under its shape; face down it is a plain back with a question mark.
    ``owner`` (a player's name) is written above it when given."""

    cached = True  # a card changes when it is played or turned; its back's lattice is two dozen lines

    def __init__(self, colour: str | None = None, face_up: bool = True, owner: str = "", **kw) -> None:
        self.colour, self.face_up, self.owner, self.dim = colour, face_up, owner, False
        super().__init__(**kw)

    def show(self, colour: str | None, face_up: bool = True, owner: str | None = None, dim: bool = False) -> None:
        self.colour, self.face_up, self.dim = colour, face_up and bool(colour), dim
        if owner is not None:
            self.owner = owner
        self._redraw()

    def draw(self) -> None:
        room = self.height
        label = px_font(self, 0.16, 14, 22)
        if self.owner:
            room -= label * 1.4
            draw_text(self.owner, self.center_x, self.top - label * 0.7, label, theme.INK, bold=True, room=self.width)
        x, y, w, h = _fit_in(self.x, self.y, self.width, room, 5 / 7)
        if not self.face_up and self.dim:  # no card put down yet: an empty place for it
            Color(*theme.DIM)
            Line(rounded_rectangle=(x + 1, y + 1, w - 2, h - 2, max(2.0, w * 0.08)), width=1.2, dash_length=4,
                 dash_offset=4)
            draw_text("...", x + w / 2, y + h / 2, w * 0.3, theme.DIM, bold=True)
            return
        if not self.face_up:
            draw_back(x, y, w, h)
            draw_text("?", x + w / 2, y + h / 2, w * 0.45, theme.ACCENT, bold=True)
            return
        fill, ink, shape, word = theme.mark_for(self.colour) or (theme.RAISED, theme.INK, "square", str(self.colour))
        r = draw_card(x, y, w, h, fill)
        draw_shape(shape, x + w / 2, y + h * 0.6, w * 0.5, ink)
        draw_text(word, x + w / 2, y + h * 0.2, max(10, w * 0.2), ink, bold=True, room=w * 0.9)
        if self.dim:
            Color(0, 0, 0, 0.55)
            RoundedRectangle(pos=(x, y), size=(w, h), radius=[r])


def _fit_in(x: float, y: float, w: float, h: float, aspect: float) -> tuple[float, float, float, float]:
    hh = min(h, w / aspect)
    ww = hh * aspect
    return x + (w - ww) / 2, y + (h - hh) / 2, ww, hh


def px_font(widget: Widget, share: float, least: float, most: float) -> float:
    """A text size for a drawn object: ``share`` of its height, between ``least`` and ``most`` design px."""
    return max(theme.px(least), min(theme.px(most), widget.height * share))


PIPS = {1: [(0.5, 0.5)], 2: [(0.27, 0.73), (0.73, 0.27)], 3: [(0.27, 0.73), (0.5, 0.5), (0.73, 0.27)],
        4: [(0.27, 0.27), (0.27, 0.73), (0.73, 0.27), (0.73, 0.73)],
        5: [(0.27, 0.27), (0.27, 0.73), (0.5, 0.5), (0.73, 0.27), (0.73, 0.73)],
        6: [(0.27, 0.27), (0.27, 0.5), (0.27, 0.73), (0.73, 0.27), (0.73, 0.5), (0.73, 0.73)]}


def draw_d6(x: float, y: float, s: float, face: int | None = None, body=DIE_IVORY, pip=PIP,
            angle: float = 0.0) -> None:
    """A d6 seen from the front, lower-left corner at (x, y), side ``s``; pips when ``face`` is given."""
    if angle:
        PushMatrix()
        Rotate(angle=angle, origin=(x + s / 2, y + s / 2))
    Color(0.02, 0.02, 0.02, 0.45)
    RoundedRectangle(pos=(x + 1.5, y - 1.5), size=(s, s), radius=[s * 0.16])
    Color(*body)
    RoundedRectangle(pos=(x, y), size=(s, s), radius=[s * 0.16])
    Color(0.30, 0.28, 0.24, 1)
    Line(rounded_rectangle=(x, y, s, s, s * 0.16), width=1)
    if face in PIPS:
        d = s * 0.17
        Color(*pip)
        for u, v in PIPS[face]:
            Ellipse(pos=(x + u * s - d / 2, y + v * s - d / 2), size=(d, d))
    if angle:
        PopMatrix()


def wobble(i: int) -> float:
    """How far die ``i`` of a stack sits off centre, as a share of its side: a hand-built tower."""
    return 0.07 * math.sin(i * 2.3 + 0.7)


HEAT_BANDS = [(3, "Quiet", (0.30, 0.66, 0.38, 1)), (5, "Busy", (0.86, 0.74, 0.25, 1)),
              (7, "Saturated", (0.90, 0.50, 0.16, 1)), (99, "Panic", (0.82, 0.22, 0.20, 1))]
"""The Heat's status by height (the rule text's table): top of each band, name, colour."""


def band_of(height: int) -> tuple[str, tuple]:
    for top, name, colour in HEAT_BANDS:
        if height <= top:
            return name, colour
    return HEAT_BANDS[-1][1], HEAT_BANDS[-1][2]


class HeatTower(Drawn):
    """The Heat stack as a tower of d6, one per point of Heat up to what the tray holds,
    with a coloured status strip along it. ``fall(n)`` tumbles the top ``n`` dice off.

    Above the tray's capacity the tower stops at the capacity and a "+N" tag counts
    the rest (the panel says the same in words)."""

    fallen = NumericProperty(0.0)
    """How far the falling dice have got, 0 (standing) to 1 (on the table)."""

    cached = True

    def as_picture(self) -> bool:
        """Kept as a picture while it stands (a fall redraws it on every frame of its tumble)."""
        return self.cached and not self.falling

    def __init__(self, **kw) -> None:
        self.dice, self.capacity, self.falling, self.target = 0, 14, 0, 0
        super().__init__(**kw)
        self.fbind("fallen", self._redraw)

    def show(self, dice: int, capacity: int = 14) -> None:
        self.target = dice
        if self.falling:  # the tower lands at its new height when the fall is over
            self.capacity = capacity
            return
        if (dice, capacity) != (self.dice, self.capacity):
            self.dice, self.capacity = dice, capacity
            self._redraw()

    def fall(self, count: int, left: int) -> None:
        """The Heat fell: ``count`` dice tumble off, then the tower stands at ``left``."""
        from kivy.animation import Animation

        from .motion import ANIMATION_SCALE

        Animation.cancel_all(self, "fallen")
        k = ANIMATION_SCALE["value"]
        self.target = left
        self.falling = max(0, min(count, self.capacity))
        self.dice = min(left + count, self.capacity)  # as it stood before the fall
        if k == 0 or not self.falling:
            self._landed()
            return
        self.fallen = 0.0
        anim = Animation(fallen=1.0, duration=0.5 * k, t="in_quad")
        anim.bind(on_complete=lambda *_: self._landed())
        anim.start(self)

    def _landed(self) -> None:
        self.falling, self.dice = 0, self.target
        self.fallen = 0.0
        self._redraw()

    def side(self) -> float:
        """One die's side: the tower fits at least 6 dice, more when the Heat is higher."""
        rows = max(6, min(self.dice, self.capacity))
        return max(4.0, min(self.height / (rows * 1.02), self.width * 0.5))

    def draw(self) -> None:
        s = self.side()
        shown = min(self.dice, self.capacity)
        base_x = self.x + s * 0.25
        name, colour = band_of(self.dice)
        Color(*colour)  # the status strip, the tower's height
        Rectangle(pos=(self.x, self.y), size=(s * 0.12, max(s * 0.3, shown * s * 1.02)))
        Color(0.45, 0.42, 0.36, 1)
        Line(points=[self.x, self.y, self.right, self.y], width=1)
        first_falling = shown - self.falling
        for i in range(shown):
            x = base_x + wobble(i) * s
            y = self.y + i * s * 1.02
            if self.falling and i >= first_falling:
                j = i - first_falling + 1
                t = self.fallen
                x += t * s * (0.9 + 0.55 * j)
                y = y + (self.y + (j % 2) * s * 0.3 - y) * t
                draw_d6(x, y, s * 0.96, angle=-t * (35 + 25 * j))
            else:
                draw_d6(x, y, s * 0.96, angle=wobble(i) * 40)
        over = self.dice - shown
        if over > 0:
            draw_text(f"+{over}", base_x + s * 0.5, self.y + shown * s * 1.02 + s * 0.45, s * 0.7, theme.WARN, True)


ZONES = {"inside": ((0.86, 0.68, 0.28, 1), (0.08, 0.08, 0.08, 1), "Inside"),
         "touching": ((0.35, 0.55, 0.85, 1), (1, 1, 1, 1), "Touching"),
         "outside": ((0.42, 0.42, 0.46, 1), (1, 1, 1, 1), "Outside")}
"""How each zone of the Conflict Target colours a landed d10 (and its word under it)."""


D10_FACES = range(0, 11)
"""The faces a landing may report: a d10 shows 0 to 9 (the rules); a tray may say 10."""


def _zone_look(zone: str) -> tuple:
    """A zone's (fill, ink on the fill, word): an unknown zone is grey under its own name."""
    return ZONES.get(str(zone), ((0.4, 0.4, 0.4, 1), (1, 1, 1, 1), str(zone).capitalize()))


def draw_d10(cx: float, top: float, s: float, room: float, label: float, face, zone: str, result: str) -> None:
    """One landed d10 as a kite of side ``s`` under ``top``, its zone and result in words below it."""
    draw_d10_kite(cx, top, s, zone)
    draw_d10_words(cx, top, s, room, label, face, zone, result)


def draw_d10_kite(cx: float, top: float, s: float, zone: str) -> None:
    """The d10's shape alone (``draw_d10``): its kite in the zone's colour, outlined."""
    fill = _zone_look(zone)[0]
    bottom = top - s
    mid = bottom + s * 0.42
    half = s * 0.42
    pts = [cx, top, cx + half, mid, cx, bottom, cx - half, mid]
    Color(*fill)
    Mesh(vertices=_verts(pts), indices=[0, 1, 2, 3], mode="triangle_fan")
    Color(0.1, 0.1, 0.1, 1)
    Line(points=pts, close=True, width=1)  # one-pixel lines: a wider one is many triangles to fill
    Line(points=[cx - half, mid, cx, mid - s * 0.12, cx + half, mid], width=1)


def draw_d10_words(cx: float, top: float, s: float, room: float, label: float, face, zone: str, result: str) -> None:
    """The d10's words alone (``draw_d10``): its face on the kite, its zone and result under it."""
    _, ink, word = _zone_look(zone)
    bottom = top - s
    if face is not None:
        draw_text(str(face), cx, bottom + s * 0.5, s * 0.36, ink, bold=True)
    draw_text(word, cx, bottom - label * 0.6, label, theme.INK, bold=True, room=room)
    if result:
        draw_text(result, cx, bottom - label * 1.75, label, theme.DIM, room=room)


class D10(Drawn):
    """A landed d10: a kite with its number, coloured by its zone, the zone and the
    result in words under it (colour is never alone)."""

    def __init__(self, **kw) -> None:
        self.face: int | None = None
        self.zone, self.result = "outside", ""
        super().__init__(**kw)

    def show(self, face: int | None, zone: str, result: str = "") -> None:
        if (face, zone, result) != (self.face, self.zone, self.result):
            self.face, self.zone, self.result = face, zone, result
            self._redraw()

    def draw(self) -> None:
        label = px_font(self, 0.2, 14, 20)
        s = min(self.height - label * 1.15 * (2 if self.result else 1), self.width * 0.9)
        draw_d10(self.center_x, self.top, s, self.width, label, self.face, self.zone, self.result)


class LandedDice(Drawn):
    """A conflict's landed d10s side by side, all in one drawing: a landing redraws this
    one widget and lays nothing out again (a die landing must show as fast as before).
    A die that lands beside the others at the same size is drawn on its own, and the
    caption above them is its own group: the dice already down are not drawn again.

    Every die's kite is drawn before any die's words (two groups, ``_kites`` then ``_words``).
    Each word is a texture of its own and the kites have none; drawn die by die, the software
    renderer switched textures three or four times a die on every frame, and each switch cost
    more than the shape it drew (docs/kiosk.md, "Event to screen, thirteenth pass")."""

    def __init__(self, **kw) -> None:
        self.dice: list[tuple] = []
        self.caption = ""
        self._head = Canvas()
        self._kites = Canvas()
        self._words = Canvas()
        self._geometry: tuple | None = None
        self._ahead: tuple = ([], [], {}, [])  # what ``render_ahead`` was last asked for
        self._ahead_due = False
        super().__init__(**kw)

    def show(self, dice: list[dict], caption: str = "") -> None:
        """``caption`` (how many are down and to come) is drawn above the dice, from cached text."""
        new = [(d.get("face"), str(d.get("zone")), str(d.get("result") or "")) for d in dice]
        if (new, caption) == (self.dice, self.caption):
            return
        old = self.dice
        self.dice, self.caption = new, caption
        if self._geometry is None or new[:len(old)] != old or self._measure() != self._geometry \
                or (not self._head.children) != (not caption) or self._drawn_at != (self.x, self.y):
            self._redraw()
            return
        if not self._recaption():
            self._head.clear()
            self._draw_caption(self._head)
        for i in range(len(old), len(new)):
            self._draw_die(i)

    def _recaption(self) -> bool:
        """Put the new caption in the caption's rectangle as it is (a landing changes only its
        words); False when there is none to reuse (then it is drawn anew)."""
        shown = [i for i in self._head.children if isinstance(i, Rectangle)]
        if len(shown) != 1 or not self.caption:
            return False
        place = self._caption_place()
        shown[0].texture, shown[0].size, shown[0].pos = place
        return True

    def _caption_place(self) -> tuple:
        """The caption's (texture, size, pos): shrunk to the row's width if it is wider."""
        head = theme.px(20)
        tex = _texture(self.caption, head, True)
        k = min(1.0, self.width / max(1, tex.width))
        return tex, (tex.width * k, tex.height * k), (int(self.x), int(self.top - head / 2 - tex.height * k / 2))

    def _measure(self, count: int | None = None) -> tuple:
        """(head, slot, label, s): where the dice go (``count`` of them, else those shown);
        the same for one more die unless the row is full."""
        head = theme.px(20) if self.caption else 0
        slot = min(theme.px(64), self.width / max(1, len(self.dice) if count is None else count))
        label = max(theme.px(12), min(theme.px(16), slot * 0.26))
        return head, slot, label, min(self.height - head - theme.px(4) - label * 2.4, slot * 0.9), self.size[:]

    def render_ahead(self, captions: list[str], faces, zones: dict, results) -> None:
        """Render ahead, from the next frame on (``art.render_ahead``), the words the next die
        to land may bring: the ``captions`` it may put above the row, and its face, zone word
        and result at the sizes one more die gets. Nothing of it is done on this frame."""
        self._ahead = (captions, faces, zones, results)
        if not self._ahead_due:
            self._ahead_due = True
            Clock.schedule_once(self._render_ahead, NEXT_FRAME)

    def _render_ahead(self, _dt: float) -> None:
        self._ahead_due = False
        captions, faces, zones, results = self._ahead
        _, _, label, s, _ = self._measure(len(self.dice) + 1)
        render_ahead([(c, theme.px(20), True) for c in captions]
                     + [(str(face), s * 0.36, True) for face in faces]
                     + [(word, label, True) for _, _, word in zones.values()]
                     + [(result, label, False) for result in results])

    def _draw_caption(self, group) -> None:
        if not self.caption:
            return
        tex, size, pos = self._caption_place()
        with group:
            Color(*theme.INK)
            Rectangle(texture=tex, size=size, pos=pos)

    def _draw_die(self, i: int) -> None:
        head, slot, label, s, _ = self._geometry or self._measure()
        face, zone, result = self.dice[i]
        cx, top = self.x + slot * (i + 0.5), self.top - head - theme.px(4)
        with self._kites:
            draw_d10_kite(cx, top, s, zone)
        with self._words:
            draw_d10_words(cx, top, s, slot - theme.px(2), label, face, zone, result)

    def draw(self) -> None:
        self._head = Canvas()  # made inside the widget's canvas (``_redraw``), so they join it
        self._kites = Canvas()
        self._words = Canvas()
        self._geometry = self._measure()
        self._draw_caption(self._head)
        for i in range(len(self.dice)):
            self._draw_die(i)


def _verts(points: list[float]) -> list[float]:
    out: list[float] = []
    for i in range(0, len(points), 2):
        out += [points[i], points[i + 1], 0, 0]
    return out


class Chips(Drawn):
    """A pile of Color chips for Promise Hollows' pot: stacks of up to ten, at most
    ``most`` chips drawn; the number itself is written beside the pile."""

    cached = True  # shown for a whole round or more; an event frame draws it again seldom

    most = 40

    def __init__(self, **kw) -> None:
        self.count = 0
        super().__init__(**kw)

    def show(self, count: int) -> None:
        if count != self.count:
            self.count = count
            self._redraw()

    def draw(self) -> None:
        size = px_font(self, 0.55, 20, 40)
        number = _texture(str(self.count), size, True)
        room = self.width - number.width - theme.px(8)  # the number sits at the right, inside the box
        d = max(2.0, min(self.height * 0.42, theme.px(26), room))
        colours = [(0.80, 0.24, 0.40, 1), (0.22, 0.60, 0.78, 1), (0.86, 0.68, 0.28, 1), (0.40, 0.70, 0.35, 1)]
        fits = max(1, int((room + d * 0.1) // (d * 1.1)))
        drawn = min(self.count, self.most, fits * 10)
        stacks = (drawn + 9) // 10
        used = stacks * d * 1.1 + theme.px(8) + number.width
        left = self.x + max(0.0, (self.width - used) / 2)  # the pile and its number, centred together
        for k in range(stacks):
            in_stack = min(10, drawn - k * 10)
            x = left + k * d * 1.1
            for j in range(in_stack):
                y = self.center_y - d * 0.4 + j * d * 0.16
                Color(*colours[(k + j) % len(colours)])
                Ellipse(pos=(x, y), size=(d, d * 0.55))
                Color(1, 1, 1, 0.7)
                Line(ellipse=(x, y, d, d * 0.55), width=1)
        draw_text(str(self.count), left + used - number.width / 2, self.center_y, size, theme.INK, True)


_WAGER = re.compile(r"^(\d+) on (Even|Odd)$")


def wager_of(face: str) -> tuple[int, str] | None:
    """'2 on Even' -> (2, 'Even'): the Even/Odd wager a reveal's face names, if it names one."""
    m = _WAGER.match(face.strip()) if face else None
    return (int(m.group(1)), m.group(2)) if m else None


class WagerCard(Drawn):
    """An Even/Odd wager turned over: a card with its side in large letters and one pip
    per point wagered under it (a pale card for Even, a dark one for Odd, so the side
    reads from across the table and never by colour alone: the word is there)."""

    cached = True  # drawn once a reveal turns; its round pips cost the renderer most of a card

    def __init__(self, **kw) -> None:
        self.points, self.side = 0, "Even"
        super().__init__(**kw)

    def show(self, points: int, side: str) -> None:
        self.points, self.side = points, side
        self._redraw()

    def draw(self) -> None:
        x, y, w, h = _fit_in(self.x, self.y, self.width, self.height, 5 / 7)
        even = self.side.lower() == "even"
        fill, ink = (CARD_WHITE, (0.1, 0.1, 0.1, 1)) if even else ((0.14, 0.14, 0.16, 1), (0.95, 0.93, 0.88, 1))
        draw_card(x, y, w, h, fill)
        draw_text(self.side.upper(), x + w / 2, y + h * 0.78, max(12, w * 0.24), ink, bold=True, room=w * 0.9)
        shown = min(self.points, 12)
        cols = 3 if shown > 4 else 2 if shown > 1 else 1
        rows = max(1, math.ceil(shown / cols))
        d = min(w * 0.8 / (cols * 1.3), h * 0.5 / (rows * 1.3))
        for i in range(shown):
            cx = x + w / 2 + ((i % cols) - (cols - 1) / 2) * d * 1.3
            cy = y + h * 0.38 + ((rows - 1) / 2 - i // cols) * d * 1.3
            Color(*ink)
            Ellipse(pos=(cx - d / 2, cy - d / 2), size=(d, d))


class ColorBar(Drawn):
    """A player's Color as a bar (its length against the most anyone holds) with the number on it."""

    cached = True  # shown for a whole round or more; an event frame draws it again seldom

    def __init__(self, **kw) -> None:
        self.amount, self.most = 0, 1
        super().__init__(**kw)

    def show(self, amount: int, most: int) -> None:
        if (amount, most) != (self.amount, self.most):
            self.amount, self.most = amount, max(1, most)
            self._redraw()

    def draw(self) -> None:
        h = min(self.height * 0.62, theme.px(24))
        y = self.center_y - h / 2
        number = _texture(str(self.amount), h * 0.95, True)
        length = max(1.0, self.width - number.width - theme.px(8))  # the number stands after the bar
        Color(*theme.RAISED)
        RoundedRectangle(pos=(self.x, y), size=(length, h), radius=[h / 2])
        share = min(1.0, self.amount / self.most)
        if share > 0:
            w = max(min(h, length), length * share)
            bands = [(0.80, 0.24, 0.40, 1), (0.86, 0.56, 0.22, 1), (0.86, 0.78, 0.28, 1), (0.35, 0.68, 0.42, 1),
                     (0.25, 0.55, 0.82, 1)]
            step = w / len(bands)
            for i, colour in enumerate(bands):  # technicolor stripes
                Color(*colour)
                Rectangle(pos=(self.x + i * step, y), size=(step, h))
        draw_text(str(self.amount), self.x + length + theme.px(6) + number.width / 2, self.center_y, h * 0.95,
                  theme.INK, True, room=self.width - length - theme.px(6))


class DiceGroups(Drawn):
    """The dice of one roll as d6 faces, evens on the left and odds on the right, each
    group headed by its count in words ("Even 2", "Odd 3")."""

    cached = True  # shown for a whole round or more; an event frame draws it again seldom

    def __init__(self, **kw) -> None:
        self.faces: list[int] = []
        super().__init__(**kw)

    def show(self, faces: list[int]) -> None:
        if list(faces) != self.faces:
            self.faces = list(faces)
            self._redraw()

    def draw(self) -> None:
        evens = [f for f in self.faces if f % 2 == 0]
        odds = [f for f in self.faces if f % 2 == 1]
        label = px_font(self, 0.24, 16, 22)
        half = self.width / 2 - theme.px(4)
        room = self.height - label * 1.3
        most = max(len(evens), len(odds), 1)
        per_row = max(1, min(most, 5))
        rows = (most + per_row - 1) // per_row
        s = min(room / rows * 0.9, half / per_row * 0.88)
        for g, (name, group) in enumerate((("Even", evens), ("Odd", odds))):
            gx = self.x + g * (half + theme.px(8))
            Color(*theme.RAISED)
            Line(rounded_rectangle=(gx, self.y, half, self.height, theme.px(6)), width=1)
            draw_text(f"{name} {len(group)}", gx + half / 2, self.top - label * 0.7, label,
                      theme.ACCENT if group else theme.DIM, True, room=half - theme.px(4))
            for i, face in enumerate(group):
                r, c = divmod(i, per_row)
                x = gx + (half - per_row * s / 0.92) / 2 + c * s / 0.92
                y = self.top - label * 1.35 - (r + 1) * s / 0.92
                draw_d6(x, y, s, face)


class Papers(Drawn):
    """The Even/Odd case's two suspect papers side by side: each a sheet naming its side and
    suspect, with the points on it written large."""

    cached = True  # shown for a whole round or more; an event frame draws it again seldom

    def __init__(self, **kw) -> None:
        self.sides: list[tuple[str, str, int]] = []
        super().__init__(**kw)

    def show(self, sides: list[tuple[str, str, int]]) -> None:
        """``sides``: (side's word, suspect's name or "", points on its paper) for each paper."""
        if list(sides) != self.sides:
            self.sides = list(sides)
            self._redraw()

    def draw(self) -> None:
        if not self.sides:
            return
        gap = theme.px(8)
        w = (self.width - gap * (len(self.sides) - 1)) / len(self.sides)
        small = max(theme.px(15), min(theme.px(20), self.height * 0.17))
        for i, (side, name, points) in enumerate(self.sides):
            x = self.x + i * (w + gap)
            paper_shadow(x, self.y, w - 2, self.height - 2)
            Color(0.93, 0.90, 0.80, 1)
            Rectangle(pos=(x, self.y + 2), size=(w - 2, self.height - 2))
            Color(0.55, 0.50, 0.42, 1)
            yy = self.top - small * 2.8  # one rule under the heading, clear of every word
            Line(points=[x + w * 0.08, yy, x + w * 0.88, yy], width=1)
            ink = (0.12, 0.10, 0.08, 1)
            draw_text(f"{side} Suspect", x + w / 2, self.top - small * 0.9, small, ink, True, room=w - theme.px(8))
            if name:
                draw_text(name, x + w / 2, self.top - small * 2.1, small * 0.9, ink, room=w - theme.px(8))
            draw_text(str(points), x + w / 2, self.y + self.height * 0.3, self.height * 0.32, CARD_RED, True)
