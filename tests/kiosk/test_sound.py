"""Sound cues (kiosk.sound) and the five-count (kiosk.ui.countdown).

The cues are checked as sound (short, audible, not clipped, no click at either
end, each unlike the others), the settings as config (a bad value is refused
with its field named), the player's silence as behaviour (mute, volume 0 and
quiet hours, on an injected clock and player), and the listener as the table
hears it: the right cue for each thing that happens, the same cue whatever a
secret was. The kiosk tests play real games through the real widgets with a
recording player in place of the speaker.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap
import wave
from datetime import datetime
from types import SimpleNamespace

import pytest

from hardware.config import ConfigError, KioskConfig, parse_config
from kiosk import sound
from kiosk.runner import Change, Runner

FULL = 32767


# -- the cues as sound -------------------------------------------------------------------------

@pytest.mark.parametrize("cue", sound.CUES)
def test_each_cue_is_short_audible_and_not_clipped(cue):
    samples = sound.render(cue)
    seconds = len(samples) / sound.RATE
    peak = max(abs(s) for s in samples)
    rms = math.sqrt(sum(s * s for s in samples) / len(samples))
    assert 0.05 < seconds < 0.8, f"{cue} lasts {seconds:.2f} s"
    assert peak < 0.95 * FULL, f"{cue} reaches {peak / FULL:.2f} of full scale"
    assert peak > 0.5 * FULL and rms > 0.04 * FULL, f"{cue} is nearly silent (rms {rms / FULL:.3f})"
    # no click: it starts from silence and fades out to it
    assert abs(samples[0]) < 0.01 * FULL and abs(samples[-1]) < 0.01 * FULL
    rise = int(0.001 * sound.RATE)
    assert max(abs(s) for s in samples[:rise]) < 0.5 * peak, f"{cue} starts with a click"


def _signature(samples, rate=sound.RATE) -> list[float]:
    """Energy in twelve bands from 80 Hz to 5 kHz (Goertzel) and in four time quarters: a fingerprint."""
    x = [s / FULL for s in samples]
    bands = []
    for k in range(12):
        freq = 80 * (5000 / 80) ** (k / 11)
        coeff = 2 * math.cos(2 * math.pi * freq / rate)
        a = b = 0.0
        for value in x:
            a, b = value + coeff * a - b, a
        bands.append(math.sqrt(max(0.0, a * a + b * b - coeff * a * b)) / len(x))
    quarter = max(1, len(x) // 4)
    times = [math.sqrt(sum(v * v for v in x[i * quarter:(i + 1) * quarter]) / quarter) for i in range(4)]
    total_b, total_t = sum(bands) or 1, sum(times) or 1
    return [v / total_b for v in bands] + [v / total_t for v in times] + [len(x) / rate]


def test_cues_are_distinct_from_each_other():
    prints = {cue: _signature(sound.render(cue)) for cue in sound.CUES}
    for i, a in enumerate(sound.CUES):
        for b in sound.CUES[i + 1:]:
            pa, pb = prints[a], prints[b]
            distance = math.sqrt(sum((u - v) ** 2 for u, v in zip(pa, pb)))
            assert distance > 0.3, f"{a} and {b} sound alike (fingerprint distance {distance:.2f})"


def test_cue_files_are_valid_wavs_made_once(tmp_path):
    paths = sound.write_cues(tmp_path)
    assert sorted(paths) == sorted(sound.CUES)
    for cue, path in paths.items():
        with wave.open(str(path)) as wav:
            assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, sound.RATE)
            assert wav.getnframes() == len(sound.render(cue))
    stamps = {cue: path.stat().st_mtime_ns for cue, path in paths.items()}
    paths["tick"].write_bytes(b"")  # a file cut short (a power cut while it was written) is made again
    again = sound.write_cues(tmp_path)
    assert {c: p.stat().st_mtime_ns for c, p in again.items() if c != "tick"} == \
        {c: s for c, s in stamps.items() if c != "tick"}
    assert again["tick"].stat().st_size > 44


# -- the settings --------------------------------------------------------------------------------

def test_sound_settings_default_to_on_at_a_moderate_volume_with_no_quiet_hours():
    kiosk = KioskConfig()
    assert (kiosk.volume, kiosk.muted, kiosk.quiet_hours) == (70, False, "off")


@pytest.mark.parametrize("value, field, says", [
    ({"volume": 150}, "kiosk.volume", "must be from 0 to 100 (got 150)"),
    ({"volume": -1}, "kiosk.volume", "must be from 0 to 100"),
    ({"quiet_hours": "10pm-8am"}, "kiosk.quiet_hours", '"FROM-UNTIL"'),
    ({"quiet_hours": "24-8"}, "kiosk.quiet_hours", "(got '24-8')"),
    ({"quiet_hours": "22-22"}, "kiosk.quiet_hours", "starts and ends at the same hour"),
    ({"muted": "sometimes"}, "kiosk.muted", "boolean"),
])
def test_a_bad_sound_setting_is_refused_naming_the_field(value, field, says):
    with pytest.raises(ConfigError) as refused:
        parse_config({"kiosk": value})
    message = str(refused.value)
    assert field in message and says in message
    assert message.count("\n") == 1  # one problem, one line


@pytest.mark.parametrize("span, hour, quiet", [
    ("off", 3, False), ("22-8", 21, False), ("22-8", 22, True), ("22-8", 0, True), ("22-8", 7, True),
    ("22-8", 8, False), ("9-17", 12, True), ("9-17", 17, False), ("9-17", 8, False), ("0-6", 0, True),
])
def test_quiet_hours_run_from_the_first_hour_up_to_the_second(span, hour, quiet):
    assert sound.is_quiet(span, hour) is quiet


class Recorder:
    """A player that records instead of sounding: (cue, volume) per cue started."""

    def __init__(self, on_play=None) -> None:
        self.played: list[tuple[str, float]] = []
        self.on_play = on_play

    def prepare(self) -> None:
        """Nothing to make."""

    def play(self, cue: str, volume: float) -> None:
        self.played.append((cue, volume))
        if self.on_play is not None:
            self.on_play(cue)

    @property
    def cues(self) -> list[str]:
        return [cue for cue, _ in self.played]


def _sounds(at_hour: int = 12, **settings) -> tuple[sound.Sounds, Recorder]:
    player = Recorder()
    config = KioskConfig(**settings)
    return sound.Sounds(lambda: config, player, now=lambda: datetime(2026, 11, 24, at_hour, 30)), player


def test_cues_play_at_the_set_volume():
    sounds, player = _sounds(volume=40)
    assert sounds.play("die") is True
    assert player.played == [("die", 0.4)]


@pytest.mark.parametrize("settings, hour, why", [
    ({"muted": True}, 12, "muted"),
    ({"volume": 0}, 12, "volume 0"),
    ({"quiet_hours": "22-8"}, 23, "quiet hours"),
    ({"quiet_hours": "22-8"}, 6, "quiet hours"),
])
def test_mute_volume_zero_and_quiet_hours_silence_every_cue(settings, hour, why):
    sounds, player = _sounds(at_hour=hour, **settings)
    assert sounds.silenced() == why
    for cue in sound.CUES:
        assert sounds.play(cue) is False
    assert player.played == []


def test_quiet_hours_end_on_time():
    sounds, player = _sounds(at_hour=8, quiet_hours="22-8")
    assert sounds.play("tick") and player.cues == ["tick"]


def test_an_unknown_cue_is_refused_by_name():
    sounds, _ = _sounds()
    with pytest.raises(ValueError, match="no sound cue named 'boom'"):
        sounds.play("boom")


# -- which cue for what ---------------------------------------------------------------------------

def _toy_runner(store) -> Runner:
    from kiosk import games

    return Runner.new(store, games.engine_for("toy"), {"players": ["Ann", "Bo"]})


def _listening(runner, clock=lambda: 0.0):
    sounds, player = _sounds()
    listener = sound.CueListener(sounds, clock=clock)
    listener.watch(runner)
    listener.watch(runner)  # the same game put on screen twice is heard once
    return listener, player


def test_lock_reveal_and_game_over_are_heard_once_each(store):
    runner = _toy_runner(store)
    _, player = _listening(runner)
    runner.propose({"type": "lock", "player": "Ann", "number": 4})
    assert player.cues == ["lock"]
    runner.propose({"type": "lock", "player": "Bo", "number": 2})
    assert player.cues == ["lock", "reveal"]  # the last lock closes the round: it turns over
    runner.propose({"type": "add", "player": "Ann", "amount": 3})
    assert player.cues == ["lock", "reveal"]  # an ordinary move is silent
    runner.undo()
    assert player.cues == ["lock", "reveal"]  # so is an undo
    for who, amount in [("Ann", 3), ("Bo", 3), ("Ann", 3), ("Bo", 1)]:
        runner.propose({"type": "add", "player": who, "amount": amount})
    assert runner.outcome is not None
    assert player.cues == ["lock", "reveal", "game_over"]


def test_a_game_heard_is_freed_as_soon_as_it_is_let_go(store):
    """The cue listener hears a game without keeping it: a finished game (its whole log) went
    only when Python's cycle collector next looked at old objects, maybe a hundred actions
    into the next game, and piled up with what that game left (issue 33, seventh pass)."""
    import gc
    import weakref

    runner = _toy_runner(store)
    listener, player = _listening(runner)
    runner.propose({"type": "lock", "player": "Ann", "number": 4})
    gone = weakref.ref(runner)
    gc.disable()
    try:
        del runner
        assert gone() is None, "the game heard is kept alive by a reference cycle"
    finally:
        gc.enable()
    assert player.cues == ["lock"] and listener


@pytest.mark.parametrize("first, second", [(1, 9), (9, 1), (5, 5)])
def test_no_cue_tells_what_was_locked(store, first, second):
    """Whatever the numbers, the table hears exactly the same cues at the same volume."""
    heard = []
    for numbers in [(first, second), (2, 7)]:
        runner = _toy_runner(store)
        _, player = _listening(runner)
        runner.propose({"type": "lock", "player": "Ann", "number": numbers[0]})
        runner.propose({"type": "lock", "player": "Bo", "number": numbers[1]})
        heard.append(player.played)
    assert heard[0] == heard[1] == [("lock", 0.7), ("reveal", 0.7)]


def _change(kind: str, player: str = "Ann") -> Change:
    return Change(SimpleNamespace(type=kind, player=player), [])


class _StandIn(SimpleNamespace):
    """A runner's stand-in the listener can refer to weakly, as it does to a runner."""


