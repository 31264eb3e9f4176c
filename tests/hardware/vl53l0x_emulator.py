"""A register-level VL53L0X on a fake I2C bus, so the real adafruit_vl53l0x driver runs in tests.

``FakeI2C`` behaves like ``busio.I2C`` as adafruit_bus_device uses it
(``try_lock``/``unlock``, ``writeto``, ``readfrom_into``,
``writeto_then_readfrom``, ``scan``): a write sends a register index and
optional data, a read returns bytes from the last index, and the index
steps on by one for every byte, as the chip's does. An address with no
device behind it answers with ``OSError`` (a NACK), as Linux's I2C does.

``VL53L0XEmulator`` keeps the chip's registers in banks chosen by register
0xFF, as the chip does, and acts on the few that matter:

* 0xC0/0xC1/0xC2: the model and revision ids the driver checks;
* 0x00 (SYSRANGE_START): 0x01 starts one measurement, 0x02 continuous ones
  (a start while SYSTEM_SEQUENCE_CONFIG is 0x01/0x02 is a reference
  calibration and takes no range); the start bit reads back cleared, as it
  does once the chip has begun;
* 0x13 (RESULT_INTERRUPT_STATUS): non-zero when a measurement is ready;
  writing 0x0B (SYSTEM_INTERRUPT_CLEAR) clears it and lets the next one in;
* 0x1E..0x1F: the range in mm, big-endian; a measurement with no valid
  target reads 8190, the chip's out-of-range code;
* 0x83 / 0x92 on the SPAD-info path, so the driver's start-up finishes;
* 0x8A: a new I2C address takes effect at once.

Every other register is stored and read back, which is what the driver's
timing-budget arithmetic needs. Distances come from ``distances`` (any
iterable of mm or None; the last value repeats when it runs out).
``fail_next(n)`` makes the next n transactions fail with an I/O error,
``unplug()`` / ``plug_in()`` take the chip off the bus and put it back, and
``paused`` holds back the next measurement (as if its timing budget had not
run out yet).
"""

from __future__ import annotations

import errno
import threading
from typing import Iterable, Optional

from tests.hardware.register_chip import RegisterChip

OUT_OF_RANGE_MM = 8190


def _nack(address: int) -> OSError:
    return OSError(errno.EREMOTEIO, f"Remote I/O error: nothing answered at 0x{address:02x}")


