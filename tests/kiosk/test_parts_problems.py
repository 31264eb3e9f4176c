"""Start-up problems (kiosk.parts.problems) in the operator's words, without a window."""

from __future__ import annotations

from kiosk.parts import problems
from kiosk.recovery import open_store


def test_a_damaged_store_is_moved_aside_and_the_problem_says_where(tmp_path):
    path = tmp_path / "sessions.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    store, recovery = open_store(path)
    store.close()
    assert recovery is not None
    problem = problems.damaged_store(recovery)
    assert problem.title == "The saved-games database was damaged"
    assert str(recovery.kept_at) in problem.what and problem.todo.startswith("carry on")


def test_a_missing_tray_is_one_problem_that_says_the_kiosk_keeps_looking():
    assert problems.missing_tray([]) == []
    [problem] = problems.missing_tray(["The config asks for the tray on /dev/ttyACM0, and there is no such port."])
    assert problem.title == "The tray is missing"
    assert problem.what.startswith("The config asks for the tray on /dev/ttyACM0") and "without a restart" in problem.what


def test_a_bad_config_file_says_the_kiosk_runs_on_the_defaults():
    problem = problems.bad_config("/etc/table-noir.toml has 1 problem(s):\n  kiosk.idle_attract_s: ...")
    assert problem.what.startswith("/etc/table-noir.toml has 1 problem(s)")
    assert "built-in defaults" in problem.what and "restart" in problem.todo
