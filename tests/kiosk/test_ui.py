"""End-to-end: the real kiosk window under Xvfb, played through its widgets and the simulated table."""

import os
import re

import pytest

from kiosk import games
from kiosk.ui import overlays
from testkit import drive

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")

from kiosk.ui.fields import readable  # noqa: E402

from .uiplay import back_home, PIN, bot_step, close_overlays, hold_gray, open_operator, pin_in, play_game  # noqa: E402


@pytest.fixture(autouse=True)
def home(app):
    back_home(app)
    drive.pump(1)
    yield


def test_home_lists_every_available_game(app):
    for game in games.available():
        assert drive.find_all(f"home:new:{game}"), game


def test_toy_game_plays_to_the_end_through_the_widgets(app):
    actions = play_game(app, "toy", seed=3)
    assert actions >= 4
    assert "wins" in app.runner.outcome
    assert app.store.sessions()[0].outcome == app.runner.outcome


def test_secret_round_shows_who_locked_never_what(app):
    drive.press("home:new:toy")
    drive.press("setup:start")
    drive.press("secret:Bo")
    hold_gray(app, 2)
    drive.press("private:show")
    drive.press("number=7")
    drive.press("private:lock")
    texts = re.sub(r"\[[^\]]*\]", "", " ".join(w.text for w in drive.walk(app.play) if hasattr(w, "text")))
    assert "Bo: locked in" in texts
    assert not re.search(r"\b7\b", texts)  # the number itself is nowhere on screen
    app.sim_pads.tap(1, "black")  # a pad press the toy cannot use changes nothing
    drive.pump(2)
    assert len(app.runner.session.log) == 1


def test_refused_answer_shows_the_rule_and_keeps_the_game(app):
    drive.press("home:new:toy")
    drive.press("setup:start")
    runner = app.runner
    runner.propose({"type": "lock", "player": "Ann", "number": 1})
    runner.propose({"type": "lock", "player": "Bo", "number": 1})
    close_overlays(app)
    for amount in (3, 3, 3):
        runner.propose({"type": "add", "player": runner.awaiting()[0].player, "amount": amount})
    assert runner.session.state.total == 9
    before = len(runner.session.log)
    drive.press("amount=3")  # would overshoot ten with a 3
    assert "overshoot" in app.play.error.text
    assert len(runner.session.log) == before


def _toy_game_at_its_first_add(app):
    drive.press("home:new:toy")
    drive.press("setup:start")
    app.runner.propose({"type": "lock", "player": "Ann", "number": 1})
    app.runner.propose({"type": "lock", "player": "Bo", "number": 1})
    close_overlays(app)
    drive.pump(2, draw=True)
    return app.runner


def _record_flips(app, monkeypatch) -> list[tuple[int, int]]:
    """(actions the frame shows, actions on disk) at each frame put on screen."""
    import sqlite3
    from contextlib import closing

    from kivy.core.window import Window

    flips: list[tuple[int, int]] = []
    real_flip = Window.flip

    def flip():
        with closing(sqlite3.connect(app.store.path)) as other:
            on_disk = other.execute("SELECT COUNT(*) FROM actions WHERE session = ?", (app.runner.sid,)).fetchone()[0]
        flips.append((len(app.runner.session.log), on_disk))
        real_flip()

    monkeypatch.setattr(Window, "flip", flip)
    return flips


def test_no_frame_shows_an_action_before_it_is_on_disk(app, monkeypatch):
    # The kiosk commits behind (the disk syncs while the frame is drawn); the frame
    # still waits for the sync before it is shown. The disk here takes 0.2 s.
    from .commits import CommitGate

    runner = _toy_game_at_its_first_add(app)
    flips = _record_flips(app, monkeypatch)
    gate = CommitGate(app.store)
    gate.delay = 0.2
    try:
        drive.press("amount=3")
        drive.pump(3, draw=True)
    finally:
        gate.remove()
    assert len(runner.session.log) == 3
    assert flips and flips[-1] == (3, 3)
    assert all(shown <= on_disk for shown, on_disk in flips), flips


def test_an_action_that_cannot_be_saved_is_taken_back_before_it_is_seen(app, monkeypatch):
    import sqlite3

    from .commits import CommitGate

    runner = _toy_game_at_its_first_add(app)
    flips = _record_flips(app, monkeypatch)
    gate = CommitGate(app.store)
    gate.fail_next = sqlite3.OperationalError("disk I/O error")
    try:
        drive.press("amount=3")
        drive.pump(3, draw=True)
    finally:
        gate.remove()
    assert "could not be saved (disk I/O error)" in app.play.error.text and "taken back" in app.play.error.text
    assert len(runner.session.log) == 2  # the game on screen is the one on disk
    assert flips and all(shown <= on_disk for shown, on_disk in flips), flips
    drive.press("amount=3")  # and play goes on
    drive.pump(2, draw=True)
    assert len(runner.session.log) == 3 and flips[-1] == (3, 3)


def test_a_press_right_after_an_unsaved_one_is_played_on_what_the_disk_holds(app, monkeypatch):
    # Two pad presses handled in one frame: the first one's commit fails. The second
    # is played on the game as stored (the first taken back), and no frame shows the first.
    import sqlite3

    from .commits import CommitGate

    runner = _toy_game_at_its_first_add(app)
    flips = _record_flips(app, monkeypatch)
    gate = CommitGate(app.store)
    gate.fail_next = sqlite3.OperationalError("disk I/O error")
    who = runner.awaiting()[0].player
    try:
        runner.propose({"type": "add", "player": who, "amount": 3})
        runner.propose({"type": "add", "player": who, "amount": 2})  # the same player: the 3 is gone
        drive.pump(3, draw=True)
    finally:
        gate.remove()
    assert [a.amount for a in runner.session.log[2:]] == [2]
    assert [a.amount for a in app.store.load(runner.sid).log[2:]] == [2]
    assert "could not be saved" in app.play.error.text
    assert flips and all(shown <= on_disk for shown, on_disk in flips), flips


def test_undo_asks_first_and_then_takes_back(app):
    drive.press("home:new:toy")
    drive.press("setup:start")
    drive.press("secret:Ann")
    hold_gray(app, 1)
    drive.press("private:show")
    drive.press("number=4")
    drive.press("private:lock")
    assert len(app.runner.session.log) == 1
    drive.press("bar:undo")
    drive.press("confirm:no")
    assert len(app.runner.session.log) == 1
    drive.press("bar:undo")
    assert "locked choice" in app.overlays[-1].children[0].children[-1].text  # the value stays hidden
    drive.press("confirm:yes")
    assert len(app.runner.session.log) == 0
    assert len(app.store.load(app.runner.sid).log) == 0


def test_escape_and_window_close_do_not_leave(app):
    from kivy.core.window import Window

    assert Window.dispatch("on_keyboard", 27, 41, None, []) is True
    assert Window.dispatch("on_request_close") is True
    assert app.sm.current == "home"


