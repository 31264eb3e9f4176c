"""The stand's ``[fleet]`` section: off by default, every mistake named, the password never echoed."""

from __future__ import annotations

import pytest

from hardware.config import ConfigError, load_config


def problems(tmp_path, text: str) -> str:
    site = tmp_path / "table-noir.toml"
    site.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(site)
    return str(err.value)


def test_a_stand_reports_to_no_one_unless_its_config_names_a_broker():
    cfg = load_config(None).fleet
    assert cfg.broker == "" and cfg.stand == "stand" and cfg.port == 1883 and not cfg.tls


def test_a_full_section_is_read(tmp_path):
    ca = tmp_path / "ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")
    site = tmp_path / "table-noir.toml"
    site.write_text(f'[fleet]\nbroker = "broker.hall"\nport = 8883\nstand = "hall-a"\nusername = "hall-a"\n'
                    f'password = "s3cret-pw"\ntls = true\nca_file = "{ca}"\n')
    cfg = load_config(site).fleet
    assert (cfg.broker, cfg.port, cfg.stand, cfg.tls, cfg.ca_file) == ("broker.hall", 8883, "hall-a", True, str(ca))
    assert "s3cret-pw" not in repr(cfg)


@pytest.mark.parametrize("text, said", [
    ('stand = "hall a"', "fleet.stand: must be 1 to 32 letters, digits, - or _"),
    ('stand = "hall/#"', "fleet.stand: must be 1 to 32 letters, digits, - or _"),
    ('port = 70000', "fleet.port: must be from 1 to 65535"),
    ('topic = "table-noir/#"', "fleet.topic: must be the topic prefix"),
    ('broker = "http://x"', "fleet.broker: must be the broker's host name or IP address"),
    ('password = "hunter2-long"', "fleet.password: a password is set but no fleet.username"),
    ('ca_file = "/etc/ca.pem"', "fleet.ca_file: set only with fleet.tls = true"),
    ('tls = true\nca_file = "/no/such/ca.pem"', "fleet.ca_file: there is no file '/no/such/ca.pem'"),
    ('brokr = "x"', "fleet.brokr: unknown setting; did you mean 'broker'?"),
])
def test_each_mistake_is_named(tmp_path, text, said):
    assert said in problems(tmp_path, f"[fleet]\n{text}\n")


def test_a_bad_password_is_never_echoed(tmp_path):
    said = problems(tmp_path, f'[fleet]\nusername = "a"\npassword = "{"x" * 129}"\n')
    assert "fleet.password" in said and "xxxx" not in said
