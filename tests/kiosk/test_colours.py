"""Colours that mean something: red text only for a refusal, events in their own style.

"Bee's sheet was opened" and what the tray saw were written in the refusals' red, under
the prompt: a table read them as mistakes. Now a refusal is red (``theme.REFUSAL``) and
an event told to the table is in the notice colour (``theme.NOTICE``), in its own line.
"""

from __future__ import annotations

import os

import pytest

from kiosk import drive

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (run under xvfb-run)")

from .uiplay import back_home, hold_gray  # noqa: E402


def _reddish(colour) -> bool:
    r, g, b = colour[:3]
    return r > 0.7 and g < 0.6 and b < 0.6


def test_an_opened_sheet_is_told_as_news_and_a_refusal_in_red(app):
    from kiosk.ui import theme

    drive.press("home:new:toy")
    drive.press("setup:start")
    drive.press("secret:Ann")
    hold_gray(app, 1)
    drive.press("private:show")
    told = app.play.notice
    assert "Ann's sheet was opened" in told.text and not _reddish(told.color), (told.text, told.color)
    assert app.play.error.text == ""  # nothing was refused
    for overlay in list(app.overlays):
        overlay.dismiss()
    app.play.propose({"type": "nonsense", "player": "Ann"})  # something the rules refuse
    drive.pump(1)
    assert app.play.error.text and _reddish(app.play.error.color)
    assert tuple(told.color) == tuple(theme.NOTICE)
    back_home(app)


def test_the_tray_banner_is_not_the_refusal_red(app):
    from kiosk.ui import theme

    assert tuple(app.play.banner.bg) != tuple(theme.BAD) and not _reddish(app.play.banner.bg)
