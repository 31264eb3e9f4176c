"""The phone page's weight and first paint on loopback, in headless Chromium (prints median and spread).

Serves the page from the real phone server (no game needed: the page paints
its frame before it joins) and loads it ``--loads`` times in fresh browser
contexts, reading the browser's own First Contentful Paint. The baseline in the
same browser: a one-line page from a data: URL.

    .venv/bin/python benchmarks/phones_page.py [--loads 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--loads", type=int, default=20)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from kiosk.phones.server import PAGE, PhoneServer
    from tests.phones import browser

    server = PhoneServer(["127.0.0.1"], 0)
    server.start()
    fcp = "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1"
    page_ms, blank_ms = [], []
    try:
        with sync_playwright() as pw:
            chromium = browser.launch(pw)
            for _ in range(args.loads):
                context = chromium.new_context(viewport=browser.PHONE, bypass_csp=True)
                page = context.new_page()
                page.goto(server.base_url() + "/#nothing-yet")
                page.wait_for_function(f"({fcp}) >= 0")
                page_ms.append(page.evaluate(fcp))
                context.close()
                context = chromium.new_context(viewport=browser.PHONE)
                page = context.new_page()
                page.goto("data:text/html,<p>baseline</p>")
                page.wait_for_function(f"({fcp}) >= 0")
                blank_ms.append(page.evaluate(fcp))
                context.close()
            chromium.close()
    finally:
        server.stop()
    m, b = statistics.median(page_ms), statistics.median(blank_ms)
    print(f"page weight: {len(PAGE.read_bytes()) / 1024:.1f} KB, one request, nothing from outside")
    print(f"first contentful paint over {args.loads} loads: median {m:.0f} ms (min {min(page_ms):.0f}, "
          f"max {max(page_ms):.0f}); a one-line data: page in the same browser: median {b:.0f} ms "
          f"(min {min(blank_ms):.0f}, max {max(blank_ms):.0f}); ratio {m / b:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
