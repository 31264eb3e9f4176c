#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks, once: system packages, a virtual
# environment in .venv, and this project with its dev tools. Re-running is cheap:
# it only reinstalls Python packages when pyproject.toml changes.
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages: a virtual screen for UI tests and screenshots, OpenSCAD for
# the enclosure, the libraries Kivy's window needs, and Chromium for the phone page's end-to-end tests.
system_packages=(xvfb xauth openscad libgl1 libmtdev1 xclip chromium)
missing=()
for pkg in "${system_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null; then
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "bootstrap: installing system packages: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "bootstrap: please install these system packages: ${missing[*]}" >&2
  fi
fi

python=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$python" -m venv .venv
stamp=.venv/.table-noir-installed
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "bootstrap: installing Python packages into .venv"
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e ".[dev]"
  echo "$want" > "$stamp"
fi
