"""Sound cues: made here, played when the game does something the table should hear.

Six short cues, all synthesised by this module (no recorded samples): ``lock``
(someone locked a secret choice), ``reveal`` (a secret round turns over),
``die`` (a die landed or was rolled), ``collapse`` (the Heat fell), ``tick``
(one second of the five-count) and ``game_over``. They are written once as WAV
files into the user cache folder (platformdirs) and played through Kivy's
``SoundLoader``, whose SDL2 mixer plays them on its own thread, so a cue never
holds up the screen.

Three parts, each testable on its own:

* ``render`` / ``write_cues``: the sound itself, as 16-bit samples and WAV files.
* ``Sounds``: plays a cue if the operator's settings allow it now (volume,
  mute, quiet hours), through an injectable player and clock.
* ``CueListener``: one listener fed by the app (the runner's changes and the
  tray's events) that picks which cue, if any, a change deserves.

No cue depends on what a secret choice was: a lock sounds the same whatever
was locked, and a round that closes sounds the reveal whatever it reveals.
A kiosk without an audio device (a desktop under Xvfb, a Pi on HDMI without
sound) plays nothing and says so once in the log.
"""

from __future__ import annotations

import logging
import math
import os
import random
import sys
import threading
import time
import wave
import weakref
from array import array
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterable, Protocol

log = logging.getLogger(__name__)

RATE = 22050
"""Samples per second: plenty for short cues through a small speaker, and quick to make."""
PEAK = 0.7
"""Every cue is scaled so its loudest sample is this fraction of full scale (no clipping)..."""
SOFTER = {"lock": 0.55, "tick": 0.6}
"""...except these, heard many times a game, which sit a little under the rest."""
CUES = ("lock", "reveal", "die", "collapse", "tick", "game_over")
VERSION = 1
"""Bump when a cue's sound changes, so kiosks make the new files instead of playing old ones."""


# -- making the sounds ---------------------------------------------------------------------------

Partials = Iterable[tuple[float, float]]


def _silence(seconds: float) -> list[float]:
    return [0.0] * int(seconds * RATE)


def _add(into: list[float], sound: list[float], at: float, gain: float = 1.0) -> None:
    """Mix ``sound`` into ``into`` starting ``at`` seconds in (what runs past the end is cut)."""
    start = int(at * RATE)
    for i, value in enumerate(sound[: max(0, len(into) - start)]):
        into[start + i] += gain * value


def _struck(freq: float, seconds: float, decay: float, partials: Partials = ((1, 1.0),),
            attack: float = 0.004) -> list[float]:
    """A struck tone: a quick rise (no click) then an exponential fade, like a bell or a block.

    ``partials``: (multiple of ``freq``, loudness) pairs; higher ones fade faster, as in wood and metal.
    """
    parts = list(partials)
    out = []
    for i in range(int(seconds * RATE)):
        t = i / RATE
        rise = min(1.0, t / attack)
        value = 0.0
        for multiple, loudness in parts:
            value += loudness * math.exp(-t * multiple / decay) * math.sin(2 * math.pi * freq * multiple * t)
        out.append(rise * value)
    return out


def _knock(seconds: float, body: float, seed: int, decay: float = 0.025) -> list[float]:
    """A die or a block hitting wood: a soft burst of filtered noise over a short low body tone."""
    noise = random.Random(seed)
    smooth = smoother = 0.0
    out = []
    for i in range(int(seconds * RATE)):
        t = i / RATE
        smooth += 0.3 * (noise.uniform(-1, 1) - smooth)  # two one-pole low-passes: a thud, not a hiss
        smoother += 0.3 * (smooth - smoother)
        rise = min(1.0, t / 0.002)
        envelope = rise * math.exp(-t / decay)
        out.append(envelope * (1.6 * smoother + 0.6 * math.sin(2 * math.pi * body * t)))
    return out


def _finish(samples: list[float], peak: float = PEAK) -> list[float]:
    """Scale to ``peak`` and fade the last 20 ms to nothing, so a cue never ends on a click."""
    fade = int(0.02 * RATE)
    for i in range(1, fade + 1):
        samples[-i] *= (i - 1) / fade
    loudest = max(abs(s) for s in samples) or 1.0
    return [s * peak / loudest for s in samples]


