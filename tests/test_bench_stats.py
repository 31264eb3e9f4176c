"""The benchmarks' percentile (benchmarks/stats.py): a p95 is never below the share it names."""

import math

from benchmarks.stats import p95, percentile


def test_a_p95_of_two_samples_is_the_higher_one():
    assert p95([3.0, 9.0]) == 9.0  # an index rounded down reported 3.0: the run's best, called its p95


def test_nearest_rank_over_a_hundred_samples():
    samples = [float(n) for n in range(100, 0, -1)]  # any order
    assert p95(samples) == 95.0
    assert percentile(samples, 50) == 50.0
    assert percentile(samples, 99) == 99.0


def test_no_samples_is_not_a_number():
    assert math.isnan(p95([]))