_PUBLIC_RUNNER = SimpleNamespace(outcome=None, secret_rounds=lambda: [])


@pytest.mark.parametrize("kind", sorted(sound.DIE_ACTIONS))
def test_a_die_landing_or_rolled_is_heard(kind):
    listener, player = _listening(_StandIn(listeners=[]))
    listener.on_change(_PUBLIC_RUNNER, _change(kind))
    assert player.cues == ["die"]


def _collapse(t: float):
    from hardware.events import Collapse

    return SimpleNamespace(event=Collapse(fell=3, standing=2, t=t))


def test_a_collapse_is_heard_when_the_tray_senses_it_and_not_again_when_it_is_entered():
    now = {"t": 100.0}
    listener, player = _listening(_StandIn(listeners=[]), clock=lambda: now["t"])
    listener.on_handled(_collapse(100.0))
    now["t"] = 100.4
    listener.on_handled(_collapse(100.4))  # the rest of the same fall, a moment later
    assert player.cues == ["collapse"]
    now["t"] = 112.0
    listener.on_change(_PUBLIC_RUNNER, _change("heat_fall"))  # the fall entered for it: no second cue
    assert player.cues == ["collapse"]
    now["t"] = 200.0
    listener.on_change(_PUBLIC_RUNNER, _change("heat_fall"))  # a fall nobody's tray sensed, entered by touch
    assert player.cues == ["collapse", "collapse"]


