#!/usr/bin/env bash
# Runs the checks and the whole suite under a virtual X screen so the kiosk's UI tests can open windows.
# With no arguments (what CI runs) it first runs ruff on the tree and mypy on every package
# (every module is checked; pyproject.toml says which are strict); with
# arguments it runs just those pytest arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
export KIVY_NO_ARGS=1 KIVY_LOG_MODE=PYTHON
if [ $# -eq 0 ] || [ "${TN_CHECKS:-}" = 1 ]; then
  echo "checks: ruff"
  .venv/bin/ruff check --quiet .
  echo "checks: mypy (kiosk/, hardware/, the tray firmware and testkit/; strict files as pyproject.toml says)"
  .venv/bin/mypy kiosk hardware firmware/tray testkit
fi
if [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null; then
  exec xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python -m pytest "$@"
fi
exec .venv/bin/python -m pytest "$@"
