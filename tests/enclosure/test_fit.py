"""Bought parts fit the printed ones: the sensor breakout with its plug, the tray's
board and its USB cable, the screen case's screws, inserts and cable ties.

The sizes of the bought parts come from ``enclosure/bought.py`` (the same numbers
OpenSCAD receives); the tests find the pockets on the rendered meshes by probing.
"""

import math

import pytest

from enclosure import bought
from enclosure.checks import measure_arm

from .conftest import needs_openscad

pytestmark = needs_openscad


def empty_run(mesh, fixed, axis, start, stop, step=0.05):
    """(first, last) coordinate along ``axis`` of the empty stretch that contains ``start``, walking to ``stop`` both ways."""
    def point(t):
        p = list(fixed)
        p[axis] = t
        return tuple(p)
    assert not mesh.contains(point(start)), f"{point(start)} is not empty"
    lo = start
    while lo > start - stop and not mesh.contains(point(lo - step)):
        lo -= step
    hi = start
    while hi < start + stop and not mesh.contains(point(hi + step)):
        hi += step
    return lo, hi


def rotated(x, y, z, degrees):
    a = math.radians(degrees)
    return (x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a), z)


# ---- the sensor breakout in the arm's head --------------------------------------------

@pytest.fixture(scope="module")
def pocket(built, mesh):
    """The breakout's pocket as measured on the assembled arm: x and y extents at the board's height."""
    _, parts = built
    f = parts["arm_assembly"]["facts"]
    arm = mesh("arm_assembly")
    z = f["seat_z"] + 1.0                                     # just above the ledges the board lies on
    y0, y1 = empty_run(arm, (-8.0, f["board_cy"], z), 1, f["board_cy"], 20)
    x0, x1 = empty_run(arm, (f["board_cx"], y0 + 1.0, z), 0, f["board_cx"], 20)
    return arm, f, (x0, x1, y0, y1)


def test_the_pocket_takes_the_breakout_with_a_little_room(pocket):
    _, _, (x0, x1, y0, y1) = pocket
    length, width = bought.SENSOR_BOARD_MM
    assert length + 0.2 <= x1 - x0 <= length + 1.2
    assert width + 0.2 <= y1 - y0 <= width + 1.2


def test_the_bore_lines_up_with_the_chip_within_a_millimetre(pocket):
    arm, f, (x0, x1, y0, y1) = pocket
    chip = ((x0 + x1) / 2 + bought.SENSOR_CHIP_AT_MM[0], (y0 + y1) / 2 + bought.SENSOR_CHIP_AT_MM[1])
    view = measure_arm(arm)
    z = view.lens_z - 3                                        # inside the bore, under the chip
    bx0, bx1 = empty_run(arm, (0.0, 0.0, z), 0, 0.0, 10)
    by0, by1 = empty_run(arm, (0.0, 0.0, z), 1, 0.0, 10)
    bore = ((bx0 + bx1) / 2, (by0 + by1) / 2)
    assert math.dist(chip, bore) <= 1.0, f"the chip is at {chip}, the bore at {bore}"


def test_the_board_rests_on_ledges_with_its_chip_face_at_the_lens(pocket):
    arm, f, (x0, x1, y0, y1) = pocket
    seat = f["seat_z"]
    for y in (y0 + 0.7, y1 - 0.7):                             # ledges under the long edges
        assert arm.contains(((x0 + x1) / 2 - 5, y, seat - 0.4))
    chip = ((x0 + x1) / 2 + bought.SENSOR_CHIP_AT_MM[0], (y0 + y1) / 2 + bought.SENSOR_CHIP_AT_MM[1])
    assert not arm.contains((chip[0] + 1.5, chip[1] + 0.8, seat - 0.5))     # room for the chip and its neighbours
    assert measure_arm(arm).lens_z == pytest.approx(seat - bought.SENSOR_CHIP_T_MM, abs=0.3)


def test_the_stemma_qt_plug_and_its_cable_have_room(pocket):
    arm, f, (x0, x1, y0, y1) = pocket
    seat, yc = f["seat_z"], (y0 + y1) / 2
    plug = [(x1 - 3 + dx, yc + dy, seat - dz) for dx in (0, 3, 6, 9) for dy in (-3, 0, 3) for dz in (0.5, 2, 3.5)]
    assert arm.any_inside(plug) is None                        # socket, plug and the cable leaving it
    up = [(x1 + 7, yc, z) for z in range(int(seat), int(seat) + 13)]
    assert arm.any_inside(up) is None                          # the cable turns up into the boom's groove
    assert arm.any_inside([(x0 + 2, yc + dy, seat - 2) for dy in (-3, 0, 3)]) is None   # the unused socket


# ---- the tray's board and USB cable --------------------------------------------------------

def test_the_board_pocket_holds_a_qt_py_snugly(built, mesh):
    _, parts = built
    f = parts["tray_quarter_mcu"]["facts"]
    tray = mesh("tray_quarter_mcu")
    z = -f["under_h"] + 2
    half_x, half_y = 21.8 / 2, 17.8 / 2                       # QT Py RP2040
    corners = [rotated(f["board_r"] + sx * (half_x - 0.1), sy * (half_y - 0.1), z, f["mcu_angle"]) for sx in (-1, 1) for sy in (-1, 1)]
    assert tray.any_inside(corners) is None
    assert tray.contains(rotated(f["board_r"], half_y + 1, z, f["mcu_angle"]))
    # (the -y side opens into the sensor cable's channel, the ends into the USB exit and the piezo channel)
    assert tray.contains(rotated(f["board_r"] - half_x - 1, 6, z, f["mcu_angle"]))


