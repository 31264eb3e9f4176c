"""``table-noir hardware monitor``: watch what the buttons and the tray report, live.

    table-noir hardware monitor [--sim] [--config FILE] [--seconds N] [--keys KEYS] [--seed N]

Every event becomes one line, stamped with seconds since the monitor
started; raw distance samples only feed the status line (Heat, last distance,
link, buttons held), which stays at the bottom on a terminal and is printed
once at the end otherwise. Without ``--sim`` the monitor opens the backends
``table-noir.toml`` names, exactly as the kiosk would. With ``--sim`` it
runs the simulated table and the keyboard drives it (``KEY_HELP``);
``--keys`` types a script of such keys at the start, one every 0.2 s, for
demos and tests. ``--seconds`` stops it after that long; Ctrl-C stops it too.

    table-noir hardware bench [--sim [--fast]] [--design NAME] [--report FILE] [--config FILE]

The maker's bench test (``hardware/bench.py``): a guided checklist, judged
against the optical model, ending in a pass/fail report (exit status 0 on a pass).
"""

from __future__ import annotations

import argparse
import os
import queue
import select
import sys
import termios
import time
import tty
from contextlib import contextmanager
from typing import Callable, Iterator, TextIO

from .backends.sim_pads import KEYMAP, SimPads, keymap_help
from .config import ConfigError, load_config
from .events import (
    ButtonPressed, ButtonReleased, ButtonStuck, Collapse, DieAdded, DieRemoved, DistanceSample, HardwareEvent,
    HardwareFault, HeatHeight, LinkDown, LinkUp, ThrowImpact, ThrowSettled,
)
from .ports import PlayerPads, Tray

TRAY_KEYS = {"+": "add_die", "=": "add_die", "-": "remove_die", "*": "throw", "!": "topple"}
KEY_HELP = keymap_help() + "\n+ add a die to the Heat   - take one off   * throw a d10   ! knock the Heat over   Ctrl-C quit"
KEY_GAP_S = 0.2


def describe(event: HardwareEvent) -> str | None:
    """One line of text for an event, or None for the ones that only feed the status line."""
    match event:
        case ButtonPressed(player, button, _):
            return f"pad {player}  {button.value:<5}  pressed"
        case ButtonReleased(player, button, _, held_s):
            return f"pad {player}  {button.value:<5}  released after {held_s:.2f} s"
        case ButtonStuck(player, button, _, held_s):
            return f"pad {player}  {button.value:<5}  STUCK: held down for {held_s:.0f} s; check the button and its cable"
        case HeatHeight(dice, _):
            return f"tray   the Heat stands {dice} {'die' if dice == 1 else 'dice'} high"
        case DieAdded(dice, _):
            return f"tray   die added, the Heat is {dice}"
        case DieRemoved(dice, _):
            return f"tray   die taken off, the Heat is {dice}"
        case Collapse(fell, standing, _):
            return f"tray   COLLAPSE: {fell} fell, {standing} still standing"
        case ThrowImpact(_, strength, zone, face):
            return f"tray   impact, strength {strength:.2f}" + _landing(zone, face)
        case ThrowSettled(_, zone, face):
            return "tray   dice settled" + _landing(zone, face)
        case LinkUp(link, detail, _):
            return f"tray   link up ({link}: {detail})"
        case LinkDown(link, reason, _):
            return f"tray   LINK DOWN ({link}): {reason}"
        case HardwareFault(source, message, _):
            return f"fault  {source}: {message}"
    return None


def _landing(zone, face) -> str:
    parts = ([zone.value] if zone is not None else []) + ([f"face {face}"] if face is not None else [])
    return f" ({', '.join(parts)})" if parts else ""


