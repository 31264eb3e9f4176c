"""A guest who opens many connections and never finishes a request (loopback only, bounded, stops by itself).

    python -m tests.phones.halfopen PORT [--count 1000] [--hold 6] [--source 127.0.0.2]

Connects ``count`` times from ``source`` to 127.0.0.1:PORT, sends the start of an HTTP request on
each and nothing more, prints "opened N" once done, holds them for ``hold`` seconds and exits.
Runs in a process of its own so its sockets are not counted against the kiosk's open files.
"""

from __future__ import annotations

import argparse
import socket
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--hold", type=float, default=6.0)
    parser.add_argument("--source", default="127.0.0.2")
    args = parser.parse_args()
    assert args.source.startswith("127.") and args.count <= 5000 and args.hold <= 60  # loopback, bounded
    held, opened = [], 0
    end = time.monotonic() + 20
    for _ in range(args.count):
        if time.monotonic() > end:
            break
        s = socket.socket()
        s.settimeout(1.0)
        try:
            s.bind((args.source, 0))
            s.connect(("127.0.0.1", args.port))
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            opened += 1
        except OSError:
            pass
        held.append(s)
    print(f"opened {opened}", flush=True)
    time.sleep(args.hold)
    for s in held:
        s.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