def _tick() -> list[float]:
    """A woodblock tock: one high, dry knock (0.09 s), the five-count's second."""
    return _struck(1150, 0.09, 0.022, ((1, 1.0), (2.4, 0.35)), attack=0.002)


def _lock() -> list[float]:
    """A latch closing: a low click and a second, slightly higher one (0.25 s). Says only 'someone locked'."""
    out = _silence(0.25)
    _add(out, _struck(330, 0.12, 0.03, ((1, 1.0), (3, 0.25))), 0.0)
    _add(out, _struck(495, 0.16, 0.035, ((1, 1.0), (3, 0.2))), 0.07, 0.8)
    return out


def _reveal() -> list[float]:
    """Cards turning over: a rising bell arpeggio, G4 C5 E5 G5 (0.6 s)."""
    out = _silence(0.6)
    for n, freq in enumerate((392.0, 523.25, 659.25, 783.99)):
        _add(out, _struck(freq, 0.6 - n * 0.07, 0.16, ((1, 1.0), (2, 0.3), (3, 0.1))), n * 0.07, 0.8 + 0.1 * n)
    return out


def _die() -> list[float]:
    """A die landing: a knock and two smaller bounces (0.3 s)."""
    out = _silence(0.3)
    for n, (at, gain) in enumerate(((0.0, 1.0), (0.085, 0.5), (0.145, 0.25))):
        _add(out, _knock(0.1, 240 + 30 * n, seed=10 + n), at, gain)
    return out


def _collapse() -> list[float]:
    """The Heat falling: a tumble of knocks, quicker and lower as it goes, over a low rumble (0.75 s)."""
    out = _silence(0.75)
    _add(out, _struck(70, 0.75, 0.2, ((1, 1.0), (1.5, 0.4))), 0.0, 0.6)
    at = 0.0
    for n in range(8):
        _add(out, _knock(0.12, 200 - 15 * n, seed=40 + n, decay=0.03), at, 1.0 - 0.08 * n)
        at += 0.11 - 0.01 * n
    return out


def _game_over() -> list[float]:
    """The end: two falling notes and a soft C-minor chord, in the noir key (0.78 s)."""
    out = _silence(0.78)
    bell = ((1, 1.0), (2, 0.2))
    _add(out, _struck(587.33, 0.3, 0.12, bell), 0.0, 0.7)
    _add(out, _struck(466.16, 0.3, 0.12, bell), 0.14, 0.7)
    for freq in (261.63, 311.13, 392.0):
        _add(out, _struck(freq, 0.5, 0.2, bell), 0.28, 0.6)
    return out


MAKERS: dict[str, Callable[[], list[float]]] = {
    "lock": _lock, "reveal": _reveal, "die": _die, "collapse": _collapse, "tick": _tick, "game_over": _game_over,
}


def render(cue: str) -> array:
    """The cue's samples as signed 16-bit integers (mono, ``RATE`` per second)."""
    samples = _finish(MAKERS[cue](), SOFTER.get(cue, PEAK))
    return array("h", (round(s * 32767) for s in samples))


