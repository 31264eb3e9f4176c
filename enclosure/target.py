"""The Conflict Target as a printable sheet at true scale: SVG and PDF.

Both files come from one list of shapes built from the configuration's
geometry, so they always match the tray: the disc's cut line (it lies in the
tray's seat), the solid boundary ring, the dashed throwing line, the circle the
Heat stands in (the sensor sees nothing outside it) and a 100 mm bar to check
the printer's scale.

The PDF has the whole disc on one page of its own size (for a print shop or a
laser cutter) followed by A4 pages that tile it with 10 mm overlap, each with
crop marks and its row and column, for a home printer. The PDF is written by
hand (a few dozen lines) so no drawing library is needed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from hardware.config import GeometryConfig
from hardware.geometry import HEAT_ZONE_DICE

MM_TO_PT = 72 / 25.4
A4 = (210.0, 297.0)
TILE_MARGIN = 8.0      # printers do not print to the edge
TILE_OVERLAP = 10.0


@dataclass(frozen=True)
class Circle:
    r: float
    width: float            # stroke width in mm
    dash: tuple[float, float] | None = None
    role: str = ""


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    width: float
    role: str = ""


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    size: float             # cap height-ish, in mm
    text: str


STEM_HOLE_MM = 20.0   # the hole for the plinth's stem (stem_hole_d in scad/common.scad)


def disc_diameter(geometry: GeometryConfig) -> float:
    """The disc that lies in the tray's seat; the build passes it to OpenSCAD as target_disc_d."""
    return min(geometry.throw_line_mm + 30, geometry.tray_diameter_mm - 10)


def shapes(geometry: GeometryConfig) -> list[Circle | Line | Text]:
    """Everything on the sheet, centred on (0, 0), in millimetres, y up."""
    d = disc_diameter(geometry)
    zone_r = HEAT_ZONE_DICE * geometry.die_size_mm / 2
    items: list[Circle | Line | Text] = [
        Circle(d / 2, 0.3, role="cut line"),
        Circle(geometry.target_inner_mm / 2, 3.0, role="solid boundary"),
        Circle(geometry.throw_line_mm / 2, 1.2, dash=(8.0, 5.0), role="throwing line"),
        Circle(zone_r, 0.4, dash=(1.5, 1.5), role="Heat zone"),
        Circle(STEM_HOLE_MM / 2, 0.3, role="stem hole"),       # cut out: the plinth's stem passes through the disc here
        Line(-4, 0, 4, 0, 0.3, role="centre"),
        Line(0, -4, 0, 4, 0.3, role="centre"),
    ]
    # scale bar between the ring and the throwing line
    y = -(geometry.target_inner_mm / 2 + geometry.throw_line_mm / 2) / 2
    items += [
        Line(-50, y, 50, y, 0.5, role="scale bar"),
        Line(-50, y - 2, -50, y + 2, 0.5, role="scale bar"),
        Line(50, y - 2, 50, y + 2, 0.5, role="scale bar"),
        Text(-50, y + 3, 3.5, "100 mm: measure this bar to check the print scale"),
        Text(-50, -y, 5, "TABLE NOIR - CONFLICT TARGET"),
        Text(-50, -y - 7, 3.5, f"Heat of {geometry.die_size_mm:g} mm dice in the small circle; throw from outside the dashes"),
    ]
    return items


def write_svg(geometry: GeometryConfig, path: Path) -> Path:
    size = disc_diameter(geometry) + 10
    half = size / 2
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size:g}mm" height="{size:g}mm" '
        f'viewBox="{-half:g} {-half:g} {size:g} {size:g}">',
        "<title>Table Noir Conflict Target, true scale</title>",
    ]
    for item in shapes(geometry):
        if isinstance(item, Circle):
            dash = f' stroke-dasharray="{item.dash[0]:g} {item.dash[1]:g}"' if item.dash else ""
            out.append(f'<circle class="{item.role}" cx="0" cy="0" r="{item.r:g}" fill="none" stroke="black" '
                       f'stroke-width="{item.width:g}"{dash}/>')
        elif isinstance(item, Line):  # SVG's y points down
            out.append(f'<line class="{item.role}" x1="{item.x1:g}" y1="{-item.y1:g}" x2="{item.x2:g}" '
                       f'y2="{-item.y2:g}" stroke="black" stroke-width="{item.width:g}"/>')
        else:
            out.append(f'<text x="{item.x:g}" y="{-item.y:g}" font-family="Helvetica, Arial, sans-serif" '
                       f'font-size="{item.size * 1.4:g}">{_xml(item.text)}</text>')
    out.append("</svg>")
    path.write_text("\n".join(out) + "\n")
    return path


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# ---- PDF -------------------------------------------------------------------

