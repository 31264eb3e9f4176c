"""The fleet: convention stands report to one MQTT broker; the organiser watches them on one page.

* ``messages``: the topics and what a stand's status and events hold (and the privacy rule);
* ``outbox``: events waiting for the broker, in a small SQLite file, bounded, oldest first;
* ``publisher``: the stand's MQTT client (paho-mqtt) on threads of its own;
* ``stand``: the kiosk's side, which reads the table on the UI thread and hands it over;
* ``organiser``: ``table-noir fleet --broker HOST``, the organiser's page (aiohttp, as the phones).

docs/stands.md tells an organiser how to set a convention up, and what is never published.
"""
