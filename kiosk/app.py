"""``table-noir``: the touchscreen kiosk.

Start-up order matters for Kivy: ``configure`` sets the window size and
kiosk behaviour (no exit on Escape, on-screen keyboard on a Pi) before any
Kivy window module is imported, then ``TableNoirApp`` builds the screens.

What the app owns:

* the session store (``kiosk.store``) and the current game (``kiosk.runner``);
* the hardware, opened through ``hardware.factory`` from the configuration
  (on a desktop the simulated pads and tray), and the ``Controller`` that turns
  their events into actions on the UI thread;
* the screens (``kiosk.ui``), the sim panel, overlays, the idle timer that
  starts attract mode, and the operator PIN that guards leaving the kiosk.
"""

from __future__ import annotations

import argparse
import functools
import gc
import logging
import os
import platform
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kiosk.controller import Controller

log = logging.getLogger(__name__)

SIZES = {"800x480": (800, 480), "1280x720": (1280, 720)}


def on_pi() -> bool:
    return platform.machine() in ("aarch64", "armv7l") and Path("/proc/device-tree/model").exists()


def configure(size: tuple[int, int] = (800, 480), fullscreen: bool = False, touch_keyboard: bool | None = None,
              maxfps: int = 60, rotation: int = 0) -> None:
    """Set Kivy's window and input options. Call before anything imports a Kivy window.

    Two settings are there for latency (see "Tests and numbers" in docs/kiosk.md):

    * the ``free_all`` clock: the loop sleeps between 60 fps frames as usual, but a
      "free" trigger (the one the controller fires from the hardware threads) wakes
      it at once, so a press is handled and drawn without waiting for the next tick;
    * no multisampling: Kivy asks for 2x MSAA by default, which on a software
      renderer (llvmpipe) more than doubles the cost of every frame. The kiosk draws
      text and flat boxes, where antialiased edges are hardly visible.
    """
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    # Kivy's own ~/.kivy/config.ini is neither read nor written (a setting changed through
    # Kivy's tools would persist there), and it writes no log files of its own: on a Pi the
    # log goes to stderr, that is the journal, not the SD card. Read when kivy is imported.
    os.environ.setdefault("KIVY_NO_CONFIG", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_CLOCK", "free_all")  # read when kivy.clock is first imported
    # The kiosk uses no pydantic plugins; without this, the first model built scans every
    # installed package's entry points for them (about 40 ms of start-up here).
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "1")
    from kivy.config import Config

    Config.set("kivy", "kivy_clock", os.environ["KIVY_CLOCK"])
    Config.set("graphics", "multisamples", "0")
    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    Config.set("graphics", "resizable", "0")
    Config.set("graphics", "maxfps", str(maxfps))  # 0: no frame pacing (tests and benchmarks)
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("kivy", "exit_on_escape", "0")
    Config.set("kivy", "keyboard_mode", "systemanddock" if (touch_keyboard if touch_keyboard is not None else on_pi())
               else "system")
    Config.set("input", "mouse", "mouse,multitouch_on_demand")  # no red dots on right-click
    _one_touch_provider(Config)
    # A portrait panel (the Touch Display 2 is 720x1280) turned to landscape; Kivy turns
    # touches with the picture. Read when the window is created.
    Config.set("graphics", "rotation", str(rotation))
    _no_keyboard_builtins(Config)
    from kivy.clock import Clock

    Clock._max_fps = float(maxfps)  # the clock may already exist and read maxfps before we set it


def _one_touch_provider(config) -> None:
    """Keep SDL's pointer as the only input: one tap is one touch.

    Kivy's default config also lists ``probesysfs``, which on Linux opens every
    touchscreen under /dev/input itself. X (or the compositor) already turns the
    same finger into pointer events that reach Kivy through SDL, so on the Pi's
    touch display each tap arrived twice.
    """
    for name in config.options("input"):
        if name != "mouse":
            config.remove_option("input", name)


def _no_keyboard_builtins(config) -> None:
    """Turn off every Kivy module a plugged-in keyboard could reach (issue 19, defect 8).

    Modules listed in Kivy's config (inspector: Ctrl+E; keybinding: F11 rotates the
    screen, F12 writes screenshots; console, recorder, monitor, screen...) are activated
    when the window opens. None belongs on a kiosk; the settings panel (F1) is turned
    off in the App class itself.
    """
    for name in config.options("modules"):
        config.remove_option("modules", name)