class Monitor:
    """Collects events from both ports and writes them out, with a running status line."""

    def __init__(self, out: TextIO, live: bool = False, start: float | None = None) -> None:
        self.out, self.live = out, live
        self.start = time.monotonic() if start is None else start
        self.inbox: queue.Queue[HardwareEvent] = queue.Queue()
        self.events = 0
        self.heat: int | None = None
        self.mm: int | None = None
        self.link = "no link yet"
        self.held: dict[tuple[int, str], None] = {}

    def attach(self, pads: PlayerPads, tray: Tray) -> None:
        pads.subscribe(self.inbox.put)  # ports may call from their own threads: queue, then print here
        tray.subscribe(self.inbox.put)
        self.link = f"{getattr(tray, 'link', 'tray')} {'up' if tray.connected else 'down'}"  # in case LinkUp came first
        self.heat = tray.heat

    def drain(self, wait_s: float = 0.0) -> None:
        """Handle every queued event, waiting up to ``wait_s`` for the first."""
        try:
            event = self.inbox.get(timeout=wait_s) if wait_s > 0 else self.inbox.get_nowait()
            while True:
                self.handle(event)
                event = self.inbox.get_nowait()
        except queue.Empty:
            pass

    def handle(self, event: HardwareEvent) -> None:
        self._track(event)
        line = describe(event)
        if line is not None:
            self.events += 1
            self._write(f"{event.t - self.start:8.3f}  {line}")

    def note(self, text: str) -> None:
        """A line that is not a hardware event (why a sim key did nothing), stamped like one."""
        self._write(f"{time.monotonic() - self.start:8.3f}  {text}")

    def _track(self, event: HardwareEvent) -> None:
        match event:
            case ButtonPressed(player, button, _):
                self.held[(player, button.value)] = None
            case ButtonReleased(player, button, _, _):
                self.held.pop((player, button.value), None)
            case HeatHeight(dice, _) | DieAdded(dice, _) | DieRemoved(dice, _):
                self.heat = dice
            case Collapse(_, standing, _):
                self.heat = standing
            case DistanceSample(mm, _):
                self.mm = mm
            case LinkUp(link, _, _):
                self.link = f"{link} up"
            case LinkDown(link, _, _):
                self.link = f"{link} DOWN"

    def status(self) -> str:
        heat = "?" if self.heat is None else str(self.heat)
        mm = "no reading" if self.mm is None else f"{self.mm} mm"
        held = ", ".join(f"pad {p} {c}" for p, c in self.held) or "none"
        return f"Heat {heat} | {mm} | link {self.link} | held: {held} | {self.events} events"

    def _write(self, line: str) -> None:
        if self.live:
            self.out.write("\r\033[K" + line + "\n" + self.status())
        else:
            self.out.write(line + "\n")
        self.out.flush()

    def refresh(self) -> None:
        if self.live:
            self.out.write("\r\033[K" + self.status())
            self.out.flush()

    def finish(self) -> None:
        self.out.write(("\r\033[K" if self.live else "") + "status: " + self.status() + "\n")
        self.out.flush()


def press_key(key: str, pads: SimPads, tray: Tray, say: Callable[[str], None] | None = None) -> bool:
    """A key typed at the simulated table: a quick tap of a pad button, or a hand at the tray.

    A tray action the table cannot do (take a die off an empty tray) does nothing; ``say``
    hears why."""
    if key.lower() in KEYMAP:
        player, colour = KEYMAP[key.lower()]
        if player <= pads.players:
            pads.tap(player, colour)
            return True
        return False
    if key in TRAY_KEYS:
        refusal = getattr(tray, TRAY_KEYS[key])()
        if isinstance(refusal, str) and say is not None:
            say(f"sim    {refusal}")
        return True
    return False


