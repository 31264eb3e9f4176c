"""Shared set-up for the kiosk tests: the toy game is available as an extra engine."""

import os

os.environ.setdefault("TABLE_NOIR_EXTRA_GAMES", "toy=tests.rules.toy")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
