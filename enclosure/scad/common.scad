// Table Noir enclosure: shared numbers.
//
// The first block mirrors the [geometry] section of hardware/table-noir.toml.
// `python -m enclosure.build` passes the configured values with -D, so the
// defaults here only matter when you open a file by hand in the OpenSCAD GUI.
// Everything below the first block is derived from it or is a fixed fact of a
// bought part (sensor board, buttons, screen) that you can check with a ruler.

// ---- from the configuration (hardware/config.py, GeometryConfig) ----------
die_size_mm = 16;          // edge of a Heat d6
sensor_height_mm = 320;    // VL53L0X lens above the tray floor
max_heat_dice = 14;        // tallest Heat the tray must measure
tray_diameter_mm = 380;    // inside diameter of the tray
target_inner_mm = 120;     // Conflict Target's solid ring
throw_line_mm = 300;       // dashed throwing line
sensor_min_range_mm = 50;  // closest reliable VL53L0X range
sensor_max_range_mm = 1200;// farthest reliable range on a matte tray
pads = 6;                  // number of player pads (only the bill of parts uses it)

// Which part to build; each part file knows its own names.
part = "";

// ---- print and fit -------------------------------------------------------
fit = 0.3;                 // clearance between printed parts that slide together
$fa = 3;                   // facet angle: smooth enough, quick enough for CGAL
$fs = 1;

// ---- the Heat and the view of the sensor ---------------------------------
// The Heat stands on a raised plinth at the target's centre, weighed by a load cell under
// the tray (plinth.scad). The build passes plinth_h from enclosure/checks.py (PLINTH_MM).
plinth_h = 20;                                     // the plinth's top above the floor's top
stack_top = plinth_h + max_heat_dice * die_size_mm;  // top of the tallest Heat
// The Heat stands inside a circle three dice wide, printed on the target. A die
// lying wholly outside that circle must be outside the sensor's view.
// (The build passes HEAT_ZONE_DICE from enclosure/checks.py.)
heat_zone_dice = 3;
heat_zone_r = heat_zone_dice * die_size_mm / 2;
// A hand adding one more die to the tallest Heat must not touch the shroud.
// The shroud reaches down to there, but no longer than max_shroud, so the
// boom still prints on a common bed when the sensor is mounted high.
hand_gap = 4;
max_shroud = 120;
shroud_mouth_z = max(stack_top + die_size_mm + hand_gap, sensor_height_mm - max_shroud);
shroud_len = sensor_height_mm - shroud_mouth_z;
// Bore right under the sensor chip (the 4.4 x 2.4 mm VL53L0X package fits in it).
bore_r = 3;
// Widest ray: from one edge of the bore at the lens through the opposite edge
// of the mouth. Choose the mouth so that ray meets the floor 1 mm inside the zone.
view_margin = 1;
mouth_r = (heat_zone_r - view_margin + bore_r) * shroud_len / sensor_height_mm - bore_r;
shroud_wall = 2.4;
// Floor radius that the widest ray reaches (what the tests measure on the mesh).
function view_radius_at(z) =
    -bore_r + (mouth_r + bore_r) * (sensor_height_mm - z) / shroud_len;

// The sensor must be able to measure the Heat; hardware/config.py refuses
// these cases too, this repeats the check for anyone rendering by hand.
assert(sensor_height_mm - stack_top >= sensor_min_range_mm + die_size_mm,
       str("sensor_height_mm ", sensor_height_mm, " leaves less than the sensor's minimum range plus one die above a ",
           max_heat_dice, "-die Heat"));
assert(sensor_height_mm <= 0.8 * sensor_max_range_mm,
       str("sensor_height_mm ", sensor_height_mm, " is too far for a steady empty-tray reading"));
assert(mouth_r >= 1,
       str("the shroud's mouth would be only ", 2 * mouth_r, " mm wide, too little light to range: ",
           shroud_len < max_shroud ? "mount the sensor higher so the shroud can be longer"
                                   : "mount the sensor lower", ", or widen the Heat circle"));