def test_operator_menu_needs_the_pin(app):
    drive.press("home:operator")
    drive.type_digits("pin", "1111")
    assert app.sm.current == "home"
    assert "Wrong PIN" in app.overlays[-1].label.text
    pin_in(app)
    assert app.sm.current == "operator"
    drive.press("op:back")
    assert app.sm.current == "home"


def test_attract_mode_keeps_the_game(app):
    # Issue 21: the loop ends at home, never inside the last group's game, which waits there.
    drive.press("home:new:toy")
    drive.press("setup:start")
    sid = app.runner.sid
    app.last_input -= app.config_hw.kiosk.idle_attract_s + 1
    app._idle_check()
    drive.pump(1)
    assert app.sm.current == "attract"
    drive.tap_at(100, 100)
    drive.pump(1)
    assert app.sm.current == "home"
    drive.press(drive.scrolled_row(app.home.waiting, "home:resume", sid))
    assert app.sm.current == "play" and app.runner.sid == sid


def test_widgets_dropped_in_play_are_freed_at_the_next_quiet_moment_not_during_play(app):
    # Kivy widgets hold reference cycles, so only the cycle collector frees them;
    # left to itself it runs mid-action and stalled the screen for up to 250 ms.
    # The kiosk collects once the table has been quiet for a second instead.
    import gc
    import time
    import weakref

    from kiosk.ui.theme import Text

    drive.press("home:new:toy")
    drive.press("setup:start")
    card = Text("a card that was shown for a while, then closed")
    gc.collect(1)  # while it was shown, the young collections moved it to the oldest generation
    dropped = weakref.ref(card)
    del card
    gc.collect(1)
    assert dropped() is not None  # only a full collection frees it now
    app.last_input = app.last_event = time.monotonic()  # a die has just landed
    app._idle_check()
    assert dropped() is not None  # nothing slow while the table is busy
    app.last_event -= 1.5  # a second and a half of quiet
    app.last_input -= 1.5
    app._idle_check()
    assert dropped() is None
    assert app.sm.current == "play"  # far from attract mode


def test_a_quiet_second_after_play_hands_freed_memory_back(app, monkeypatch):
    # Issue 33: between two actions at a table the kiosk returns what play freed to the system
    # (malloc_trim), not only on the way Home; never while the table is busy.
    import time

    from kiosk import housekeeping

    trims: list[int] = []
    monkeypatch.setattr(housekeeping, "release_memory", lambda: trims.append(1) or True)
    drive.press("home:new:toy")
    drive.press("setup:start")
    drive.pump(2)
    app.last_input = app.last_event = time.monotonic()  # a die has just landed
    app._idle_check()
    assert trims == []
    app.last_event -= 1.5
    app.last_input -= 1.5
    app._idle_check()
    assert trims == [1]


def test_what_play_dropped_is_freed_on_going_home_even_without_a_pause(app):
    # A stand where one game follows another without a quiet second (or the
    # benchmark's bots) still gets its full collection between games, rather than
    # one in the middle of an action (measured: 100-300 ms).
    import gc
    import time
    import weakref

    from kiosk.ui.theme import Text

    drive.press("home:new:toy")
    drive.press("setup:start")
    card = Text("a card that was shown for a while, then closed")
    gc.collect(1)
    dropped = weakref.ref(card)
    del card
    app.last_input = app.last_event = time.monotonic()  # busy: no quiet second
    app.go_home()
    assert dropped() is None


def test_what_a_game_showed_is_freed_once_nothing_holds_it(app):
    # All day at a stand, game after game: what a game put on screen must be freed
    # once it is gone from the screen and from the caches. It was not when start-up's
    # gc.freeze ran again at every new game (300 MB a minute in the memory benchmark).
    import gc
    import random
    import weakref

    from kiosk.rules import bot
    from kiosk.ui.theme import Text

    app.start_game("even-odd", {"seed": 4})
    rng = random.Random(4)
    for _ in range(5):
        app.runner.propose(bot.fill([p for p in app.runner.awaiting() if not p.optional][0], rng))
        drive.pump(1)
    shown = weakref.ref(next(w for w in app.play.prompt_box.children if isinstance(w, Text)))  # the prompt's own words
    app.go_home()
    app.start_game("clincher", {"seed": 5})
    drive.pump(2)
    for cache in (app.play._labels_cache, app.play._buttons_cache, app.play._inputs_cache):
        cache.clear()  # as the caches turn over in a long day
    gc.collect()
    assert shown() is None


@pytest.mark.parametrize("game", [g for g in games.modules() if g != "toy"])
def test_real_game_plays_to_the_end(app, game):
    if game not in app.engines:
        pytest.skip(f"{game} engine has not landed yet")
    handled = []
    app.controller.on_handled.append(handled.append)
    try:
        extra = ("tokens.red+5", "tokens.yellow+5", "tokens.green+5") if game == "clincher" else ()
        actions = play_game(app, game, seed=11, not_before=("end_session", 40), setup_presses=extra)
    finally:
        app.controller.on_handled.remove(handled.append)
    assert actions > 5
    from_hardware = [h for h in handled if h.action and not h.error]
    assert from_hardware, "the simulated table answered nothing"
    stored = app.store.load(app.runner.sid)
    assert stored.state == app.runner.session.state


def test_tray_unplugged_shows_at_once_and_recovers(app):
    from hardware.events import LinkDown, LinkUp

    drive.press("home:new:hell-for-leather")
    drive.press("setup:start")
    tray = app.controller.tray
    tray.emit(LinkDown("sim", "cable pulled", 0.0))
    drive.pump(1)  # one frame later
    assert app.play.banner.height > 0 and "unplugged" in app.play.banner_text.text
    assert "unplugged" in app.play.status.text
    tray.emit(LinkUp("sim", "back", 0.0))
    drive.pump(1)
    assert app.play.banner.height == 0


def test_the_status_line_says_the_stack_in_words(app, monkeypatch):
    from hardware.events import HeatHeight
    from kiosk.controller import TrayState

    # The shared app has met a tray in earlier tests; start as a kiosk does, before any reading.
    monkeypatch.setattr(app.controller, "tray_state", TrayState())
    drive.press("home:new:hell-for-leather")
    drive.press("setup:start")
    drive.pump(1)
    assert "Stack: not read yet" in app.play.status.text
    for dice, said in ((1, "Stack: 1 die"), (4, "Stack: 4 dice"), (0, "Stack: 0 dice")):
        app.controller.tray.emit(HeatHeight(dice, 0.0))
        drive.pump(1)
        assert said in app.play.status.text


def test_a_game_without_dice_on_the_tray_does_not_talk_about_the_tray(app):
    from hardware.events import LinkDown

    drive.press("home:new:even-odd")
    drive.press("setup:start")
    app.controller.tray.emit(LinkDown("sim", "cable pulled", 0.0))
    drive.pump(1)
    assert app.play.banner.height == 0
    assert "Tray" not in app.play.status.text and "Stack" not in app.play.status.text


