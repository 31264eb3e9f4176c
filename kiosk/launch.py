"""``table-noir`` (or ``table-noir kiosk``): open the touchscreen kiosk.

This module reads the command line, checks a ``--config`` or ``--data`` it names, and sets
Kivy's ``Config`` (``configure``) -- all without importing Kivy's window. Kivy reads its
``Config`` once, when ``kivy.core.window`` is first imported, so only then, in
``app_class``, is the App's module (``kiosk.app``) imported, and the window with it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk.parts.settings import on_pi

if TYPE_CHECKING:
    from kiosk.app import TableNoirApp

SIZES = {"800x480": (800, 480), "1280x720": (1280, 720)}


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
    from kiosk import housekeeping

    housekeeping.tune_allocator()  # before Kivy, SDL and Mesa allocate anything (see kiosk/housekeeping.py)
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


def _one_touch_provider(config: Any) -> None:
    """Keep SDL's pointer as the only input: one tap is one touch.

    Kivy's default config also lists ``probesysfs``, which on Linux opens every
    touchscreen under /dev/input itself. X (or the compositor) already turns the
    same finger into pointer events that reach Kivy through SDL, so on the Pi's
    touch display each tap arrived twice.
    """
    for name in config.options("input"):
        if name != "mouse":
            config.remove_option("input", name)


def _no_keyboard_builtins(config: Any) -> None:
    """Turn off every Kivy module a plugged-in keyboard could reach (issue 19, defect 8).

    Modules listed in Kivy's config (inspector: Ctrl+E; keybinding: F11 rotates the
    screen, F12 writes screenshots; console, recorder, monitor, screen...) are activated
    when the window opens. None belongs on a kiosk; the settings panel (F1) is turned
    off in the App class itself.
    """
    for name in config.options("modules"):
        config.remove_option("modules", name)



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


def app_class() -> type[TableNoirApp]:
    """Import the App's module, and Kivy's window with it, and return the App class.

    Call it after ``configure``: the window is made with the ``Config`` set at that moment."""
    from kiosk.app import TableNoirApp

    return TableNoirApp


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
    try:
        app = app_class()(config_path=args.config, data_dir=args.data, force_sim=args.sim or not on_pi())
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
