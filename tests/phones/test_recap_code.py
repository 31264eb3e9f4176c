"""'Save the log' with phones on: a QR code of the game's story, readable from a phone (issue 21)."""

from __future__ import annotations

import random
import urllib.error
import urllib.request

import pytest

from testkit import drive

from . import browser


@pytest.fixture
def kiosk(tmp_path):
    app = drive.start(str(tmp_path / "data"), config_path=browser.kiosk_config(tmp_path, browser.free_port()))
    yield app
    drive.stop(app)


def test_save_the_log_offers_a_qr_code_of_the_recap_and_the_phone_reads_the_public_story(kiosk):
    from kiosk.rules import bot
    from kiosk.ui.gamemenu import RecapCode

    app = kiosk
    assert app.phones is not None
    drive.press("home:new:even-odd")
    drive.press("setup:start")
    rng = random.Random(4)
    while len(app.runner.session.log) < 5:  # the investigators, the crime scene, a suspect...
        try:
            app.runner.propose(bot.fill(rng.choice([p for p in app.runner.awaiting() if not p.optional]), rng))
        except Exception:  # noqa: BLE001 - the bot's pick was refused: pick again
            continue
    sid = app.runner.sid
    drive.press("bar:menu")
    drive.press("gamemenu:save")
    shown = app.overlays[-1]
    assert isinstance(shown, RecapCode) and shown.code.texture is not None
    assert str(app.exports) in " ".join(w.text for w in drive.walk(shown) if hasattr(w, "text"))
    with urllib.request.urlopen(shown.url, timeout=5) as reply:
        story = reply.read().decode("utf-8")
    assert story == (app.exports / f"session-{sid}-recap.txt").read_text(encoding="utf-8")
    assert story.splitlines()[0].endswith(f"session {sid}")
    guessed = shown.url.rsplit("/", 1)[0] + "/not-the-token"
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(guessed, timeout=5)
    refused.value.close()
    assert refused.value.code == 404
    drive.press("recap:close")
    assert not app.overlays