def test_a_throw_the_tray_cannot_read_fully_is_finished_by_touch(app):
    from hardware.events import ThrowSettled

    if "hell-for-leather" not in app.engines:
        pytest.skip("Hell for Leather has not landed")
    drive.press("home:new:hell-for-leather")
    drive.press("setup:start")
    runner = app.runner
    import random as _random

    rng = _random.Random(4)
    while not any(p.action == "land" for p in runner.awaiting()):
        bot_step(app, rng)
    before = len(runner.session.log)
    app.controller.tray.emit(ThrowSettled(0.0, zone=None, face=7))  # the face is known, the zone is not
    drive.pump(2)
    assert len(runner.session.log) == before  # nothing guessed
    assert app.play.current_prompt.action == "land"
    assert app.play.inputs["face"].value == 7
    assert "enter the rest by touch" in app.play.notice.text
    drive.press("zone='inside'")
    drive.press("prompt:confirm")
    assert len(runner.session.log) == before + 1
    assert runner.session.log[-1].face == 7


def test_a_new_prompt_sentence_is_rendered_only_at_the_width_it_is_shown_at(app, monkeypatch):
    # Rendering text is the slowest part of showing an action. A sentence the prompt
    # area has not shown before must be rendered at the width it is shown at, not
    # first wrapped into a new label's default 100 px and again once layout widens it.
    # (A sentence too long for one line may still render twice at that width: first
    # unwrapped, which is how theme.tight_text learns its width, then wrapped.)
    import functools
    import random as _random

    from kiosk.ui.theme import Text

    if "hell-for-leather" not in app.engines:
        pytest.skip("Hell for Leather has not landed")
    renders: list[tuple[str, float]] = []
    original = Text.texture_update

    @functools.wraps(original)  # Kivy's clock calls it back by name
    def counted(label, *args):
        if getattr(label, "tag", None) == "text" and label.text:
            renders.append((label.text, label.width))
        return original(label, *args)

    monkeypatch.setattr(Text, "texture_update", counted)
    drive.press("home:new:hell-for-leather")
    drive.press("setup:start")
    runner, rng, checked = app.runner, _random.Random(11), 0
    for _ in range(60):
        if runner.outcome is not None:
            break
        renders.clear()
        if not bot_step(app, rng):
            continue
        drive.pump(2)
        shown = next((w for w in app.play.prompt_box.children if getattr(w, "tag", None) == "text"), None)
        if shown is None or not any(text == shown.text for text, _ in renders):
            continue  # no prompt sentence, or one already rendered before
        checked += 1
        assert {width for text, width in renders if text == shown.text} == {shown.width}, shown.text
    assert checked >= 5


def test_a_wrapping_recent_line_does_not_move_the_play_area(app):
    # The strip of what just happened keeps two rows. When the newest line needs both,
    # it is shown whole and the older one steps aside; the panels and buttons above stay
    # put, so nothing jumps under a finger reaching for the next button.
    import random as _random

    if "hell-for-leather" not in app.engines:
        pytest.skip("Hell for Leather has not landed")
    drive.press("home:new:hell-for-leather")
    drive.press("setup:start")
    drive.pump(2)
    play, runner, rng = app.play, app.runner, _random.Random(11)
    body_height = play.prompt_scroll.height + play.footer.height  # the question and its pinned Confirm row
    wrapped = both = 0
    rows: dict[str, float] = {}  # each newest line's height, as it was shown
    for _ in range(300):
        if runner.outcome is not None or (wrapped and both):
            break
        if not bot_step(app, rng):
            continue
        drive.pump(2)
        lines = [readable(line) for line in runner.session.recap(None, last=2)]
        shown = list(reversed(play.recent.children))
        assert shown[-1].text == lines[-1]  # the newest line is always there
        assert shown[-1].texture_size[1] <= shown[-1].height <= play.recent.height  # and whole
        older_height = rows.get(lines[0]) if len(lines) == 2 else None
        rows[lines[-1]] = shown[-1].height
        if shown[-1].height > play.recent.two_rows:
            continue  # a newest line longer than two rows may grow the strip
        assert play.prompt_scroll.height + play.footer.height == body_height
        assert play.recent.height == play.recent.two_rows
        if shown[-1].height == play.recent.two_rows:
            wrapped += 1
            assert len(shown) == 1
        elif older_height is not None:  # both lines are shown exactly when they fit
            fits = older_height + shown[-1].height <= play.recent.two_rows
            both += fits
            assert [label.text for label in shown] == (lines if fits else lines[-1:])
    assert wrapped and both, (wrapped, both)


