"""Render every enclosure part from the table's configuration, in one command.

    python -m enclosure.build [--out DIR] [--config FILE] [--png] [--jobs N]

It reads ``hardware/table-noir.toml`` (or a site file) with the software's own
loader, passes the geometry to OpenSCAD with ``-D``, and writes into DIR
(default ``enclosure/out``):

- one STL per part (``tray_quarter.stl``, ``arm_boom.stl``, ...), in the
  position it prints best, plus assembled views that are measured, not printed;
- ``conflict_target.svg`` and ``conflict_target.pdf``, the target at true scale;
- ``parts.json``: every part with how many to print, its size, and the facts
  OpenSCAD reported (number of post pieces, shroud mouth, ...);
- with ``--png``, a picture of each part (and a copy of the target's SVG) in
  ``enclosure/renders/``.

Each STL is cached by a hash of its inputs (the .scad sources, the values
passed in and the OpenSCAD version), so an unchanged part is copied, not
rendered again.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from hardware.config import Config, ConfigError, load_config
from hardware.geometry import HEAT_ZONE_DICE

from . import bought, target
from .checks import PLINTH_MM, arm_problems, measure_arm
from .stl import read_stl

HERE = Path(__file__).resolve().parent
SCAD = HERE / "scad"
RENDERS = HERE / "renders"
DEFAULT_OUT = HERE / "out"
DEFAULT_CACHE = Path(tempfile.gettempdir()) / "table-noir-enclosure-cache"
BED = (220.0, 220.0, 250.0)   # a common printer's build volume, mm


class BuildError(Exception):
    """OpenSCAD is missing or refused a part; the message says which and why."""


@dataclass(frozen=True)
class Part:
    name: str
    source: str          # file under scad/
    count: str           # how many to print: a number, "pads", or an echoed fact's name
    printed: bool        # False: an assembled view for tests and pictures
    note: str
    camera: str = ""     # OpenSCAD gimbal rotation "rx,ry,rz" for the picture; "" is its default view


PARTS = (
    Part("tray_quarter", "tray.scad", "3", True, "floor, rim and skirt of one quarter; dovetails lock the quarters"),
    Part("tray_quarter_mcu", "tray.scad", "1", True, "the quarter with the QT Py pocket, the USB exit and its strain relief, the sensor cable channel and the arm bolts",
         camera="235,0,335"),   # seen from below: pockets and cable exits
    Part("arm_foot", "arm.scad", "1", True, "bolts to the rim with two M4 x 40 bolts"),
    Part("arm_post", "arm.scad", "post_pieces", True, "square post pieces with a socket at each end; the sensor cable runs inside"),
    Part("arm_joiner", "arm.scad", "joiners", True, "square pegs joining the foot, the post pieces and each other; printed standing"),
    Part("arm_boom", "arm.scad", "1", True, "boom, sensor head and shroud in one piece, printed across the bed"),
    Part("pad_body", "pad.scad", "pads", True, "button box and hood in one piece, printed on its back"),
    Part("pad_base", "pad.scad", "pads", True, "base with the cable's strain relief, four M3 x 10 screws"),
    Part("screen_shell", "screen.scad", "1", True, "front and sides of the screen case with four insert bosses, printed face down"),
    Part("screen_back", "screen.scad", "1", True, "back cover with vents, the GPIO slot and tie anchors; M3 x 40 screws into the display, M3 x 8 into the shell's inserts"),
    Part("screen_stand", "screen.scad", "2", True, "side cheeks that stand the case at 65 degrees"),
    Part("plinth", "plinth.scad", "1", True, "the Heat's plinth with its stem, printed top down"),
    Part("cell_adapter", "plinth.scad", "1", True, "on the load cell's free end: the stem's socket and the boss in the damping cup"),
    Part("cell_base", "plinth.scad", "1", True, "the load cell's own base on the table, in the well under the floor: pedestal, damping cup, overload stop"),
    Part("weighing_assembly", "plinth.scad", "0", False, "plinth, adapter, cell and base together (picture only)"),
    Part("plinth_chain", "plinth.scad", "0", False, "what the cell carries; the tests check it never touches the tray"),
    Part("table_assembly", "assembly.scad", "0", False, "tray, arm and the tallest Heat together (picture only)"),
    Part("arm_assembly", "arm.scad", "0", False, "the arm as it stands on the tray (measured by the tests)"),
    Part("pad_assembly", "pad.scad", "0", False, "body on base (picture only)"),
)


def defines(config: Config) -> dict[str, float | int]:
    """The values OpenSCAD receives with -D: the geometry section, the number of pads, and the two
    sizes the Python side also draws (the Heat circle and the target disc), so both always agree."""
    values: dict[str, float | int] = dict(config.geometry.model_dump())
    values["pads"] = len(config.pads.pins) or 1
    values["heat_zone_dice"] = HEAT_ZONE_DICE
    values["plinth_h"] = PLINTH_MM
    values["target_disc_d"] = target.disc_diameter(config.geometry)
    values.update(bought.scad_values())
    return values


def openscad_version() -> str:
    exe = shutil.which("openscad")
    if exe is None:
        raise BuildError("openscad is not installed: `sudo apt-get install openscad` (scripts/bootstrap.sh does it)")
    result = subprocess.run([exe, "--version"], capture_output=True, text=True)
    return (result.stdout + result.stderr).strip()


def _sources_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(SCAD.glob("*.scad")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def part_hash(part: Part, values: dict[str, float | int], version: str) -> str:
    key = json.dumps({"part": part.name, "source": part.source, "values": values, "openscad": version,
                      "scad": _sources_digest()}, sort_keys=True)
    return hashlib.sha256(key.encode()).hexdigest()[:20]


def _scad_value(value: float | int) -> str:
    return repr(value) if isinstance(value, (int, float)) else json.dumps(value)


def _echoes(log: str) -> dict[str, float]:
    facts = {}
    for line in log.splitlines():
        if line.startswith("ECHO:"):
            for name, value in re.findall(r"(\w+) = (-?[\d.e+-]+)", line):
                facts[name] = float(value)
    return facts


def render_part(part: Part, values: dict[str, float | int], cache: Path, version: str) -> tuple[Path, dict[str, float]]:
    """The part's STL in the cache (rendered only if its inputs changed) and the facts OpenSCAD echoed."""
    key = part_hash(part, values, version)
    stl, facts_file = cache / f"{part.name}-{key}.stl", cache / f"{part.name}-{key}.json"
    if stl.exists() and facts_file.exists():
        return stl, json.loads(facts_file.read_text())
    cache.mkdir(parents=True, exist_ok=True)
    # a name of its own, so two builds sharing the cache never write the same file
    tmp = cache / f"{part.name}-{key}.{os.getpid()}.{threading.get_ident()}.tmp.stl"
    args = ["openscad", "-o", str(tmp), "-D", f'part="{part.name}"']
    for name, value in values.items():
        args += ["-D", f"{name}={_scad_value(value)}"]
    result = subprocess.run([*args, str(SCAD / part.source)], capture_output=True, text=True)
    log = result.stdout + result.stderr
    if result.returncode != 0 or not tmp.exists() or tmp.stat().st_size == 0:
        tmp.unlink(missing_ok=True)
        problems = [line for line in log.splitlines() if "ERROR" in line or "assert" in line.lower()]
        raise BuildError(f"{part.name}: OpenSCAD failed: " + ("; ".join(problems) or log.strip()[-500:]))
    tmp.replace(stl)
    facts = _echoes(log)
    facts_file.write_text(json.dumps(facts))
    return stl, facts


