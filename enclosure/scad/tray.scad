// The sensing tray, printed as four quarters that lock together with dovetails.
//
// Tray coordinates: z = 0 is the floor top (the Conflict Target lies flush in
// its seat there), the centre of the Heat is the origin. One quarter covers
// 0..90 degrees; the other three are the same part turned. The "mcu" quarter
// also has the microcontroller pocket, the USB cable exit and the bolt holes
// for the sensor arm's foot, all around arm_angle.

include <common.scad>

// The tray prints skirt down with nothing to support: the floor is solid from
// the bed up (the slicer's infill keeps it light), and everything under the floor
// is a pocket or a channel open to the bed, so each ceiling is a short bridge
// (the printability test measures them).

// The tray's board lies in a pocket under the floor, USB end toward the exit.
// QT Py RP2040 (Adafruit 4900): 21.8 x 17.8 mm; a Pico (51 x 21 mm) takes board = "pico".
board = "qtpy";
board_size = board == "pico" ? [51, 21] : [21.8, 17.8];
board_pocket = [board_size[0] + 2 * fit, board_size[1] + 2 * fit];
under_h = floor_t + skirt_h;           // from the bed to the floor top
pocket_h = 8;                          // board, plugs and wires under the floor
channel_w = 6;                         // wire channels from the piezos to the board
mcu_angle = arm_angle + 18;
usb_plug = 18;                         // a USB plug with its boot, out of the board's end
board_r = tray_r - 10 - usb_plug - board_pocket[0] / 2;    // board centre, radially
usb_exit_w = 14;
// The piezo board (hardware/boards/piezo_board.py: 41 x 21 mm cut stripboard) lies beside the tray's
// board, lengthwise along the radius, in a pocket of its own: a 2 mm wall keeps the tray's board snug, and a
// notch through it at the inner end lets the three wires across.
piezo_board = [41, 21];
piezo_board_pocket = [piezo_board[0] + 2 * fit, piezo_board[1] + 2 * fit];
piezo_wall = 2;
piezo_board_y = board_pocket[1] / 2 + piezo_wall + piezo_board_pocket[1] / 2;   // across the radius, from the board's centre
relief_pegs = [[tray_r - 2, -2], [tray_r - 9, 2]];      // the USB cable weaves between them (radial, across)
relief_peg_d = 5;
tail_r = [tray_r * 0.35, tray_r * 0.8];   // where the dovetails sit along each seam

// A wire channel's cross-section (across it, up from the bed): w wide, pocket_h high at the
// middle, its roof two 45-degree slopes.
module channel_profile(w = channel_w) {
    h = pocket_h - w / 2;
    polygon([[-w / 2, 0], [w / 2, 0], [w / 2, h], [0, pocket_h], [-w / 2, h]]);
}

// Everything under the floor, in 2D: pockets and channels open to the bed.
module underside2d(mcu) {
    for (a = [45 : 90 : 359]) rotate(a) translate([piezo_ring_r, 0]) circle(d = piezo_d);
    if (mcu) {
        rotate(mcu_angle) {
            translate([board_r, 0]) square(board_pocket, center = true);
            translate([board_r, piezo_board_y]) square(piezo_board_pocket, center = true);
            translate([board_r - board_pocket[0] / 2 + 1, board_pocket[1] / 2 - 1]) square([5, piezo_wall + 2]);   // the wires' notch
            difference() {   // the USB exit, with the cable's strain relief pegs standing in it
                translate([board_r, -usb_exit_w / 2]) square([tray_out_r + 2 - board_r, usb_exit_w]);
                for (p = relief_pegs) translate(p) circle(d = relief_peg_d);
            }
        }
    }
}

