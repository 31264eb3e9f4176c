"""The printed parts: they fit the bed, the tray holds the target and the Heat,
the pads take their buttons under a hood, the screen case takes the display.

Each test probes the rendered STL (is this point solid or empty?) at places
that matter to a maker, using the few facts OpenSCAD echoes (where the
buttons are, how deep the seat is) to know where to look.
"""

import math

import pytest

from enclosure import build as enclosure_build
from enclosure import target
from enclosure.build import BED, fits_bed
from enclosure.checks import HEAT_ZONE_DICE

from .conftest import needs_openscad

pytestmark = needs_openscad


def around(cx, cy, z, r, n=12):
    return [(cx + r * math.cos(2 * math.pi * k / n), cy + r * math.sin(2 * math.pi * k / n), z) for k in range(n)]


def turned(point, degrees):
    x, y, z = point
    a = math.radians(degrees)
    return (x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a), z)


# ---- every part -------------------------------------------------------------------------

def test_every_printed_part_fits_a_common_print_bed(built):
    _, parts = built
    printed = {name: p["size_mm"] for name, p in parts.items() if p["printed"]}
    assert len(printed) == 14          # ten parts, the post's joiners and (issue 29) plinth, cell adapter, cell base
    too_big = {name: size for name, size in printed.items() if not fits_bed(size, BED)}
    assert too_big == {}


def test_the_parts_list_counts_what_to_print(built, config):
    _, parts = built
    assert parts["tray_quarter"]["count"] + parts["tray_quarter_mcu"]["count"] == 4
    assert parts["pad_body"]["count"] == parts["pad_base"]["count"] == len(config.pads.pins)
    # the post comes in as many pieces as it takes to keep each one printable
    pieces = parts["arm_post"]["count"]
    assert pieces >= 2 and parts["arm_post"]["facts"]["post_len"] <= 190


def test_an_unchanged_part_comes_from_the_cache(config, built, tmp_path):
    arm = next(p for p in enclosure_build.PARTS if p.name == "arm_post")
    version = enclosure_build.openscad_version()
    values = enclosure_build.defines(config)
    first, _ = enclosure_build.render_part(arm, values, enclosure_build.DEFAULT_CACHE, version)
    stamp = first.stat().st_mtime_ns
    again, _ = enclosure_build.render_part(arm, values, enclosure_build.DEFAULT_CACHE, version)
    assert again == first and again.stat().st_mtime_ns == stamp
    changed = dict(values, die_size_mm=18.0)
    assert enclosure_build.part_hash(arm, changed, version) != enclosure_build.part_hash(arm, values, version)


def test_the_build_command_reports_every_part(tmp_path, capsys):
    assert enclosure_build.main(["--out", str(tmp_path)]) == 0
    shown = capsys.readouterr().out
    assert "tray_quarter" in shown and "screen_stand" in shown and " NO" not in shown
    assert (tmp_path / "conflict_target.pdf").exists() and (tmp_path / "parts.json").exists()


def test_the_build_command_names_a_bad_config_value(tmp_path, capsys):
    site = tmp_path / "site.toml"
    site.write_text("[geometry]\ndie_size_mm = 20.0\n")
    assert enclosure_build.main(["--out", str(tmp_path / "out"), "--config", str(site)]) == 1
    assert "geometry.sensor_height_mm" in capsys.readouterr().err


# ---- the tray -------------------------------------------------------------------------------

def test_the_rim_is_low_but_stops_a_rolling_die(built, mesh, config):
    die = config.geometry.die_size_mm
    quarter = mesh("tray_quarter")
    rim_top = quarter.bbox()[1][2]
    assert die <= rim_top <= 2 * die
    inside = config.geometry.tray_diameter_mm / 2
    assert not quarter.contains(turned((inside - 0.5, 0, 5), 45))
    assert quarter.contains(turned((inside + 1.5, 0, 5), 45))


def test_the_target_disc_lies_flush_in_its_seat(built, mesh, config):
    _, parts = built
    facts = parts["tray_quarter"]["facts"]
    g = config.geometry
    disc_r = target.disc_diameter(g) / 2
    quarter = mesh("tray_quarter")
    z = -facts["seat_depth"] + 0.3
    assert not quarter.contains(turned((disc_r - 0.5, 0, z), 30))       # the disc's edge has room
    assert quarter.contains(turned((disc_r + 1.5, 0, z), 30))           # and the seat's wall keeps it in place
    assert disc_r > g.throw_line_mm / 2 + 5                              # the dashed line is on the disc
    assert facts["seat_depth"] == pytest.approx(2.0)                     # what the README tells makers to use


