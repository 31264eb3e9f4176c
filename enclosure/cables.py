"""Can every cable be laid the way the guide says? Plug against bore, corner and step order.

A cable with a plug at each end goes through a bore plug first, so each bore on
its way must let the plug's cross-section through (its diagonal, with a little
room), and at each right-angle turn the rigid part of the plug (housing and
strain relief) must get round the corner: a rectangle of length L and width w
passes a corner between two bores of width D when L <= 2 (sqrt(2) D - w), the
"ladder round a corner" for equal corridors. The bores are measured on the
rendered assembly (the narrowest vertex ring along each straight run), not read
from the model's numbers, so a joiner with a smaller bore shows up.

The guide's steps must thread the cable after the parts on its way are fitted
(the plug then meets the path as measured) and before anything on the way is glued.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .stl import Mesh

ROOM_MM = 0.5        # the plug's diagonal plus this must fit the bore


@dataclass(frozen=True)
class Plug:
    name: str
    width: float       # across the pins
    height: float
    rigid: float       # housing plus strain relief, along the cable


# JST SH 4-pin housing (SHR-04V-S), the plug of every Qwiic / STEMMA QT cable: 1 mm pitch,
# width 3 + (pins - 1) = 6.0 mm, 2.95 mm high, 4.25 mm deep; about 2 mm of stiff cable behind it.
JST_SH_4 = Plug("JST-SH 4-pin plug (Qwiic / STEMMA QT)", 6.0, 2.95, 4.25 + 2.0)


@dataclass(frozen=True)
class Run:
    where: str
    diameter: float      # the narrowest the plug meets along it
    turns_into_next: bool = False

    @property
    def name(self) -> str:
        return self.where


def _narrowest_vertical(mesh: Mesh, x: float, y: float, z0: float, z1: float, limit: float) -> float:
    rings = [r for r, z in mesh.near_axis(limit, x, y) if z0 <= z <= z1]
    return 2 * min(rings) if rings else 2 * limit


def _narrowest_along_x(mesh: Mesh, x0: float, x1: float, y: float, z: float, limit: float) -> float:
    rings = [math.hypot(vy - y, vz - z) for vx, vy, vz in set(mesh.vertices)
             if x0 <= vx <= x1 and math.hypot(vy - y, vz - z) < limit]
    return 2 * min(rings) if rings else 2 * limit


def sensor_cable_runs(arm: Mesh, facts: dict[str, float]) -> list[Run]:
    """The 500 mm sensor cable's way through the assembled arm: across the foot, up the post to the boom."""
    limit = facts["post_bore"] / 2 + 1.5          # beyond the bore: the sockets' walls, not the cable's way
    post_r, bore = facts["post_r"], facts["post_bore"]
    across = _narrowest_along_x(arm, facts["tray_out_r"] - 2.5, post_r - bore / 2 - 0.5, 0.0, facts["cable_z"], limit)
    up = _narrowest_vertical(arm, post_r, 0.0, facts["cable_z"] + bore / 2 + 0.5, facts["boom_bottom"], limit)
    return [Run("across the arm's foot", across, turns_into_next=True),
            Run("up the foot, the joiners and the post pieces", up)]


def plug_problems(plug: Plug, runs: list[Run]) -> list[str]:
    """Where the plug cannot pass, in words a maker can act on."""
    found = []
    diagonal = math.hypot(plug.width, plug.height)
    for run in runs:
        if diagonal + ROOM_MM > run.diameter:
            found.append(f"the {plug.name} ({plug.width:g} x {plug.height:g} mm, {diagonal:.1f} mm across its corners) "
                         f"cannot pass {run.where}: the narrowest bore there is {run.diameter:.1f} mm; "
                         f"it needs {diagonal + ROOM_MM:.1f} mm")
    for run, following in zip(runs, runs[1:]):
        if run.turns_into_next:
            width = min(run.diameter, following.diameter)
            longest = 2 * (math.sqrt(2) * width - plug.height)
            if plug.rigid > longest:
                found.append(f"the {plug.name} ({plug.rigid:g} mm stiff) cannot turn from {run.where} into "
                             f"{following.where}: {width:.1f} mm bores let at most {longest:.1f} mm round the corner")
    return found


