"""The two ports the kiosk depends on. Backends (gpio, serial, i2c, sim) implement them.

A port delivers events to its listeners, possibly from a background thread;
the kiosk hands them to its UI thread itself.
"""

from __future__ import annotations

import threading

from .events import HardwareEvent, Listener


class Port:
    """Listener bookkeeping shared by every backend."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        # A backend may swap in an RLock (the I2C tray re-enters it while closing).
        self._lock: threading.Lock | threading.RLock = threading.Lock()

    def subscribe(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.remove(listener)

    def emit(self, event: HardwareEvent) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener(event)

    def close(self) -> None:
        """Release pins, ports and threads. Safe to call twice."""


class PlayerPads(Port):
    """Up to six pads of three buttons. Emits ButtonPressed / ButtonReleased / ButtonStuck."""

    players: int = 0


class Tray(Port):
    """The sensing tray. Emits HeatHeight, DieAdded, DieRemoved, Collapse, ThrowImpact,
    ThrowSettled, DistanceSample, LinkUp, LinkDown and HardwareFault."""

    @property
    def heat(self) -> int | None:
        """The last known stack height in dice, or None before the first reading."""
        raise NotImplementedError

    @property
    def connected(self) -> bool:
        raise NotImplementedError
