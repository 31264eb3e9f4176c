"""What a scroll area leaves out of a frame's drawing (``theme.Scroll._cull``): the widgets
wholly out of its view, and never a pixel anybody could see."""

import os

import pytest

from testkit import drive
from testkit.screenshots import at_a_throw

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")

from .uiplay import back_home  # noqa: E402


@pytest.fixture(autouse=True)
def home(app):
    back_home(app)
    yield
    back_home(app)


def _pixels() -> bytes:
    """The window as the last drawn frame left it."""
    from kivy.core.window import Window
    from kivy.graphics import opengl as gl

    w, h = Window.size
    return bytes(gl.glReadPixels(0, 0, w, h, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE))


def _drawn(widget, parent) -> bool:
    return parent.canvas.indexof(widget.canvas) >= 0


def _with_and_without_culling(monkeypatch) -> tuple[bytes, bytes]:
    from kiosk.ui import theme

    drive.pump(2, draw=True)
    culled = _pixels()
    monkeypatch.setattr(theme.Scroll, "culls", False)
    for view in [w for root in drive.roots() for w in drive.walk(root) if isinstance(w, theme.Scroll)]:
        view._cull(-1e9, 1e9)  # everything back in
    drive.pump(2, draw=True)
    whole = _pixels()
    monkeypatch.setattr(theme.Scroll, "culls", True)
    drive.pump(2, draw=True)
    return culled, whole


@pytest.fixture
def lines(app):
    """A scroll area 200 px tall over 20 lines of 40 px, on top of the window."""
    from kivy.core.window import Window
    from kivy.uix.boxlayout import BoxLayout

    from kiosk.ui import theme

    view = theme.Scroll(size_hint=(None, None), size=(300, 200), pos=(20, 20))
    box = BoxLayout(orientation="vertical", size_hint_y=None, height=800)
    for i in range(20):
        box.add_widget(theme.Text(f"Line {i + 1}", size=18, fit=False, size_hint_y=None, height=40))
    view.add_widget(box)
    Window.add_widget(view)
    drive.pump(2, draw=True)
    yield view, box
    Window.remove_widget(view)
    drive.pump(1)


def test_lines_out_of_view_are_left_out_of_the_drawing_and_come_back_when_scrolled_to(lines):
    view, box = lines
    first, last = box.children[-1], box.children[0]
    assert _drawn(first, box) and not _drawn(last, box)
    assert sum(_drawn(line, box) for line in box.children) <= 7  # 200 px of 40 px lines, and the margin
    assert len(box.children) == 20, "a line left out of the drawing is still in the layout"
    view.scroll_y = 0
    drive.pump(2, draw=True)
    assert _drawn(last, box) and not _drawn(first, box)
    view.scroll_y = 1
    drive.pump(2, draw=True)
    assert _drawn(first, box) and not _drawn(last, box)
    order = [box.canvas.indexof(line.canvas) for line in reversed(box.children) if _drawn(line, box)]
    assert order == sorted(order), "a line put back is drawn in its place among the others"


@pytest.mark.parametrize("scroll_y", [1, 0.5, 0])
def test_leaving_lines_out_changes_no_pixel(lines, monkeypatch, scroll_y):
    view, _ = lines
    view.scroll_y = scroll_y
    culled, whole = _with_and_without_culling(monkeypatch)
    assert culled == whole


def test_a_line_taken_away_and_put_back_while_out_of_view_is_drawn_once_in_view(lines):
    view, box = lines
    last = box.children[0]
    assert not _drawn(last, box)
    box.remove_widget(last)
    box.add_widget(last)  # re-added by its layout (as ``theme.set_children`` does): drawn by Kivy again
    view.scroll_y = 0
    drive.pump(2, draw=True)
    assert [c for c in box.canvas.children if c is last.canvas] == [last.canvas]


