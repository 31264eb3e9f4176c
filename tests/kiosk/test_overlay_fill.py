"""Overlays look as Kivy draws them, and fill fewer pixels doing it.

Kivy's ModalView dims the whole window and paints its box on top; every overlay here
then covers that box with an opaque panel. A software renderer (the desktop's, the
tests', a stand's without a GPU) pays for every pixel on every frame: with a reveal up,
a third of each frame went to pixels nobody could see (docs/kiosk.md, "Event to screen,
sixth pass"). An overlay now dims only around its box and paints the box only where
its content would not."""

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.ui import overlays

display = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")

unit = st.floats(min_value=0, max_value=1)
rgba = st.tuples(unit, unit, unit, unit)


def _over(colour, under):
    """``colour`` (r, g, b, a) blended over the opaque ``under`` (r, g, b), as GL does."""
    a = colour[3]
    return tuple(a * c + (1 - a) * u for c, u in zip(colour[:3], under))


@given(background=rgba, dim=rgba, shown=unit, under=st.tuples(unit, unit, unit))
def test_the_box_painted_once_looks_as_the_dim_and_the_box_painted_over_it(background, dim, shown, under):
    kivy_way = _over(background, _over((*dim[:3], dim[3] * shown), under))
    ours = _over(overlays.box_colour(background, dim, shown), under)
    assert ours == pytest.approx(kivy_way, abs=1e-9)


def _painted_area(view) -> float:
    """Window pixels the overlay's own canvas paints (its dim and its box)."""
    from kivy.graphics import Rectangle

    return sum(i.size[0] * i.size[1] for i in view.canvas.children if isinstance(i, Rectangle))


@display
def test_a_reveal_paints_only_the_dim_around_its_box(app):
    from kivy.core.window import Window

    from testkit import drive

    reveal = overlays.Reveal("Revealed together", [], faces={"Ann": "2 on Even", "Bo": "3 on Odd"})
    reveal.open(animation=False)
    try:
        drive.pump(2)
        window = Window.width * Window.height
        box = reveal.width * reveal.height
        assert 0 < box < window
        # Kivy's way painted the whole window and then the box: 1.86 windows' worth here.
        assert _painted_area(reveal) == pytest.approx(window - box, abs=1)
        assert reveal.box_hidden
        panel = reveal.children[0]
        panel.bg = (0.1, 0.1, 0.1, 0.5)  # a panel that lets the box show: the box is painted again
        drive.pump(1)
        assert not reveal.box_hidden
        assert _painted_area(reveal) == pytest.approx(window, abs=1)
    finally:
        reveal.dismiss()
        drive.pump(1)


@display
def test_the_dim_follows_the_window_when_it_is_resized(app):
    """A designer's desktop window can change size with a reveal up: the dim still covers
    everything around the box, with no strip of the table left bright."""
    from kivy.core.window import Window

    from testkit import drive

    size = tuple(Window.size)
    reveal = overlays.Reveal("Revealed together", [], faces={"Ann": "2 on Even"})
    reveal.open(animation=False)
    try:
        Window.size = (size[0] + 160, size[1] + 90)
        drive.pump(3)
        window = Window.width * Window.height
        assert Window.width == size[0] + 160
        assert _painted_area(reveal) == pytest.approx(window - reveal.width * reveal.height, abs=1)
    finally:
        reveal.dismiss()
        Window.size = size
        drive.pump(2)


@display
@pytest.mark.parametrize("content", ["opaque", "translucent", "rounded", "none"])
@pytest.mark.parametrize("shown", [1.0, 0.5])
def test_an_overlay_looks_exactly_as_kivy_draws_a_modal_view(app, tmp_path, content, shown):
    """The same box and content drawn by Kivy's ModalView and by ``Overlay``, over the same
    screen, give the same pixels: in the dim around the box, in the box, and under a
    content that lets the box show (translucent, rounded corners, no content at all)."""
    from kivy.core.image import Image as CoreImage
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    from kiosk.ui import theme
    from testkit import drive

    app.go_home()
    drive.pump(2)

    def shot(cls, name):
        view = cls(size_hint=(0.7, 0.6), background="", background_color=(0.1, 0.2, 0.3, 0.85),
                   auto_dismiss=False)
        if content != "none":
            bg = {"opaque": theme.PANEL, "translucent": (0.9, 0.4, 0.1, 0.5), "rounded": theme.PANEL}[content]
            view.add_widget(theme.Filled(bg=bg, radius=30 if content == "rounded" else 0))
        view.open(animation=False)
        view._anim_alpha = shown  # mid-way through the opening fade
        try:
            drive.pump(2, draw=True)
            return CoreImage(drive.screenshot(str(tmp_path / name)), keep_data=True), view
        finally:
            view.dismiss(animation=False)
            drive.pump(1, draw=True)

    kivy_shot, kivy_view = shot(ModalView, "kivy.png")
    our_shot, our_view = shot(overlays.Overlay, "ours.png")
    assert our_view.box_hidden == (content == "opaque")
    x0, y0, x1, y1 = int(kivy_view.x), int(kivy_view.y), int(kivy_view.right), int(kivy_view.top)
    points = [(x, y) for x in range(2, Window.width, 37) for y in range(2, Window.height, 29)]
    points += [(x0 + 3, y0 + 3), (x1 - 4, y1 - 4), (x0 - 3, y0 + 10), (x1 + 3, y1 - 10)]  # corners, edges
    for x, y in points:
        want = kivy_shot.read_pixel(x, Window.height - 1 - y)
        got = our_shot.read_pixel(x, Window.height - 1 - y)
        assert got == pytest.approx(want, abs=2 / 255), f"pixel {(x, y)}: {got} against Kivy's {want}"


@given(radius=st.floats(min_value=0.6, max_value=200))
def test_a_rounded_corner_is_drawn_within_half_a_pixel_of_its_arc_with_the_fewest_pieces(radius):
    """Kivy's RoundedRectangle draws every corner in 10 pieces, a fan of thin triangles over the
    whole box that a software renderer pays for tile by tile (a reveal's cards); a panel's
    corner now takes the fewest pieces whose middle stays within half a pixel of the arc."""
    import math

    from kiosk.ui.theme import corner_segments

    def off_arc(pieces: int) -> float:  # how far the middle of a piece is inside the arc
        return radius * (1 - math.cos(math.pi / 2 / pieces / 2))

    n = corner_segments(radius)
    assert off_arc(n) <= 0.5 + 1e-9
    assert n == 1 or off_arc(n - 1) > 0.5


@display
def test_a_rounded_panel_uses_the_fewer_pieces(app):
    from kiosk.ui.theme import Filled, corner_segments, px

    panel = Filled(radius=px(8))
    assert panel._rect.segments == [corner_segments(px(8))] * 4 and corner_segments(px(8)) < 10
