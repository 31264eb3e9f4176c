"""The circuits as schematics for the build guide, drawn with schemdraw from the same numbers as the boards.

Each diode is drawn as its symbol, so its direction (the bar is the cathode, the
band on the part) is on the page: on each piezo channel one diode points from GND
up to the analog pin, the other from the pin up to 3V3. The values come from
``hardware/wiring.py`` (pad lines) and ``piezo_board.py`` (channels), the pins
from the configuration. ``python -m hardware.boards.schematics OUT_DIR`` writes the PNGs.

Type: 12 pt in figures at most 9 inches wide, so the guide's full-width pictures
(174 mm) show it at 9 pt or more.
"""

from __future__ import annotations

import sys
from pathlib import Path

FONT_PT = 12
MAX_WIDTH_IN = 174 / 25.4 * FONT_PT / 9      # wider than this, the guide would shrink the type under 9 pt


def _drawing():
    import matplotlib

    matplotlib.use("Agg")
    import schemdraw

    schemdraw.use("matplotlib")
    return schemdraw.Drawing(show=False, fontsize=FONT_PT, unit=2.5)


def _save(d, path: Path) -> Path:
    fig = d.draw(show=False)
    width = fig.fig.get_size_inches()[0] if hasattr(fig, "fig") else None
    if width is not None and width > MAX_WIDTH_IN:
        raise ValueError(f"{path.name}: {width:.1f} in wide; the guide would set its type under 9 pt")
    path.parent.mkdir(parents=True, exist_ok=True)
    d.save(str(path), dpi=150)
    return path


def piezo_channel(path: Path, channel: int = 0) -> Path:
    import schemdraw.elements as elm

    from .piezo_board import ANALOG

    pin = ANALOG[channel]
    with _drawing() as d:
        d += elm.Ground()
        d += elm.Crystal().up().label(f"piezo {channel + 1}", loc="bottom")   # a piezo disc is drawn as a crystal
        d += (top := elm.Dot().label("red lead", loc="top"))
        d.push()
        d += elm.Line().left().length(2.5)
        d += elm.Resistor().down().label("1 MΩ", loc="bottom")
        d += elm.Ground()
        d.pop()
        d += elm.Resistor().right().at(top.center).label("10 kΩ")
        d += (node := elm.Dot())
        d += elm.Line().right().length(1.5)
        d += elm.Dot(open=True).label(f"{pin} (QT Py)", loc="right")
        d.here = node.center
        d += elm.Diode().up().label("1N5817\nband to 3V3", loc="bottom")
        d += elm.Vdd().label("3V3")
        d.here = node.center
        d += elm.Diode().down().reverse().label("1N5817\nband to the pin", loc="bottom")
        d += elm.Ground()
    return _save(d, path)


def button_line(path: Path) -> Path:
    import schemdraw.elements as elm

    from hardware.wiring import FILTER_NF, PULLUP_OHMS, SERIES_OHMS

    with _drawing() as d:
        d += elm.Ground()
        d += elm.Button().up().label("button\n(in the pad)", loc="bottom")
        d += elm.Line().right().length(1).label("pad cable", loc="top")
        d += elm.Dot().label("J pin 2-4", loc="bottom")
        d += elm.Resistor().right().label(f"{SERIES_OHMS / 1000:g} kΩ")
        d += (node := elm.Dot())
        d += elm.Line().right().length(2)
        d += elm.Dot(open=True).label("GPIO (ribbon)", loc="right")
        d.here = node.center
        d += elm.Resistor().up().label(f"{PULLUP_OHMS / 1000:g} kΩ", loc="bottom")
        d += elm.Vdd().label("3V3")
        d.here = node.center
        d += elm.Capacitor().down().label(f"{FILTER_NF:g} nF", loc="bottom")
        d += elm.Ground()
    return _save(d, path)


CELL_WIRES = (("red", "E+"), ("black", "E-"), ("green", "A+"), ("white", "A-"))


def load_cell(path: Path) -> Path:
    import schemdraw.elements as elm

    with _drawing() as d:
        adc = elm.Ic(pins=[elm.IcPin(name=p, side="left") for _, p in CELL_WIRES]
                     + [elm.IcPin(name=n, side="right") for n in ("QT", "QT ")],
                     edgepadW=2.5, edgepadH=1, pinspacing=1.5).label("NAU7802 breakout", loc="top")
        d += adc
        for (colour, pin_name) in CELL_WIRES:
            d += elm.Line().left().at(getattr(adc, pin_name)).length(2.5).label(f"cell {colour}", loc="top")
        d += elm.Line().right().at(adc.inR1).length(5).label("to the QT Py, 200 mm cable", loc="top")
        d += elm.Line().right().at(adc.inR2).length(5).label("to the VL53L0X, 500 mm cable", loc="top")
    return _save(d, path)


def main(argv: list[str] | None = None) -> int:
    out = Path((argv or sys.argv[1:] or ["docs/build/img"])[0])
    for made in (piezo_channel(out / "piezo_circuit.png"), button_line(out / "button_circuit.png"),
                 load_cell(out / "cell_circuit.png")):
        print(f"wrote {made}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