def test_kiosk_killed_mid_game_resumes_exactly_as_shown(app, tmp_path):
    """Kill the real kiosk (SIGKILL) mid-game; the next start resumes with the same screen."""
    import json
    import signal
    import subprocess
    import sys
    from pathlib import Path

    from kiosk.runner import Runner
    from kiosk.store import Store

    from .kill_kiosk import screen_text

    root = Path(__file__).resolve().parents[2]
    data = tmp_path / "kiosk-data"
    child = subprocess.Popen([sys.executable, "-m", "tests.kiosk.kill_kiosk", str(data), "even-odd", "3"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=root,
                             env={**os.environ, "PYTHONPATH": str(root)})
    shown = {}
    try:
        for line in child.stdout:
            if line.startswith("SHOWN"):
                _, n, text = line.split(" ", 2)
                shown[int(n)] = json.loads(text)
                if int(n) >= 9:
                    break
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
    assert shown, "the kiosk showed nothing before it was killed"
    last = max(shown)
    store = Store(data / "sessions.sqlite3", engines=app.store.engines)
    (info,) = store.unfinished()
    resumed = Runner.resume(store, info.id)
    assert len(resumed.session.log) >= last  # nothing that was shown is lost
    while len(resumed.session.log) > last:  # (an action stored but not yet drawn may follow)
        resumed.undo()
    app._attach(resumed)
    close_overlays(app)
    drive.pump(2)
    assert screen_text(app) == shown[last]


def test_five_count_after_a_shaky_throw(app):
    if "hell-for-leather" not in app.engines:
        pytest.skip("Hell for Leather has not landed")
    import random as _random

    drive.press("home:new:hell-for-leather")
    drive.press("setup:start")
    runner, rng = app.runner, _random.Random(8)
    while [p.action for p in runner.awaiting() if not p.optional] != ["count"]:
        if runner.outcome or bot_step(app, rng, skip=("risk",)) is None:
            pytest.skip("this seed never reached a count")
    drive.pump(2)
    drive.press("prompt:five-count")
    for _ in range(10):
        drive.pump(1)
    assert "Read the dice now" in drive.find("prompt:five-count").text


def test_operator_exports_the_session_and_clears_data(app):
    import json

    from kiosk.rules import Session

    drive.press("home:new:toy")
    drive.press("setup:start")
    app.runner.propose({"type": "lock", "player": "Ann", "number": 2})
    sid = app.runner.sid
    drive.press("bar:menu")
    drive.press("gamemenu:operator")
    pin_in(app)
    drive.press("op:export")
    log = app.exports / f"session-{sid}.jsonl"
    header, *actions = [json.loads(line) for line in log.read_text().splitlines()]
    replayed = Session(games.engine_for(header["game"]), header["setup"])
    for action in actions:
        replayed.apply(action)
    assert replayed.state == app.runner.session.state
    assert "locked a number" in (app.exports / f"session-{sid}-recap.txt").read_text()
    if drive.find_all("recap:close"):  # with the phone server up, the recap's QR code covers the menu
        drive.press("recap:close")
    drive.press("op:clear")
    drive.press("confirm:yes")
    assert app.store.sessions() == [] and app.sm.current == "home"
    assert not drive.find_all("home:resume")


def _small_buttons():
    from kivy.uix.button import Button

    return [(getattr(w, "tag", ""), w.text[:30], round(w.height)) for root in drive.roots() for w in drive.walk(root)
            if isinstance(w, Button) and w.get_root_window() is not None and w.height < 48]


@pytest.mark.parametrize("game", [g for g in games.modules() if g != "toy"])
def test_touch_targets_are_finger_sized(app, game):
    if game not in app.engines:
        pytest.skip(f"{game} engine has not landed yet")
    assert _small_buttons() == []  # home
    drive.press(f"home:new:{game}")
    drive.pump(3)
    assert _small_buttons() == []  # setup wizard
    drive.press("setup:start")
    drive.pump(3)
    assert _small_buttons() == []  # play screen
    app.toggle_sim()
    drive.pump(3)
    assert _small_buttons() == []  # sim panel
    app.toggle_sim()


def _play_until(app, runner, wanted, rng, skip=("risk",)):
    """Let the bot answer by touch-free proposals until a prompt named ``wanted`` is open."""
    for _ in range(2000):
        if any(p.action == wanted for p in runner.awaiting()):
            return
        if runner.outcome or bot_step(app, rng, skip=skip) is None:
            break
    pytest.skip(f"this seed never opened a {wanted!r} prompt")


def test_a_die_that_only_catches_the_stack_up_is_not_a_risk(app):
    import random as _random

    drive.press("home:new:hell-for-leather")
    drive.press("setup:start")
    runner, tray = app.runner, app.sim_tray
    _play_until(app, runner, "risk", _random.Random(3))
    heat = runner.session.view()["heat"]["dice"]
    assert 1 <= heat < tray.sim.geometry.max_heat_dice
    tray.build_to(heat - 1)
    tray.step_until_idle()
    drive.pump(2)
    assert "add 1 die" in app.play.panel.inner.heat.words.text

    before = len(runner.session.log)
    tray.add_die()  # the table catches up with the screen
    tray.step_until_idle()
    drive.pump(2)
    assert len(runner.session.log) == before
    assert "matches" in app.play.panel.inner.heat.words.text

    tray.add_die()  # one more on a matched stack: that is a Risk
    tray.step_until_idle()
    drive.pump(2)
    assert runner.session.log[-1].type == "risk"
    assert runner.session.view()["heat"]["dice"] == heat + 1
    assert "matches" in app.play.panel.inner.heat.words.text


def test_a_wager_round_turns_over_as_one_named_card_per_player(app):
    import random as _random

    drive.press("home:new:even-odd")
    drive.press("setup:start")
    runner = app.runner
    _play_until(app, runner, "wager", _random.Random(5), skip=())
    players = runner.players()
    for who in players:
        prompt = next(p for p in runner.awaiting() if p.player == who and p.action == "wager")
        points = next(f for f in prompt.fields if f.name == "points")
        runner.propose({"type": "wager", "player": who, "side": "odd", "points": max(points.min or 0, 1)})
    drive.pump(2)
    reveal = next(o for o in app.overlays if isinstance(o, overlays.Reveal))
    owners = [card.owner.text for card in reveal.cards]
    assert owners == players
    assert all(card.label.text == "1 on Odd" for card in reveal.cards)
    assert "has locked" not in " ".join(card.label.text for card in reveal.cards)


def test_a_round_that_makes_nothing_public_does_not_stop_the_table(app):
    drive.press("home:new:toy")
    drive.press("setup:start")
    for who, number in (("Ann", 3), ("Bo", 5)):  # the toy keeps its numbers hidden for good
        app.runner.propose({"type": "lock", "player": who, "number": number})
    drive.pump(2)
    assert not any(isinstance(o, overlays.Reveal) for o in app.overlays)
    assert drive.find_all("amount=1")  # straight on to the next move


def test_playing_leaves_no_callbacks_behind_on_the_scroll_areas(app):
    # A convention kiosk plays all day: every accepted action relays out the
    # scroll areas, and none of that may pile up bindings (Kivy 2.3's
    # ScrollView did, one or more per update, for good).
    play_game(app, "even-odd", seed=4)
    from kivy.uix.scrollview import ScrollView

    scrolls = [w for root in drive.roots() for w in drive.walk(root) if isinstance(w, ScrollView)]
    scrolls.append(app.play.prompt_scroll)
    for view in scrolls:
        assert len(view.get_property_observers("bar_color")) <= 1, view
        assert len(view.get_property_observers("bar_inactive_color")) <= 1, view


def frames_drawn(seconds: float) -> int:
    """How many times the window is redrawn while the kiosk runs for ``seconds`` with nothing new to show."""
    import time

    from kivy.core.window import Window

    flips = []
    Window.bind(on_flip=flips.append)
    try:
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            drive.pump(1, draw=True)
            time.sleep(0.01)
    finally:
        Window.unbind(on_flip=flips.append)
    return len(flips)


@pytest.mark.parametrize("game", ["even-odd", "hell-for-leather"])
def test_the_window_rests_once_an_action_is_shown(app, game):
    # A kiosk is idle most of the day. Once an accepted action is on screen,
    # nothing may keep redrawing the window: Kivy's scroll bars lit up on every
    # change and faded out over the next second, some 40 full redraws per action.
    import random

    from kiosk.rules import bot

    app.start_game(game, {"seed": 4})
    rng = random.Random(4)
    for _ in range(3):
        drive.pump(1)
        app.runner.propose(bot.fill([p for p in app.runner.awaiting() if not p.optional][0], rng))
    app.toast.opacity = 0  # a message left by an earlier test would go on its own timer: a real change
    drive.pump(2, draw=True)  # the action's own frame
    assert frames_drawn(1.5) == 0  # the fade began 0.5 s after a change


def test_a_text_box_left_within_a_frame_stops_its_cursor(app):
    # The last key of a name and a tap elsewhere can land in the same frame:
    # Kivy then started the cursor blinking after focus had gone, for good.
    from kivy.core.window import Window

    from kiosk.ui.fields import TextField

    field = TextField("name", "Name", pos=(100, 100), size_hint=(None, None), size=(300, 90))
    Window.add_widget(field)
    try:
        field.box.focus = True
        drive.pump(1)
        field.box.insert_text("Ann")
        field.box.focus = False
        drive.pump(2, draw=True)
        assert frames_drawn(1.2) == 0  # a blink redraws every 0.5 s
    finally:
        Window.remove_widget(field)
        drive.pump(1)


def test_a_scroll_area_draws_nothing_outside_its_box(app, tmp_path):
    # Scroll areas clip with a scissor box (not Kivy's stencil): a tall, bright
    # block scrolled halfway must show inside the area and nowhere above or below.
    from kivy.core.image import Image as CoreImage
    from kivy.core.window import Window
    from kivy.graphics import Color, Rectangle
    from kivy.uix.widget import Widget

    from kiosk.ui.theme import Scroll

    view = Scroll(size_hint=(None, None), size=(200, 100), pos=(300, 200))
    block = Widget(size_hint_y=None, height=400)
    with block.canvas:
        Color(1, 0, 0, 1)
        rect = Rectangle(size=(200, 400))
    block.bind(pos=lambda w, p: setattr(rect, "pos", p))
    view.add_widget(block)
    Window.add_widget(view)
    try:
        view.scroll_y = 0.5
        shot = CoreImage(drive.screenshot(str(tmp_path / "scroll.png")), keep_data=True)
    finally:
        Window.remove_widget(view)
        drive.pump(1)

    def red(x, y):  # window coordinates, from the bottom left
        r, g, b, _a = shot.read_pixel(x, Window.height - 1 - y)
        return r > 0.8 and g < 0.25 and b < 0.25

    assert red(400, 250), "the block is not drawn inside the scroll area"
    for x, y in ((400, 305), (400, 195), (295, 250), (505, 250)):
        assert not red(x, y), f"the block shows outside the scroll area at {(x, y)}"


def test_pads_that_fail_to_open_are_named_and_can_be_opened_again_mid_game(app, monkeypatch):
    # Pads unplugged at start-up: the home screen says so and secrets go on the
    # screen. Once they are plugged in, the operator opens the hardware again
    # and the game on screen carries on with the pads, losing nothing.
    import random as _random

    from hardware import factory
    from hardware.config import BackendUnavailable

    def broken(config):
        raise BackendUnavailable('pads.backend = "gpio" needs gpiozero (no module named gpiozero)')

    monkeypatch.setattr(factory, "open_pads", broken)
    app.reopen_hardware()
    drive.pump(1)
    try:
        notice = drive.find_all("home:problems")
        assert notice and "Pads not working" in notice[0].text and "gpiozero" in notice[0].text
        assert app.controller.pads is None and app.controller.tray is not None
        # a secret round now asks for answers on the screen, not on pads that are not there
        drive.press("home:new:even-odd")
        drive.press("setup:start")
        runner = app.runner
        _play_until(app, runner, "wager", _random.Random(5), skip=())
        drive.pump(2)
        board = " ".join(w.text for w in drive.find_all("lock:", prefix=True))
        assert "the host hands you the screen" in board and "On your pad" not in board
        played = len(runner.session.log)
    finally:
        monkeypatch.undo()
    # the pads are plugged in now: the operator opens the hardware again
    open_operator(app)
    drive.press("op:reopen")
    drive.pump(1)
    assert app.controller.pads is not None and not app.hardware_problems
    assert "Pads not working" not in app.operator.info.text
    drive.press("op:back")
    drive.pump(1)
    assert app.sm.current == "play"
    assert len(drive.find_all("sim:toggle")) == 1  # one SIM button, however often the hardware is opened
    assert app.runner is runner and len(runner.session.log) == played
    locked_by = runner.players()[0]
    app.sim_pads.tap(1, "white")  # the pads work again: one point toward Even, then lock it in
    app.sim_pads.tap(1, "gray")
    drive.pump(2)
    assert len(runner.session.log) == played + 1 and runner.session.log[-1].player == locked_by
    assert not drive.find_all("home:problems")


def test_panel_lines_that_move_or_come_back_keep_their_rendered_label(app):
    # Rendering text is the slowest part of showing an action, so a status line
    # that only moved down (a line appeared above it) or came back must not be
    # rendered again, and a line that changed in place re-renders where it is.
    from kivy.uix.boxlayout import BoxLayout

    from kiosk.ui.theme import Text, show_texts

    box = BoxLayout(orientation="vertical")

    def show(texts):
        show_texts(box, texts, make=lambda: Text("", size=15), keep=8)
        return list(reversed(box.children))

    first = show(["Scene: 1", "Pools: Ann 4", "Papers: 0"])
    moved = show(["Scene: 1", "Wagers locked: Bo", "Pools: Ann 4", "Papers: 0"])
    assert [moved[0], moved[2], moved[3]] == first
    back = show(["Scene: 1", "Pools: Ann 4", "Papers: 0"])
    assert back == first
    again = show(["Scene: 1", "Wagers locked: Bo", "Pools: Ann 4", "Papers: 0"])
    assert again[1] is moved[1]
    in_place = show(["Scene: 1", "Wagers locked: Bo", "Pools: Ann 3", "Papers: 0"])
    assert in_place == again and in_place[2].text == "Pools: Ann 3"


def test_panel_lines_always_show_exactly_the_lines_asked_for(app):
    from hypothesis import given, settings, strategies as st
    from kivy.uix.boxlayout import BoxLayout

    from kiosk.ui.theme import Text, show_texts

    box = BoxLayout(orientation="vertical")
    made: list = []

    def make():
        made.append(Text("", size=15))
        return made[-1]

    lines = st.lists(st.sampled_from(["Heat: 3", "Heat: 4", "Score: VP 1", "Score: VP 2", "Cue: go", "Team A"]),
                     max_size=7)

    @settings(max_examples=150, deadline=None)
    @given(st.lists(lines, min_size=1, max_size=8))
    def check(steps):
        for texts in steps:
            show_texts(box, texts, make=make, keep=5)
            shown = list(reversed(box.children))
            assert [w.text for w in shown] == texts  # the same text twice (two equal scores) shows twice
            assert len({id(w) for w in shown}) == len(shown)
            count = len(made)
            show_texts(box, texts, make=make, keep=5)  # nothing changed: nothing is made or moved
            assert len(made) == count and list(reversed(box.children)) == shown

    check()


def test_kv_bindings_set_their_values_without_formatting_debug_lines(app, monkeypatch):
    # A property a kv rule watches (a label's place, its texture) runs Kivy's
    # kivy.lang.builder.call_fn. Kivy 2.3's formats two trace lines from reprs of the widget,
    # the rule and the value for a logger that drops them, some fifty times in a landing's
    # frame; the kiosk's (theme.quiet_kv_bindings) only sets the value.
    import kivy.lang.builder as builder
    from kivy.base import EventLoop
    from kivy.graphics import Rectangle

    from kiosk.ui import theme

    formatted: list[tuple] = []
    monkeypatch.setattr(builder, "trace", lambda *args, **kw: formatted.append(args))
    label = theme.Text("Inside, 7", size=20)
    app.root.add_widget(label)
    try:
        EventLoop.idle()
        formatted.clear()
        label.pos = (123, 45)
        label.text = "Outside, 3"
        EventLoop.idle()
        drawn = [i for i in label.canvas.children if isinstance(i, Rectangle) and i.texture is label.texture]
        assert drawn and tuple(drawn[0].pos)[1] >= 45 and tuple(drawn[0].size) == tuple(label.texture_size)
        assert formatted == [], f"{len(formatted)} debug lines formatted for one label's move and new text"
    finally:
        app.root.remove_widget(label)


def test_text_on_screen_is_kept_once_as_its_texture_not_twice(app):
    # Kivy's SDL2 text provider kept each label's rendered pixels in an SDL surface after
    # copying them into the GL texture: every text on screen held twice, 7-8.5 MB over a day
    # (issue 33). theme.drop_text_surfaces lets the surface go; the text must still show.
    from kivy.base import EventLoop

    from kiosk.ui import art, theme

    label = theme.Text("Marlowe throws: Inside, 7", size=28)
    app.root.add_widget(label)
    try:
        EventLoop.idle()
        EventLoop.idle()
        core = label._label
        assert core.texture is not None and core.texture.width > 50
        assert getattr(core, "_surface", None) is None, "the label still holds an SDL surface of its text"
        assert any(bytes(core.texture.pixels)[3::4]), "the text's texture is empty"
        drawn = art._texture("Curse on Marlowe", 24, True)
        drawn.bind()  # drawn text renders when its texture is first used
        assert any(bytes(drawn.pixels)[3::4])
    finally:
        app.root.remove_widget(label)


def test_remembered_word_widths_wrap_text_exactly_as_measuring_afresh(app, monkeypatch):
    # The kiosk remembers each word's width per font (theme.remember_word_widths)
    # instead of asking SDL_ttf on every render. A sentence must break into the
    # same lines, at the same size, as when every word is measured afresh.
    from hypothesis import given, settings, strategies as st
    from kivy.core.text import LabelBase
    from kivy.core.text import Label as CoreLabel
    from kivy.core.text.markup import MarkupLabel

    remembered = type(CoreLabel(text="x")).get_cached_extents
    assert remembered is not LabelBase.get_cached_extents  # the app installed it

    def laid_out(kind, text, size, width, bold):
        label = kind(text=text, font_size=size, bold=bold, text_size=(width, None))
        label.refresh()
        lines = [(line.w, line.h, [word.text for word in line.words]) for line in label._cached_lines]
        return label.texture.size, lines

    words = st.sampled_from(["Heat", "4", "(Busy),", "Jason", "throws", "at", "Drive", "1:", "d10", "against",
                             "Eoin's", "risk", "die", "lands", "touching", "showing", "9:", "Curse.", "|",
                             "[b]Wagers[/b]", "locked:", "Ann,", "Bo", "an-extremely-long-unbroken-word"])

    @settings(max_examples=60, deadline=None)
    @given(st.lists(words, min_size=1, max_size=30), st.sampled_from([14, 15, 21]), st.integers(60, 800),
           st.booleans(), st.sampled_from([CoreLabel, MarkupLabel]))
    def check(sentence, size, width, bold, kind):
        text = " ".join(sentence)
        with_memory = laid_out(kind, text, size, width, bold)
        monkeypatch.setattr(type(CoreLabel(text="x")), "get_cached_extents", LabelBase.get_cached_extents)
        afresh = laid_out(kind, text, size, width, bold)
        monkeypatch.setattr(type(CoreLabel(text="x")), "get_cached_extents", remembered)
        assert with_memory == afresh

    check()


def test_text_stays_inside_its_label_and_short_lines_keep_to_their_side(app):
    # Labels render their text only as wide as it is (theme.tight_text): a short
    # line must still sit at the side it is aligned to, and text of any length
    # must stay within the label, wrapping onto more lines when it must.
    from hypothesis import given, settings, strategies as st
    from kivy.graphics import Rectangle
    from kivy.uix.boxlayout import BoxLayout

    from kiosk.ui.theme import Big, Text

    box = BoxLayout(orientation="vertical", size=(300, 400), pos=(10, 20))
    label, centred, button = Text("", size=15), Text("", size=15, halign="center"), Big("", size=15)
    for w in (label, centred, button):
        box.add_widget(w)
    app.root.add_widget(box)

    def drawn(w):
        return next(i for i in w.canvas.children if isinstance(i, Rectangle) and i.texture is w.texture)

    try:
        @settings(max_examples=40, deadline=None)
        @given(st.lists(st.sampled_from(["Heat", "4", "(Busy),", "Jason", "narrates", "[b]Team[/b]", "B's",
                                         "stack", "Goals:", "Hijack", "a", "jet;", "Jinx", "Ash"]),
                        min_size=1, max_size=40))
        def check(words):
            text = " ".join(words)
            for w in (label, centred, button):
                w.text = text
            drive.pump(3)
            for w in (label, centred):
                assert w.texture_size[0] <= w.width + 1, text
            assert button.texture_size[0] <= button.width - 8 + 1, text
            assert int(drawn(label).pos[0]) == int(label.x)  # left-aligned text starts at the left edge
            middle = drawn(centred).pos[0] + drawn(centred).size[0] / 2
            assert abs(middle - centred.center_x) <= 1

        check()
        label.text = "Heat 4"
        drive.pump(3)
        assert label.texture_size[0] < label.width / 2  # a short line is not padded out to the full width
    finally:
        app.root.remove_widget(box)


def test_a_label_laid_out_narrow_first_unwraps_when_it_is_given_room(app):
    # Layout often gives a new label a few pixels first and its real width a
    # moment later. Text that fits the final width must end up on one line,
    # rendered only as wide as it is (a texture as wide as the label is drawn,
    # transparent, on every frame); text that does not fit still wraps inside.
    from hypothesis import given, settings, strategies as st
    from kivy.uix.widget import Widget

    from kiosk.ui.theme import Big, Text

    holder = Widget()
    app.root.add_widget(holder)
    label, button = Text("", size=15), Big("", size=15)
    for w in (label, button):
        holder.add_widget(w)  # a plain Widget: the test sets every width itself
    try:
        @settings(max_examples=40, deadline=None)
        @given(st.sampled_from(["Zone", "Confirm", "Also possible now:", "Heat 4 (Busy), Team B's stack",
                                "Roger calls a conflict on Jason.\nJason throws at Drive 1.",
                                "Daniel declares a skill: Velvet Ash. Throw at Drive 1 with 2 d10."]),
               st.lists(st.integers(10, 700), min_size=1, max_size=4))
        def check(text, widths):
            alone = Text(text, size=15, fit=False, width=10_000)
            drive.pump(2)
            unwrapped = alone.texture_size[0]
            for w in (label, button):
                w.text = text
            for width in widths:
                for w in (label, button):
                    w.width = width
                drive.pump(2)
            drive.pump(2)
            room = widths[-1]
            for w, inset in ((label, 0), (button, 8)):
                if unwrapped <= room - inset:
                    assert tuple(w.texture_size) == tuple(alone.texture_size), (text, widths)
                else:
                    assert w.texture_size[0] <= room - inset + 1 and w.texture_size[1] > alone.texture_size[1]

        check()
    finally:
        app.root.remove_widget(holder)


def test_the_operator_changes_the_attract_time_and_the_pin_on_screen_and_they_are_kept(app):
    def open_menu(pin):
        app.ask_operator()
        drive.type_digits("pin", pin)
        return app.sm.current == "operator"

    open_operator(app)  # the shipped PIN is changed on first use
    drive.press("op:back")
    old_pin = PIN["now"]
    old_idle = app.config_hw.kiosk.idle_attract_s
    assert open_menu(old_pin)
    drive.press("op:settings")
    drive.press("set:attract:+")
    later = app.config_hw.kiosk.idle_attract_s
    assert later > old_idle and "Attract mode after" in app.operator.info.text
    drive.press("set:attract:-")
    drive.press("set:attract:-")
    assert app.config_hw.kiosk.idle_attract_s < old_idle

    drive.press("set:pin")
    for key in ["1", "3", "OK"]:  # too short: refused
        drive.press(f"newpin:{key}")
    assert "At least 4 digits" in app.overlays[-1].label.text
    for key in ["1", "3", "5", "7", "OK", "1", "3", "5", "8", "OK"]:  # two different PINs: refused
        drive.press(f"newpin:{key}")
    assert "did not match" in app.overlays[-1].label.text
    assert "1357" not in app.overlays[-1].label.text  # stars only, never the digits
    for key in ["1", "3", "5", "9", "Delete", "7", "OK", "1", "3", "5", "7", "OK"]:  # a slip, taken back
        drive.press(f"newpin:{key}")
    PIN["now"] = "1357"
    drive.press("op:back")
    assert not open_menu(old_pin)  # the old PIN opens nothing now
    close_overlays(app)
    for o in list(app.overlays):
        o.dismiss()
    assert open_menu(["1", "4", "Delete", "3", "5", "7"])  # Delete takes back the last digit
    drive.press("op:back")

    # kept in the session store (as a salted hash only), so the next start reads it back;
    # "clear all data" keeps it
    kept_idle = app.config_hw.kiosk.idle_attract_s
    app.clear_data()
    app._config_hw = None
    assert open_menu("1357") and app.config_hw.kiosk.idle_attract_s == kept_idle
    drive.press("op:back")
    assert "1357" not in repr(app.store.settings())
    assert app.change_setting("operator_pin", "12ab").startswith("Not changed")
    assert app.change_setting("operator_pin", "\u0661\u0663\u0665\u0667").startswith("Not changed")  # not 0-9
    assert open_menu("1357")
    # an organiser who edits table-noir.toml afterwards can go back to the file's settings
    drive.press("op:settings")
    assert "changed here" in app.operator.info.text
    drive.press("set:forget")
    PIN["now"] = "2468"
    assert app.config_hw.kiosk.idle_attract_s == old_idle
    assert "from table-noir.toml" in app.operator.info.text
    drive.press("op:back")


def test_set_children_always_leaves_exactly_the_widgets_asked_for_in_order(app):
    # The prompt area is rebuilt by replacing only what changed (theme.set_children);
    # whatever came before, it must end up with exactly the wanted widgets, in order.
    from hypothesis import given, settings, strategies as st
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.widget import Widget

    from kiosk.ui.theme import set_children

    box, elsewhere = BoxLayout(orientation="vertical"), BoxLayout()
    pool = [Widget() for _ in range(6)]

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.permutations(range(6)).flatmap(lambda order: st.integers(0, 6).map(lambda n: order[:n])),
                    min_size=1, max_size=6), st.booleans())
    def check(steps, steal):
        for order in steps:
            if steal and pool[0].parent is None:
                elsewhere.add_widget(pool[0])  # a reused widget last shown somewhere else
            wanted = [pool[i] for i in order]
            set_children(box, wanted)
            assert list(reversed(box.children)) == wanted
        for w in pool:
            if w.parent is not None and w.parent is not box:
                w.parent.remove_widget(w)

    check()


