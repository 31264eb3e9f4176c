// The screen case: a shell for the official Raspberry Pi 7" touchscreen with
// the Pi on its back, a back cover with vents and a slot for the GPIO ribbon
// to the pads, and two side cheeks that stand it on the table at a slant.
//
// Case coordinates: z = 0 is the front face (the shell prints face down),
// z grows toward the back; x across the screen, y up the screen.
// Sizes of the bought parts: check them against your units before printing.

include <common.scad>

glass = [194, 110.8];              // outline of the display's glass
display_t = 8;                     // glass front to the metal back, where its M3 holes are
display_holes = [126.2, 65.65];    // M3 holes in the display's back
window = [156, 88];                // visible area plus a little
window_offset = [0, 0];
case_wall = 2.4;
bezel_t = 2;
case_d = 46;                       // room for the display, the Pi on its back and cable plugs
case_in = [glass[0] + 1, glass[1] + 1];
case_out = [case_in[0] + 2 * case_wall, case_in[1] + 2 * case_wall];
back_t = 3;
usb_window = [17, 24];             // one window per port stack (USB, USB, Ethernet), left side, upper half
usb_y = 26;                        // the middle window's centre
usb_pitch = 20;                    // 3 mm bars between windows: each window's top is a short bridge
power_slot = [26, 16];             // power and HDMI side, bottom wall: three windows
power_pitch = 32;
// The back cover screws to four bosses with M3 heat-set inserts, two on the top wall and two
// on the bottom wall, between the vents, clear of the display's glass.
boss_d = 8;
boss_at = [for (sx = [-1, 1], sy = [-1, 1]) [sx * 63, sy * (glass[1] / 2 + 1 - boss_d / 2)]];
boss_bottom = bezel_t + display_t + 0.5 + boss_d + 1;   // the 45-degree gusset under it starts above the display
insert_hole_depth = insert_depth + 2;                     // room for the screw's tip past the insert
case_screw = [3, 8];               // M3 x 8 through the 3 mm back into a 5.7 mm insert
gpio_slot = [64, 12];              // ribbon to the pads' header
gpio_at = [0, 18];
// Zip-tie anchors beside the GPIO slot: the pad cables are tied to the back so a pull on them
// never reaches the Pi's header.
tie_anchor = [11, 8, 6];           // x, y, z of the block; a tunnel for a 4.8 mm tie runs through it along y
tie_tunnel = [5, 2.6];
// ...and two near the bottom wall for the power and tray USB cables that leave through its windows
// (offsets from gpio_at, like the first two)
power_tie_at = [80, -40];
tie_anchor_at = concat([for (sx = [-1, 1]) [sx * (gpio_slot[0] / 2 + 7), 0]],
                       [for (sx = [-1, 1]) [sx * power_tie_at[0], power_tie_at[1] - gpio_at[1]]]);
tilt = 65;                         // screen face from the table, degrees
cheek_t = 6;
cheek_reach = 0.45;                // cheeks cover this share of the side, from the bottom
cheek_holes = [[0.12, 0.35], [0.32, 0.7]];   // (share of height, share of depth)

// A boss on the top or bottom wall, with a gusset under it at 45 degrees so the shell prints face down.
module boss(p) {
    wall_y = sign(p[1]) * case_in[1] / 2;
    hull() {
        translate([p[0], p[1], boss_bottom]) cylinder(d = boss_d, h = case_d - boss_bottom);
        translate([p[0] - boss_d / 2, wall_y - (p[1] > 0 ? 0 : 0.01) , boss_bottom - boss_d - 1]) cube([boss_d, 0.01, case_d - boss_bottom + boss_d + 1]);
        translate([p[0] - boss_d / 2, min(p[1], wall_y), boss_bottom]) cube([boss_d, abs(wall_y - p[1]), case_d - boss_bottom]);
    }
}

