"""``table-noir fleet`` against a real Mosquitto, its page in a real headless Chromium.

Four stands report: one plays, one is idle with a fault, one is killed (its will
says offline), one falls silent (stale). The page must show each as it is, with
the per-day table; the screenshot is kept for docs/stands.md.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from hardware.config import FleetConfig
from kiosk.store import local_day
from kiosk.fleet.publisher import StandPublisher

from ..phones import browser
from .broker import MOSQUITTO, USERS, WHY_SKIPPED, Broker, free_port

pytestmark = [pytest.mark.skipif(MOSQUITTO is None, reason=WHY_SKIPPED),
              pytest.mark.skipif(not browser.have_chromium() and not os.environ.get("CI"),
                                 reason="Debian's chromium is installed by scripts/bootstrap.sh")]
ROOT = Path(__file__).resolve().parents[2]
SHOT = os.environ.get("FLEET_SCREENSHOT")  # set to a path to keep the page's picture (docs/stands/: the contact sheet tool clears docs/screens/ of what it did not shoot)


def organiser(broker: Broker, tmp_path: Path, http: int, password: str = USERS["organiser"],
              seconds: int = 90) -> subprocess.Popen[str]:
    secret = tmp_path / "organiser-password"
    secret.write_text(password + "\n")
    return subprocess.Popen([sys.executable, "-m", "kiosk.cli", "fleet", "--broker", "127.0.0.1", "--port",
                             str(broker.port), "--username", "organiser", "--password-file", str(secret),
                             "--http-port", str(http), "--for", str(seconds)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def stand(broker: Broker, tmp_path: Path, name: str) -> StandPublisher:
    cfg = FleetConfig(broker="127.0.0.1", port=broker.port, stand=name, username=name, password=USERS[name],
                      status_every_s=2)
    publisher = StandPublisher(cfg, tmp_path / f"{name}.sqlite3", reconnect_s=(1, 1), keepalive_s=5)
    publisher.start()
    return publisher


def make_store(path: Path, started: int, finished: int) -> Path:
    """A session store with today's games in it, as a stand's kiosk keeps one."""
    from kiosk.store import Store

    store = Store(path)
    now = time.time()
    midnight = time.mktime(time.localtime(now)[:3] + (0, 0, 0, 0, 0, -1))
    # An hour ago, or just after midnight in the day's first hour: today's games either way (begun
    # an hour before a run at 00:16 they were yesterday's, and today's row read 0 started).
    first = max(now - 3600, midnight + 60)
    for i in range(started):
        begun, ended = first, first + 900 + 60 * i
        sid = store.db.execute("INSERT INTO sessions (game, setup, started, updated, outcome) VALUES (?, '{}', ?, ?, ?)",
                               ("clincher", begun, ended, "over" if i < finished else None)).lastrowid
        # ... and counted as the store counts its plays (schema 4), which the stand reports first
        store.db.execute("INSERT INTO plays (session, game, kind, day, started, finished) VALUES (?, 'clincher', 'game', ?, ?, ?)",
                         (sid, local_day(begun), begun, ended if i < finished else None))
    store.db.commit()
    store.close()
    return path


def test_the_page_shows_every_stand_live(tmp_path, broker):
    from playwright.sync_api import sync_playwright

    http = free_port()
    page_proc = organiser(broker, tmp_path, http)
    stands: list[StandPublisher] = []
    killed = subprocess.Popen([sys.executable, "-m", "tests.fleet.stand_proc", str(broker.port), "hall-c",
                               str(tmp_path / "hall-c.sqlite3"), "60"], cwd=ROOT)
    try:
        a, b, d = (stand(broker, tmp_path, n) for n in ("hall-a", "hall-b", "hall-d"))
        stands += [a, b, d]
        a.store_path = make_store(tmp_path / "a-sessions.sqlite3", started=6, finished=4)
        a.event("game_started", game="clincher", players=3)
        for _ in range(3):  # hall-d speaks once, then falls silent (its connection stays up)
            d.status({"state": "idle", "tray": "sim"})
        b.event("fault", detail="Pads not working: no pin factory. Secret answers go on the screen.")
        with sync_playwright() as pw:
            chromium = browser.launch(pw)
            page = chromium.new_page(viewport={"width": 1180, "height": 820})
            end = time.monotonic() + 15
            while time.monotonic() < end:
                try:
                    page.goto(f"http://127.0.0.1:{http}/")
                    break
                except Exception:  # noqa: BLE001 - the organiser is still starting
                    time.sleep(0.3)
            killed_at = None
            deadline = time.monotonic() + 40
            while time.monotonic() < deadline:  # bounded: the stands report as the page watches
                a.status({"state": "playing", "game": "clincher", "title": "The Clincher", "phase": "act",
                          "players": 3, "tray": "serial"})
                b.status({"state": "idle", "tray": "none", "faults": ["Pads not working: no pin factory.",
                                                                      "<img src=x onerror=alert(1)>"]})
                states = {c.get_attribute("data-stand"): c.get_attribute("data-state")
                          for c in page.locator("article.card").all()}
                if states.get("hall-c") == "idle" and killed_at is None:
                    killed.send_signal(signal.SIGKILL)
                    killed.wait(timeout=5)
                    killed_at = time.monotonic()
                if states == {"hall-a": "playing", "hall-b": "idle", "hall-c": "offline", "hall-d": "stale"}:
                    break
                time.sleep(0.5)
            assert states == {"hall-a": "playing", "hall-b": "idle", "hall-c": "offline", "hall-d": "stale"}
            assert page.locator("#summary").inner_text() == "4 stands: 1 playing, 1 idle, 1 stale, 1 offline"
            card_a = page.locator('article[data-stand="hall-a"]')
            assert "The Clincher" in card_a.inner_text() and "3 players" in card_a.inner_text()
            assert card_a.locator(".last").get_attribute("data-last") == "game_started"
            faults = page.locator('article[data-stand="hall-b"] .faults')
            assert "Pads not working" in faults.inner_text()
            assert "<img src=x onerror=alert(1)>" in faults.inner_text()  # shown as text, never as HTML
            assert page.locator("#cards img, #cards script").count() == 0
            assert "no news for" in page.locator('article[data-stand="hall-d"]').inner_text()
            row = page.locator("#days tr", has_text="hall-a").first.inner_text().split("\t")
            assert row[:4] == [local_day(time.time()), "hall-a", "6", "4"] and row[5].strip() == "17 min"  # (900 + 960 + 1020 + 1080) / 4 s
            page.wait_for_timeout(300)
            shot = Path(SHOT) if SHOT else tmp_path / "organiser.png"
            page.screenshot(path=str(shot), full_page=True)
            page.set_viewport_size(browser.PHONE)  # the organiser walking the hall, the page on a phone
            page.wait_for_timeout(200)
            assert page.evaluate("document.documentElement.scrollWidth") <= browser.PHONE["width"]
            page.screenshot(path=str(shot.with_name(shot.stem + "-phone" + shot.suffix)), full_page=True)
            chromium.close()
        board = json.load(urllib.request.urlopen(f"http://127.0.0.1:{http}/board.json", timeout=5))
        assert {s["name"] for s in board["stands"]} == {"hall-a", "hall-b", "hall-c", "hall-d"}
    finally:
        for s in stands:
            s.close()
        if killed.poll() is None:
            killed.kill()
        killed.wait(timeout=5)
        page_proc.terminate()
        page_proc.communicate(timeout=10)


def test_the_organiser_is_told_plainly_when_the_broker_refuses_it(tmp_path, broker):
    proc = organiser(broker, tmp_path, free_port(), password="wrong", seconds=5)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert f"the broker at 127.0.0.1:{broker.port} refused the organiser" in err and "wrong" not in err
