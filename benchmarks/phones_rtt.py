"""The phone server alone, no kiosk: a joined phone's ping -> pong round trip over loopback.

What the server's own path costs (the connection gate, the rate limit, parsing, the seat's
refusal count), apart from the kiosk's frames, which dominate tap -> shared screen
(benchmarks/phones_latency.py). Run it against two versions of the code to compare them:

    PYTHONPATH=. .venv/bin/python benchmarks/phones_rtt.py [--pings 3000] [--label after]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pings", type=int, default=3000)
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    import aiohttp

    from kiosk.phones.seats import SeatBook
    from kiosk.phones.server import PhoneServer

    server = PhoneServer(listen=["127.0.0.1"], port=0)
    server.rate = (1e6, 10**6)  # the rate limit itself stays in the path; only its numbers are lifted
    server.start()
    server.use(SeatBook(["Ann"]))

    async def go() -> list[float]:
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(f"ws://127.0.0.1:{server.port}/ws") as ws:
                await ws.send_str(json.dumps({"type": "hello", "token": server.book.seat("Ann").token}))
                await ws.receive()
                rtts = []
                for _ in range(args.pings):
                    t = time.perf_counter()
                    await ws.send_str('{"type": "ping"}')
                    while '"pong"' not in (await ws.receive()).data:
                        pass
                    rtts.append((time.perf_counter() - t) * 1e6)
                return rtts

    try:
        rtts = sorted(asyncio.run(go()))
    finally:
        server.stop()
    print(f"{args.label + ': ' if args.label else ''}ping round trip over {len(rtts)} pings: median "
          f"{statistics.median(rtts):.0f} us, p95 {rtts[int(0.95 * (len(rtts) - 1))]:.0f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
