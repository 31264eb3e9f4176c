"""Frame capture over whole random games (see tests/phones/secrecy.py; the long run is its script)."""

from __future__ import annotations

import asyncio

import pytest

from . import secrecy


def test_no_phone_is_ever_sent_another_players_secret_in_random_whole_games():
    """A bounded sample for CI: every game, played to its end, about half the answers from phones."""
    total = {}
    for game, count in (("even-odd", 12), ("clincher", 4), ("promise-hollows", 1), ("hell-for-leather", 1)):
        result = secrecy.run_games(count, seed=100, kinds=(game,))
        assert result["over"] == count and result["by_phone"] > 0
        total[game] = result["frames"]
    assert all(frames > 0 for frames in total.values())


def test_the_check_catches_a_server_that_sends_the_wrong_players_view(tmp_path):
    with pytest.raises(secrecy.Leak):
        asyncio.run(secrecy.play_one(tmp_path, "promise-hollows", seed=3, leaky=True))
