"""setup-pi.sh, run in its dry-run mode against a fake root for each board and image type.

A dry run records every step (``run:`` commands, ``write:`` files, ``append:`` lines) in
``steps.log`` and writes the files it would install under its own folder, so the real
rendered units are checked by ``systemd-analyze verify`` and every script by shellcheck.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SETUP = REPO / "kiosk" / "deploy" / "setup-pi.sh"
MODELS = {"pi4": "Raspberry Pi 4 Model B Rev 1.5", "pi5": "Raspberry Pi 5 Model B Rev 1.0"}
GROUPS = ["gpio", "i2c", "dialout", "video", "render", "input", "spi"]


def fake_pi(tmp_path: Path, board: str, image: str) -> Path:
    """A root with what setup-pi.sh reads: the board's model, users, groups, tools."""
    root = tmp_path / f"root-{board}-{image}"
    (root / "proc" / "device-tree").mkdir(parents=True)
    (root / "proc" / "device-tree" / "model").write_bytes(MODELS[board].encode() + b"\0")
    (root / "etc").mkdir()
    (root / "etc" / "passwd").write_text("root:x:0:0::/root:/bin/bash\nkiosk:x:1000:1000::/home/kiosk:/bin/bash\n")
    (root / "etc" / "group").write_text("".join(f"{g}:x:{900 + i}:\n" for i, g in enumerate(GROUPS)))
    (root / "etc" / "fstab").write_text("PARTUUID=1234-02  /  ext4  defaults,noatime  0  1\n")
    for tool in ["usr/bin/raspi-config", "usr/bin/nmcli"] + (["usr/sbin/lightdm"] if image == "desktop" else []):
        (root / tool).parent.mkdir(parents=True, exist_ok=True)
        (root / tool).write_text("")
    return root


def dry_run(tmp_path: Path, root: Path, *args: str, env: dict[str, str] | None = None, ok: bool = True):
    out = tmp_path / f"dry-{len(list(tmp_path.glob('dry-*')))}"
    done = subprocess.run(["bash", str(SETUP), "--user", "kiosk", "--dry-run", str(out), *args],
                          env={**os.environ, "TN_ROOT": str(root), **(env or {})},
                          capture_output=True, text=True, timeout=60)
    if ok:
        assert done.returncode == 0, done.stderr
    steps = (out / "steps.log").read_text().splitlines() if (out / "steps.log").exists() else []
    return done, steps, out / "root"


def runs(steps: list[str]) -> list[str]:
    return [s.removeprefix("run: ") for s in steps if s.startswith("run: ")]


def writes(steps: list[str]) -> list[str]:
    return [s.removeprefix("write: ").split(" (")[0] for s in steps if s.startswith("write: ")]


BOARDS_AND_IMAGES = [(b, i) for b in ("pi4", "pi5") for i in ("lite", "desktop")]


@pytest.mark.parametrize("board,image", BOARDS_AND_IMAGES)
def test_every_board_and_image_gets_the_whole_kiosk(tmp_path, board, image):
    _, steps, files = dry_run(tmp_path, fake_pi(tmp_path, board, image))
    commands = runs(steps)
    install = next(c for c in commands if "apt-get install" in c)
    for package in ("xserver-xorg-core", "xserver-xorg-legacy", "xinit", "libsdl2-2.0-0", "i2c-tools", "liblgpio-dev"):
        assert package in install.split(), package
    assert "raspi-config nonint do_i2c 0" in commands
    for group in ("gpio", "i2c", "dialout", "video", "render"):
        assert f"usermod -aG {group} kiosk" in commands
    assert any(c.endswith("pip install -q -e .\\[pi\\]") for c in commands)
    assert any("GPIOZERO_PIN_FACTORY=lgpio" in c and "ensure_pin_factory" in c and "-W always" in c for c in commands)
    # Boot to the console with a login prompt (never autologin), the kiosk unit taking tty1.
    assert "raspi-config nonint do_boot_behaviour B1" in commands
    assert not any("B2" in c or "B4" in c for c in commands)
    assert commands[-2:] == ["systemctl daemon-reload", "systemctl enable table-noir-kiosk.service"]
    unit = (files / "etc/systemd/system/table-noir-kiosk.service").read_text()
    assert "Conflicts=getty@tty1.service" in unit and "TTYPath=/dev/tty1" in unit and " vt1 " in unit
    assert "@" not in unit.replace("getty@tty1", "")  # every placeholder filled in
    assert "User=kiosk" in unit and "Environment=HOME=/home/kiosk" in unit
    assert (files / "etc/X11/Xwrapper.config").read_text().splitlines() == ["allowed_users=anybody",
                                                                             "needs_root_rights=yes"]


