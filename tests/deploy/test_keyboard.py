"""The on-screen keyboard never covers the box being typed in, and its keys are finger-sized (issue 22)."""

import os

import pytest

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")

NINE_MM_ON_THE_7_INCH_DISPLAY = 9 * 800 / 154.08  # px: its 800 pixels span 154.08 mm


@pytest.fixture
def kiosk_with_touch_keyboard(tmp_path):
    from kivy.config import Config
    from kivy.core.window import Window
    from kivy.uix.vkeyboard import VKeyboard

    from kiosk.ui import overlays
    from testkit import drive

    overlays.ANIMATION_SCALE["value"] = 0
    drive.DRAW["value"] = False
    app = drive.start(str(tmp_path))
    before = Config.get("kivy", "keyboard_mode")
    Config.set("kivy", "keyboard_mode", "systemanddock")  # what configure() picks on a Pi
    Window.configure_keyboards()
    yield app
    for w in list(drive.walk(app.root)):
        if getattr(w, "focus", False):
            w.focus = False
    drive.pump(2)
    Config.set("kivy", "keyboard_mode", before)
    Window.configure_keyboards()
    for w in list(Window.children):
        if isinstance(w, VKeyboard):
            Window.remove_widget(w)
    Window._keyboards.pop("single", None)
    drive.stop(app)
    if app.root.parent is Window:
        Window.remove_widget(app.root)


def _boxes(app):
    from kivy.uix.textinput import TextInput

    from testkit import drive

    return [w for w in drive.walk(app.root) if isinstance(w, TextInput) and w.get_root_window() is not None]


def _visible(boxes):
    """The boxes wholly inside the scroll area that shows them."""
    from kivy.uix.scrollview import ScrollView

    shown = []
    for box in boxes:
        view = box.parent
        while view is not None and not isinstance(view, ScrollView):
            view = view.parent
        _, bottom = box.to_window(box.x, box.y)
        _, top = box.to_window(box.x, box.top)
        if view is None or (view.to_window(view.x, view.y)[1] <= bottom and top <= view.to_window(view.x, view.top)[1]):
            shown.append(box)
    return shown


def _keyboard():
    from kivy.core.window import Window
    from kivy.uix.vkeyboard import VKeyboard

    return next(w for w in Window.children if isinstance(w, VKeyboard))


def _on_screen_bottom_top(app, box):
    """Where the box is drawn in the window (the root may have moved up)."""
    _, bottom = box.to_window(box.x, box.y)
    _, top = box.to_window(box.x, box.top)
    return bottom, top


def test_the_lowest_text_box_is_moved_above_the_keyboard_and_back(kiosk_with_touch_keyboard):
    from kivy.core.window import Window

    from testkit import drive

    app = kiosk_with_touch_keyboard
    drive.press("home:new:toy")
    for _ in range(3):
        drive.press("players:add")  # more names: the last boxes sit low on the screen
    drive.pump(3)
    box = min(_visible(_boxes(app)), key=lambda b: b.to_window(b.x, b.y)[1])
    bottom_before, _ = _on_screen_bottom_top(app, box)
    drive.press(box)  # a finger on the box: focus, and the keyboard docks along the bottom
    drive.pump(3)
    assert box.focus
    keyboard = _keyboard()
    keyboard_top = keyboard.y + keyboard.height * keyboard.scale
    assert bottom_before < keyboard_top  # without moving, the keyboard would cover this box
    bottom, top = _on_screen_bottom_top(app, box)
    assert keyboard_top <= bottom and top <= Window.height  # the whole box shows, above the keys
    box.insert_text("Cy")
    assert "Cy" in box.text
    box.focus = False
    drive.pump(3)
    assert app.root.y == 0  # the screen is back where it was


def test_keys_are_finger_sized(kiosk_with_touch_keyboard):
    from testkit import drive

    app = kiosk_with_touch_keyboard
    drive.press("home:new:toy")
    drive.pump(3)
    drive.press(_boxes(app)[0])
    drive.pump(3)
    keyboard = _keyboard()
    rows = keyboard.available_layouts[keyboard.layout]["rows"]
    top, _, bottom, _ = keyboard.margin_hint
    key = keyboard.height * keyboard.scale * (1 - top - bottom) / rows
    assert key >= NINE_MM_ON_THE_7_INCH_DISPLAY - 0.5, key
