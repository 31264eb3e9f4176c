"""The operator PIN: only a salted hash is kept, guesses get slow, the length is never told."""

from __future__ import annotations

import pytest

from hardware.config import ConfigError, parse_config
from kiosk import pin


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def lockout(clock: Clock) -> pin.Lockout:
    kept = {"v": (0, 0.0)}
    return pin.Lockout(lambda: kept["v"], lambda wrong, until: kept.__setitem__("v", (wrong, until)), clock=clock)


def test_a_hash_checks_its_own_pin_only_and_never_holds_it():
    stored = pin.hash_pin("1357")
    assert pin.check("1357", stored)
    assert not pin.check("1358", stored) and not pin.check("135", stored)
    # Held: the scheme, the rounds, a random salt and the digest, nothing else. (Looking for
    # "1357" as a substring failed by chance, about once in 700 runs, when the hex had it.)
    scheme, rounds, salt, digest = stored.split("$")
    assert (scheme, rounds) == ("pbkdf2_sha256", str(pin.ITERATIONS))
    assert len(salt) == 32 and len(digest) == 64 and all(c in "0123456789abcdef" for c in salt + digest)
    assert "1357" not in (scheme, rounds)
    assert pin.hash_pin("1357") != stored  # salted: the same PIN never hashes the same twice


@pytest.mark.parametrize("bad", ["123", "123456789", "12a4", "\u0661\u0662\u0663\u0664", "１２３４", " 1234"])
def test_only_pins_the_pad_can_type_are_accepted(bad):
    assert not pin.valid_pin(bad)
    with pytest.raises(ValueError):
        pin.hash_pin(bad)
    with pytest.raises(ConfigError):
        parse_config({"kiosk": {"operator_pin": bad}})


def test_the_config_never_shows_a_pin_or_its_hash_and_a_plain_one_is_flagged():
    config = parse_config({"kiosk": {"operator_pin": "9753"}})
    assert "9753" not in repr(config) and "9753" not in str(config)
    assert config.kiosk.plain_pin_in_file  # the operator menu says to put the hash in the file instead
    hashed = parse_config({"kiosk": {"operator_pin_hash": pin.hash_pin("9753")}}).kiosk
    assert not hashed.plain_pin_in_file and hashed.operator_pin_hash not in repr(hashed)
    assert parse_config({}) == parse_config({})  # reading the same file twice gives the same config


def test_after_three_wrong_pins_each_try_waits_longer():
    clock = Clock()
    guard = lockout(clock)
    stored = pin.hash_pin("1357", iterations=1000)
    assert [guard.attempt("0000", stored) for _ in range(3)] == [False, False, False]
    assert guard.wait_s() == pytest.approx(pin.FIRST_WAIT_S)
    assert guard.attempt("1357", stored) is None  # even the right PIN is not taken while waiting
    clock.now += pin.FIRST_WAIT_S
    assert guard.attempt("0001", stored) is False
    assert guard.wait_s() == pytest.approx(2 * pin.FIRST_WAIT_S)
    clock.now += 2 * pin.FIRST_WAIT_S
    assert guard.attempt("1357", stored) is True
    assert guard.wait_s() == 0  # the right PIN starts the count again


def test_guessing_every_four_digit_pin_takes_weeks_not_minutes():
    """Before, the shipped PIN fell after 2,469 tries with no wait at all."""
    clock = Clock()
    guard = lockout(clock)
    stored = pin.hash_pin("9999", iterations=1000)
    start = clock.now
    for guess in range(9999):
        clock.now += guard.wait_s()
        assert guard.attempt(f"{guess:04d}", stored) is False
    assert (clock.now - start) / 86400 > 30


def test_a_clock_set_back_does_not_lock_the_kiosk_for_longer_than_the_longest_wait():
    clock = Clock()
    guard = lockout(clock)
    stored = pin.hash_pin("1357", iterations=1000)
    for _ in range(20):
        clock.now += guard.wait_s()
        guard.attempt("0000", stored)
    clock.now -= 10 * 86400
    assert guard.wait_s() <= pin.MAX_WAIT_S
