"""Drive the kiosk without a person: for the UI tests, the screenshots and the benchmarks.

``start`` configures Kivy, builds the app and prepares its window without
entering Kivy's endless loop; ``pump`` then advances the event loop a frame
at a time, so tests are deterministic (no sleeps). ``press`` finds a widget
by its ``tag`` and touches its centre through the window, exactly the path a
finger takes (hit-testing, overlays on top, disabled buttons ignoring it).
"""

from __future__ import annotations

import os
import time
from typing import Any, Iterator


def start(data_dir: str, size: tuple[int, int] = (800, 480), realtime_sim: bool = False, maxfps: int = 0,
          at_first_frame: bool = False, **kw: Any):
    """A kiosk ready to drive: everything loaded, or with ``at_first_frame`` just its first
    frame run (Home drawn; the rest of start-up, kiosk.later, still waiting its turn)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kiosk.launch import app_class, configure

    configure(size, maxfps=maxfps)
    from kivy.base import EventLoop

    before = ticking()
    app = app_class()(data_dir=data_dir, force_sim=True, realtime_sim=realtime_sim, **kw)
    _TICKING_BEFORE[id(app)] = before
    app._run_prepare()
    EventLoop.window.size = size  # the first app's window is reused; keep its size honest
    if at_first_frame:
        pump(1)
        return app
    pump(2)
    app.ready()  # what the app does right after its first frame, done now for a deterministic start
    pump(1)
    return app


def stop(app) -> None:
    """Stop a driven app and take its widgets off the window, which the next app reuses
    (left there, its buttons would still be found and touched).

    Raises ``AssertionError`` naming what the stopped kiosk left repeating on Kivy's clock:
    tests start many kiosks in one process, and a ticker left behind acts on a closed
    kiosk in every one started after it (so the test that leaks fails, not the next ones)."""
    app.on_stop()
    for overlay in list(app.overlays):
        overlay.dismiss()
    if app.root is not None and app.root.parent is not None:
        app.root.parent.remove_widget(app.root)
    left = ticking() - _TICKING_BEFORE.pop(id(app), set())
    if left:
        raise AssertionError("the stopped kiosk left repeating on the clock: "
                             + ", ".join(sorted(getattr(e.get_callback(), "__qualname__", "?") for e in left)))


_TICKING_BEFORE: dict[int, set] = {}  # a driven kiosk (its id): the kiosk's repeating events before it started


def ticking() -> set:
    """The kiosk's own repeating events now on Kivy's clock (Kivy's own one-shots and caches aside)."""
    from kivy.clock import Clock

    return {event for event in Clock.get_events()
            if event.loop and getattr(event.get_callback(), "__module__", "").startswith("kiosk")}


DRAW = {"value": True}
"""Set ``DRAW["value"] = False`` to run frames without rendering them (tests): clock,
input, layout and widget logic all run as usual; only the GL drawing is skipped.
Screenshots always draw."""


def pump(frames: int = 1, draw: bool | None = None) -> None:
    """Run ``frames`` frames, each at least ``art.NEXT_FRAME`` after the one before: what the
    kiosk leaves to the next frame (the record after the news) is then due in it, as it is
    at a real frame rate, however fast the frames before it ran. Measured on Kivy's clock,
    from the time the last frame's tick read (a frame that starts late on a busy machine
    reads it late: measured from when ``pump`` began it, the next came too soon)."""
    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.lang import Builder

    from kiosk.ui.art import NEXT_FRAME

    draw = DRAW["value"] if draw is None else draw
    for _ in range(frames):
        wait = Clock.get_time() + NEXT_FRAME * 1.2 - Clock.time()
        if wait > 0:
            time.sleep(wait)
        if draw:
            EventLoop.idle()
            continue
        Clock.tick()
        EventLoop.dispatch_input()
        Builder.sync()
        Clock.tick_draw()
        Builder.sync()


def walk(widget) -> Iterator[Any]:
    yield widget
    for child in list(widget.children):
        yield from walk(child)


def roots() -> list:
    from kivy.core.window import Window

    return list(Window.children)  # overlays come first: they are on top


def find_all(tag: str, prefix: bool = False) -> list:
    found = []
    for root in roots():
        for w in walk(root):
            t = getattr(w, "tag", None)
            if t and (t.startswith(tag) if prefix else t == tag) and w.get_root_window() is not None:
                found.append(w)
    return found


def find(tag: str):
    hits = find_all(tag)
    if not hits:
        raise LookupError(f"no widget tagged {tag!r} on screen")
    return hits[0]


def tap_at(x: float, y: float) -> None:
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def tap_now(tag: str) -> None:
    """Touch a widget where it is drawn now, with no frame run first (``press`` lets layouts
    settle for a few frames): a finger on the very first frame. Raises ``AssertionError`` if
    the touch did not reach it."""
    w = find(tag)
    hits = []
    mark = lambda *_: hits.append(1)  # noqa: E731
    w.fbind("on_release", mark)
    try:
        _as_if_waited()
        tap_at(*w.to_window(*w.center))
    finally:
        w.funbind("on_release", mark)
    assert hits, f"the touch did not reach {tag!r}"


def press(tag_or_widget, frames: int = 1) -> None:
    """Touch a widget's centre through the window, as a finger would.

    Raises ``AssertionError`` if the touch did not reach the widget (something
    covering it, or it is not where it is drawn): a test then fails loudly.
    """
    w = find(tag_or_widget) if isinstance(tag_or_widget, str) else tag_or_widget
    hits = []
    mark = lambda *_: hits.append(1)  # noqa: E731
    w.fbind("on_release", mark) if hasattr(w, "on_release") else None
    try:
        for attempt in range(3):
            last = None
            for _ in range(8):  # let layouts settle: nested boxes may take a few frames
                _scroll_into_view(w)
                pump(1)
                here = (w.to_window(*w.center), tuple(w.size))
                if here == last:
                    break
                last = here
            x, y = w.to_window(*w.center)
            _as_if_waited()
            tap_at(x, y)
            pump(frames)
            if hits or not hasattr(w, "on_release") or w.get_root_window() is None:
                return
        raise AssertionError(f"the touch at {x:.0f},{y:.0f} did not reach {getattr(w, 'tag', w)!r}")
    finally:
        if hasattr(w, "on_release"):
            w.funbind("on_release", mark)


def _as_if_waited() -> None:
    """A driven press comes a few milliseconds after the screen changed; a person's comes
    after they have looked at it. Let it count as one that waited out the touch guard
    (``theme.TOUCH_GUARD``), so only the tests of the guard meet it."""
    from kiosk.ui import theme

    guard = theme.TOUCH_GUARD
    guard["changed_at"] = min(guard["changed_at"], time.time() - guard["s"])


def _scrolled_through(view):
    """Scroll ``view`` from its top to its foot a view's height (less a fifth) at a time,
    yielding at each stop once the frame is drawn; it is left where the caller stops."""
    view.scroll_y = 1
    pump(1)
    while True:
        yield
        content = view.children[0] if view.children else None
        spare = content.height - view.height if content is not None else 0
        if spare <= 0 or view.scroll_y <= 0:
            return
        view.scroll_y = max(0.0, view.scroll_y - 0.8 * view.height / spare)
        pump(1)


def _rows_in_view(view, tag: str) -> list:
    return sorted((w for w in find_all(tag) if descends(w, view)), key=lambda w: -w.to_window(*w.pos)[1])


def scrolled_rows(view, tag: str, key: str = "sid") -> dict:
    """Every row of a list that makes only the rows in view (``theme.ScrollList``, Home's paused
    games), read as a player reads it: scrolled from its top to its foot, each row tagged ``tag``
    once, as {its ``key``: its text}, in order. The list is left at its top."""
    seen: dict = {}
    for _ in _scrolled_through(view):
        for row in _rows_in_view(view, tag):
            seen.setdefault(getattr(row, key), row.text)
    view.scroll_y = 1
    pump(1)
    return seen


def scrolled_row(view, tag: str, value, key: str = "sid"):
    """The row of such a list whose ``key`` is ``value``, scrolled into view as a player would
    find it; raises ``LookupError`` if the list has none."""
    for _ in _scrolled_through(view):
        for row in _rows_in_view(view, tag):
            if getattr(row, key) == value:
                return row
    raise LookupError(f"no row tagged {tag!r} with {key} {value!r} in the list")


def descends(widget, ancestor) -> bool:
    """Whether ``widget`` is ``ancestor`` or lies inside it."""
    while widget is not None and widget is not widget.parent:
        if widget is ancestor:
            return True
        widget = widget.parent
    return False


def _scroll_into_view(widget) -> None:
    """Scroll every ScrollView around ``widget`` so that its centre is in view."""
    from kivy.uix.scrollview import ScrollView

    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, ScrollView) and parent.children:
            content = parent.children[0]
            spare = content.height - parent.height
            if spare > 0:
                _, cy = content.to_widget(*widget.to_window(*widget.center))
                parent.scroll_y = min(1.0, max(0.0, (cy - parent.height / 2) / spare))
        parent = parent.parent