def test_the_team_lines_under_the_panel_fold_are_not_drawn_at_a_landing_and_no_pixel_changes(app, monkeypatch):
    from hardware.events import ThrowSettled, Zone

    if "hell-for-leather" not in app.engines:
        pytest.skip("Hell for Leather has not landed")
    assert any(at_a_throw(app, seed) for seed in range(1, 30))
    app.controller.handle(ThrowSettled(t=1.0, zone=Zone.INSIDE, face=7))
    drive.pump(2, draw=True)
    panel, view = app.play.panel, app.play.panel_scroll
    teams = panel.inner.lines
    assert teams.to_window(teams.x, teams.top)[1] < view.to_window(view.x, view.y)[1], \
        "the team lines start under the panel's fold at 800x480"
    drawn = {id(w) for root in drive.roots() for w in drive.walk(root) if w.parent is not None
             and w.parent.canvas.indexof(w.canvas) >= 0}
    assert id(teams) not in drawn
    culled, whole = _with_and_without_culling(monkeypatch)
    assert culled == whole
    view.scroll_y = 0  # a player scrolls the panel down to the teams
    culled, whole = _with_and_without_culling(monkeypatch)
    assert culled == whole
    assert teams.parent.canvas.indexof(teams.canvas) >= 0


def test_a_frame_clears_only_the_colour_and_a_stencil_mask_still_clips(app, monkeypatch):
    """Depth and stencil are not cleared for every frame (``theme.clear_colour_only``): nothing
    tests depth, and a stencil mask clears the stencil itself, so a Kivy StencilView still
    clips, frame after frame."""
    from kivy.core.window import Window
    from kivy.graphics import Color, Rectangle
    from kivy.graphics import opengl as gl
    from kivy.uix.stencilview import StencilView
    from kivy.uix.widget import Widget

    masks: list[int] = []
    real = gl.glClear
    monkeypatch.setattr(gl, "glClear", lambda mask: (masks.append(mask), real(mask)))
    clip = StencilView(size_hint=(None, None), size=(100, 100), pos=(50, 50))
    inside = Widget()
    with inside.canvas:
        Color(1, 0, 0, 1)
        Rectangle(pos=(0, 0), size=(400, 400))  # far bigger than the clip
    clip.add_widget(inside)
    Window.add_widget(clip)
    try:
        for _ in range(3):
            Window.canvas.ask_update()
            drive.pump(1, draw=True)
            w, _ = Window.size
            pixels = _pixels()

            def at(x: int, y: int) -> bytes:
                return pixels[(y * w + x) * 4:(y * w + x) * 4 + 3]

            assert at(100, 100) == b"\xff\x00\x00", "inside the clip"
            assert at(200, 200) != b"\xff\x00\x00" and at(20, 20) != b"\xff\x00\x00", "outside the clip"
    finally:
        Window.remove_widget(clip)
        drive.pump(1)
    window_clears = [m for m in masks if m & gl.GL_COLOR_BUFFER_BIT]
    assert window_clears and all(m == gl.GL_COLOR_BUFFER_BIT for m in window_clears)


def _lines_box(word: str):
    from kivy.uix.boxlayout import BoxLayout

    from kiosk.ui import theme

    box = BoxLayout(orientation="vertical", size_hint_y=None, height=800)
    for i in range(20):
        box.add_widget(theme.Text(f"{word} {i + 1}", size=18, fit=False, size_hint_y=None, height=40))
    return box


def test_a_scroll_given_new_content_keeps_nothing_of_the_old_and_leaves_it_whole(app):
    """Another game's panel replaces the last one in the same scroll area: the old panel is
    left as it was (all its lines drawn, should it be shown again) and not kept alive."""
    import gc
    import weakref

    from kivy.core.window import Window

    from kiosk.ui import theme

    view = theme.Scroll(size_hint=(None, None), size=(300, 200), pos=(20, 20))
    box = _lines_box("Line")
    view.add_widget(box)
    Window.add_widget(view)
    try:
        drive.pump(2, draw=True)
        assert not all(_drawn(line, box) for line in box.children)
        view.clear_widgets()
        fresh = _lines_box("New")
        view.add_widget(fresh)
        drive.pump(2, draw=True)
        assert all(_drawn(line, box) for line in box.children), "the old content was left with lines out"
        assert not _drawn(fresh.children[0], fresh)
        old = weakref.ref(box)
        del box
        gc.collect()
        assert old() is None, "the scroll area keeps the old content alive"
    finally:
        Window.remove_widget(view)
        drive.pump(1)
