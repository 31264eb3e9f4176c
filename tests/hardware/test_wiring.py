"""The wiring docs agree with table-noir.toml and with gpiozero's own map of the Pi's header."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from hardware import wiring
from hardware.config import DEFAULTS, PadPins, PadsConfig, load_config


def shipped_pads() -> PadsConfig:
    return load_config(DEFAULTS).pads


def test_the_readme_wiring_matches_the_shipped_config():
    readme = wiring.README.read_text()
    assert wiring.wiring_section(shipped_pads()) in readme, (
        "hardware/README.md's wiring is out of date: run  python -m hardware.wiring --write"
    )


@pytest.mark.parametrize("revision", ["a02082", "c03111", "d04170"])  # Pi 3 B, Pi 4 B, Pi 5
def test_our_header_map_is_gpiozeros(revision):
    header = MockFactory(revision=revision).board_info.headers["J8"].pins
    assert {number: info.name for number, info in header.items()} == wiring.HEADER


def test_every_pad_gets_its_own_ground_next_to_its_pins():
    wired = wiring.wire(shipped_pads())
    grounds = [w.ground for w in wired]
    assert len(set(grounds)) == 6 and all(wiring.HEADER[g] == "GND" for g in grounds)
    assert 6 not in grounds and 14 not in grounds  # the touchscreen's and the i2c sensor's
    for w in wired:  # one 4-way housing: signal and ground pins within two header rows of each other
        rows = [(p + 1) // 2 for p in [*w.header_pins().values(), w.ground]]
        assert max(rows) - min(rows) <= 3


def test_a_changed_pin_changes_the_table():
    pads = PadsConfig(pins=[PadPins(black=22, white=17, gray=27)])
    table = wiring.pin_table(pads)
    assert "| 1 | GPIO22 (pin 15) | GPIO17 (pin 11) | GPIO27 (pin 13) |" in table
    assert "pad 1 black" in wiring.header_diagram(pads).splitlines()[7]  # header row 8 holds pin 15


def test_write_updates_only_the_marked_block():
    text = "intro\n" + wiring.BEGIN + "\nstale\n" + wiring.END + "\noutro\n"
    updated = wiring.readme_with_wiring(text, shipped_pads())
    assert updated.startswith("intro\n") and updated.endswith("\noutro\n") and "stale" not in updated
