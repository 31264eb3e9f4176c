"""The tray's watchman reaches the screen as a notice (kiosk/controller.py)."""

from __future__ import annotations

from hardware.events import HeatFalling, HeatMismatch
from kiosk.controller import Controller


def test_a_weight_and_height_two_dice_apart_is_said_on_screen():
    controller = Controller()
    said: list[str] = []
    controller.on_message = said.append
    controller.receive(HeatMismatch(weighed=6, seen=2, t=1.0))
    assert said and "weighs 6 dice but looks 2 high" in said[-1]


def test_a_falling_flag_alone_says_nothing():
    controller = Controller()
    said: list[str] = []
    controller.on_message = said.append
    controller.receive(HeatFalling(dice=6, t=1.0))
    assert not said
