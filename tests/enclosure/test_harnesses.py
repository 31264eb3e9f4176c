"""The harness diagrams (WireViz, from hardware/wiring.py's data) show every wire the wiring tables list."""

import dataclasses
import html
import re

import pytest

from enclosure import guide
from hardware import wiring
from hardware.boards import harnesses
from hardware.boards.piezo_board import ANALOG


def _text(svg: str) -> str:
    """The words on the drawing (the SVG's text elements, unescaped)."""
    return "\n".join(html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg))


def _drawn(harness, tmp_path) -> str:
    harnesses.render(harness, tmp_path)
    return _text((tmp_path / f"{harness.name}.svg").read_text())


def missing_pad_wires(text: str, config) -> list[str]:
    """The pad socket table's wires (ground, Black, White, Gray of each pad) the drawing does not name."""
    wanted = [f"{line.socket}:{line.socket_pin}:{line.colour.capitalize()} GPIO{line.gpio}"
              for line in wiring.pad_board_lines(config.pads)]
    wanted += [f"J{w.pad}:1:GND" for w in wiring.wire(config.pads)]
    return [label for label in wanted if label not in text]


def _pads_drawn(harnesses_, tmp_path) -> str:
    return "\n".join(_drawn(h, tmp_path) for h in harnesses_)


def test_every_pad_wire_of_the_socket_table_is_drawn(config, tmp_path):
    text = _pads_drawn(wiring.pad_harnesses(config.pads), tmp_path)
    assert missing_pad_wires(text, config) == []
    assert len(wiring.pad_board_lines(config.pads)) == 18


def test_a_dropped_pad_wire_is_caught(config, tmp_path):
    first, *others = wiring.pad_harnesses(config.pads)
    cable = first.cables[0]
    shorter = dataclasses.replace(first, cables=(dataclasses.replace(cable, wires=cable.wires[:-1]),))
    text = _pads_drawn([shorter, *others], tmp_path)
    assert missing_pad_wires(text, config) == [f"J1:4:Gray GPIO{config.pads.pins[0].gray}"]


def test_the_tray_cables_name_each_wire(config, tmp_path):
    drawn = {h.name: _drawn(h, tmp_path) for h in wiring.harnesses(config.pads)}
    for pin in ANALOG:                                    # each piezo: red to its channel, black to GND
        assert f"{pin}:1:{pin}" in drawn["harness_piezos"] and f"{pin}:2:GND" in drawn["harness_piezos"]
    for n, (colour, _, pad) in enumerate(wiring.CELL_WIRES, start=1):
        assert f"{n}:{colour}" in drawn["harness_cell"] and f"NAU7802:{n}:{pad}" in drawn["harness_cell"]
    ends = {"harness_qt_adc": "NAU7802", "harness_qt_long": "join", "harness_qt_short": "VL53L0X"}
    for name, end in ends.items():
        for n, (colour, signal) in enumerate(wiring.QWIIC, start=1):
            assert f"{n}:{colour}" in drawn[name] and f"{end}:{n}:{signal}" in drawn[name], (name, signal)
    assert re.search(r"\b200(\.0)? mm", drawn["harness_qt_adc"]) and re.search(r"\b500(\.0)? mm", drawn["harness_qt_long"])


def test_every_harness_is_a_picture_in_the_guide(config):
    names = [h.name for h in wiring.harnesses(config.pads)]
    assert names == guide.harness_pictures(config) and len(names) == len(config.pads.pins) + 6
    page = guide.to_markdown(guide.blocks(config))
    for name in names:
        assert f"](img/{name}.png)" in page


def test_a_harness_too_wide_for_9_pt_is_refused(config, tmp_path):
    wide = wiring.Harness("wide", "wide", (wiring.End("a" * 90, "x", ("1",)), wiring.End("b" * 90, "x", ("1",))),
                          (wiring.CableRun("c", 0, "a" * 90, "b" * 90, (wiring.Wire("", "1", "1"),)),))
    with pytest.raises(ValueError, match="under 9 pt"):
        harnesses.render(wide, tmp_path)