def _circle_path(r: float) -> str:
    """A circle as four Bezier quarter arcs, PDF path operators, centre (0, 0)."""
    k = 0.5523 * r
    return (f"{r:.3f} 0 m {r:.3f} {k:.3f} {k:.3f} {r:.3f} 0 {r:.3f} c "
            f"{-k:.3f} {r:.3f} {-r:.3f} {k:.3f} {-r:.3f} 0 c "
            f"{-r:.3f} {-k:.3f} {-k:.3f} {-r:.3f} 0 {-r:.3f} c "
            f"{k:.3f} {-r:.3f} {r:.3f} {-k:.3f} {r:.3f} 0 c S")


def _pdf_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _drawing(geometry: GeometryConfig) -> list[str]:
    """Content-stream operators for the sheet in mm, centre at (0, 0)."""
    ops = []
    for item in shapes(geometry):
        if isinstance(item, Circle):
            dash = f"[{item.dash[0]:g} {item.dash[1]:g}] 0 d" if item.dash else "[] 0 d"
            ops.append(f"{item.width:g} w {dash} {_circle_path(item.r)}")
        elif isinstance(item, Line):
            ops.append(f"{item.width:g} w [] 0 d {item.x1:g} {item.y1:g} m {item.x2:g} {item.y2:g} l S")
        else:
            ops.append(f"BT /F1 {item.size * 1.4:g} Tf {item.x:g} {item.y:g} Td ({_pdf_text(item.text)}) Tj ET")
    return ops


def _page(width: float, height: float, body: list[str]) -> tuple[tuple[float, float], str]:
    scale = f"{MM_TO_PT:.6f} 0 0 {MM_TO_PT:.6f} 0 0 cm"
    return (width, height), "\n".join(["q", scale, *body, "Q"])


def tiles(geometry: GeometryConfig, page: tuple[float, float] = A4) -> list[tuple[int, int, float, float]]:
    """(row, column, left, bottom) of each A4 page's printable window over the sheet, in sheet mm."""
    size = disc_diameter(geometry) + 10
    win_w, win_h = page[0] - 2 * TILE_MARGIN, page[1] - 2 * TILE_MARGIN
    cols = max(1, math.ceil((size - TILE_OVERLAP) / (win_w - TILE_OVERLAP)))
    rows = max(1, math.ceil((size - TILE_OVERLAP) / (win_h - TILE_OVERLAP)))
    out = []
    for row in range(rows):
        for col in range(cols):
            left = -size / 2 + col * (win_w - TILE_OVERLAP)
            top = size / 2 - row * (win_h - TILE_OVERLAP)
            out.append((row + 1, col + 1, left, top - win_h))
    return out


def write_pdf(geometry: GeometryConfig, path: Path) -> Path:
    drawing = _drawing(geometry)
    size = disc_diameter(geometry) + 10
    pages = [_page(size, size, [f"1 0 0 1 {size / 2:g} {size / 2:g} cm", *drawing])]
    win_w, win_h = A4[0] - 2 * TILE_MARGIN, A4[1] - 2 * TILE_MARGIN
    for row, col, left, bottom in tiles(geometry):
        crop = []
        for x, y in ((0, 0), (win_w, 0), (0, win_h), (win_w, win_h)):   # crop marks at the window corners
            cx, cy = TILE_MARGIN + x, TILE_MARGIN + y
            crop.append(f"0.2 w [] 0 d {cx - 4:g} {cy:g} m {cx + 4:g} {cy:g} l S {cx:g} {cy - 4:g} m {cx:g} {cy + 4:g} l S")
        label = f"BT /F1 3 Tf {TILE_MARGIN:g} 3 Td (Conflict Target: row {row}, column {col}; pages overlap by {TILE_OVERLAP:g} mm) Tj ET"
        body = [*crop, label,
                f"{TILE_MARGIN:g} {TILE_MARGIN:g} {win_w:g} {win_h:g} re W n",       # clip to the window
                f"1 0 0 1 {TILE_MARGIN - left:g} {TILE_MARGIN - bottom:g} cm", *drawing]
        pages.append(_page(*A4, body))
    path.write_bytes(_pdf_bytes(pages))
    return path


def _pdf_bytes(pages: list[tuple[tuple[float, float], str]]) -> bytes:
    objects: list[bytes] = []
    n = len(pages)
    page_ids = [4 + 2 * i for i in range(n)]
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{' '.join(f'{p} 0 R' for p in page_ids)}] /Count {n} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for (w, h), content in pages:
        stream = content.encode("latin-1")
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w * MM_TO_PT:.2f} {h * MM_TO_PT:.2f}] "
                       f"/Resources << /Font << /F1 3 0 R >> >> /Contents {len(objects) + 2} 0 R >>".encode())
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)
