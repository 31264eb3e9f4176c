"""The pads and the tray: opened from the configuration, closed, and opened again.

On a Pi the configuration names gpio pads and a serial (USB) tray; on a desktop, or with
``--sim``, the simulated ones (``hardware.sim``), which the sim panel works. A part that
fails to open does not stop the kiosk: ``problems`` says in words what is not working and
what the table does instead (answers by touch), and the home screen shows it.

Whatever opened is handed to a ``Controller`` (``kiosk.controller``), made by the
``make_controller`` callable the App gives: the App wires it to the screens and the clock.
The hardware setup and the bench test close the ports (``close``) to watch the pins and the
port themselves, and ``reopen`` opens them again, with the game on screen carried over.
Nothing here imports Kivy.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable, cast

if TYPE_CHECKING:
    from hardware.backends.sim_pads import SimPads
    from hardware.config import Config
    from hardware.ports import PlayerPads, Tray
    from hardware.sim import SimTray
    from kiosk.controller import Controller

log = logging.getLogger(__name__)

MakeController = Callable[["PlayerPads | None", "Tray | None"], "Controller"]


class Devices:
    """The ports in use and what is wrong with them.

    ``config`` gives the configuration in force (read at each open). ``confirmed`` gives what
    the operator chose in the hardware setup (``{"pads": "sim", ...}``) or None. ``is_pi``:
    a simulated part on a Pi is named as a problem until the operator chooses it.
    ``realtime_sim``: the simulated tray runs on its own clock (False: tests step it).
    """

    def __init__(self, config: Callable[[], Config], make_controller: MakeController,
                 confirmed: Callable[[], dict[str, str] | None] = lambda: None, is_pi: bool = False,
                 realtime_sim: bool = True) -> None:
        self.config, self.make_controller, self.confirmed = config, make_controller, confirmed
        self.is_pi, self.realtime_sim = is_pi, realtime_sim
        self.controller: Controller | None = None
        """What turns the ports' events into actions; None until ``open``."""
        self.problems: list[str] = []
        """What failed to open, in words for the operator (the home screen shows it)."""
        self.sim_pads: SimPads | None = None
        self.sim_tray: SimTray | None = None

    @property
    def simulated(self) -> bool:
        """True if the sim panel has something to work (the pads, the tray or both)."""
        return self.sim_pads is not None or self.sim_tray is not None

    def open(self) -> Controller:
        """Open the pads and the tray; one that fails is named in ``problems`` (and the log)."""
        self.problems = []
        self.sim_pads = self.sim_tray = None
        pads, tray = self._open_ports()
        if pads is not None and type(pads).__name__ == "SimPads":
            self.sim_pads = cast("SimPads", pads)
        elif pads is not None:
            _log_pin_factory()
        if tray is not None and hasattr(tray, "throw"):
            self.sim_tray = cast("SimTray", tray)
        self._name_simulated_parts()
        self.controller = self.make_controller(pads, tray)
        return self.controller

    def close(self) -> None:
        """Stop listening to the pads and the tray and close them; one already gone is only logged."""
        c = self.controller
        if c is None:
            return
        c.close()
        for port in (c.pads, c.tray):
            if port is not None:
                try:
                    port.close()
                except Exception as err:  # noqa: BLE001 - a port already gone (unplugged) is no news
                    log.warning("closing %s: %s", type(port).__name__, err)

    def reopen(self) -> Controller:
        """Close and open again (hardware plugged in or fixed since); the game carries on."""
        old = self.controller
        self.close()
        controller = self.open()
        if old is not None:
            controller.runner = old.runner
        log.info("hardware opened again: %s", "; ".join(self.problems) or "pads and tray working")
        return controller

    def missing_tray(self) -> list[str]:
        """A tray the configuration asks for that is not there, in words (or nothing)."""
        tray = self.config().tray
        failed = [p for p in self.problems if p.startswith("Tray not working")]
        if tray.backend == "serial" and not failed:
            from hardware.backends.serial import TRAY_VENDOR_IDS, find_tray_port

            port = tray.serial_port
            if port == "auto" and find_tray_port() is None:
                ids = ", ".join(f"{vid:04x}" for vid in TRAY_VENDOR_IDS)
                failed = [f"The config asks for the tray on USB, and no tray is plugged in (looked for "
                          f"USB vendor ids {ids})."]
            elif port.startswith("/") and not Path(port).exists():
                failed = [f"The config asks for the tray on {port}, and there is no such port."]
        return failed

    def _open_ports(self) -> tuple[PlayerPads | None, Tray | None]:
        pads: PlayerPads | None = None
        tray: Tray | None = None
        try:
            from hardware import factory
        except ImportError as err:
            log.warning("hardware factory not available (%s); running without pads or tray", err)
            self.problems.append(f"Pads and tray: the hardware layer did not load ({err}).")
            return None, None
        config = self.config()
        try:
            pads = factory.open_pads(config)
        except Exception as err:  # noqa: BLE001 - no pads is a message, not a crash
            log.warning("pads not available: %s", err)
            self.problems.append(f"Pads not working: {err}. Secret answers go on the screen, passed to each player.")
        try:
            if config.tray.backend == "sim":
                from hardware.sim import SimTray

                tray = SimTray(config, seed=int(time.time()), realtime=self.realtime_sim)
            else:
                tray = factory.open_tray(config)
        except Exception as err:  # noqa: BLE001
            log.warning("tray not available: %s", err)
            self.problems.append(f"Tray not working: {err}. Throws and the Heat are entered by touch.")
        return pads, tray

    def _name_simulated_parts(self) -> None:
        """On a Pi, a simulated part is said in words until the operator chooses it in the
        hardware setup (a Pi on the sim by accident is a table that senses nothing)."""
        if not self.is_pi:
            return
        confirmed = self.confirmed() or {}
        if self.sim_pads is not None and confirmed.get("pads") != "sim":
            self.problems.append(
                "Simulated pads: secret answers by touch only. Operator menu, Hardware setup, to learn the pads.")
        if self.sim_tray is not None and confirmed.get("tray") != "sim":
            self.problems.append("Simulated tray: no sensing. Operator menu, Hardware setup, to find the tray.")


def _log_pin_factory() -> None:
    """Say in the journal which pin library gpiozero drives the pads with (lgpio on a Pi, by
    the unit's GPIOZERO_PIN_FACTORY): a slow or wrong one is then one line to find."""
    try:
        from gpiozero import Device

        log.info("pads: gpiozero pin factory %s", type(Device.pin_factory).__name__)
    except ImportError:
        pass
