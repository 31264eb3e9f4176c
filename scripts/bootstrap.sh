#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks, once: system packages, a virtual
# environment in .venv, and this project with its dev tools. Re-running is cheap:
# it only reinstalls Python packages when pyproject.toml (or the version) changes.
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages: a virtual screen for UI tests and screenshots, OpenSCAD for
# the enclosure, and the libraries Kivy's window needs.
system_packages=(xvfb xauth openscad libgl1 libmtdev1 xclip prusa-slicer poppler-utils graphviz)  # prusa-slicer: the support check (enclosure/slicing.py); poppler-utils: pdftoppm to look at the guide; graphviz: dot for WireViz's harness diagrams
# The deploy tests: shellcheck on every script, systemd-analyze verify on the kiosk's units.
system_packages+=(shellcheck systemd)
# On a Raspberry Pi (./tn run there) the Pi extras too: lgpio builds against liblgpio if no wheel fits.
# shellcheck source=kiosk/deploy/board.sh
. kiosk/deploy/board.sh
extras=dev
if [ -n "$(pi_board)" ]; then
  extras=dev,pi
  system_packages+=(python3-dev swig liblgpio-dev)
fi
# Chromium and WebKit (WebKitWebDriver and its MiniBrowser) for the phone page's and the organiser
# page's end-to-end tests, and Mosquitto for the fleet's broker tests (a desktop or CI; a Pi kiosk
# does not test itself, and a stand runs no broker).
[ -n "$(pi_board)" ] || system_packages+=(chromium webkit2gtk-driver mosquitto)
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
want=$(cat pyproject.toml kiosk/__init__.py | sha256sum | cut -d' ' -f1)  # __init__.py holds the version
[ "$extras" = dev ] || want="$want $extras"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "bootstrap: installing Python packages into .venv"
  .venv/bin/python -m pip install -q --upgrade pip
  echo "bootstrap: extras: $extras"
  .venv/bin/python -m pip install -q -e ".[$extras]"
  echo "$want" > "$stamp"
fi
