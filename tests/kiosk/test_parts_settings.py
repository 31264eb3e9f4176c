"""The settings part (kiosk.parts.settings), without a window: the site file, the operator's
changes over it, and what a bad value or a bad file gets."""

from __future__ import annotations

from kiosk.parts.settings import Settings


def site_file(tmp_path, text: str) -> str:
    path = tmp_path / "table-noir.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_bad_value_is_refused_with_a_sentence_naming_the_setting_and_nothing_changes(store, tmp_path):
    settings = Settings(store, site_file(tmp_path, "[kiosk]\nidle_attract_s = 600\n"))
    problem = settings.change("idle_attract_s", 5)
    assert problem is not None and problem.startswith("Not changed. Idle attract s:")
    assert "30" in problem  # the smallest value it takes
    assert settings.config.kiosk.idle_attract_s == 600
    assert "idle_attract_s" not in store.settings()


def test_a_change_applies_at_once_and_outlives_a_restart_until_the_file_is_chosen_again(store, tmp_path):
    path = site_file(tmp_path, "[kiosk]\nidle_attract_s = 600\n")
    assert Settings(store, path).change("idle_attract_s", 120) is None
    restarted = Settings(store, path)
    assert restarted.config.kiosk.idle_attract_s == 120
    restarted.forget()
    assert restarted.config.kiosk.idle_attract_s == 600
    assert Settings(store, path).config.kiosk.idle_attract_s == 600


def test_a_new_pin_is_kept_only_as_its_hash(store, tmp_path):
    settings = Settings(store, site_file(tmp_path, ""))
    assert settings.change("operator_pin", "12ab") == "Not changed. Operator pin: 4 to 8 digits, 0-9."
    assert settings.change("operator_pin", "8642") is None
    kept = repr(store.settings())
    assert "8642" not in kept and "pbkdf2_sha256$" in kept
    assert "8642" not in repr(settings.config)


def test_a_bad_file_runs_the_kiosk_on_the_defaults_and_the_simulated_table_and_says_why(store, tmp_path):
    heard = []
    path = site_file(tmp_path, '[kiosk]\nidle_attract_s = "soon"\n\n[tray]\nbackend = "serial"\n')
    settings = Settings(store, path, on_bad_file=heard.append)
    config = settings.config
    assert config.kiosk.idle_attract_s == 300 and config.tray.backend == "sim"
    assert len(heard) == 1 and "idle_attract_s" in str(heard[0]) and path in str(heard[0])


def test_the_simulated_table_is_forced_whatever_the_file_says(store, tmp_path):
    path = site_file(tmp_path, '[tray]\nbackend = "serial"\n')
    assert Settings(store, path).config.tray.backend == "serial"
    forced = Settings(store, path, force_sim=True).config
    assert (forced.tray.backend, forced.pads.backend) == ("sim", "sim")


def test_the_hardware_setup_is_written_to_the_site_file_and_read_again(store, tmp_path):
    path = site_file(tmp_path, "[kiosk]\nidle_attract_s = 600\n")
    settings = Settings(store, path)
    assert settings.config.tray.backend == "sim" and settings.hardware_confirmed() is None
    assert settings.save_hardware({"tray": {"backend": "serial", "serial_port": "/dev/ttyACM0"}},
                                  {"pads": "sim", "tray": "serial"}) is None
    assert settings.config.tray.backend == "serial" and settings.config.kiosk.idle_attract_s == 600
    assert settings.hardware_confirmed() == {"pads": "sim", "tray": "serial"}
    assert 'serial_port = "/dev/ttyACM0"' in (tmp_path / "table-noir.toml").read_text(encoding="utf-8")


def test_a_hardware_setup_the_file_cannot_take_is_refused_and_nothing_is_kept(store, tmp_path):
    path = site_file(tmp_path, "")
    settings = Settings(store, path)
    problem = settings.save_hardware({"tray": {"backend": "carrier-pigeon"}}, {"pads": "sim", "tray": "pigeon"})
    assert problem is not None and problem.startswith("Not saved:") and "tray.backend" in problem
    assert settings.hardware_confirmed() is None and (tmp_path / "table-noir.toml").read_text(encoding="utf-8") == ""
