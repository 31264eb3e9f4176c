"""Hostile files and folders on the command line: one clear line, a non-zero exit, nothing written.

Each case hands a ``table-noir`` command something that is not what it asked
for (a log that is not UTF-8, JSON nested 100,000 deep, a 5,000-digit number,
a FIFO, a folder, a config of the same kinds, ``--data`` pointing at a file,
``tray --link`` into a missing folder) and checks what a user would see: no
traceback, exactly one line on stderr that names the file and the problem, a
non-zero exit status, and no file created or changed anywhere in the folder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk import cli

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every entry under ``folder`` with its size and modification time, to prove nothing was written."""
    return {str(p.relative_to(folder)): (p.lstat().st_size, p.lstat().st_mtime_ns) for p in folder.rglob("*")}


def run(argv: list[str], capsys, folder: Path, named: str, says: str) -> str:
    """Run ``table-noir ARGV``; check one stderr line naming ``named`` and saying ``says``, exit > 0,
    nothing on stdout and nothing written in ``folder``. Returns the line."""
    before = snapshot(folder)
    status = cli.main(argv)
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert status > 0, f"exit status {status} for {argv}"
    assert out == ""
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert named in lines[0] and says in lines[0], lines[0]
    assert snapshot(folder) == before
    return lines[0]


def header(game: str = "even-odd", **setup) -> str:
    return json.dumps({"game": game, "format": 1, "setup": {"players": ["Ann", "Bee", "Cy"], **setup}})


# -- table-noir replay --------------------------------------------------------------------------------

def test_replay_of_a_file_that_is_not_utf8(tmp_path, capsys):
    log = tmp_path / "bad.jsonl"
    before = b'{"type": "introduce", "player": "Ann", "name": "'
    log.write_bytes(header().encode() + b"\n" + before + b'\xff\xfe"}\n')
    line = run(["replay", str(log)], capsys, tmp_path, "bad.jsonl", "line 2: not UTF-8 text (byte 0xff")
    assert line.endswith(f"at column {len(before) + 1})")


def test_replay_of_deeply_nested_json(tmp_path, capsys):
    log = tmp_path / "deep.jsonl"
    log.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    run(["replay", str(log)], capsys, tmp_path, "deep.jsonl", "line 1: the JSON is nested too deeply")


def test_replay_of_a_5000_digit_number(tmp_path, capsys):
    log = tmp_path / "big.jsonl"
    log.write_text(header(seed=0).replace('"seed": 0', '"seed": ' + "7" * 5000) + "\n")
    run(["replay", str(log)], capsys, tmp_path, "big.jsonl", "line 1: not a usable JSON value (exceeds the limit")


@pytest.mark.parametrize("content, says", [
    ("", "line 1: the log is empty"),
    ("\n\n   \n", "the log is empty"),
    ("[1, 2]\n", "line 1: expected a JSON object, not a list"),
    ('"text"\n', "line 1: expected a JSON object, not a string"),
    ("null\n", "line 1: expected a JSON object, not null"),
], ids=["empty", "blank-lines", "list", "string", "null"])
def test_replay_of_a_log_with_no_header_object(tmp_path, capsys, content, says):
    log = tmp_path / "odd.jsonl"
    log.write_text(content)
    run(["replay", str(log)], capsys, tmp_path, "odd.jsonl", says)


def test_replay_names_a_bad_setup_in_one_line(tmp_path, capsys):
    """pydantic's own message is several lines long and echoes the whole input."""
    log = tmp_path / "setup.jsonl"
    log.write_text(header(extra=[[[[["x" * 5000]]]]], seed=float("inf")).replace("Infinity", "1e999") + "\n")
    line = run(["replay", str(log)], capsys, tmp_path, "setup.jsonl", "line 1: the setup is not valid")
    assert "seed: input should be a finite number" in line and "extra: extra inputs are not permitted" in line
    assert "xxxxx" not in line