def test_the_pin_pad_never_tells_how_long_the_pin_is(app):
    app.ask_operator()
    pad = app.overlays[-1]
    for key in "9999":  # as many digits as the PIN has, and more: nothing is said until OK
        drive.press(f"pin:{key}")
        assert "Wrong" not in pad.label.text and pad in app.overlays
    drive.press("pin:9")
    assert "Wrong" not in pad.label.text
    drive.press("pin:OK")
    assert "Wrong PIN" in pad.label.text and app.sm.current != "operator"
    pin_in(app)  # the right PIN; the count of wrong PINs starts again
    assert app.sm.current == "operator"
    drive.press("op:back")


def test_wrong_pins_make_even_the_right_one_wait(app):
    app.ask_operator()
    for _ in range(3):
        drive.type_digits("pin", "0000" if PIN["now"] != "0000" else "1111")
    drive.type_digits("pin", PIN["now"])
    assert app.sm.current != "operator" and "wait" in app.overlays[-1].label.text
    wrong, until = app.store.settings()["pin_lockout"]
    assert wrong == 3 and until > 0
    app.store.save_setting("pin_lockout", [wrong, 0.0])  # the wait is over
    pin_in(app)
    assert app.sm.current == "operator"
    drive.press("op:back")


def test_the_shipped_pin_opens_nothing_until_the_operator_chooses_their_own(app):
    from kiosk.pin import DEFAULT_PIN, check

    app.forget_settings()  # back to table-noir.toml, which has the shipped PIN
    PIN["now"] = DEFAULT_PIN
    assert check(DEFAULT_PIN, app.pin_hash)
    app.ask_operator()
    drive.type_digits("pin", DEFAULT_PIN)
    assert app.sm.current != "operator" and drive.find_all("newpin:OK")
    drive.press("newpin:Cancel")
    assert app.sm.current != "operator"
    app.ask_operator()
    drive.type_digits("pin", DEFAULT_PIN)
    drive.type_digits("newpin", DEFAULT_PIN)
    drive.type_digits("newpin", DEFAULT_PIN)  # the shipped one again: refused
    assert app.sm.current != "operator"
    app.ask_operator()
    drive.type_digits("pin", DEFAULT_PIN)
    drive.type_digits("newpin", "5791")
    drive.type_digits("newpin", "5791")
    PIN["now"] = "5791"
    assert app.sm.current == "operator"
    assert not check(DEFAULT_PIN, app.pin_hash)
    drive.press("op:back")