def make_app_class():
    """Import Kivy and the screens (after ``configure``) and return the App class."""
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.uix.relativelayout import RelativeLayout
    from kivy.utils import escape_markup as esc

    from kiosk import games, lessonindex
    from kiosk.recovery import open_store
    from kiosk.store import default_path
    from kiosk.ui import theme
    from kiosk.ui.theme import Big, Filled, Text, px

    # Only what the home screen needs is imported before the first frame; the rest
    # (play screen, overlays, controller, sim panel) is imported when first used.
    def runner_class():
        from kiosk.runner import Runner

        return Runner

    class TableNoirApp(App):
        title = "Table Noir"
        use_kivy_settings = False

        # Kivy's settings panel opens on F1 with no PIN, and what is changed there is
        # kept. The kiosk's settings live in the operator menu, behind the PIN, instead.
        def _install_settings_keys(self, window) -> None:
            """Kivy binds F1 to its settings panel here; the kiosk binds nothing."""

        def open_settings(self, *_args) -> bool:
            return False

        def __init__(self, config_path: str | None = None, data_dir: str | None = None, force_sim: bool = False,
                     realtime_sim: bool = True, pi: bool | None = None, **kw: Any) -> None:
            super().__init__(**kw)
            self.is_pi = on_pi() if pi is None else pi  # tests pass pi=True to see what a Pi shows
            self._config_path, self._force_sim = config_path, force_sim
            self._config_hw = None  # read on first use, right after the first frame (see config_hw)
            path = Path(data_dir) / "sessions.sqlite3" if data_dir else default_path()
            # A damaged file is moved aside and a fresh store opened (kiosk.recovery); the operator is told.
            self.store, self.store_recovery = open_store(path, engines=games.engine_for, commit_behind=True)
            self.startup_problems: list = []  # kiosk.ui.problem.Problem, shown full-screen once ready
            self.exports = path.parent / "exports"
            self._engines = games.Engines()  # each imported when first needed, or one a frame after the first
            self.realtime_sim = realtime_sim
            self.runner = None  # the Runner of the game on screen
            self.controller: Controller | None = None
            self.sim_pads = self.sim_tray = None
            self.overlays: list = []
            self.last_input = time.monotonic()
            self.last_event = self.last_input  # the last hardware event of any kind
            self.before_attract = "home"
            self.first_frame_at: float | None = None
            self.phones = None  # kiosk.phones.bridge.PhoneBridge while the phone server runs
            self.phones_problem: str | None = None
            self.fleet = None  # kiosk.fleet.stand.StandReporter while the config names a broker (docs/stands.md)
            self._cue_folder = Path(data_dir) / "cues" if data_dir else None  # see sounds
            from kiosk.watchdog import OnScreen, Watchdog  # the standard library only: cheap

            self.watchdog = Watchdog()  # systemd's, fed by drawn frames (inert outside systemd)
            self.on_screen = OnScreen(self.store)  # the game a restart after a hang goes back to
            from kiosk.retention import Retention

            self.retention = Retention(self.store, path.parent / "archive.sqlite3",
                                       lambda: self.config_hw.kiosk.keep_finished_days)

        @functools.cached_property
        def sounds(self):
            """Sound cues (kiosk.sound), made on first use: opened with the hardware, after the
            first frame. The settings are read at each cue, so the operator's changes apply at once."""
            from kiosk.sound import KivyPlayer, Sounds

            return Sounds(lambda: self.config_hw.kiosk, KivyPlayer(self._cue_folder))

        @functools.cached_property
        def cues(self):
            """What in a game is heard (kiosk.sound.CueListener), on ``sounds``."""
            from kiosk.sound import CueListener

            return CueListener(self.sounds, playing=lambda: self.sm.current == "play")

        @property
        def config_hw(self):
            """The site configuration (``table-noir.toml`` over the defaults), read on first use.

            The first frame does not need it, so the kiosk shows its home screen before
            paying for reading and validating it. A bad file does not stop the kiosk (under
            systemd that is a restart loop on a black screen): the defaults are used, on the
            simulated table, and the problem screen names each bad field.
            """
            if self._config_hw is None:
                config = self._load_config_or_defaults()
                if self._force_sim:
                    config = config.model_copy(update={
                        "pads": config.pads.model_copy(update={"backend": "sim"}),
                        "tray": config.tray.model_copy(update={"backend": "sim"}),
                    })
                self._config_file = config  # as the file says, for "use the file's settings"
                self._config_hw = self._with_kiosk_settings(config)
            return self._config_hw

        def _load_config_or_defaults(self):
            """The site configuration, or the shipped defaults (simulated table) if it cannot be used."""
            from hardware.config import DEFAULTS, ConfigError, load_config

            try:
                return load_config(self._config_path)
            except ConfigError as err:
                log.error("%s", err)
                from kiosk.ui.problem import Problem

                self.startup_problems.append(Problem(
                    "The configuration file has errors",
                    f"{err}\nThe kiosk is running on the built-in defaults, with the simulated pads and tray.",
                    "fix the file named above (or run the hardware setup from the operator menu), then restart "
                    "the kiosk. Nothing in the saved games was touched."))
                return load_config(DEFAULTS)

        @staticmethod
        def _kiosk_changed(config, changes: dict[str, Any]):
            """``config`` with ``changes`` to its kiosk settings, checked by the config's own
            model (pydantic's ValidationError if they do not pass)."""
            from hardware.config import KioskConfig

            kiosk = KioskConfig.model_validate({**config.kiosk.model_dump(), **changes})
            return config.model_copy(update={"kiosk": kiosk})

        def _with_kiosk_settings(self, config):
            """The kiosk settings the operator changed on screen, laid over the config file's."""
            from pydantic import ValidationError

            from hardware.config import KioskConfig

            saved = {k: v for k, v in self.store.settings().items() if k in KioskConfig.model_fields}
            if "operator_pin" in saved:  # kept in plain text by older versions: keep only its hash
                from kiosk.pin import hash_pin, valid_pin

                plain = saved.pop("operator_pin")
                if isinstance(plain, str) and valid_pin(plain) and "operator_pin_hash" not in saved:
                    saved["operator_pin_hash"] = hash_pin(plain)
                    self.store.save_setting("operator_pin_hash", saved["operator_pin_hash"])
                self.store.forget_setting("operator_pin")
            if not saved:
                return config
            try:
                return self._kiosk_changed(config, saved)
            except ValidationError:  # cannot happen through change_setting; never echo a PIN into the log
                log.warning("settings saved on the kiosk are not valid any more; using the config file's")
                return config

        def change_setting(self, name: str, value: Any) -> str | None:
            """Check a kiosk setting against the config model, keep it and use it at once.

            Returns what is wrong (the value is kept out of the message) or None."""
            from pydantic import ValidationError

            from hardware.config import KioskConfig
            from kiosk.pin import hash_pin, valid_pin

            if name == "operator_pin":  # only its salted hash is ever kept
                if not (isinstance(value, str) and valid_pin(value)):
                    return "Not changed. Operator pin: 4 to 8 digits, 0-9."
                name, value = "operator_pin_hash", hash_pin(value)
            try:
                changed = self._kiosk_changed(self.config_hw, {name: value})
            except ValidationError as err:
                problem, about = err.errors()[0], KioskConfig.model_fields[name].description
                said = about if problem["type"] == "string_pattern_mismatch" else f"{problem['msg'].lower()} ({about})"
                return f"Not changed. {name.replace('_', ' ').capitalize()}: {said}."
            self.store.save_setting(name, value)
            self._config_hw = changed
            return None

        def forget_settings(self) -> None:
            """Back to the config file's kiosk settings (an organiser who edits the file
            after changing a setting here would otherwise find the kiosk's copy winning)."""
            _ = self.config_hw  # read the file first, if nothing has yet (not again: no surprise errors mid-session)
            self.store.forget_settings()
            self._config_hw = self._config_file

        # -- building -----------------------------------------------------------

        def build(self):
            Window.clearcolor = theme.BG
            self.hardware_problems: list[str] = []
            """What failed to open, in words for the operator (the home screen shows it)."""
            theme.crisp()
            theme.remember_word_widths()
            self.controller = None  # the hardware opens right after the first frame (see _first_frame)
            self.sm = theme.Screens()
            self._screens: dict[str, Any] = {}
            self.sm.add_widget(self._screen("home"))
            # A RelativeLayout, so the screen can move up above the on-screen keyboard in one
            # step (kiosk.ui.fields.keep_above_keyboard); at rest it is exactly a FloatLayout.
            root = RelativeLayout()
            from kiosk.ui.fields import TableKeyboard

            Window.set_vkeyboard_class(TableKeyboard)  # finger-sized keys
            root.add_widget(self.sm)
            self.sim_panel = None
            self.toast = Filled(size_hint=(0.9, None), height=0, pos_hint={"center_x": 0.5, "y": 0.02},
                                bg=(0.25, 0.1, 0.1, 0.95), padding=px(6), opacity=0)
            self.toast_text = Text("", size=16, fit=False)
            self.toast.add_widget(self.toast_text)
            root.add_widget(self.toast)
            self.root_float = root
            Window.bind(on_keyboard=self._on_key, on_key_up=self._on_key_up, on_request_close=self._on_request_close)
            Window.bind(on_touch_down=self._on_any_touch)
            Window.bind(on_flip=self._show_only_what_is_saved)
            self._idle_event = Clock.schedule_interval(self._idle_check, 1.0)
            self._plan_the_rest()
            Clock.schedule_once(self._first_frame, 0)
            self.watchdog.start(Clock, Window)
            return root

        def _first_frame(self, *_):
            """Runs in the first frame's clock tick, just before Home is drawn and shown: from
            the next frame on, the rest of start-up runs a step a frame (kiosk.later)."""
            self.first_frame_at = time.perf_counter()
            self.later.start()

        def _plan_the_rest(self) -> None:
            """What the first frame does not wait for, in the order the table needs it.

            The table first: the configuration, then the pads and the tray (a press is buffered
            by the controller from then on, see kiosk/controller.py) and a restart back into
            the game on screen. Then the engines, one a frame (a tap on a game's button
            imports its own at once), the play screen, the phones and the convention's
            broker, the lessons' full check, the sound files; last, while still no game
            exists, start-up's objects are frozen out of the collector's sight."""
            from kiosk.later import Later

            self.later = Later(lambda step: Clock.schedule_once(lambda dt: step(), 0))
            self.later.add("configuration", lambda: self.config_hw)  # pydantic and the site file: a step of its own
            self.later.add("table", self._open_table)
            for game in self._engines.pending():
                self.later.add(f"engine {game}", lambda game=game: self._load_engine(game))
            self.later.add("play screen", lambda: self.play.show_sim_button(self.sim_pads is not None or
                                                                            self.sim_tray is not None))
            self.later.add("phones", self._open_phones_and_fleet)
            self.later.add("lessons", self._check_lessons)
            self.later.add("sound", lambda: self.sounds.player.prepare())  # made on a worker thread the first time
            self.later.add("freeze", self._freeze_startup, idle_only=True)

        def ready(self) -> None:
            """Whatever start-up has not done yet (the configuration, the hardware, the engines,
            phones...), done now: for a touch or a restart that needs it before its turn."""
            self.later.finish()

        def _open_table(self) -> None:
            """The configuration and the hardware; then, if the last run ended without closing (a
            hang the watchdog killed, a crash, a cut cable), back into the game it had on screen
            (kiosk.watchdog.OnScreen), before any press the hardware buffered is handled."""
            _ = self.config_hw  # a bad configuration file is found here, before any hardware opens
            if self.controller is None:
                self._open_hardware()
                if self.hardware_problems and self.sm.current == "home":
                    self.home.rebuild()  # name what failed to open
                shown = self._show_startup_problems()
                if not shown and self.is_pi and self._hardware_confirmed() is None:
                    self.open_hwsetup()  # the first start on a Pi: find the tray, learn the pads
            if self.sm.current == "home" and self.runner is None:
                sid = self.on_screen.to_resume(within_s=self.config_hw.kiosk.idle_attract_s)
                if sid is not None:
                    log.warning("the kiosk did not close cleanly; resuming session %s, which was on screen", sid)
                    self.ready()
                    self._freeze_startup()  # before the game's objects exist (see _freeze_startup)
                    self.resume(sid)

        def _open_phones_and_fleet(self) -> None:
            self._open_phones()
            self._open_fleet()

        def _freeze_startup(self) -> None:
            """What start-up built (Kivy, the home screen, the engines' tables) lives as long as
            the kiosk. Frozen out of the collector's sight, a full collection scans only what
            play made since; before, one stalled the screen for 60-250 ms every few minutes of
            play. Once only, and only while no game exists: anything frozen is never freed, so
            a game's widgets and log must never be (a game begun in the first moments, before
            this step's turn, leaves start-up unfrozen; the collections still run)."""
            if getattr(self, "_frozen", False):
                return
            self._frozen = True
            if self.runner is not None or self.coach is not None:
                log.info("start-up's objects are not frozen: a game began before start-up had finished")
                return
            gc.collect()
            gc.freeze()

        def _show_startup_problems(self) -> bool:
            """Once, at start-up: a damaged store or a bad config gets the full-screen explanation.
            True if it was shown."""
            from kiosk.ui.problem import Problem, ProblemScreen

            problems = list(self.startup_problems) + self._missing_tray()
            if self.store_recovery is not None:
                problems.append(Problem(
                    "The saved-games database was damaged" if not self.store_recovery.games_kept
                    else "Some kiosk settings could not be read",
                    self.store_recovery.explain(),
                    "carry on: the kiosk works normally. To look at the old file, copy it off the SD card "
                    "(the operator menu's export does not read it)."))
            if not problems:
                return False
            if "problem" not in self._screens:
                self._screens["problem"] = ProblemScreen(self)
                self.sm.add_widget(self._screens["problem"])
            self._screens["problem"].show(problems)
            self.show_screen("problem")
            return True

        def _missing_tray(self) -> list:
            """A tray the config asks for that is not there at start-up, as a Problem (or none)."""
            from kiosk.ui.problem import Problem

            tray = self.config_hw.tray
            failed = [p for p in self.hardware_problems if p.startswith("Tray not working")]
            if tray.backend == "serial" and not failed:
                from hardware.backends.serial import TRAY_VENDOR_IDS, find_tray_port

                port = tray.serial_port
                if port == "auto" and find_tray_port() is None:
                    ids = ", ".join(f"{vid:04x}" for vid in TRAY_VENDOR_IDS)
                    failed = [f"The config asks for the tray on USB, and no tray is plugged in (looked for "
                              f"USB vendor ids {ids})."]
                elif port.startswith("/") and not Path(port).exists():
                    failed = [f"The config asks for the tray on {port}, and there is no such port."]
            if not failed:
                return []
            return [Problem(
                "The tray is missing",
                " ".join(failed) + " The kiosk keeps looking for it: once it is plugged in it is found without "
                "a restart. Meanwhile throws and the Heat are entered by touch.",
                "check the tray's USB cable (the data port of the board in the tray), or open the operator menu's "
                "Hardware setup to find it or to choose the simulated tray.")]

        # -- the hardware setup (kiosk.ui.hwsetup): first start on a Pi, and the operator menu ----

        def _hardware_confirmed(self) -> dict[str, str] | None:
            from kiosk.ui.hwsetup import CONFIRMED

            value = self.store.settings().get(CONFIRMED)
            return value if isinstance(value, dict) else None

        def open_hwsetup(self) -> None:
            if "hwsetup" not in self._screens:
                from kiosk.ui.hwsetup import HardwareSetupScreen

                self._screens["hwsetup"] = HardwareSetupScreen(self)
                self.sm.add_widget(self._screens["hwsetup"])
            self._screens["hwsetup"].back_to = self.sm.current if self.sm.current != "hwsetup" else "home"
            self.show_screen("hwsetup")

        # -- the maker's bench test (kiosk.ui.bench), from the operator menu ----------------------

        def open_bench(self) -> None:
            """The tray bench test. A real tray is let go for the walk (the bench opens it with every
            reading on) and opened again by ``leave_bench``; the simulated table is left running."""
            if "bench" not in self._screens:
                from kiosk.ui.bench import BenchScreen

                self._screens["bench"] = BenchScreen(self)
                self.sm.add_widget(self._screens["bench"])
            self._bench_released = self.sim_tray is None and self.config_hw.tray.backend != "sim"
            if self._bench_released:
                self.release_hardware()
            self.show_screen("bench")

        def leave_bench(self) -> None:
            self._screens["bench"].on_leave()  # the walk and its tray link go first
            if getattr(self, "_bench_released", False):
                self._bench_released = False
                self.reopen_hardware()
            self.show_screen("operator")

        def release_hardware(self) -> None:
            """Close the pads and the tray so the hardware setup can watch the pins and the port itself."""
            self._close_hardware()

        def save_hardware(self, changes: dict[str, dict[str, Any]], chosen: dict[str, str]) -> str | None:
            """Write the hardware setup's choices into the site file; what is wrong, or None."""
            from hardware.config import ConfigError, site_config_target, write_site_config
            from kiosk.ui.hwsetup import CONFIRMED

            target = site_config_target(self._config_path)
            try:
                write_site_config(target, changes)
            except (ConfigError, OSError) as err:
                log.error("hardware setup not saved: %s", err)
                return f"Not saved: {err}"
            self.store.save_setting(CONFIRMED, chosen)
            self._config_path = str(target)
            self._config_hw = None  # read again, with the new pads and tray
            log.info("hardware setup saved to %s: pads %s, tray %s", target, chosen["pads"], chosen["tray"])
            return None

        def leave_hwsetup(self, saved: bool) -> None:
            """Back to where the setup was opened from, with the pads and the tray opened again."""
            screen = self._screens.get("hwsetup")
            if screen is not None:
                screen.on_leave()  # its pins and its tray link go first, so the kiosk can open them
            self.reopen_hardware()
            back = getattr(self._screens.get("hwsetup"), "back_to", "home")
            self.show_screen(back if back in self._screens and back not in ("hwsetup", "problem") else "home")
            if back == "home" or self.sm.current == "home":
                self.home.rebuild()
            if saved:
                self.message("Hardware setup saved: " + "; ".join(self.hardware_problems or ["pads and tray working"]))

        # -- screens are built on first use, so the home screen shows at once ----------

        SCREENS = {"home": "HomeScreen", "setup": "SetupScreen", "play": "PlayScreen", "rules": "RulesScreen",
                   "operator": "OperatorScreen", "attract": "AttractScreen", "join": "JoinScreen"}
        MODULES = {"play": "kiosk.ui.play", "join": "kiosk.ui.join", "attract": "kiosk.ui.attract"}

        def _screen(self, name: str):
            screen = self._screens.get(name)
            if screen is None:
                import importlib

                module = importlib.import_module(self.MODULES.get(name, "kiosk.ui.screens"))
                kind = getattr(module, self.SCREENS[name])
                screen = self._screens[name] = kind(self)
                if name != "home":
                    self.sm.add_widget(screen)
            return screen

        home = property(lambda self: self._screen("home"))
        setup_screen = property(lambda self: self._screen("setup"))
        play = property(lambda self: self._screen("play"))
        rules = property(lambda self: self._screen("rules"))
        operator = property(lambda self: self._screen("operator"))
        attract = property(lambda self: self._screen("attract"))

        # -- games: the menu shows at once, each engine loads when needed or in its turn ----

        def _load_engine(self, game: str) -> None:
            """Import ``game``'s engine now (start-up's turn for it); one that fails leaves Home."""
            if game not in self._engines and self.sm.current == "home":
                self.home.rebuild()  # the broken game's card goes

        @property
        def engines(self):
            """Every playable game's engine by name (kiosk.games.Engines): ``engines[game]``
            imports that game's engine if it is not loaded yet, and only that one."""
            return self._engines

        def menu(self) -> list[tuple[str, str]]:
            """(game, title) for the home screen, without importing any engine."""
            return self._engines.menu()

        def title_of(self, game: str) -> str:
            return self._engines.title(game)

        def _close_hardware(self) -> None:
            """Stop listening to the pads and the tray and close them; one already gone is only logged."""
            c = self.controller
            if c is None:
                return
            c.close()
            for port in (c.pads, c.tray):
                if port is not None:
                    try:
                        port.close()
                    except Exception as err:  # noqa: BLE001 - a port already gone (unplugged) is no news
                        log.warning("closing %s: %s", type(port).__name__, err)

        def reopen_hardware(self) -> None:
            """Close the pads and the tray and open them again, for hardware plugged in (or
            fixed) after start-up. The game on screen carries on with the new ports."""
            old = self.controller
            self._close_hardware()
            self._open_hardware()
            if old is not None:
                self.controller.runner = old.runner
            self.play.show_sim_button(self.sim_pads is not None or self.sim_tray is not None)
            if self.sim_panel is not None:
                self.sim_panel.rebuild()
            if self.sm.current == "home":
                self.home.rebuild()
            log.info("hardware opened again: %s", "; ".join(self.hardware_problems) or "pads and tray working")

        def _open_hardware(self) -> None:
            """Open the pads and the tray. One that fails is named on the home screen (and in
            the log); the kiosk carries on with answers by touch instead of crashing."""
            pads = tray = None
            self.hardware_problems = []
            self.sim_pads = self.sim_tray = None
            try:
                from hardware import factory
            except ImportError as err:
                log.warning("hardware factory not available (%s); running without pads or tray", err)
                self.hardware_problems.append(f"Pads and tray: the hardware layer did not load ({err}).")
                factory = None
            if factory is not None:
                try:
                    pads = factory.open_pads(self.config_hw)
                except Exception as err:  # noqa: BLE001 - no pads is a message, not a crash
                    log.warning("pads not available: %s", err)
                    self.hardware_problems.append(
                        f"Pads not working: {err}. Secret answers go on the screen, passed to each player.")
                try:
                    if self.config_hw.tray.backend == "sim":
                        from hardware.sim import SimTray

                        tray = SimTray(self.config_hw, seed=int(time.time()), realtime=self.realtime_sim)
                    else:
                        tray = factory.open_tray(self.config_hw)
                except Exception as err:  # noqa: BLE001
                    log.warning("tray not available: %s", err)
                    self.hardware_problems.append(f"Tray not working: {err}. Throws and the Heat are entered by touch.")
            if pads is not None and type(pads).__name__ == "SimPads":
                self.sim_pads = pads
            elif pads is not None:
                self._log_pin_factory()
            if tray is not None and hasattr(tray, "throw"):
                self.sim_tray = tray
            self._name_simulated_parts()
            from kiosk.controller import Controller

            # A free trigger wakes the sleeping loop at once (see configure); with another
            # clock (kivy.clock imported before configure) it is an ordinary trigger.
            make_trigger = getattr(Clock, "create_trigger_free", Clock.create_trigger)
            trigger = make_trigger(lambda dt: self.controller.drain(), 0)
            self.controller = Controller(pads, tray, post=lambda fn: trigger())
            self.controller.on_message = self.message
            self.controller.on_handled.append(self._hardware_activity)
            self.controller.on_handled.append(self._phone_handled)
            self.controller.on_handled.append(self.cues.on_handled)  # the tray sensing a collapse is heard
            self.controller.on_hint = lambda hint: self.play.apply_hint(hint) if self.sm.current == "play" else None
            self.controller.on_sheet_hold = lambda who: self.play.open_by_hold(who) if self.sm.current == "play" else None
            self.controller.on_tray = lambda state: self.play.update_status() if self.sm.current == "play" else None

        @staticmethod
        def _log_pin_factory() -> None:
            """Say in the journal which pin library gpiozero drives the pads with (lgpio on a Pi,
            by the unit's GPIOZERO_PIN_FACTORY): a slow or wrong one is then one line to find."""
            try:
                from gpiozero import Device

                log.info("pads: gpiozero pin factory %s", type(Device.pin_factory).__name__)
            except ImportError:
                pass

        def _name_simulated_parts(self) -> None:
            """On a Pi, a simulated part is said on the home screen in words until the operator
            chooses it in the hardware setup (a Pi on the sim by accident is a table that senses nothing)."""
            if not self.is_pi:
                return
            confirmed = self._hardware_confirmed() or {}
            if self.sim_pads is not None and confirmed.get("pads") != "sim":
                self.hardware_problems.append(
                    "Simulated pads: secret answers by touch only. Operator menu, Hardware setup, to learn the pads.")
            if self.sim_tray is not None and confirmed.get("tray") != "sim":
                self.hardware_problems.append(
                    "Simulated tray: no sensing. Operator menu, Hardware setup, to find the tray.")

        def on_start(self) -> None:
            self.show_screen("home")

        def on_stop(self) -> None:
            self.later.cancel()  # start-up steps still waiting open nothing now
            self._close_phones()
            if self.fleet is not None:
                self.fleet.close()  # "offline", said by the stand itself
                self.fleet = None
            self._close_hardware()
            self.watchdog.stop()
            if getattr(self, "_idle_event", None) is not None:
                self._idle_event.cancel()  # a stopped kiosk neither idles nor archives (its store is closed)
            self.on_screen.showing(None)  # closed on purpose: the next start opens at home
            self.store.close()
            gc.unfreeze()  # what start-up built may be garbage now (tests start many kiosks in one process)

        # -- navigation ------------------------------------------------------------

        def show_screen(self, name: str) -> None:
            self._screen(name)
            if self.sm.current != name:
                theme.screen_changed()
            self.sm.current = name
            if self.coach is not None and name == "play":  # a lesson's coach: under its play screen only
                self.coach.show(self.root_float, self.sm)
            elif self.coach is not None:
                self.coach.hide()

        def go_home(self) -> None:
            self.ready()
            self.end_lesson()
            self.controller.runner = None
            self.on_screen.showing(None)
            if self.phones is not None:
                self.phones.detach()  # the game's join links stop working
            self.show_screen("home")
            self.home.rebuild()
            # Between games nobody is in the middle of an action: free what the last game
            # left now, even if nobody paused for a second (usually the quiet check has).
            self.collect_garbage()

        def open_setup(self, game: str) -> None:
            if game not in self.engines:  # its engine is imported here if start-up has not yet
                self.message(f"{self.title_of(game)} cannot be played on this kiosk: its rules did not load "
                             "(the log says why).", refused=True)
                self.home.rebuild()  # its card goes
                return
            self.setup_screen.load(game)
            self.show_screen("setup")

        def open_rules(self, game: str) -> None:
            self.rules.load(game, back_to=self.sm.current if self.sm.current != "rules" else "home")
            self.show_screen("rules")

        def start_game(self, game: str, setup: dict[str, Any]) -> None:
            self._attach(runner_class().new(self.store, self.engines[game], setup))

        def resume(self, sid: int) -> None:
            try:
                self._attach(runner_class().resume(self.store, sid))
            except Exception as err:  # noqa: BLE001 - an unreadable log: say so, keep the kiosk up
                self.message(f"Cannot resume session {sid}: {err}", refused=True)

        def open_scenarios(self) -> None:
            """Designer mode's "Start from a scenario" (kiosk.ui.scenarios)."""
            from kiosk.ui.scenarios import ScenarioPicker

            self.show_overlay(ScenarioPicker(self))

        def start_scenario(self, path: Path) -> str | None:
            """Play a scenario file's moves and attach the game, or say (naming the file) why not.
            A refusal changes nothing: no session is stored and the game in play stays."""
            from kiosk import scenario

            try:
                session = scenario.start(path)
            except scenario.ScenarioError as err:
                return str(err)
            if session.engine.game not in self.engines:
                return f"{path}: {session.engine.title} cannot be played on this kiosk"
            try:
                sid = self.store.create(session)
            except Exception as err:  # noqa: BLE001 - a full or broken disk: say so, keep the kiosk up
                return f"Cannot store the scenario's game: {err}"
            self._attach(runner_class()(self.store, session, sid))
            return None

        def _attach(self, runner) -> None:
            self.ready()
            if runner is not getattr(getattr(self, "coach", None), "runner", None):
                self.end_lesson()  # the real game after a lesson, or any other game
            self.runner = runner
            self.controller.runner = runner
            self.on_screen.showing(runner.sid)
            self.play.attach(runner)
            self.cues.watch(runner)  # after the play screen: a change is drawn, then heard
            if self.phones is not None:
                self.phones.attach(runner)
            self._show_join_button()
            self.show_screen("play")
            if self.sim_panel is not None:
                self.sim_panel.rebuild()

        # -- lessons (kiosk.lesson, kiosk.ui.coach, docs/lessons.md) ------------------------

        coach = None  # the coach bar (kiosk.ui.coach.CoachBar) while a lesson is on

        def _lesson_folders(self) -> list[Path]:
            return [lessonindex.SHIPPED, self.exports.parent / "lessons"]  # shipped, then the designer's own

        def lesson_for(self, game: str):
            """The lesson Home offers for ``game`` (shipped in lessons/, or the data folder's lessons/):
            until start-up has checked the lessons, only its file's game and length (kiosk.lessonindex)."""
            if getattr(self, "_lessons", None) is None:
                self._lessons = lessonindex.offers(self._lesson_folders())
            return next((item for item in self._lessons if item.game == game), None)

        def _check_lessons(self) -> None:
            """Start-up's turn to check every lesson fully; one that fails is named in the log and
            its button leaves Home."""
            from kiosk import lesson

            offered = [(item.game, item.minutes) for item in self._lessons or []]
            listed = lesson.listing(self._lesson_folders())
            for item in listed:
                if item.problem:
                    log.warning("lesson not offered: %s", item.problem)
            self._lessons = [item.lesson for item in listed if item.lesson]
            if [(item.game, item.minutes) for item in self._lessons] != offered and self.sm.current == "home":
                self.home.rebuild()

        def start_lesson(self, lesson) -> None:
            """Play the lesson's scenario on a LessonRunner, with the coach under the play screen.
            ``lesson`` is a checked ``kiosk.lesson.Lesson``, or Home's ``lessonindex.Offer`` (a tap
            before start-up checked the lessons), checked here."""
            from kiosk.lesson import LessonError, LessonRunner, load
            from kiosk.ui.coach import CoachBar

            try:
                if isinstance(lesson, lessonindex.Offer):
                    lesson = load(lesson.path)
                runner = LessonRunner.begin(self.store, lesson)
            except LessonError as err:
                self.message(str(err))
                return
            self.end_lesson()
            self.coach = CoachBar(self, runner)
            self._attach(runner)

        def end_lesson(self) -> None:
            """Take the coach away; the lesson's game is set aside (it is not a game to resume)."""
            coach, self.coach = self.coach, None
            if coach is None:
                return
            coach.hide()
            self.store.abandon(coach.runner.sid)
            if self.runner is coach.runner:
                self.runner = None

        def leave_lesson(self) -> None:
            self.go_home()

        def _show_only_what_is_saved(self, *_) -> bool:
            """Runs just before each frame is shown: nothing reaches the screen before it is on disk.

            An accepted action's commit runs on the store's worker thread while this
            frame is built and drawn; here the frame waits for it (usually it is done).
            If it failed, the runner has taken the action back and the screen has
            followed; this frame, drawn before that, is not shown (returning True stops
            Kivy's flip), and the table is told.
            """
            runner = self.runner
            if runner is None:
                return False
            runner.settle()
            if runner.unsaved is None:
                return False
            err, runner.unsaved = runner.unsaved, None
            log.error("%s", err)
            for overlay in list(self.overlays):
                overlay.dismiss()
            self.message(f"{err}. It was taken back: check the storage, then play it again.", refused=True)
            return True

        # -- phones (kiosk.phones, docs/phones.md) ---------------------------------------

        def phones_on(self) -> bool:
            return bool(self.config_hw.kiosk.phones)

        def _open_phones(self) -> None:
            """Start the phone server if the settings allow phones; a port in use is a message, not a crash."""
            self.phones_problem = None
            if not self.phones_on() or self.phones is not None:
                return
            from kiosk.phones.bridge import PhoneBridge
            from kiosk.phones.server import PhoneServer

            cfg = self.config_hw.phones
            server = PhoneServer(cfg.listen, cfg.port, submit=self._phone_submit, join_host=cfg.join_host)
            try:
                server.start()
            except OSError as err:
                log.warning("phone server not started on %s port %s: %s", cfg.listen, cfg.port, err.strerror or err)
                self.phones_problem = (f"Phones cannot join: port {cfg.port} on {', '.join(cfg.listen)} is not "
                                       f"available ({err.strerror or err}). Pads and the touchscreen work as always.")
                return
            # Joins and takeovers are said on the shared screen (from the server's thread: via the clock).
            # The phones' frames are built after the shared screen's frame is up (any positive delay
            # puts a scheduled call in the next frame's clock tick, after this frame's flip).
            self.phones = PhoneBridge(server, say=lambda text: Clock.schedule_once(lambda dt: self.message(text)),
                                      later=lambda push: Clock.schedule_once(lambda dt: push(), 0.001))
            if self.runner is not None and self.sm.current == "play":
                self.phones.attach(self.runner)

        def _open_fleet(self) -> None:
            """Report to the convention's broker if the config names one; returns at once (kiosk.fleet)."""
            if self.config_hw.fleet.broker and self.fleet is None:
                from kiosk.fleet.stand import open_stand

                self.fleet = open_stand(self, self.exports.parent)

        def _close_phones(self) -> None:
            if self.phones is not None:
                self.phones.detach()
                self.phones.server.stop()
                self.phones = None

        def _phone_submit(self, event) -> None:
            """A phone's action (on the server's thread): into the controller's queue, like a pad press."""
            controller = self.controller
            if controller is not None:
                controller.receive(event)

        def _phone_handled(self, handled) -> None:
            if self.phones is not None:
                self.phones.handled(handled)

        def ask_phones(self, on: bool) -> None:
            """Phones on or off is the operator's call: the PIN first."""
            self.ask_operator(lambda: self.set_phones(on), why="Operator PIN to turn phones " + ("on" if on else "off"))

        def set_phones(self, on: bool) -> None:
            problem = self.change_setting("phones", on)
            if problem:
                self.message(problem, refused=True)
                return
            if on:
                self._open_phones()
            else:
                self._close_phones()
            self._show_join_button()
            if self.sm.current == "join":
                self.join.refresh()

        def open_join(self) -> None:
            self.join.back_to = self.sm.current if self.sm.current != "join" else "play"
            self.show_screen("join")

        join = property(lambda self: self._screen("join"))

        def _show_join_button(self) -> None:
            """The play screen's "Phones" button, beside Rules (there while a game is on screen)."""
            bar = self.play.bar
            for old in [b for b in bar.children if getattr(b, "tag", "") == "bar:phones"]:
                bar.remove_widget(old)
            b = Big("Phones", kind="quiet", size=theme.READ, size_hint_x=0.09)
            b.tag = "bar:phones"
            b.bind(on_release=lambda *_: self.open_join())
            rules = next(w for w in bar.children if getattr(w, "tag", "") == "bar:rules")
            bar.add_widget(b, index=bar.children.index(rules) + 1)

        # -- overlays and messages ---------------------------------------------------

        def show_overlay(self, overlay) -> None:
            self.overlays.append(overlay)
            overlay.bind(on_dismiss=lambda o: self._overlay_gone(o))
            overlay.open(animation=False)
            theme.screen_changed()

        def _overlay_gone(self, overlay) -> None:
            if overlay in self.overlays:
                self.overlays.remove(overlay)
            theme.screen_changed()  # what is under it is in reach again

        def message(self, text: str, refused: bool = False) -> None:
            """Tell the table ``text``: on the play screen in red if something was ``refused``
            (or failed), else in the notice style; elsewhere as a toast."""
            if self.sm.current == "play":
                (self.play.error if refused else self.play.notice).text = esc(text)
                return
            self.toast_text.text = esc(text)
            self.toast.height, self.toast.opacity = px(44), 1
            Clock.schedule_once(lambda dt: setattr(self.toast, "opacity", 0), 5)

        # -- operator ----------------------------------------------------------------

        @property
        def pin_hash(self) -> str:
            """The salted hash of the PIN in force: the one kept on the kiosk or in the file,
            else the file's plain PIN hashed once (it never reaches the store)."""
            from kiosk.pin import hash_pin

            kiosk = self.config_hw.kiosk
            if kiosk.operator_pin_hash:
                return kiosk.operator_pin_hash
            plain, hashed = getattr(self, "_plain_pin_hash", (None, ""))
            if plain != kiosk.operator_pin:
                self._plain_pin_hash = (kiosk.operator_pin, hash_pin(kiosk.operator_pin))
            return self._plain_pin_hash[1]

        @property
        def pin_lockout(self):
            """Wrong PINs in a row and the wait they earned, kept in the store (a restart does not reset them)."""
            from kiosk.pin import Lockout

            def load() -> tuple[int, float]:
                wrong, until = self.store.settings().get("pin_lockout", [0, 0.0])
                return int(wrong), float(until)

            return Lockout(load, lambda wrong, until: self.store.save_setting("pin_lockout", [wrong, until]))

        def ask_operator(self, on_ok=None, why: str = "Operator PIN") -> None:
            """The PIN pad; ``on_ok`` (default: the operator menu) runs only after the right PIN.

            The PIN the project ships with is public: the first time it is used, the
            operator must choose their own before going on."""
            from kiosk.pin import DEFAULT_PIN, check
            from kiosk.ui.overlays import NewPin, PinPad

            on_ok = on_ok or self.enter_operator
            stored = self.pin_hash

            def accepted(typed: str) -> None:
                if not check(DEFAULT_PIN, stored):
                    on_ok()
                    return

                def chosen(pin: str) -> None:
                    problem = "Not changed: choose a PIN other than the one the kiosk ships with." \
                        if pin == DEFAULT_PIN else self.change_setting("operator_pin", pin)
                    if problem:
                        self.message(problem, refused=True)
                        return
                    on_ok()

                self.show_overlay(NewPin(chosen, heading="Choose your own operator PIN first (4 to 8 digits, then OK): "
                                                         "the one the kiosk ships with is public"))

            self.show_overlay(PinPad(lambda typed: self.pin_lockout.attempt(typed, stored), accepted, heading=why))

        def enter_operator(self) -> None:
            self.operator.back_to = self.sm.current
            self.show_screen("operator")

        def leave_operator(self) -> None:
            self.show_screen(getattr(self.operator, "back_to", "home"))

        def export_current(self) -> None:
            sid = self.runner.sid if self.runner else (self.store.sessions()[0].id if self.store.sessions() else None)
            if sid is None:
                self.message("There is no session to export yet.")
                return
            try:
                self.exports.mkdir(parents=True, exist_ok=True)
                log_path = self.store.export_jsonl(sid, self.exports / f"session-{sid}.jsonl")
                recap = self.store.export_recap(sid, self.exports / f"session-{sid}-recap.txt")
                story = recap.read_text(encoding="utf-8")
            except OSError as err:  # a full, read-only or missing disk, or no file handle left
                from kiosk.phones.limits import export_problem

                log.warning("export of session %s failed: %s", sid, err)
                self.message(export_problem(err, self.exports), refused=True)  # a failure: in red
                return
            said = (f"Saved on this kiosk, in the folder {log_path.parent}: {recap.name} (the story, to read) "
                    f"and {log_path.name} (the full log, to replay). The operator can copy them off.")
            self.message(said)
            if self.phones is not None:  # phones can join: the story is a scan away too
                from kiosk.ui.gamemenu import RecapCode

                url = self.phones.server.publish_recap(story)
                self.show_overlay(RecapCode(url, said))

        # -- leaving a game: pause (anyone) or abandon (the operator) -------------------

        def open_game_menu(self) -> None:
            """The play screen's Menu: pause and go home, save the log, abandon (PIN), operator (PIN)."""
            from kiosk.ui.gamemenu import GameMenu

            self.show_overlay(GameMenu(self))

        def pause_game(self) -> None:
            """Leave the game for the home screen, no PIN: it is on disk already, move by move,
            and waits in the home screen's list to be resumed."""
            self.go_home()

        def ask_abandon(self) -> None:
            """Giving a game up for good is the operator's call: the PIN, then a last question."""
            from kiosk.ui.overlays import Confirm

            runner = self.runner
            if runner is None:
                return

            def confirm() -> None:
                self.show_overlay(Confirm(f"Abandon this game of {self.title_of(runner.engine.game)} for good? "
                                          "It leaves the home screen's list; its log is kept for export.",
                                          "Abandon it", lambda: self.abandon(runner.sid)))

            self.ask_operator(confirm, why="Operator PIN to abandon this game")

        def abandon(self, sid: int) -> None:
            self.store.abandon(sid)
            if self.runner is not None and self.runner.sid == sid:
                self.runner = None
            self.go_home()

        def ask_clear(self) -> None:
            from kiosk.ui.overlays import Confirm

            self.show_overlay(Confirm("Delete every saved game on this kiosk? This cannot be undone.",
                                      "Delete all", self.clear_data))

        def clear_data(self) -> None:
            self.store.clear()
            self.retention.forget()  # and the archived ones
            self.store.forget_players()  # the last group's names go with their games
            self.runner = None
            self.go_home()

        def really_exit(self) -> None:
            self.stop()

        # -- keys, closing, idle ------------------------------------------------------

        def _on_key(self, window, key, scancode, codepoint, modifiers) -> bool:
            self.last_input = time.monotonic()
            if key == 27:  # Escape and the back gesture: never leave the kiosk
                return True
            if key == 283:  # F2
                self.toggle_sim()
                return True
            return self._sim_key(codepoint, down=True)

        def _on_key_up(self, window, key, scancode=None, *args) -> bool:
            from kivy.core.window import Keyboard

            return self._sim_key(Keyboard.keycode_to_string(Window._system_keyboard, key), down=False)

        def _sim_key(self, codepoint, down: bool) -> bool:
            """With the sim panel open, letter keys press pads (see SimPads' key map), unless typing."""
            from kivy.uix.textinput import TextInput

            if self.sim_panel is None or self.sim_pads is None or not codepoint:
                return False
            typing = any(isinstance(w, TextInput) and w.focus for w in _walk(self.root_float))
            if typing:
                return False
            return bool(self.sim_pads.key(str(codepoint).lower(), down=down))

        def _on_request_close(self, *_args, **_kw) -> bool:
            self.message("The kiosk stays open. The operator menu (PIN) can close it.")
            return True  # refuse

        def _on_any_touch(self, *_args) -> None:
            self.last_input = time.monotonic()

        def _hardware_activity(self, handled) -> None:
            """A pad press, a die thrown or stacked, a phone's answer, and every input any port
            had accepted by the rules: someone is at the table, which ends or delays attract mode
            (kiosk.demo.is_input)."""
            from kiosk.demo import is_input

            self.last_event = time.monotonic()
            accepted = handled.action is not None and handled.error is None
            if is_input(handled.event) or accepted:
                self.last_input = time.monotonic()
                if self.sm.current == "attract":
                    self.end_attract()

        def _idle_check(self, *_):
            now = time.monotonic()
            idle = now - self.last_input
            if self.sm.current not in ("attract", "operator") and self._attract_due(idle):
                self.start_attract()
            if min(idle, now - self.last_event) >= 1.0:
                self.collect_garbage()
                self.retention.step()  # old finished games to the archive, a batch per quiet second

        def _attract_due(self, idle: float) -> bool:
            """Attract after the idle time; in demo mode (kiosk.demo) sooner, and soon after a game's end."""
            from kiosk.demo import attract_due

            k = self.config_hw.kiosk
            over = self.sm.current == "play" and self.runner is not None and self.runner.outcome is not None
            return attract_due(idle, k.idle_attract_s, k.demo_mode, k.demo_idle_s, over)

        def collect_garbage(self) -> None:
            """Free what play left in reference cycles now, while nobody is mid-action.

            Called after a quiet second and on going home. Kivy widgets (a reveal's
            cards, say) are freed by Python's cycle collector, which otherwise runs
            whenever enough has piled up, often in the middle of showing a die or a
            press. A full collection costs 10-50 ms after a quiet second, up to 300 ms
            after a long run of play with no pause; done here it keeps the automatic
            ones, and their stalls, rare. Only when some collection has run since the
            last one here (i.e. there was play).
            """
            young, older = gc.get_count()[1:]
            if young or older:
                gc.collect()

        def start_attract(self) -> None:
            """The table has been idle: the game (kept on disk) is put aside, so no pad press or
            phone meant for it lands while the loop runs, and the next group starts at home."""
            for overlay in list(self.overlays):
                overlay.dismiss()
            self.before_attract = self.sm.current
            self.on_screen.showing(None)
            if self.controller is not None:
                self.controller.runner = None
            if self.phones is not None:
                self.phones.detach()
            self.show_screen("attract")

        def end_attract(self) -> None:
            """Back to the home screen, never into a game: the last group's game waits in its list."""
            self.last_input = time.monotonic()
            self.go_home()

        # -- the sim panel --------------------------------------------------------------

        def toggle_sim(self) -> None:
            if self.sim_panel is not None:
                self.root_float.remove_widget(self.sim_panel)
                self.sim_panel = None
                return
            from kiosk.ui.simpanel import SimPanel

            self.sim_panel = SimPanel(self, size_hint=(0.5, 1), pos_hint={"right": 1, "y": 0})
            self.root_float.add_widget(self.sim_panel)

        def sim_press(self, pad: int, colour) -> None:
            self.last_input = time.monotonic()
            if self.sim_pads is not None:
                self.sim_pads.tap(pad, colour)

        def sim_tray_do(self, fn) -> None:
            """Work the simulated tray. Every control is safe to press: one that makes no
            sense now (take a die from an empty tray) says why and changes nothing."""
            self.last_input = time.monotonic()
            try:
                fn()
            except ValueError as err:
                self.message(f"Simulated tray: {err}.", refused=True)
                return
            if not self.realtime_sim and hasattr(self.sim_tray, "step"):
                self.sim_tray.step(60)

    return TableNoirApp


