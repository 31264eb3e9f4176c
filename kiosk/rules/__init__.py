"""Pure rules engines, one module per game, on a small shared core.

Nothing in this package may import Kivy, gpiozero, serial or any hardware
module; ``tests/test_layering.py`` enforces it.

The names below load on first use (PEP 562), so a program that only needs the
list of games (the kiosk's home screen) does not pay for pydantic and the core
before its first frame.
"""

import importlib

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the type checker sees the real names; at run time they load on first use
    from .core import Action, Engine, Event, Field, LogError, Prompt, RuleError, Session, Setup
    from .registry import GAMES, engine_for, load_log

_WHERE = {
    "Action": "core", "Engine": "core", "Event": "core", "Field": "core", "LogError": "core",
    "Prompt": "core", "RuleError": "core", "Session": "core", "Setup": "core",
    "GAMES": "registry", "engine_for": "registry", "load_log": "registry",
}
__all__ = [
    "Action", "Engine", "Event", "Field", "LogError", "Prompt", "RuleError", "Session", "Setup",
    "GAMES", "engine_for", "load_log",
]
assert set(__all__) == set(_WHERE)


def __getattr__(name: str) -> object:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value
