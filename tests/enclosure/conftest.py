"""Build every enclosure part once per test run (cached by input hash between runs)."""

import shutil

import pytest

from enclosure import build as enclosure_build
from enclosure.stl import read_stl
from hardware.config import load_config

needs_openscad = pytest.mark.skipif(
    shutil.which("openscad") is None,
    reason="OpenSCAD is not installed (`sudo apt-get install openscad`; scripts/bootstrap.sh and CI install it)",
)


@pytest.fixture(scope="session")
def config():
    # The shipped defaults, not a site file on this machine.
    return load_config(enclosure_build.HERE.parent / "hardware" / "table-noir.toml")


@pytest.fixture(scope="session")
def built(config, tmp_path_factory):
    """(output folder, parts by name) for the default configuration."""
    if shutil.which("openscad") is None:
        pytest.skip(needs_openscad.kwargs["reason"])
    out = tmp_path_factory.mktemp("enclosure")
    parts = tuple(p for p in enclosure_build.PARTS if p.name != "table_assembly")   # a picture only, and the slowest
    manifest = enclosure_build.build(config, out=out, parts=parts)
    return out, {item["name"]: item for item in manifest}


@pytest.fixture(scope="session")
def mesh(built):
    out, _ = built
    cache = {}

    def load(name):
        if name not in cache:
            cache[name] = read_stl(out / f"{name}.stl")
        return cache[name]

    return load
