// The sensing tray, printed as four quarters that lock together with dovetails.
//
// Tray coordinates: z = 0 is the floor top (the Conflict Target lies flush in
// its seat there), the centre of the Heat is the origin. One quarter covers
// 0..90 degrees; the other three are the same part turned. The "mcu" quarter
// also has the microcontroller pocket, the USB cable exit and the bolt holes
// for the sensor arm's foot, all around arm_angle.

include <common.scad>

pico = [51, 21];          // Raspberry Pi Pico (a QT Py RP2040 fits the same pocket)
mcu_angle = arm_angle + 18;
tail_r = [tray_r * 0.35, tray_r * 0.8];   // where the dovetails sit along each seam

// The whole tray as one round piece, before it is cut into quarters.
module tray_whole(mcu = false) {
    difference() {
        union() {
            translate([0, 0, -floor_t]) cylinder(r = tray_out_r, h = floor_t);           // floor
            ring(tray_out_r, tray_r, rim_h);                                                 // low rim
            translate([0, 0, -floor_t - skirt_h]) ring(tray_out_r, tray_r, skirt_h + 0.01); // skirt it stands on
            if (mcu) rotate(mcu_angle) translate([tray_r - 2 - pico[0] / 2, 0, -floor_t - 3])
                linear_extrude(3.01) difference() {                                          // board pocket walls
                    square([pico[0] + 4.6, pico[1] + 4.6], center = true);
                    square([pico[0] + 0.6, pico[1] + 0.6], center = true);
                }
        }
        // seat of the target disc, flush with the floor top
        translate([0, 0, -target_disc_t]) cylinder(d = seat_d, h = target_disc_t + 0.01);
        // piezo pockets on the underside, one per quarter
        for (a = [45 : 90 : 359]) rotate(a) translate([piezo_ring_r, 0, -floor_t - 0.01])
            cylinder(d = piezo_d, h = 1.2);
        if (mcu) {
            // USB cable exit through the skirt, in line with the board's connector
            rotate(mcu_angle) translate([tray_r - 3, -7, -floor_t - skirt_h - 0.01]) cube([rim_t + 6, 14, 8]);
            // sensor cable from the board up into the arm's foot
            rotate(arm_angle) translate([tray_r - 3, 0, -floor_t - skirt_h / 2]) rotate([0, 90, 0]) cylinder(d = 8, h = rim_t + 6);
            // two M4 bolts hold the arm's foot against the rim
            for (y = [-foot_bolt_dy, foot_bolt_dy]) rotate(arm_angle) translate([tray_r - 3, y, foot_bolt_z])
                rotate([0, 90, 0]) cylinder(d = 4.4, h = rim_t + 6);
        }
    }
}

// A dovetail in 2D: 12 mm wide at the seam (x = 0), 18 mm at its end (x = 10), so it locks.
module tail2d(grow = 0) {
    offset(delta = grow) polygon([[-0.01, -6], [10, -9], [10, 9], [-0.01, 6]]);
}

module tail_at(r, grow = 0) { translate([0, r]) mirror([1, 0]) tail2d(grow); }

// The plan shape of one quarter: its wedge, plus tails reaching across the
// 90-degree seam, minus sockets for the next quarter's tails at the 0-degree seam.
module quarter2d() {
    difference() {
        union() {
            sector(tray_out_r + 1, 0, 90);
            for (r = tail_r) tail_at(r);
        }
        for (r = tail_r) rotate(-90) tail_at(r, grow = fit / 2);
    }
}

module tray_quarter(mcu = false) {
    intersection() {
        tray_whole(mcu);
        translate([0, 0, -floor_t - skirt_h - 1]) linear_extrude(floor_t + skirt_h + rim_h + 2) quarter2d();
    }
}

if (part == "tray_quarter") tray_quarter(false);
if (part == "tray_quarter_mcu") tray_quarter(true);
if (part == "tray_whole") tray_whole(true);

// Facts the build script reads back.
echo(floor_t = floor_t, arm_angle = arm_angle, foot_bolt_dy = foot_bolt_dy, foot_bolt_z = foot_bolt_z, seat_d = seat_d, seat_depth = target_disc_t, rim_h = rim_h, piezo_ring_r = piezo_ring_r);
