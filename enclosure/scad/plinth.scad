// The weighing: a raised plinth at the target's centre, carried by a bar load cell under the
// tray on a base of its own. Nothing of this chain touches the tray: a die landing on the tray
// shakes the tray, not the cell (the tests measure the air between them).
//
// Tray coordinates (floor top z = 0, the Heat's axis at x = y = 0). Along the cell: u from the
// centre outward on the 45-degree line of the board's quarter, v across it.
//
//   plinth       18 x 18 mm top, 20 mm above the floor, with a stem down through a 16 mm hole
//   cell_adapter bolted on the cell's free end with two M3 screws; the stem sits in its socket;
//                its boss hangs in the damping cup over the overload stop
//   cell_base    stands on the table on three rubber feet, in the well under the tray's floor:
//                the fixed end's pedestal (two M3 screws from below), the damping cup with the
//                stop screw (M3, head up, in a nut trap), room for the NAU7802 board
//
// "weighing_assembly" puts them together for the pictures and the tests.

include <common.scad>


// The plinth and its stem, in tray coordinates.
module plinth() {
    translate([-plinth_top / 2, -plinth_top / 2, plinth_gap]) cube([plinth_top, plinth_top, plinth_h - plinth_gap]);
    translate([0, 0, adapter_top - stem_socket]) cylinder(d = stem_d - 0.3, h = plinth_gap - adapter_top + stem_socket + 0.01);
}

module cell_adapter() {
    difference() {
        union() {
            along() translate([0, -4, adapter_top - arm_t]) cube([cell_free_u - cell_hole_in - 0.5 + 0.01, 8, arm_t]);  // the bar
            along() translate([cell_free_u - cell_hole_in - 0.5, -cell[1] / 2, cell_z + cell[2]])                  // the pad
                cube([2 * cell_hole_in + 0.5, cell[1], adapter_top - cell_z - cell[2]]);
            translate([0, 0, cell_boss_bottom]) cylinder(d = boss_d_cell, h = adapter_top - cell_boss_bottom);   // boss
        }
        translate([0, 0, adapter_top - stem_socket]) cylinder(d = stem_d + 0.2, h = stem_socket + 1);      // the stem's socket
        for (s = [-1, 1]) along() translate([cell_free_u, s * cell_hole_dv / 2, cell_z]) cylinder(d = 3.4, h = 20);
    }
}

module cell_base() {
    difference() {
        union() {
            translate([0, 0, table_z]) linear_extrude(base_t) along() base2d();
            translate([0, 0, table_z]) difference() {      // the damping cup
                cylinder(d = cup_in + 2 * cup_wall, h = base_t + 6.6);
                translate([0, 0, base_t]) cylinder(d = cup_in, h = 10);
            }
            along() translate([cell_fixed_u - cell_hole_in - 2, -cell[1] / 2 - 1, table_z])              // pedestal
                cube([2 * cell_hole_in + 4, cell[1] + 2, base_t + cell_lift]);
        }
        // the stop screw through the cup's floor, its nut in a trap open to the table
        translate([0, 0, table_z]) bed_recess(3.4, 6.4, 1.2, base_t + 1, head_fn = 6);
        // the fixed end's screws from below, heads in counterbores
        for (s = [-1, 1]) along() translate([cell_fixed_u, s * cell_hole_dv / 2, table_z]) bed_recess(3.4, 6, 1.2, 20);
    }
}

// The bar load cell itself (bought; for pictures and the clearance tests).
module load_cell() {
    along() translate([cell_fixed_u + cell_hole_in - cell[0], -cell[1] / 2, cell_z]) cube(cell);
}

module weighing_assembly() { plinth(); cell_adapter(); cell_base(); load_cell(); }

if (part == "plinth") translate([0, 0, plinth_h]) rotate([180, 0, 0]) plinth();            // top down on the bed
if (part == "cell_adapter") translate([0, 0, adapter_top]) rotate([180, 0, 0]) cell_adapter();  // its top on the bed
if (part == "cell_base") translate([0, 0, -table_z]) cell_base();                         // flat
if (part == "weighing_assembly") weighing_assembly();
if (part == "plinth_chain") { plinth(); cell_adapter(); load_cell(); }                    // what must not touch the tray

echo(plinth_h = plinth_h, plinth_top = plinth_top, stem_hole_d = stem_hole_d, stop_gap = stop_gap,
     cell_boss_bottom = cell_boss_bottom, cup_floor = table_z + base_t, well_top = well_top, adapter_top = adapter_top,
     cell_z = cell_z, table_z = table_z, well_end_u = well_end_u, cell_angle = cell_angle,
     nau_port_u = nau_u + nau_board[0]);   // its outer STEMMA QT port, where the 100 mm cable to the QT Py starts

// The weighing with its bought parts in colour and labelled, for the build guide (not printed):
// printed parts blue, the load cell aluminium, the NAU7802 board, the stop screw, the oil.
function uv(u, v) = [u * cos(cell_angle) - v * sin(cell_angle), u * sin(cell_angle) + v * cos(cell_angle)];
nau_u = 80;                          // the NAU7802 breakout on the base, from u = nau_u outward (1 x 0.7 in)
nau_board = [25.4, 17.8, 1.6];
module nau7802_board() { along() translate([nau_u, -nau_board[1] / 2, table_z + base_t + 1]) cube(nau_board); }
module weighing_callouts() {
    color("SteelBlue") { plinth(); cell_adapter(); cell_base(); }
    color("Silver") load_cell();
    color("Purple") nau7802_board();
    color("DimGray") translate([0, 0, table_z + base_t + 1.1]) cylinder(d = 5.5, h = 3);        // the stop screw's head
    color("Gold", 0.6) translate([0, 0, table_z + base_t]) cylinder(d = cup_in - 0.2, h = 5.5);   // the oil
    color("Black") {
        callout([plinth_top / 2, 0], plinth_h, plinth_h + 22, "plinth (printed)");
        callout(uv(cell_free_u, 0), adapter_top, plinth_h + 2, "adapter (printed)");
        callout(uv(50, 0), cell_z + cell[2], plinth_h - 8, "load cell (bought)");
        callout(uv(92, 0), table_z + base_t + 2.6, plinth_h - 18, "NAU7802 (bought)");
        callout(uv(0, -cup_in / 2 - 1.2), table_z + base_t + 6.6, table_z - 14, "oil cup, stop screw");
        callout(uv(70, -12), table_z + base_t, table_z - 24, "cell base (printed)");
    }
}
if (part == "weighing_callouts") weighing_callouts();
