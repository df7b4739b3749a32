"""Confidence intervals for the mean: t, percentile bootstrap, BCa, corrected t.

STUB: interface fixed, implementation in progress.
"""

from __future__ import annotations

__all__ = ["mean_ci"]


def mean_ci(x, *, confidence=0.95, method="t", n_boot=2000, rng=None, n_train=None, n_test=None, axis=-1):
    """Confidence interval for the mean; returns an Interval."""
    raise NotImplementedError