class VL53L0XEmulator(RegisterChip):
    MODEL_IDS = {0xC0: 0xEE, 0xC1: 0xAA, 0xC2: 0x10}

    def __init__(self, distances: Iterable[Optional[int]] = (), address: int = 0x29):
        super().__init__(address)
        self._banks: dict[tuple[int, int], int] = {}
        self._bank = 0
        self._distances = iter(distances)
        self._last_distance: Optional[int] = None
        self._ready = False
        self._running = False  # a measurement (single or continuous) has been started
        self._continuous = False
        self._range_mm = OUT_OF_RANGE_MM
        self.paused = False  # True: the next measurement is not ready yet (the budget has not run out)
        self.measurements = 0
        self.address_changes: list[int] = []

    # -- test controls ---------------------------------------------------------
    def unplug(self) -> None:
        self.present = False

    def plug_in(self) -> None:
        """Back on the bus, freshly powered: registers and address as after reset."""
        self.__init__(self._distances, 0x29)  # type: ignore[misc]

    def register(self, reg: int, bank: int = 0) -> int:
        return self._read(reg, bank)

    def register16(self, reg: int, bank: int = 0) -> int:
        return (self._read(reg, bank) << 8) | self._read(reg + 1, bank)

    # -- one byte on the bus (RegisterChip steps the index) ----------------------
    def _write_register(self, reg: int, value: int) -> None:
        self._write(reg, value)

    def _read_register(self, reg: int) -> int:
        return self._read(reg, self._bank)

    # -- registers ---------------------------------------------------------------
    def _measure(self) -> None:
        try:
            self._last_distance = next(self._distances)
        except StopIteration:
            pass
        mm = self._last_distance
        self._range_mm = OUT_OF_RANGE_MM if mm is None else max(0, min(int(mm), 0xFFFF))
        self.measurements += 1
        self._ready = True

    def _write(self, reg: int, value: int) -> None:
        if reg == 0xFF:
            self._bank = value
            return
        if self._bank == 0 and reg == 0x00:  # SYSRANGE_START
            if value & 0x03:
                if self._banks.get((0, 0x01)) in (0x01, 0x02) and not value & 0x02:
                    self._ready = True  # a reference calibration at start-up: no range taken
                    return
                self._continuous = bool(value & 0x02)
                self._running = True
                if not self._ready:
                    self._measure()
            else:
                self._running = self._continuous = False
        elif self._bank == 0 and reg == 0x0B and value & 0x01:  # SYSTEM_INTERRUPT_CLEAR
            self._ready = False
            if not self._continuous:
                self._running = False
        elif self._bank == 0 and reg == 0x8A:  # I2C_SLAVE_DEVICE_ADDRESS
            self.address = value & 0x7F
            self.address_changes.append(self.address)
        self._banks[(self._bank, reg)] = value

    def _read(self, reg: int, bank: int) -> int:
        if bank == 0:
            if reg in self.MODEL_IDS:
                return self.MODEL_IDS[reg]
            if reg == 0x00:
                return self._banks.get((0, 0x00), 0) & ~0x01 & 0xFF
            if reg == 0x13:  # RESULT_INTERRUPT_STATUS: new sample ready
                if self._running and not self._ready and not self.paused:
                    self._measure()  # continuous mode: the next one is always on its way
                return 0x07 if self._ready else 0x00
            if reg == 0x14:  # RESULT_RANGE_STATUS: 11 (valid) in bits 3-6, or 4 (phase fail)
                return (11 << 3) if self._range_mm != OUT_OF_RANGE_MM else (4 << 3)
            if reg == 0x1E:
                return (self._range_mm >> 8) & 0xFF
            if reg == 0x1F:
                return self._range_mm & 0xFF
        if reg == 0x83:  # SPAD info strobe: reads non-zero once the NVM data is there
            return self._banks.get((bank, reg), 0) or 0x10
        if reg == 0x92:  # reference SPAD count 5, aperture type
            return 0x85
        return self._banks.get((bank, reg), 0)


class FakeI2C:
    """A busio.I2C stand-in holding emulated devices by address."""

    def __init__(self, *devices: VL53L0XEmulator):
        self.devices = list(devices)
        self._lock = threading.Lock()
        self.deinited = False

    def _device(self, address: int) -> VL53L0XEmulator:
        for device in self.devices:
            if device.present and device.address == address:
                device.transaction()
                return device
        raise _nack(address)

    def try_lock(self) -> bool:
        return self._lock.acquire(blocking=False)

    def unlock(self) -> None:
        self._lock.release()

    def scan(self) -> list[int]:
        return sorted(d.address for d in self.devices if d.present)

    def writeto(self, address: int, buffer, *, start: int = 0, end: Optional[int] = None) -> None:
        end = len(buffer) if end is None else end
        self._device(address).write(bytes(buffer[start:end]))

    def readfrom_into(self, address: int, buffer, *, start: int = 0, end: Optional[int] = None) -> None:
        end = len(buffer) if end is None else end
        buffer[start:end] = self._device(address).read(end - start)

    def writeto_then_readfrom(self, address, out_buffer, in_buffer, *, out_start=0, out_end=None, in_start=0,
                              in_end=None) -> None:
        self.writeto(address, out_buffer, start=out_start, end=out_end)
        self.readfrom_into(address, in_buffer, start=in_start, end=in_end)

    def deinit(self) -> None:
        self.deinited = True
