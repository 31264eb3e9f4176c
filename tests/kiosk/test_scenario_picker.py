"""Designer mode's "Start from a scenario", played through the real widgets."""

import pytest

from kiosk import scenario
from testkit import drive

from .uiplay import open_operator

pytestmark = pytest.mark.ui

GALLERY = scenario.SHIPPED / "promise-hollows-gallery-revelation.toml"


def open_picker(app) -> None:
    if app.sm.current != "operator":
        open_operator(app)
    drive.press("op:scenarios")


def test_the_picker_lists_every_shipped_scenario_with_its_game_and_section(app):
    open_picker(app)
    shipped = sorted(scenario.SHIPPED.glob("*.toml"))
    assert len(shipped) > 30
    for path in shipped:
        row = drive.find(f"scenario:{path.stem}")
        assert scenario.load(path).title in row.text
    gallery = drive.find(f"scenario:{GALLERY.stem}").text
    assert "Promise Hollows" in gallery and "Story-Building" in gallery  # the game and the rule-text section
    drive.press("scenarios:cancel")
    assert not drive.find_all("scenarios:status")


def test_picking_a_scenario_lands_on_the_play_screen_at_its_position_and_stores_it(app):
    before = {s.id for s in app.store.sessions()}
    open_picker(app)
    drive.press(f"scenario:{GALLERY.stem}")
    assert app.sm.current == "play" and not drive.find_all("scenarios:status")
    expected = scenario.start(GALLERY)
    assert app.runner.session.state == expected.state
    assert app.runner.session.view(None)["players"][2]["private_die"] == 5
    app.runner.settle()
    (new,) = [s for s in app.store.sessions() if s.id not in before]
    assert new.id == app.runner.sid
    assert app.store.load(new.id).state == expected.state  # the log is the truth: it replays to the position


@pytest.mark.parametrize("name, content, message", [
    ("broken.toml", "game = [", "broken.toml is not valid TOML"),
    ("refused.toml", 'game = "even-odd"\ntitle = "A wager before anyone is introduced"\n[setup]\n'
     'players = ["Ann", "Bo"]\n[[moves]]\ntype = "wager"\nplayer = "Ann"\nside = "even"\npoints = 1\n',
     r"refused.toml: move 1 (wager by Ann) is refused"),
    ("missed.toml", 'game = "even-odd"\ntitle = "Pools of six"\n[setup]\nplayers = ["Ann", "Bo"]\n'
     '[expect]\n"pools.Ann" = 5\n', "missed.toml does not reach its position: pools.Ann: expected 5"),
])
def test_a_bad_file_in_the_data_folder_is_named_with_what_is_wrong_and_nothing_is_lost(app, name, content, message):
    if app.runner is None:
        open_picker(app)
        drive.press(f"scenario:{GALLERY.stem}")
    playing, stored = app.runner.sid, [s.id for s in app.store.sessions()]
    state = app.runner.session.state.model_copy(deep=True)
    folder = app.exports.parent / "scenarios"
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(content, encoding="utf-8")
    try:
        open_picker(app)
        drive.press(f"scenario:{path.stem}")
        status = drive.find("scenarios:status").text
        assert message in status and status.count(name) == 1   # one message, naming the file
        assert app.runner.sid == playing and app.runner.session.state == state   # the game in play is untouched
        assert [s.id for s in app.store.sessions()] == stored                    # nothing stored for the bad file
        drive.press("scenarios:cancel")
    finally:
        path.unlink()