def _screen_text(app) -> str:
    from kivy.core.window import Window

    return re.sub(r"\[[^\]]*\]", "", " ".join(w.text for root in Window.children for w in drive.walk(root)
                                             if hasattr(w, "text") and w.get_root_window() is not None))


def test_a_private_sheet_opens_only_from_its_own_players_pad(app):
    drive.press("home:new:toy")
    drive.press("setup:start")
    app.runner.propose({"type": "lock", "player": "Bo", "number": 8})
    drive.pump(1)
    drive.press("bar:secrets")
    drive.press("whose:Bo")
    assert not drive.find_all("private:show")  # no "I am Bo" on trust any more
    hold_gray(app, 1)  # Ann holds Gray on her own pad: it is not Bo's sheet to open
    assert not drive.find_all("private:show")
    hold_gray(app, 2, seconds=0.2)  # Bo, too briefly
    assert not drive.find_all("private:show") and "longer" in app.overlays[-1].hint.text
    hold_gray(app, 2)
    drive.press("private:show")
    assert re.search(r"\b8\b", _screen_text(app))
    assert "Bo's sheet was opened." in app.play.notice.text  # the table is told whose
    drive.press("private:hide")
    assert not re.search(r"\b8\b", _screen_text(app))


def test_the_lock_board_answers_for_a_player_with_a_pad_only_from_that_pad(app):
    drive.press("home:new:toy")
    drive.press("setup:start")
    drive.press("secret:Ann")  # anyone can tap Ann's name...
    assert not drive.find_all("private:lock") and not drive.find_all("private:show")
    app.sim_pads.tap(2, "gray")  # ...and Bo's pad presses still go to the game, not to this
    drive.press("hold:cancel")
    assert app.runner.session.log == [] and not app.overlays
    assert app.controller._captured == {}  # Ann's pad is given back to the game