assert(mouth_r + shroud_wall <= 12, "the shroud mouth is wider than the sensor head allows");
assert(throw_line_mm < tray_diameter_mm && target_inner_mm < throw_line_mm,
       "the target ring must sit inside the throwing line, inside the tray");

// ---- tray -----------------------------------------------------------------
tray_r = tray_diameter_mm / 2;      // inside of the rim
rim_t = 4;                          // rim wall
tray_out_r = tray_r + rim_t;
rim_h = max(25, die_size_mm + 8);   // low rim above the floor: stops a rolling die
floor_t = 6;                        // floor plate
skirt_h = 10;                       // room under the floor for piezos, board, wires
target_disc_t = 2;                  // the Conflict Target: a sheet on 2 mm card or a 2 mm print
target_disc_d = min(throw_line_mm + 30, tray_diameter_mm - 10);   // the build passes target.disc_diameter()
seat_d = target_disc_d + 1;         // recess in the floor top; the disc lies flush
piezo_d = 28;                       // 27 mm piezo disc plus room
piezo_ring_r = (target_inner_mm / 2 + tray_r) / 2;
arm_angle = 45;                     // arm and board sit mid-way along the special quarter

// ---- sensor arm ---------------------------------------------------------
post_w = 20;                        // square post
post_bore = 8;                      // cable runs inside the post
spigot = 12;                        // square peg that joins arm pieces
spigot_len = 15;
foot_h = 40;                        // foot block that bolts to the rim
foot_depth = 26;
foot_w = 32;
foot_bolt_z = rim_h / 2;            // two M4 bolts through the rim, side by side
foot_bolt_dy = 10;
post_r = tray_out_r + foot_depth / 2;   // post axis distance from the tray centre
head_w = 36;                        // sensor head block, square
head_below = 6;                     // block under the lens plane
head_above = 14;                    // pocket above it for the board and its wires
boom_h = head_below + head_above;
// Bought parts (enclosure/bought.py passes these; the defaults are the same numbers).
sensor_board_x = 25.4;              // Adafruit VL53L0X breakout, STEMMA QT version
sensor_board_y = 17.8;
chip_at_x = 0;                      // the chip's centre from the board's centre
chip_at_y = 3.6;
chip_t = 1.0;                       // chip height off the board's face
chip_gap = 0.8;                     // air between the chip's face and the bore's top
insert_hole = 4.0;                  // M3 heat-set insert
insert_depth = 6.0;
sensor_board = [sensor_board_x + 2 * fit, sensor_board_y + 2 * fit];
qt_plug = [10, 8, 4.5];             // JST SH plug with the cable's bend: length past the board edge, width, height
qt_socket = [4.5, 7, 3.2];          // the socket on the board's face: depth in from the edge, width, height
max_print_len = 190;                // longest post piece

// ---- the weighing: plinth, load cell, its base (plinth.scad; the tray's well in tray.scad) ----
// A straight-bar load cell of the TAL221 kind (1 kg): 47 x 12 x 6 mm, two M3 threaded holes across
// each end. It lies under the floor along the 45-degree line of the board's quarter, its free end
// toward the centre; its base stands on the table on its own rubber feet, never on the tray.
cell = [47, 12, 6];                 // length, width, height (enclosure/bought.py)
cell_hole_in = 5;                   // each end's pair of holes from that end
cell_hole_dv = 6;                   // the pair's spacing across the bar
cell_free_u = 30;                   // the free end's holes, from the centre along the cell
cell_fixed_u = cell_free_u + cell[0] - 2 * cell_hole_in;
cell_angle = arm_angle;             // in the board's quarter, under the arm
table_z = -floor_t - skirt_h;       // the table (the tray's skirt and the base stand on equal feet)
base_t = 2.4;                       // the base plate
cell_lift = 1.2;                    // the pedestal under the fixed end: the bar bends freely above the plate
cell_z = table_z + base_t + cell_lift;      // the cell's underside
arm_t = 3;                          // the adapter's bar from the free end to the stem
adapter_top = cell_z + cell[2] + 2;         // the pad on the free end is 2 mm thick
well_top = -target_disc_t - 1.2;    // the well's ceiling under the target's seat
plinth_top = die_size_mm + 2;       // just wider than one die: a fallen die does not stay on it
plinth_gap = 1.5;                   // air between the plinth and the target disc
stem_d = 8;
stem_hole_d = 20;                   // through the floor and the disc: 6 mm of air round the stem, 1.8 round the cup
stem_socket = 4;                    // the stem's depth in the adapter
cup_in = 14;                        // the damping cup under the stem: silicone oil round the adapter's boss
cup_wall = 1.2;
boss_d_cell = 11.4;                    // the adapter's boss that dips into the oil
stop_gap = 0.3;                     // the overload stop: the boss lands on the stop screw after this travel
cell_boss_bottom = table_z + base_t + 3 + 1.1;   // seated M3 socket head (3 mm) plus 1.1 mm; set the screw to stop_gap
well_end_u = 108;                   // the base's plate ends here (room for the NAU7802 breakout beyond the cell)
well_clear = 1.5;                   // air between the base and the tray's well

