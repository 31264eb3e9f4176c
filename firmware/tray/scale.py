"""The Heat's load cell: a NAU7802 on the tray's STEMMA QT bus, read without ever blocking the loop.

The driver is Cedar Grove's ``cedargrove_nau7802`` (``circup install
cedargrove_nau7802``; it needs ``adafruit_bus_device`` and ``adafruit_register``).
Starting the chip blocks for about 1.6 s (the driver waits for the chip to
power up, twice), which happens once at start-up, before the loop. After that
``poll()`` costs one register read when no conversion is waiting (the CR bit)
and four when one is: it never waits for the ADC.

Two things about the driver, found by running it against the emulated chip
(``tests/hardware/nau7802_emulator.py``) and reading its source:

* its ``enable()`` assigns ``_pu_start``, an attribute no register is behind,
  so the chip's CS bit (start conversions) is never set by it; ``Scale`` sets
  the driver's ``_pu_cycle_start`` bit itself (harmless if a chip converts
  without it);
* its ``read()`` shifts the three result bytes into a 32-bit word and divides
  by 128, not 256, so its value is twice the chip's code. The tray only ever
  compares codes with codes it learnt the same way, so this is kept as is.
"""

ADDRESS = 0x2A  # the NAU7802's only I2C address
RATE_SPS = 80  # conversions a second: the fastest with the 50/60 Hz rejection of the lower rates given up
GAIN = 128


class Scale:
    """One NAU7802 with a bar load cell on channel 1 (E+ E- A+ A-)."""

    def __init__(self, i2c, driver, address=ADDRESS):
        adc = driver.NAU7802(i2c, address=address, active_channels=1)
        adc.gain = GAIN
        adc.poll_rate = RATE_SPS
        adc._pu_cycle_start = True  # the CS bit the driver's enable() misses (module docstring)
        if not adc.calibrate("INTERNAL"):
            raise RuntimeError("the NAU7802's internal calibration failed")
        self.adc = adc
        self.last = None

    def poll(self):
        """(True, code) when a conversion is waiting, else (False, None). Raises OSError on a bus fault."""
        if not self.adc.available():
            return False, None
        self.last = int(self.adc.read())
        return True, self.last
