"""The first-boot hardware setup, walked through the real widgets (issue 22).

gpiozero's MockFactory stands in for the Pi's pins and the virtual tray (the firmware's
own logic on a pseudo-terminal) for the tray, found "on USB" by its vendor id. The walk
ends with a site config, and a second kiosk then starts on it with the gpio and serial
backends.
"""

from __future__ import annotations

import os

import pytest

from hardware.config import Config, ConfigError, load_config, write_site_config

needs_display = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")

PADS = [{"black": 4, "white": 17, "gray": 27}, {"black": 23, "white": 24, "gray": 25}]


# -- writing the site file --------------------------------------------------------------------


def test_the_site_file_gets_the_pads_and_tray_and_keeps_everything_else(tmp_path):
    site = tmp_path / "table-noir.toml"
    site.write_text('[kiosk]\nidle_attract_s = 600\n[tray]\nsettle_ms = 700\n')
    config = write_site_config(site, {"pads": {"backend": "gpio", "pins": PADS},
                                      "tray": {"backend": "serial", "serial_port": "auto"}})
    again = load_config(site)
    assert again == config
    assert again.pads.backend == "gpio" and [p.model_dump() for p in again.pads.pins] == PADS
    assert again.tray.backend == "serial" and again.tray.settle_ms == 700  # kept
    assert again.kiosk.idle_attract_s == 600  # kept


def test_a_bad_change_is_refused_and_the_file_is_left_as_it_was(tmp_path):
    site = tmp_path / "table-noir.toml"
    site.write_text("[kiosk]\nidle_attract_s = 600\n")
    with pytest.raises(ConfigError, match="GPIO4 is already used"):
        write_site_config(site, {"pads": {"backend": "gpio", "pins": [PADS[0], {"black": 4, "white": 5, "gray": 6}]}})
    assert site.read_text() == "[kiosk]\nidle_attract_s = 600\n"


# -- the screen ---------------------------------------------------------------------------------


def _wait(condition, seconds: float = 10.0) -> bool:
    from .uiplay import wait_for

    return wait_for(condition, seconds)


@pytest.fixture
def tray_on_usb(tmp_path, monkeypatch):
    """A virtual tray with three dice up, listed among the serial ports with the tray board's vendor id."""
    from serial.tools import list_ports
    from serial.tools.list_ports_common import ListPortInfo

    from hardware.virtual_tray import VirtualTray

    vt = VirtualTray(Config(), seed=2, link=tmp_path / "tray-link", start_dice=3).start()
    info = ListPortInfo(str(tmp_path / "tray-link"), skip_link_detection=True)
    info.vid, info.pid, info.interface = 0x239A, 0x80F4, "CircuitPython CDC2 data"
    other = ListPortInfo("/dev/ttyUSB9", skip_link_detection=True)
    other.vid, other.interface = 0x0403, "FT232R"  # a serial adapter that is not the tray
    monkeypatch.setattr(list_ports, "comports", lambda *a, **k: [other, info])
    yield vt
    vt.close()


def _start(data_dir, site, force_sim: bool):
    from kivy.base import EventLoop

    from kiosk.launch import app_class, configure
    from kiosk.ui import overlays
    from testkit import drive

    overlays.ANIMATION_SCALE["value"] = 0
    drive.DRAW["value"] = False
    configure((800, 480), maxfps=0)
    app = app_class()(data_dir=str(data_dir), config_path=str(site), force_sim=force_sim, realtime_sim=False,
                           pi=True)
    app._run_prepare()
    EventLoop.window.size = (800, 480)
    drive.pump(2)
    app.ready()
    drive.pump(1)
    return app


def _texts(tag: str) -> str:
    from testkit import drive

    return " ".join(w.text for w in drive.find_all(tag))


def _press_pin(pins, pin: int) -> None:
    """Press and release a button; the screen reads the pins ten times a second."""
    pins.pin(pin).drive_low()
    _wait(lambda: False, 0.05)
    pins.pin(pin).drive_high()
    _wait(lambda: False, 0.15)