@pytest.mark.parametrize("board,image", BOARDS_AND_IMAGES)
def test_what_differs_between_boards_and_images(tmp_path, board, image):
    done, steps, files = dry_run(tmp_path, fake_pi(tmp_path, board, image))
    vc4 = "/etc/X11/xorg.conf.d/99-table-noir-vc4.conf"
    assert (vc4 in writes(steps)) == (board == "pi5")  # X must pick the Pi 5's display device
    assert ("systemctl set-default multi-user.target" in runs(steps)) == (image == "desktop")
    assert MODELS[board] in done.stdout and f"Raspberry Pi OS {image}" in done.stdout


def test_a_portrait_panel_is_turned_in_the_unit(tmp_path):
    _, _, files = dry_run(tmp_path, fake_pi(tmp_path, "pi5", "lite"), "--rotate", "90")
    unit = (files / "etc/systemd/system/table-noir-kiosk.service").read_text()
    assert "--fullscreen --rotation 90 " in unit


def test_a_rotation_the_screen_cannot_take_is_refused_before_anything_is_done(tmp_path):
    done, steps, _ = dry_run(tmp_path, fake_pi(tmp_path, "pi4", "lite"), "--rotate", "45", ok=False)
    assert done.returncode != 0 and "--rotate must be 0, 90, 180 or 270 (got 45)" in done.stderr
    assert steps == []


def test_not_a_pi_is_refused_in_one_line(tmp_path):
    root = fake_pi(tmp_path, "pi4", "lite")
    (root / "proc/device-tree/model").unlink()
    done, steps, _ = dry_run(tmp_path, root, ok=False)
    assert done.returncode != 0 and "not a Raspberry Pi" in done.stderr
    assert runs(steps) == []


def test_the_hotspot_is_a_networkmanager_keyfile_and_its_password_is_never_shown(tmp_path):
    secret = "correct-horse-battery"
    done, steps, files = dry_run(tmp_path, fake_pi(tmp_path, "pi5", "desktop"), "--hotspot", "TableNoir",
                                 env={"TABLE_NOIR_HOTSPOT_PSK": secret})
    keyfile = "/etc/NetworkManager/system-connections/table-noir-hotspot.nmconnection"
    assert f"write: {keyfile} (600)" in steps
    text = (files / keyfile.lstrip("/")).read_text()
    assert "mode=ap" in text and "ssid=TableNoir" in text and "method=shared" in text
    assert "nmcli connection up table-noir-hotspot" in runs(steps)
    everything = done.stdout + done.stderr + "\n".join(steps) + text
    assert secret not in everything


def test_a_hotspot_without_a_good_password_is_refused(tmp_path):
    root = fake_pi(tmp_path, "pi4", "lite")
    for psk in ("", "short"):
        done, steps, _ = dry_run(tmp_path, root, "--hotspot", "T",
                                 env={"TABLE_NOIR_HOTSPOT_PSK": psk}, ok=False)
        assert done.returncode != 0 and "TABLE_NOIR_HOTSPOT_PSK, 8 to 63 characters" in done.stderr
        assert runs(steps) == []


def test_the_overlay_keeps_games_and_site_config_on_the_data_partition(tmp_path):
    root = fake_pi(tmp_path, "pi5", "lite")
    (root / "dev/disk/by-label").mkdir(parents=True)
    (root / "dev/disk/by-label/TNDATA").write_text("")
    _, steps, files = dry_run(tmp_path, root, "--overlay")
    assert "append: /etc/fstab: LABEL=TNDATA /srv/table-noir ext4 defaults,noatime,nofail 0 2" in steps
    assert runs(steps)[-1] == "raspi-config nonint do_overlayfs 0"  # last, once the fstab line is in
    unit = (files / "etc/systemd/system/table-noir-kiosk.service").read_text()
    assert "Environment=TABLE_NOIR_DATA=/srv/table-noir" in unit
    assert "Environment=TABLE_NOIR_CONFIG=/srv/table-noir/table-noir.toml" in unit


def test_the_overlay_without_a_data_partition_is_refused(tmp_path):
    done, steps, _ = dry_run(tmp_path, fake_pi(tmp_path, "pi5", "lite"), "--overlay", ok=False)
    assert done.returncode != 0 and "partition labelled TNDATA" in done.stderr
    assert runs(steps) == []


