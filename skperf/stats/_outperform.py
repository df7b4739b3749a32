"""Probability of outperforming P(A > B) (Bouthillier et al. 2021, Sec. 4.1, App. C).

STUB: interface fixed, implementation in progress.
"""

from __future__ import annotations

__all__ = ["noether_sample_size", "outperform_decision", "prob_outperform", "prob_outperform_ci"]


def prob_outperform(a, b, *, paired, greater_is_better=True):
    raise NotImplementedError


def prob_outperform_ci(a, b, *, paired, confidence=0.95, n_boot=2000, rng=None, greater_is_better=True):
    raise NotImplementedError


def outperform_decision(low, high, gamma=0.75):
    raise NotImplementedError


def noether_sample_size(gamma=0.75, alpha=0.05, beta=0.05):
    raise NotImplementedError