module shell() {
    difference() {
        union() {
            difference() {
                translate([-case_out[0] / 2, -case_out[1] / 2, 0]) cube([case_out[0], case_out[1], case_d]);
                translate([-case_in[0] / 2, -case_in[1] / 2, bezel_t]) cube([case_in[0], case_in[1], case_d]);
            }
            for (p = boss_at) boss(p);
        }
        for (p = boss_at) translate([p[0], p[1], case_d - insert_hole_depth]) cylinder(d = insert_hole, h = insert_hole_depth + 1);
        translate([window_offset[0] - window[0] / 2, window_offset[1] - window[1] / 2, -1]) cube([window[0], window[1], bezel_t + 2]);
        // ports
        for (k = [-1 : 1]) translate([-case_out[0] / 2 - 1, usb_y + k * usb_pitch - usb_window[0] / 2, case_d - usb_window[1] - 4]) cube([case_wall + 2, usb_window[0], usb_window[1]]);
        for (k = [-1 : 1]) translate([k * power_pitch - power_slot[0] / 2, -case_out[1] / 2 - 1, case_d - power_slot[1] - 4]) cube([power_slot[0], case_wall + 2, power_slot[1]]);
        // vents along the top wall: warm air leaves upward
        for (i = [-5 : 5]) translate([i * 14 - 2.5, case_out[1] / 2 - case_wall - 1, bezel_t + display_t + 6]) cube([5, case_wall + 2, case_d - bezel_t - display_t - 12]);
        // bolts for the cheeks
        for (sx = [-1, 1], h = cheek_holes) translate([sx * case_out[0] / 2, -case_out[1] / 2 + h[0] * case_out[1], h[1] * case_d])
            teardrop_x(3.4, 3 * case_wall);
    }
}

module back_cover() {
    post_len = case_d - bezel_t - display_t;
    difference() {
        union() {
            translate([-case_out[0] / 2, -case_out[1] / 2, 0]) cube([case_out[0], case_out[1], back_t]);
            translate([-case_in[0] / 2 + fit, -case_in[1] / 2 + fit, back_t - 0.01]) linear_extrude(3) difference() {   // lip inside the shell
                square([case_in[0] - 2 * fit, case_in[1] - 2 * fit]);
                translate([2, 2]) square([case_in[0] - 2 * fit - 4, case_in[1] - 2 * fit - 4]);
            }
            for (sx = [-1, 1], sy = [-1, 1]) translate([sx * display_holes[0] / 2, sy * display_holes[1] / 2, 0]) cylinder(d = 8, h = post_len);
            for (a = tie_anchor_at) translate([a[0] - tie_anchor[0] / 2, gpio_at[1] + a[1] - tie_anchor[1] / 2, back_t - 0.01]) cube(tie_anchor);
        }
        for (a = tie_anchor_at) translate([a[0] - tie_tunnel[0] / 2, gpio_at[1] + a[1] - tie_anchor[1] / 2 - 1, back_t - 0.02]) cube([tie_tunnel[0], tie_anchor[1] + 2, tie_tunnel[1]]);
        // the shell's bosses: room for them in the lip, and the screws into their inserts
        for (p = boss_at) translate([p[0], p[1], -1]) {
            translate([0, 0, 1]) bed_recess(3.4, 6.5, 1.5, back_t + 4);   // the screw's head sits in it: 1.5 mm of plate stays under it
            // the boss's notch through the lip starts at the plate's top (z = back_t), and runs out past the
            // lip's outer edge, so no sliver of lip is left beside it (tests/enclosure/test_walls.py)
            translate([0, 0, 1 + back_t]) hull() {
                cylinder(d = boss_d + 2 * fit + 1, h = 10);
                translate([-(boss_d + 2 * fit + 1) / 2, p[1] > 0 ? 0 : -8, 0]) cube([boss_d + 2 * fit + 1, 8, 10]);
            }
        }
        for (sx = [-1, 1], sy = [-1, 1]) translate([sx * display_holes[0] / 2, sy * display_holes[1] / 2, 0])
            bed_recess(3.4, 6.5, 2, post_len + 1);   // screw head sits flush
        translate([gpio_at[0] - gpio_slot[0] / 2, gpio_at[1] - gpio_slot[1] / 2, -1]) cube([gpio_slot[0], gpio_slot[1], back_t + 2]);
        // vent slots over the Pi
        for (i = [-4 : 4]) translate([i * 10 - 2, -case_in[1] / 2 + 12, -1]) cube([4, 36, back_t + 2]);
    }
}

