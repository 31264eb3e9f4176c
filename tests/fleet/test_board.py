"""The organiser's board: what it keeps from the stands' messages, and what it refuses."""

from __future__ import annotations

import json

from kiosk.fleet.board import Board
from kiosk.fleet.messages import Event, Status, Today

T = 1_800_000_000.0


def status(stand: str = "hall-a", state: str = "idle", at: float = T, **more) -> str:
    return Status(stand=stand, state=state, at=at, every_s=10, **more).model_dump_json()


def event(seq: int, kind: str = "game_started", boot: str = "b1", at: float = T) -> str:
    return Event(kind=kind, at=at, day="2027-01-15", seq=seq, boot=boot).model_dump_json()


def test_an_event_delivered_twice_counts_once_and_a_new_outbox_counts_again():
    board = Board()
    assert board.message("table-noir/hall-a/events", event(1), now=T)
    assert not board.message("table-noir/hall-a/events", event(1), now=T)  # QoS 1's second delivery
    assert board.message("table-noir/hall-a/events", event(2, "game_finished"), now=T)
    assert board.message("table-noir/hall-a/events", event(1, boot="b2"), now=T)  # the outbox file was replaced
    kinds = [e["kind"] for e in board.view(T)["stands"][0]["events"]]
    assert kinds == ["game_started", "game_finished", "game_started"]


def test_a_stand_that_stops_reporting_is_stale_and_a_will_says_offline():
    board = Board()
    board.message("table-noir/hall-a/status", status(), now=T)
    board.message("table-noir/hall-b/status", status("hall-b"), now=T)
    board.message("table-noir/hall-b/status", status("hall-b", "offline"), now=T + 5)
    board.message("table-noir/hall-c/status", status("hall-c"), now=T + 25)
    view = {s["name"]: s for s in board.view(T + 40)["stands"]}
    assert view["hall-a"]["stale"] and view["hall-a"]["age_s"] == 40  # 3 x 10 s without a word
    assert view["hall-b"]["state"] == "offline" and not view["hall-b"]["stale"]
    assert not view["hall-c"]["stale"]


def test_a_retained_status_is_as_old_as_the_stand_says_not_as_new_as_its_arrival():
    board = Board()
    board.message("table-noir/hall-a/status", status(at=T - 600), retained=True, now=T)
    assert board.view(T)["stands"][0]["stale"]


def test_a_stand_whose_retained_status_is_cleared_leaves_the_board():
    board = Board()
    board.message("table-noir/hall-a/status", status(), now=T)
    board.message("table-noir/hall-b/status", status("hall-b"), now=T)
    assert board.message("table-noir/hall-b/status", b"", retained=True, now=T)  # mosquitto_pub -r -n
    assert [s["name"] for s in board.view(T)["stands"]] == ["hall-a"]


def test_todays_counts_make_the_per_day_table():
    board = Board()
    today = Today(day="2027-01-15", started=5, finished=4, abandoned=1, average_s=700)
    board.message("table-noir/hall-a/status", status(today=today), now=T)
    board.message("table-noir/hall-b/status", status("hall-b", today=Today(day="2027-01-15", started=2)), now=T)
    board.message("table-noir/hall-a/status", status(today=Today(day="2027-01-16", started=1)), now=T)
    days = board.view(T)["days"]
    assert [(d["day"], d["stand"], d["started"]) for d in days] == [
        ("2027-01-16", "hall-a", 1), ("2027-01-15", "hall-b", 2), ("2027-01-15", "hall-a", 5)]


def test_what_is_not_a_valid_message_is_ignored_and_counted():
    board = Board()
    bad = [("table-noir/hall-a/status", "not json"),
           ("table-noir/hall-a/status", json.dumps({"stand": "hall-a", "state": "exploded", "at": T})),
           ("table-noir/hall-a/status", status("hall-b")),  # a stand speaking for another
           ("table-noir/hall-a/events", json.dumps({"kind": "game_started", "at": T, "day": "today"})),
           ("table-noir/a/b/status", status()),
           ("other/hall-a/status", status()),
           ("table-noir/hall-a/status", json.dumps({"stand": "hall-a", "state": "idle", "at": T,
                                                    "phase": "Ann wagered 3"}))]  # a sentence is not a phase
    for topic, payload in bad:
        assert not board.message(topic, payload, now=T), topic
    assert board.ignored == len(bad) and board.view(T)["stands"] == []
