"""Quantile point estimators and confidence intervals (Lehmann & Paromau, Sec. 3).

STUB: interface fixed, implementation in progress.
"""

from __future__ import annotations

__all__ = ["min_sample_size", "quantile", "quantile_ci"]


def quantile(x, q, *, method="linear", axis=-1):
    """Quantile point estimates; numpy methods or ``"hutson"`` (eq. 12)."""
    raise NotImplementedError


def quantile_ci(x, q, *, confidence=0.95, method="exact", n_boot=2000, rng=None, axis=-1):
    """Confidence intervals for quantiles; returns a QuantileCI."""
    raise NotImplementedError


def min_sample_size(q, confidence=0.95, method="exact"):
    """Minimum n for an exact or asymptotic quantile interval (Tables 1-2)."""
    raise NotImplementedError