def test_nothing_breaks_the_floor_under_the_heat_but_the_plinths_stem(built, mesh, config):
    # Since issue 29 the Heat stands on a plinth whose stem passes through a hole at the centre
    # (and the board's quarter has the load cell's well under it, test_plinth.py); around the
    # hole, the plain quarters' floor is whole.
    zone_r = HEAT_ZONE_DICE * config.geometry.die_size_mm / 2
    hole_r = target.STEM_HOLE_MM / 2
    heights = {round(z, 2) for x, y, z in mesh("tray_quarter").vertices if math.hypot(x, y) < zone_r}
    assert len(heights) == 2, f"tray_quarter has features under the Heat at heights {sorted(heights)}"
    quarter = mesh("tray_quarter_mcu")
    assert not quarter.contains(turned((hole_r - 1, 0, -2.6), 20))        # the stem's hole
    assert quarter.contains(turned((hole_r + 1, 0, -2.6), 20))            # the floor round it, under the seat


def test_each_quarter_has_a_piezo_pocket_under_the_throwing_area(built, mesh, config):
    _, parts = built
    facts = parts["tray_quarter"]["facts"]
    r, low = facts["piezo_ring_r"], -facts["floor_t"] + 0.5      # half a millimetre up into the floor
    assert config.geometry.target_inner_mm / 2 < r < config.geometry.tray_diameter_mm / 2
    for name in ("tray_quarter", "tray_quarter_mcu"):
        quarter = mesh(name)
        assert not quarter.contains(turned((r, 0, low), 45)), f"{name}: no pocket at {r:g} mm"
        assert quarter.contains(turned((r + 20, 0, low), 45))


def test_four_quarters_make_one_floor_without_overlap(built, mesh, config):
    quarters = [(mesh("tray_quarter_mcu"), 0)] + [(mesh("tray_quarter"), k * 90) for k in (1, 2, 3)]
    z = -2.6      # inside the floor plate, under the seat (and above the load cell's well)
    outer = config.geometry.tray_diameter_mm / 2 - 3
    # off the seams themselves, where a point touches two quarters' faces at once; outside the stem's hole
    points = [(r * math.cos(math.radians(a + 3.3)), r * math.sin(math.radians(a + 3.3)), z)
              for r in range(18, int(outer), 13) for a in range(0, 360, 11)]
    counts = [sum(q.contains(turned(p, -turn)) for q, turn in quarters) for p in points]
    assert max(counts) == 1, "two quarters claim the same place"
    assert counts.count(1) / len(counts) > 0.99, "the quarters leave holes in the floor"


def test_the_mcu_quarter_lets_the_usb_cable_out_and_takes_the_arm_bolts(built, mesh, config):
    _, parts = built
    facts = parts["tray_quarter_mcu"]["facts"]
    plain, special = mesh("tray_quarter"), mesh("tray_quarter_mcu")
    skirt_r, low = config.geometry.tray_diameter_mm / 2 + 2, plain.bbox()[0][2] + 3
    ring = [turned((skirt_r, 0, low), a / 2) for a in range(2, 180)]
    assert all(plain.contains(p) for p in ring)
    gap_mm = sum(not special.contains(p) for p in ring) * math.radians(0.5) * skirt_r
    assert gap_mm >= 12
    # the rim has holes for the foot's two bolts, and the foot's holes line up with them
    arm = mesh("arm_assembly")
    rim = config.geometry.tray_diameter_mm / 2 + 2        # in the middle of the 4 mm rim
    foot = rim + 2 + 8                                    # 8 mm into the foot, which hugs the rim
    for dy in (-facts["foot_bolt_dy"], facts["foot_bolt_dy"]):
        at_rim = turned((rim, dy, facts["foot_bolt_z"]), facts["arm_angle"])
        assert not special.contains(at_rim) and plain.contains(at_rim)
        assert not arm.contains((foot, dy, facts["foot_bolt_z"]))
        assert arm.contains((foot, dy + 4 * (1 if dy > 0 else -1), facts["foot_bolt_z"]))


# ---- the player pad --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def pad(built, mesh):
    _, parts = built
    f = parts["pad_body"]["facts"]
    xs = [(i - 1) * f["pitch"] for i in range(3)]
    return mesh("pad_assembly"), f, xs


def test_each_button_hole_takes_a_16mm_button_and_holds_its_ring(pad):
    body, f, xs = pad
    z = f["panel_top"] - 1.5
    for x in xs:
        assert body.any_inside(around(x, f["button_y"], z, 8.0)) is None
        assert all(body.contains(p) for p in around(x, f["button_y"], z, 9.5))


def test_there_is_room_below_the_panel_for_each_switch(pad):
    body, f, xs = pad
    for x in xs:
        column = [p for z in range(1, int(f["panel_top"]) - 3, 3) for p in around(x, f["button_y"], z, 8.0) + [(x, f["button_y"], z)]]
        assert body.any_inside(column) is None


