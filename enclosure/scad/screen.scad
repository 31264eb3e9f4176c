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
usb_window = [62, 24];             // Pi's USB and Ethernet, left side, upper half
power_slot = [90, 16];             // power and HDMI side, bottom wall
gpio_slot = [64, 12];              // ribbon to the pads' header
gpio_at = [0, 18];
tilt = 65;                         // screen face from the table, degrees
cheek_t = 6;
cheek_reach = 0.45;                // cheeks cover this share of the side, from the bottom
cheek_holes = [[0.12, 0.35], [0.32, 0.7]];   // (share of height, share of depth)

module shell() {
    difference() {
        translate([-case_out[0] / 2, -case_out[1] / 2, 0]) cube([case_out[0], case_out[1], case_d]);
        translate([-case_in[0] / 2, -case_in[1] / 2, bezel_t]) cube([case_in[0], case_in[1], case_d]);
        translate([window_offset[0] - window[0] / 2, window_offset[1] - window[1] / 2, -1]) cube([window[0], window[1], bezel_t + 2]);
        // ports
        translate([-case_out[0] / 2 - 1, case_out[1] / 4 - usb_window[0] / 2, case_d - usb_window[1] - 4]) cube([case_wall + 2, usb_window[0], usb_window[1]]);
        translate([-power_slot[0] / 2, -case_out[1] / 2 - 1, case_d - power_slot[1] - 4]) cube([power_slot[0], case_wall + 2, power_slot[1]]);
        // vents along the top wall: warm air leaves upward
        for (i = [-5 : 5]) translate([i * 14 - 2.5, case_out[1] / 2 - case_wall - 1, bezel_t + display_t + 6]) cube([5, case_wall + 2, case_d - bezel_t - display_t - 12]);
        // bolts for the cheeks
        for (sx = [-1, 1], h = cheek_holes) translate([sx * case_out[0] / 2, -case_out[1] / 2 + h[0] * case_out[1], h[1] * case_d])
            rotate([0, 90, 0]) cylinder(d = 3.4, h = 3 * case_wall, center = true);
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
        }
        for (sx = [-1, 1], sy = [-1, 1]) translate([sx * display_holes[0] / 2, sy * display_holes[1] / 2, -1]) {
            cylinder(d = 3.4, h = post_len + 2);
            cylinder(d = 6.5, h = 1 + 2);   // screw head sits flush
        }
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

// Facts the build script reads back (the tests probe the mesh at these places).
echo(bezel_t = bezel_t, case_d = case_d, usb_y = case_out[1] / 4, usb_z = case_d - usb_window[1] / 2 - 4,
     gpio_x = gpio_at[0], gpio_y = gpio_at[1], half_w = case_out[0] / 2);
