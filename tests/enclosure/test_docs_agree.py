"""The guide, the READMEs and the bill of materials name the same parts and the same steps.

Before issue 32: firmware/README.md named a BAT54S where the BOM and guide use 1N5817 diodes;
docs/deploy.md turned the screen with --rotate 90 (a Touch Display 2) in every command while the
BOM and the case are for the first 7-inch display, and named no Pi 5 display connector; the guide's
checklist ran `table-noir hardware monitor` on the Pi while the kiosk held the pins and the port,
and by a name that is not on the PATH there.
"""

import re

import pytest

from enclosure import bom
from enclosure.bom import ROOT

DOCS = {
    "guide": ROOT / "docs" / "build" / "guide.md",
    "hardware README": ROOT / "hardware" / "README.md",
    "firmware README": ROOT / "firmware" / "README.md",
    "deploy": ROOT / "docs" / "deploy.md",
}


@pytest.fixture(scope="module")
def text():
    return {name: path.read_text() for name, path in DOCS.items()}


@pytest.fixture(scope="module")
def parts():
    return {p.id: p for p in bom.load_bom().part}


# What each BOM line is called in prose: the docs that describe that part must use the same word.
NAMED = {
    "piezo_clamp": ("1N5817", ("guide", "hardware README", "firmware README")),
    "mcu": ("QT Py", ("guide", "hardware README", "firmware README")),
    "tof": ("VL53L0X", ("guide", "hardware README", "firmware README")),
    "load_cell": ("load cell", ("guide", "hardware README")),
    "cell_adc": ("NAU7802", ("guide", "hardware README")),
    "pad_board": ("stripboard", ("guide", "hardware README")),
}


@pytest.mark.parametrize("part_id", NAMED)
def test_each_part_has_one_name_across_the_documents(part_id, parts, text):
    word, where = NAMED[part_id]
    assert word.lower() in parts[part_id].name.lower()
    missing = [doc for doc in where if word.lower() not in text[doc].lower()]
    assert missing == [], f"{word} is not named in {missing}"


def test_no_document_names_a_part_the_bom_replaced(text):
    for gone in ("BAT54", "perfboard"):
        assert [doc for doc, t in text.items() if gone in t] == [], gone
    # the Perma-Proto is named only to warn against it
    for doc, t in text.items():
        for sentence in re.split(r"(?<=[.:;])\s", t):
            if "Perma-Proto" in sentence:
                assert "not" in sentence or "would" in sentence, (doc, sentence)


def test_deploy_commands_match_the_display_the_bom_buys(parts, text):
    assert "first edition" in parts["display"].name
    commands = "\n".join(re.findall(r"```sh\n(.*?)```", text["deploy"], re.S))
    assert "--rotate 90" not in commands
    assert "CAM/DISP 1" in text["deploy"]


def test_on_the_pi_the_kiosk_is_stopped_before_the_hardware_is_watched(text):
    checklist = text["guide"][text["guide"].index("## First power-on checklist"):]
    stop, monitor = checklist.index("systemctl stop table-noir-kiosk"), checklist.index("hardware monitor")
    assert stop < monitor and ".venv/bin/table-noir hardware monitor" in checklist
    assert "systemctl start table-noir-kiosk" in checklist