def test_a_second_run_on_a_set_up_pi_adds_nothing_twice(tmp_path):
    """Idempotent: what the first run appended or created is found by the second, which skips it."""
    root = fake_pi(tmp_path, "pi5", "lite")
    (root / "dev/disk/by-label").mkdir(parents=True)
    (root / "dev/disk/by-label/TNDATA").write_text("")
    _, first, files = dry_run(tmp_path, root, "--overlay")
    # Apply what the first run did to the fake root: its files and its fstab line.
    shutil.copytree(files, root, dirs_exist_ok=True)
    with (root / "etc/fstab").open("a") as fstab:
        fstab.writelines(s.split(": ", 2)[2] + "\n" for s in first if s.startswith("append: /etc/fstab"))
    (root / "proc/mounts").write_text("/dev/mmcblk0p3 /srv/table-noir ext4 rw 0 0\n")
    _, second, _ = dry_run(tmp_path, root, "--overlay")
    assert not [s for s in second if s.startswith("append:")]
    assert "run: mount /srv/table-noir" in first and "run: mount /srv/table-noir" not in second
    assert "write: /srv/table-noir/table-noir.toml (644)" in first
    assert "write: /srv/table-noir/table-noir.toml (644)" not in second  # a site config is never overwritten


# -- shellcheck and systemd-analyze ---------------------------------------------------------------

