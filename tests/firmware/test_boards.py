"""Which I2C pins the tray opens for the VL53L0X, board by board (firmware/tray/boards.py)."""

import pytest

from firmware.tray.boards import i2c_pins

QT_PY = {"STEMMA_I2C", "I2C", "SCL", "SDA", "A0"}
FEATHER = {"I2C", "SCL", "SDA", "A0"}
PICO = {"GP%d" % n for n in range(29)} | {"A0", "LED"}


@pytest.mark.parametrize(
    "setting,board_id,names,expected",
    [
        ("stemma", "adafruit_qtpy_rp2040", QT_PY, ("stemma", None)),
        ("stemma", "adafruit_feather_rp2040", FEATHER, ("default", None)),
        ("stemma", "raspberry_pi_pico", PICO, ("pins", ("GP5", "GP4"))),
        ("stemma", "raspberry_pi_pico_w", PICO, ("pins", ("GP5", "GP4"))),
        ("stemma", "raspberry_pi_pico2", PICO, ("pins", ("GP5", "GP4"))),
        (" Stemma ", "adafruit_qtpy_rp2040", QT_PY, ("stemma", None)),
        ("GP1, GP0", "raspberry_pi_pico", PICO, ("pins", ("GP1", "GP0"))),
        ("SCL,SDA", "adafruit_feather_rp2040", FEATHER, ("pins", ("SCL", "SDA"))),
    ],
)
def test_the_setting_becomes_the_right_bus_for_the_board(setting, board_id, names, expected):
    assert i2c_pins(setting, board_id, names) == expected


@pytest.mark.parametrize(
    "setting,board_id,names,words",
    [
        ("stemma", "some_rp2040_board", {"GP0", "GP1"}, "no STEMMA QT socket"),
        ("GP5", "raspberry_pi_pico", PICO, '"SCL,SDA"'),
        ("GP5,GP4,GP3", "raspberry_pi_pico", PICO, '"SCL,SDA"'),
        ("GP5,GP44", "raspberry_pi_pico", PICO, "GP44"),
        ("GP5,GP5", "raspberry_pi_pico", PICO, "two different pins"),
        ("", "raspberry_pi_pico", PICO, '"SCL,SDA"'),
    ],
)
def test_an_impossible_setting_is_refused_in_words_that_fit_an_error_line(setting, board_id, names, words):
    with pytest.raises(ValueError) as refused:
        i2c_pins(setting, board_id, names)
    message = str(refused.value)
    assert words in message and "TRAY_I2C" in message and len(message) <= 80