@dataclass(frozen=True)
class StepRule:
    cable: str
    threads: str                   # words of the step that threads the cable
    after: tuple[str, ...]         # steps that fit the parts on its way
    before: tuple[str, ...]        # steps that glue or close them


SENSOR_CABLE_STEPS = StepRule("the 500 mm sensor cable", "Thread the 500 mm", ("Push a joiner",), ("Only then glue",))


def order_problems(steps: list[str], rule: StepRule) -> list[str]:
    """Whether the guide's steps (in order) thread the cable at the right time."""
    def index(words: str) -> int | None:
        return next((n for n, text in enumerate(steps) if words in text), None)

    at = index(rule.threads)
    if at is None:
        return [f"no step threads {rule.cable} (looked for {rule.threads!r})"]
    found = []
    for words in rule.after:
        n = index(words)
        if n is None or n > at:
            found.append(f"{rule.cable} is threaded before the step {words!r}: the plug would meet a path "
                         "other than the one measured")
    for words in rule.before:
        n = index(words)
        if n is not None and n < at:
            found.append(f"{rule.cable} is threaded after the step {words!r}")
    return found


# ---- the STEMMA QT cable from the NAU7802 to the QT Py, under the tray's floor ----------------------

QT_SHORT_MM = 200.0      # the BOM's qt_cable_adc, plug end to plug end (a 100 mm one lacks 6 mm: the test says so)
BEND_MM = 5.0            # what each change of direction (and the drop into a port) takes from the cable


def qt_short_route(tray: dict[str, float], cell: dict[str, float]) -> list[tuple[str, float, list[tuple[float, float]]]]:
    """The short cable's way, leg by leg: (what, mm, points along it in tray x, y). From the NAU7802's outer port
    along the cell's channel to the piezo ring, round the ring's channel to the board's radial channel, and out
    along it to the QT Py's inner end, where its STEMMA QT port is (the USB end faces the exit)."""
    ring, a_cell, a_mcu = tray["piezo_ring_r"], cell["cell_angle"], tray["mcu_angle"]
    board_end = tray["board_r"] - tray["board_pocket_x"] / 2

    def polar(r: float, degrees: float) -> tuple[float, float]:
        return r * math.cos(math.radians(degrees)), r * math.sin(math.radians(degrees))

    def steps(n: int) -> list[float]:
        return [i / n for i in range(n + 1)]

    port = cell["nau_port_u"]
    return [
        ("along the cell's channel to the piezo ring", ring - port, [polar(port + t * (ring - port), a_cell) for t in steps(8)]),
        ("round the piezo ring", ring * math.radians(abs(a_mcu - a_cell)), [polar(ring, a_cell + t * (a_mcu - a_cell)) for t in steps(12)]),
        ("out to the QT Py's port", board_end - ring, [polar(ring + t * (board_end - ring), a_mcu) for t in steps(6)]),
    ]


def qt_short_problems(route: list[tuple[str, float, list[tuple[float, float]]]], plug: Plug = JST_SH_4,
                      length: float = QT_SHORT_MM) -> list[str]:
    """The cable is too short for the route: its length less both plugs' rigid parts and a bend at each turn."""
    need = sum(mm for _, mm, _ in route) + BEND_MM * (len(route) + 1)
    free = length - 2 * plug.rigid
    if need > free:
        legs = ", ".join(f"{what} {mm:.0f} mm" for what, mm, _ in route)
        return [f"the {length:g} mm STEMMA QT cable leaves {free:.1f} mm between its plugs; its way under the floor needs "
                f"{need:.1f} mm ({legs}, and {BEND_MM:g} mm at each of {len(route) + 1} bends)"]
    return []
