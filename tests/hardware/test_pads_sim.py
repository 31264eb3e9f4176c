"""SimPads: scripted presses, the keyboard map the kiosk's sim panel shows, and clear refusals."""

from __future__ import annotations

import pytest

from hardware.backends.sim_pads import KEYMAP, SimPads, key_for, keymap_help
from hardware.events import ButtonColour, ButtonPressed, ButtonReleased

BLACK, WHITE, GRAY = ButtonColour.BLACK, ButtonColour.WHITE, ButtonColour.GRAY


class Clock:
    def __init__(self) -> None:
        self.t = 50.0

    def __call__(self) -> float:
        return self.t


def pads_and_log(players: int = 6):
    clock = Clock()
    pads = SimPads(players, clock=clock)
    heard: list = []
    pads.subscribe(heard.append)
    return pads, heard, clock


def test_a_scripted_press_and_release_report_the_hold():
    pads, heard, clock = pads_and_log()
    pads.press(3, "white")
    clock.t += 0.4
    pads.release(3, WHITE)
    assert heard == [ButtonPressed(3, WHITE, 50.0), ButtonReleased(3, WHITE, 50.4, held_s=pytest.approx(0.4))]


def test_a_tap_is_a_press_and_a_release():
    pads, heard, _ = pads_and_log()
    pads.tap(6, GRAY)
    assert [type(e) for e in heard] == [ButtonPressed, ButtonReleased] and heard[1].held_s == pytest.approx(0.08)


def test_a_button_already_down_is_not_pressed_again():
    pads, heard, _ = pads_and_log()
    pads.press(1, BLACK)
    pads.press(1, BLACK)  # keyboard auto-repeat
    pads.release(1, BLACK)
    pads.release(1, BLACK)
    assert len(heard) == 2


def test_every_button_of_six_pads_has_its_own_key():
    assert len(KEYMAP) == 18
    assert {KEYMAP[key_for(p, c)] for p in range(1, 7) for c in ButtonColour} == {
        (p, c) for p in range(1, 7) for c in ButtonColour
    }


def test_keys_drive_the_pads_in_columns():
    pads, heard, _ = pads_and_log()
    assert pads.key("w") and pads.key("w", down=False)  # pad 2, top row: Black
    assert pads.key("H")  # pad 6, home row: White (caps lock on)
    assert not pads.key("p")
    assert [(e.player, e.button) for e in heard] == [(2, BLACK), (2, BLACK), (6, WHITE)]


def test_keys_for_pads_that_are_not_there_do_nothing():
    pads, heard, _ = pads_and_log(players=2)
    assert not pads.key("e")  # pad 3
    assert heard == []


def test_the_help_shows_the_key_columns():
    text = keymap_help(3)
    assert text.splitlines() == ["pad    1  2  3", "black  q  w  e", "white  a  s  d", "gray   z  x  c"]


def test_bad_players_and_buttons_are_refused_by_name():
    pads, heard, _ = pads_and_log(players=4)
    with pytest.raises(ValueError, match=r"player must be from 1 to 4 \(got 5\)"):
        pads.press(5, BLACK)
    with pytest.raises(ValueError, match="button must be black, white or gray"):
        pads.press(1, "red")
    with pytest.raises(ValueError, match="players must be from 1 to 6"):
        SimPads(7)
    assert heard == []


def test_the_readme_key_table_matches_the_keymap():
    from hardware import cli
    from hardware.wiring import README

    text = README.read_text()
    for row, colour in enumerate(["Black", "White", "Gray"]):
        keys = " ".join(column[row] for column in ("qaz", "wsx", "edc", "rfv", "tgb", "yhn"))
        assert f"| `{keys}` | {colour} on pad 1 to 6" in text
        assert all(KEYMAP[k] == (p, ButtonColour(colour.lower())) for p, k in enumerate(keys.split(), start=1))
    for key in cli.TRAY_KEYS:
        assert f"`{key}`" in text or key == "="  # "=" is the unshifted "+", left out of the table
