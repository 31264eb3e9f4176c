// The sensor arm: a foot bolted to the tray's rim, a square post in as many
// pieces as the print bed needs, and a boom that holds the VL53L0X face down
// straight above the centre of the Heat, inside a shroud that narrows its view.
//
// "arm_assembly" is the whole arm in tray coordinates (floor top at z = 0, the
// Heat's axis at x = y = 0, the post on the +x side). It is not printed; the
// tests measure it. The other parts are laid out the way they print best.

include <common.scad>

// table_z (the table the tray stands on) is in common.scad
foot_top = table_z + foot_h;
boom_bottom = sensor_height_mm - head_below;
post_total = boom_bottom - foot_top;      // visible post between foot and boom
post_pieces = ceil(post_total / max_print_len);
post_len = post_total / post_pieces;
cable_z = table_z + skirt_h / 2;          // height of the sensor cable hole in the skirt

assert(post_total > 0, "the sensor sits lower than the foot: raise sensor_height_mm");

module socket() { translate([-(spigot + fit) / 2, -(spigot + fit) / 2, -spigot_len - 1]) cube([spigot + fit, spigot + fit, spigot_len + 2]); }
module peg(len) { translate([-spigot / 2, -spigot / 2, -len]) cube([spigot, spigot, len + 0.01]); }

// Foot, in tray coordinates: hugs the rim's outside, bolted through it.
module arm_foot() {
    difference() {
        translate([tray_out_r - 2, -foot_w / 2, table_z]) cube([foot_depth + 2, foot_w, foot_h]);
        translate([0, 0, table_z - 1]) cylinder(r = tray_out_r + fit / 2, h = foot_h + 2, $fa = 1);
        translate([post_r, 0, foot_top]) socket();
        // cable: in from the tray's skirt hole, then up the post's bore
        // (holes lying along x are teardrops, point up, so the foot prints standing without support)
        translate([tray_out_r - 3, 0, cable_z]) rotate([0, 90, 0]) linear_extrude(post_r - tray_out_r + 3) teardrop2d(post_bore);
        translate([post_r, 0, cable_z]) cylinder(d = post_bore, h = foot_h);
        for (y = [-foot_bolt_dy, foot_bolt_dy]) translate([tray_out_r - 3, y, foot_bolt_z]) rotate([0, 90, 0]) {
            linear_extrude(foot_depth + 6) teardrop2d(4.4);
            translate([0, 0, foot_depth - 3]) linear_extrude(10) teardrop2d(9);   // room for the nut and a spanner
        }
    }
}

// One post piece, standing, bottom of its body at z = 0. A socket at each end:
// a peg sticking out of a piece lying on its side would hang in the air, so the
// pieces are joined by separate joiners (below) that print standing up.
// It prints on its side with -x up (rotate([0, 90, 0]) below), so its holes have roofs toward -x: the bore
// is a teardrop, and each socket's ceiling is chamfered at 45 degrees, leaving a shorter flat bridge.
socket_chamfer = 2;
module socket_roofed() {
    w = spigot + fit;
    translate([0, 0, -spigot_len - 1]) linear_extrude(spigot_len + 2) hull() {
        square(w, center = true);
        translate([-w / 2 - socket_chamfer / 2, 0]) square([socket_chamfer, w - 2 * socket_chamfer], center = true);
    }
}
module arm_post() {
    difference() {
        translate([-post_w / 2, -post_w / 2, 0]) cube([post_w, post_w, post_len]);
        translate([0, 0, post_len]) socket_roofed();
        translate([0, 0, spigot_len]) rotate([180, 0, 0]) socket_roofed();
        translate([0, 0, -1]) linear_extrude(post_len + 2) teardrop2d(post_bore);
    }
}

