"""The hardware setup on the touchscreen: find the tray, learn the pads by pressing them, save.

It opens by itself at the first start on a Pi (until it has been saved once) and
from the operator menu. Nobody edits pin numbers by hand:

* **Tray**: looked for on USB by its vendor id (the boards in
  ``hardware.backends.serial.TRAY_VENDOR_IDS``); once found, its live distance
  and the stack it sees are shown, so the operator can check it by adding a die.
* **Pads**: every usable GPIO pin is watched, and the screen asks for one button
  at a time ("Pad 1, press Black"). The pin that goes low is that button.
* **Save**: the choices go into the site ``table-noir.toml`` (``hardware.config.
  write_site_config``): gpio pads with the learned pins or simulated ones, the
  serial tray or the simulated one. What was chosen for each part is also kept
  in the store, so the home screen stops warning about a simulated part once the
  operator has chosen it here on purpose.

``HardwareSetup`` holds the steps without any widget (pins and the tray report
from their own threads into a queue; the screen drains it ten times a second);
``HardwareSetupScreen`` draws them.
"""

from __future__ import annotations

import logging
import queue
import threading
from typing import Any, Callable

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup as esc

from hardware.config import USABLE_PINS, Config
from kiosk.rules.words import stack_words

from . import theme
from .theme import Big, Filled, Text, px

log = logging.getLogger(__name__)

COLOURS = ("black", "white", "gray")
MAX_PADS = 6


def find_tray_port() -> str | None:
    """The tray's data port, found by USB vendor id (None if no tray is plugged in)."""
    from hardware.backends.serial import find_tray_port as find

    return find()


class HardwareSetup:
    """The steps of the hardware setup, without widgets."""

    def __init__(self, config: Config, pin_factory: Any = None,
                 find_port: Callable[[], str | None] = find_tray_port) -> None:
        self.config = config
        self._pin_factory = pin_factory
        self._find_port = find_port
        self._events: queue.Queue = queue.Queue()
        # the tray
        self.tray_port: str | None = None
        self.tray: Any = None
        self.tray_connected = False
        self.distance_mm: int | None = None
        self.stack: int | None = None
        self.tray_choice: str | None = None  # "serial" or "sim"
        # the pads
        self.pads: list[dict[str, int]] = []  # one {"black": pin, ...} per pad, the last maybe unfinished
        self.pads_choice: str | None = None  # "gpio" or "sim"
        self.pads_problem = ""
        self.refused = ""  # why the last press was not taken
        self._buttons: list[Any] = []

    # -- the tray ------------------------------------------------------------------

    def find_tray(self) -> str | None:
        """Look for the tray on USB and, if it is there, listen to it."""
        self.close_tray()
        self.tray_port = self._find_port()
        if self.tray_port is None:
            return None
        from hardware.backends.serial import SerialTray

        self.tray = SerialTray(self.config.tray, port=self.tray_port, retry_s=0.2)
        self.tray.subscribe(lambda event: self._events.put(("tray", event)))
        return self.tray_port

    def close_tray(self) -> None:
        if self.tray is not None:
            self.tray.close()
        self.tray, self.tray_connected, self.distance_mm, self.stack = None, False, None, None

    def _on_tray(self, event: Any) -> None:
        kind = type(event).__name__
        if kind == "LinkUp":
            self.tray_connected = True
            tray = self.tray
            # Ask for raw samples off this thread: a request waits for the reader's ack.
            threading.Thread(target=self._stream_samples, args=(tray,), name="hwsetup-raw", daemon=True).start()
        elif kind == "LinkDown":
            self.tray_connected = False
        elif kind == "DistanceSample":
            self.distance_mm = event.mm
        elif hasattr(event, "dice") and kind in ("HeatHeight", "DieAdded", "DieRemoved"):
            self.stack = event.dice
        elif kind == "Collapse":
            self.stack = event.standing

    @staticmethod
    def _stream_samples(tray: Any) -> None:
        try:
            tray.set_raw(True)
        except Exception as err:  # noqa: BLE001 - no live distance is a missing line, not a failure
            log.warning("hardware setup: the tray would not stream distances: %s", err)

    # -- the pads ------------------------------------------------------------------

    def watch_pins(self) -> bool:
        """Watch every usable pin for a press. False (and ``pads_problem`` says why) if there are no pins."""
        self.unwatch_pins()
        self.pads_problem = ""
        try:
            from gpiozero import DigitalInputDevice
            from gpiozero.exc import BadPinFactory, GPIOZeroError
        except ImportError as err:
            self.pads_problem = f"gpiozero is not installed ({err})"
            return False
        for pin in sorted(USABLE_PINS):
            try:
                # A plain input, not a Button: no hold thread per pin (22 of them), so closing is instant.
                button = DigitalInputDevice(pin, pull_up=True, bounce_time=None, pin_factory=self._pin_factory)
            except BadPinFactory as err:
                self.unwatch_pins()
                self.pads_problem = f"this machine has no GPIO pins gpiozero can use ({err})"
                return False
            except GPIOZeroError as err:
                log.warning("hardware setup: GPIO%d cannot be watched: %s", pin, err)
                continue
            button.when_activated = lambda _device, p=pin: self._events.put(("pin", p))
            self._buttons.append(button)
        return True

    def unwatch_pins(self) -> None:
        for button in self._buttons:
            button.close()
        self._buttons = []

    def restart_pads(self) -> None:
        self.pads, self.refused = [], ""

    def next_button(self) -> tuple[int, str] | None:
        """(pad number, colour) the screen asks for next, or None when six pads are done."""
        if self.pads and len(self.pads[-1]) < len(COLOURS):
            return len(self.pads), COLOURS[len(self.pads[-1])]
        if len(self.pads) >= MAX_PADS:
            return None
        return len(self.pads) + 1, COLOURS[0]

    def complete_pads(self) -> list[dict[str, int]]:
        return [pad for pad in self.pads if len(pad) == len(COLOURS)]

    def _on_pin(self, pin: int) -> None:
        wanted = self.next_button()
        if wanted is None:
            return
        for number, pad in enumerate(self.pads, start=1):
            for colour, used in pad.items():
                if used == pin:
                    self.refused = f"That button is already Pad {number} {colour.capitalize()}; press another."
                    return
        self.refused = ""
        if wanted[1] == COLOURS[0]:
            self.pads.append({})
        self.pads[-1][wanted[1]] = pin

    # -- both -------------------------------------------------------------------------

    def drain(self) -> bool:
        """Apply what the pins and the tray reported since the last call; True if anything came."""
        came = False
        while True:
            try:
                kind, value = self._events.get_nowait()
            except queue.Empty:
                return came
            came = True
            if kind == "pin":
                self._on_pin(value)
            else:
                self._on_tray(value)

    def changes(self) -> dict[str, dict[str, Any]]:
        """What to write into the site file for the choices made."""
        changes: dict[str, dict[str, Any]] = {}
        if self.pads_choice == "gpio":
            changes["pads"] = {"backend": "gpio", "pins": self.complete_pads()}
        elif self.pads_choice == "sim":
            changes["pads"] = {"backend": "sim"}
        if self.tray_choice == "serial":
            changes["tray"] = {"backend": "serial", "serial_port": "auto"}  # found by vendor id at every start
        elif self.tray_choice == "sim":
            changes["tray"] = {"backend": "sim"}
        return changes

    def close(self) -> None:
        self.unwatch_pins()
        self.close_tray()


