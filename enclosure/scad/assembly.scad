// The tray with its arm and a Heat of the tallest height, for the picture in
// the README. Not printed. Dice are plain cubes, turned a little as real ones sit.

include <tray.scad>
include <arm.scad>
include <plinth.scad>

module table_assembly() {
    tray_whole(true);
    rotate(arm_angle) arm_assembly();
    weighing_assembly();
    for (i = [0 : max_heat_dice - 1]) translate([0, 0, plinth_h + i * die_size_mm]) rotate(7 * sin(i * 97))
        translate([-die_size_mm / 2, -die_size_mm / 2, 0]) cube(die_size_mm - 0.2);
}

if (part == "table_assembly") table_assembly();
