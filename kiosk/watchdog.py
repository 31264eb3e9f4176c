"""A frozen screen heals itself: systemd's watchdog, fed only by frames that were drawn.

The kiosk's unit (``kiosk/deploy/table-noir-kiosk.service``) sets ``WatchdogSec``.
systemd then passes two things in the environment: ``NOTIFY_SOCKET``, a Unix
datagram socket to write to, and ``WATCHDOG_USEC``, how long it waits between
two "still alive" messages before it kills the service and ``Restart=`` starts
it again. The messages are plain text datagrams (``sd_notify``'s protocol, a
few lines of the standard library, so no new dependency):

* ``READY=1`` once, when the first frame is on the screen (the unit is
  ``Type=notify``, so start-up has its own, longer limit);
* ``WATCHDOG=1`` every quarter of the watchdog time, but only from a frame
  that Kivy really drew on the UI thread: a tick of the UI thread's clock marks
  a message as due and asks the window for a frame, and the message goes out
  when that frame is about to be shown (``on_flip``). A UI thread stuck in a
  loop or a deadlock draws nothing and sends nothing, however healthy the other
  threads (the store's committer, the phone server, the hardware readers) are;
* ``STOPPING=1`` when the kiosk closes on purpose.

The unit's main process is ``xinit``, and the kiosk is its client, so the unit
says ``NotifyAccess=all`` and the kiosk ignores ``WATCHDOG_PID`` (which names
xinit). When the watchdog fires, systemd sends SIGABRT; ``faulthandler`` is on
then, so the journal shows where each thread was stuck before the restart.

What a restart comes back to is ``OnScreen``'s job: the kiosk notes which game
is on the play screen (a row in the store's ``settings`` table, no schema
change) and forgets it when the table goes home, into attract mode or the
kiosk closes cleanly. A kiosk that ends any other way (watchdog, crash, power
cut) finds the note at its next start and resumes that game, replaying its log
to exactly where it was.
"""

from __future__ import annotations

import faulthandler
import logging
import os
import socket
import time
from typing import Any, Mapping

log = logging.getLogger(__name__)

PINGS_PER_TIMEOUT = 4
"""How many pings are due within one watchdog time (systemd asks for at least two)."""


class Notifier:
    """Datagrams to systemd's notification socket (``sd_notify``), or nothing when there is none."""

    def __init__(self, address: str | None) -> None:
        self.address = address
        self._sock: socket.socket | None = None
        self._failed = False
        if address and address[0] not in "/@":
            log.warning("NOTIFY_SOCKET %r is not a Unix socket path; systemd will not hear the kiosk", address)
            self.address = None

    def __bool__(self) -> bool:
        return self.address is not None

    def send(self, text: str) -> bool:
        """Send one message; True if it went. Never blocks and never raises: a supervisor
        gone away is logged once, and the kiosk carries on."""
        if self.address is None:
            return False
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address  # abstract namespace
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
                self._sock.setblocking(False)
            self._sock.sendto(text.encode(), target)
        except OSError as err:
            if not self._failed:
                log.warning("cannot tell systemd %r: %s", text, err)
            self._failed = True
            return False
        self._failed = False
        return True

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


class Watchdog:
    """Feeds systemd's watchdog from the frames the UI thread draws (see the module's docstring)."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        environ = os.environ if environ is None else environ
        self.notifier = Notifier(environ.get("NOTIFY_SOCKET"))
        usec = environ.get("WATCHDOG_USEC", "")
        self.timeout_s = int(usec) / 1e6 if usec.isdigit() and int(usec) > 0 else None
        self.ready = False
        self.pings = 0
        self._due = False
        self._window: Any = None
        self._event: Any = None

    @property
    def interval_s(self) -> float | None:
        """Seconds between pings (a quarter of the watchdog time), or None with no watchdog."""
        return self.timeout_s / PINGS_PER_TIMEOUT if self.timeout_s else None

    def start(self, clock: Any, window: Any) -> None:
        """Hook into Kivy's ``Clock`` and ``Window`` (on the UI thread, before the first frame).
        Does nothing outside systemd."""
        if not self.notifier:
            return
        faulthandler.enable()  # SIGABRT from the watchdog: every thread's stack goes to the journal
        self._window = window
        window.bind(on_flip=self._flipped)
        if self.interval_s:
            self._event = clock.schedule_interval(self._mark_due, self.interval_s)
            log.info("systemd watchdog: a ping every %.1f s from drawn frames (timeout %.0f s)",
                     self.interval_s, self.timeout_s)

    def _mark_due(self, _dt: float) -> None:
        """A tick of the UI thread's clock: a ping is due with the next frame, and one is asked for
        (on a screen where nothing moves, Kivy would otherwise draw none)."""
        self._due = True
        self._window.canvas.ask_update()

    def _flipped(self, *_args: Any) -> bool:
        """A frame was drawn and is about to be shown: the UI thread is alive."""
        if not self.ready:
            self.ready = self.notifier.send("READY=1")
        if self._due and self.notifier.send("WATCHDOG=1"):
            self._due = False
            self.pings += 1
        return False  # never stops the flip

    def stop(self) -> None:
        """The kiosk is closing on purpose: no more pings are coming, and that is no hang."""
        if self._event is not None:
            self._event.cancel()
            self._event = None
        if self._window is not None:
            self._window.unbind(on_flip=self._flipped)
            self._window = None
        if self.notifier:
            self.notifier.send("STOPPING=1")
        self.notifier.close()


class OnScreen:
    """The game on the play screen, noted in the store, so a restart after a hang goes back to it."""

    SETTING = "on_screen"

    def __init__(self, store: Any) -> None:
        self.store = store

    def showing(self, sid: int | None) -> None:
        """Note the game now on screen (None: none). Written only when it changes."""
        if self.noted() != sid:
            if sid is None:
                self.store.forget_setting(self.SETTING)
            else:
                self.store.save_setting(self.SETTING, sid)

    def noted(self) -> int | None:
        value = self.store.settings().get(self.SETTING)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def to_resume(self, within_s: float) -> int | None:
        """The game a kiosk that did not close cleanly had on screen, if it may still be played
        and its last move is at most ``within_s`` old (the attract-mode idle time: a kiosk left
        running would have put an older one aside too, so the morning after a power cut starts
        at the home screen, with the game in its list)."""
        sid = self.noted()
        if sid is None:
            return None
        info = self.store.info(sid)
        if info is not None and info.outcome is None and info.abandoned is None \
                and time.time() - info.updated <= within_s:
            return sid
        self.showing(None)  # over, abandoned, cleared or left too long since: nothing to go back to
        return None
