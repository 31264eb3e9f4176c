"""The ``table-noir`` command. Each subcommand lives in its own module.

``table-noir`` with no subcommand opens the kiosk. ``COMMANDS`` names each subcommand's
``module`` (whose ``main(argv)`` runs it) or ``module:function``. This is the entry point,
above everything: it alone may chain the lower parts to the app (``play`` stores a scenario's
game with ``kiosk.scenario``, then opens the kiosk on it).
"""

from __future__ import annotations

import importlib
import os
import sys

COMMANDS: dict[str, tuple[str, str]] = {
    "kiosk": ("kiosk.launch", "open the touchscreen kiosk (the default)"),
    "replay": ("kiosk.replay", "replay a session log and print the final state or a recap"),
    "play": ("kiosk.cli:play", "start a game from a scenario file (--scenario FILE), then open the kiosk"),
    "hardware": ("hardware.cli", "watch what the buttons and the tray report, live"),
    "tray": ("hardware.virtual_tray", "run a virtual tray on a pseudo-terminal"),
    "pin-hash": ("kiosk.pin", "print the operator PIN's salted hash for table-noir.toml"),
    "fleet": ("kiosk.fleet.organiser", "the organiser's page: every stand live, from the broker (--broker HOST)"),
}


def version_text() -> str:
    """The package version, then the versions of what it reads and speaks (CHANGELOG.md tracks each)."""
    from firmware.tray.app import FIRMWARE_VERSION
    from firmware.tray.protocol import PROTOCOL_VERSION
    from kiosk import __version__
    from kiosk.rules.core import LOG_FORMAT
    from kiosk.store import SCHEMA_VERSION

    return (f"table-noir {__version__}\n"
            f"tray protocol {PROTOCOL_VERSION}, tray firmware {FIRMWARE_VERSION}, "
            f"session log format {LOG_FORMAT}, session store schema {SCHEMA_VERSION}")


def play(argv: list[str]) -> int:
    """``table-noir play --scenario FILE``: the scenario runner stores the game, then the kiosk
    opens here to resume it (unless ``--no-kiosk``, or the file could not be played)."""
    from kiosk import scenario

    played = scenario.play(argv)
    if played.kiosk_argv is None:
        return played.status
    from kiosk import launch

    return launch.main(played.kiosk_argv)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--version"]:
        print(version_text())
        return 0
    if argv and argv[0] in ("-h", "--help"):
        print("usage: table-noir [--version] [COMMAND] [ARGS...]\n\ncommands:")
        for name, (_, about) in COMMANDS.items():
            print(f"  {name:<10} {about}")
        return 0
    name = argv.pop(0) if argv and not argv[0].startswith("-") else "kiosk"
    if name not in COMMANDS:
        print(f"table-noir: unknown command {name!r}; try one of: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    module_name, _, function = COMMANDS[name][0].partition(":")
    run = getattr(importlib.import_module(module_name), function or "main")
    try:
        return int(run(argv) or 0)
    except BrokenPipeError:  # `table-noir replay LOG | head`: the reader left early, nothing is wrong
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the exit's flush stays quiet
        return 1


if __name__ == "__main__":
    sys.exit(main())