def render_png(stl: Path, png: Path, camera: str = "") -> Path:
    """A picture of an STL, drawn by OpenSCAD (under a virtual screen if there is no display)."""
    with tempfile.TemporaryDirectory() as tmp:
        viewer = Path(tmp) / "view.scad"
        viewer.write_text(f'color("SteelBlue") import("{stl.resolve()}");\n')
        args = ["openscad", "-o", str(png), "--imgsize=800,600", "--autocenter", "--viewall",
                "--colorscheme=Tomorrow", str(viewer)]
        if camera:
            args.insert(-1, f"--camera=0,0,0,{camera},500")
        _draw(args, png, stl.name)
    return png


def render_scad_png(source: str, part: str, values: dict[str, float | int], png: Path, camera: str = "") -> Path:
    """A picture drawn by OpenSCAD from the .scad part itself, so its colours and labels show
    (the bought parts in the guide's assembly pictures)."""
    args = ["openscad", "-o", str(png), "--imgsize=1200,900", "--autocenter", "--viewall", "--colorscheme=Tomorrow",
            "-D", f'part="{part}"']
    for name, value in values.items():
        args += ["-D", f"{name}={_scad_value(value)}"]
    if camera:
        args.append(f"--camera=0,0,0,{camera},500")
    args.append(str(SCAD / source))
    _draw(args, png, part)
    return _trim(png)


def _draw(args: list[str], png: Path, what: str) -> None:
    """Run an OpenSCAD picture command (on a virtual screen when there is no display)."""
    if not os.environ.get("DISPLAY"):
        if shutil.which("xvfb-run") is None:
            raise BuildError("pictures need a display or xvfb-run (`sudo apt-get install xvfb`)")
        args = ["xvfb-run", "-a", *args]
    result = subprocess.run(args, capture_output=True, text=True)
    if result.returncode != 0 or not png.exists():
        raise BuildError(f"picture of {what} failed: {result.stderr.strip()[-300:]}")


