"""A register-level NAU7802 for ``FakeI2C``, so the real ``cedargrove_nau7802`` driver runs in tests.

The chip (Nuvoton NAU7802 datasheet, register map) as the driver meets it:

* 0x00 PU_CTRL: RR (bit 0) resets every register; PUD (bit 1) and PUA (bit 2)
  power the digital and analog parts; PUR (bit 3) reads 1 once the digital
  part is powered; CS (bit 4) starts conversions; CR (bit 5) reads 1 when a
  conversion is waiting to be read, and clears when its first byte (0x12) is
  read, which latches the three bytes.
* 0x01 CTRL1 (gain, LDO), 0x02 CTRL2 (calibration mode and start CALS, bit 2;
  CAL_ERR, bit 3; conversion rate, bits 4-6; channel, bit 7). A calibration
  finishes at once here: CALS reads back clear, CAL_ERR clear.
* 0x12-0x14 ADCO: the 24-bit two's-complement result, most significant first.
* 0x15 ADC control (written) / OTP (read): what was written reads back.
* 0x1B PGA, 0x1C power control: stored. 0x1F REV_ID: 0x0F (revision id in the low nibble).

Conversions come from ``codes`` (an iterable of 24-bit codes; the last one
repeats when it runs out), one per call of ``convert()`` (a test's clock), and
only while PUD, PUA and CS are set: a chip that was never told to start
converting never has data, which is how a missing CS bit shows.
"""

from __future__ import annotations

from typing import Iterable

from tests.hardware.register_chip import RegisterChip


class NAU7802Emulator(RegisterChip):
    REV_ID = 0x0F
    INDEX_MASK = 0x1F

    def __init__(self, codes: Iterable[int] = (), address: int = 0x2A):
        super().__init__(address)
        self.regs = [0] * 0x20
        self._codes = iter(codes)
        self._code = 0
        self._latched = 0
        self.conversions = 0
        self.reads = 0  # results read out (first byte read)
        self.calibrations = 0

    # -- test controls ---------------------------------------------------------
    @property
    def converting(self) -> bool:
        pu = self.regs[0x00]
        return bool(pu & 0x02 and pu & 0x04 and pu & 0x10)

    @property
    def rate_sps(self) -> int:
        return {0: 10, 1: 20, 2: 40, 3: 80, 7: 320}.get((self.regs[0x02] >> 4) & 0x07, 10)

    @property
    def gain(self) -> int:
        return 1 << (self.regs[0x01] & 0x07)

    def convert(self) -> bool:
        """One conversion finishes (if the chip converts): the next code waits, CR set."""
        if not self.converting:
            return False
        try:
            self._code = int(next(self._codes))
        except StopIteration:
            pass
        self.conversions += 1
        self.regs[0x00] |= 0x20
        return True

    # -- registers -----------------------------------------------------------------
    def _write_register(self, reg: int, value: int) -> None:
        if reg == 0x00:
            if value & 0x01:  # RR: every register to its reset value
                self.regs = [0] * 0x20
                self.regs[0x00] = 0x01
                return
            ready = 0x08 if value & 0x02 else 0x00  # PUR follows PUD
            self.regs[0x00] = (value & ~0x28 & 0xFF) | ready | (self.regs[0x00] & 0x20)
        elif reg == 0x02:
            if value & 0x04:  # CALS: a calibration, done at once, no error
                self.calibrations += 1
                value &= ~0x0C & 0xFF
            self.regs[0x02] = value
        elif reg in (0x12, 0x13, 0x14, 0x1F):
            return  # read-only
        else:
            self.regs[reg] = value & 0xFF

    def _read_register(self, reg: int) -> int:
        if reg == 0x12:
            self._latched = self._code & 0xFFFFFF
            self.regs[0x00] &= ~0x20 & 0xFF  # CR clears as the result is read
            self.reads += 1
            return (self._latched >> 16) & 0xFF
        if reg == 0x13:
            return (self._latched >> 8) & 0xFF
        if reg == 0x14:
            return self._latched & 0xFF
        if reg == 0x1F:
            return self.REV_ID
        return self.regs[reg]
