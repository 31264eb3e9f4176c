"""One configuration file for the table: pins, sensor, die size, timing budget.

The defaults live in ``hardware/table-noir.toml``. A site file (``--config``,
``$TABLE_NOIR_CONFIG``, or ``table-noir.toml`` in the user config folder) may
override any part of it. A bad value stops start-up with a ``ConfigError``
that names the field and says what is allowed. Nothing starts half-configured.

The enclosure models read the same ``geometry`` section, so the printed parts
and the software always agree on die size and sensor height.
"""

from __future__ import annotations

import os
import tomllib
from difflib import get_close_matches
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import ErrorDetails

from kiosk.pin import DEFAULT_PIN, HASH_PATTERN, PIN_PATTERN

DEFAULTS = Path(__file__).with_name("table-noir.toml")

# BCM numbers a pad may use: every general-purpose pin on the 40-pin header
# except the HAT ID EEPROM (0, 1), I2C (2, 3), which the minimal build's sensor
# needs, and the UART (14, 15).
USABLE_PINS = frozenset({4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27})


class ConfigError(Exception):
    """The configuration cannot be used; the message names each bad field."""


class BackendUnavailable(ConfigError):
    """The config names a backend this machine cannot run (gpio pads on a desktop, say)."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PadPins(Strict):
    black: int
    white: int
    gray: int


class PadsConfig(Strict):
    backend: Literal["gpio", "sim"] = "sim"
    bounce_ms: int = Field(20, ge=1, le=200, description="debounce time for every button")
    stuck_after_s: float = Field(30.0, ge=2, le=3600, description="a press held this long is reported as stuck")
    pins: list[PadPins] = Field(default_factory=list, max_length=6, description="one entry per pad, pad 1 first")

    @model_validator(mode="after")
    def _pins_are_usable_and_distinct(self) -> "PadsConfig":
        problems: list[str] = []
        seen: dict[int, str] = {}
        for number, pad in enumerate(self.pins, start=1):
            for colour in ("black", "white", "gray"):
                pin = getattr(pad, colour)
                where = f"pads.pins, pad {number}, {colour}"
                if pin not in USABLE_PINS:
                    problems.append(
                        f"{where}: GPIO{pin} cannot take a button (I2C, UART and power pins are kept free); "
                        f"buttons may use GPIO {', '.join(map(str, sorted(USABLE_PINS)))}"
                    )
                elif pin in seen:
                    problems.append(f"{where}: GPIO{pin} is already used by {seen[pin]}")
                seen.setdefault(pin, where)
        if self.backend == "gpio" and not self.pins:
            problems.append('pads.pins: pads.backend is "gpio" but no pad is listed; add one line per pad')
        if problems:
            raise ValueError("\n  ".join(problems))
        return self


class ScaleConfig(Strict):
    """The load cell under the Heat's plinth and its ADC (docs/sensing.md): the kit's wiring rows and
    BOM lines are generated from these."""

    adc: Literal["nau7802"] = Field("nau7802", description="the 24-bit ADC: a NAU7802 breakout on the STEMMA QT bus")
    i2c_address: int = Field(0x2A, ge=0x08, le=0x77, description="the NAU7802's 7-bit I2C address (fixed by the chip)")
    rate_sps: Literal[10, 20, 40, 80, 320] = Field(80, description="NAU7802 conversions a second")
    gain: Literal[1, 2, 4, 8, 16, 32, 64, 128] = Field(128, description="NAU7802 PGA gain")
    cell_capacity_g: int = Field(1000, ge=100, le=5000, description="the bar load cell's rated capacity")
    cell_rated_mv_per_v: float = Field(1.0, ge=0.5, le=3.0, description="the cell's rated output at capacity")
    cell_wires: tuple[str, str, str, str] = Field(("E+", "E-", "A+", "A-"),
                                                  description="the cell's four wires, as the NAU7802 board names them")
    plinth_height_mm: float = Field(20.0, ge=20, le=60, description="the plinth's top above the tray floor")


class TrayConfig(Strict):
    backend: Literal["serial", "i2c", "sim"] = "sim"
    serial_port: str = Field(
        "auto", pattern=r"^(auto|/.+|COM\d+|[a-z0-9]+://.*)$",
        description="'auto' (find the tray by its USB ids), a device path such as /dev/ttyACM0, or a pyserial URL",
    )
    i2c_address: int = Field(0x29, ge=0x08, le=0x77, description="the VL53L0X's 7-bit I2C address")
    timing_budget_ms: int = Field(33, ge=20, le=33, description="VL53L0X timing budget per sample")
    settle_ms: int = Field(600, ge=100, le=5000, description="quiet time after which thrown dice count as settled")
    scale: ScaleConfig = ScaleConfig()


class GeometryConfig(Strict):
    die_size_mm: float = Field(16.0, ge=8, le=30, description="edge of a Heat d6")
    sensor_height_mm: float = Field(320.0, ge=150, le=1000, description="sensor lens above the tray floor")
    max_heat_dice: int = Field(14, ge=8, le=30, description="tallest Heat stack the tray must measure")
    tray_diameter_mm: float = Field(380.0, ge=200, le=600, description="inside diameter of the tray")
    target_inner_mm: float = Field(120.0, ge=60, le=400, description="diameter of the Conflict Target's solid ring")
    throw_line_mm: float = Field(300.0, ge=100, le=580, description="diameter of the dashed throwing line")
    sensor_min_range_mm: float = Field(50.0, ge=20, le=200, description="closest range the VL53L0X reads reliably")
    sensor_max_range_mm: float = Field(1200.0, ge=300, le=2000, description="farthest range it reads reliably on a matte tray")

    @model_validator(mode="after")
    def _heat_is_measurable(self) -> "GeometryConfig":
        top = self.max_heat_dice * self.die_size_mm
        clearance = self.sensor_height_mm - top
        if clearance < self.sensor_min_range_mm + self.die_size_mm:
            raise ValueError(
                f"geometry.sensor_height_mm: {self.sensor_height_mm:g} mm leaves only {clearance:g} mm above a "
                f"{self.max_heat_dice}-die stack; the sensor needs {self.sensor_min_range_mm:g} mm plus one die "
                f"of margin, so mount it at least {top + self.sensor_min_range_mm + self.die_size_mm:g} mm high"
            )
        if self.sensor_height_mm > self.sensor_max_range_mm * 0.8:
            raise ValueError(
                f"geometry.sensor_height_mm: {self.sensor_height_mm:g} mm is too far for a steady empty-tray reading; "
                f"keep it under {self.sensor_max_range_mm * 0.8:g} mm"
            )
        if self.throw_line_mm >= self.tray_diameter_mm or self.target_inner_mm >= self.throw_line_mm:
            raise ValueError(
                f"geometry.target_inner_mm, throw_line_mm, tray_diameter_mm: the target ring "
                f"({self.target_inner_mm:g} mm) must be smaller than the throwing line ({self.throw_line_mm:g} mm), "
                f"which must be smaller than the tray ({self.tray_diameter_mm:g} mm)"
            )
        return self


QUIET_HOURS_PATTERN = r"^(off|([01]?[0-9]|2[0-3])-([01]?[0-9]|2[0-3]))$"


def quiet_span(quiet_hours: str) -> tuple[int, int] | None:
    """ "22-8" -> (22, 8); "off" -> None. The text is already checked by ``QUIET_HOURS_PATTERN``."""
    if quiet_hours == "off":
        return None
    start, end = quiet_hours.split("-")
    return int(start), int(end)


class KioskConfig(Strict):
    """The kiosk's own settings. The operator PIN is best given as its salted hash
    (``operator_pin_hash``, which wins when both are set); a plain ``operator_pin`` is
    hashed by the kiosk when it starts, and the operator menu asks for the hash instead.
    Neither is ever shown in a repr or an error message."""

    operator_pin: str | None = Field(DEFAULT_PIN, pattern=PIN_PATTERN, repr=False,
                                     description="4-8 digits (0-9) that open the operator menu")
    operator_pin_hash: str | None = Field(None, pattern=HASH_PATTERN, repr=False,
                                          description="the operator PIN as `table-noir pin-hash` prints it")
    idle_attract_s: int = Field(300, ge=30, le=7200, description="idle time before attract mode")
    demo_mode: bool = Field(False, description="convention stand: back to attract after a game ends, or "
                                               "after demo_idle_s with no pad, phone, tray or touch")
    demo_idle_s: int = Field(90, ge=20, le=3600, description="in demo mode, the idle time before attract")
    keep_finished_days: int = Field(
        90, ge=0, le=3650,
        description="days a finished game stays in the kiosk's database before it moves to archive.sqlite3 "
                    "in the data folder (0: never moved)")
    phones: bool = Field(True, description="let players join with their own phones (see docs/phones.md)")
    volume: int = Field(70, ge=0, le=100, description="loudness of the sound cues, 0 (silent) to 100")
    muted: bool = Field(False, description="true: no sound cues at all")
    quiet_hours: str = Field(
        "off", pattern=QUIET_HOURS_PATTERN,
        description='"off", or the hours the cues stay silent as "FROM-UNTIL" on the kiosk\'s clock, '
                    'such as "22-8" (from 22:00 until 08:00)')

    @model_validator(mode="after")
    def _quiet_hours_are_a_span(self) -> "KioskConfig":
        span = quiet_span(self.quiet_hours)
        if span is not None and span[0] == span[1]:
            raise ValueError(f"kiosk.quiet_hours: {self.quiet_hours!r} starts and ends at the same hour; "
                             'give two different hours such as "22-8", or "off" (to silence every hour, set muted)')
        return self

    @property
    def plain_pin_in_file(self) -> bool:
        """True when the PIN in force is a plain one of the site's own (better: its hash)."""
        return self.operator_pin_hash is None and self.operator_pin not in (None, DEFAULT_PIN)


