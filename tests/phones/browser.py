"""Real phones for the end-to-end tests: Debian's chromium, driven by Playwright, beside the kiosk.

The kiosk runs on this thread (``testkit.drive`` pumps its frames); the browser
pages are driven from the same thread, so the test waits by pumping the
kiosk until the page shows what it should.
"""

from __future__ import annotations

import shutil
import socket
import time

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}


def have_chromium() -> bool:
    return shutil.which(CHROMIUM) is not None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def kiosk_config(tmp_path, port: int) -> str:
    path = tmp_path / "table-noir.toml"
    path.write_text(f'[phones]\nlisten = ["127.0.0.1"]\nport = {port}\n'
                    'network_name = "TableNoir"\nnetwork_password = "noir-1234"\n')
    return str(path)


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)


def pump_until(condition, seconds: float = 10.0, what: str = "") -> None:
    from testkit import drive

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        drive.pump(1)
        if condition():
            return
        time.sleep(0.005)
    raise AssertionError(f"timed out waiting for {what or condition}")


def answer_on_page(page, prompt, data) -> None:
    """Give ``data`` for ``prompt`` the way a player does on their phone: taps and typing."""
    card = page.locator(f'[data-prompt="{prompt.action}"]')
    card.wait_for(timeout=5000)
    if prompt.action == "wager":
        card.locator(f'[data-tag="side={data["side"]}"]').click()
    for f in prompt.fields:
        value = data[f.name]
        if prompt.action == "wager" and f.name == "side":
            continue
        if f.kind == "text":
            card.locator(f"#t-{f.name}").fill(value)
        elif f.kind == "choice":
            card.locator(f'[data-tag="{f.name}={value}"]').click()
        elif f.kind == "int":
            for _ in range(100):
                shown = int(card.locator(".step .n").first.inner_text())
                if shown == value:
                    break
                card.locator(f'[data-tag="{f.name}{"+1" if value > shown else "-1"}"]').click()
        elif f.kind == "list":
            for item in value:
                card.locator(f'[data-tag="{f.name}+{item}"]').click()
    card.locator(f'[data-tag="go:{prompt.action}"]').click()


def answer_from_phone(app, page, prompt, data, before: int) -> None:
    """Wait until ``prompt`` shows on that player's phone, answer it there, and wait until the
    kiosk took it (the log grew past ``before``) or the phone shows the rules' refusal."""
    pump_until(lambda: page.locator(f'[data-prompt="{prompt.action}"]').count() > 0,
               what=f"{prompt.player}'s {prompt.action} on the phone")
    answer_on_page(page, prompt, data)
    pump_until(lambda: len(app.runner.session.log) > before or page.locator(".err").first.inner_text() != "",
               what=f"{prompt.action} taken")
