"""Timing helper shared by the benchmark scripts (run as ``python benchmarks/x.py``)."""

from __future__ import annotations

import time


def best_of(func, repeat=5):
    """Minimum wall time of ``repeat`` calls of ``func()`` (seconds)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)