def test_the_piezo_board_lies_in_a_pocket_of_its_own_beside_the_board(built, mesh):
    """The 41 x 21 mm piezo board, with its parts standing on it, fits under the floor (the 6 mm wire channel
    the guide once put it in does not take it), and a notch lets its three wires into the board's pocket."""
    from hardware.boards import piezo_board
    _, parts = built
    f = parts["tray_quarter_mcu"]["facts"]
    tray = mesh("tray_quarter_mcu")
    length, width = piezo_board.OUTLINE_MM
    at = f["piezo_pocket_at"]
    assert f["piezo_pocket_x"] >= length + 0.4 and f["piezo_pocket_y"] >= width + 0.4
    assert f["pocket_h"] >= piezo_board.HEIGHT_MM + 1        # a millimetre of air over its tallest part
    bed = -f["under_h"]
    points = [rotated(f["board_r"] + u * (length / 2 - 0.1), at + v * (width / 2 - 0.1), bed + z, f["mcu_angle"])
              for u in (-1, -0.5, 0, 0.5, 1) for v in (-1, 0, 1) for z in (0.3, piezo_board.HEIGHT_MM / 2, piezo_board.HEIGHT_MM)]
    assert tray.any_inside(points) is None, "the piezo board's place under the floor is not empty"
    # the way for its wires into the tray's board's pocket (a notch at the inner end; the test above keeps the rest snug)
    assert not tray.contains(rotated(f["board_r"] - f["board_pocket_x"] / 2 + 3.5, f["board_pocket_y"] / 2 + 1, bed + 2, f["mcu_angle"]))


def test_a_pulled_usb_cable_meets_the_strain_relief(built, mesh, config):
    _, parts = built
    f = parts["tray_quarter_mcu"]["facts"]
    tray = mesh("tray_quarter_mcu")
    z = -f["under_h"] + 3
    start = f["board_r"] + f["board_pocket_x"] / 2 + f["usb_plug"]     # past the plug
    end = config.geometry.tray_diameter_mm / 2 + 5                      # outside the tray

    def line(y):
        return [rotated(start + t / 2, y, z, f["mcu_angle"]) for t in range(0, int(2 * (end - start)))]

    cable_r = 1.9                                               # a 4 mm USB cable
    for offset in [k / 2 for k in range(-10, 11)]:             # its centre anywhere in the 14 mm exit
        assert any(tray.any_inside(line(offset + d)) for d in (-cable_r, 0, cable_r)), \
            f"a straight pull {offset} mm off the exit's axis passes the pegs"
    assert not tray.contains(rotated(end - 6, f["usb_exit_w"] / 2 - 1, z, f["mcu_angle"]))   # room to weave


# ---- the screen case ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def case(built, mesh):
    _, parts = built
    return mesh("screen_shell"), mesh("screen_back"), parts["screen_shell"]["facts"]


def test_the_back_screws_into_inserts_in_the_shell(case):
    shell, back, f = case
    bosses = [(sx * f["boss_x"], sy * f["boss_y"]) for sx in (-1, 1) for sy in (-1, 1)]
    assert f["case_screws"] == len(bosses)
    hole_r = bought.INSERT_M3_HOLE_MM / 2
    for x, y in bosses:
        top = f["case_d"]
        assert not shell.contains((x, y, top - 2))                                    # the insert's hole
        assert all(shell.contains(p) for p in [(x + hole_r + 1, y, top - 2), (x, y - math.copysign(hole_r + 1, y), top - 2)])
        assert shell.contains((x, y, top - f["insert_hole_depth"] - 1))               # a floor under it
        # the screw through the back: its head's recess, and its hole above the skin a 3 mm drill opens
        assert not back.contains((x, y, 1.0)) and not back.contains((x, y, 2.9)) and back.contains((x + 3.5, y, 1.5))
        # the back's lip leaves room for the boss, so the cover closes
        assert not back.contains((x, math.copysign(f["boss_y"] + 2, y), f["back_t"] + 1.5))


def test_the_bosses_stand_clear_of_the_display(case):
    shell, _, f = case
    glass_top = f["bezel_t"] + 8                                 # the display's 8 mm depth from the bezel
    for sx in (-1, 1):
        for sy in (-1, 1):
            column = [(sx * f["boss_x"] + dx, sy * (110.8 / 2 - 0.2), z) for dx in (-4, 0, 4) for z in (f["bezel_t"] + 0.5, glass_top - 0.5)]
            assert shell.any_inside(column) is None


def test_the_cables_leaving_the_case_are_tied_down(case):
    _, back, f = case
    anchors = [(x, f["tie_y"]) for x in (-f["tie_x"], f["tie_x"])]                     # pad cables, at the GPIO slot
    anchors += [(x, f["power_tie_y"]) for x in (-f["power_tie_x"], f["power_tie_x"])]  # power and tray USB, bottom wall
    for x, y in anchors:
        tunnel = [(x, y + dy, f["back_t"] + f["tie_h"] / 2) for dy in (-5, -2, 0, 2, 5)]
        assert back.any_inside(tunnel) is None, (x, y)                                # a tie passes under the bar
        assert back.contains((x, y, f["back_t"] + f["tie_h"] + 1.5)), (x, y)          # the bar it wraps round
    assert f["tie_anchors"] == len(anchors)