def describe_pads(pads: list[dict[str, int]]) -> str:
    lines = []
    for number, pad in enumerate(pads, start=1):
        parts = ", ".join(f"{colour.capitalize()} GPIO{pad[colour]}" for colour in COLOURS if colour in pad)
        lines.append(f"Pad {number}: {parts}")
    return "\n".join(lines)


class HardwareSetupScreen(Screen):
    """Two panels (tray, pads) and Save. Every choice is shown in words."""

    def __init__(self, app, **kw) -> None:
        super().__init__(name="hwsetup", **kw)
        self.app = app
        self.setup: HardwareSetup | None = None
        self._ticker = None
        root = BoxLayout(orientation="vertical", padding=px(10), spacing=px(6))
        root.add_widget(Text("Hardware setup", size=24, bold=True, color=theme.ACCENT))
        panels = BoxLayout(spacing=px(8))
        panels.add_widget(self._tray_panel())
        panels.add_widget(self._pads_panel())
        root.add_widget(panels)
        self.message = Text("", size=15, color=theme.WARN)
        self.message.tag = "hw:message"
        root.add_widget(self.message)
        row = BoxLayout(size_hint_y=None, height=px(theme.TOUCH), spacing=px(8))
        for text, tag, kind, handler in [("Cancel", "hw:cancel", "quiet", self.cancel),
                                         ("Save and use", "hw:save", "accent", self.save)]:
            button = Big(text, kind=kind)
            button.tag = tag
            button.bind(on_release=lambda *_, h=handler: h())
            row.add_widget(button)
        root.add_widget(row)
        self.add_widget(root)

    def _panel(self, title: str) -> Filled:
        panel = Filled(orientation="vertical", bg=theme.PANEL, padding=px(8), spacing=px(6), radius=px(6))
        panel.add_widget(Text(title, size=19, bold=True))
        return panel

    def _buttons(self, panel, specs) -> dict[str, Big]:
        made = {}
        for text, tag, handler in specs:
            button = Big(text, kind="normal", size=16)
            button.tag = tag
            button.bind(on_release=lambda *_, h=handler: h())
            panel.add_widget(button)
            made[tag] = button
        return made

    def _tray_panel(self) -> Filled:
        panel = self._panel("Tray")
        self.tray_status = Text("", size=15)
        self.tray_status.tag = "hw:tray:status"
        self.tray_live = Text("", size=17, color=theme.ACCENT)
        self.tray_live.tag = "hw:tray:live"
        panel.add_widget(self.tray_status)
        panel.add_widget(self.tray_live)
        self.tray_buttons = self._buttons(panel, [
            ("Look for the tray again", "hw:tray:find", self.find_tray),
            ("Use this tray", "hw:tray:real", lambda: self.choose_tray("serial")),
            ("Use the simulated tray", "hw:tray:sim", lambda: self.choose_tray("sim")),
        ])
        panel.add_widget(BoxLayout())
        return panel

    def _pads_panel(self) -> Filled:
        panel = self._panel("Pads")
        self.pads_prompt = Text("", size=21, bold=True, color=theme.ACCENT)
        self.pads_prompt.tag = "hw:pads:prompt"
        self.pads_learned = Text("", size=14)
        self.pads_learned.tag = "hw:pads:learned"
        panel.add_widget(self.pads_prompt)
        panel.add_widget(self.pads_learned)
        self.pads_buttons = self._buttons(panel, [
            ("Start the pads over", "hw:pads:restart", self.restart_pads),
            ("Use these pads", "hw:pads:real", lambda: self.choose_pads("gpio")),
            ("Use simulated pads", "hw:pads:sim", lambda: self.choose_pads("sim")),
        ])
        panel.add_widget(BoxLayout())
        return panel

    # -- entering and leaving ----------------------------------------------------------

    def on_enter(self, *_) -> None:
        """Free the pins and the tray from the kiosk, then look for both."""
        self.app.release_hardware()
        self.setup = HardwareSetup(self.app.config_hw, pin_factory=getattr(self.app, "pin_factory", None))
        self.message.text = ""
        self.setup.watch_pins()
        self.find_tray()
        self._ticker = Clock.schedule_interval(lambda dt: self.refresh(), 0.1)

    def on_leave(self, *_) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        if self.setup is not None:
            self.setup.close()
            self.setup = None

    # -- actions ---------------------------------------------------------------------------
    # A tap can arrive after the screen has left (the setup is closed then): it does nothing.

    def find_tray(self) -> None:
        if self.setup is not None:
            self.setup.find_tray()
            self.refresh()

    def choose_tray(self, choice: str) -> None:
        if self.setup is not None:
            self.setup.tray_choice = choice
            self.refresh()

    def restart_pads(self) -> None:
        if self.setup is not None:
            self.setup.restart_pads()
            self.setup.pads_choice = None
            self.refresh()

    def choose_pads(self, choice: str) -> None:
        if self.setup is not None:
            self.setup.pads_choice = choice
            self.refresh()

    def cancel(self) -> None:
        self.app.leave_hwsetup(saved=False)

    def save(self) -> None:
        setup = self.setup
        if setup is None:
            return
        if setup.tray_choice is None or setup.pads_choice is None:
            self.message.text = "Choose the tray and the pads first (real or simulated) before saving."
            return
        problem = self.app.save_hardware(setup.changes(), {"pads": setup.pads_choice, "tray": setup.tray_choice})
        if problem:
            self.message.text = esc(problem)
            return
        self.app.leave_hwsetup(saved=True)

    # -- drawing -----------------------------------------------------------------------------

    def refresh(self) -> None:
        setup = self.setup
        if setup is None:
            return
        setup.drain()
        if setup.tray_port is None:
            status = "No tray on USB (looked for its vendor id). Plug it in and look again, or use the simulated tray."
        elif setup.tray_connected:
            status = f"Tray found on {setup.tray_port} and talking."
        else:
            status = f"Tray found on {setup.tray_port}; waiting for it to say hello."
        self.tray_status.text = esc(status)
        distance = "-" if setup.distance_mm is None else f"{setup.distance_mm} mm"
        stack = stack_words(setup.stack)
        self.tray_live.text = f"Distance: {distance}   Stack: {stack}" if setup.tray_port else ""
        self.tray_buttons["hw:tray:real"].disabled = not setup.tray_connected
        wanted = setup.next_button()
        if setup.pads_problem:
            self.pads_prompt.text = "No pins to watch"
            self.pads_learned.text = esc(setup.pads_problem + ". Use simulated pads, or run this on the Pi.")
        else:
            self.pads_prompt.text = (f"Pad {wanted[0]}, press {wanted[1].capitalize()}" if wanted
                                     else "Six pads learned")
            learned = describe_pads(setup.pads)
            self.pads_learned.text = esc("\n".join(filter(None, [setup.refused, learned])))
        complete = len(setup.complete_pads())
        real = self.pads_buttons["hw:pads:real"]
        real.disabled = complete == 0
        real.text = {0: "Use these pads", 1: "Use this one pad"}.get(complete, f"Use these {complete} pads")
        for tag, value in (("hw:pads:real", "gpio"), ("hw:pads:sim", "sim")):
            self.pads_buttons[tag].kind = "good" if setup.pads_choice == value else "normal"
        for tag, value in (("hw:tray:real", "serial"), ("hw:tray:sim", "sim")):
            self.tray_buttons[tag].kind = "good" if setup.tray_choice == value else "normal"
