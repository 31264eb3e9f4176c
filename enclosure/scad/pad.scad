// A player pad: three 16 mm panel push buttons (Black, White, Gray from left to
// right, the order of hardware/table-noir.toml) under a hood, so neighbours
// cannot see which one a hand presses. In front of each button a raised mark
// tells it by touch: Black a square, White a circle, Gray a triangle.
//
// "pad_body" is one piece (box, button panel, hood); it prints lying on its
// back without supports. "pad_base" closes the bottom and carries the cable's
// strain relief: the cable weaves between three pegs before it leaves.
// Upright coordinates: x across, y from the player (-) to the back (+), z up.

include <common.scad>

button_hole = 16.4;       // 16 mm momentary panel buttons
button_cap = 22;          // widest cap or bezel above the panel
button_cap_h = 12;        // how far a cap stands above the panel
button_depth = 28;        // body and solder tabs below the panel
pitch = 34;               // button spacing
wall = 2.4;
panel_t = 3;
pad_w = 3 * pitch + 2 * 8;
pad_d = 78;
body_h = button_depth + panel_t + 3;      // room under the panel for the switches and wires
hood_h = 46;                               // inside height above the panel: fingers go in here
visor = 12;                                // hood reaches this far past the front
button_y = 10;                             // buttons sit toward the back, under the roof
mark_y = -18;                              // touch marks in front of them
mark_h = 1.2;
cable_d = 6;
post = 7;                                  // corner posts for the base's screws

rib_t = 2.4;
rib_hole = 9;                               // wires between the switches pass through the ribs here

// A corner post for a base screw. The front ones hang from the front wall when the body
// prints on its back, so they widen into the side wall at 45 degrees underneath.
module corner_post(sx, sy) {
    x = sx * (pad_w / 2 - wall - post / 2);
    y = sy * (pad_d / 2 - wall - post / 2);
    hull() {
        translate([x - post / 2, y - post / 2, 0]) cube([post, post, body_h - 0.01]);
        if (sy < 0) translate([sx > 0 ? pad_w / 2 - wall - 0.01 : -pad_w / 2 + wall, y - post / 2, 0]) cube([0.01, 2 * post, body_h - 0.01]);
    }
}

module touch_mark(kind) {
    linear_extrude(mark_h + 0.01)
        if (kind == "square") square(8, center = true);
        else if (kind == "circle") circle(d = 9);
        else polygon([[-5.5, -4.5], [5.5, -4.5], [0, 5]]);
}

