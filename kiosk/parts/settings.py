"""The site configuration, with the kiosk settings the operator changed on screen laid over it.

``table-noir.toml`` (over the shipped defaults, ``hardware.config``) says how the table is
wired and how the kiosk behaves. The operator menu changes some kiosk settings (the idle
time, phones on or off, the PIN...) without editing the file: those are kept in the session
store and win over the file's, until the operator chooses "use the file's settings".

Nothing here imports Kivy.
"""

from __future__ import annotations

import logging
import platform
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from hardware.config import Config, ConfigError
    from kiosk.store import Store

log = logging.getLogger(__name__)

CONFIRMED = "hardware_confirmed"
"""The store setting that says what the operator chose for each part: {"pads": "gpio"|"sim", "tray": ...}."""


def on_pi() -> bool:
    """True on a Raspberry Pi (an ARM board with a device tree), where the kiosk is the stand."""
    return platform.machine() in ("aarch64", "armv7l") and Path("/proc/device-tree/model").exists()


def _kiosk_changed(config: Config, changes: dict[str, Any]) -> Config:
    """``config`` with ``changes`` to its kiosk settings, checked by the config's own model
    (pydantic's ValidationError if they do not pass)."""
    from hardware.config import KioskConfig

    kiosk = KioskConfig.model_validate({**config.kiosk.model_dump(), **changes})
    return config.model_copy(update={"kiosk": kiosk})


class Settings:
    """The configuration in force, read on first use (``config``) and changed by the operator.

    ``path`` is the site file (None: the usual place, see ``hardware.config.load_config``).
    ``force_sim`` puts the pads and the tray on the simulator whatever the file says (a
    desktop, ``--sim``). A file that cannot be used does not stop the kiosk: the shipped
    defaults are used, on the simulated table, and ``on_bad_file`` hears what was wrong.
    """

    def __init__(self, store: Store, path: str | None = None, force_sim: bool = False,
                 on_bad_file: Callable[[ConfigError], None] | None = None) -> None:
        self.store = store
        self.path = path
        self.force_sim = force_sim
        self.on_bad_file = on_bad_file
        self.loaded: Config | None = None
        """The configuration in force once read (None before: see ``config``)."""
        self.from_file: Config | None = None
        """As the file says, without the operator's changes (for "use the file's settings")."""

    @property
    def config(self) -> Config:
        """The configuration in force, reading the file the first time it is asked for.

        The kiosk's first frame does not need it, so the home screen shows before the file
        is read and checked."""
        if self.loaded is None:
            config = self._file_or_defaults()
            if self.force_sim:
                config = config.model_copy(update={
                    "pads": config.pads.model_copy(update={"backend": "sim"}),
                    "tray": config.tray.model_copy(update={"backend": "sim"}),
                })
            self.from_file = config
            self.loaded = self._with_saved_changes(config)
        return self.loaded

    def reload(self, path: str | None = None) -> None:
        """Read the file again at the next use (``path``: a new site file, as the hardware setup wrote)."""
        if path is not None:
            self.path = path
        self.loaded = None

    def change(self, name: str, value: Any) -> str | None:
        """Check a kiosk setting against the config's model, keep it and use it at once.

        Returns what is wrong, in one sentence naming the setting (never echoing the value:
        it may be a PIN), or None. The operator PIN is kept only as its salted hash."""
        from pydantic import ValidationError

        from hardware.config import KioskConfig
        from kiosk.pin import hash_pin, valid_pin

        if name == "operator_pin":
            if not (isinstance(value, str) and valid_pin(value)):
                return "Not changed. Operator pin: 4 to 8 digits, 0-9."
            name, value = "operator_pin_hash", hash_pin(value)
        try:
            changed = _kiosk_changed(self.config, {name: value})
        except ValidationError as err:
            problem, about = err.errors()[0], KioskConfig.model_fields[name].description
            said = about if problem["type"] == "string_pattern_mismatch" else f"{problem['msg'].lower()} ({about})"
            return f"Not changed. {name.replace('_', ' ').capitalize()}: {said}."
        self.store.save_setting(name, value)
        self.loaded = changed
        return None

    def forget(self) -> None:
        """Back to the file's kiosk settings (an organiser who edits the file after changing a
        setting here would otherwise find the kiosk's copy winning)."""
        _ = self.config  # read the file first if nothing has yet (not again: no surprise errors mid-session)
        self.store.forget_settings()
        self.loaded = self.from_file

    def hardware_confirmed(self) -> dict[str, str] | None:
        """What the operator chose in the hardware setup for the pads and the tray, or None
        (not yet: on a Pi, the kiosk's first start opens the setup)."""
        value = self.store.settings().get(CONFIRMED)
        return value if isinstance(value, dict) else None

    def save_hardware(self, changes: dict[str, dict[str, Any]], chosen: dict[str, str]) -> str | None:
        """Write the hardware setup's ``changes`` into the site file and keep what was ``chosen``;
        the file is read again at the next use. Returns what is wrong, or None."""
        from hardware.config import ConfigError, site_config_target, write_site_config

        target = site_config_target(self.path)
        try:
            write_site_config(target, changes)
        except (ConfigError, OSError) as err:
            log.error("hardware setup not saved: %s", err)
            return f"Not saved: {err}"
        self.store.save_setting(CONFIRMED, chosen)
        self.reload(str(target))
        log.info("hardware setup saved to %s: pads %s, tray %s", target, chosen["pads"], chosen["tray"])
        return None

    def _file_or_defaults(self) -> Config:
        from hardware.config import DEFAULTS, ConfigError, load_config

        try:
            return load_config(self.path)
        except ConfigError as err:
            log.error("%s", err)
            if self.on_bad_file is not None:
                self.on_bad_file(err)
            return load_config(DEFAULTS)

    def _with_saved_changes(self, config: Config) -> Config:
        """The kiosk settings the operator changed on screen, laid over ``config``."""
        from pydantic import ValidationError

        from hardware.config import KioskConfig

        saved = {k: v for k, v in self.store.settings().items() if k in KioskConfig.model_fields}
        if "operator_pin" in saved:  # kept in plain text by older versions: keep only its hash
            from kiosk.pin import hash_pin, valid_pin

            plain = saved.pop("operator_pin")
            if isinstance(plain, str) and valid_pin(plain) and "operator_pin_hash" not in saved:
                saved["operator_pin_hash"] = hash_pin(plain)
                self.store.save_setting("operator_pin_hash", saved["operator_pin_hash"])
            self.store.forget_setting("operator_pin")
        if not saved:
            return config
        try:
            return _kiosk_changed(config, saved)
        except ValidationError:  # cannot happen through change(); never echo a PIN into the log
            log.warning("settings saved on the kiosk are not valid any more; using the config file's")
            return config
