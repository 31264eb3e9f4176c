"""Phones as private hands: each player's own phone joins the table over the local network.

The kiosk serves one small web page (``page.html``) and a WebSocket from an
aiohttp server on its own thread (``server.PhoneServer``). A phone is one more
input and one more screen, never a second game:

* what a phone sends becomes a ``PhoneAction`` event in the SAME controller
  queue as a pad press (``kiosk.controller``), so the rules, the store and the
  screens see it exactly as they see a pad;
* what a phone is sent is built on the UI thread by ``bridge.PhoneBridge`` from
  ``session.view(state, that_player)`` and that player's recap, nothing else.

Seats and their join tokens live in ``seats.SeatBook``; message shapes and
limits in ``messages``; the private sheet in sentences in ``sheets``.
See docs/phones.md.
"""