@needs_display
def test_first_boot_setup_finds_the_tray_learns_the_pads_and_the_kiosk_starts_on_them(tmp_path, pins, tray_on_usb):
    from testkit import drive

    site = tmp_path / "table-noir.toml"
    site.write_text("# written by setup-pi.sh: nothing chosen yet\n")
    app = _start(tmp_path / "data", site, force_sim=False)
    try:
        assert app.sm.current == "hwsetup"  # the first start on a Pi opens the setup by itself
        assert _wait(lambda: "talking" in _texts("hw:tray:status")), _texts("hw:tray:status")
        assert str(tmp_path / "tray-link") in _texts("hw:tray:status")
        assert _wait(lambda: "Stack: 3 dice" in _texts("hw:tray:live")), _texts("hw:tray:live")
        assert _wait(lambda: "Distance: -" not in _texts("hw:tray:live")), _texts("hw:tray:live")
        tray_on_usb.add_die()  # the operator adds a die and sees the stack follow
        assert _wait(lambda: "Stack: 4 dice" in _texts("hw:tray:live")), _texts("hw:tray:live")

        assert drive.find("hw:pads:real").disabled  # nothing learned yet
        for number, pad in enumerate(PADS, start=1):
            for colour in ("black", "white", "gray"):
                assert _texts("hw:pads:prompt") == f"Pad {number}, press {colour.capitalize()}"
                _press_pin(pins, pad[colour])
            if number == 1:
                _press_pin(pins, 17)  # pad 1's White again, as pad 2's Black: refused, asked again
                assert "already Pad 1 White" in _texts("hw:pads:learned")
                assert _texts("hw:pads:prompt") == "Pad 2, press Black"
        assert "Pad 2: Black GPIO23, White GPIO24, Gray GPIO25" in _texts("hw:pads:learned")
        drive.press("hw:save")
        assert "Choose the tray and the pads" in _texts("hw:message")  # nothing chosen yet: nothing saved
        drive.press("hw:pads:real")
        drive.press("hw:tray:real")
        drive.press("hw:save")
        assert app.sm.current == "home"
        written = load_config(site)
        assert written.pads.backend == "gpio" and [p.model_dump() for p in written.pads.pins] == PADS
        assert written.tray.backend == "serial" and written.tray.serial_port == "auto"
        assert site.read_text().startswith("# This table's own settings")
    finally:
        _stop(app)

    app = _start(tmp_path / "data", site, force_sim=False)
    try:
        assert app.sm.current == "home"  # saved once: not asked again
        assert type(app.controller.pads).__name__ == "GpioPads"
        assert type(app.controller.tray).__name__ == "SerialTray"
        assert app.sim_pads is None and app.sim_tray is None
        assert "Simulated" not in _texts("home:problems")
        pressed = []
        app.controller.pads.subscribe(lambda event: pressed.append(event))
        _press_pin(pins, 24)  # pad 2's White, learned by pressing it
        assert _wait(lambda: any(type(e).__name__ == "ButtonPressed" for e in pressed))
        first = next(e for e in pressed if type(e).__name__ == "ButtonPressed")
        assert (first.player, first.button.value) == (2, "white")
        assert _wait(lambda: app.controller.tray.connected)
    finally:
        _stop(app)


@needs_display
def test_on_a_pi_a_simulated_part_is_said_on_home_until_the_operator_chooses_it(tmp_path, pins, monkeypatch):
    from serial.tools import list_ports

    from testkit import drive

    monkeypatch.setattr(list_ports, "comports", lambda *a, **k: [])  # no tray plugged in
    site = tmp_path / "table-noir.toml"
    site.write_text("")
    app = _start(tmp_path / "data", site, force_sim=False)
    try:
        assert app.sm.current == "hwsetup"
        assert "No tray on USB" in _texts("hw:tray:status")
        drive.press("hw:cancel")  # not now: home, saying in words what is simulated
        assert app.sm.current == "home"
        said = _texts("home:problems")
        assert "Simulated tray: no sensing" in said and "Simulated pads" in said
        app.open_hwsetup()
        drive.pump(2)
        drive.press("hw:pads:sim")
        drive.press("hw:tray:sim")
        drive.press("hw:save")
        assert app.sm.current == "home"
        assert "Simulated" not in _texts("home:problems")  # chosen on purpose: no more warning
        assert load_config(site).tray.backend == "sim"
    finally:
        _stop(app)


