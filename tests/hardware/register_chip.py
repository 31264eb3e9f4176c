"""The bus side every emulated I2C chip in these tests shares.

A chip on I2C keeps a register index: a write sends the index, then data
bytes stored from there on; a read returns bytes from the index. Either way
the index steps on by one for every byte and wraps at the top of the chip's
register map. ``FakeI2C`` (see ``vl53l0x_emulator``) calls ``transaction()``
before every transfer, which is where a test's ``fail_next(n)`` makes the
next n transfers fail like a real bus error.

A chip subclasses this, sets ``INDEX_MASK`` to its register map's size and
writes ``_write_register`` and ``_read_register``: what it does with one byte.
"""

from __future__ import annotations

import errno


class RegisterChip:
    INDEX_MASK = 0xFF

    def __init__(self, address: int):
        self.address = address
        self.present = True
        self._index = 0
        self._fail = 0
        self.transactions = 0

    def fail_next(self, n: int = 1) -> None:
        """The next n transfers fail with an I/O error."""
        self._fail += n

    def transaction(self) -> None:
        self.transactions += 1
        if self._fail > 0:
            self._fail -= 1
            raise OSError(errno.EIO, "Input/output error")

    def write(self, data: bytes) -> None:
        if not data:
            return  # an address probe
        self._index = data[0]
        for value in data[1:]:
            self._write_register(self._index, value)
            self._index = (self._index + 1) & self.INDEX_MASK

    def read(self, n: int) -> bytes:
        out = bytearray()
        for _ in range(n):
            out.append(self._read_register(self._index))
            self._index = (self._index + 1) & self.INDEX_MASK
        return bytes(out)

    def _write_register(self, reg: int, value: int) -> None:
        raise NotImplementedError

    def _read_register(self, reg: int) -> int:
        raise NotImplementedError