@contextmanager
def terminal_keys(stream: TextIO) -> Iterator[Callable[[], str | None]]:
    """Read single key presses from a terminal without waiting for Enter (nothing, if not a terminal)."""
    if not stream.isatty():
        yield lambda: None
        return
    fd = stream.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)  # keys arrive one by one; Ctrl-C still interrupts
    try:
        yield lambda: os.read(fd, 1).decode(errors="ignore") if select.select([fd], [], [], 0)[0] else None
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def run(monitor: Monitor, pads: PlayerPads, tray: Tray, seconds: float | None, script: str = "",
        read_key: Callable[[], str | None] = lambda: None) -> None:
    """Show events until ``seconds`` have passed (or Ctrl-C), typing ``script`` at the sim table first."""
    deadline = None if seconds is None else time.monotonic() + seconds
    next_key = time.monotonic() + KEY_GAP_S
    pending = list(script)
    try:
        while deadline is None or time.monotonic() < deadline:
            monitor.drain(wait_s=0.05)
            key = read_key()
            if pending and time.monotonic() >= next_key:
                key, next_key = pending.pop(0), time.monotonic() + KEY_GAP_S
            if key is not None and isinstance(pads, SimPads):
                press_key(key, pads, tray, say=monitor.note)
            monitor.refresh()
    except KeyboardInterrupt:
        pass
    finally:
        pads.close()
        tray.close()
        monitor.drain()
        monitor.finish()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="table-noir hardware", description="Watch what the table's hardware reports.")
    commands = parser.add_subparsers(dest="command", required=True)
    watch = commands.add_parser("monitor", help="show button and tray events live",
                                description=__doc__.split("\n\n")[0], epilog="keys with --sim:\n" + KEY_HELP,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    watch.add_argument("--sim", action="store_true", help="use the simulated table and pads, driven by the keyboard")
    watch.add_argument("--config", metavar="FILE", help="a site table-noir.toml")
    watch.add_argument("--seconds", type=float, help="stop after this many seconds")
    watch.add_argument("--keys", default="", help="with --sim: keys to type at the start, one every 0.2 s")
    watch.add_argument("--seed", type=int, default=0, help="with --sim: the simulated table's seed")
    bench = commands.add_parser("bench", help="the maker's bench test: a guided checklist judged against the optics",
                                description="Check the sensing tray before gluing the arm: each step asks you to set "
                                            "the tray up one way, records what it reports and judges it against the "
                                            "optical model (docs/sensing.md). Ends with a pass/fail report to keep.")
    bench.add_argument("--sim", action="store_true", help="walk through on the virtual tray (a simulated maker)")
    bench.add_argument("--fast", action="store_true", help="with --sim: run the simulated table 6x faster")
    bench.add_argument("--config", metavar="FILE", help="a site table-noir.toml")
    bench.add_argument("--design", default="low-limit", help="the optical design to judge against (low-limit, "
                                                             "as-built, wide-mouth)")
    bench.add_argument("--report", metavar="FILE", help="also write the report to FILE")
    bench.add_argument("--seed", type=int, default=0, help="with --sim: the simulated table's seed")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.command == "bench":
        return run_bench(args)
    if args.keys and not args.sim:
        parser.error("--keys drives the simulated table; add --sim")
    pads: PlayerPads
    tray: Tray
    try:
        config = load_config(args.config)
        if args.sim:
            from .sim import SimTray

            pads, tray = SimPads(players=len(config.pads.pins) or 6), SimTray(config, seed=args.seed)
        else:
            from .factory import open_pads, open_tray

            pads = open_pads(config)
            try:
                tray = open_tray(config)
            except BaseException:
                pads.close()
                raise
    except ConfigError as err:
        print(f"table-noir hardware: {err}", file=sys.stderr)
        return 2
    monitor = Monitor(sys.stdout, live=sys.stdout.isatty())
    monitor.attach(pads, tray)
    if args.sim and sys.stdin.isatty():
        print(KEY_HELP + "\n")
    with terminal_keys(sys.stdin) as read_key:
        run(monitor, pads, tray, args.seconds, script=args.keys, read_key=read_key)
    return 0


def _wait_for_enter(step) -> None:
    """The maker at the real tray says when a step is set, or that they are about to act."""
    if step.action:  # recorded from the Enter on: act within the window
        input(f"    press Enter, then do it: the tray records for about {step.seconds} s ")
    else:
        input("    press Enter when it is done ")


def run_bench(args) -> int:
    """``table-noir hardware bench``: run the checklist on the real tray (Enter for each step) or
    on the virtual tray with a simulated maker; print the report (and write it with --report)."""
    from .bench import Bench, open_virtual_bench, wait_connected
    from .optics import DESIGNS

    tray: Tray

    if args.design not in DESIGNS:
        print(f"table-noir hardware bench: --design {args.design!r} is not one of {', '.join(sorted(DESIGNS))}",
              file=sys.stderr)
        return 2
    try:
        config = load_config(args.config)
    except ConfigError as err:
        print(f"table-noir hardware bench: {err}", file=sys.stderr)
        return 2
    if args.report:
        folder = os.path.dirname(os.path.abspath(args.report))
        if not os.path.isdir(folder):
            print(f"table-noir hardware bench: --report {args.report}: no folder {folder}", file=sys.stderr)
            return 2
    virtual = None
    if args.sim:
        virtual = open_virtual_bench(config, args.design, seed=args.seed, pace=1 / 6 if args.fast else 1.0)
        tray = virtual.tray
    else:
        from .factory import open_tray

        if config.tray.backend == "sim":
            print('table-noir hardware bench: the configured tray is the simulator (tray.backend = "sim"): '
                  'add --sim for a simulated walk-through, or set tray.backend to "serial" or "i2c"', file=sys.stderr)
            return 2
        tray = open_tray(config)

    try:
        if not wait_connected(tray):
            print("table-noir hardware bench: the tray did not answer within 10 s: is it plugged in?", file=sys.stderr)
            return 1
        if virtual is not None:  # the simulated maker needs no word
            bench = Bench(tray, config.geometry, args.design, act=virtual.act, say=print)
        else:
            bench = Bench(tray, config.geometry, args.design, ready=_wait_for_enter, say=print)
        bench.run()
    finally:
        if virtual is not None:
            virtual.close()
        else:
            tray.close()
    report = bench.report()
    print()
    print(report, end="")
    if args.report:
        with open(args.report, "w", encoding="utf-8") as out:
            out.write(report)
        print(f"report written to {args.report}")
    return 0 if bench.passed else 1


if __name__ == "__main__":
    sys.exit(main())
