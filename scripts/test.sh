#!/usr/bin/env bash
# Runs the whole suite under a virtual X screen so the kiosk's UI tests can open windows.
set -euo pipefail
cd "$(dirname "$0")/.."
export KIVY_NO_ARGS=1 KIVY_LOG_MODE=PYTHON
if [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null; then
  exec xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python -m pytest "$@"
fi
exec .venv/bin/python -m pytest "$@"
