"""The tray holds the piezo's peak between loop passes (firmware/tray/piezo.py, used by hw.py)."""

from firmware.tray.impact import ImpactDetector
from firmware.tray.piezo import PeakHold, burst

from .test_board import FakeSensor, board  # noqa: F401, F811 (board is the fixture)


def test_a_spike_between_two_loop_readings_still_reaches_the_impact_detector():
    # A soft landing rings for a moment: 0.4 on the third of eight reads of a burst, quiet again after.
    levels = iter([0.01, 0.02, 0.4, 0.12, 0.05, 0.02, 0.01, 0.01])
    hold = PeakHold()
    burst(lambda: next(levels), hold, 8)
    detector = ImpactDetector()
    assert detector.feed(hold.take(), 10) == [{"type": "impact", "strength": 0.4}]
    assert hold.take() == 0.0  # taken: the next pass starts from nothing
    # Read once at the pass's end, as before, the same landing shows 0.01 and is missed.
    assert ImpactDetector().feed(0.01, 10) == []


def test_the_hold_keeps_the_highest_level_and_ignores_missing_readings():
    hold = PeakHold()
    for level in (0.1, None, 0.7, 0.3):
        hold.feed(level)
    assert hold.take() == 0.7


def test_the_hold_keeps_the_disc_that_read_the_peak():
    hold = PeakHold()
    for level, disc in ((0.1, 0), (0.7, 2), (0.3, 1)):
        hold.feed(level, disc)
    assert (hold.take(), hold.taken_disc) == (0.7, 2)
    hold.take()
    assert hold.taken_disc is None  # nothing felt since


def test_a_landing_that_rings_out_during_the_sensor_read_is_still_reported(board, monkeypatch):  # noqa: F811 (the fixture)
    """The discs ring only while the board is busy reading the sensor, and are quiet again by the
    time the next pass reads the serial port: read once per pass (after the serial read, as before),
    that landing was never seen."""
    ringing = {"now": False}
    reading = FakeSensor.range.fget

    def range_while_a_die_lands(sensor):
        ringing["now"] = True
        return reading(sensor)

    quiet_read = board.hw.Board.read

    def read_after_it_died_away(self):
        ringing["now"] = False
        return quiet_read(self)

    monkeypatch.setattr(FakeSensor, "range", property(range_while_a_die_lands))
    monkeypatch.setattr(board.hw.Board, "read", read_after_it_died_away)
    monkeypatch.setattr(board.hw.Board, "piezo_level", lambda self: 0.6 if ringing["now"] else 0.01)
    FakeSensor.script = [272]
    board.hw.run(loops=3)
    impacts = [m for m in board.serial.messages() if m["type"] == "impact"]
    assert len(impacts) == 1 and impacts[0]["strength"] == 0.6
