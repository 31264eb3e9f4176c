"""Phone tap -> shared screen updated, with 8 phones on loopback (prints median and p95), and memory.

Runs the real kiosk window (under Xvfb) at its normal 60 fps pacing and its
real phone server, with eight phones (aiohttp WebSocket clients on a thread of
their own) joined to an eight-player Promise Hollows game. For each measured
tap, a phone sends its player's answer (after a random 0-50 ms wait, as a tap
comes at any moment of a frame) and the time runs until the end of the first
frame flip after the rules accepted it: the table can see it. It also notes
when that phone received its new view.

The baseline, in the same process and the same game: the same kind of answer
put straight into the controller's queue from another thread (what a pad
press does), with no network and no JSON. The ratio shows what the phone path
adds.

Memory: the kiosk's resident size before and after ``--long`` more actions
with all eight phones connected, every phone reloading (a new connection)
every 100 actions.

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python benchmarks/phones_latency.py [--taps 200] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.stats import p95  # noqa: E402
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")

PLAYERS = ["Ann", "Bo", "Cy", "Di", "Eve", "Flo", "Gus", "Hal"]


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Phones:
    """Eight phones on their own asyncio loop and thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.ws: dict[str, object] = {}
        self.got_state: dict[str, float] = {}
        self.session = None

    def run(self, coro, timeout: float = 10):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _join(self, player: str, url: str) -> None:
        import aiohttp

        if self.session is None:
            self.session = aiohttp.ClientSession()
        old = self.ws.get(player)
        if old is not None:
            await old.close()
        base, token = url.split("/#")
        ws = await self.session.ws_connect(base.replace("http", "ws") + "/ws", max_msg_size=0)
        await ws.send_str(json.dumps({"type": "hello", "token": token, "device": self.devices.get(player)}))
        welcome = json.loads((await ws.receive()).data)
        self.devices[player] = welcome["device"]
        self.ws[player] = ws
        asyncio.ensure_future(self._listen(player, ws))

    devices: dict[str, str] = {}

    async def _listen(self, player: str, ws) -> None:
        async for msg in ws:
            if '"type": "state"' in msg.data[:20]:
                self.got_state[player] = time.perf_counter()

    def join(self, player: str, url: str) -> None:
        self.run(self._join(player, url))

    def tap(self, player: str, action: dict, delay: float, sent: dict) -> None:
        async def go():
            await asyncio.sleep(delay)
            sent["t"] = time.perf_counter()
            fields = {k: v for k, v in action.items() if k not in ("type", "player")}
            await self.ws[player].send_str(json.dumps({"type": "act", "id": 1, "action": action["type"], "fields": fields}))
        asyncio.run_coroutine_threadsafe(go(), self.loop)

    def queue_directly(self, controller, event, delay: float, sent: dict) -> None:
        def go():
            time.sleep(delay)
            sent["t"] = time.perf_counter()
            controller.receive(event)
        threading.Thread(target=go, daemon=True).start()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--taps", type=int, default=150, help="measured taps per run and path")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--long", type=int, default=3000, help="actions in the memory run")
    parser.add_argument("--memory-only", action="store_true", help="skip the latency runs")
    parser.add_argument("--without-phones", action="store_true",
                        help="the memory run's baseline: the same session with phones turned off")
    args = parser.parse_args()
    from testkit import drive

    port = __import__("socket").socket()
    port.bind(("127.0.0.1", 0))
    free = port.getsockname()[1]
    port.close()
    tmp = Path(tempfile.mkdtemp(prefix="tn-phones-bench-"))
    off = "[kiosk]\nphones = false\n" if args.without_phones else ""
    (tmp / "table-noir.toml").write_text(f'{off}[phones]\nport = {free}\n')
    app = drive.start(str(tmp / "data"), maxfps=60, config_path=str(tmp / "table-noir.toml"))
    from kivy.base import EventLoop

    from kiosk.phones.events import PhoneAction
    from kiosk.rules import RuleError, bot
    from kiosk.ui import overlays

    overlays.ANIMATION_SCALE["value"] = 0
    phones = Phones()

    def new_game(seed: int) -> None:
        app.go_home()
        app.start_game("promise-hollows", {"seed": seed, "players": PLAYERS})
        for player in PLAYERS:
            if app.phones is not None:
                phones.join(player, app.phones.server.join_url(player))
        for _ in range(5):
            EventLoop.idle()

    def legal(rng):
        """A player's answer the rules will take (tried on a copy of the game, not timed)."""
        from kiosk.rules import Session

        prompts = [p for p in app.runner.awaiting() if not p.optional and p.player in PLAYERS]
        if not prompts:
            return None
        for _ in range(30):
            data = bot.fill(rng.choice(prompts), rng)
            probe = Session(app.runner.engine, app.runner.session.setup)
            probe.state, probe.rng = __import__("copy").deepcopy(app.runner.session.state), random.Random(0)
            try:
                probe._check_awaited(app.runner.engine.actions.validate_python(data))
                app.runner.engine.apply(probe.state, app.runner.engine.actions.validate_python(data), probe.rng)
                return data
            except (RuleError, Exception):  # noqa: BLE001
                continue
        return None

    def measure(path: str, seed: int) -> tuple[list[float], list[float]]:
        rng = random.Random(seed)
        new_game(seed)
        screen, phone = [], []
        while len(screen) < args.taps:
            if app.runner.outcome is not None:
                new_game(rng.randrange(10**6))
            for o in list(app.overlays):
                o.dismiss()
            data = legal(rng)
            if data is None:
                drive.bot_move(app, rng)
                EventLoop.idle()
                continue
            before = len(app.runner.session.log)
            sent: dict = {}
            phones.got_state.pop(data["player"], None)
            delay = rng.uniform(0, 0.05)
            if path == "phone":
                phones.tap(data["player"], data, delay, sent)
            else:
                event = PhoneAction(data["player"], {k: v for k, v in data.items() if k != "player"})
                phones.queue_directly(app.controller, event, delay, sent)
            deadline = time.perf_counter() + 3.0
            while time.perf_counter() < deadline:
                EventLoop.idle()
                if len(app.runner.session.log) > before and "t" in sent:
                    screen.append((time.perf_counter() - sent["t"]) * 1000)
                    break
            else:
                drive.bot_move(app, rng)
                continue
            end = time.perf_counter() + 1.0
            while data["player"] not in phones.got_state and time.perf_counter() < end:
                time.sleep(0.001)
            if data["player"] in phones.got_state and path == "phone":
                phone.append((phones.got_state[data["player"]] - sent["t"]) * 1000)
        return screen, phone

    print(f"phones: {len(PLAYERS)} connected over loopback, Promise Hollows, kiosk at 60 fps, {args.taps} taps a run")
    medians, p95s, ratios = [], [], []
    for run in range(0 if args.memory_only else args.runs):
        base, _ = measure("queue", 100 + run)
        screen, phone = measure("phone", 200 + run)
        m, b = statistics.median(screen), statistics.median(base)
        medians.append(m)
        p95s.append(p95(screen))
        ratios.append(m / b)
        print(f"run {run + 1}: phone tap -> shared screen median {m:.1f} ms, p95 {p95(screen):.1f} ms; "
              f"-> that phone's new view median {statistics.median(phone):.1f} ms, p95 {p95(phone):.1f} ms; "
              f"baseline (same answer put in the queue directly) median {b:.1f} ms, p95 {p95(base):.1f} ms; "
              f"ratio {m / b:.2f}")
    if app.phones is not None and app.runner is not None:  # what issue 31's check adds to each phone action
        prompt = next(iter(app.runner.awaiting()), None)
        if prompt is not None:
            costs = []
            for _ in range(500):
                t0 = time.perf_counter()
                app.phones.answerable(prompt.player or PLAYERS[0], prompt.action)
                costs.append((time.perf_counter() - t0) * 1e6)
            print(f"the check that a phone answers only its own prompt (UI thread): median "
                  f"{statistics.median(costs):.0f} us, p95 {p95(costs):.0f} us")
    if medians:
        print(f"over {args.runs} runs: median {min(medians):.1f}-{max(medians):.1f} ms, p95 {min(p95s):.1f}-{max(p95s):.1f} ms, "
              f"ratio to the baseline {min(ratios):.2f}-{max(ratios):.2f}")

    # memory over a long session, all eight phones connected, each reloading every 100 actions
    import gc

    rng = random.Random(9)
    new_game(9)
    gc.collect()
    start, done = rss_mb(), 0
    t0 = time.perf_counter()
    while done < args.long:
        if app.runner.outcome is not None:
            new_game(rng.randrange(10**6))
        before = len(app.runner.session.log)
        drive.bot_move(app, rng)
        done += len(app.runner.session.log) > before
        if done % 100 == 0 and app.phones is not None:
            for player in PLAYERS:
                phones.join(player, app.phones.server.join_url(player))
        if done % 10 == 0:
            EventLoop.idle()
    for _ in range(10):
        EventLoop.idle()
    gc.collect()
    who = "phones turned off" if app.phones is None else "8 phones joined"
    print(f"memory: {start:.1f} MB resident with {who}; after {done} more actions "
          f"({time.perf_counter() - t0:.0f} s, every phone reloaded every 100) {rss_mb():.1f} MB "
          f"({rss_mb() - start:+.1f} MB); open phone connections on the server: "
          f"{len(app.phones.server.conns) if app.phones else 0}")
    if phones.session is not None:
        phones.run(phones.session.close())
    drive.stop(app)
    return 0


if __name__ == "__main__":
    sys.exit(main())
