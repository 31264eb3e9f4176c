"""Frame capture over whole random games: no phone ever receives another player's secret.

Four phones join a real phone server (WebSockets over loopback). A random bot
plays whole games; about half of the answers are sent from the answering
player's phone, the rest go straight to the rules as a pad or the touchscreen
would. Every frame the server sends to a phone is captured at the socket
(``PhoneServer.tap``) and checked against the game's state at that moment:

1. **typed secrets**: every text typed into a secret prompt is made unique
   (``S17x``). Until the public view shows it (or the rules show it to that
   player: the President reads the confessions), it must not appear anywhere
   in a frame sent to another player's phone, sheet and recap included;
2. **secret values**: any (path, value) in a frame's view must be in that
   player's own view or the public view, never only in another player's view
   (a wager, a locked card, a private self);
3. **nothing but the view**: the frame's view, sheet and recap are exactly
   ``view(player)``, ``sentences(view(player))`` and ``recap(player)``.

Run as a script for many games: ``python -m tests.phones.secrecy --games 200``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from kiosk.phones import sheets
from kiosk.rules import RuleError, bot

from .table import table

GAMES = ("even-odd", "promise-hollows", "hell-for-leather", "clincher")
SETUPS = {"even-odd": {"players": ["Ann", "Bo", "Cy", "Di"]}}


def pairs(data: Any, path: str = "") -> set[tuple[str, str]]:
    """Every leaf of a JSON-like value as (path, value), for comparing views."""
    out: set[tuple[str, str]] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            out |= pairs(v, f"{path}.{k}")
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out |= pairs(v, f"{path}[{i}]")
    else:
        out.add((path, json.dumps(data, default=str)))
    return out


def plain(data: Any) -> Any:
    return json.loads(json.dumps(data, default=str))


class Leak(AssertionError):
    pass


class Checker:
    def __init__(self, session) -> None:
        self.session = session
        self.typed: dict[str, str] = {}  # unique secret text -> who typed it
        self.frames = 0
        self._cache: dict[Any, Any] = {}

    def _views(self) -> dict[Any, Any]:
        """Every viewer's view as (path, value) pairs, once per state (four phones share it)."""
        s = self.session
        key = (len(s.log), id(s.log[-1]) if s.log else None)
        if self._cache.get("key") != key:
            views = {v: plain(s.view(v)) for v in [None, *s.engine.players(s.state)]}
            self._cache = {"key": key, "views": views, "pairs": {v: pairs(d) for v, d in views.items()},
                           "public_json": json.dumps(views[None])}
        return self._cache

    def check(self, player: str, text: str) -> None:
        """One frame sent to ``player``'s phone, against the state as it is now."""
        self.frames += 1
        frame = json.loads(text)
        if frame.get("type") != "state":
            return
        s = self.session
        views = self._views()
        own = views["views"][player]
        if frame["player"] != player:
            raise Leak(f"{player}'s phone was sent {frame['player']}'s frame")
        if frame["you"] != own:
            raise Leak(f"{player}'s frame is not exactly {player}'s view")
        if frame["sheet"] != sheets.sentences(s.engine.game, s.view(player), player):
            raise Leak(f"{player}'s sheet says more than {player}'s view")
        if frame["recap"] != s.recap(player, last=len(frame["recap"])):
            raise Leak(f"{player}'s recap is not {player}'s own")
        shown = views["public_json"] + json.dumps(own)  # what the rules let this player read (the President reads confessions)
        for secret, owner in self.typed.items():
            if owner != player and secret not in shown and secret in text:
                raise Leak(f"{owner}'s secret text {secret!r} reached {player}'s phone before it was public")
        allowed = views["pairs"][player] | views["pairs"][None]
        sent = pairs(frame["you"])
        for other in s.engine.players(s.state):
            if other == player:
                continue
            leaked = (views["pairs"][other] - allowed) & sent
            if leaked:
                raise Leak(f"{other}'s secret {sorted(leaked)[:3]} reached {player}'s phone")


async def play_one(tmp: Path, game: str, seed: int, leaky: bool = False, max_actions: int = 4000) -> dict[str, int]:
    rng = random.Random(seed)
    setup = {"seed": seed, **SETUPS.get(game, {})}
    async with table(tmp, game, setup, rate=(1000.0, 1000)) as t:  # a bot taps faster than people
        session = t.runner.session
        checker = Checker(session)
        if leaky:  # the control: a server that sends the next player's view must be caught
            real = t.bridge.frame
            players = t.runner.players()
            t.bridge.frame = lambda p: {**real(p), "you": session.view(players[(players.index(p) + 1) % len(players)])}
        failures: list[BaseException] = []

        def tap(player: str, text: str) -> None:
            try:
                checker.check(player, text)
            except Leak as err:
                failures.append(err)

        t.server.tap = tap
        phones = {}
        for player in t.runner.players():
            phone = await t.phone()
            await phone.join(token=t.token(player))
            phones[player] = phone
        await t.settle(10)
        request, counter, by_phone = 0, 0, 0
        for _ in range(max_actions):
            if failures or t.runner.outcome is not None:
                break
            prompts = t.runner.awaiting()
            required = [p for p in prompts if not p.optional]
            prompt = rng.choice(required or prompts)
            data = bot.fill(prompt, rng)
            for f in prompt.fields:
                if f.kind == "text":
                    counter += 1
                    data[f.name] = f"S{counter}x"
                    if prompt.secret:
                        checker.typed[data[f.name]] = prompt.player
            if prompt.player in phones and rng.random() < 0.5:
                request += 1
                fields = {k: v for k, v in data.items() if k not in ("type", "player")}
                answer = await phones[prompt.player].act(prompt.action, request=request, **fields)
                by_phone += answer["type"] in ("done", "ended")
            else:
                try:
                    t.runner.propose(data)
                except RuleError:
                    pass
            await t.settle(6)
        await t.settle(20)
        if failures:
            raise failures[0]
        return {"actions": len(session.log), "frames": checker.frames, "by_phone": by_phone,
                "over": int(t.runner.outcome is not None)}


def run_games(games: int, seed: int = 0, kinds: tuple[str, ...] = GAMES) -> dict[str, int]:
    total = {"games": 0, "actions": 0, "frames": 0, "by_phone": 0, "over": 0}
    for i in range(games):
        game = kinds[i % len(kinds)]
        with tempfile.TemporaryDirectory() as tmp:
            result = asyncio.run(play_one(Path(tmp), game, seed + i))
        total["games"] += 1
        for k, v in result.items():
            total[k] += v
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    started = time.perf_counter()
    total = run_games(args.games, args.seed)
    print(f"{total['games']} games ({total['over']} to the end), {total['actions']} actions "
          f"({total['by_phone']} from phones), {total['frames']} frames checked, leaks: 0, "
          f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