class PhonesConfig(Strict):
    """Where the phone page is served (docs/phones.md). Off in ``kiosk.phones`` means not at all."""

    listen: list[str] = Field(
        default_factory=lambda: ["127.0.0.1"], min_length=1, max_length=4,
        description="the addresses the phone server listens on; the kiosk's hotspot address on a Pi (10.42.0.1)")
    port: int = Field(8470, ge=1024, le=65535, description="the port the phone server listens on")
    join_host: str = Field("", max_length=253, pattern=r"^[A-Za-z0-9.:\[\]-]*$",
                           description="the host name in the join link; empty: the first listen address")
    network_name: str = Field("", max_length=32, description="the Wi-Fi network players join, shown on the join screen")
    network_password: str = Field("", max_length=63, description="its password, shown on the join screen")

    @model_validator(mode="after")
    def _listen_on_addresses(self) -> "PhonesConfig":
        import ipaddress

        bad = []
        for address in self.listen:
            try:
                ipaddress.ip_address(address)
            except ValueError:
                bad.append(address)
        if bad:
            raise ValueError(f"phones.listen: {', '.join(map(repr, bad))} is not an IP address (for example 10.42.0.1)")
        return self


STAND_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$"
"""A stand's name is one level of an MQTT topic: no ``/``, ``+``, ``#`` or spaces."""


