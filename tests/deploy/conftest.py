"""The deploy tests start kiosks too: the toy game is there, Kivy takes no command line."""

import os

os.environ.setdefault("TABLE_NOIR_EXTRA_GAMES", "toy=tests.rules.toy")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
