"""Print a pip constraints file pinning every dependency to the lowest version pyproject.toml allows.

pip has no "lowest versions" resolution, so ``scripts/lowest-deps.sh`` installs with these
constraints instead: each ``name>=X`` becomes ``name==X``. A dependency without a lower bound
is an error, because then nobody knows which oldest version the project claims to support.

    python scripts/lowest_constraints.py [--extra dev] [--skip NAME ...]
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9_.\-\[\]]+)\s*(.*?)\s*(?:;.*)?$")


def lowest(requirement: str) -> str:
    """``"kivy>=2.3,<2.4  "`` -> ``"kivy==2.3"``; raises ValueError without a ``>=`` bound."""
    match = REQUIREMENT.match(requirement)
    if match is None:
        raise ValueError(f"cannot read the requirement {requirement!r}")
    name, spec = match.group(1).split("[")[0], match.group(2)
    bound = re.search(r">=\s*([0-9][0-9A-Za-z.]*)", spec)
    if bound is None:
        raise ValueError(f"{name} has no lower bound (>=) in pyproject.toml: {requirement!r}")
    return f"{name}=={bound.group(1)}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extra", action="append", default=[], help="also pin this optional group")
    parser.add_argument("--skip", action="append", default=[], help="leave this package out")
    args = parser.parse_args(argv)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = list(project["dependencies"])
    for extra in args.extra:
        requirements += project["optional-dependencies"][extra]
    try:
        pins = [lowest(r) for r in requirements]
    except ValueError as err:
        print(f"lowest_constraints: {err}", file=sys.stderr)
        return 1
    skip = {s.lower() for s in args.skip}
    print("\n".join(p for p in pins if p.split("==")[0].lower() not in skip))
    return 0


if __name__ == "__main__":
    sys.exit(main())
