"""Sizes of the bought parts the printed parts must fit, in one place.

The build passes these to OpenSCAD with ``-D`` and the tests probe the rendered
parts against the same numbers, so a model and its check cannot disagree.
They come from the makers' drawings and product pages, not from a unit
measured here: check yours with calipers before printing, and change them here.
"""

# Adafruit VL53L0X breakout with STEMMA QT (Adafruit 3317): a 1.0 x 0.7 inch board.
SENSOR_BOARD_MM = (25.4, 17.8)
# Where the VL53L0X chip's centre sits on the board, from the board's centre:
# x along the long side (toward the STEMMA QT port the cable uses), y toward the edge
# away from the pin header. Estimated from Adafruit's board drawing; measure yours.
SENSOR_CHIP_AT_MM = (0.0, 3.6)
SENSOR_CHIP_T_MM = 1.0        # the chip stands this far off the board's face
# The board lies face down on two ledges; the chip's face (the lens) hangs this far
# above the top of the bore, so nothing presses on the chip.
SENSOR_CHIP_GAP_MM = 0.8

# Heat-set insert for M3 screws (for example Ruthex RX-M3x5.7): hole and depth.
INSERT_M3_HOLE_MM = 4.0
INSERT_M3_DEPTH_MM = 6.0


def scad_values() -> dict[str, float]:
    """The -D values OpenSCAD receives for the bought parts."""
    return {
        "sensor_board_x": SENSOR_BOARD_MM[0], "sensor_board_y": SENSOR_BOARD_MM[1],
        "chip_at_x": SENSOR_CHIP_AT_MM[0], "chip_at_y": SENSOR_CHIP_AT_MM[1],
        "chip_t": SENSOR_CHIP_T_MM, "chip_gap": SENSOR_CHIP_GAP_MM,
        "insert_hole": INSERT_M3_HOLE_MM, "insert_depth": INSERT_M3_DEPTH_MM,
    }