class FleetConfig(Strict):
    """The convention's MQTT broker this stand reports to (docs/stands.md). No broker
    (the default): the stand reports to no one and opens no connection. The password is
    never shown in a repr, an error message or a log line."""

    broker: str = Field("", max_length=253, pattern=r"^[A-Za-z0-9.:\[\]-]*$",
                        description="the broker's host name or IP address; empty: this stand reports to no one")
    port: int = Field(1883, ge=1, le=65535, description="the broker's port (1883 plain, 8883 with TLS)")
    stand: str = Field("stand", pattern=STAND_PATTERN,
                       description="1 to 32 letters, digits, - or _ (this stand's name on the organiser's page)")
    topic: str = Field("table-noir", pattern=r"^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*$", max_length=64,
                       description="the topic prefix the stands and the organiser's page share (no + or #)")
    username: str = Field("", max_length=64, description="this stand's user name on the broker; empty: none")
    password: str = Field("", max_length=128, repr=False, description="this stand's password on the broker")
    tls: bool = Field(False, description="true: talk to the broker over TLS and check its certificate")
    ca_file: str = Field("", max_length=4096,
                         description="a PEM file of the certificate authority that signed the broker's "
                                     "certificate; empty: the system's authorities")
    status_every_s: int = Field(10, ge=2, le=300, description="seconds between two status messages")
    queue_max: int = Field(500, ge=10, le=100000,
                           description="events kept while the broker is unreachable (past this the oldest go)")

    @model_validator(mode="after")
    def _credentials_and_tls_fit(self) -> "FleetConfig":
        if self.password and not self.username:
            raise ValueError("fleet.password: a password is set but no fleet.username; give both or neither")
        if self.ca_file and not self.tls:
            raise ValueError("fleet.ca_file: set only with fleet.tls = true (the certificate checks a TLS broker)")
        if self.ca_file and not Path(self.ca_file).is_file():
            raise ValueError(f"fleet.ca_file: there is no file {self.ca_file!r}")
        return self