def _walk(widget):
    yield widget
    for child in widget.children:
        yield from _walk(child)


def data_folder_problem(data: str | None) -> str | None:
    """What stops the kiosk from keeping its sessions in ``data`` (``--data``, else
    ``$TABLE_NOIR_DATA`` or the user data folder), in one sentence; None if it can.

    Checked before the store opens: a file given as the folder (often the database
    itself) would otherwise end in a traceback, or be taken for a damaged store.
    """
    from kiosk.store import default_path

    folder = Path(data) if data else default_path().parent
    named = f"--data {folder}" if data else f"the data folder {folder}"
    if folder.exists() and not folder.is_dir():
        hint = f"; did you mean --data {folder.parent}?" if folder.name.endswith(".sqlite3") else ""
        return f"{named}: it is a file, not a folder{hint}"
    existing = next(p for p in (folder, *folder.parents) if p.exists())
    if not existing.is_dir():
        return f"{named}: cannot make the folder, {existing} is a file"
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"{named}: {existing} is not writable"
    return _cannot_create_in(existing, named)


def _cannot_create_in(folder: Path, named: str) -> str | None:
    """Try to make a file in ``folder`` that never gets a name (Linux's O_TMPFILE, where the
    file system has it): ``os.access`` says yes to root everywhere, /proc and read-only
    mounts included, so only a real try tells. Nothing is left behind, not even a new mtime."""
    import tempfile

    try:
        with tempfile.TemporaryFile(dir=folder):
            return None
    except OSError as err:
        return f"{named}: cannot create files in {folder} ({err.strerror or err})"


