"""The kiosk's App: where a newcomer starts reading.

``TableNoirApp`` is the composition root. It opens the session store, builds one part per
concern (``kiosk/parts/``: settings, operator access, the pads and the tray, phones,
sessions, exports, idle time, keys), hands each only what it works on, and wires them to the screens
(``kiosk.ui``) and to Kivy's clock and window. The parts know nothing of Kivy, so each is
tested without a window; what is left here is the wiring, the screens, the overlays and
messages, and the game on screen.

Importing this module imports Kivy's window, so only ``kiosk.launch`` imports it, after
``configure`` has set Kivy's Config (``table-noir`` starts there).
"""

from __future__ import annotations

import functools
import gc
import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Generic, Iterator, TypeVar, cast, overload

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.relativelayout import RelativeLayout
from kivy.utils import escape_markup as esc

from kiosk import games, housekeeping
from kiosk.parts.devices import Devices
from kiosk.parts.exports import Exports
from kiosk.parts.idle import Idle, collect_garbage
from kiosk.parts.keys import Keys
from kiosk.parts.lessons import Lessons
from kiosk.parts.operator import OperatorAccess
from kiosk.parts.phones import Phones
from kiosk.parts import problems
from kiosk.parts.problems import Problem
from kiosk.parts.sessions import Sessions
from kiosk.parts.settings import Settings, on_pi
from kiosk.recovery import open_store
from kiosk.store import default_path
from kiosk.ui import theme
from kiosk.ui.theme import Big, Filled, Text, px

if TYPE_CHECKING:
    from hardware.config import Config, ConfigError
    from hardware.backends.sim_pads import SimPads
    from hardware.ports import PlayerPads, Tray
    from hardware.sim import SimTray
    from kiosk.controller import Controller, Handled
    from kiosk.fleet.stand import StandReporter
    from kiosk.lesson import Lesson
    from kiosk.lessonindex import Offer
    from kiosk.sound import CueListener, Sounds
    from kiosk.ui.simpanel import SimPanel
    from kiosk.phones.bridge import PhoneBridge
    from kiosk.runner import Runner

log = logging.getLogger(__name__)
T = TypeVar("T")


class _Kept(Generic[T]):
    """An attribute of the App that one of its parts keeps: reading or setting it on the App
    reaches the part. The screens and the tests read ``app.controller``; ``app.devices`` has it."""

    def __init__(self, part: str, name: str | None = None) -> None:
        self.part, self.name = part, name or ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = self.name or name

    @overload
    def __get__(self, app: None, owner: type) -> _Kept[T]: ...

    @overload
    def __get__(self, app: object, owner: type) -> T: ...

    def __get__(self, app: object | None, owner: type) -> T | _Kept[T]:
        if app is None:
            return self
        return cast(T, getattr(getattr(app, self.part), self.name))

    def __set__(self, app: object, value: T) -> None:
        setattr(getattr(app, self.part), self.name, value)


