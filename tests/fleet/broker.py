"""A real Mosquitto for the tests: on 127.0.0.1, a free port, a password file, persistence on.

Started and stopped by the test (``Broker.start``/``stop``), on the same port each
time, so clients reconnect to it as stands do after a broker's restart at a
convention. Skipped with a reason where Mosquitto is not installed
(``scripts/bootstrap.sh`` installs it on Debian).
"""

from __future__ import annotations

import getpass
import json
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from kiosk.fleet.publisher import stop_network

MOSQUITTO = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
PASSWD = shutil.which("mosquitto_passwd")
USERS = {"organiser": "watch-1234", "hall-a": "pw-a", "hall-b": "pw-b", "hall-c": "pw-c", "hall-d": "pw-d"}
ACL = "user organiser\ntopic read table-noir/#\n\npattern readwrite table-noir/%u/#\n"
"""As docs/stands.md recommends: the organiser reads everything, a stand writes only under its own name."""
WHY_SKIPPED = "Mosquitto is not installed (scripts/bootstrap.sh installs the Debian package mosquitto)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


OPENSSL = shutil.which("openssl")


def make_certificates(folder: Path) -> Path:
    """A certificate authority and a broker certificate for 127.0.0.1 it signed; returns the CA's file."""
    def run(*args: str) -> None:
        subprocess.run([str(OPENSSL), *args], check=True, capture_output=True, cwd=folder)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Test hall CA",
        "-keyout", "ca.key", "-out", "ca.pem")
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "server.key", "-out", "server.csr")
    (folder / "san.ext").write_text("subjectAltName = IP:127.0.0.1\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
        "-extfile", "san.ext", "-out", "server.pem")
    return folder / "ca.pem"


class Broker:
    def __init__(self, folder: Path, tls: bool = False) -> None:
        self.folder, self.port = folder, free_port()
        self.tls_port = free_port() if tls else None
        tls_listener = "" if not tls else (
            f"listener {self.tls_port} 127.0.0.1\ncafile {make_certificates(folder)}\n"
            f"certfile {folder / 'server.pem'}\nkeyfile {folder / 'server.key'}\n")
        self.proc: subprocess.Popen[bytes] | None = None
        passwords = folder / "passwords"
        passwords.write_text("".join(f"{user}:{pw}\n" for user, pw in USERS.items()))
        passwords.chmod(0o600)
        subprocess.run([PASSWD or "mosquitto_passwd", "-U", str(passwords)], check=True, capture_output=True)
        (folder / "acl").write_text(ACL)
        (folder / "mosquitto.conf").write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous false\npassword_file {passwords}\n"
            f"acl_file {folder / 'acl'}\n"
            f"user {getpass.getuser()}\n"  # as root, mosquitto would become user mosquitto, who cannot read tmp_path
            f"persistence true\npersistence_location {folder}/\nautosave_interval 1\n"
            "log_dest none\n" + tls_listener)

    def start(self) -> None:
        self.proc = subprocess.Popen([str(MOSQUITTO), "-c", str(self.folder / "mosquitto.conf")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("mosquitto did not start listening within 10 s")

    def stop(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.terminate()  # SIGTERM: mosquitto saves its persistence file, then exits
            self.proc.wait(timeout=10)
            self.proc = None


class Listener:
    """An MQTT subscriber that keeps every message it gets, as (topic, payload)."""

    def __init__(self, port: int, topic: str = "table-noir/#", user: str = "organiser",
                 client_id: str = "test-listener", clean: bool = True) -> None:
        self.got: list[tuple[str, str, bool]] = []
        self.lock = threading.Lock()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean)
        self.client.username_pw_set(user, USERS[user])
        self.client.reconnect_delay_set(1, 1)
        self.subscribed = threading.Event()
        self.client.on_connect = lambda c, u, f, reason, p: c.subscribe(topic, qos=1)
        self.client.on_subscribe = lambda c, u, mid, reasons, p: self.subscribed.set()
        self.client.on_message = self._message
        self.client.connect_async("127.0.0.1", port, keepalive=10)
        self.client.loop_start()
        # Ready once the broker has the subscription: a stand started before that could publish an
        # event (not retained) the listener never hears, and a test would wait for it in vain.
        if not self.subscribed.wait(10):
            self.close()
            raise AssertionError(f"the listener could not subscribe to {topic} on 127.0.0.1:{port}")

    def _message(self, client: Any, userdata: Any, msg: Any) -> None:
        with self.lock:
            self.got.append((msg.topic, msg.payload.decode(), bool(msg.retain)))

    def payloads(self, suffix: str) -> list[dict[str, Any]]:
        with self.lock:
            return [json.loads(p) for t, p, _ in self.got if t.endswith(suffix) and p]

    def wait(self, condition, seconds: float = 15.0, what: str = "") -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if condition():
                return
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}; got {self.got[-10:]}")

    def close(self) -> None:
        self.client.disconnect()
        stop_network(self.client)