module along() { rotate(cell_angle) children(); }     // the cell's frame (u, v) -> tray (x, y)

// The base's outline in the cell's frame: the cup under the centre, a strip to the cell, the plate.
module base2d() {
    circle(d = cup_in + 2 * cup_wall);
    translate([0, -4]) square([cell[0], 8]);
    translate([cell_free_u - cell_hole_in - 3, -12]) square([well_end_u - (cell_free_u - cell_hole_in - 3), 24]);
}

// The tray's well: the base's outline grown by the clearance, up to the well's ceiling, kept inside
// the quarter (2 mm from each seam), plus the stem's hole through the floor at the centre.
module well2d() { offset(delta = well_clear) along() base2d(); }


// ---- helpers --------------------------------------------------------------
module ring(r_out, r_in, h) {
    difference() { cylinder(r = r_out, h = h); translate([0, 0, -1]) cylinder(r = r_in, h = h + 2); }
}
// 2D wedge from angle a0 to a1 (degrees), radius r.
module sector(r, a0, a1) {
    steps = max(2, ceil((a1 - a0) / 3));
    polygon(concat([[0, 0]], [for (i = [0:steps]) let(a = a0 + (a1 - a0) * i / steps) [r * cos(a), r * sin(a)]]));
}

// A screw's hole with its head's (or nut's) recess open to the bed, cut so it prints without support:
// the recess's ceiling would be a ring hanging in the air, and a slicer on auto supports it. Instead a
// skin closes the recess (the slicer bridges its first layer from wall to wall) and the hole starts above
// it; the maker opens it with a 3 mm drill. The skin is as thick as the walls check's minimum (1.2 mm), so
// no thin plate hides under a screw. z = 0 is the bed; head_fn 6 for a nut.
module bed_recess(hole_d, head_d, depth, h, head_fn = 0, skin = 1.2) {
    translate([0, 0, -1]) cylinder(d = head_d, h = depth + 1, $fn = head_fn > 0 ? head_fn : $fn);
    translate([0, 0, depth + skin]) cylinder(d = hole_d, h = h - depth - skin);
}

// A round hole's outline with a teardrop's point toward -x: a hole lying down with its point up prints
// without support, where a round hole's crown hangs flat; two 45-degree sides meet above it.
module teardrop2d(d) {
    r = d / 2;
    hull() {
        circle(r = r);
        polygon([[-r / sqrt(2), -r / sqrt(2)], [-r / sqrt(2), r / sqrt(2)], [-r * sqrt(2), 0]]);
    }
}

// That hole lying along x (centred, length h), point up (+z).
module teardrop_x(d, h) { rotate([0, 90, 0]) linear_extrude(h, center = true) teardrop2d(d); }

// A callout for the build guide's colour pictures: the words at height z_label above a point
// of the part (z_part), with a thin leader down to it; turned to face the guide's cameras.
module callout(xy, z_part, z_label, words, size = 6, turn = [70, 0, 30]) {
    translate([xy[0], xy[1], min(z_part, z_label)]) cylinder(d = 0.5, h = abs(z_label - z_part));
    translate([xy[0], xy[1], z_label + 1]) rotate(turn) linear_extrude(0.6) text(words, size = size, valign = "bottom");
}
