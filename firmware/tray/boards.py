"""Which pins the VL53L0X's I2C bus uses on this board. Pure Python, tested on a desktop.

settings.toml's ``TRAY_I2C`` is either ``"stemma"`` (the board's STEMMA QT
socket) or two pin names, ``"SCL,SDA"``. Boards differ in what "stemma" can
mean: a QT Py RP2040 has the socket (``board.STEMMA_I2C``), a Feather has
default I2C pins (``board.I2C``) but no socket, and a Raspberry Pi Pico has
neither, only GP pins. ``i2c_pins`` turns the setting into one of::

    ("stemma", None)           board.STEMMA_I2C()
    ("default", None)          board.I2C()
    ("pins", ("GP5", "GP4"))   busio.I2C(board.GP5, board.GP4)

or raises ValueError with a sentence (at most 80 characters, an error line's
limit) that says what to write instead. The board layer (hw.py) sends it to
the Pi as an error line.
"""

# Boards with no STEMMA QT socket and no default I2C pins, and the pins our
# wiring uses on them (firmware/README.md, "Which board"): GP5 is SCL and GP4
# is SDA of the RP2040's I2C0, so the same wiring works on every Pico.
NO_SOCKET_PINS = (
    ("raspberry_pi_pico", ("GP5", "GP4")),  # also matches pico_w, pico2, pico2_w
)


def _pins_for_board(board_id):
    for prefix, pins in NO_SOCKET_PINS:
        if board_id and board_id.startswith(prefix):
            return pins
    return None


def i2c_pins(setting, board_id, names):
    """How to open the sensor's I2C bus: see the module's docstring.

    ``setting`` is TRAY_I2C, ``board_id`` is ``board.board_id`` and ``names``
    the names the ``board`` module has (``dir(board)``).
    """
    text = str(setting).strip()
    if text.lower() == "stemma":
        if "STEMMA_I2C" in names:
            return "stemma", None
        pins = _pins_for_board(board_id)
        if pins is not None and pins[0] in names and pins[1] in names:
            return "pins", pins
        if "I2C" in names:
            return "default", None
        raise ValueError('no STEMMA QT socket on this board: set TRAY_I2C="SCL,SDA", e.g. "GP5,GP4"')
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 2 or not parts[0] or not parts[1]:
        raise ValueError('TRAY_I2C=%r: write "stemma" or "SCL,SDA" like "GP5,GP4"' % text[:20])
    for name in parts:
        if name not in names:
            raise ValueError("TRAY_I2C names pin %s, which this board does not have" % name[:20])
    if parts[0] == parts[1]:
        raise ValueError("TRAY_I2C=%r: SCL and SDA must be two different pins" % text[:20])
    return "pins", (parts[0], parts[1])