def test_replay_of_an_unknown_game_with_a_huge_name(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    log.write_text(json.dumps({"game": "chess" * 20_000, "format": 1, "setup": {}}) + "\n")
    line = run(["replay", str(log)], capsys, tmp_path, "game.jsonl", "line 1: unknown game 'chesschess")
    assert len(line) < 300 and "known games: hell-for-leather" in line


def test_replay_of_a_folder(tmp_path, capsys):
    (tmp_path / "logs").mkdir()
    run(["replay", str(tmp_path / "logs")], capsys, tmp_path, "logs", "it is a folder")


def test_replay_of_a_fifo_does_not_wait_for_a_writer(tmp_path, capsys):
    os.mkfifo(tmp_path / "pipe.jsonl")
    run(["replay", str(tmp_path / "pipe.jsonl")], capsys, tmp_path, "pipe.jsonl", "not a regular file")


def test_replay_of_a_device_or_a_file_without_newlines(tmp_path, capsys):
    run(["replay", "/dev/zero"], capsys, tmp_path, "/dev/zero", "not a regular file")
    log = tmp_path / "zeros.jsonl"
    log.write_bytes(b"0" * (2 << 20))
    run(["replay", str(log)], capsys, tmp_path, "zeros.jsonl", "line 1: longer than 1024 KiB")


def test_replay_of_a_missing_file(tmp_path, capsys):
    run(["replay", str(tmp_path / "gone.jsonl")], capsys, tmp_path, "gone.jsonl", "No such file or directory")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_replay_of_a_file_without_read_permission(tmp_path, capsys):
    log = tmp_path / "secret.jsonl"
    log.write_text(header() + "\n")
    log.chmod(0)
    run(["replay", str(log)], capsys, tmp_path, "secret.jsonl", "Permission denied")


def test_a_lone_surrogate_in_a_name_prints_as_an_escape(tmp_path, capsys):
    """JSON may carry "\\ud800", which no terminal encoding can print; the recap still prints."""
    text = (EXAMPLES / "even-odd.jsonl").read_text().replace("Vera Kask", "Vera \\ud800 Kask")
    (tmp_path / "s.jsonl").write_text(text)
    assert cli.main(["replay", str(tmp_path / "s.jsonl"), "--recap"]) == 0
    out, err = capsys.readouterr()
    assert "Vera \\ud800 Kask" in out and err == ""


def test_replay_into_a_closed_pipe_ends_quietly(tmp_path):
    """`table-noir replay LOG | head -1`: the reader leaves early; no traceback follows."""
    read, write = os.pipe()
    os.close(read)
    code = "import sys; from kiosk.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, "replay", str(EXAMPLES / "promise-hollows.jsonl")],
                          stdout=write, stderr=subprocess.PIPE, text=True, timeout=60)
    os.close(write)
    assert "Traceback" not in done.stderr and done.stderr == ""
    assert done.returncode == 1


# -- --config (the hardware monitor and the virtual tray read it at start) ---------------------------

def config_cases(tmp_path: Path) -> list[tuple[Path, str]]:
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b"[kiosk]\n# caf\xe9\n")
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    big = tmp_path / "big.toml"
    big.write_text("[kiosk]\nidle_attract_s = " + "9" * 5000 + "\n")
    huge = tmp_path / "huge.toml"
    huge.write_text("# " + "x" * (2 << 20) + "\n")
    folder = tmp_path / "conf.d"
    folder.mkdir()
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    return [
        (bad, "is not UTF-8 text (byte 0xe9 on line 2)"),
        (deep, "nests arrays or tables too deeply"),
        (big, "has a value that cannot be read: Exceeds the limit (4300 digits)"),
        (huge, "is larger than 1024 KiB"),
        (folder, "it is a folder"),
        (fifo, "it is not a regular file"),
        (tmp_path / "missing.toml", "No such file or directory"),
    ]


@pytest.mark.parametrize("command", [["hardware", "monitor", "--sim", "--seconds", "0"], ["tray", "--virtual"]])
def test_a_config_that_cannot_be_read(tmp_path, capsys, command):
    extra = ["--link", str(tmp_path / "link")] if command[0] == "tray" else []
    for path, says in config_cases(tmp_path):
        run([*command, *extra, "--config", str(path)], capsys, tmp_path, path.name, says)


def test_a_config_value_error_does_not_echo_a_pasted_file(tmp_path, capsys):
    conf = tmp_path / "long.toml"
    conf.write_text('[tray]\nserial_port = "' + "x" * 5000 + '"\n')
    assert cli.main(["hardware", "monitor", "--sim", "--seconds", "0", "--config", str(conf)]) == 2
    err = capsys.readouterr().err
    assert "tray.serial_port" in err and "[...]" in err and len(err) < 400