def screenshot(path: str, frames: int = 3) -> str:
    """Save the window as ``path`` after drawing ``frames`` frames (1 to catch an animation mid-way)."""
    from kivy.core.window import Window

    pump(frames, draw=True)
    Window.dispatch("on_draw")  # read the frame just drawn, not a back buffer left over from the last flip
    written = Window.screenshot(name=path)
    if written and written != path:
        os.replace(written, path)
    return path


def wait_until(condition, frames: int = 200) -> bool:
    for _ in range(frames):
        if condition():
            return True
        pump(1)
    return condition()


def now() -> float:
    return time.perf_counter()


def type_digits(tag: str, digits: str) -> None:
    """Type ``digits`` and OK on a digit pad tagged ``tag`` (the PIN pad: "pin")."""
    for key in [*digits, "OK"]:
        press(f"{tag}:{key}")


def enter_operator(app, pin: str, new_pin: str = "1357") -> str:
    """Open the operator menu with ``pin``; if the kiosk still has the PIN it ships with,
    choose ``new_pin`` as it then insists. Returns the PIN in force afterwards."""
    from kiosk.pin import DEFAULT_PIN, check

    shipped = check(DEFAULT_PIN, app.pin_hash)
    app.ask_operator()
    type_digits("pin", pin)
    if shipped and pin == DEFAULT_PIN:
        type_digits("newpin", new_pin)
        type_digits("newpin", new_pin)
        return new_pin
    return pin


def bot_move(app, rng) -> None:
    """Move the game on by one legal action the random bot picks, straight to the rules
    (benchmarks: the frame it causes is what they time, not the choosing)."""
    from kiosk.rules import RuleError, bot

    prompts = [p for p in app.runner.awaiting() if not p.optional] or app.runner.awaiting()
    for _ in range(100):
        try:
            app.runner.propose(bot.fill(rng.choice(prompts), rng))
            return
        except RuleError:
            continue
