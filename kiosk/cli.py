"""The ``table-noir`` command. Each subcommand lives in its own module.

``table-noir`` with no subcommand opens the kiosk.
"""

from __future__ import annotations

import importlib
import os
import sys

COMMANDS: dict[str, tuple[str, str]] = {
    "kiosk": ("kiosk.app", "open the touchscreen kiosk (the default)"),
    "replay": ("kiosk.replay", "replay a session log and print the final state or a recap"),
    "hardware": ("hardware.cli", "watch what the buttons and the tray report, live"),
    "tray": ("hardware.virtual_tray", "run a virtual tray on a pseudo-terminal"),
}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("-h", "--help"):
        print("usage: table-noir [COMMAND] [ARGS...]\n\ncommands:")
        for name, (_, about) in COMMANDS.items():
            print(f"  {name:<10} {about}")
        return 0
    name = argv.pop(0) if argv and not argv[0].startswith("-") else "kiosk"
    if name not in COMMANDS:
        print(f"table-noir: unknown command {name!r}; try one of: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name][0])
    try:
        return int(module.main(argv) or 0)
    except BrokenPipeError:  # `table-noir replay LOG | head`: the reader left early, nothing is wrong
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the exit's flush stays quiet
        return 1


if __name__ == "__main__":
    sys.exit(main())
