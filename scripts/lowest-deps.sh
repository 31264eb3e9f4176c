#!/usr/bin/env bash
# Proves the lower bounds in pyproject.toml: builds a separate virtual environment
# (.venv-lowest) with every dependency at the lowest version pyproject.toml allows
# (scripts/lowest_constraints.py turns each ">=X" into "==X"), then runs a sample of the
# suite there: the rules (not the long random-game properties), the session store, the
# setup wizard, the config and the pads.
# CI runs it after the main suite (.ci/run); pass pytest paths to run something else.
#   scripts/lowest-deps.sh [PYTEST ARGS]
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${LOWEST_VENV:-.venv-lowest}
python=${PYTHON:-python3}
started=$(date +%s)

constraints=$(mktemp)
trap 'rm -f "$constraints"' EXIT
"$python" scripts/lowest_constraints.py --extra dev --skip ruff --skip mypy > "$constraints"
echo "lowest-deps: pinning $(tr '\n' ' ' < "$constraints")"

stamp="$venv/.lowest-installed"
want=$(cat pyproject.toml "$constraints" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --upgrade pip
  # The constraints hold the project's own dependencies at their floors; anything they
  # pull in resolves as usual. The project itself goes in editable, without the dev extra's
  # linters (the sample needs only pytest, hypothesis and pytest-timeout, pinned above).
  "$venv/bin/python" -m pip install -q -c "$constraints" -e . pytest hypothesis pytest-timeout
  echo "$want" > "$stamp"
fi
"$venv/bin/python" -m pip list --format=freeze 2>/dev/null \
  | grep -iE '^(pydantic|pydantic.core|kivy|gpiozero|pyserial|adafruit-circuitpython-vl53l0x|platformdirs|pytest|hypothesis|pytest-timeout)==' \
  | tr '\n' ' ' | sed 's/^/lowest-deps: installed /'; echo

if [ $# -eq 0 ]; then
  # The long random-game properties run in the main suite; here the unit tests of the same code.
  set -- tests/rules tests/kiosk/test_store.py tests/kiosk/test_setupform.py tests/hardware/test_config.py \
         tests/hardware/test_pads_gpio.py tests/test_metadata.py --ignore-glob='*/test_properties.py' -q
fi
export KIVY_NO_ARGS=1 KIVY_LOG_MODE=PYTHON
status=0
"$venv/bin/python" -m pytest -p no:cacheprovider "$@" || status=$?
echo "lowest-deps: done in $(( $(date +%s) - started )) s (exit $status)"
exit $status
