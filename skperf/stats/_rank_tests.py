"""Rank tests and the Welch interval of the comparison of two score samples.

Pure NumPy/SciPy (moved from ``skperf._compare``, behaviour unchanged):

- :func:`_wilcoxon_pvalue`: the two-sided p-value of
  ``scipy.stats.wilcoxon(d)`` with scipy's own choice of method, computed
  faster where scipy is slow (exact null distribution of the signed-rank
  statistic, cached; exact sign-flip enumeration with ties at small n);
  Wilcoxon (1945), as in scipy.
- :func:`_rank_test`: the test :func:`skperf.PerformanceDistribution.compare`
  reports (Wilcoxon signed-rank when paired, Mann-Whitney otherwise).
- :func:`_welch_bounds`: Welch's interval of a difference of means with the
  Welch-Satterthwaite degrees of freedom (Welch 1947).
"""

from __future__ import annotations

import functools

import numpy as np
from scipy import stats

from ._outperform import _mann_whitney_pvalue

__all__: list[str] = []


def _welch_bounds(x, y, confidence):
    """Welch interval for ``mean(x) - mean(y)`` (Welch-Satterthwaite df)."""
    n, m = x.size, y.size
    va, vb = x.var(ddof=1) / n, y.var(ddof=1) / m
    est = x.mean() - y.mean()
    se2 = va + vb
    if se2 == 0:
        return est, est, est
    df = se2**2 / (va**2 / (n - 1) + vb**2 / (m - 1))
    half = stats.t.ppf(0.5 + confidence / 2, df) * np.sqrt(se2)
    return est, est - half, est + half


@functools.lru_cache(maxsize=64)
def _signed_rank_pmf(n):
    """Null distribution of the Wilcoxon statistic r+ for ``n`` untied pairs.

    The recursion of ``scipy.stats._hypotests._get_wilcoxon_distr``; cached
    because scipy recomputes it on every call, which made the test the
    slowest part of ``compare`` (about 1.4 of 2.5 ms at n = 50).
    """
    c = np.ones(1)
    for k in range(1, n + 1):
        prev, c = c, np.zeros(k * (k + 1) // 2 + 1)
        c[: prev.size] = prev * 0.5
        c[-prev.size :] += prev * 0.5
    c.flags.writeable = False
    return c


def _wilcoxon(d):
    """``(pvalue, statistic)`` of ``scipy.stats.wilcoxon(d)`` (default options:
    two-sided, zero differences dropped, statistic ``min(W+, W-)``).

    scipy's own choice of method, computed faster where scipy is slow:
    untied, non-zero differences with n <= 50 get the exact p-value from the
    cached null distribution; ties or zeros with n <= 13 get the exact
    sign-flip permutation p-value by enumerating the 2^k sign patterns of
    the k non-zero differences (scipy's ``permutation_test`` takes about a
    second there); anything else (the normal approximation) goes to scipy.
    The statistic comes from the same ranks.
    """
    n = d.size
    absd = np.abs(d)
    untied = bool(np.all(absd)) and np.unique(absd).size == n
    if untied and n <= 50:
        ranks = np.empty(n, dtype=np.intp)
        ranks[np.argsort(absd)] = np.arange(1, n + 1)
        r_plus = int(ranks[d > 0].sum())
        pmf = _signed_rank_pmf(n)
        p = 2 * min(pmf[r_plus:].sum(), pmf[: r_plus + 1].sum())
        return float(min(p, 1.0)), float(min(r_plus, n * (n + 1) // 2 - r_plus))
    if not untied and n <= 13:
        nonzero = d[d != 0]
        ranks = _midranks(np.abs(nonzero))
        observed = ranks[nonzero > 0].sum()
        k = nonzero.size
        positive = (np.arange(2**k)[:, None] >> np.arange(k)) & 1
        null = positive @ ranks  # r+ under every sign pattern
        tol = abs(100 * np.finfo(float).eps * observed)  # as permutation_test
        p = 2 * min(np.mean(null <= observed + tol), np.mean(null >= observed - tol))
        return float(min(p, 1.0)), float(min(observed, ranks.sum() - observed))
    res = stats.wilcoxon(d)
    return float(res.pvalue), float(res.statistic)


def _wilcoxon_pvalue(d):
    """Two-sided p-value of ``scipy.stats.wilcoxon(d)`` (:func:`_wilcoxon`)."""
    return _wilcoxon(d)[0]


def _rank_test(x, y, paired):
    """``(pvalue, test, statistic)``: Wilcoxon's signed-rank test of ``x - y``
    when ``paired``, else Mann-Whitney's U test of ``x`` against ``y``, as
    :mod:`scipy.stats` reports them."""
    if paired:
        d = x - y
        if not np.any(d):
            return 1.0, "wilcoxon", 0.0  # all differences zero: no evidence
        p, w = _wilcoxon(d)
        return p, "wilcoxon", w
    # exact without ties (n m <= 10_000), else scipy's normal approximation
    p = float(_mann_whitney_pvalue(x, y))
    return p, "mannwhitneyu", _mann_whitney_u(x, y)


def _midranks(a):
    """``scipy.stats.rankdata(a)`` (average ranks of ties) of a 1-d array, in
    numpy: scipy's array-API wrapper costs about 0.1 ms a call, as much as a
    whole sign-test comparison."""
    order = np.argsort(a, kind="stable")
    s = a[order]
    group = np.cumsum(np.r_[True, s[1:] != s[:-1]])  # tie group, from 1
    counts = np.bincount(group)
    mid = np.cumsum(counts) - (counts - 1) / 2  # mean rank of each group
    ranks = np.empty(a.size)
    ranks[order] = mid[group]
    return ranks


def _mann_whitney_u(x, y):
    """``scipy.stats.mannwhitneyu(x, y).statistic`` (U of ``x``) from the
    midranks: scipy's call also computes the p-value (about 1 ms at n = 50,
    benchmarks/bench_compare.py), which :func:`_rank_test` has already.

    Examples
    --------
    >>> from skperf.stats._rank_tests import _mann_whitney_u
    >>> float(_mann_whitney_u(np.array([1.0, 2, 3]), np.array([0.0, 0, 0])))
    9.0
    """
    ranks = _midranks(np.concatenate([x, y]))
    return float(ranks[: x.size].sum() - x.size * (x.size + 1) / 2)
