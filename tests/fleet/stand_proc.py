"""One simulated stand in a process of its own, so a test can kill it as a power cut would.

``python -m tests.fleet.stand_proc PORT STAND OUTBOX [SECONDS]``: connects as STAND,
publishes an idle status twice a second and exits by itself after SECONDS (default 60).
"""

from __future__ import annotations

import sys
import time

from hardware.config import FleetConfig
from kiosk.fleet.publisher import StandPublisher

from .broker import USERS


def main() -> None:
    port, stand, outbox = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 60.0
    cfg = FleetConfig(broker="127.0.0.1", port=port, stand=stand, username=stand, password=USERS[stand],
                      status_every_s=2)
    publisher = StandPublisher(cfg, outbox, reconnect_s=(1, 1), keepalive_s=5)
    publisher.start()
    publisher.event("stand_started")
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        publisher.status({"state": "idle", "tray": "sim"})
        time.sleep(0.5)
    publisher.close()


if __name__ == "__main__":
    main()
