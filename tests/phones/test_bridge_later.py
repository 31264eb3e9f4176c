"""The kiosk builds the phones' frames after the shared screen's frame (``PhoneBridge(later=...)``):
the phones must get exactly what they got when frames were pushed at once, in the same order."""

from __future__ import annotations

import random
from types import SimpleNamespace

from kiosk import games
from kiosk.phones.bridge import PhoneBridge
from kiosk.phones.events import PhoneAction
from kiosk.rules import RuleError, bot
from kiosk.runner import Runner
from kiosk.store import Store


class Server:
    """Stands in for the phone server: records what the bridge hands to it, in order."""

    def __init__(self) -> None:
        self.sent: list[tuple] = []
        self.on_seat = self.answerable = None

    def use(self, book) -> None:
        self.sent.append(("use",))

    def push(self, player, frame) -> None:
        self.sent.append(("push", player, frame))

    def reply(self, cid, request, error) -> None:
        self.sent.append(("reply", cid, request, error))

    def end(self, reason) -> None:
        self.sent.append(("end", reason))


def move(runner, rng) -> None:
    prompts = [p for p in runner.awaiting() if not p.optional] or runner.awaiting()
    for _ in range(100):
        try:
            runner.propose(bot.fill(rng.choice(prompts), rng))
            return
        except RuleError:
            continue


def test_deferred_frames_are_the_frames_sent_at_once(tmp_path):
    store = Store(tmp_path / "t.sqlite3", engines=games.engine_for)
    runner = Runner.new(store, games.engine_for("even-odd"), {"seed": 3, "players": ["Ann", "Bo", "Cy"]})
    queued: list = []
    later, now = Server(), Server()
    deferred = PhoneBridge(later, later=queued.append)
    deferred.attach(runner)
    rng = random.Random(4)
    move(runner, rng)
    deferred.detach()  # leaving the game sends what was pending first
    assert [s[0] for s in later.sent[-4:]] == ["push", "push", "push", "use"]
    assert not queued[0]() and not later.sent[-1][0] == "push", "a late call after leaving sends nothing"
    queued.clear()
    deferred.attach(runner)
    for step in range(40):
        if runner.outcome is not None:
            break
        start = len(later.sent)
        for _ in range(1 + step % 3):  # one to three actions within one frame
            move(runner, rng)
        assert len(later.sent) == start, "nothing is built for the phones inside the frame"
        assert len(queued) == 1, "several actions in one frame are sent once"
        phone_action = SimpleNamespace(event=PhoneAction(seat="Ann", data={}, conn=7, request=step),
                                       error=None, action=object())
        deferred.handled(phone_action)  # the controller answers a phone's action in the same frame
        queued.pop()()
        pushed = later.sent[start:]
        # Exactly what a bridge that pushes at once sends for the game as it now stands...
        now.sent.clear()
        immediate = PhoneBridge(now)
        immediate.runner = runner
        immediate.book = deferred.book
        immediate._changed(None)
        assert pushed[:-1] == now.sent
        # ...and the phone hears "done" only after the frame its action made.
        assert pushed[-1] == ("reply", 7, step, None)
    assert later.sent[-2][0] == "end", "the game's end reaches the phones"
    store.close()
