"""The configuration stops start-up on any bad value, with a message naming the field and what is allowed."""

from __future__ import annotations

import pytest

from hardware.config import DEFAULTS, ConfigError, load_config, parse_config


def site(tmp_path, text: str):
    path = tmp_path / "table-noir.toml"
    path.write_text(text)
    return path


def problem(tmp_path, text: str) -> str:
    with pytest.raises(ConfigError) as caught:
        load_config(site(tmp_path, text))
    return str(caught.value)


def test_the_shipped_defaults_load_and_describe_six_pads():
    config = load_config(DEFAULTS)
    assert len(config.pads.pins) == 6
    assert config.pads.backend == "sim" and config.tray.backend == "sim"


def test_a_site_file_overrides_only_what_it_names(tmp_path):
    config = load_config(site(tmp_path, "[tray]\ntiming_budget_ms = 20\n"))
    assert config.tray.timing_budget_ms == 20
    assert config.tray.i2c_address == 0x29 and len(config.pads.pins) == 6


def test_an_unknown_key_is_named_with_a_suggestion(tmp_path):
    message = problem(tmp_path, "[tray]\ntiming_budget = 25\n")
    assert "tray.timing_budget: unknown setting; did you mean 'timing_budget_ms'?" in message
    assert str(tmp_path / "table-noir.toml") in message


def test_an_unknown_section_is_named(tmp_path):
    assert "padz: unknown setting; did you mean 'pads'?" in problem(tmp_path, "[padz]\nbounce_ms = 5\n")


def test_a_pin_that_cannot_take_a_button_is_named_with_the_pins_allowed(tmp_path):
    message = problem(tmp_path, "[pads]\npins = [{ black = 2, white = 17, gray = 27 }]\n")
    assert "pads.pins, pad 1, black: GPIO2 cannot take a button" in message
    assert "4, 5, 6" in message


def test_a_pin_used_twice_names_both_buttons(tmp_path):
    message = problem(
        tmp_path, "[pads]\npins = [{ black = 4, white = 17, gray = 27 }, { black = 22, white = 4, gray = 6 }]\n"
    )
    assert "pads.pins, pad 2, white: GPIO4 is already used by pads.pins, pad 1, black" in message


def test_a_pin_that_is_not_a_number_is_named(tmp_path):
    message = problem(tmp_path, '[pads]\npins = [{ black = "four", white = 17, gray = 27 }]\n')
    assert "pads.pins, pad 1, black" in message and "'four'" in message


def test_more_than_six_pads_are_refused(tmp_path):
    pads = ", ".join(f"{{ black = {b}, white = {w}, gray = {g} }}" for b, w, g in
                     [(4, 5, 6), (7, 8, 9), (10, 11, 12), (13, 16, 17), (18, 19, 20), (21, 22, 23), (24, 25, 26)])
    assert "pads.pins: at most 6 entries (got 7)" in problem(tmp_path, f"[pads]\npins = [{pads}]\n")


def test_a_pad_missing_a_button_is_named(tmp_path):
    assert "pads.pins, pad 1, gray: missing" in problem(tmp_path, "[pads]\npins = [{ black = 4, white = 17 }]\n")


def test_a_timing_budget_out_of_range_names_the_range(tmp_path):
    message = problem(tmp_path, "[tray]\ntiming_budget_ms = 50\n")
    assert "tray.timing_budget_ms: must be from 20 to 33 (got 50)" in message


def test_an_i2c_address_out_of_range_is_shown_in_hex(tmp_path):
    assert "tray.i2c_address: must be from 0x08 to 0x77 (got 0x80)" in problem(tmp_path, "[tray]\ni2c_address = 0x80\n")


def test_a_serial_port_that_is_no_device_path_is_refused(tmp_path):
    message = problem(tmp_path, '[tray]\nserial_port = "dev/ttyACM0"\n')
    assert "tray.serial_port: must be 'auto' (find the tray by its USB ids), a device path" in message
    for good in ("/dev/ttyACM0", "COM3", "rfc2217://tray.local:4000"):
        assert load_config(site(tmp_path, f'[tray]\nserial_port = "{good}"\n')).tray.serial_port == good


def test_every_bad_field_is_listed_at_once(tmp_path):
    message = problem(tmp_path, "[tray]\ntiming_budget_ms = 5\nsettle_ms = 1\n[pads]\nbounce_ms = 0\n")
    assert "has 3 problem(s)" in message
    assert "tray.settle_ms: must be from 100 to 5000" in message and "pads.bounce_ms: must be from 1 to 200" in message


def test_a_sensor_mounted_too_low_to_see_over_the_heat_is_refused(tmp_path):
    message = problem(tmp_path, "[geometry]\nsensor_height_mm = 250\n")
    assert "geometry.sensor_height_mm" in message and "at least 290 mm" in message


def test_a_sensor_mounted_beyond_its_range_is_refused(tmp_path):
    message = problem(tmp_path, "[geometry]\nsensor_height_mm = 990\nsensor_max_range_mm = 1000\n")
    assert "geometry.sensor_height_mm" in message and "under 800 mm" in message


def test_a_target_wider_than_the_throwing_line_is_refused(tmp_path):
    assert "must be smaller than the throwing line" in problem(tmp_path, "[geometry]\ntarget_inner_mm = 310\n")


def test_an_unknown_backend_lists_the_choices(tmp_path):
    message = problem(tmp_path, '[pads]\nbackend = "gpoi"\n')
    assert "pads.backend" in message and "'gpio' or 'sim'" in message


def test_gpio_pads_without_any_pins_are_refused():
    with pytest.raises(ConfigError, match="pads.pins: pads.backend is \"gpio\" but no pad is listed"):
        parse_config({"pads": {"backend": "gpio"}})


def test_bad_toml_names_the_file_and_the_line(tmp_path):
    message = problem(tmp_path, "[tray]\ntiming_budget_ms = = 20\n")
    assert "is not valid TOML" in message and "line 2" in message


def test_a_missing_site_file_is_named(tmp_path):
    with pytest.raises(ConfigError, match="cannot read config .*nowhere.toml"):
        load_config(tmp_path / "nowhere.toml")


def test_a_bad_operator_pin_is_refused_without_echoing_it(tmp_path):
    message = problem(tmp_path, '[kiosk]\noperator_pin = "12x4"\n')
    assert "kiosk.operator_pin: must be 4-8 digits" in message
    assert "12x4" not in message


def test_the_environment_variable_points_at_the_site_file(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLE_NOIR_CONFIG", str(site(tmp_path, "[pads]\nbounce_ms = 7\n")))
    assert load_config().pads.bounce_ms == 7


def test_the_load_cell_and_its_adc_are_configured_for_the_kit():
    scale = load_config(DEFAULTS).tray.scale
    assert (scale.adc, scale.i2c_address, scale.rate_sps, scale.gain) == ("nau7802", 0x2A, 80, 128)
    assert scale.cell_wires == ("E+", "E-", "A+", "A-") and scale.cell_capacity_g == 1000
    assert scale.plinth_height_mm >= 20


def test_a_conversion_rate_the_nau7802_does_not_have_is_named(tmp_path):
    site = tmp_path / "site.toml"
    site.write_text("[tray.scale]\nrate_sps = 100\n")
    with pytest.raises(ConfigError, match="tray.scale.rate_sps"):
        load_config(site)
