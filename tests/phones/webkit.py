"""WebKit for the phone page's tests: Debian's WebKitWebDriver (package webkit2gtk-driver) driving
its MiniBrowser, spoken to in plain W3C WebDriver over loopback HTTP (no client library needed for
the handful of calls the tests make). WebKit is the engine of every browser on an iPhone.

The sandbox is turned off for the browser it starts: the tests run as root in a container, where
WebKit's bubblewrap sandbox cannot start; the page it loads is our own, from loopback.
"""

from __future__ import annotations

import base64
import glob
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request
from typing import Any

DRIVER = "/usr/bin/WebKitWebDriver"


def minibrowser() -> str | None:
    found = sorted(glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser"))
    return found[-1] if found else None


def have_webkit() -> bool:
    return shutil.which(DRIVER) is not None and minibrowser() is not None


class WebKit:
    """One MiniBrowser window, phone-sized, and the few WebDriver calls the tests need."""

    def __init__(self, width: int = 390, height: int = 844) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        env = {**os.environ, "WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS": "1", "WEBKIT_DISABLE_COMPOSITING_MODE": "1"}
        self.driver = subprocess.Popen([DRIVER, f"--port={self.port}"], env=env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > end:
                    raise
                time.sleep(0.1)
        options = {"binary": minibrowser(), "args": ["--automation"]}
        try:
            answer = self._call("POST", "/session",
                                {"capabilities": {"alwaysMatch": {"webkitgtk:browserOptions": options}}})
        except Exception:
            self.driver.terminate()
            self.driver.wait(timeout=10)
            raise
        self.session = f"/session/{answer['sessionId']}"
        self._call("POST", f"{self.session}/window/rect", {"width": width, "height": height})

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())["value"]

    def go(self, url: str) -> None:
        self._call("POST", f"{self.session}/url", {"url": url})

    def js(self, script: str, *args: Any) -> Any:
        """Run ``script`` (a function body) in the page and return its value."""
        return self._call("POST", f"{self.session}/execute/sync", {"script": script, "args": list(args)})

    def click(self, css: str) -> None:
        element = self._call("POST", f"{self.session}/element", {"using": "css selector", "value": css})
        self._call("POST", f"{self.session}/element/{next(iter(element.values()))}/click", {})

    def type(self, text: str) -> None:
        """Keystrokes into whatever has the focus, as a person types (not into a chosen element)."""
        keys = [a for ch in text for a in ({"type": "keyDown", "value": ch}, {"type": "keyUp", "value": ch})]
        self._call("POST", f"{self.session}/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": keys}]})

    def screenshot(self, path: str) -> str:
        with open(path, "wb") as f:
            f.write(base64.b64decode(self._call("GET", f"{self.session}/screenshot")))
        return path

    def close(self) -> None:
        try:
            self._call("DELETE", self.session)
        finally:
            self.driver.terminate()
            self.driver.wait(timeout=10)
