"""Operator access (kiosk.parts.operator) without a window: the PIN pad and the new-PIN pad
are stand-ins that type what the test says, the store and the settings are real."""

from __future__ import annotations

from kiosk.parts.operator import CHOOSE_YOUR_OWN, SAME_AS_SHIPPED, OperatorAccess
from kiosk.parts.settings import Settings
from kiosk.pin import DEFAULT_PIN, FIRST_WAIT_S, FREE_TRIES, check


class Table:
    """The pads the part opens, and what it said, as a person at the kiosk would meet them."""

    def __init__(self, store, site: str) -> None:
        self.now = 1_000_000.0
        self.pads: list[tuple] = []
        self.said: list[tuple[str, bool]] = []
        self.opened = 0
        self.settings = Settings(store, site)
        self.access = self.restart(store)

    def restart(self, store) -> OperatorAccess:
        return OperatorAccess(store, lambda: self.settings.config.kiosk, self.settings.change,
                              lambda text, refused: self.said.append((text, refused)),
                              lambda attempt, accepted, heading: self.pads.append((attempt, accepted, heading)),
                              lambda chosen, heading: self.pads.append((chosen, heading)),
                              clock=lambda: self.now)

    def open_menu(self) -> None:
        self.opened += 1

    def type_pin(self, typed: str) -> bool | None:
        attempt, accepted, _ = self.pads[-1]
        result = attempt(typed)
        if result:
            accepted(typed)
        return result


def site(tmp_path, pin: str | None) -> str:
    path = tmp_path / "table-noir.toml"
    path.write_text(f'[kiosk]\noperator_pin = "{pin}"\n' if pin else "", encoding="utf-8")
    return str(path)


def test_wrong_pins_lock_the_pad_for_a_while_even_across_a_restart(store, tmp_path):
    table = Table(store, site(tmp_path, "9753"))
    table.access.ask(table.open_menu, why="Operator PIN to abandon this game")
    assert table.pads[-1][2] == "Operator PIN to abandon this game"
    assert [table.type_pin("1111") for _ in range(FREE_TRIES)] == [False] * FREE_TRIES
    assert table.type_pin("9753") is None and table.opened == 0  # not even the right one is taken now
    table.access = table.restart(store)  # pulling the plug does not reset the wait
    table.access.ask(table.open_menu)
    assert table.type_pin("9753") is None
    table.now += FIRST_WAIT_S
    assert table.type_pin("9753") is True and table.opened == 1
    table.access.ask(table.open_menu)
    assert table.type_pin("1111") is False  # the count started again after the right PIN


def test_the_shipped_pin_opens_only_after_the_operator_chooses_their_own(store, tmp_path):
    table = Table(store, site(tmp_path, None))
    table.access.ask(table.open_menu)
    assert table.type_pin(DEFAULT_PIN) is True and table.opened == 0
    chosen, heading = table.pads[-1]
    assert heading == CHOOSE_YOUR_OWN
    chosen(DEFAULT_PIN)
    assert table.said == [(SAME_AS_SHIPPED, True)] and table.opened == 0
    chosen("1357")
    assert table.opened == 1
    assert check("1357", table.access.pin_hash) and not check(DEFAULT_PIN, table.access.pin_hash)
    assert "1357" not in repr(store.settings())
    table.access.ask(table.open_menu)
    assert table.type_pin("1357") is True and table.opened == 2  # no new-PIN pad this time


def test_a_pin_the_settings_refuse_is_said_and_opens_nothing(store, tmp_path):
    table = Table(store, site(tmp_path, None))
    table.access.ask(table.open_menu)
    table.type_pin(DEFAULT_PIN)
    table.pads[-1][0]("12345678901")  # longer than a PIN may be
    assert table.said == [("Not changed. Operator pin: 4 to 8 digits, 0-9.", True)] and table.opened == 0


def test_with_neither_a_pin_nor_its_hash_the_shipped_pin_applies_and_must_be_replaced(store, tmp_path):
    table = Table(store, site(tmp_path, None))
    no_pin = table.settings.config.kiosk.model_copy(update={"operator_pin": None})
    table.access.kiosk = lambda: no_pin  # the App's accessor crashed on this (hash of None)
    table.access.ask(table.open_menu)
    assert table.type_pin(DEFAULT_PIN) is True and table.pads[-1][1] == CHOOSE_YOUR_OWN and table.opened == 0