module pad_body() {
    difference() {
        union() {
            // box with the button panel on top
            difference() {
                translate([-pad_w / 2, -pad_d / 2, 0]) cube([pad_w, pad_d, body_h]);
                translate([-pad_w / 2 + wall, -pad_d / 2 + wall, -1]) cube([pad_w - 2 * wall, pad_d - 2 * wall, body_h - panel_t + 1]);
            }
            // hood: sides, back and roof, open toward the player, with a visor
            difference() {
                translate([-pad_w / 2, -pad_d / 2 - visor, body_h - 0.01]) cube([pad_w, pad_d + visor, hood_h + wall]);
                translate([-pad_w / 2 + wall, -pad_d / 2 - visor - 1, body_h - 1]) cube([pad_w - 2 * wall, pad_d + visor + 1 - wall, hood_h + 1]);
            }
            for (sx = [-1, 1], sy = [-1, 1]) corner_post(sx, sy);
            // two ribs between the buttons hold up the front wall when the body prints on its back
            // (the wall would otherwise bridge 99 mm); the wires pass through the holes low in them
            for (sx = [-1, 1]) translate([sx * pitch / 2 - rib_t / 2, -pad_d / 2 + 1, 0]) cube([rib_t, pad_d - 2, body_h - 0.01]);
            for (i = [0 : 2]) translate([(i - 1) * pitch, mark_y, body_h])
                touch_mark(["square", "circle", "triangle"][i]);
        }
        // The body prints on its back, so -y points up: the button holes and the ribs' wire holes are teardrops
        // pointing -y, the buttons' cut off 1.1 mm past the hole (under the ring, which still bears all round).
        for (i = [0 : 2]) translate([(i - 1) * pitch, button_y, body_h - panel_t - 1]) linear_extrude(panel_t + 2)
            intersection() {
                rotate(90) teardrop2d(button_hole);
                translate([-button_hole, -button_hole / 2 - 1.1]) square([2 * button_hole, 2 * button_hole]);
            }
        for (sx = [-1, 1], sy = [-1, 1])
            translate([sx * (pad_w / 2 - wall - post / 2), sy * (pad_d / 2 - wall - post / 2), -1]) cylinder(d = 2.6, h = 14);
        for (sx = [-1, 1]) translate([sx * pitch / 2, -pad_d / 2 + 14, rib_hole / 2 + 1.5]) rotate([0, 90, 0]) linear_extrude(rib_t + 2, center = true) rotate(90) teardrop2d(rib_hole);
        // cable exit low in the back wall
        translate([0, pad_d / 2 - wall - 1, 0]) rotate([-90, 0, 0]) cylinder(d = cable_d + 1, h = wall + 2);
        translate([-(cable_d + 1) / 2, pad_d / 2 - wall - 1, -1]) cube([cable_d + 1, wall + 2, 1 + (cable_d + 1) / 2]);
    }
}

module pad_base() {
    difference() {
        translate([-pad_w / 2, -pad_d / 2, 0]) cube([pad_w, pad_d, 3]);
        for (sx = [-1, 1], sy = [-1, 1])
            translate([sx * (pad_w / 2 - wall - post / 2), sy * (pad_d / 2 - wall - post / 2), -1]) {
                cylinder(d = 3.4, h = 5);
                cylinder(d1 = 7, d2 = 3.4, h = 1 + 1.8);   // countersunk M3
            }
    }
    // strain relief: three pegs in front of the cable exit, behind the switches; the cable weaves between them
    for (p = [[-8, pad_d / 2 - 17], [8, pad_d / 2 - 17], [0, pad_d / 2 - 10]]) translate([p[0], p[1], 2.99]) cylinder(d = 5, h = 9);
}

if (part == "pad_body") rotate([-90, 0, 0]) translate([0, -pad_d / 2, 0]) pad_body();   // lies on its back
if (part == "pad_base") pad_base();
// The body from below with its bought switches in colour (caps Black, White, Gray above the panel,
// bodies and solder tabs below), for the build guide (not printed).
module pad_callouts() {
    color("SteelBlue") pad_body();
    for (i = [0 : 2]) translate([(i - 1) * pitch, button_y, 0]) {
        color("DimGray") translate([0, 0, body_h - panel_t - button_depth]) cylinder(d = 16, h = button_depth);
        color(["Black", "White", "Gray"][i]) translate([0, 0, body_h]) cylinder(d = button_cap, h = button_cap_h);
    }
    turn = [180 + 55, 0, 30];
    color("Black") {
        callout([-pitch, button_y], body_h - panel_t - button_depth, -100, "16 mm push buttons (bought)", size = 7, turn = turn);
        callout([pad_w / 2, -pad_d / 2 + 20], body_h / 2, -40, "pad body (printed)", size = 7, turn = turn);
    }
}
if (part == "pad_callouts") pad_callouts();
if (part == "pad_assembly_open") pad_body();   // upright, seen from below in the build guide
if (part == "pad_assembly") { pad_body(); translate([0, 0, -3.01]) pad_base(); }

// Facts the build script reads back (the tests probe the mesh at these places).
echo(base_screws = len([for (sx = [-1, 1], sy = [-1, 1]) 1]), pitch = pitch, button_y = button_y, panel_top = body_h, hood_top = body_h + hood_h, mark_y = mark_y, visor = visor);