class Config(Strict):
    pads: PadsConfig = PadsConfig()
    tray: TrayConfig = TrayConfig()
    geometry: GeometryConfig = GeometryConfig()
    kiosk: KioskConfig = KioskConfig()
    phones: PhonesConfig = PhonesConfig()
    fleet: FleetConfig = FleetConfig()


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        merged[key] = _merge(base[key], value) if isinstance(value, dict) and isinstance(base.get(key), dict) else value
    return merged


LARGEST_CONFIG = 1 << 20
"""Bytes a config file may hold; the real one is a few KiB (a bigger file is a wrong path)."""


def _read(path: Path) -> dict[str, Any]:
    """The TOML at ``path`` as a dict, or ``ConfigError`` naming the file and the problem.

    Every way a file can fail to be a config (not a regular file, unreadable, not
    UTF-8, nested past Python's recursion limit, a number too long to convert) ends
    here as one sentence, so no caller needs its own handling.
    """
    try:
        if path.exists() and not path.is_file():  # a FIFO would block start-up forever
            raise ConfigError(f"cannot read config {path}: it is {'a folder' if path.is_dir() else 'not a regular file'}")
        with path.open("rb") as handle:
            data = handle.read(LARGEST_CONFIG + 1)
    except OSError as err:
        raise ConfigError(f"cannot read config {path}: {err.strerror or err}") from None
    if len(data) > LARGEST_CONFIG:
        raise ConfigError(f"config {path} is larger than {LARGEST_CONFIG // 1024} KiB; is it the right file?")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise ConfigError(f"config {path} is not UTF-8 text (byte 0x{data[err.start]:02x} on line {line})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"config {path} is not valid TOML: {err}") from None
    except RecursionError:
        raise ConfigError(f"config {path} nests arrays or tables too deeply") from None
    except ValueError as err:  # a number with more digits than Python converts (sys.int_info)
        raise ConfigError(f"config {path} has a value that cannot be read: {str(err).split(';')[0]}") from None


def site_config_path() -> Path | None:
    """Where the site's own file is looked for, if any exists."""
    if env := os.environ.get("TABLE_NOIR_CONFIG"):
        return Path(env)
    from platformdirs import user_config_dir

    candidate = Path(user_config_dir("table-noir")) / "table-noir.toml"
    return candidate if candidate.exists() else None


def load_config(path: str | Path | None = None) -> Config:
    """The defaults with the site file (``path`` or the usual places) laid over them."""
    data = _read(DEFAULTS)
    site = Path(path) if path is not None else site_config_path()
    if site is not None:
        data = _merge(data, _read(site))
    return parse_config(data, source=str(site or DEFAULTS))


def parse_config(data: dict[str, Any], source: str = "config") -> Config:
    try:
        return Config.model_validate(data)
    except ValidationError as err:
        lines = [f"  {line.strip()}" for e in err.errors() for line in _explain(e).splitlines()]
        raise ConfigError(f"{source} has {len(lines)} problem(s):\n" + "\n".join(lines)) from None


# Values never echoed back in an error message (it may end up in a log).
SECRET_FIELDS = {("kiosk", "operator_pin"), ("kiosk", "operator_pin_hash"), ("fleet", "password")}


def _explain(error: ErrorDetails) -> str:
    """One readable line for one pydantic error: the field, what is wrong, what is allowed."""
    loc = tuple(error["loc"])
    kind, message = error["type"], error["msg"]
    if kind == "value_error":  # our own validators already name the fields
        return message.removeprefix("Value error, ")
    where = _where(loc)
    names = tuple(p for p in loc if isinstance(p, str))
    owner, info = _lookup(names)
    got = "" if names in SECRET_FIELDS or isinstance(error.get("input"), dict) else f" (got {_short(error.get('input'))})"
    about = f" [{info.description}]" if info is not None and info.description else ""
    if kind == "extra_forbidden":
        allowed = sorted(owner.model_fields) if owner is not None else []
        guess = get_close_matches(str(loc[-1]), allowed, n=1)
        hint = f"; did you mean {guess[0]!r}?" if guess else ""
        return f"{where}: unknown setting{hint} (allowed here: {', '.join(allowed)})"
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than") and info is not None:
        low, high = _bounds(info)
        if names[-1].endswith("address") and isinstance(error.get("input"), int):  # I2C addresses read in hex
            return f"{where}: must be from {low:#04x} to {high:#04x} (got {error['input']:#04x}){about}"
        return f"{where}: must be from {low:g} to {high:g}{got}{about}"
    if kind == "too_long":
        return f"{where}: at most {error['ctx']['max_length']} entries (got {error['ctx']['actual_length']})"
    if kind == "missing":
        return f"{where}: missing; it must be set{about}"
    if kind == "string_pattern_mismatch" and info is not None:
        return f"{where}: must be {info.description}{got}"
    return f"{where}: {message[0].lower() + message[1:]}{got}{about}"


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters: a wrong value may be a whole pasted file."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 5] + "[...]"


def _where(loc: tuple[str | int, ...]) -> str:
    """("pads", "pins", 1, "gray") -> "pads.pins, pad 2, gray"; ("tray", "bogus") -> "tray.bogus"."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f", pad {part + 1}," if text == "pads.pins" else f"[{part}]"
        else:
            text += (" " if text.endswith(",") else "." if text else "") + part
    return text.rstrip(",")


def _lookup(names: tuple[str, ...]) -> tuple[type[BaseModel] | None, Any]:
    """The model that owns the last of ``names``, and that field's FieldInfo (None where unknown)."""
    model: type[BaseModel] | None = Config
    for name in names[:-1]:
        model = _model_of(model.model_fields.get(name) if model else None)
    info = model.model_fields.get(names[-1]) if model is not None and names else None
    return model, info


def _model_of(info: Any) -> type[BaseModel] | None:
    if info is None:
        return None
    inner = get_args(info.annotation)[0] if get_args(info.annotation) else info.annotation
    return inner if isinstance(inner, type) and issubclass(inner, BaseModel) else None


def _bounds(info: Any) -> tuple[float, float]:
    low, high = float("-inf"), float("inf")
    for rule in info.metadata:
        low = getattr(rule, "ge", getattr(rule, "gt", low))
        high = getattr(rule, "le", getattr(rule, "lt", high))
    return low, high


# -- writing the site file (the hardware setup on the touchscreen) -------------------------------

SITE_HEADER = (
    "# This table's own settings, laid over hardware/table-noir.toml.\n"
    "# The [pads] and [tray] sections were written by the hardware setup on the touchscreen;\n"
    "# run it again from the operator menu rather than editing pin numbers by hand.\n\n"
)


def site_config_target(path: str | Path | None = None) -> Path:
    """Where the site file is written: ``path``, ``$TABLE_NOIR_CONFIG``, or the user config folder."""
    if path is not None:
        return Path(path)
    if env := os.environ.get("TABLE_NOIR_CONFIG"):
        return Path(env)
    from platformdirs import user_config_dir

    return Path(user_config_dir("table-noir")) / "table-noir.toml"


def write_site_config(path: str | Path, changes: dict[str, dict[str, Any]]) -> Config:
    """Lay ``changes`` (section -> settings) over the site file at ``path`` and write it.

    Everything else the file holds is kept. The result is checked over the defaults
    first: a bad change raises ``ConfigError`` and leaves the file as it was. The
    file is replaced in one step (a power cut leaves the old or the new one).
    Returns the configuration the kiosk will now start with.
    """
    import tomli_w

    path = Path(path)
    site = _read(path) if path.exists() else {}
    for section, values in changes.items():
        site[section] = {**site.get(section, {}), **values}
    config = parse_config(_merge(_read(DEFAULTS), site), source=str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".new")
    with temporary.open("w", encoding="utf-8") as handle:
        handle.write(SITE_HEADER + tomli_w.dumps(site))
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
    return config
