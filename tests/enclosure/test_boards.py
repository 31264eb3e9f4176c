"""Every board's layout, computed as nets from its copper, cuts, parts and wires, equals its schematic.

The pad board used to be "as drawn": a 2x20 header on the half-size Perma-Proto the
BOM listed, whose 5-hole strips join each header pin to its neighbour in the other
row (pin 1, 3V3, to pin 2, 5V). These tests fail on such a board.
"""

from dataclasses import replace

import pytest

from hardware.boards import draw, netlist, pad_board, piezo_board
from hardware.config import load_config, parse_config


@pytest.fixture(scope="module")
def pads():
    return load_config(pad_board.__file__.replace("boards/pad_board.py", "table-noir.toml")).pads


def test_the_pad_board_layout_has_exactly_the_schematics_nets(pads):
    assert netlist.problems(pad_board.layout(pads), pad_board.schematic(pads)) == []


def test_the_piezo_board_layout_has_exactly_the_schematics_nets():
    assert netlist.problems(piezo_board.layout(), piezo_board.schematic()) == []


def test_the_old_as_drawn_pad_board_shorts_3v3_to_5v(pads):
    found = netlist.problems(pad_board.as_drawn(pads), pad_board.schematic(pads))
    shorts = [p for p in found if p.startswith("short:")]
    assert any("3V3" in p and "5V" in p for p in shorts), shorts
    assert any("GPIO2" in p and "5V" in p for p in shorts)


def test_a_forgotten_cut_under_the_header_is_a_short(pads):
    board = pad_board.layout(pads)
    missing = replace(board, cuts=board.cuts[1:])           # the knife cut between pins 1 and 2
    assert any(p.startswith("short: 3V3 and 5V") for p in netlist.problems(missing, pad_board.schematic(pads)))


def test_a_missing_wire_link_is_an_open(pads):
    board = pad_board.layout(pads)
    found = netlist.problems(replace(board, wires=board.wires[1:]), pad_board.schematic(pads))
    assert any(p.startswith("open: net GPIO4") for p in found), found


def test_a_part_in_a_cut_away_hole_or_two_leads_in_one_hole_are_named(pads):
    board = pad_board.layout(pads)
    spot = board.spots[0]
    bad = replace(board, wires=board.wires + ((spot, (0, 0)), ((0, 0), (0, 1))))
    found = netlist.problems(bad, pad_board.schematic(pads))
    assert any("cut away" in p for p in found) and any("share hole" in p for p in found)


def test_a_diode_turned_round_on_the_piezo_board_is_caught():
    board = piezo_board.layout()
    turned = tuple(replace(p, pins={"A": p.pins["K"], "K": p.pins["A"]}) if p.ref == "D2" else p for p in board.parts)
    found = netlist.problems(replace(board, parts=turned), piezo_board.schematic())
    assert any("3V3" in p and "A0" in p for p in found), found


def test_the_layout_follows_the_configured_pins():
    config = parse_config({"pads": {"pins": [{"black": 4, "white": 17, "gray": 27}, {"black": 5, "white": 6, "gray": 13}]}})
    board = pad_board.layout(config.pads)
    assert netlist.problems(board, pad_board.schematic(config.pads)) == []
    assert sum(1 for p in board.parts if p.kind == "socket") == 2


def test_the_guide_pictures_are_drawn_from_the_same_data(pads, tmp_path):
    png = draw.draw(pad_board.layout(pads), pad_board.schematic(pads), tmp_path / "pad.png")
    from PIL import Image

    with Image.open(png) as image:
        assert image.width > 1000 and image.height > 1000


def test_the_circuits_are_drawn_with_each_diode_and_type_the_guide_keeps_over_9_pt(tmp_path):
    pytest.importorskip("schemdraw", reason="the circuit drawings need schemdraw (the dev extra installs it)")
    from PIL import Image

    from hardware.boards import schematics

    for make in (schematics.piezo_channel, schematics.button_line, schematics.load_cell):
        png = make(tmp_path / f"{make.__name__}.png")
        with Image.open(png) as image:
            assert image.width / 150 <= schematics.MAX_WIDTH_IN      # 150 dpi: the width the 9 pt rule allows
