"""Message capture over whole random games: no secret and no player's text reaches the broker.

A random bot plays whole games of each engine on a table without Kivy (a store, a
runner, the stand's reporter reading it as the kiosk's UI thread does, after every
action). The stand's real publisher sends to a real Mosquitto on 127.0.0.1, and a
second client subscribed to every topic (``#``) keeps all that arrives. Every
message, as the publisher handed it over and as the broker delivered it, is checked:

1. **no player's text**: no player's name, and no text typed into any prompt (each
   is made unique, ``S17x``), anywhere in it;
2. **nothing but the public view**: a status's phase is the phase the public view
   showed, its players a count, its game the engine's id; an event is one of the
   known kinds with only the fields ``kiosk.fleet.messages`` allows;
3. **nothing more than the models hold**: each message parses as ``Status`` or
   ``Event`` with no field left over.

Run as a script for many games: ``python -m tests.fleet.secrecy --games 40``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from hardware.config import FleetConfig
from kiosk import games
from kiosk.controller import TrayState
from kiosk.fleet.messages import Event, Status
from kiosk.fleet.publisher import StandPublisher
from kiosk.fleet.stand import StandReporter
from kiosk.rules import RuleError, bot
from kiosk.runner import Runner
from kiosk.store import Store

from .broker import USERS, Broker, Listener

GAMES = ("even-odd", "promise-hollows", "hell-for-leather", "clincher")
SETUPS = {"even-odd": {"players": ["Annwyl", "Bryony", "Cerys", "Delyth"]}}


class Leak(AssertionError):
    pass


class Checker:
    def __init__(self) -> None:
        self.names: set[str] = set()
        self.typed: set[str] = set()
        self.phases: set[str] = set()
        self.games: set[str] = set()
        self.messages = 0

    def check(self, topic: str, payload: str) -> None:
        self.messages += 1
        for secret in sorted(self.names | self.typed):
            if re.search(rf"\b{re.escape(secret)}\b", payload):
                raise Leak(f"{secret!r} (a player's name or typed text) was published on {topic}: {payload[:200]}")
        data = json.loads(payload)
        model = Status if topic.endswith("/status") else Event
        checked = model.model_validate(data).model_dump(mode="json", exclude_none=True)
        extra = set(data) - set(checked)
        if extra:
            raise Leak(f"{topic} carries fields no model holds: {sorted(extra)}")
        if model is Status:
            if data.get("phase") is not None and data["phase"] not in self.phases:
                raise Leak(f"status phase {data['phase']!r} was never the public view's")
            if data.get("game") is not None and data["game"] not in self.games:
                raise Leak(f"status game {data['game']!r} is not the game played")


def play_one(tmp: Path, game: str, seed: int, checker: Checker, publisher: StandPublisher,
             leaky: bool = False, max_actions: int = 4000) -> tuple[int, bool]:
    """One whole game; returns the number of actions and whether it reached its end. ``leaky``: the control, a stand whose
    faults list carries what players typed (as a careless status would)."""
    rng = random.Random(seed)
    store = Store(tmp / f"{game}-{seed}.sqlite3", engines=games.engine_for)
    try:
        runner = Runner.new(store, games.engine_for(game), {"seed": seed, **SETUPS.get(game, {})})
        checker.names |= set(runner.players())
        checker.games.add(game)
        app = SimpleNamespace(sm=SimpleNamespace(current="play"), runner=runner, hardware_problems=[],
                              phones_problem=None, controller=SimpleNamespace(tray_state=TrayState(link="sim")))
        reporter = StandReporter(app, publisher, every_s=0)  # a status after every action
        counter = 0
        for _ in range(max_actions):
            checker.phases.add(str(runner.session.view(None).get("phase")))
            reporter.tick()
            if runner.outcome is not None:
                break
            prompts = runner.awaiting()
            prompt = rng.choice([p for p in prompts if not p.optional] or prompts)
            data = bot.fill(prompt, rng)
            for f in prompt.fields:
                if f.kind == "text":
                    counter += 1
                    data[f.name] = f"S{counter}x{seed}"
                    checker.typed.add(data[f.name])
                    if leaky:
                        app.hardware_problems = [f"Last typed: {data[f.name]}"]
            try:
                runner.propose(data)
            except RuleError:
                pass
        reporter.tick()
        return len(runner.session.log), runner.outcome is not None
    finally:
        store.close()


def run_games(tmp: Path, broker: Broker, counts: dict[str, int], seed: int = 0, leaky: bool = False) -> dict[str, Any]:
    """Play ``counts`` games of each engine through one stand; check every message both ways."""
    checker = Checker()
    failures: list[BaseException] = []

    def tap(topic: str, payload: str) -> None:
        try:
            checker.check(topic, payload)
        except Leak as err:
            failures.append(err)

    listener = Listener(broker.port, topic="#", client_id=f"secrecy-{seed}")
    cfg = FleetConfig(broker="127.0.0.1", port=broker.port, stand="hall-a", username="hall-a",
                      password=USERS["hall-a"], status_every_s=2, queue_max=100000)
    publisher = StandPublisher(cfg, tmp / "outbox.sqlite3", reconnect_s=(1, 1))
    publisher.tap = tap
    publisher.start()
    listener.wait(lambda: publisher.connected.is_set(), what="the stand connected")
    actions = played = over = 0
    try:
        for game, count in counts.items():
            for i in range(count):
                length, ended = play_one(tmp, game, seed + i, checker, publisher, leaky=leaky)
                actions, played, over = actions + length, played + 1, over + ended
                if failures:
                    raise failures[0]
        listener.wait(lambda: not len(listener.payloads("/events")) < 2 * played + 1, seconds=30,
                      what="every event on the broker")
        time.sleep(0.5)
    finally:
        publisher.close()
        listener.close()
    with listener.lock:
        on_broker = list(listener.got)
    for topic, payload, _ in on_broker:  # what the broker delivered, to anyone subscribed
        checker.check(topic, payload)
    if failures:
        raise failures[0]
    return {"games": played, "over": over, "actions": actions, "checked": checker.messages, "on_broker": len(on_broker)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games of each engine")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        broker = Broker(Path(tmp))
        broker.start()
        try:
            total = run_games(Path(tmp), broker, {g: args.games for g in GAMES}, args.seed)
        finally:
            broker.stop()
    print(f"{total['games']} games ({total['over']} to the end), {total['actions']} actions, {total['checked']} messages checked "
          f"({total['on_broker']} as the broker delivered them), leaks: 0, {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