// The whole tray as one round piece, before it is cut into quarters.
module tray_whole(mcu = false) {
    difference() {
        union() {
            translate([0, 0, -under_h]) cylinder(r = tray_out_r, h = under_h);              // floor, solid to the bed
            ring(tray_out_r, tray_r, rim_h);                                                 // low rim
        }
        // seat of the target disc, flush with the floor top
        translate([0, 0, -target_disc_t]) cylinder(d = seat_d, h = target_disc_t + 0.01);
        // piezo pockets: up to 1.2 mm into the old floor plate, so the discs sit under the throws
        for (a = [45 : 90 : 359]) rotate(a) translate([piezo_ring_r, 0, -under_h - 0.01])
            cylinder(d = piezo_d, h = skirt_h + 1.2);
        translate([0, 0, -under_h - 0.01]) linear_extrude(pocket_h) underside2d(mcu);
        // the piezos' wire channels: the ring through the pockets and, in the board's quarter, out to the
        // board. Their ceilings are 45-degree roofs, not flat bridges a seam cuts open (the slicer supports those)
        translate([0, 0, -under_h - 0.01]) {
            rotate_extrude($fn = 360) translate([piezo_ring_r, 0]) channel_profile();
            if (mcu) rotate(mcu_angle) translate([piezo_ring_r, 0, 0]) rotate([90, 0, 90]) linear_extrude(board_r - piezo_ring_r) channel_profile();
            // the load cell's well to the sensor cable's channel: the STEMMA QT cables of the NAU7802 on the
            // cell's base (straight out along the cell's line, under the piezo, into the sensor cable's channel)
            // the sensor cable: from the board to the arm's foot, out under the rim
            if (mcu) hull() {
                rotate(mcu_angle) translate([board_r - 4, -board_pocket[1] / 2 + 4, 0]) rotate([90, 0, 90]) linear_extrude(8) channel_profile(8);
                rotate(arm_angle) translate([tray_r - 8, 0, 0]) rotate([90, 0, 90]) linear_extrude(8) channel_profile(8);
            }
            if (mcu) rotate(arm_angle) translate([tray_r - 8, 0, 0]) rotate([90, 0, 90]) linear_extrude(rim_t + 12) channel_profile(8);
            if (mcu) along() translate([well_end_u - 4, 0, 0]) rotate([90, 0, 90]) linear_extrude(tray_r - 8 - well_end_u + 4) channel_profile(8);
        }
        // the plinth's stem passes through the centre; the load cell's base stands in a well under
        // the board's quarter, on the table, touching nothing of the tray (plinth.scad)
        translate([0, 0, -under_h - 1]) cylinder(d = stem_hole_d, h = under_h + 2);
        if (mcu) translate([0, 0, -under_h - 0.01]) linear_extrude(well_top + under_h + 0.01)
            intersection() { well2d(); translate([2, 2]) square(tray_out_r); }
        if (mcu) {
            // two M4 bolts hold the arm's foot against the rim
            for (y = [-foot_bolt_dy, foot_bolt_dy]) rotate(arm_angle) translate([tray_r - 3, y, foot_bolt_z])
                rotate([0, 90, 0]) linear_extrude(rim_t + 6) teardrop2d(4.4);   // point up: no support
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

// The board's quarter from below with its bought parts in colour, for the build guide (not printed):
// the QT Py in its pocket with the USB plug toward the exit, the piezo board beside it, the piezo disc
// in its pocket under the floor.
module tray_callouts() {
    turn = [235, 0, 335];                 // the picture's camera: the words face it
    board_z = -under_h + 1.5;
    color("SteelBlue") tray_quarter(true);
    rotate(mcu_angle) {
        color("Purple") translate([board_r - board_size[0] / 2, -board_size[1] / 2, board_z]) cube([board_size[0], board_size[1], 1.6]);
        color("DimGray") translate([board_r + board_size[0] / 2, -4, board_z]) cube([usb_plug, 8, 6]);
        color("Peru") translate([board_r - piezo_board[0] / 2, piezo_board_y - piezo_board[1] / 2, board_z]) cube([piezo_board[0], piezo_board[1], 1.6]);
    }
    color("Gold") rotate(45) translate([piezo_ring_r, 0, -floor_t - 0.6]) cylinder(d = 27, h = 0.6);
    color("Black") {
        callout([board_r * cos(mcu_angle), board_r * sin(mcu_angle)], board_z, -under_h - 75, "QT Py", size = 8, turn = turn);
        callout([(board_r + 4) * cos(mcu_angle) - piezo_board_y * sin(mcu_angle), (board_r + 4) * sin(mcu_angle) + piezo_board_y * cos(mcu_angle)],
                board_z, -under_h - 45, "piezo board", size = 8, turn = turn);
        callout([piezo_ring_r * cos(45), piezo_ring_r * sin(45)], -floor_t - 0.6, -under_h - 105, "piezo disc", size = 8, turn = turn);
        callout([(board_r + 25) * cos(mcu_angle), (board_r + 25) * sin(mcu_angle)], board_z + 3, -under_h - 15, "USB plug", size = 8, turn = turn);
    }
}
if (part == "tray_callouts") tray_callouts();

// The sensor cable under the floor: from the board to where it leaves under the rim, with slack to plug in.
cable_in_tray = norm([board_r * cos(mcu_angle), board_r * sin(mcu_angle)] - [(tray_r + rim_t) * cos(arm_angle), (tray_r + rim_t) * sin(arm_angle)]) + 30;
echo(cable_in_tray = cable_in_tray, piezo_pockets = 4);
// Facts the build script reads back.
echo(floor_t = floor_t, under_h = under_h, pocket_h = pocket_h, board_pocket_x = board_pocket[0], board_pocket_y = board_pocket[1], board_r = board_r, mcu_angle = mcu_angle, relief_peg_r = relief_pegs[0][0], relief_peg_y = relief_pegs[0][1], usb_exit_w = usb_exit_w, usb_plug = usb_plug, arm_angle = arm_angle, foot_bolt_dy = foot_bolt_dy, foot_bolt_z = foot_bolt_z, seat_d = seat_d, seat_depth = target_disc_t, rim_h = rim_h, piezo_ring_r = piezo_ring_r,
     piezo_pocket_x = piezo_board_pocket[0], piezo_pocket_y = piezo_board_pocket[1], piezo_pocket_at = piezo_board_y);