// A square joiner: half in the socket below, half in the one above; the cable runs through it,
// plug first, so its bore is the post's (a JST-SH plug is 6 x 3 mm, 6.7 mm across its corners;
// enclosure/cables.py checks every bore on the cable's way). The wall stays (spigot - bore) / 2 = 2 mm.
joiner_len = 2 * spigot_len - 1;
joiner_bore = post_bore;
module arm_joiner() {
    difference() {
        translate([-spigot / 2, -spigot / 2, 0]) cube([spigot, spigot, joiner_len]);
        translate([0, 0, -1]) cylinder(d = joiner_bore, h = joiner_len + 2);
    }
}

// Where the board lies: the chip right over the bore. Board coordinates: x along the
// long side toward the post (the STEMMA QT port the cable plugs into), y across.
board_c = [-chip_at_x, -chip_at_y];
seat_z = sensor_height_mm + chip_t;            // the board's face rests on the ledges here
recess_z = sensor_height_mm - chip_gap;        // floor under the board's parts; the bore's top
ledge = 1.6;                                   // ledges along the long edges carry the board
// The cable's groove on top of the boom, wide enough to take the plug's cable where it comes
// up beside the axis; the plug's slot is as wide, so neither leaves a shelf when printed upside down.
groove_y = [min(-post_bore / 2, board_c[1] - qt_plug[1] / 2), max(post_bore / 2, board_c[1] + qt_plug[1] / 2)];

// The pocket for the breakout: the board on two ledges, room under it for its parts,
// the two STEMMA QT sockets, and the plug with its cable turning up into the groove.
module sensor_pocket(top) {
    translate([board_c[0] - sensor_board[0] / 2, board_c[1] - sensor_board[1] / 2, seat_z]) cube([sensor_board[0], sensor_board[1], top - seat_z + 1]);
    translate([board_c[0] - sensor_board[0] / 2, board_c[1] - sensor_board[1] / 2 + ledge, recess_z]) cube([sensor_board[0], sensor_board[1] - 2 * ledge, seat_z - recess_z + 0.01]);
    for (sx = [-1, 1]) translate([board_c[0] + sx * (sensor_board[0] / 2 - qt_socket[0] / 2), board_c[1], seat_z - qt_socket[2] / 2 - 0.5])
        cube([qt_socket[0] + 1, qt_socket[1] + 1, qt_socket[2] + 1.01], center = true);
    // the plug in the +x socket and its cable, out past the board's edge and up to the groove
    translate([board_c[0] + sensor_board[0] / 2 - qt_socket[0], groove_y[0], seat_z - qt_plug[2]]) cube([qt_socket[0] + qt_plug[0], groove_y[1] - groove_y[0], top - seat_z + qt_plug[2] + 1]);
}

// The two stock sensor cables (500 mm from the board, 200 mm to the sensor) meet at a small
// passive Qwiic board (SparkFun Qwiic MultiPort, 25.4 mm square) in a bay on top of the boom.
join_board = [25.4 + 2 * fit, 25.4 + 2 * fit, 5];
join_x = post_r - post_w / 2 - join_board[0] / 2 - 3;   // the bay's centre along the boom, next to the post

// Boom, sensor head and shroud, in tray coordinates.
module arm_boom() {
    top = sensor_height_mm + head_above;
    difference() {
        union() {
            translate([0, -post_w / 2, boom_bottom]) cube([post_r + post_w / 2, post_w, boom_h]);
            translate([-head_w / 2, -head_w / 2, boom_bottom]) cube([head_w, head_w, boom_h]);
            translate([post_r, 0, boom_bottom]) peg(spigot_len);
            translate([join_x - join_board[0] / 2 - 2.4, -join_board[1] / 2 - 2.4, boom_bottom]) cube([join_board[0] + 4.8, join_board[1] + 4.8, boom_h]);
            translate([0, 0, shroud_mouth_z]) cylinder(r = max(mouth_r, bore_r) + shroud_wall, h = shroud_len - head_below + 0.01);
        }
        sensor_pocket(top);
        translate([join_x - join_board[0] / 2, -join_board[1] / 2, top - join_board[2]]) cube([join_board[0], join_board[1], join_board[2] + 1]);
        // the view: from the bore under the chip to the shroud's mouth
        translate([0, 0, shroud_mouth_z - 0.01]) cylinder(r1 = mouth_r, r2 = bore_r, h = shroud_len + 0.02);
        // cable: up the post into the boom, along a groove on top into the pocket
        translate([post_r, 0, boom_bottom - spigot_len - 1]) cylinder(d = post_bore, h = spigot_len + boom_h + 2);
        translate([board_c[0] + sensor_board[0] / 2, groove_y[0], top - post_bore]) cube([post_r - sensor_board[0] / 2 + 1, groove_y[1] - groove_y[0], post_bore + 1]);
    }
}

