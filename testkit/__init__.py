"""Development tools that drive the kiosk from outside: not part of what ships.

- ``testkit.drive``: runs the real app a frame at a time and touches its widgets as a finger
  does (the UI tests, the benchmarks and the screenshot runs use it);
- ``testkit.screenshots``: every main screen of every game (``scripts/screenshots.sh``);
- ``testkit.lessonshots``: every step of every lesson (``python -m testkit.lessonshots``).

They sit above the app (they import it; nothing in ``kiosk``, ``hardware``, ``firmware`` or
``enclosure`` imports them), and pyproject.toml's ``packages.find`` leaves this package out of
the wheel, so a table's install carries none of it. Run them from the repository's root (the
tests, benchmarks and scripts put it on ``sys.path``).
"""