def test_the_hood_leaves_room_for_a_finger_and_hides_the_buttons(pad):
    body, f, xs = pad
    (xmin, _, _), (xmax, _, _) = body.bbox()
    for x in xs:
        above = [(x, f["button_y"], f["panel_top"] + h) for h in range(1, int(f["hood_top"] - f["panel_top"]))]
        assert body.any_inside(above) is None                       # a finger reaches every button
        assert f["hood_top"] - f["panel_top"] >= 40
        assert body.contains((x, f["button_y"], f["hood_top"] + 1))  # roof over it: nobody looks down on it
    for side in (xmin + 1, xmax - 1):                                 # walls on the neighbours' sides
        assert body.contains((side, f["button_y"], f["panel_top"] + 20))
        assert body.contains((side, f["mark_y"] - f["visor"] + 2, f["panel_top"] + 20))


def test_touch_marks_differ_black_square_white_circle_gray_triangle(pad):
    body, f, xs = pad
    z = f["panel_top"] + 0.6

    def filled(x, dx, dy):
        return body.contains((x + dx, f["mark_y"] + dy, z))

    black, white, gray = xs
    assert all(filled(black, dx, dy) for dx in (-3.5, 3.5) for dy in (-3.5, 3.5))        # square corners
    assert not any(filled(white, dx, dy) for dx in (-3.5, 3.5) for dy in (-3.5, 3.5))    # round: no corners
    assert all(filled(white, dx, dy) for dx, dy in ((4, 0), (-4, 0), (0, 4), (0, -4)))
    assert filled(gray, 0, 4) and filled(gray, -4.5, -4) and not filled(gray, -4, 3)     # point up, wide base
    grid = [(dx, dy) for dx in range(-5, 6) for dy in range(-5, 6)]
    shapes = [frozenset(d for d in grid if filled(x, *d)) for x in xs]
    assert len(set(shapes)) == 3


def test_a_pulled_cable_meets_the_strain_relief_first(pad):
    body, f, xs = pad
    (_, _, _), (_, ymax, _) = body.bbox()
    assert not body.contains((0, ymax - 1.2, 1.5))                  # the exit in the back wall
    path = [(0, ymax - 3 - k, 4) for k in range(0, 20)]
    assert body.any_inside(path) is not None                         # a peg stands in a straight pull's way


# ---- the screen case ------------------------------------------------------------------------

GLASS = (194.0, 110.76)     # official 7" display, outline of the glass
VISIBLE = (155.0, 86.0)     # its visible area


def test_the_display_fits_and_the_bezel_holds_it_without_covering_the_picture(built, mesh):
    _, parts = built
    f = parts["screen_shell"]["facts"]
    shell = mesh("screen_shell")
    gx, gy = GLASS[0] / 2 - 0.1, GLASS[1] / 2 - 0.1
    corners = [(sx * gx, sy * gy, z) for sx in (-1, 1) for sy in (-1, 1) for z in (f["bezel_t"] + 0.5, f["bezel_t"] + 7)]
    assert shell.any_inside(corners) is None
    assert all(shell.contains(p) for p in [(gx - 2, 0, 1), (-gx + 2, 0, 1), (0, gy - 2, 1), (0, -gy + 2, 1)])
    vx, vy = VISIBLE[0] / 2, VISIBLE[1] / 2
    assert shell.any_inside([(sx * vx, sy * vy, 1) for sx in (-1, 1) for sy in (-1, 1)] + [(0, 0, 1)]) is None


def test_usb_ports_gpio_header_and_vents_are_reachable(built, mesh):
    _, parts = built
    f = parts["screen_shell"]["facts"]
    shell, back = mesh("screen_shell"), mesh("screen_back")
    assert not shell.contains((-f["half_w"] + 1.2, f["usb_y"], f["usb_z"]))           # USB through the side
    assert not back.contains((f["gpio_x"], f["gpio_y"], 1.5))                          # ribbon to the pads
    top_y = shell.bbox()[1][1] - 1.2
    wall = [shell.contains((x, top_y, f["case_d"] / 2)) for x in range(-80, 81, 2)]
    assert 5 <= wall.count(False) and 5 <= wall.count(True)                             # slots in the top wall


def test_back_cover_posts_meet_the_display_mounting_holes(built, mesh):
    _, parts = built
    f = parts["screen_shell"]["facts"]
    back = mesh("screen_back")
    for sx in (-1, 1):
        for sy in (-1, 1):
            x, y = sx * 126.2 / 2, sy * 65.65 / 2
            assert not back.contains((x, y, 10))                       # M3 screw passes
            assert back.contains((x + 3, y, 10))                       # in a post
    post_top = back.bbox()[1][2]
    assert post_top + f["bezel_t"] + 8 == pytest.approx(f["case_d"])  # reaches the display's back (8 mm deep)