module arm_assembly() {
    arm_foot();
    for (i = [0 : post_pieces - 1]) translate([post_r, 0, foot_top + i * post_len]) {
        arm_post();
        translate([0, 0, -spigot_len + 0.5]) arm_joiner();      // into the foot or the piece below
    }
    arm_boom();
}

// The cone the sensor can see, down to the floor (only for pictures).
module view_cone() {
    translate([0, 0, 0]) cylinder(r1 = view_radius_at(0), r2 = bore_r, h = sensor_height_mm);
}

if (part == "arm_assembly") arm_assembly();
if (part == "arm_foot") translate([-post_r, 0, -table_z]) arm_foot();
if (part == "arm_post") rotate([0, 90, 0]) arm_post();           // printed lying on a side
if (part == "arm_head")                                          // the head alone, for the build guide's picture
    intersection() { arm_boom(); translate([-head_w, -head_w, sensor_height_mm - 30]) cube([2 * head_w + 12, 2 * head_w, 60]); }
// The head with its bought board in colour, for the build guide (not printed): the VL53L0X face down
// on its ledges over the bore.
module head_callouts() {
    top = sensor_height_mm + head_above;
    turn = [40, 0, 330];                 // the picture's camera: the words face it
    color("SteelBlue") intersection() { arm_boom(); translate([-head_w, -head_w, sensor_height_mm - 30]) cube([2 * head_w + 12, 2 * head_w, 60]); }
    color("Purple") translate([board_c[0] - sensor_board_x / 2, board_c[1] - sensor_board_y / 2, seat_z]) cube([sensor_board_x, sensor_board_y, 1.6]);
    color("Black") callout([board_c[0], board_c[1]], seat_z + 1.6, top + 25, "VL53L0X (bought)", size = 6, turn = turn);
}
if (part == "head_callouts") head_callouts();
if (part == "arm_joiner") arm_joiner();                          // standing
if (part == "arm_boom")                                           // upside down, across the bed's diagonal
    rotate(45) rotate([180, 0, 0]) translate([-(post_r + post_w / 2) / 2, 0, -(sensor_height_mm + head_above)]) arm_boom();

// Facts the build script reads back into its parts list.
// The sensor cable from where it enters the foot to the sensor's plug: across the foot, up the
// post, along the boom's groove and down into the head (the bill of materials checks its length).
// Split at the join: the first part with the tray's share makes the 500 mm cable's run.
cable_to_join = (post_r - tray_out_r) + (boom_bottom + boom_h - cable_z) + (post_r - join_x);
cable_from_join = (join_x - join_board[0] / 2 - board_c[0] - sensor_board[0] / 2) + post_bore + qt_plug[2];
cable_in_arm = cable_to_join + cable_from_join;
echo(foot_bolts = 2, cable_in_arm = cable_in_arm, cable_to_join = cable_to_join, cable_from_join = cable_from_join,
     join_x = join_x, join_w = join_board[0], join_depth = join_board[2]);
echo(post_r = post_r, cable_z = cable_z, foot_top = foot_top, boom_bottom = boom_bottom, post_bore = post_bore,
     joiner_bore = joiner_bore, tray_out_r = tray_out_r);
echo(post_pieces = post_pieces, joiners = post_pieces, board_cx = board_c[0], board_cy = board_c[1], seat_z = seat_z, plug_y = board_c[1], post_len = post_len, shroud_mouth_z = shroud_mouth_z, mouth_d = 2 * mouth_r, view_r_floor = view_radius_at(0));