class TableNoirApp(App):
    """The kiosk: the session store, the parts (``kiosk.parts``) and the screens, wired together.

    Each concern is a part that needs no window; the App hands it what it works on and
    calls it from Kivy's events:

    * ``settings`` (``Settings``): the site file with the operator's changes over it;
    * ``operator_access`` (``OperatorAccess``): the PIN, its lockout, the first-use PIN change;
    * ``devices`` (``Devices``): the pads and the tray, and the ``Controller`` over them;
    * ``phone_link`` (``Phones``): the phone server, on or off;
    * ``sessions`` (``Sessions``): games started, resumed, from a scenario, all cleared;
    * ``exporter`` (``Exports``): a game saved as files;
    * ``lessons`` (``Lessons``): the lessons Home offers;
    * ``idle`` (``Idle``): the last input, attract mode, quiet seconds;
    * ``keys`` (``Keys``): what a plugged-in keyboard may do.

    The App itself keeps the screens (built on first use, ``SCREENS``), the overlays and
    messages, and the game on screen (``runner``), and starts up in two steps: ``build``
    draws the home screen, ``ready`` (just after the first frame) reads the configuration
    and opens the hardware, the phones and the engines.
    """

    title = "Table Noir"
    use_kivy_settings = False

    # What the parts keep, read and set on the App as they always were (see each part).
    _config_hw: _Kept[Config | None] = _Kept("settings", "loaded")  # None until the configuration is read
    controller: _Kept[Controller | None] = _Kept("devices")  # None until the hardware opens
    hardware_problems: _Kept[list[str]] = _Kept("devices", "problems")  # the home screen shows them
    sim_pads: _Kept[SimPads | None] = _Kept("devices")
    sim_tray: _Kept[SimTray | None] = _Kept("devices")
    phones: _Kept[PhoneBridge | None] = _Kept("phone_link", "bridge")  # while the phone server runs
    phones_problem: _Kept[str | None] = _Kept("phone_link", "problem")  # why phones cannot join
    last_input: _Kept[float] = _Kept("idle")  # someone at the table, time.monotonic()
    last_event: _Kept[float] = _Kept("idle")  # any hardware event

    # Kivy's settings panel opens on F1 with no PIN, and what is changed there is
    # kept. The kiosk's settings live in the operator menu, behind the PIN, instead.
    def _install_settings_keys(self, window: Any) -> None:
        """Kivy binds F1 to its settings panel here; the kiosk binds nothing."""

    def open_settings(self, *_args: Any) -> bool:
        return False

    def __init__(self, config_path: str | None = None, data_dir: str | None = None, force_sim: bool = False,
                 realtime_sim: bool = True, pi: bool | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.is_pi = on_pi() if pi is None else pi  # tests pass pi=True to see what a Pi shows
        path = Path(data_dir) / "sessions.sqlite3" if data_dir else default_path()
        # A damaged file is moved aside and a fresh store opened (kiosk.recovery); the operator is told.
        self.store, self.store_recovery = open_store(path, engines=games.engine_for, commit_behind=True)
        self.startup_problems: list[Problem] = []  # shown full-screen once ready
        self.exports = path.parent / "exports"
        self._engines = games.Engines()  # each imported when first needed, or one a frame after the first
        self.realtime_sim = realtime_sim
        self.runner: Runner | None = None  # the game on screen
        self.overlays: list[Any] = []
        self.before_attract = "home"
        self.first_frame_at: float | None = None
        self.fleet: StandReporter | None = None  # while the config names a broker (docs/stands.md)

        # The parts (kiosk.parts). The configuration is read on first use, right after the first frame.
        self.settings = Settings(self.store, config_path, force_sim, on_bad_file=self._bad_config_file)
        self.operator_access = OperatorAccess(
            self.store, lambda: self.config_hw.kiosk, self.change_setting,
            lambda text, refused: self.message(text, refused=refused), self._open_pin_pad, self._open_new_pin)
        self.devices = Devices(lambda: self.config_hw, self._make_controller, self.settings.hardware_confirmed,
                               is_pi=self.is_pi, realtime_sim=realtime_sim)
        # Joins and takeovers are said on the shared screen (from the server's thread: via the clock).
        # The phones' frames are built after the shared screen's frame is up (any positive delay
        # puts a scheduled call in the next frame's clock tick, after this frame's flip).
        self.phone_link = Phones(lambda: self.config_hw, self._phone_submit,
                                 say=lambda text: Clock.schedule_once(lambda dt: self.message(text)),
                                 later=lambda push: Clock.schedule_once(lambda dt: push(), 0.001))
        self.exporter = Exports(self.store, self.exports)
        self.lessons = Lessons(path.parent / "lessons")  # the shipped ones, and the data folder's
        self.idle = Idle(lambda: self.config_hw.kiosk)
        self.keys = Keys(self.idle.touched, lambda: self.toggle_sim(),
                         lambda: self.sim_pads if self.sim_panel is not None else None, self._typing)

        self._cue_folder = Path(data_dir) / "cues" if data_dir else None  # see sounds
        from kiosk.watchdog import OnScreen, Watchdog  # the standard library only: cheap

        self.watchdog = Watchdog()  # systemd's, fed by drawn frames (inert outside systemd)
        self.on_screen = OnScreen(self.store)  # the game a restart after a hang goes back to
        from kiosk.retention import Retention

        self.retention = Retention(self.store, path.parent / "archive.sqlite3",
                                   lambda: self.config_hw.kiosk.keep_finished_days)
        self.sessions = Sessions(self.store, lambda: self.engines, self.retention)

    @functools.cached_property
    def sounds(self) -> Sounds:
        """Sound cues (kiosk.sound), made on first use: opened with the hardware, after the
        first frame. The settings are read at each cue, so the operator's changes apply at once."""
        from kiosk.sound import KivyPlayer, Sounds

        return Sounds(lambda: self.config_hw.kiosk, KivyPlayer(self._cue_folder))

    @functools.cached_property
    def cues(self) -> CueListener:
        """What in a game is heard (kiosk.sound.CueListener), on ``sounds``."""
        from kiosk.sound import CueListener

        return CueListener(self.sounds, playing=lambda: self.sm.current == "play")

    # -- settings (kiosk.parts.settings) ---------------------------------------------

    @property
    def config_hw(self) -> Config:
        """The site configuration (``table-noir.toml`` over the defaults) with the operator's
        changes, read on first use: the first frame does not wait for it."""
        return self.settings.config

    def _bad_config_file(self, err: ConfigError) -> None:
        """A bad file does not stop the kiosk: the problem screen names each bad field."""
        self.startup_problems.append(problems.bad_config(str(err)))

    def change_setting(self, name: str, value: Any) -> str | None:
        """Check a kiosk setting, keep it and use it at once; what is wrong, or None."""
        return self.settings.change(name, value)

    def forget_settings(self) -> None:
        """Back to the config file's kiosk settings."""
        self.settings.forget()

    # -- building -----------------------------------------------------------

    def build(self) -> RelativeLayout:
        Window.clearcolor = theme.BG
        self.hardware_problems = []  # what failed to open, in words for the operator (Home shows it)
        theme.crisp()
        theme.clear_colour_only()
        theme.remember_word_widths()
        theme.quiet_kv_bindings()  # before any screen's kv rules bind
        theme.drop_text_surfaces()
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
        self.sim_panel: SimPanel | None = None  # the simulated table's panel, while it is open
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

    def _first_frame(self, *_: Any) -> None:
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
        self.later.add("configuration", self._read_config)  # pydantic and the site file: a step of its own
        self.later.add("table", self._open_table)
        for game in self._engines.pending():
            self.later.add(f"engine {game}", functools.partial(self._load_engine, game))
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

    def _read_config(self) -> None:
        _ = self.config_hw  # read on first use (kiosk.parts.settings)

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
        from kiosk.ui.problem import ProblemScreen

        shown = list(self.startup_problems) + problems.missing_tray(self.devices.missing_tray())
        if self.store_recovery is not None:
            shown.append(problems.damaged_store(self.store_recovery))
        if not shown:
            return False
        if "problem" not in self._screens:
            self._screens["problem"] = ProblemScreen(self)
            self.sm.add_widget(self._screens["problem"])
        self._screens["problem"].show(shown)
        self.show_screen("problem")
        return True

    # -- the hardware setup (kiosk.ui.hwsetup): first start on a Pi, and the operator menu ----

    def _hardware_confirmed(self) -> dict[str, str] | None:
        return self.settings.hardware_confirmed()

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
        self.sm.leave_now(self._screens["bench"])  # the walk and its tray link go first
        if getattr(self, "_bench_released", False):
            self._bench_released = False
            self.reopen_hardware()
        self.show_screen("operator")

    def release_hardware(self) -> None:
        """Close the pads and the tray so the hardware setup can watch the pins and the port itself."""
        self._close_hardware()

    def save_hardware(self, changes: dict[str, dict[str, Any]], chosen: dict[str, str]) -> str | None:
        """Write the hardware setup's choices into the site file; what is wrong, or None."""
        return self.settings.save_hardware(changes, chosen)

    def leave_hwsetup(self, saved: bool) -> None:
        """Back to where the setup was opened from, with the pads and the tray opened again."""
        screen = self._screens.get("hwsetup")
        if screen is not None:
            self.sm.leave_now(screen)  # its pins and its tray link go first, so the kiosk can open them
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
    def engines(self) -> games.Engines:
        """Every playable game's engine by name (kiosk.games.Engines): ``engines[game]``
        imports that game's engine if it is not loaded yet, and only that one."""
        return self._engines

    def menu(self) -> list[tuple[str, str]]:
        """(game, title) for the home screen, without importing any engine."""
        return self._engines.menu()

    def title_of(self, game: str) -> str:
        return self._engines.title(game)

    # -- the pads and the tray (kiosk.parts.devices) ----------------------------------

    def _close_hardware(self) -> None:
        self.devices.close()

    def reopen_hardware(self) -> None:
        """Close the pads and the tray and open them again, for hardware plugged in (or
        fixed) after start-up. The game on screen carries on with the new ports."""
        self.devices.reopen()
        self.play.show_sim_button(self.devices.simulated)
        if self.sim_panel is not None:
            self.sim_panel.rebuild()
        if self.sm.current == "home":
            self.home.rebuild()

    def _open_hardware(self) -> None:
        """Open the pads and the tray. One that fails is named on the home screen (and in
        the log); the kiosk carries on with answers by touch instead of crashing."""
        self.devices.open()

    def _make_controller(self, pads: PlayerPads | None, tray: Tray | None) -> Controller:
        """The Controller for the ports just opened, woken by the clock and wired to the screens."""
        from kiosk.controller import Controller

        # A free trigger wakes the sleeping loop at once (see kiosk.launch.configure); with another
        # clock (kivy.clock imported before configure) it is an ordinary trigger.
        make_trigger = getattr(Clock, "create_trigger_free", Clock.create_trigger)
        trigger = make_trigger(lambda dt: self._drain(), 0)
        controller = Controller(pads, tray, post=lambda fn: trigger())
        controller.on_message = self.message
        controller.on_handled.append(self._hardware_activity)
        controller.on_handled.append(self._phone_handled)
        controller.on_handled.append(self.cues.on_handled)  # the tray sensing a collapse is heard
        controller.on_hint = lambda hint: self.play.apply_hint(hint) if self.sm.current == "play" else None
        controller.on_sheet_hold = lambda who: self.play.open_by_hold(who) if self.sm.current == "play" else None
        controller.on_tray = lambda state: self.play.update_status() if self.sm.current == "play" else None
        return controller

    def _drain(self) -> None:
        """On the UI thread: handle what the pads, the tray and the phones queued."""
        if self.controller is not None:
            self.controller.drain()

    # -- starting and stopping -----------------------------------------------------

    def on_start(self) -> None:
        self.show_screen("home")

    def on_stop(self) -> None:
        if getattr(self, "later", None) is not None:  # (a kiosk stopped before build has none)
            self.later.cancel()  # start-up steps still waiting open nothing now
        if getattr(self, "sm", None) is not None:
            self.sm.close()  # the screen on show stops its tickers and lets go of pads and pins
        if self.coach is not None:
            self.coach.hide()  # its pulse stops (the lesson itself is not resumed: nothing to keep)
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
        if self.controller is not None:  # ready() opened the hardware
            self.controller.runner = None
        self.on_screen.showing(None)
        if self.phones is not None:
            self.phones.detach()  # the game's join links stop working
        self.show_screen("home")
        self.home.rebuild()
        # Between games nobody is in the middle of an action: free what the last game
        # left now, even if nobody paused for a second (usually the quiet check has),
        # and hand the freed pages back to the system (kiosk/housekeeping.py).
        self.collect_garbage()
        housekeeping.release_memory()

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
        self._attach(self.sessions.new(game, setup))

    def resume(self, sid: int) -> None:
        try:
            self._attach(self.sessions.resume(sid))
        except Exception as err:  # noqa: BLE001 - an unreadable log: say so, keep the kiosk up
            self.message(f"Cannot resume session {sid}: {err}", refused=True)

    def open_scenarios(self) -> None:
        """Designer mode's "Start from a scenario" (kiosk.ui.scenarios)."""
        from kiosk.ui.scenarios import ScenarioPicker

        self.show_overlay(ScenarioPicker(self))

    def start_scenario(self, path: Path) -> str | None:
        """Play a scenario file's moves and attach the game, or say (naming the file) why not.
        A refusal changes nothing: no session is stored and the game in play stays."""
        started = self.sessions.from_scenario(path)
        if isinstance(started, str):
            return started
        self._attach(started)
        return None

    def _attach(self, runner) -> None:
        self.ready()
        if runner is not getattr(getattr(self, "coach", None), "runner", None):
            self.end_lesson()  # the real game after a lesson, or any other game
        self.runner = runner
        if self.controller is not None:  # ready() opened the hardware
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

    def lesson_for(self, game: str) -> Lesson | Offer | None:
        """The lesson Home offers for ``game`` (kiosk.parts.lessons): until start-up has checked
        the lessons, only its file's game and length (kiosk.lessonindex)."""
        return self.lessons.for_game(game)

    def _check_lessons(self) -> None:
        """Start-up's turn to check every lesson fully; one that fails is named in the log and
        its button leaves Home."""
        if self.lessons.check() and self.sm.current == "home":
            self.home.rebuild()

    def start_lesson(self, lesson: Lesson | Offer) -> None:
        """Play the lesson's scenario on a LessonRunner, with the coach under the play screen.
        A lesson Home offered before start-up checked the lessons is checked here."""
        from kiosk.lesson import LessonError, LessonRunner
        from kiosk.ui.coach import CoachBar

        try:
            runner = LessonRunner.begin(self.store, self.lessons.load(lesson))
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
        return self.phone_link.allowed

    def _open_phones(self) -> None:
        """Start the phone server if the settings allow phones; a port in use is a message, not a crash."""
        was_running = self.phone_link.bridge is not None
        bridge = self.phone_link.open()
        if bridge is not None and not was_running and self.runner is not None and self.sm.current == "play":
            bridge.attach(self.runner)  # turned on mid-game: the game on screen takes phones at once

    def _open_fleet(self) -> None:
        """Report to the convention's broker if the config names one; returns at once (kiosk.fleet)."""
        if self.config_hw.fleet.broker and self.fleet is None:
            from kiosk.fleet.stand import open_stand

            self.fleet = open_stand(self, self.exports.parent)

    def _close_phones(self) -> None:
        self.phone_link.close()

    def _phone_submit(self, event: Any) -> None:
        """A phone's action (on the server's thread): into the controller's queue, like a pad press."""
        controller = self.controller
        if controller is not None:
            controller.receive(event)

    def _phone_handled(self, handled: Handled) -> None:
        self.phone_link.handled(handled)

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
        self._draw_screens()
        theme.screen_changed()

    def _overlay_gone(self, overlay) -> None:
        if overlay in self.overlays:
            self.overlays.remove(overlay)
        self._draw_screens()
        theme.screen_changed()  # what is under it is in reach again

    def _draw_screens(self) -> None:
        """Draw the screens only while some of them can be seen. Under an overlay that covers
        the whole window (``Overlay.covers``: a reveal, a private sheet) their drawing is taken
        out of the window's, and put back as that overlay goes: a reveal left up used to pay
        for the play screen under it on every frame (docs/kiosk.md, "fifteenth pass"). Their
        widgets, layout and text go on as usual; the overlay takes every touch meanwhile."""
        root = self.root
        window = root.get_root_window() if root is not None else None
        if window is None:
            return
        canvas = window.canvas
        covered = any(getattr(o, "covers", False) for o in self.overlays)
        at = canvas.indexof(root.canvas)
        if covered and at >= 0:
            self._screens_at = at
            canvas.remove(root.canvas)
        elif not covered and at < 0:
            canvas.insert(min(getattr(self, "_screens_at", 0), len(canvas.children)), root.canvas)

    @property
    def screens_drawn(self) -> bool:
        """False while an overlay covers the window and the screens under it are not drawn."""
        window = self.root.get_root_window() if self.root is not None else None
        return window is not None and window.canvas.indexof(self.root.canvas) >= 0

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
        """The salted hash of the operator PIN in force (kiosk.parts.operator)."""
        return self.operator_access.pin_hash

    def ask_operator(self, on_ok: Callable[[], None] | None = None, why: str = "Operator PIN") -> None:
        """The PIN pad; ``on_ok`` (default: the operator menu) runs only after the right PIN."""
        self.operator_access.ask(on_ok or self.enter_operator, why)

    def _open_pin_pad(self, attempt: Callable[[str], bool | None], accepted: Callable[[str], None],
                      heading: str) -> None:
        from kiosk.ui.overlays import PinPad

        self.show_overlay(PinPad(attempt, accepted, heading=heading))

    def _open_new_pin(self, chosen: Callable[[str], None], heading: str) -> None:
        from kiosk.ui.overlays import NewPin

        self.show_overlay(NewPin(chosen, heading=heading))

    def enter_operator(self) -> None:
        self.operator.back_to = self.sm.current
        self.show_screen("operator")

    def leave_operator(self) -> None:
        self.show_screen(getattr(self.operator, "back_to", "home"))

    def export_current(self) -> None:
        """Save the game on screen (else the latest) as files, and say where (kiosk.parts.exports)."""
        done = self.exporter.export(self.runner.sid if self.runner else None)
        self.message(done.said, refused=done.failed)  # a failure: in red
        if done.story is not None and self.phones is not None:  # phones can join: the story is a scan away too
            from kiosk.ui.gamemenu import RecapCode

            url = self.phones.server.publish_recap(done.story)
            self.show_overlay(RecapCode(url, done.said))

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
        self.sessions.clear()  # the archived games and the last group's names go too
        self.runner = None
        self.go_home()

    def really_exit(self) -> None:
        self.stop()

    # -- keys, closing, idle ------------------------------------------------------

    def _on_key(self, window: Any, key: int, scancode: int, codepoint: str | None, modifiers: Any) -> bool:
        return self.keys.down(key, codepoint)

    def _on_key_up(self, window: Any, key: int, *_args: Any) -> bool:
        from kivy.core.window import Keyboard

        return self.keys.up(Keyboard.keycode_to_string(Window._system_keyboard, key))

    def _typing(self) -> bool:
        """True while a text field has the keyboard (letters are then text, not pad presses)."""
        from kivy.uix.textinput import TextInput

        return any(isinstance(w, TextInput) and w.focus for w in _walk(self.root_float))

    def _on_request_close(self, *_args, **_kw) -> bool:
        self.message("The kiosk stays open. The operator menu (PIN) can close it.")
        return True  # refuse

    def _on_any_touch(self, *_args: Any) -> None:
        self.idle.touched()

    def _hardware_activity(self, handled: Handled) -> None:
        """A pad press, a die thrown or stacked, a phone's answer, and every input any port
        had accepted by the rules: someone is at the table, which ends or delays attract mode."""
        accepted = handled.action is not None and handled.error is None
        if self.idle.heard(handled.event, accepted) and self.sm.current == "attract":
            self.end_attract()

    NO_ATTRACT = ("attract", "operator", "hwsetup", "bench")
    """Screens attract never covers: the operator at work (setting up or testing the hardware
    can go on past the idle time without a touch: the setup listens to the pins itself)."""

    def _idle_check(self, *_: Any) -> None:
        """Once a second: attract mode when it is due, housekeeping after a quiet second (kiosk.parts.idle)."""
        if self.sm.current not in self.NO_ATTRACT and self._attract_due():
            self.start_attract()
        if self.idle.quiet():
            if self.collect_garbage():
                housekeeping.release_memory()  # what play freed goes back to the system (kiosk/housekeeping.py)
            self.retention.step()  # old finished games to the archive, a batch per quiet second

    def _attract_due(self) -> bool:
        over = self.sm.current == "play" and self.runner is not None and self.runner.outcome is not None
        return self.idle.attract_due(game_over=over)

    def collect_garbage(self) -> bool:
        """Free what play left in reference cycles now, while nobody is mid-action (kiosk.parts.idle).
        Returns whether there was play to collect after."""
        return collect_garbage()

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
        play = self._screens.get("play")  # not built before the first game: nothing to let go of
        if play is not None:
            play.let_go()  # nothing of the last group's game stays on the play screen
        if self.coach is None:  # a lesson's game goes with the lesson, on the way Home
            self.runner = None  # the next group starts at Home; this game waits in its list
        self.collect_garbage()  # nobody is at the table: free it now, and hand the pages back
        housekeeping.release_memory()

    def end_attract(self) -> None:
        """Back to the home screen, never into a game: the last group's game waits in its list."""
        self.idle.touched()
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
        self.idle.touched()
        if self.sim_pads is not None:
            self.sim_pads.tap(pad, colour)

    def sim_tray_do(self, fn) -> None:
        """Work the simulated tray. Every control is safe to press: one that makes no
        sense now (take a die from an empty tray) says why and changes nothing."""
        self.idle.touched()
        try:
            fn()
        except ValueError as err:
            self.message(f"Simulated tray: {err}.", refused=True)
            return
        if not self.realtime_sim and self.sim_tray is not None:
            self.sim_tray.step(60)



def _walk(widget: Any) -> Iterator[Any]:
    yield widget
    for child in widget.children:
        yield from _walk(child)

