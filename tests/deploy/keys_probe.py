"""Run in a fresh process by test_kivy_builtins: a kiosk whose Kivy home asks for every
keyboard-reachable Kivy module, pressed with each of their keys. Prints what happened as JSON."""

import json
import os
import sys
from pathlib import Path


def press_key(window, key: int, codepoint: str | None, modifiers: list[str]) -> None:
    """What SDL2's event loop does with a key: on_key_down, then on_keyboard unless taken."""
    if not window.dispatch("on_key_down", key, 0, codepoint, modifiers):
        window.dispatch("on_keyboard", key, 0, codepoint, modifiers)
    window.dispatch("on_key_up", key, 0)


def main(data_dir: str) -> None:
    from testkit import drive

    app = drive.start(data_dir)
    from kivy.core.window import Window
    from kivy.modules import Modules

    rotation = Window.rotation
    size = tuple(Window.size)
    keys = {"F1": (282, None, []), "Ctrl+E": (101, "e", ["ctrl"]), "F11": (292, None, []),
            "Shift+F11": (292, None, ["shift"]), "F12": (293, None, []), "Shift+F12": (293, None, ["shift"]),
            "F7": (288, None, []), "F8": (289, None, [])}
    seen = {}
    for name, (key, codepoint, mods) in keys.items():
        press_key(Window, key, codepoint, mods)
        drive.pump(2)
        seen[name] = {
            "settings_open": any("Settings" in type(w).__name__ for w in Window.children)
            or getattr(app, "_app_settings", None) is not None and app._app_settings.parent is not None,
            "inspector": any(type(w).__name__ == "Inspector" and getattr(w, "activated", False)
                             for w in Window.children),
            "rotation": Window.rotation, "size": list(Window.size),
        }
    active = sorted(name for name, mod in Modules.mods.items() if mod.get("activated"))
    print(json.dumps({"keys": seen, "active_modules": active, "rotation_before": rotation,
                      "size_before": list(size), "screenshots": sorted(p.name for p in Path.cwd().glob("screenshot*")),
                      "kivy_logs": sorted(p.name for p in Path(os.environ["KIVY_HOME"]).rglob("*.txt"))}))
    drive.stop(app)


if __name__ == "__main__":
    main(sys.argv[1])
