"""GpioPads on gpiozero's own MockFactory: the pins are gpiozero's MockPins, driven
low (pressed) and high (released) as a real button would, on a clock the test controls."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from gpiozero import Button, Device
from gpiozero.pins.mock import MockFactory

from hardware.backends.gpio import GpioPads
from hardware.config import PadsConfig, PadPins
from hardware.events import ButtonColour, ButtonPressed, ButtonReleased, ButtonStuck

BLACK, WHITE, GRAY = ButtonColour.BLACK, ButtonColour.WHITE, ButtonColour.GRAY
TWO_PADS = [PadPins(black=4, white=17, gray=27), PadPins(black=23, white=24, gray=25)]


class Clock:
    """Monotonic seconds that move only when the test says so."""

    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


OPENED: list[GpioPads] = []


@pytest.fixture
def factory():
    previous = Device.pin_factory
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    while OPENED:
        OPENED.pop().close()
    Device.pin_factory.reset()
    Device.pin_factory = previous


@pytest.fixture
def clock():
    return Clock()


def open_pads(clock, **settings) -> tuple[GpioPads, list]:
    config = PadsConfig(backend="gpio", pins=TWO_PADS, **settings)
    pads = GpioPads(config, clock=clock, poll_interval_s=None)
    OPENED.append(pads)
    heard: list = []
    pads.subscribe(heard.append)
    return pads, heard


def edges(pin, clock, levels, gap_s):
    """Drive ``pin`` through ``levels`` (True = pressed = low), ``gap_s`` apart."""
    for pressed in levels:
        pin.drive_low() if pressed else pin.drive_high()
        clock.advance(gap_s)


def test_a_bounce_train_gives_exactly_one_press_and_one_release(factory, clock):
    pads, heard = open_pads(clock, bounce_ms=20)
    pin = factory.pin(17)  # pad 1, White
    start = clock.t
    edges(pin, clock, [True, False, True, False, True], gap_s=0.001)  # contact chatter, settles pressed
    clock.advance(0.2)
    pads.poll()
    release_at = clock.t
    edges(pin, clock, [False, True, False, True, False], gap_s=0.002)  # chatter on the way up
    clock.advance(0.2)
    pads.poll()
    assert heard == [
        ButtonPressed(1, WHITE, start),
        ButtonReleased(1, WHITE, release_at, held_s=pytest.approx(release_at - start)),
    ]


def test_a_tap_shorter_than_the_bounce_window_is_still_released(factory, clock):
    pads, heard = open_pads(clock, bounce_ms=20)
    pin = factory.pin(4)
    start = clock.t
    edges(pin, clock, [True, False, True, False], gap_s=0.002)  # ends released, all inside 20 ms
    assert heard == [ButtonPressed(1, BLACK, start)]
    clock.advance(0.05)
    pads.poll()
    assert heard[1] == ButtonReleased(1, BLACK, pytest.approx(start + 0.006), held_s=pytest.approx(0.006))


def test_presses_a_millisecond_apart_on_two_pads_keep_order_and_time(factory, clock):
    pads, heard = open_pads(clock)
    t0 = clock.t
    factory.pin(25).drive_low()  # pad 2 Gray first
    clock.advance(0.001)
    factory.pin(4).drive_low()  # pad 1 Black a millisecond later
    assert heard == [ButtonPressed(2, GRAY, t0), ButtonPressed(1, BLACK, t0 + 0.001)]


def test_two_quick_real_presses_count_twice(factory, clock):
    pads, heard = open_pads(clock, bounce_ms=20)
    pin = factory.pin(24)
    edges(pin, clock, [True, False, True, False], gap_s=0.08)  # 80 ms apart: a person pressing twice
    pads.poll()
    assert [type(e).__name__ for e in heard] == ["ButtonPressed", "ButtonReleased"] * 2
    assert {e.player for e in heard} == {2} and {e.button for e in heard} == {WHITE}


def test_a_button_held_for_minutes_gives_one_press_and_one_stuck_warning(factory, clock):
    pads, heard = open_pads(clock, stuck_after_s=30)
    pin = factory.pin(27)
    pin.drive_low()
    pressed_at = clock.t
    for _ in range(5 * 60 * 4):  # five minutes of polls, four a second
        clock.advance(0.25)
        pads.poll()
    assert heard[0] == ButtonPressed(1, GRAY, pressed_at)
    stuck = [e for e in heard if isinstance(e, ButtonStuck)]
    assert len(stuck) == 1 and len(heard) == 2
    assert stuck[0].player == 1 and stuck[0].button is GRAY and stuck[0].held_s == pytest.approx(30, abs=0.25)
    pin.drive_high()
    assert isinstance(heard[-1], ButtonReleased) and heard[-1].held_s == pytest.approx(300)


def test_close_gives_the_pins_back_and_stops_events(factory, clock):
    pads, heard = open_pads(clock)
    pads.close()
    pads.close()  # twice is fine
    factory.pin(4).drive_low()
    assert heard == []
    again = Button(4, pin_factory=factory)  # the pin is free to claim again
    again.close()


def test_opening_pads_starts_no_thread_per_button(factory, clock):
    # gpiozero's Button starts a hold-watching thread per pin; the pads never use holds.
    import threading

    before = {t.ident for t in threading.enumerate()}
    pads, heard = open_pads(clock)
    factory.pin(27).drive_low()  # a held button starts nothing either
    assert [t.name for t in threading.enumerate() if t.ident not in before] == []
    pads.close()
    assert isinstance(heard[-1], ButtonPressed)


def test_the_pins_get_pull_ups(factory, clock):
    open_pads(clock)
    assert factory.pin(4).pull == "up" and factory.pin(25).pull == "up"


def test_an_explicit_pin_factory_is_used(clock):
    mock = MockFactory()
    pads = GpioPads(PadsConfig(backend="gpio", pins=TWO_PADS[:1]), pin_factory=mock, clock=clock, poll_interval_s=None)
    heard: list = []
    pads.subscribe(heard.append)
    mock.pin(17).drive_low()
    assert heard == [ButtonPressed(1, WHITE, clock.t)]
    assert pads.players == 1
    pads.close()


def test_the_background_poller_settles_a_short_tap_on_its_own(factory):
    import threading

    pads = GpioPads(PadsConfig(backend="gpio", pins=TWO_PADS, bounce_ms=5), poll_interval_s=0.002)
    released = threading.Event()
    pads.subscribe(lambda e: isinstance(e, ButtonReleased) and released.set())
    pin = factory.pin(4)
    pin.drive_low()
    pin.drive_high()  # inside the bounce window: only the poller can notice it
    assert released.wait(2.0)
    pads.close()


@pytest.fixture(scope="module")
def one_pad():
    """One set of pads for all the generated edge trains."""
    factory, clock = MockFactory(), Clock()
    pads = GpioPads(PadsConfig(backend="gpio", pins=TWO_PADS[:1], bounce_ms=20), pin_factory=factory,
                    clock=clock, poll_interval_s=None)
    heard: list = []
    pads.subscribe(heard.append)
    yield pads, factory.pin(4), clock, heard
    pads.close()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.booleans(), st.booleans()), max_size=40))
def test_any_edge_train_gives_alternating_events_that_end_on_the_true_level(one_pad, steps):
    """Whatever the contacts do, presses and releases alternate, and once the pin has been still
    for the bounce window the pads report the level it really sits at."""
    pads, pin, clock, heard = one_pad
    pin.drive_high()  # start from a button that has been up for a while
    clock.advance(1)
    pads.poll()
    heard.clear()
    for gap_ms, pressed, poll in steps:
        clock.advance(gap_ms / 1000)
        pin.drive_low() if pressed else pin.drive_high()
        if poll:
            pads.poll()
    clock.advance(0.05)
    pads.poll()
    kinds = [type(e) for e in heard]
    assert kinds == [ButtonPressed, ButtonReleased] * (len(kinds) // 2) + [ButtonPressed] * (len(kinds) % 2)
    assert (len(kinds) % 2 == 1) == (pin.state == 0)  # odd count: the button is reported down, and it is down
    assert all(b.t >= a.t for a, b in zip(heard, heard[1:]))


def test_a_pin_library_fallback_is_said_in_the_log_not_hidden(monkeypatch, caplog):
    """On a Pi a fallback means the pads run on a slower pin library than the one set up; the
    kiosk used to silence gpiozero's warning, so nobody could tell."""
    import logging
    import warnings

    from gpiozero.exc import PinFactoryFallback

    from hardware.backends import gpio

    real = gpio.DigitalInputDevice

    def falling_back(*args, **kwargs):
        warnings.warn(PinFactoryFallback("Falling back from lgpio: No module named 'lgpio'"))
        return real(*args, **kwargs)

    monkeypatch.setattr(gpio, "DigitalInputDevice", falling_back)
    config = PadsConfig(backend="gpio", pins=[PadPins(black=4, white=17, gray=27)])
    with caplog.at_level(logging.WARNING, logger="hardware.backends.gpio"):
        pads = gpio.GpioPads(config, pin_factory=MockFactory(), poll_interval_s=None)
    pads.close()
    said = [r.getMessage() for r in caplog.records if "Falling back from lgpio" in r.getMessage()]
    assert said == ["gpiozero: Falling back from lgpio: No module named 'lgpio'"]  # once, not once a pin
