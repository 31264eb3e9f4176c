"""The cables as harness diagrams for the build guide, drawn with WireViz from ``hardware/wiring.py``'s data.

``hardware.wiring.harnesses`` says what each cable joins (the pad cables come from
the same ``pad_board_lines`` as the pin map and the socket table); this module only
turns that into WireViz's input (connectors, cables, connections) and renders a PNG
and an SVG per harness. WireViz needs Graphviz's ``dot`` on the PATH (scripts/bootstrap.sh
installs it). ``python -m hardware.boards.harnesses OUT_DIR`` writes them.

Type: WireViz sets 14 pt; a picture wider than the guide's 174 mm (or taller than its
200 mm) at 14/9 of that would be shrunk under 9 pt, so ``render`` refuses it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from hardware.wiring import Harness

FONT_PT = 14                            # Graphviz's default in WireViz's tables
MAX_WIDTH_PT = 174 / 25.4 * 72 * FONT_PT / 9
MAX_HEIGHT_PT = 200 / 25.4 * 72 * FONT_PT / 9     # the guide fits a wide picture in 174 x 200 mm


def wireviz_input(harness: Harness) -> dict:
    """WireViz's YAML structure (as a dict) for one harness."""
    connectors = {end.name: {"type": end.kind, **({"pinlabels": list(end.pins)} if end.show_pins else {"pincount": len(end.pins)})}
                  for end in harness.ends}
    cables: dict[str, dict] = {}
    connections = []
    ends = {end.name: end for end in harness.ends}
    for run in harness.cables:
        cable: dict = {"wirecount": len(run.wires)}
        if all(w.colour for w in run.wires):
            cable["colors"] = [w.colour for w in run.wires]
        if run.length_mm:
            cable["length"] = f"{run.length_mm} mm"
        cables[run.label] = cable
        connections.append([
            {run.a: [ends[run.a].pins.index(w.a_pin) + 1 for w in run.wires]},
            {run.label: list(range(1, len(run.wires) + 1))},
            {run.b: [ends[run.b].pins.index(w.b_pin) + 1 for w in run.wires]},
        ])
    return {"options": {"fontname": "DejaVu Sans"}, "connectors": connectors, "cables": cables,
            "connections": connections}


def _size_pt(svg: str, what: str) -> float:
    match = re.search(rf'<svg[^>]*\b{what}="([\d.]+)pt"', svg)
    return float(match.group(1)) if match else 0.0


def render(harness: Harness, out: Path) -> Path:
    """Write OUT/<name>.png (for the guide, at 150 dpi) and .svg; the PNG's path.

    WireViz lays its graph out 2 inches between columns; 0.6 inch keeps the wires
    readable and the picture narrow. Refuses a diagram too wide for 9 pt type in the guide.
    """
    from wireviz import wireviz  # type: ignore[import-untyped]  # WireViz ships no type information

    out.mkdir(parents=True, exist_ok=True)
    graph = wireviz.parse(wireviz_input(harness), return_types="harness").graph
    graph.attr(ranksep="0.6")
    svg = graph.pipe(format="svg").decode("utf-8")
    width, height = _size_pt(svg, "width"), _size_pt(svg, "height")
    if width > MAX_WIDTH_PT or height > MAX_HEIGHT_PT:
        raise ValueError(f"{harness.name}: {width:.0f} x {height:.0f} pt; the guide would set its type under 9 pt")
    (out / f"{harness.name}.svg").write_text(svg)
    graph.attr(dpi="150")
    png = out / f"{harness.name}.png"
    png.write_bytes(graph.pipe(format="png"))
    return png


def main(argv: list[str] | None = None) -> int:
    from hardware.config import DEFAULTS, load_config
    from hardware.wiring import harnesses

    out = Path((argv or sys.argv[1:] or ["."])[0])
    for harness in harnesses(load_config(DEFAULTS).pads):
        print(render(harness, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
