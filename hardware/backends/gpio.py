"""Player pads wired to the Raspberry Pi's GPIO pins, read through gpiozero.

Each pad has three momentary buttons (Black, White, Gray). Each one joins its
pin to ground, and the pin's pull-up holds it high in between, so pressed
reads low. ``config.pins`` lists the pins pad by pad (hardware/README.md shows
the wiring).

Contact bounce is handled in two layers:

* gpiozero gets ``bounce_time`` from the config. Some pin drivers (lgpio on
  Raspberry Pi OS) apply it in the kernel; others, and gpiozero's MockFactory,
  ignore it.
* So every edge also passes through the small debouncer below, which behaves
  the same on every driver. The first edge that changes a settled button
  counts at once, stamped with the clock, so a press is not delayed. Edges
  within ``bounce_ms`` of a counted change are bounce and are ignored. If the
  level after such a burst differs from what was counted (a tap shorter than
  the bounce window), ``poll()`` settles it once the window has passed.

``poll()`` also reports a button held longer than ``stuck_after_s`` with one
ButtonStuck; it is not repeated, and the release is still reported. A button
already down when the pads open was pressed while no one was listening: it
gives no press and no release, only ButtonStuck if it stays down.

Each button is a gpiozero ``DigitalInputDevice``, not a ``Button``: a Button
starts a hold-watching thread per pin (18 for six pads) for a feature we do not
use, since stuck buttons are found by ``poll()``. Without those threads closing
the pins is immediate, and no thread is started for it.

By default a background thread calls ``poll()`` every 10 ms. Tests pass
``poll_interval_s=None`` and a controllable ``clock``, then call ``poll()``
themselves.
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

from gpiozero import DigitalInputDevice
from gpiozero.exc import BadPinFactory, GPIOZeroError, PinFactoryFallback

from ..config import BackendUnavailable, PadsConfig
from ..events import ButtonColour, ButtonPressed, ButtonReleased, ButtonStuck, PadEvent
from ..ports import PlayerPads

log = logging.getLogger(__name__)

DESKTOP_HINT = 'on a desktop, set pads.backend = "sim" in table-noir.toml'


@dataclass
class _Key:
    """One button and what the debouncer knows about it."""

    player: int
    colour: ButtonColour
    device: DigitalInputDevice
    pressed: bool  # the level we reported (or, at start, found)
    changed_at: float  # when that level began
    announced: bool = False  # its press was reported, so its release will be too
    stuck: bool = False  # ButtonStuck already sent for this hold
    raw_at: float = 0.0  # time of the latest raw edge, bounce included


class GpioPads(PlayerPads):
    def __init__(
        self,
        config: PadsConfig,
        pin_factory: Any = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        poll_interval_s: float | None = 0.01,
    ) -> None:
        super().__init__()
        self.players = len(config.pins)
        self._clock = clock
        self._bounce_s = config.bounce_ms / 1000
        self._stuck_s = config.stuck_after_s
        self._state_lock = threading.RLock()  # a listener may call poll() or close() from inside an event
        self._keys: list[_Key] = []
        self._closed = False
        try:
            with warnings.catch_warnings(record=True) as fallbacks:
                warnings.simplefilter("always", PinFactoryFallback)
                for player, pad in enumerate(config.pins, start=1):
                    for colour in ButtonColour:
                        self._keys.append(self._open_key(player, colour, getattr(pad, colour.value), pin_factory))
            # Said, not hidden: on a Pi a fallback means a slower pin library than the one set up.
            for said in dict.fromkeys(str(w.message) for w in fallbacks if issubclass(w.category, PinFactoryFallback)):
                log.warning("gpiozero: %s", said)
            for other in (w for w in fallbacks if not issubclass(w.category, PinFactoryFallback)):
                warnings.warn_explicit(other.message, other.category, other.filename, other.lineno)
        except BadPinFactory as err:
            self._close_buttons()
            raise BackendUnavailable(
                f'pads.backend = "gpio" needs the GPIO pins of a Raspberry Pi and gpiozero found none here ({err}); '
                + DESKTOP_HINT
            ) from None
        except GPIOZeroError as err:
            self._close_buttons()
            raise BackendUnavailable(f"pads: cannot open the button pins: {err}") from None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if poll_interval_s is not None:
            self._thread = threading.Thread(target=self._poll_forever, args=(poll_interval_s,), name="gpio-pads", daemon=True)
            self._thread.start()

    def _open_key(self, player: int, colour: ButtonColour, pin: int, pin_factory: Any) -> _Key:
        # Pulled up, so the device is active (pressed) when the button joins the pin to ground.
        device = DigitalInputDevice(pin, pull_up=True, bounce_time=self._bounce_s, pin_factory=pin_factory)
        now, down = self._clock(), bool(device.is_active)
        # A button that is up has been settled "forever", so its first press counts at once.
        key = _Key(player, colour, device, pressed=down, changed_at=now if down else float("-inf"), raw_at=now)
        device.when_activated = partial(self._edge, key, True)
        device.when_deactivated = partial(self._edge, key, False)
        return key

    # -- the debouncer -------------------------------------------------------

    def _edge(self, key: _Key, down: bool) -> None:
        """gpiozero saw the pin change (from its callback thread, or the test's)."""
        now = self._clock()
        with self._state_lock:
            key.raw_at = now
            if down != key.pressed and now - key.changed_at >= self._bounce_s:
                self._change(key, down, now)

    def poll(self) -> None:
        """Settle levels left over from bounce bursts and report buttons held too long."""
        now = self._clock()
        with self._state_lock:
            if self._closed:
                return
            for key in self._keys:
                level = bool(key.device.is_active)
                if level != key.pressed and now - key.changed_at >= self._bounce_s:
                    # The level settled at the last raw edge; if the driver swallowed that edge, we only know "by now".
                    self._change(key, level, key.raw_at if key.raw_at > key.changed_at else now)
                if key.pressed and not key.stuck and now - key.changed_at >= self._stuck_s:
                    key.stuck = True
                    self._send(ButtonStuck(key.player, key.colour, now, held_s=now - key.changed_at))

    def _change(self, key: _Key, down: bool, t: float) -> None:
        if down:
            key.announced, key.stuck = True, False
            self._send(ButtonPressed(key.player, key.colour, t))
        elif key.announced:
            self._send(ButtonReleased(key.player, key.colour, t, held_s=t - key.changed_at))
        key.pressed, key.changed_at = down, t

    def _send(self, event: PadEvent) -> None:
        # Called with the state lock held, so events leave in the order they happened.
        self.emit(event)

    def _poll_forever(self, interval: float) -> None:
        while not self._stop.wait(interval):
            self.poll()

    # -- shutting down -------------------------------------------------------

    def _close_buttons(self) -> None:
        for key in self._keys:
            key.device.close()

    def close(self) -> None:
        """Stop polling and give the pins back. Safe to call twice."""
        if self._closed:
            return
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        with self._state_lock:
            self._closed = True
            self._close_buttons()
