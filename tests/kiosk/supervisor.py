"""A stand-in for systemd's watchdog, for tests on a machine without systemd as PID 1.

It does what the kiosk unit asks systemd to do (``Type=notify``, ``WatchdogSec``,
``Restart=always``), reading the same datagrams the kiosk sends to a real systemd:

* it makes a Unix datagram socket and starts the command with ``NOTIFY_SOCKET``
  naming it and ``WATCHDOG_USEC`` set, as systemd does;
* it waits for ``READY=1`` (up to ``start_timeout_s``), then for a ``WATCHDOG=1``
  at least every ``watchdog_s``;
* when one is late, it sends SIGABRT (systemd's ``WatchdogSignal``), then SIGKILL
  after ``abort_timeout_s`` (``TimeoutAbortSec``), and starts the command again
  after ``restart_s`` (``RestartSec``).

Everything it sees goes into ``events`` as ``(monotonic time, what, life)``, so a
test can show the kill, the restart and how long each step took; with
``stdout=subprocess.PIPE`` each line a child prints goes into ``lines`` as
``(monotonic time, life, text)``, lives counted from 1.
"""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any


class Supervisor:
    def __init__(self, argv: list[str], folder: Path, watchdog_s: float, restart_s: float = 0.5,
                 start_timeout_s: float = 60.0, abort_timeout_s: float = 3.0, **popen: Any) -> None:
        self.argv, self.popen = argv, popen
        self.watchdog_s, self.restart_s = watchdog_s, restart_s
        self.start_timeout_s, self.abort_timeout_s = start_timeout_s, abort_timeout_s
        self.address = str(folder / "notify.sock")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.address)
        self.sock.settimeout(0.05)
        self.events: list[tuple[float, str, int]] = []
        self.lines: queue.Queue[tuple[float, int, str]] = queue.Queue()
        self.lives: list[subprocess.Popen] = []
        self._readers: list[threading.Thread] = []
        self.lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="supervisor", daemon=True)

    # -- what a test uses ------------------------------------------------------------------

    def start(self) -> "Supervisor":
        self._spawn()
        self._thread.start()
        return self

    @property
    def child(self) -> subprocess.Popen:
        with self.lock:
            return self.lives[-1]

    def when(self, what: str, life: int | None = None) -> list[float]:
        """Times of the events called ``what`` (in one life, or all)."""
        with self.lock:
            return [t for t, w, n in self.events if w == what and (life is None or n == life)]

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        for proc in self.lives:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
        for reader in self._readers:
            reader.join(timeout=5)
        for proc in self.lives:
            if proc.stdout is not None:
                proc.stdout.close()
        self.sock.close()
        Path(self.address).unlink(missing_ok=True)

    # -- the supervising -----------------------------------------------------------------------

    def _note(self, what: str) -> None:
        with self.lock:
            self.events.append((time.monotonic(), what, len(self.lives)))

    def _spawn(self) -> None:
        env = {**self.popen.pop("env", os.environ), "NOTIFY_SOCKET": self.address,
               "WATCHDOG_USEC": str(int(self.watchdog_s * 1e6))}
        self.popen["env"] = env
        proc = subprocess.Popen(self.argv, **self.popen)
        with self.lock:
            self.lives.append(proc)
            life = len(self.lives)
        self._note("started")
        if proc.stdout is not None:  # each line the child prints, with when and in which life
            reader = threading.Thread(target=self._read, args=(proc, life), daemon=True)
            reader.start()
            self._readers.append(reader)

    def _read(self, proc: subprocess.Popen, life: int) -> None:
        for line in proc.stdout:
            self.lines.put((time.monotonic(), life, line.rstrip("\n")))

    def _run(self) -> None:
        ready, deadline = False, time.monotonic() + self.start_timeout_s
        while not self._stop.is_set():
            try:
                data = self.sock.recv(4096).decode()
            except socket.timeout:
                data = ""
            now = time.monotonic()
            for line in data.splitlines():
                if line == "READY=1":
                    ready = True
                    self._note("ready")
                elif line == "WATCHDOG=1" and ready:
                    self._note("ping")
                elif line:
                    self._note(line)
            if data and ready:
                deadline = now + self.watchdog_s if "WATCHDOG=1" in data or "READY=1" in data else deadline
            if self.child.poll() is not None:
                self._note("exited")
            elif now < deadline:
                continue
            else:
                self._note("watchdog" if ready else "start timeout")
                self._kill(self.child)
            time.sleep(self.restart_s)
            if self._stop.is_set():
                return
            self._spawn()
            ready, deadline = False, time.monotonic() + self.start_timeout_s

    def _kill(self, proc: subprocess.Popen) -> None:
        proc.send_signal(signal.SIGABRT)
        try:
            proc.wait(timeout=self.abort_timeout_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        self._note("killed")
