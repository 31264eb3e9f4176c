#!/usr/bin/env bash
# A screenshot of every main kiosk screen of every game, on a virtual X screen.
#   scripts/screenshots.sh [OUT_DIR] [--size 800x480 1280x720] [--games GAME...] [--sheet docs/screens.md]
# Default OUT_DIR is ./screenshots. Look at each PNG before calling a screen done.
# --sheet also rewrites the contact sheet (docs/screens.md) and its small copies (docs/screens/).
set -euo pipefail
cd "$(dirname "$0")/.."
export KIVY_NO_ARGS=1 KIVY_LOG_MODE=PYTHON
run=(.venv/bin/python -m testkit.screenshots "$@")
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1280x800x24" "${run[@]}"
fi
exec "${run[@]}"
