"""The App's parts: each concern of the kiosk as a small, plain Python object.

``kiosk/app.py`` (``TableNoirApp``) builds one of each and wires them to the screens. None
of them imports Kivy or needs a window: each takes only what it works on (the session
store, the configuration, a callback to say something on screen), so each is tested on
its own in ``tests/kiosk/test_parts_*.py``.
"""
