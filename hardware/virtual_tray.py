"""A virtual tray: the tray's own firmware logic, fed by the simulated table, on a pseudo-terminal.

``table-noir tray --virtual`` starts one and prints the device path. Point
the kiosk at it (``tray.backend = "serial"``, ``tray.serial_port = PATH``)
and it talks to the virtual tray exactly as it would to a real one on USB:
the same ``firmware/tray/app.py`` answers commands and streams messages, the
same ``SerialTray`` reads them.

What runs where::

    TableSimulator.tick()  ->  TrayApp (app.py + heat.py + impact.py)  ->  pty master
                                                                             |
    kiosk / tests:                       SerialTray  <-  pty slave (PATH)  <-+

The simulated sensor is sampled once per timing budget (33 ms by default),
at the real pace. The firmware's clock is the simulator's clock, so a run is
the same for the same seed however busy the machine is.

A pseudo-terminal gets a new /dev/pts number each time it is made, so the
virtual tray also keeps a symlink (``--link``, default
``$TMPDIR/table-noir-tray``) pointing at the current one: ``unplug()`` closes
the pty like a pulled cable, ``plug()`` makes a new one and moves the link,
and a SerialTray on the link finds it again by itself.
"""

from __future__ import annotations

import argparse
import errno
import os
import re
import random
import select
import signal
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

from firmware.tray.app import Hooks, TrayApp
from firmware.tray import protocol
from firmware.tray.weight import calibrate_weighing

from .config import Config, ConfigError, load_config
from .sim import TableSimulator, Truth
from .weighing import ScaleDesign

DEFAULT_LINK = Path(tempfile.gettempdir()) / "table-noir-tray"


class LinkError(ValueError):
    """The ``--link`` path cannot hold the tray's symlink; the message names the path."""


def check_link(link: Path) -> None:
    """Refuse a link path before anything is made: its folder must exist, and whatever is
    already there must be an old link (never a user's file or folder, which replacing
    the link would destroy)."""
    folder = link.parent
    if not folder.is_dir():
        missing = "does not exist" if not folder.exists() else "is a file, not a folder"
        raise LinkError(f"--link {link}: {folder} {missing}; create the folder or choose another path")
    if link.exists() and not link.is_symlink():
        raise LinkError(f"--link {link}: something that is not a link is already there; choose another path")
    if not os.access(folder, os.W_OK):
        raise LinkError(f"--link {link}: the folder {folder} is not writable")


_STAMP = re.compile(rb'"t":(\d+)')
"""A line's tray clock (ms), as the protocol writes it."""