def _trim(png: Path, margin: int = 20) -> Path:
    """Cut the empty background round the scene (OpenSCAD frames it loosely), so the guide shows it larger."""
    from PIL import Image, ImageChops

    with Image.open(png) as image:
        rgb = image.convert("RGB")
    box = ImageChops.difference(rgb, Image.new("RGB", rgb.size, rgb.getpixel((0, 0)))).getbbox()
    if box:
        left, top, right, bottom = box
        rgb.crop((max(0, left - margin), max(0, top - margin),
                  min(rgb.width, right + margin), min(rgb.height, bottom + margin))).save(png)
    return png


def build(config: Config, out: Path = DEFAULT_OUT, cache: Path = DEFAULT_CACHE, jobs: int = 2,
          png_dir: Path | None = None, parts: tuple[Part, ...] = PARTS) -> list[dict]:
    """Render ``parts`` and the target sheet into ``out``; returns the parts list also written to parts.json."""
    version = openscad_version()
    values = defines(config)
    out.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        rendered = list(pool.map(lambda p: render_part(p, values, cache, version), parts))
    manifest = []
    for part, (cached, facts) in zip(parts, rendered):
        stl = out / f"{part.name}.stl"
        shutil.copyfile(cached, stl)
        size = read_stl(stl).size()
        count = int(values["pads"]) if part.count == "pads" else int(facts.get(part.count, 0) if not part.count.isdigit() else part.count)
        manifest.append({"name": part.name, "file": stl.name, "count": count, "printed": part.printed,
                         "size_mm": [round(s, 1) for s in size], "note": part.note, "facts": facts})
    target.write_svg(config.geometry, out / "conflict_target.svg")
    target.write_pdf(config.geometry, out / "conflict_target.pdf")
    (out / "parts.json").write_text(json.dumps({"geometry": values, "bed_mm": BED, "parts": manifest}, indent=2) + "\n")
    if png_dir is not None:
        png_dir.mkdir(parents=True, exist_ok=True)
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            list(pool.map(lambda p: render_png(out / f"{p.name}.stl", png_dir / f"{p.name}.png", p.camera), parts))
        shutil.copyfile(out / "conflict_target.svg", png_dir / "conflict_target.svg")
    return manifest


def fits_bed(size: tuple[float, float, float] | list[float], bed: tuple[float, float, float] = BED) -> bool:
    """Whether a part of this size fits the bed (it may be turned on the bed, not tipped over)."""
    x, y, z = size
    return z <= bed[2] and ((x <= bed[0] and y <= bed[1]) or (y <= bed[0] and x <= bed[1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m enclosure.build", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder for STL, SVG, PDF and parts.json")
    parser.add_argument("--config", type=Path, help="a site table-noir.toml (default: the usual places)")
    parser.add_argument("--png", action="store_true", help=f"also draw a picture of each part into {RENDERS}")
    parser.add_argument("--jobs", type=int, default=2, help="parts rendered at once (default 2)")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="where rendered parts are kept by input hash")
    args = parser.parse_args(argv)
    try:
        config = load_config(args.config)
        manifest = build(config, args.out, args.cache, args.jobs, RENDERS if args.png else None)
    except (ConfigError, BuildError) as err:
        print(f"enclosure: {err}", file=sys.stderr)
        return 1
    print(f"{'part':<18} {'print':>5}  {'size x y z (mm)':<24} fits {BED[0]:g}x{BED[1]:g}x{BED[2]:g}")
    for item in manifest:
        size = " x ".join(f"{s:g}" for s in item["size_mm"])
        fits = ("yes" if fits_bed(item["size_mm"]) else "NO") if item["printed"] else "-"
        print(f"{item['name']:<18} {item['count'] if item['printed'] else '-':>5}  {size:<24} {fits}")
    print(f"wrote {len(manifest)} STL files, conflict_target.svg and .pdf to {args.out}")
    if (args.out / "arm_assembly.stl").exists():
        view = measure_arm(read_stl(args.out / "arm_assembly.stl"))
        print(f"sensor arm: lens {view.lens_z:g} mm above the floor, shroud mouth {2 * view.mouth_r:.1f} mm wide at "
              f"{view.mouth_z:g} mm, sees {view.view_radius_at(0):.1f} mm around the Heat's axis at the floor")
        for problem in arm_problems(view, config.geometry):
            print(f"PROBLEM: {problem}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