def test_while_a_pad_opens_its_sheet_its_presses_answer_nothing(app):
    import random as _random

    drive.press("home:new:even-odd")
    drive.press("setup:start")
    runner = app.runner
    _play_until(app, runner, "wager", _random.Random(3), skip=())
    wagering = [p.player for p in runner.awaiting() if p.action == "wager"]
    seat = runner.players().index(wagering[0]) + 1
    before = len(runner.session.log)
    drive.press(f"secret:{wagering[0]}")
    for colour in ["white", "white", "gray"]:  # would be a 2-point wager on Even, locked
        app.sim_pads.tap(seat, colour)
        drive.pump(1)
    assert len(runner.session.log) == before
    drive.press("hold:cancel")


def test_a_player_without_a_pad_is_handed_the_screen_by_the_host_and_the_table_is_told(app, monkeypatch):
    drive.press("home:new:toy")
    drive.press("setup:start")
    monkeypatch.setattr(app.controller.pads, "players", 1)  # only Ann has a pad
    drive.press("secret:Bo")
    assert drive.find_all("pin:OK") and not drive.find_all("private:show")
    drive.type_digits("pin", "0000")  # a guess opens nothing
    assert not drive.find_all("private:show")
    pin_in(app)
    drive.press("private:show")
    assert "handed over by the host" in app.play.notice.text and "Bo" in app.play.notice.text
    drive.press("number=3")
    drive.press("private:lock")
    assert [a.player for a in app.runner.session.log] == ["Bo"]


