"""The percentile every benchmark here reports, one definition for all of them.

Nearest rank: the smallest sample that at least ``q`` per cent of the samples are at or
under. A p95 of 2 samples is then the higher one, and of 100 the 95th: never a value
below what the share says (an index rounded down gave the lower of two for a "p95").
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile of ``values`` by nearest rank (NaN for none)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(1, math.ceil(q / 100 * len(ordered))) - 1]


def p95(values: Sequence[float]) -> float:
    return percentile(values, 95)