def write_wav(path: Path, samples: array) -> None:
    """Write ``samples`` as a mono 16-bit WAV, in one step (a half-written file is never left)."""
    if sys.byteorder == "big":
        samples = array("h", samples)
        samples.byteswap()  # WAV is little-endian
    temporary = path.with_name(path.name + ".new")
    with wave.open(str(temporary), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(samples.tobytes())
    os.replace(temporary, path)


def cue_folder() -> Path:
    """Where this version's cues are kept: the user cache folder (made again if cleared)."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("table-noir")) / "cues" / f"v{VERSION}-{RATE}"


def write_cues(folder: Path) -> dict[str, Path]:
    """Make every cue's WAV in ``folder`` (those already there are kept) and return their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for cue in CUES:
        path = paths[cue] = folder / f"{cue}.wav"
        if not path.is_file() or path.stat().st_size <= 44:
            write_wav(path, render(cue))
    return paths


# -- playing them --------------------------------------------------------------------------------

class Player(Protocol):
    def prepare(self) -> None:
        """Get ready to play (make the files), without keeping the caller waiting."""

    def play(self, cue: str, volume: float) -> None:
        """Start ``cue`` at ``volume`` (0-1) and return at once."""


class KivyPlayer:
    """Plays the cue files through Kivy's SoundLoader (SDL2's mixer on the Pi and the desktop).

    ``prepare`` makes the files and loads them on a worker thread, so neither start-up
    nor a game event waits for the audio device to open; a cue asked for before they
    are ready is skipped. When there is no audio device, or the files cannot be
    written, the kiosk says so once in the log and plays nothing from then on.
    """

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder
        self.files: dict[str, Path] = {}
        self._sounds: dict[str, Any] = {}
        self._ready = threading.Event()
        self._preparing = False
        self.silent_because: str | None = None
        """Why no cue plays (said once in the log), or None while sound works."""

    def prepare(self, background: bool = True) -> None:
        """Make the cue files (once; later calls do nothing)."""
        if self._preparing:
            return
        self._preparing = True
        if background:
            threading.Thread(target=self._make_files, name="sound-cues", daemon=True).start()
        else:
            self._make_files()

    def _make_files(self) -> None:
        """Write the cue files and load every one, off the UI thread: opening the audio device
        and loading the first sound take ~150 ms on a desktop, which the first die landing of
        the day would otherwise wait for. Playing a loaded sound then costs microseconds."""
        try:
            self.files = write_cues(self.folder or cue_folder())
        except OSError as err:
            self._give_up(f"the cue files could not be written ({err})")
        for cue in self.files:
            if self.silent_because is not None or self._load(cue) is None:
                break
        self._ready.set()

    def wait_ready(self, timeout: float = 10.0) -> bool:
        return self._ready.wait(timeout)

    def play(self, cue: str, volume: float) -> None:
        if self.silent_because is not None or not self._ready.is_set():
            return
        sound = self._sounds.get(cue)
        if sound is None:
            return
        try:
            sound.volume = volume
            if sound.state == "play":
                sound.stop()  # the next tick before the last one finished: start it again
            sound.play()
        except Exception as err:  # noqa: BLE001 - a sound that fails must never stop a game
            self._give_up(f"playing failed ({err})")

    def _load(self, cue: str) -> Any:
        try:
            from kivy.core.audio import SoundLoader

            sound = SoundLoader.load(str(self.files[cue]))
        except Exception as err:  # noqa: BLE001
            self._give_up(f"the audio library did not load ({err})")
            return None
        if sound is None or not sound.length:  # SDL2 hands back an empty sound when there is no device
            self._give_up("no audio device could be opened")
            return None
        self._sounds[cue] = sound
        return sound

    def _give_up(self, why: str) -> None:
        if self.silent_because is None:
            self.silent_because = why
            log.warning("sound cues are off: %s", why)


def is_quiet(quiet_hours: str, hour: int) -> bool:
    """True when ``hour`` (0-23) lies in the quiet hours ("22-8": from 22:00 up to 08:00)."""
    from hardware.config import quiet_span  # pydantic: not needed before the kiosk's first frame

    span = quiet_span(quiet_hours)
    if span is None:
        return False
    start, end = span
    return start <= hour < end if start < end else hour >= start or hour < end


class Sounds:
    """Plays a cue when the operator's settings allow it now.

    ``settings`` returns the current kiosk settings (anything with ``volume``,
    ``muted`` and ``quiet_hours``; the app passes its live ``KioskConfig``), so a
    change in the operator menu applies to the next cue. ``now`` is the clock the
    quiet hours are read on (local time; a test passes its own).
    """

    def __init__(self, settings: Callable[[], Any], player: Player,
                 now: Callable[[], datetime] = datetime.now) -> None:
        self.settings = settings
        self.player = player
        self.now = now

    def silenced(self) -> str | None:
        """Why cues are silent now, in the operator's words, or None if they play."""
        s = self.settings()
        if s.muted:
            return "muted"
        if s.volume == 0:
            return "volume 0"
        if is_quiet(s.quiet_hours, self.now().hour):
            return "quiet hours"
        return None

    def play(self, cue: str) -> bool:
        """Start ``cue`` unless the settings silence it; True if it was started."""
        if cue not in MAKERS:
            raise ValueError(f"no sound cue named {cue!r} (cues: {', '.join(CUES)})")
        if self.silenced():
            return False
        self.player.play(cue, self.settings().volume / 100)
        return True


# -- which cue for what happened -----------------------------------------------------------------

DIE_ACTIONS = frozenset({"land", "fail_roll", "roll", "roll_color", "roll_for_crime", "roll_for_names", "roll_goal"})
"""Actions that are a die landing: a d10 at the Conflict Target, or dice a game rolls."""
COLLAPSE_ACTIONS = frozenset({"heat_fall"})
SENSED_FALL_S = 30.0
"""A fall the tray sensed has had its cue; the ``heat_fall`` entered for it within this many seconds gets none."""
ONE_FALL_S = 1.0
"""Collapses the tray reports this close together are one fall (it sees the top slide, then the rest go)."""


class CueListener:
    """Picks the cue for each change of the game on screen, and for the tray's collapses.

    One cue at most per change, the most telling first: the game ending, then a
    secret round turning over, a fall, a die, a lock. What a secret choice was never
    enters into it: a lock is heard because the lock board shows it, and a reveal
    because the round closed.
    """

    def __init__(self, sounds: Sounds, clock: Callable[[], float] = time.monotonic,
                 playing: Callable[[], bool] = lambda: True) -> None:
        self.sounds = sounds
        self.clock = clock
        self.playing = playing
        """True while a game is on screen: stacking dice on the operator's calibration screen is silent."""
        self._last_fall: float | None = None  # when the tray last sensed a collapse (``clock``)
        self._watched: dict[int, Callable[[Any], None]] = {}

    def watch(self, runner: Any) -> None:
        """Listen to ``runner`` (once, however often the same game is put on screen)."""
        if id(runner) in self._watched and self._watched[id(runner)] in runner.listeners:
            return
        game = weakref.ref(runner)  # not the runner itself: its listeners would hold it in a cycle

        def heard(change: Any) -> None:
            if (watched := game()) is not None:
                self.on_change(watched, change)
        self._watched = {id(runner): heard}
        runner.listeners.append(heard)

    def cue_for(self, runner: Any, change: Any) -> str | None:
        action = change.action
        if action is None:  # an undo: nothing happened at the table
            return None
        if runner.outcome is not None:
            return "game_over"
        if change.reveal is not None:
            return "reveal"
        if action.type in COLLAPSE_ACTIONS:
            sensed = self._last_fall is not None and self.clock() - self._last_fall < SENSED_FALL_S
            return None if sensed else "collapse"
        if action.type in DIE_ACTIONS:
            return "die"
        if any(r.action == action.type and action.player in r.locked for r in runner.secret_rounds()):
            return "lock"
        return None

    def on_change(self, runner: Any, change: Any) -> None:
        cue = self.cue_for(runner, change)
        if cue is not None:
            self.sounds.play(cue)

    def on_handled(self, handled: Any) -> None:
        """A hardware event (``Controller.on_handled``): the tray sensing the Heat fall is heard at once."""
        from hardware.events import Collapse

        if not isinstance(handled.event, Collapse) or not self.playing():
            return
        now = self.clock()
        same_fall = self._last_fall is not None and now - self._last_fall < ONE_FALL_S
        self._last_fall = now
        if not same_fall:
            self.sounds.play("collapse")


def main(argv: list[str] | None = None) -> int:
    """``python -m kiosk.sound [FOLDER]``: make the cues in FOLDER (default: the cache) and
    print each one's length, peak and loudness, to check them by number (or by ear: play the files)."""
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else cue_folder()
    paths = write_cues(folder)
    print(f"cues in {folder}")
    for cue in CUES:
        samples = render(cue)
        peak = max(abs(s) for s in samples) / 32767
        rms = math.sqrt(sum(s * s for s in samples) / len(samples)) / 32767
        print(f"  {cue:<10} {len(samples) / RATE:5.2f} s   peak {peak:.2f} ({20 * math.log10(peak):+.1f} dBFS)   "
              f"rms {rms:.3f}   {paths[cue].name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