# -- the kiosk's --data ------------------------------------------------------------------------------

# The kiosk refuses the folder before it configures Kivy, so no window opens in these tests.

def test_data_pointing_at_a_file(tmp_path, capsys):
    db = tmp_path / "sessions.sqlite3"
    db.write_bytes(b"SQLite format 3\x00")
    run(["kiosk", "--data", str(db)], capsys, tmp_path, str(db), f"it is a file, not a folder; did you mean --data {tmp_path}?")
    run(["kiosk", "--data", str(db / "more")], capsys, tmp_path, str(db / "more"), f"cannot make the folder, {db} is a file")


def test_data_folder_from_the_environment_pointing_at_a_file(tmp_path, capsys, monkeypatch):
    (tmp_path / "notes").write_text("not a folder")
    monkeypatch.setenv("TABLE_NOIR_DATA", str(tmp_path / "notes"))
    run(["kiosk"], capsys, tmp_path, f"the data folder {tmp_path / 'notes'}", "it is a file, not a folder")


def test_kiosk_config_that_cannot_be_read_writes_nothing(tmp_path, capsys):
    """Named with --config, the file is checked before the store is opened in the data folder."""
    for path, says in config_cases(tmp_path):
        run(["kiosk", "--config", str(path), "--data", str(tmp_path / "data")], capsys, tmp_path, path.name, says)
    assert not (tmp_path / "data").exists()


# -- table-noir tray --link --------------------------------------------------------------------------

def test_tray_link_into_a_missing_folder(tmp_path, capsys):
    link = tmp_path / "no" / "such" / "link"
    run(["tray", "--virtual", "--link", str(link)], capsys, tmp_path, str(link), "does not exist")


def test_tray_link_under_a_file(tmp_path, capsys):
    (tmp_path / "plain").write_text("x")
    link = tmp_path / "plain" / "link"
    run(["tray", "--virtual", "--link", str(link)], capsys, tmp_path, str(link), "is a file, not a folder")


def test_tray_link_never_replaces_a_file_or_a_folder(tmp_path, capsys):
    """Moving the link onto the path would destroy what the user had there."""
    (tmp_path / "notes.txt").write_text("keep me")
    (tmp_path / "folder").mkdir()
    for name in ("notes.txt", "folder"):
        run(["tray", "--virtual", "--link", str(tmp_path / name)], capsys, tmp_path, name, "is already there")
    assert (tmp_path / "notes.txt").read_text() == "keep me"


def test_data_in_a_folder_that_takes_no_files(tmp_path, capsys):
    """Root may write anywhere by the permission bits, but /proc takes no new files: before,
    the store failed, recovery tried to move aside a database that was never there, and
    the kiosk ended in a traceback."""
    for data in ("/proc/table-noir", "/proc"):
        run(["kiosk", "--data", data], capsys, tmp_path, f"--data {data}", "cannot create files in /proc")
        assert not Path(data, "sessions.sqlite3").exists()


def test_a_store_that_cannot_be_made_is_one_store_error(tmp_path):
    """Past the command line's check (the unit names the folder in the environment), opening
    the store says what failed in one message instead of moving aside a file that is not there."""
    from kiosk.recovery import open_store
    from kiosk.store import StoreError

    with pytest.raises(StoreError, match=r"cannot make the saved-games database /proc/table-noir/sessions.sqlite3: "):
        open_store("/proc/table-noir/sessions.sqlite3")


# -- table-noir tray --demo ----------------------------------------------------------------------------

@pytest.mark.parametrize("seconds", ["-1", "0", "nan", "inf"])
def test_tray_demo_needs_seconds_above_zero(tmp_path, seconds):
    """``--demo -1`` was taken and threw a die on every tick until killed. Run as a process
    with a time limit, so the old behaviour fails the test instead of hanging it."""
    root = Path(__file__).resolve().parents[1]
    link = tmp_path / "tray-link"
    before = snapshot(tmp_path)
    done = subprocess.run([sys.executable, "-m", "kiosk.cli", "tray", "--virtual", "--demo", seconds,
                           "--link", str(link)], capture_output=True, text=True, timeout=30, cwd=root,
                          stdin=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(root)})
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done
    assert done.stdout == ""
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith(f"table-noir tray: --demo {seconds}: ") and "above 0" in lines[0], lines[0]
    assert snapshot(tmp_path) == before and not link.is_symlink()