@needs_display
def test_the_hardware_setup_is_in_the_operator_menu(tmp_path, pins, monkeypatch):
    from serial.tools import list_ports

    from testkit import drive

    monkeypatch.setattr(list_ports, "comports", lambda *a, **k: [])
    app = _start(tmp_path / "data", _empty(tmp_path), force_sim=True)
    try:
        app.store.save_setting("hardware_confirmed", {"pads": "sim", "tray": "sim"})
        app.go_home()
        app.enter_operator()
        drive.pump(2)
        drive.press("op:hwsetup")
        assert app.sm.current == "hwsetup"
        screen = app.sm.get_screen("hwsetup")
        drive.press("hw:cancel")
        assert app.sm.current == "operator"
        # A second finger on "Cancel" and "Look again" at once: the screen has left (its setup is
        # closed) when the later taps are handled. They used to raise and stop the kiosk.
        for late_tap in (screen.find_tray, screen.restart_pads, screen.save,
                         lambda: screen.choose_tray("sim"), lambda: screen.choose_pads("sim")):
            late_tap()
        assert app.sm.current == "operator"
    finally:
        _stop(app)


def _empty(tmp_path):
    site = tmp_path / "empty.toml"
    site.write_text("")
    return site


def _stop(app) -> None:
    """Stop a kiosk started here (``drive.stop`` also takes it off the shared window)."""
    from testkit import drive

    drive.stop(app)


@needs_display
def test_a_missing_tray_is_explained_full_screen_and_found_once_plugged_in(tmp_path, pins, monkeypatch):
    from serial.tools import list_ports
    from serial.tools.list_ports_common import ListPortInfo

    from hardware.virtual_tray import VirtualTray
    from testkit import drive

    plugged: list = []
    monkeypatch.setattr(list_ports, "comports", lambda *a, **k: list(plugged))
    site = tmp_path / "table-noir.toml"
    write_site_config(site, {"pads": {"backend": "gpio", "pins": PADS}, "tray": {"backend": "serial"}})
    app = _start(tmp_path / "data", site, force_sim=False)
    vt = None
    try:
        app.store.save_setting("hardware_confirmed", {"pads": "gpio", "tray": "serial"})
        assert app.sm.current == "problem"
        said = app._screens["problem"].texts()
        assert "The tray is missing" in said and "no tray is plugged in" in said and "239a" in said
        drive.press("problem:continue")
        assert app.sm.current == "home"
        vt = VirtualTray(Config(), seed=1, link=tmp_path / "tray-link", start_dice=2).start()
        info = ListPortInfo(str(tmp_path / "tray-link"), skip_link_detection=True)
        info.vid, info.interface = 0x2E8A, "CircuitPython CDC2 data"
        plugged.append(info)  # the operator plugs the tray in: no restart needed
        assert _wait(lambda: app.controller.tray.connected, 10)
    finally:
        _stop(app)
        if vt is not None:
            vt.close()


@needs_display
def test_the_pin_library_gpiozero_drives_the_pads_with_is_in_the_log(tmp_path, pins, monkeypatch, caplog):
    import logging

    from serial.tools import list_ports

    monkeypatch.setattr(list_ports, "comports", lambda *a, **k: [])
    site = tmp_path / "table-noir.toml"
    write_site_config(site, {"pads": {"backend": "gpio", "pins": PADS}})
    with caplog.at_level(logging.INFO, logger="kiosk.parts.devices"):
        app = _start(tmp_path / "data", site, force_sim=False)
    try:
        assert "pads: gpiozero pin factory MockFactory" in caplog.text
    finally:
        _stop(app)