// Map a point of the case's side (share of height up the screen, depth) onto
// the plane of a cheek: y toward the back, z up from the table.
function side_point(up, depth) =
    let(u = [cos(tilt), sin(tilt)], n = [sin(tilt), -cos(tilt)], base = [0, case_d * cos(tilt) + 6])
    base + up * case_out[1] * u + depth * n;

module cheek() {
    pts = [side_point(0, 0), side_point(cheek_reach, 0), side_point(cheek_reach, case_d), side_point(0, case_d)];
    difference() {
        linear_extrude(cheek_t) hull() {
            polygon(pts);
            ys = [for (p = pts) p[0]];
            translate([min(ys) - 5, 0]) square([max(ys) - min(ys) + 25, 1]);   // the edge that stands on the table
        }
        for (h = cheek_holes) let(p = side_point(h[0], h[1] * case_d)) translate([p[0], p[1], -1]) cylinder(d = 3.4, h = cheek_t + 2);
    }
}

if (part == "screen_shell") shell();
if (part == "screen_back") back_cover();
if (part == "screen_stand") cheek();
if (part == "screen_open") {          // the shell from the back with the cover lifted off: bosses and inserts
    shell();
    translate([0, 0, case_d + back_t + 40]) mirror([0, 0, 1]) back_cover();
}

// The screen with its bought parts in colour, for the build guide (not printed): the display in the
// shell, the Pi on the display's back (ports toward the left wall's windows), the back cover lifted off.
pi_board = [85, 56, 1.6];          // Raspberry Pi 4 / 5
pi_ports = [21, 53, 16];           // the USB and Ethernet stack on its short edge
pi_z = bezel_t + display_t + 6;    // on the display's standoffs
pi_at = [-case_in[0] / 2 + 2, usb_y - pi_board[1] / 2];
module screen_callouts() {
    color("SteelBlue") { shell(); translate([240, 0, case_d + back_t + 60]) mirror([0, 0, 1]) back_cover(); }
    color("Black") translate([-glass[0] / 2, -glass[1] / 2, bezel_t]) cube([glass[0], glass[1], 1.6]);
    color("Silver") translate([-glass[0] / 2 + 15, -glass[1] / 2 + 5, bezel_t + 1.6]) cube([glass[0] - 30, glass[1] - 10, display_t - 1.6]);
    color("Green") translate([pi_at[0], pi_at[1], pi_z]) cube(pi_board);
    color("Silver") translate([pi_at[0], pi_at[1] + 1.5, pi_z + pi_board[2]]) cube(pi_ports);
    color("Black") {
        callout([pi_at[0] + 60, pi_at[1] + 30], pi_z + 2, case_d + 40, "Raspberry Pi (bought)", size = 12);
        callout([40, -40], bezel_t + display_t, case_d + 60, "7-inch display (bought)", size = 12);
        callout([-80, -case_out[1] / 2], case_d / 2, -70, "shell (printed)", size = 12);
        callout([280, 30], case_d + 60, case_d + 100, "back cover (printed)", size = 12);
    }
}
if (part == "screen_callouts") screen_callouts();

// Facts the build script reads back (the tests probe the mesh at these places).
echo(case_screws = len(boss_at), cheek_screws = 2 * len(cheek_holes), display_screws = 4, tie_anchors = len(tie_anchor_at),
     boss_x = boss_at[0][0], boss_y = abs(boss_at[0][1]), insert_hole_depth = insert_hole_depth, back_t = back_t,
     tie_x = tie_anchor_at[1][0], tie_y = gpio_at[1], tie_h = tie_tunnel[1],
     power_tie_x = power_tie_at[0], power_tie_y = power_tie_at[1]);
echo(bezel_t = bezel_t, case_d = case_d, usb_y = usb_y, usb_z = case_d - usb_window[1] / 2 - 4,
     gpio_x = gpio_at[0], gpio_y = gpio_at[1], half_w = case_out[0] / 2);
