"""Height from a measured curve (firmware.tray.heat.CurveCalibration), not a straight line."""

import pytest

from firmware.tray.heat import Calibration, CurveCalibration, HeatTracker, calibrate_curve
from hardware.config import GeometryConfig
from hardware.optics import DESIGNS, OpticalSensor

# What the optical model says the as-built arm reads over 0-4 dice (a short stack reads near the floor).
CURVE = [308.0, 297.0, 283.0, 269.0, 255.0]


def test_each_calibrated_height_reads_back_as_that_many_dice():
    cal = CurveCalibration(CURVE)
    for k, mm in enumerate(CURVE):
        assert cal.height(mm) == pytest.approx(k)
        assert cal.distance(k) == pytest.approx(mm)
    assert cal.height(290.0) == pytest.approx(1.5)  # between two points: interpolated
    assert cal.height(312.0) < 0 and cal.height(241.0) == pytest.approx(5.0)  # past the ends: the end segments
    assert cal.die_mm == pytest.approx((308 - 255) / 4)


def test_a_straight_line_through_one_known_stack_miscounts_where_the_curve_does_not():
    line = Calibration(CURVE[0], CURVE[0] - CURVE[1])  # the old way: the empty tray and a 1-die stack
    assert round(line.height(CURVE[4])) != 4  # 4.8: a 4-die stack read as 5
    assert round(CurveCalibration(CURVE).height(CURVE[4])) == 4


def test_calibrating_takes_the_median_of_each_height_and_says_what_is_wrong():
    cal = calibrate_curve([[308, 309, 8190, 307, None], [297, 296, 298], [283, 284, 282, 30000]])
    assert cal.points == [308.0, 297.0, 283.0]
    with pytest.raises(ValueError, match="too few valid readings over 1 dice"):
        calibrate_curve([[308, 309, 307], [297, None, 8191]])
    with pytest.raises(ValueError, match="2 dice read 299 mm, not closer than 1 dice"):
        CurveCalibration([308, 297, 299])
    with pytest.raises(ValueError, match="at least 0 and 1 dice"):
        CurveCalibration([308])


def test_the_tracker_counts_a_quiet_stack_right_on_the_optical_models_curve():
    geometry = GeometryConfig()
    optics = OpticalSensor(geometry, DESIGNS["low-limit"])
    cal = CurveCalibration(optics.curve())
    for k in (3, 9, 13):
        tracker = HeatTracker(cal)
        events = []
        for _ in range(8):
            events += tracker.feed(round(optics.reading(optics.stack(k)).mean_mm))
        assert events == [{"type": "height", "dice": k}]
        straight = HeatTracker(Calibration(cal.empty_mm, geometry.die_size_mm))
        wrong = []
        for _ in range(8):
            wrong += straight.feed(round(optics.reading(optics.stack(k)).mean_mm))
        assert wrong != events  # the old straight line from the floor and the die size does not
