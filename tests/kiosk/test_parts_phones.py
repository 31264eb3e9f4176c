"""Phones on or off (kiosk.parts.phones), without a window: a port in use is a sentence for the
operator, and turning phones off stops the server."""

from __future__ import annotations

import socket
import urllib.request

from hardware.config import parse_config
from kiosk.parts.phones import Phones


def phones_on(port: int, allowed: bool = True) -> Phones:
    config = parse_config({"kiosk": {"phones": allowed}, "phones": {"listen": ["127.0.0.1"], "port": port}})
    return Phones(lambda: config, submit=lambda event: None)


def test_a_port_in_use_is_said_in_words_and_nothing_starts():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        phones = phones_on(port)
        assert phones.open() is None and phones.bridge is None
    assert phones.problem is not None
    assert phones.problem.startswith(f"Phones cannot join: port {port} on 127.0.0.1 is not available")
    assert phones.problem.endswith("Pads and the touchscreen work as always.")


def test_phones_off_in_the_settings_start_no_server_and_off_stops_one():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert phones_on(port, allowed=False).open() is None
    phones = phones_on(port)
    bridge = phones.open()
    try:
        assert bridge is not None and phones.problem is None and phones.open() is bridge  # once only
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
            assert page.status == 200
    finally:
        phones.close()
    assert phones.bridge is None
    with socket.socket() as again:
        again.bind(("127.0.0.1", port))  # the port is free again
