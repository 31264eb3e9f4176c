"""The Conflict Target sheet: true scale, the configured rings, printable at home."""

import re
import xml.etree.ElementTree as ET

import pytest

from enclosure import target
from hardware.config import parse_config

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def geometry(config):
    return config.geometry


def circles(path):
    root = ET.parse(path).getroot()
    return {c.get("class"): c for c in root.iter(f"{SVG}circle")}, root


def test_svg_is_true_scale_with_the_configured_rings(geometry, tmp_path):
    found, root = circles(target.write_svg(geometry, tmp_path / "t.svg"))
    size = target.disc_diameter(geometry) + 10
    assert root.get("width") == f"{size:g}mm" and root.get("viewBox").split()[2] == f"{size:g}"   # 1 unit = 1 mm
    assert float(found["solid boundary"].get("r")) == geometry.target_inner_mm / 2
    assert float(found["throwing line"].get("r")) == geometry.throw_line_mm / 2
    assert found["throwing line"].get("stroke-dasharray")                  # the throwing line is dashed
    assert not found["solid boundary"].get("stroke-dasharray")             # the boundary is solid
    assert float(found["Heat zone"].get("r")) == 3 * geometry.die_size_mm / 2
    assert float(found["cut line"].get("r")) == target.disc_diameter(geometry) / 2


def test_rings_follow_the_configuration(tmp_path):
    g = parse_config({"geometry": {"target_inner_mm": 100.0, "throw_line_mm": 260.0}}).geometry
    found, _ = circles(target.write_svg(g, tmp_path / "t.svg"))
    assert float(found["solid boundary"].get("r")) == 50.0
    assert float(found["throwing line"].get("r")) == 130.0


def test_pdf_has_a_full_size_page_then_a4_tiles(geometry, tmp_path):
    data = target.write_pdf(geometry, tmp_path / "t.pdf").read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    boxes = [tuple(map(float, m)) for m in re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)]
    size_pt = (target.disc_diameter(geometry) + 10) * 72 / 25.4
    assert boxes[0] == pytest.approx((size_pt, size_pt), abs=0.01)
    a4 = (210 * 72 / 25.4, 297 * 72 / 25.4)
    assert all(b == pytest.approx(a4, abs=0.01) for b in boxes[1:])
    assert len(boxes) == 1 + len(target.tiles(geometry))
    assert int(re.search(rb"/Count (\d+)", data).group(1)) == len(boxes)


def test_pdf_cross_reference_points_at_every_object(geometry, tmp_path):
    data = target.write_pdf(geometry, tmp_path / "t.pdf").read_bytes()
    start = int(data.rsplit(b"startxref", 1)[1].split()[0])
    assert data[start:start + 4] == b"xref"
    rows = data[start:].split(b"\n")[3:]
    offsets = [int(r.split()[0]) for r in rows if r.endswith(b" n ")]
    for number, offset in enumerate(offsets, start=1):
        assert data[offset:].startswith(b"%d 0 obj" % number)


def test_a4_tiles_cover_the_whole_sheet_with_overlap(geometry):
    size = target.disc_diameter(geometry) + 10
    win_w, win_h = 210 - 2 * target.TILE_MARGIN, 297 - 2 * target.TILE_MARGIN
    windows = [(left, bottom, left + win_w, bottom + win_h) for _, _, left, bottom in target.tiles(geometry)]
    steps = 40
    for i in range(steps + 1):
        for j in range(steps + 1):
            x, y = -size / 2 + size * i / steps, -size / 2 + size * j / steps
            assert any(l <= x <= r and b <= y <= t for l, b, r, t in windows), (x, y)
    # neighbouring pages share a strip to line them up by
    lefts = sorted({w[0] for w in windows})
    assert all(b - a == pytest.approx(win_w - target.TILE_OVERLAP) for a, b in zip(lefts, lefts[1:]))
