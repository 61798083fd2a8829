"""Summaries for the figures that `bench` and `tournament` report (never asserted in tests)."""

from __future__ import annotations

import math


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0 <= q <= 1) with linear interpolation between ranks; 0 if empty.

    One definition for every reported p50/p95/p99, so figures from different commands
    can be compared."""
    if not values:
        return 0.0
    xs = sorted(values)
    k = (len(xs) - 1) * q
    lo = math.floor(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)