def test_tray_events_are_silent_when_no_game_is_on_screen():
    sounds, player = _sounds()
    listener = sound.CueListener(sounds, playing=lambda: False)  # the operator stacking dice to calibrate
    listener.on_handled(_collapse(1.0))
    assert player.cues == []


# -- the real audio library, in a process of its own (the audio driver is chosen per process) -----

_PLAY_EVERY_CUE = textwrap.dedent("""
    import logging, sys
    from pathlib import Path
    logging.basicConfig(level=logging.WARNING, format="LOG %(name)s %(message)s", stream=sys.stdout)
    from kiosk.sound import CUES, KivyPlayer
    player = KivyPlayer(Path(sys.argv[1]))
    player.prepare(background=False)
    for _ in range(2):
        for cue in CUES:
            player.play(cue, 0.5)
    states = [player._sounds[c].state if c in player._sounds else "none" for c in CUES]
    print("STATES", " ".join(states))
    print("SILENT", player.silent_because)
""")


def _play_every_cue(tmp_path, driver: str) -> str:
    env = dict(os.environ, SDL_AUDIODRIVER=driver, KIVY_NO_ARGS="1", KIVY_LOG_MODE="PYTHON")
    done = subprocess.run([sys.executable, "-c", _PLAY_EVERY_CUE, str(tmp_path)], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_a_cue_asked_for_before_the_player_is_ready_is_skipped_not_waited_for(tmp_path):
    player = sound.KivyPlayer(tmp_path)  # not prepared: the files are not made, the device not opened
    player.play("die", 0.5)
    assert player._sounds == {} and list(tmp_path.iterdir()) == []


def test_the_cues_play_through_kivy_soundloader(tmp_path):
    out = _play_every_cue(tmp_path, "dummy")  # SDL's dummy device: a real mixer with no speaker
    assert "STATES " + " ".join(["play"] * len(sound.CUES)) in out
    assert "SILENT None" in out


def test_no_audio_device_plays_nothing_raises_nothing_and_says_so_once(tmp_path):
    out = _play_every_cue(tmp_path, "no-such-audio-driver")
    assert "SILENT None" not in out
    ours = [line for line in out.splitlines() if line.startswith("LOG kiosk.sound")]
    assert len(ours) == 1 and "sound cues are off" in ours[0]


# -- in the kiosk, through the real widgets -------------------------------------------------------

needs_display = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")


@pytest.fixture
def heard(app):
    """The kiosk's speaker swapped for a recorder, the settings as the config file has them,
    the kiosk at home; everything put back afterwards."""
    from testkit import drive

    from .uiplay import close_overlays

    close_overlays(app)
    app.go_home()
    app.forget_settings()
    real, app.sounds.player = app.sounds.player, Recorder()
    drive.pump(1)
    yield app.sounds.player
    app.sounds.player = real
    app.forget_settings()


def _at_the_count(app, seed: int = 8):
    """A Hell for Leather game at its count prompt (all dice thrown), on screen."""
    import random

    from testkit import drive

    from .uiplay import bot_step

    if "hell-for-leather" not in app.engines:
        pytest.skip("Hell for Leather has not landed")
    drive.press("home:new:hell-for-leather")
    drive.press("setup:start")
    runner, rng = app.runner, random.Random(seed)
    while [p.action for p in runner.awaiting() if not p.optional] != ["count"]:
        if runner.outcome or bot_step(app, rng, skip=("risk",)) is None:
            pytest.skip("this seed never reached a count")
    drive.pump(2)
    assert "die" in app.sounds.player.cues  # the dice thrown on the way were heard
    app.sounds.player.played.clear()
    return app.play._five_count()


def _count_through(count, frames: int = 40) -> None:
    from testkit import drive

    for _ in range(frames):
        drive.pump(1)
        if count.left is None:
            return


@needs_display
def test_the_five_count_shows_five_to_one_big_with_a_tick_each(app, heard):
    from kiosk.ui import theme
    from kiosk.ui.countdown import HELD_TEXT

    count = _at_the_count(app)
    shown: list[tuple[str, float]] = []
    heard.on_play = lambda cue: shown.append((count.text, count.number_text.font_size))
    from testkit import drive

    drive.press("prompt:five-count")
    _count_through(count)
    assert heard.cues == ["tick"] * 5
    assert [text for text, _ in shown] == ["5", "4", "3", "2", "1"]
    assert all(size >= 3 * theme.font(21) for _, size in shown)  # far bigger than the prompt's own text
    assert drive.find("prompt:five-count").text == HELD_TEXT


@needs_display
def test_the_five_count_can_be_stopped_and_leaves_confirm_in_reach(app, heard):
    from kiosk.ui import overlays
    from kiosk.ui.countdown import START_TEXT
    from testkit import drive

    count = _at_the_count(app)
    overlays.ANIMATION_SCALE["value"] = 1000  # a second lasts long enough to press things mid-count
    try:
        drive.press("prompt:five-count")
        assert count.text == "5" and heard.cues == ["tick"]
        number = count.number.to_window(*count.number.pos), count.number.size
        confirm = drive.find("prompt:confirm")
        (nx, ny), (nw, nh) = number
        cx, cy = confirm.to_window(*confirm.pos)
        assert not (nx < cx + confirm.width and cx < nx + nw and ny < cy + confirm.height and cy < ny + nh)
        drive.press("prompt:five-count:stop")
        assert count.left is None and drive.find("prompt:five-count").text == START_TEXT
        drive.press("prompt:five-count")
        drive.press("prompt:confirm")  # the count is only a help: the table may go on at any moment
        assert "count" not in [p.action for p in app.runner.awaiting()]
    finally:
        overlays.ANIMATION_SCALE["value"] = 0
    count._step()  # the second that was running ends: with the prompt gone, the count ends silently
    assert count.left is None and heard.cues == ["tick", "tick"]


@needs_display
def test_a_fall_during_the_five_count_ends_it_with_the_fallen_dice(app, heard):
    from hardware.events import Collapse, HeatHeight
    from kiosk.ui.countdown import fell_text
    from testkit import drive

    count = _at_the_count(app)
    app.controller.handle(HeatHeight(dice=5, t=1.0))

    def fall_on_the_second_tick(cue: str) -> None:
        if cue == "tick" and heard.cues.count("tick") == 2:  # once: not again when the collapse is heard
            app.controller.handle(Collapse(fell=3, standing=2, t=2.0))

    heard.on_play = fall_on_the_second_tick
    drive.press("prompt:five-count")
    _count_through(count)
    assert heard.cues == ["tick", "tick", "collapse"]  # the fall is heard the moment the tray senses it
    assert count.left is None and count.text == fell_text(3)  # and the count stops there
    fall = app.play.fall  # the fall took the screen, the tray's count filled in (no more than the game's Heat)
    assert fall is not None and fall.counted == 3 and fall.fell == min(3, fall.height_before)
    drive.press("prompt:back")
    assert drive.find("prompt:five-count").text == fell_text(3)


@needs_display
def test_the_kiosk_sounds_a_lock_and_the_reveal_for_a_secret_round(app, heard):
    from testkit import drive

    drive.press("home:new:toy")
    drive.press("setup:start")
    app.runner.propose({"type": "lock", "player": "Ann", "number": 3})
    app.runner.propose({"type": "lock", "player": "Bo", "number": 8})
    drive.pump(2)
    assert heard.cues == ["lock", "reveal"]
    app.go_home()
    app.controller.handle(_collapse(5.0).event)  # at home nothing is in play: the tray is silent
    assert heard.cues == ["lock", "reveal"]


@needs_display
def test_operator_sets_volume_mute_and_quiet_hours_and_they_are_kept(app, heard):
    from testkit import drive

    from .uiplay import open_operator

    open_operator(app)
    drive.press("op:settings")
    drive.press("set:volume:-")
    assert app.config_hw.kiosk.volume == 60 and app.store.settings()["volume"] == 60
    assert heard.played == [("tick", 0.6)]  # the operator hears the new loudness
    assert "volume 60%" in app.operator.info.text
    drive.press("set:mute")
    assert app.config_hw.kiosk.muted and app.store.settings()["muted"] is True
    assert "muted" in app.operator.info.text and drive.find("set:mute").text == "Sound on"
    assert app.sounds.play("die") is False and heard.cues == ["tick"]
    drive.press("set:mute")
    assert not app.config_hw.kiosk.muted and heard.cues == ["tick", "tick"]
    drive.press("set:quiet")
    assert app.config_hw.kiosk.quiet_hours == "22-8" and app.store.settings()["quiet_hours"] == "22-8"
    assert "quiet hours 22:00-08:00" in app.operator.info.text
    for _ in range(20):
        drive.press("set:volume:+")
    assert app.config_hw.kiosk.volume == 100  # never past the top
    app.leave_operator()
