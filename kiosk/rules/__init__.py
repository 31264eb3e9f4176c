"""Pure rules engines, one module per game, on a small shared core.

Nothing in this package may import Kivy, gpiozero, serial or any hardware
module; ``tests/test_layering.py`` enforces it.
"""

from .core import Action, Engine, Event, Field, LogError, Prompt, RuleError, Session, Setup
from .registry import GAMES, engine_for, load_log

__all__ = [
    "Action", "Engine", "Event", "Field", "LogError", "Prompt", "RuleError", "Session", "Setup",
    "GAMES", "engine_for", "load_log",
]
