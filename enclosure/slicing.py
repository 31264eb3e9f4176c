"""Slice every printed part with PrusaSlicer and record its print time and filament.

    python -m enclosure.slicing [--out DIR] [--only PART ...]

Writes ``docs/build/print_times.toml``: for each printed part the slicer's
estimated time and filament mass at the build guide's print settings, and the
slicer's version (``--only`` slices the named parts again and keeps the others'
lines). The build guide reads that file, so the guide's times are a
slicer's, not guesses. Needs ``prusa-slicer`` on the PATH (Debian: ``apt-get
install prusa-slicer``); the guide itself and the tests only read the file.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from hardware.config import load_config

from .bom import ROOT, load_bom

TIMES = ROOT / "docs" / "build" / "print_times.toml"
BED = (220, 220)

# The guide's print settings, as PrusaSlicer options. Everything not named is the slicer's default.
SETTINGS = {
    "layer_height": "0.2", "first_layer_height": "0.2", "perimeters": "3", "top_solid_layers": "5",
    "bottom_solid_layers": "5", "fill_pattern": "gyroid", "nozzle_diameter": "0.4",
    # supports on auto, as a maker's slicer would leave them: a part that needs none gets none,
    # and the grams it does get are counted (support_grams) and held to zero by the tests
    "support_material": "1", "support_material_auto": "1", "support_material_threshold": "0",
    "use_relative_e_distances": "1",
    "filament_diameter": "1.75", "filament_density": "1.24", "bed_shape": "0x0,220x0,220x220,0x220",
    "max_print_height": "250",
}


# Support a part may still get from the slicer with supports on auto, in grams, and why. Measured with
# PrusaSlicer 2.5.0 (issue 32): these parts are NOT yet fixed. Fixed so far: the screen shell's cheek holes
# and the arm's horizontal holes are teardrops (scad teardrop2d), the post's sockets and the tray's wire channels have 45-degree roofs,
# and screw recesses open to the bed are closed by a drilled-out skin (scad bed_recess). Each limit is
# what the slicer adds today, so the check fails if it grows; fixing a part means lowering its line to 0
# (or deleting it). What the slicer supports is mostly hole crowns and bridges the geometric check accepts.
SUPPORT_EXCEPTIONS: dict[str, tuple[float, str]] = {
    "tray_quarter_mcu": (2.4, "not yet fixed: the USB exit's mouth under the rim, the load cell well's ceiling round the stem's hole, where roofed channels meet"),
    "arm_boom": (3.1, "not yet fixed: the join bay and the groove's ends"),
    "pad_body": (8.6, "not yet fixed: the touch marks' back faces (1.2 mm, flat when the body lies on its back; a taper steep enough for the slicer blurs the three shapes test_parts tells apart) and the front wall's bridges between the ribs and the corner posts; the button and wire holes are teardrops"),
}


def support_problems(times: dict[str, dict]) -> list[str]:
    """Parts the slicer gives more support than zero or than their declared exception."""
    found = []
    for name, entry in times.items():
        if not isinstance(entry, dict):
            continue
        allowed, why = SUPPORT_EXCEPTIONS.get(name, (0.0, ""))
        got = entry.get("support_grams")
        if got is None:
            found.append(f"{name}: no support figure recorded (run python -m enclosure.slicing with prusa-slicer)")
        elif got > allowed + 0.05:
            found.append(f"{name}: the slicer adds {got:g} g of support with supports on auto (allowed {allowed:g} g"
                         + (f": {why})" if why else ")"))
    return found


def _minutes(text: str) -> float:
    """'1d 2h 3m 4s' -> minutes."""
    units = {"d": 1440, "h": 60, "m": 1, "s": 1 / 60}
    return sum(float(n) * units[u] for n, u in re.findall(r"(\d+)([dhms])", text))


def support_grams(gcode: str, filament_mm: float = 1.75, density: float = 1.24) -> float:
    """Grams of filament the G-code lays as support material (relative E: each move's E is what it adds)."""
    area = 3.14159265 * (filament_mm / 2) ** 2
    extruded, in_support = 0.0, False
    for line in gcode.splitlines():
        if line.startswith(";TYPE:"):
            in_support = line.startswith(";TYPE:Support material")
        elif in_support and line.startswith("G1") and " E" in line:
            value = float(line.split(" E", 1)[1].split()[0])
            if value > 0:
                extruded += value
    return extruded * area * density / 1000


def slice_part(exe: str, stl: Path, infill: float, brim: bool, work: Path) -> tuple[float, float, str, float]:
    """(minutes, grams, the slicer's name and version, grams of support) for one STL as it lies."""
    ini = work / "settings.ini"
    values = dict(SETTINGS, fill_density=f"{round(infill * 100)}%", brim_width="5" if brim else "0")
    ini.write_text("".join(f"{k} = {v}\n" for k, v in values.items()))
    gcode = work / f"{stl.stem}.gcode"
    result = subprocess.run([exe, "--export-gcode", "--load", str(ini), "--center", f"{BED[0] / 2},{BED[1] / 2}",
                             str(stl), "-o", str(gcode)], capture_output=True, text=True)
    if result.returncode != 0 or not gcode.exists():
        raise RuntimeError(f"{stl.name}: the slicer failed: {(result.stderr or result.stdout).strip()[-300:]}")
    text = gcode.read_text(errors="replace")
    time = re.search(r"estimated printing time \(normal mode\) = (.+)", text)
    grams = re.search(r"; total filament used \[g\] = ([\d.]+)", text)
    if not time or not grams:
        raise RuntimeError(f"{stl.name}: no time or filament in the slicer's G-code")
    made_by = re.match(r"; generated by (\S+ \S+)", text)
    return (_minutes(time.group(1)), float(grams.group(1)), made_by.group(1) if made_by else "PrusaSlicer",
            support_grams(text))


def _toml(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m enclosure.slicing", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "enclosure" / "out", help="where the STL files go")
    parser.add_argument("--only", nargs="+", metavar="PART", help="slice these parts again; keep the file's other parts")
    args = parser.parse_args(argv)
    exe = shutil.which("prusa-slicer")
    if exe is None:
        print("slicing: prusa-slicer is not installed (`sudo apt-get install prusa-slicer`)", file=sys.stderr)
        return 1
    from .bom import build_for_bom
    bom = load_bom()
    manifest, _ = build_for_bom(load_config(ROOT / "hardware" / "table-noir.toml"), args.out)
    lines = ["# Written by python -m enclosure.slicing: the slicer's estimate for each printed part,",
             "# at the print settings in docs/build/ (0.2 mm layers, 3 perimeters, gyroid infill), supports on auto.",
             ""]
    version = "PrusaSlicer"
    kept = tomllib.loads(TIMES.read_text()) if args.only and TIMES.exists() else {}
    with tempfile.TemporaryDirectory() as tmp:
        for item in (i for i in manifest if i["printed"]):
            if args.only and item["name"] not in args.only and item["name"] in kept:
                old = kept[item["name"]]
                lines += [f"[{item['name']}]", f"count = {item['count']}"] + [f"{k} = {_toml(v)}" for k, v in old.items() if k != "count"] + [""]
                continue
            infill = bom.filament.infill.get(item["name"], bom.filament.default_infill)
            brim = item["name"].startswith("tray_quarter") or item["name"] == "arm_boom"
            minutes, grams, version, support = slice_part(exe, args.out / item["file"], infill, brim, Path(tmp))
            print(f"{item['name']:<18} {minutes:7.0f} min {grams:7.1f} g each, {support:.1f} g of support")
            lines += [f"[{item['name']}]", f"count = {item['count']}", f"minutes = {minutes:.0f}", f"grams = {grams:.1f}",
                      f"support_grams = {support:.1f}",
                      f"infill = {infill:g}", f"brim = {str(brim).lower()}", ""]
    lines.insert(2, f'slicer = "{version}"')
    TIMES.parent.mkdir(parents=True, exist_ok=True)
    TIMES.write_text("\n".join(lines))
    print(f"wrote {TIMES}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