def config_problem(path: str | None) -> str | None:
    """What is wrong with a config file named by ``--config``, or None.

    A file someone names at a terminal is checked before the store is opened, so a
    wrong one writes nothing (the usual site file is still read after the first frame,
    where it costs no start-up time)."""
    if path is None:
        return None
    from hardware.config import ConfigError, load_config

    try:
        load_config(path)
    except ConfigError as err:
        return str(err)
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="table-noir", description="Open the Table Noir kiosk.")
    parser.add_argument("--size", choices=sorted(SIZES), default="800x480", help="window size (landscape)")
    parser.add_argument("--fullscreen", action="store_true", help="fill the screen (the Pi's kiosk mode)")
    parser.add_argument("--config", help="a site table-noir.toml laid over the defaults")
    parser.add_argument("--data", help="folder for the sessions database and exports")
    parser.add_argument("--sim", action="store_true", help="use the simulated table whatever the config says")
    parser.add_argument("--rotation", type=int, choices=(0, 90, 180, 270), default=0,
                        help="turn the picture (and touches) by this many degrees, for a portrait panel")
    args = parser.parse_args(argv)
    # A --config or --data typed on the command line is checked before anything is written; the
    # kiosk's own unit passes neither, so at a table a bad site file opens the explanation screen.
    if problem := data_folder_problem(args.data) or config_problem(args.config):
        print(f"table-noir: {problem}", file=sys.stderr)
        return 2
    configure(SIZES[args.size], fullscreen=args.fullscreen, rotation=args.rotation)
    app_class = make_app_class()
    try:
        app = app_class(config_path=args.config, data_dir=args.data, force_sim=args.sim or not on_pi())
        app.run()  # the configuration is read just after the first frame
    except Exception as err:  # a bad config or a store that cannot be made: its message, not a traceback
        from hardware.config import ConfigError
        from kiosk.store import StoreError

        if isinstance(err, (ConfigError, StoreError)):
            print(f"table-noir: {err}", file=sys.stderr)
            return 2
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())