def test_a_refused_secret_press_is_not_described_on_the_shared_screen(app):
    import random as _random

    drive.press("home:new:even-odd")
    drive.press("setup:start")
    runner = app.runner
    _play_until(app, runner, "wager", _random.Random(11), skip=())
    (lead,) = [p.player for p in runner.awaiting() if p.action == "wager" and p.fields[1].min >= 1][:1] or [None]
    assert lead is not None, [p for p in runner.awaiting()]
    app.sim_pads.tap(runner.players().index(lead) + 1, "gray")  # lock a wager of 0: not allowed for the lead
    drive.pump(2)
    shown = app.play.error.text
    assert shown == f"{lead}: not accepted, try again."
    assert "Pad" not in shown and "point" not in shown and "wager" not in shown
    drive.press(f"secret:{lead}")
    hold_gray(app, runner.players().index(lead) + 1)
    drive.press("private:show")
    assert "not taken" in _screen_text(app) and "at least" in _screen_text(app)  # the reason, for the lead alone
    drive.press("private:hide")


def _toy_at_adding(app):
    drive.press("home:new:toy")
    drive.press("setup:start")
    app.runner.propose({"type": "lock", "player": "Ann", "number": 2})
    app.runner.propose({"type": "lock", "player": "Bo", "number": 3})
    close_overlays(app)
    drive.pump(2)
    return drive.find("amount=1")


def test_a_double_tap_does_not_play_the_next_players_move(app, monkeypatch):
    from kiosk.ui import theme

    button = _toy_at_adding(app)
    x, y = button.to_window(*button.center)
    monkeypatch.setitem(theme.TOUCH_GUARD, "s", 0.4)
    theme.TOUCH_GUARD["changed_at"] -= 1.0  # a finger that has waited for the screen to settle
    drive.tap_at(x, y)  # Ann adds 1; the screen now asks Bo, with his "1" in the same spot
    drive.pump(1)
    assert [a.player for a in app.runner.session.log[2:]] == ["Ann"]
    drive.tap_at(x, y)  # the second tap of a double tap, a frame later
    drive.pump(1)
    assert [a.player for a in app.runner.session.log[2:]] == ["Ann"]


def test_a_touch_that_began_before_the_screen_changed_presses_nothing_on_the_new_one(app):
    from kivy.tests.common import UnitTestTouch

    from kiosk.ui import theme

    button = _toy_at_adding(app)
    theme.TOUCH_GUARD["changed_at"] -= 1.0  # the screen has been still a while
    touch = UnitTestTouch(*button.to_window(*button.center))
    touch.touch_down()  # a finger comes down on Ann's "1"...
    assert touch.grab_list, "the touch did not reach the button"
    app.runner.propose({"type": "add", "player": "Ann", "amount": 2})  # ...as her move arrives another way
    drive.pump(1)
    touch.touch_up()
    drive.pump(1)
    assert [(a.player, a.amount) for a in app.runner.session.log[2:]] == [("Ann", 2)]


def test_home_and_the_settings_say_which_wifi_phones_join(app, monkeypatch):
    phones = app.config_hw.phones.model_copy(update={"network_name": "TableNoir", "network_password": "noir-1234"})
    monkeypatch.setattr(app, "_config_hw", app.config_hw.model_copy(update={"phones": phones}))
    app.home.rebuild()
    shown = drive.find("home:wifi").text
    assert "TableNoir" in shown and "noir-1234" in shown
    open_operator(app)
    drive.press("op:settings")
    assert "TableNoir" in app.operator.info.text
    drive.press("op:back")
    monkeypatch.setattr(app, "_config_hw", app.config_hw.model_copy(update={"phones": phones.model_copy(
        update={"network_name": ""})}))
    app.home.rebuild()
    assert not drive.find_all("home:wifi")