SCRIPTS = sorted({*REPO.glob("scripts/*.sh"), *REPO.glob("kiosk/deploy/*.sh"), REPO / "tn",
                  *(p for p in REPO.glob(".ci/*") if p.is_file() and p.read_text(errors="replace").startswith("#!"))})


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed (scripts/bootstrap.sh "
                                                               "installs it; this machine has no apt)")
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(REPO)))
def test_shellcheck_passes(script):
    done = subprocess.run(["shellcheck", "-x", "-P", str(REPO), str(script)], cwd=REPO, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def _verify_root(tmp_path: Path, files: Path) -> Path:
    """A root for systemd-analyze: the machine's own system units, the rendered ones, and stand-ins
    for the programs they start (xinit and the kiosk's venv are not on a test machine)."""
    root = tmp_path / "verify-root"
    shutil.copytree(Path("/usr/lib/systemd/system"), root / "usr/lib/systemd/system", symlinks=True)
    shutil.copytree(files / "etc/systemd/system", root / "etc/systemd/system")
    for unit in (root / "etc/systemd/system").glob("*.service"):
        for line in unit.read_text().splitlines():
            if line.startswith("ExecStart="):
                program = root / line.split("=", 1)[1].split()[0].lstrip("/+-")
                program.parent.mkdir(parents=True, exist_ok=True)
                program.write_text("#!/bin/sh\n")
                program.chmod(0o755)
    return root


@pytest.mark.skipif(shutil.which("systemd-analyze") is None or not Path("/usr/lib/systemd/system").is_dir(),
                    reason="systemd-analyze is not installed (scripts/bootstrap.sh installs systemd)")
@pytest.mark.parametrize("board,image", [("pi4", "lite"), ("pi5", "desktop")])
def test_systemd_analyze_verify_passes_on_the_rendered_units(tmp_path, board, image):
    _, _, files = dry_run(tmp_path, fake_pi(tmp_path, board, image), "--rotate", "90")
    root = _verify_root(tmp_path, files)
    for unit in ("table-noir-kiosk.service", "table-noir-kiosk-failed.service"):
        done = subprocess.run(["systemd-analyze", "verify", f"--root={root}", "--man=no",
                               f"/etc/systemd/system/{unit}"], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and done.stderr.strip() == "", done.stderr


def test_start_limit_stops_a_same_way_failure_and_the_screen_says_why(tmp_path):
    _, _, files = dry_run(tmp_path, fake_pi(tmp_path, "pi4", "lite"))
    unit = (files / "etc/systemd/system/table-noir-kiosk.service").read_text().splitlines()
    unit_section = unit[: unit.index("[Service]")]
    burst = int(next(line for line in unit_section if line.startswith("StartLimitBurst=")).split("=")[1])
    interval = int(next(line for line in unit_section if line.startswith("StartLimitIntervalSec=")).split("=")[1])
    restart_sec = int(next(line for line in unit if line.startswith("RestartSec=")).split("=")[1])
    assert burst * restart_sec < interval  # a loop of fast failures reaches the limit inside the window
    assert "OnFailure=table-noir-kiosk-failed.service" in unit_section
    failed = (files / "etc/systemd/system/table-noir-kiosk-failed.service").read_text()
    assert "TTYPath=/dev/tty1" in failed and "StandardOutput=tty" in failed


def test_logs_go_to_the_journal_only(tmp_path):
    _, _, files = dry_run(tmp_path, fake_pi(tmp_path, "pi4", "lite"))
    unit = (files / "etc/systemd/system/table-noir-kiosk.service").read_text()
    for line in ("Environment=KIVY_NO_FILELOG=1", "Environment=KIVY_NO_CONFIG=1", "StandardError=journal"):
        assert line in unit


# -- ./tn run on a Pi installs the Pi extras --------------------------------------------------------

@pytest.mark.parametrize("model,extras", [(MODELS["pi5"], ".[dev,pi]"), (MODELS["pi4"], ".[dev,pi]"), (None, ".[dev]")])
def test_bootstrap_installs_the_pi_extras_on_a_pi(tmp_path, model, extras):
    work = tmp_path / "checkout"
    (work / "scripts").mkdir(parents=True)
    (work / "kiosk/deploy").mkdir(parents=True)
    shutil.copy(REPO / "scripts/bootstrap.sh", work / "scripts/bootstrap.sh")
    shutil.copy(REPO / "kiosk/deploy/board.sh", work / "kiosk/deploy/board.sh")
    shutil.copy(REPO / "pyproject.toml", work / "pyproject.toml")
    (work / "kiosk").mkdir(exist_ok=True)
    shutil.copy(REPO / "kiosk/__init__.py", work / "kiosk/__init__.py")  # the version, in the install stamp
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    # Every system package counts as installed; the venv's python records what it is asked.
    (bin_dir / "dpkg-query").write_text("#!/bin/sh\necho 'install ok installed'\n")
    (work / ".venv/bin").mkdir(parents=True)
    (work / ".venv/bin/python").write_text(f"#!/bin/sh\necho \"$*\" >> {tmp_path}/pip.log\n")
    for f in (bin_dir / "dpkg-query", work / ".venv/bin/python"):
        f.chmod(0o755)
    root = tmp_path / "root"
    (root / "proc/device-tree").mkdir(parents=True)
    if model:
        (root / "proc/device-tree/model").write_bytes(model.encode() + b"\0")
    done = subprocess.run(["bash", "scripts/bootstrap.sh"], cwd=work, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "TN_ROOT": str(root), "PATH": f"{bin_dir}:{os.environ['PATH']}"})
    assert done.returncode == 0, done.stderr
    assert f"-m pip install -q -e {extras}" in (tmp_path / "pip.log").read_text().splitlines()


def test_the_kiosk_takes_the_arguments_the_unit_gives_it(tmp_path, monkeypatch):
    """The unit's ExecStart line, as xinit passes it to table-noir, is accepted by the kiosk's command line."""
    import shlex

    from kiosk import cli, launch

    _, _, files = dry_run(tmp_path, fake_pi(tmp_path, "pi5", "lite"), "--rotate", "270")
    unit = (files / "etc/systemd/system/table-noir-kiosk.service").read_text().splitlines()
    words = shlex.split(next(line for line in unit if line.startswith("ExecStart=")).split("=", 1)[1])
    client = words[1: words.index("--")]  # xinit CLIENT ARGS -- SERVER ARGS
    assert client[0].endswith("/.venv/bin/table-noir")
    seen = {}

    class Started(Exception):
        pass

    def configure(size, fullscreen=False, rotation=0, **kw):
        seen.update(size=size, fullscreen=fullscreen, rotation=rotation)
        raise Started

    monkeypatch.setattr(launch, "configure", configure)
    with pytest.raises(Started):
        cli.main(client[1:])
    assert seen == {"size": (800, 480), "fullscreen": True, "rotation": 270}


# -- the dry run on any computer: --board and --image describe the Pi (issue 32) --------------

def described_dry_run(tmp_path: Path, board: str, image: str, *args: str, ok: bool = True):
    out = tmp_path / f"described-{board}-{image}"
    env = {k: v for k, v in os.environ.items() if k != "TN_ROOT"}
    done = subprocess.run(["bash", str(SETUP), "--user", "kiosk", "--dry-run", str(out), "--board", board,
                           "--image", image, *args], env=env, capture_output=True, text=True, timeout=60)
    if ok:
        assert done.returncode == 0, done.stderr
    steps = (out / "steps.log").read_text().splitlines() if (out / "steps.log").exists() else []
    return done, steps


@pytest.mark.parametrize("board,image", BOARDS_AND_IMAGES)
def test_the_dry_run_works_on_any_computer_given_the_board_and_image(tmp_path, board, image):
    # no TN_ROOT and no Raspberry Pi here: the plan equals the one made on that Pi
    done, steps = described_dry_run(tmp_path, board, image)
    _, on_pi, _ = dry_run(tmp_path, fake_pi(tmp_path, board, image))
    assert MODELS[board].split(" Rev")[0] in done.stdout and f"Raspberry Pi OS {image}" in done.stdout
    assert runs(steps) == runs(on_pi) and writes(steps) == writes(on_pi)


def test_board_and_image_are_refused_outside_a_dry_run_or_when_unknown(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "TN_ROOT"}
    outside = subprocess.run(["bash", str(SETUP), "--board", "pi5"], env=env, capture_output=True, text=True, timeout=60)
    assert outside.returncode != 0 and "dry run" in outside.stderr
    done, _ = described_dry_run(tmp_path, "pi3", "lite", ok=False)
    assert done.returncode != 0 and "--board must be pi5 or pi4" in done.stderr
