"""Reading the piezo discs often enough to catch a soft landing. Pure Python (CircuitPython too).

A die landing on the tray makes the discs ring for a few milliseconds: a
swing that decays fast. The main loop passes once every several
milliseconds (an I2C read of the VL53L0X, a line over USB, the Heat
tracker), so reading each disc once per pass sees the ringing at one random
moment, usually after most of it has died away, and a soft landing can be
missed altogether (``benchmarks/piezo_bench.py`` measures how often).

``PeakHold`` keeps the highest level seen since it was last taken. The
board reads the discs in short bursts at several points of each pass
(``hw.py``: before and after the sensor and the serial work) and feeds every
reading in; once a pass the loop takes the peak for ``app.on_piezo``.
"""


class PeakHold:
    """The highest piezo level (0..1) fed since the last ``take()``."""

    def __init__(self):
        self.peak = 0.0
        self.disc = None  # the disc that read the peak (0-based), None if not told
        self.taken_disc = None  # ``disc`` as it was at the last ``take()``

    def feed(self, level, disc=None):
        if level is not None and level > self.peak:
            self.peak = level
            self.disc = disc

    def take(self):
        peak = self.peak
        self.taken_disc = self.disc
        self.peak = 0.0
        self.disc = None
        return peak


def burst(read, hold, reads, loudest=None):
    """Call ``read()`` (one level from all discs) ``reads`` times back to back into ``hold``.

    ``loudest()``, if given, names the disc that read the strongest swing in the last ``read()``."""
    for _ in range(reads):
        level = read()
        hold.feed(level, loudest() if loudest is not None else None)
