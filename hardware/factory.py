"""Open the pads and the tray the configuration asks for.

The kiosk and the hardware monitor call ``open_pads(config)`` and
``open_tray(config)`` and never name a backend themselves. Each backend is
imported only when chosen, so a desktop never needs gpiozero's pin drivers,
Blinka or a serial port, and a Pi never loads the simulator it does not use.

A backend this machine cannot run (gpio pads without a Pi, an i2c sensor
without Blinka) stops start-up with ``BackendUnavailable``, a ConfigError
that names the setting and says what to use instead.
"""

from __future__ import annotations

import importlib

from .config import BackendUnavailable, Config
from .ports import PlayerPads, Tray

# tray.backend -> (module, class). The classes take the whole Config, except SerialTray (the tray section).
TRAY_BACKENDS = {
    "sim": ("hardware.sim", "SimTray"),
    "serial": ("hardware.backends.serial", "SerialTray"),
    "i2c": ("hardware.backends.i2c", "I2CTray"),
}


def open_pads(config: Config) -> PlayerPads:
    """The player pads: gpiozero buttons on a Pi, or scriptable ones on a desktop."""
    if config.pads.backend == "sim":
        from .backends.sim_pads import SimPads

        return SimPads(players=len(config.pads.pins) or 6)
    try:
        from .backends.gpio import GpioPads
    except ImportError as err:
        raise BackendUnavailable(f'pads.backend = "gpio" needs gpiozero ({err}); install it, or set pads.backend = "sim"') from err
    return GpioPads(config.pads)


def open_tray(config: Config) -> Tray:
    """The sensing tray: its microcontroller over USB serial, a sensor on the Pi's I2C, or the simulator."""
    backend = config.tray.backend
    module_name, class_name = TRAY_BACKENDS[backend]
    try:
        tray_class = getattr(importlib.import_module(module_name), class_name)
        tray: Tray = tray_class(config.tray) if backend == "serial" else tray_class(config)
        return tray
    except (ImportError, NotImplementedError) as err:
        raise BackendUnavailable(
            f'tray.backend = "{backend}" cannot start on this machine ({type(err).__name__}: {err}); '
            'on a desktop, set tray.backend = "sim" in table-noir.toml'
        ) from err
