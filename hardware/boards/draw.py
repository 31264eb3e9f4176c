"""A board's layout as a picture for the build guide, drawn from the same data the netlist test checks.

Seen from the component side: copper strips in pale copper, holes as dots, a
red bar where the copper is cut between two holes, a red cross on a spot-faced
hole, insulated wire links in blue, parts as bodies between their pins (a
diode's grey band marks its cathode, K), and each strip's net named in the right
margin. ``python -m hardware.boards.draw OUT_DIR`` writes every board's PNG.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from .netlist import Hole, Layout, Schematic, net_names

PITCH = 40                 # pixels per 2.54 mm
FONT_PX = 36               # at the guide's full page width (174 mm for the pad board's 49 pitches) this is 9 pt
MARGIN = 2                 # pitches around the board
LABELS = 9                 # pitches of margin on the right for the nets' names
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
COPPER, HOLE, CUT, WIRE = (236, 196, 150), (70, 60, 50), (210, 30, 30), (40, 90, 200)
BODY = {"resistor": (222, 196, 140), "capacitor": (240, 200, 60), "diode": (30, 30, 30),
        "header": (60, 60, 60), "socket": (245, 245, 245), "pads": (255, 255, 255)}


def _font(px: int = FONT_PX) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT), px) if FONT.exists() else ImageFont.load_default()


def _xy(hole: Hole) -> tuple[float, float]:
    return ((hole[0] + MARGIN + 0.5) * PITCH, (hole[1] + MARGIN + 0.5) * PITCH)


def draw(layout: Layout, schematic: Schematic, path: Path, title: str = "") -> Path:
    stock = layout.stock
    size = (max(stock.columns + 2 * MARGIN + LABELS, 36) * PITCH, (stock.rows + 2 * MARGIN + 2) * PITCH)
    image = Image.new("RGB", size, "white")
    pen = ImageDraw.Draw(image)
    font = small = _font()
    pen.text((MARGIN * PITCH, PITCH // 2), title or f"{layout.name}: {stock.name}, component side", fill="black", font=font)
    board = (_xy((0, 0))[0] - PITCH / 2, _xy((0, 0))[1] - PITCH / 2,
             _xy((stock.columns - 1, stock.rows - 1))[0] + PITCH / 2, _xy((stock.columns - 1, stock.rows - 1))[1] + PITCH / 2)
    pen.rectangle(board, fill=(250, 246, 235), outline="black", width=2)
    broken = layout.broken()
    for link in stock.copper - broken:
        a, b = sorted(link)
        pen.line([_xy(a), _xy(b)], fill=COPPER, width=int(PITCH * 0.7))
    for hole in stock.holes():
        x, y = _xy(hole)
        pen.ellipse((x - 4, y - 4, x + 4, y + 4), fill=HOLE)
    for a, b in layout.cuts:
        (xa, ya), (xb, yb) = _xy(a), _xy(b)
        mx, my = (xa + xb) / 2, (ya + yb) / 2
        dx, dy = (0, PITCH * 0.4) if ya == yb else (PITCH * 0.4, 0)
        pen.line([(mx - dx, my - dy), (mx + dx, my + dy)], fill=CUT, width=5)
    for hole in layout.spots:
        x, y = _xy(hole)
        r = PITCH * 0.3
        pen.line([(x - r, y - r), (x + r, y + r)], fill=CUT, width=5)
        pen.line([(x - r, y + r), (x + r, y - r)], fill=CUT, width=5)
    for part in layout.parts:
        _part(pen, part, small)
    for a, b in layout.wires:
        pen.line([_xy(a), _xy(b)], fill=WIRE, width=4)
        for end in (a, b):
            x, y = _xy(end)
            pen.ellipse((x - 7, y - 7, x + 7, y + 7), fill=WIRE)
    names = net_names(layout, schematic)
    right = _xy((stock.columns - 1, 0))[0] + PITCH
    for row in range(stock.rows):
        name = names.get((stock.columns - 1, row))
        if name:
            pen.text((right, _xy((0, row))[1] - FONT_PX / 2 - 2), name, fill="black", font=small)
    values = sorted({f"{p.kind} {p.value}" for p in layout.parts if p.kind in ("resistor", "capacitor", "diode")})
    legend = ("beige: resistors, yellow: capacitors, black: diodes (grey band = cathode, K)\n"
              "blue: wire links, red: cuts") if values else ""
    pen.multiline_text((MARGIN * PITCH, size[1] - PITCH * 2), legend, fill="black", font=small)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)
    return path


def _part(pen: ImageDraw.ImageDraw, part, font) -> None:
    holes = list(part.pins.values())
    xs, ys = [_xy(h)[0] for h in holes], [_xy(h)[1] for h in holes]
    colour = BODY.get(part.kind, (200, 200, 200))
    if part.kind in ("resistor", "capacitor", "diode") and len(holes) == 2:
        (x0, y0), (x1, y1) = _xy(holes[0]), _xy(holes[1])
        pen.line([(x0, y0), (x1, y1)], fill=(120, 120, 120), width=3)
        vertical = x0 == x1
        half = PITCH * (0.28 if vertical and abs(y1 - y0) <= PITCH else 0.32)
        length = max(abs(x1 - x0), abs(y1 - y0))
        inset = min(PITCH * 0.25, length * 0.2)
        if vertical:
            box = (x0 - half, min(y0, y1) + inset, x0 + half, max(y0, y1) - inset)
        else:
            box = (min(x0, x1) + inset, y0 - half, max(x0, x1) - inset, y0 + half)
        pen.rectangle(box, fill=colour, outline="black", width=2)
        if part.kind == "diode":
            kx, ky = _xy(part.pins["K"])
            band = PITCH * 0.12
            if vertical:
                by = box[1] + band if ky < y0 or ky < y1 and ky == min(y0, y1) else box[3] - band
                by = box[1] + band if ky == min(y0, y1) else box[3] - 2 * band
                pen.rectangle((box[0], by, box[2], by + band), fill=(200, 200, 200))
            else:
                bx = box[0] + band if kx == min(x0, x1) else box[2] - 2 * band
                pen.rectangle((bx, box[1], bx + band, box[3]), fill=(200, 200, 200))
        if not vertical and length > 2 * PITCH:
            pen.text((box[2] + 4, (box[1] + box[3]) / 2 - FONT_PX / 2), f"{part.ref} {part.value}", fill="black", font=font)
        elif vertical and length >= 2 * PITCH:     # the designator along the body, in white on the dark band
            pen.text((x0, (box[1] + box[3]) / 2), part.ref, fill="white" if part.kind == "diode" else "black",
                     font=_font(FONT_PX - 12), anchor="mm")
    else:
        box = (min(xs) - PITCH * 0.45, min(ys) - PITCH * 0.45, max(xs) + PITCH * 0.45, max(ys) + PITCH * 0.45)
        if part.kind == "pads":
            for name, hole in part.pins.items():
                x, y = _xy(hole)
                pen.ellipse((x - 10, y - 10, x + 10, y + 10), outline="black", width=3)
                if len(name) == 1:          # + and -; longer names are the strip's net, named in the margin
                    pen.text((x + 12, y - FONT_PX / 2), name, fill="black", font=font)
            return
        pen.rectangle(box, outline="black", width=4)
        first = next(iter(part.pins.values()))
        x, y = _xy(first)
        pen.rectangle((x - 9, y - 9, x + 9, y + 9), outline=CUT, width=4)   # pin 1
        label = f"{part.ref}" + (f" {part.value}" if part.kind == "socket" else "")
        pen.text((box[2] + 4, box[1]), label, fill="black", font=font)


def main(argv: list[str] | None = None) -> int:
    from hardware.config import DEFAULTS, load_config

    from . import pad_board, piezo_board

    out = Path((argv or sys.argv[1:] or ["docs/build/img"])[0])
    pads = load_config(DEFAULTS).pads
    draw(pad_board.layout(pads), pad_board.schematic(pads), out / "pad_board_layout.png")
    draw(piezo_board.layout(), piezo_board.schematic(), out / "piezo_board_layout.png")
    print(f"wrote {out}/pad_board_layout.png and piezo_board_layout.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
