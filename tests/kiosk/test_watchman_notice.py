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


def test_the_tray_line_is_redrawn_only_when_what_it_says_changed():
    """The play screen's tray line (link, stack) is redrawn on ``on_tray``: for a new height or
    a pulled cable, not for a die landing or a distance reading, which it does not show (a
    landing redrew it once here and again with the throw's own change, issue 30)."""
    from hardware.events import DieAdded, DistanceSample, HeatHeight, LinkDown, LinkUp, ThrowSettled, Zone

    controller = Controller()
    told: list[tuple] = []
    controller.on_tray = lambda state: told.append((state.heat, state.connected))
    controller.receive(HeatHeight(dice=3, t=1.0))
    controller.receive(ThrowSettled(t=1.1, zone=Zone.INSIDE, face=7))
    controller.receive(DistanceSample(mm=95, t=1.2))
    controller.receive(HeatHeight(dice=3, t=1.3))
    controller.receive(DieAdded(dice=4, t=1.4))
    controller.receive(LinkDown("serial", "unplugged", 1.5))
    controller.receive(LinkUp("serial", "/dev/ttyACM0", 1.6))
    assert told == [(3, True), (4, True), (4, False), (4, True)]
    assert controller.tray_state.last_throw is not None and controller.tray_state.distance_mm == 95
