"""Message capture over whole random games (see tests/fleet/secrecy.py; the long run is its script)."""

from __future__ import annotations

import pytest

from . import secrecy
from .broker import MOSQUITTO, WHY_SKIPPED

pytestmark = pytest.mark.skipif(MOSQUITTO is None, reason=WHY_SKIPPED)


def test_no_secret_and_no_players_text_reaches_the_broker_in_random_whole_games(tmp_path, broker):
    total = secrecy.run_games(tmp_path, broker, {"even-odd": 4, "clincher": 3, "promise-hollows": 1,
                                                 "hell-for-leather": 1}, seed=100)
    assert total["games"] == total["over"] == 9 and total["on_broker"] >= total["games"] * 3
    assert total["checked"] > total["actions"]  # every action's status, both as sent and as delivered


def test_the_check_catches_a_stand_that_publishes_what_a_player_typed(tmp_path, broker):
    with pytest.raises(secrecy.Leak, match="a player's name or typed text"):
        secrecy.run_games(tmp_path, broker, {"promise-hollows": 1}, seed=3, leaky=True)
