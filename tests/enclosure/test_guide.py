"""The build guide is generated from the repo and says what a maker needs, in order."""

import re

import pytest

from enclosure import guide
from hardware import wiring


@pytest.fixture(scope="module")
def page(config):
    return guide.to_markdown(guide.blocks(config))


def test_the_committed_guide_is_the_generated_one(page):
    assert guide.MARKDOWN.read_text() == page, "docs/build/guide.md is out of date: run  python -m enclosure.guide"


def test_every_picture_in_the_guide_exists(page, config):
    names = re.findall(r"\]\(img/(\w+)\.png\)", page)
    assert len(names) >= 6
    assert all((guide.IMG / f"{n}.png").exists() for n in names)
    assert set(names) == {p[0] for p in guide.PICTURES + guide.COLOUR_PICTURES} | set(guide.BOARD_PICTURES) \
        | set(guide.harness_pictures(config))


def test_each_printed_part_has_settings_a_slicer_time_and_filament(page, config):
    from enclosure.bom import PRINTED_IN
    times = guide.print_times()
    for name in PRINTED_IN:
        assert times[name]["minutes"] > 0 and times[name]["grams"] > 0, name
        row = next(line for line in page.splitlines() if line.startswith(f"| `{name}` |"))
        assert " min |" in row and " g |" in row


def test_the_wiring_of_every_pad_socket_is_in_the_guide(page, config):
    for line in wiring.connector_table(config.pads).splitlines()[2:]:
        assert line in page
    assert wiring.line_diagram() in page


def test_the_sensing_is_bench_tested_before_anything_is_glued(page):
    bench = page.index("table-noir hardware bench")
    assert bench < page.index("Only then glue")
    earlier = page[:bench]
    assert "do not glue" in earlier.lower()
    assert not re.search(r"(?<!not )\bglue (the|it|them)\b|CA glue in", earlier)


def test_there_is_a_first_power_on_checklist(page):
    checklist = page[page.index("## First power-on checklist"):]
    assert "5 V" in checklist and "hardware monitor" in checklist and "measure_temp" in checklist


def test_the_pdf_is_made_from_the_same_blocks(config, tmp_path):
    pytest.importorskip("reportlab", reason="the PDF needs reportlab (the dev extra installs it)")
    pdf = guide.to_pdf(guide.blocks(config), tmp_path / "guide.pdf")
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type /Page\b", data)) >= 6
    assert data.count(b"/Subtype /Image") >= len(guide.PICTURES)


def test_no_type_in_the_pdf_is_smaller_than_9_pt(config, tmp_path):
    # Before issue 32 the wiring drawings were set in 6.3 pt and the tables in 7.5 pt.
    pytest.importorskip("reportlab", reason="the PDF needs reportlab (the dev extra installs it)")
    import base64
    import zlib

    data = guide.to_pdf(guide.blocks(config), tmp_path / "guide.pdf").read_bytes()
    sizes = []
    for match in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
        raw = match.group(1).strip()
        try:
            raw = zlib.decompress(base64.a85decode(raw[:-2]) if raw.endswith(b"~>") else raw)
        except (zlib.error, ValueError):
            continue
        sizes += [float(s) for s in re.findall(rb"/F[\w+]+ ([\d.]+) Tf", raw)]
    assert sizes and min(sizes) >= 9, sorted(set(sizes))
