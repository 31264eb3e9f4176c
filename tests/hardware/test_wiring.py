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


# ---- the pad board: keyed sockets, series resistors, pull-ups ------------------------------------

def test_every_button_line_has_a_series_resistor_a_pullup_and_a_capacitor():
    lines = wiring.pad_board_lines(shipped_pads())
    assert len(lines) == 18
    for kind in ("series", "pullup", "cap"):
        names = [getattr(line, kind) for line in lines]
        assert len(set(names)) == len(lines), f"two lines share a {kind} part"
    assert not {line.series for line in lines} & {line.pullup for line in lines}
    assert wiring.PULLUP_OHMS <= 10_000          # much stiffer than the Pi's own 50 kOhm or so
    assert 330 <= wiring.SERIES_OHMS <= 2_200    # limits a spark's current, still a clean low with the pull-up
    assert 3.3 * wiring.SERIES_OHMS / (wiring.SERIES_OHMS + wiring.PULLUP_OHMS) < 0.8   # a press still reads low


def test_each_pad_has_its_own_keyed_socket_with_ground_on_pin_1_and_no_5v():
    lines = wiring.pad_board_lines(shipped_pads())
    sockets = {}
    for line in lines:
        sockets.setdefault(line.socket, set()).add((line.socket_pin, line.colour))
    assert sorted(sockets) == [f"J{n}" for n in range(1, 7)]
    for pins in sockets.values():
        assert pins == {(2, "black"), (3, "white"), (4, "gray")}
    assert wiring.PLUG_PINS[0] == "GND" and "5V" not in wiring.PLUG_PINS
    # every line ends on the GPIO the config names, at the header pin gpiozero's map gives it
    for line in lines:
        assert wiring.HEADER[line.header_pin] == f"GPIO{line.gpio}"


def test_the_connector_table_follows_the_config():
    pads = PadsConfig(pins=[PadPins(black=22, white=17, gray=27), PadPins(black=5, white=6, gray=12)])
    table = wiring.connector_table(pads)
    assert "| 1 | J1 | GND | Black: R1 to GPIO22 (header pin 15) |" in table
    assert "| 2 | J2 | GND | Black: R4 to GPIO5 (header pin 29) |" in table
    assert wiring.pad_board_parts(pads) == {"sockets": 2, "series": 6, "pullups": 6, "caps": 6}