class VirtualTray(Hooks):
    """The firmware's logic on a pty, fed by ``TableSimulator``. Start with ``start()``, stop with ``close()``.

    ``pace`` is the ratio of simulated to real time: 1.0 is real time, 0
    runs as fast as the link can take (used by the benchmark to skip the
    parts it does not time). ``max_version`` is the newest protocol version
    the firmware speaks: 1 plays a tray with the old firmware.
    """

    def __init__(
        self,
        config: Config,
        seed: int = 0,
        link: str | Path | None = DEFAULT_LINK,
        start_dice: int = 2,
        pace: float = 1.0,
        max_version: int = protocol.PROTOCOL_VERSION,
        weigh: bool = True,
        scale: ScaleDesign | None = None,
    ) -> None:
        self.config = config
        self.max_version = max_version
        self.sim = TableSimulator(
            config.geometry, seed=seed, sample_period_s=config.tray.timing_budget_ms / 1000.0, start_dice=start_dice,
            scale=(scale or ScaleDesign()) if weigh else None,
        )
        self.link = Path(link) if link is not None else None
        if self.link is not None:
            check_link(self.link)
        self.pace = pace
        self.device: str | None = None  # the current /dev/pts/N
        self.shown: list[tuple[Truth, float]] = []  # what happened on the table, with the monotonic time it showed
        self.written: list[tuple[dict, float]] = []  # Heat messages written, with the monotonic time
        self.lines_written = 0
        self.lines_dropped = 0
        self.sent_ms: int | None = None  # the tray clock in the last line written whole
        self.reboots = 0
        self._lock = threading.RLock()  # guards the simulator, the app and the fds
        self._master: int | None = None
        self._slave: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._reboot_at: float | None = None
        # The weighing calibration the tray keeps across restarts (its nvm on the board): (zero, per_die, spread)
        self.weighing: tuple[int, float, float] | None = None
        self._refused = False  # the set is too mixed to weigh: the tray starts unweighed
        self.app = self._new_app()

    # -- the firmware's hooks -------------------------------------------------
    def _new_app(self) -> TrayApp:
        geometry = self.config.geometry
        settings: dict[str, object] = {
            "budget_ms": self.config.tray.timing_budget_ms,
            "settle_ms": self.config.tray.settle_ms,
            "empty_mm": geometry.sensor_height_mm,
            "die_mm": geometry.die_size_mm,
            "max_version": self.max_version,
            "boot_id": random.randrange(protocol.MAX_BOOT),  # new at every (re)start, as on the board
        }
        if self.sim.scale is not None:  # the kit's tray: a load cell, its set weighed on the bench
            if self.weighing is None and not self._refused:  # as if the bench had weighed the set already
                chain = self.sim.scale
                try:
                    weighed = calibrate_weighing([chain.still_codes(k, 40) for k in range(15)])
                    self.weighing = (int(weighed.zero), weighed.per_die, weighed.spread)
                except ValueError:  # a mixed set: the bench refuses it, so the tray was never weighed
                    self._refused = True
            settings["scale"] = "ok"
            if self.weighing is not None:
                settings["weigh_zero"], settings["weigh_per_die"], settings["weigh_spread"] = self.weighing
        app = TrayApp(self._write, settings, self)
        app.start(self._now_ms())
        return app

    def set_budget(self, ms: int) -> None:
        self.sim.sample_period_s = ms / 1000.0
        return None

    def save_weighing(self, zero: int, per_die: float, spread: float) -> None:
        """Keep the set's weighing calibration (``weighcal``, ``tare``) for the next start, like the board's nvm."""
        self.weighing = (int(zero), float(per_die), float(spread))

    def reboot(self) -> None:
        """Like the board: after a moment to send the ack, the USB link drops, the firmware
        starts over and the link comes back."""
        self._reboot_at = time.monotonic() + 0.1

    def _restart(self) -> None:
        self._reboot_at = None
        self.reboots += 1
        self.unplug()
        self.plug()
        self.app = self._new_app()

    def _now_ms(self) -> int:
        return int(round(self.sim.t * 1000))

    # -- the pseudo-terminal ----------------------------------------------
    @property
    def path(self) -> str:
        """Where a SerialTray should connect: the stable link if there is one, else the device."""
        if self.link is not None:
            return str(self.link)
        if self.device is None:
            raise RuntimeError("the virtual tray is unplugged")
        return self.device

    @property
    def plugged(self) -> bool:
        return self._master is not None

    def plug(self) -> str:
        """Make a new pty (a cable plugged in) and point the link at it; returns the device path."""
        with self._lock:
            if self._master is not None:
                return self.device or ""
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo, no line editing: bytes pass as they are
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            self.device = os.ttyname(slave)
            if self.link is not None:
                temporary = self.link.with_name(self.link.name + ".new")
                temporary.unlink(missing_ok=True)
                os.symlink(self.device, temporary)
                os.replace(temporary, self.link)
            return self.device

    def unplug(self) -> None:
        """Close the pty, as if the USB cable were pulled. The reader sees its port fail."""
        with self._lock:
            for fd in (self._master, self._slave):
                if fd is not None:
                    try:
                        os.close(fd)
                    except OSError:
                        pass
            self._master = self._slave = None
            self.app.reader.reset()  # a half-received command is lost with the cable

    def inject(self, data: bytes) -> None:
        """Write raw bytes to the link, as a faulty tray might (for tests)."""
        with self._lock:
            if self._master is not None:
                os.write(self._master, data)

    def _write(self, line: bytes) -> bool:
        master = self._master
        if master is None:
            self.lines_dropped += 1
            return False
        try:
            written = os.write(master, line)
        except OSError as err:
            if err.errno in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EIO):
                self.lines_dropped += 1  # nobody reading and the buffer is full: a real tray drops too
                return False
            raise
        self.lines_written += 1
        if written != len(line):
            return False
        stamp = _STAMP.search(line)
        if stamp is not None:
            self.sent_ms = int(stamp.group(1))
        if b'"type":"' in line:
            kind = line.split(b'"type":"', 1)[1].split(b'"', 1)[0].decode()
            if kind in ("collapse", "added", "removed", "height"):
                self.written.append((protocol.decode_message(line[:-1])[0], time.monotonic()))
        return True

    # -- the loop ---------------------------------------------------------------
    def step(self) -> None:
        """One sample period: take commands, sample the table, let the firmware react."""
        with self._lock:
            if self._reboot_at is not None and time.monotonic() >= self._reboot_at:
                self._restart()
            t_ms = self._now_ms()
            master = self._master
            if master is not None:
                try:
                    data = os.read(master, 4096)
                except BlockingIOError:
                    data = b""
                except OSError:
                    data = b""
                if data:
                    self.app.on_bytes(data, t_ms)
            before = len(self.sim.truth)
            sample = self.sim.tick()
            now = time.monotonic()
            for record in self.sim.truth[before:]:
                self.shown.append((record, now))
            t_ms = int(round(sample.t * 1000))
            self.app.on_piezo(sample.piezo, t_ms, sample.disc)
            self.app.on_sample(sample.distance_mm, t_ms)
            for tw, code in sample.weights:  # the NAU7802's conversions of this sample period
                self.app.on_weight(code, int(round(tw * 1000)))
            self.app.tick(t_ms)

    def _run(self) -> None:
        next_at = time.monotonic()
        while not self._stop.is_set():
            self.step()
            period = self.sim.sample_period_s * self.pace
            if period <= 0:
                self._wait_for_reader()
                next_at = time.monotonic()
                continue
            next_at += period
            delay = next_at - time.monotonic()
            if delay > 0:
                self._stop.wait(delay)
            else:
                next_at = time.monotonic()

    def _wait_for_reader(self) -> None:
        """At full speed, let the reader keep up instead of filling the pty and dropping lines."""
        master = self._master
        if master is None:
            self._stop.wait(0.001)
            return
        try:
            select.select([], [master], [], 0.05)
        except (OSError, ValueError):
            pass

    def start(self) -> "VirtualTray":
        self.plug()
        self._thread = threading.Thread(target=self._run, name="virtual-tray", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        self.unplug()
        if self.link is not None and self.link.is_symlink():
            self.link.unlink(missing_ok=True)

    def __enter__(self) -> "VirtualTray":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the table, for a person or a test ----------------------------------
    def add_die(self) -> None:
        with self._lock:
            self.sim.add_die()

    def remove_die(self) -> None:
        with self._lock:
            self.sim.remove_die()

    def throw(self, accuracy: float = 0.8, **kwargs) -> Truth:
        with self._lock:
            return self.sim.throw(accuracy, **kwargs)

    def topple(self, n: int | None = None) -> None:
        with self._lock:
            self.sim.topple(n)

    def idle(self) -> bool:
        """Whether every action asked for has played out on the table, and the tray has counted it
        (a weighed fall is counted once the plinth is still, a few conversions after the dice left)."""
        with self._lock:
            weight = self.app.weight
            counting = weight is not None and (weight.falling or weight._moving_since is not None)
            return self.sim.busy_samples == 0 and not counting


HELP = """keys (then Enter):
  a   put a die on the Heat        r   take the top die off
  t   throw a d10 (t 0.3: a wild throw)
  c   the Heat collapses (c 2: two dice fall)
  u   pull the cable               p   plug it back in
  s   status                       q   quit"""


def _command(tray: VirtualTray, line: str) -> bool:
    """One typed command; returns False to quit."""
    word, _, rest = line.strip().partition(" ")
    try:
        if word == "q":
            return False
        if word == "a":
            tray.add_die()
        elif word == "r":
            tray.remove_die()
        elif word == "t":
            tray.throw(float(rest) if rest else 0.8)
        elif word == "c":
            tray.topple(int(rest) if rest else None)
        elif word == "u":
            tray.unplug()
            print("cable pulled")
        elif word == "p":
            print(f"plugged in again on {tray.plug()}")
        elif word == "s":
            print(
                f"Heat {tray.sim.planned_dice} dice, {'plugged in' if tray.plugged else 'unplugged'}, "
                f"{tray.lines_written} lines sent, {tray.lines_dropped} dropped, "
                f"{tray.app.rejects.total} commands rejected"
            )
        elif word:
            print(HELP)
    except ValueError as err:
        print(f"not possible: {err}")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="table-noir tray",
        description="Run a virtual tray: the tray firmware's logic on a simulated table, on a pseudo-terminal.",
    )
    parser.add_argument("--virtual", action="store_true", help="run the virtual tray (the only mode)")
    parser.add_argument("--link", default=str(DEFAULT_LINK), help="a stable symlink to the current pty (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="seed for the simulated table")
    parser.add_argument("--dice", type=int, default=2, help="dice in the Heat at the start")
    parser.add_argument("--config", help="a table-noir.toml to use instead of the usual one")
    parser.add_argument("--demo", type=float, metavar="SECONDS", help="throw a d10 every SECONDS by itself")
    args = parser.parse_args(argv)
    if not args.virtual:
        parser.print_usage(sys.stderr)
        print(
            "table-noir tray: only --virtual is available here; a real tray is used by setting "
            'tray.backend = "serial" in the config',
            file=sys.stderr,
        )
        return 2
    if args.demo is not None and not 0 < args.demo < float("inf"):  # -1 threw on every tick; nan never
        print(f"table-noir tray: --demo {args.demo:g}: give the seconds between throws, a number above 0",
              file=sys.stderr)
        return 2
    try:
        config = load_config(args.config)
        tray = VirtualTray(config, seed=args.seed, link=args.link, start_dice=args.dice)
    except (ConfigError, ValueError) as err:
        print(f"table-noir tray: {err}", file=sys.stderr)
        return 2
    def stop(signum, frame):  # a plain kill should still remove the link
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    tray.start()
    print(f"virtual tray on {tray.device}  (link: {args.link})", flush=True)
    print(f'use it with tray.backend = "serial" and tray.serial_port = "{args.link}"', flush=True)
    interactive = sys.stdin is not None and sys.stdin.isatty()
    if interactive:
        print(HELP, flush=True)
    try:
        next_throw = time.monotonic() + (args.demo or 0)
        while True:
            if args.demo and time.monotonic() >= next_throw:
                next_throw += args.demo
                tray.throw(0.7)
            if interactive:
                ready, _, _ = select.select([sys.stdin], [], [], 0.2)
                if ready:
                    line = sys.stdin.readline()
                    if not line or not _command(tray, line):
                        break
            else:
                time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        tray.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
