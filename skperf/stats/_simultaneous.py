"""Simultaneous confidence intervals for several quantiles (Hayter 2014).

Order-statistic intervals ``[X_(k_j), X_(l_j)]`` for levels ``q_1 < ... <
q_m`` cover all ``Q(q_j)`` at once exactly when the counts ``N_j = #{U_i <=
q_j}`` of a uniform sample satisfy ``k_j <= N_j <= l_j - 1`` for every
``j`` (for any continuous distribution; with ties the coverage is at least
that). The counts form a Markov chain,
``N_{j+1} - N_j | N_j ~ Bin(n - N_j, (q_{j+1} - q_j) / (1 - q_j))``, so
the joint coverage is computed exactly by a forward recursion over the
allowed counts (no simulation). The pointwise confidence is raised from
``confidence`` until the joint coverage of the shortest exact intervals
(Lehmann & Paromau, Sec. 3.2.1) reaches ``confidence``.
"""

# k, l are the paper's order-statistic indices (eq. 8)
# ruff: noqa: E741

from __future__ import annotations

import numbers

import numpy as np
from scipy import stats

from ._quantile import _exact_pair, quantile
from ._results import QuantileCI
from ._validation import _check_confidence, _check_q, _check_sample

__all__ = ["joint_coverage", "simultaneous_quantile_ci"]

_TOL = 1e-12
_BISECT_STEPS = 20


def _joint_coverage(n, q, k, l):
    """P(k_j <= N_j <= l_j - 1 for all j); ``q`` strictly increasing."""
    s = np.arange(k[0], l[0])
    if s.size == 0:
        return 0.0
    p = stats.binom.pmf(s, n, q[0])
    for j in range(1, len(q)):
        t = np.arange(k[j], l[j])
        if t.size == 0:
            return 0.0
        r = (q[j] - q[j - 1]) / (1 - q[j - 1])
        inc = t[None, :] - s[:, None]
        trans = np.where(
            inc >= 0, stats.binom.pmf(np.maximum(inc, 0), n - s[:, None], r), 0.0
        )
        p = p @ trans
        s = t
    return float(min(p.sum(), 1.0))


def _pairs(n, q, confidence):
    """Shortest exact pairs (k, l) at ``confidence``; (1, n) where none exists."""
    k = np.ones(q.size, dtype=np.int64)
    l = np.full(q.size, n, dtype=np.int64)
    for j, v in enumerate(q):
        pair = _exact_pair(int(n), float(v), float(confidence))  # None: eq. 9 fails
        if pair is not None:
            k[j], l[j] = pair[0], pair[1]
    return k, l


def _simultaneous_pairs(n, q, confidence):
    """(k, l, joint coverage, pointwise confidence) of the simultaneous intervals.

    ``q`` sorted and unique. Bisection over the pointwise level between
    ``confidence`` and Bonferroni's ``1 - (1 - confidence) / m``; the upper
    end is kept at a level whose joint coverage was verified, so the result
    holds its level whatever the shape of the coverage curve.
    """
    m = q.size
    k, l = _pairs(n, q, confidence)
    cov = _joint_coverage(n, q, k, l)
    if cov >= confidence - _TOL:
        return k, l, cov, confidence
    alpha = 1 - confidence
    hi = 1 - alpha / m
    k_hi, l_hi = _pairs(n, q, hi)
    cov_hi = _joint_coverage(n, q, k_hi, l_hi)
    if cov_hi < confidence - _TOL:
        hi = 1 - 1e-9
        k_hi, l_hi = _pairs(n, q, hi)
        cov_hi = _joint_coverage(n, q, k_hi, l_hi)
        if cov_hi < confidence - _TOL:
            raise ValueError(_too_small_message(n, q, confidence))
    lo_a, hi_a = np.log(alpha), np.log(1 - hi)  # bisect on log(1 - level)
    for _ in range(_BISECT_STEPS):
        mid = 1 - np.exp((lo_a + hi_a) / 2)
        k_m, l_m = _pairs(n, q, mid)
        if np.array_equal(k_m, k_hi) and np.array_equal(l_m, l_hi):
            hi_a = (lo_a + hi_a) / 2
            hi = mid
            continue
        cov_m = _joint_coverage(n, q, k_m, l_m)
        if cov_m >= confidence - _TOL:
            hi_a, hi, k_hi, l_hi, cov_hi = (lo_a + hi_a) / 2, mid, k_m, l_m, cov_m
        else:
            lo_a = (lo_a + hi_a) / 2
    return k_hi, l_hi, cov_hi, hi


def _min_n(q, confidence):
    """Smallest n at which [X_(1), X_(n)] at every level covers jointly.

    ``q`` sorted: the counts are non-decreasing, so the event is ``N_1 >= 1``
    and ``N_m <= n - 1``, of probability ``1 - (1 - q_1)^n - q_m^n + (q_m -
    q_1)^n`` (eq. 9 for one level); the recursion took minutes at n ~ 3000.
    """
    lo, hi = q[0], q[-1]
    start = 2
    while True:
        ns = np.arange(start, 2 * start + 100)
        cov = 1 - (1 - lo) ** ns - hi**ns + (hi - lo) ** ns
        ok = np.flatnonzero(cov >= confidence - _TOL)
        if ok.size:
            return int(ns[ok[0]])
        start = 2 * start + 100


def _too_small_message(n, q, confidence):
    levels = ", ".join(f"{v:g}" for v in q)
    return (
        f"n = {n} is too small for simultaneous {confidence:.4g} intervals for "
        f"q = {levels}: even [X_(1), X_(n)] at every level covers jointly less "
        f"than {confidence:.4g}; it needs n >= {_min_n(q, confidence)}."
    )


def joint_coverage(n, q, k, l):
    """Exact joint coverage of order-statistic intervals for several quantiles.

    Parameters
    ----------
    n : int
        Sample size.
    q : array-like of float of shape (m,)
        Distinct quantile levels in (0, 1).
    k, l : array-like of int of shape (m,)
        1-based order-statistic indices, ``1 <= k_j < l_j <= n``: the
        interval for level ``q_j`` is ``[X_(k_j), X_(l_j)]``.

    Returns
    -------
    float
        ``P(X_(k_j) <= Q(q_j) <= X_(l_j) for all j)`` for any continuous
        distribution (a lower bound with ties); for one level it is
        ``r(k, l, n, q)`` of eq. 8.

    References
    ----------
    Lehmann & Paromau, "Beyond Point Estimates", Sec. 3.2.1 (eq. 8) and
    Sec. 5; A. J. Hayter (2014), "Simultaneous confidence intervals for
    several quantiles of an unknown distribution", The American
    Statistician 68.

    Examples
    --------
    >>> from skperf.stats import joint_coverage
    >>> print(round(joint_coverage(20, [0.5], [6], [15]), 4))
    0.9586
    >>> print(round(joint_coverage(20, [0.25, 0.5, 0.75], [2, 6, 11], [10, 15, 19]), 4))
    0.901
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 2:
        raise ValueError(f"`n` must be an int >= 2; got {n!r}.")
    q = np.atleast_1d(_check_q(q))
    k = np.atleast_1d(np.asarray(k, dtype=np.int64))
    l = np.atleast_1d(np.asarray(l, dtype=np.int64))
    if not (q.shape == k.shape == l.shape):
        raise ValueError(
            f"`q`, `k` and `l` must have the same length; got {q.size}, {k.size}, "
            f"{l.size}."
        )
    if np.any(k < 1) or np.any(l > n) or np.any(k >= l):
        raise ValueError(f"need 1 <= k < l <= n = {n}; got k={k!r}, l={l!r}.")
    order = np.argsort(q)
    q, k, l = q[order], k[order], l[order]
    if np.any(np.diff(q) <= 0):
        raise ValueError(f"`q` must hold distinct levels; got {q!r}.")
    return _joint_coverage(int(n), q, k, l)


def simultaneous_quantile_ci(x, q, *, confidence=0.95, axis=-1):
    """Confidence intervals for several quantiles that hold jointly.

    Parameters
    ----------
    x : array-like of shape (..., n_samples, ...)
        Independent scores; ``axis`` holds the observations.
    q : array-like of float of shape (n_quantiles,)
        Quantile levels in (0, 1).
    confidence : float, default=0.95
        Joint confidence level: all intervals cover their quantile at once
        with probability at least ``confidence``.
    axis : int, default=-1
        Axis of ``x`` holding the observations.

    Returns
    -------
    QuantileCI
        ``method="simultaneous"``; ``coverage`` is the exact joint coverage
        (the same value for every level).

    Raises
    ------
    ValueError
        When even ``[X_(1), X_(n)]`` at every level covers jointly less than
        ``confidence`` (the message names the minimum n).

    Notes
    -----
    The intervals are the shortest exact order-statistic intervals
    (Sec. 3.2.1, Zieliński & Zieliński) at a common pointwise level
    ``c' >= confidence``, the smallest ``c'`` (by bisection) whose exact
    joint coverage reaches ``confidence``. The joint coverage is computed
    exactly for the uniform order statistics, as in Hayter (2014), so the
    result never undercovers, and it is never longer than the Bonferroni
    split (pointwise level ``1 - (1 - confidence) / m``), where the search
    starts. Each interval is at least as long as the pointwise exact
    interval at ``confidence``. Where no exact interval exists at ``c'``
    for a level (eq. 9), that level gets ``[X_(1), X_(n)]``.

    The joint coverage recursion costs about ``m w^2`` with ``w`` the
    interval width in order statistics (``~ 4 sqrt(n q (1 - q))``): fast
    for n up to about 10,000.

    References
    ----------
    Lehmann & Paromau, "Beyond Point Estimates", Sec. 3.2.1 and Sec. 5;
    A. J. Hayter (2014), The American Statistician 68, pp. 56-62.

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats import simultaneous_quantile_ci
    >>> x = np.random.default_rng(0).normal(size=50)
    >>> ci = simultaneous_quantile_ci(x, [0.25, 0.5, 0.75])
    >>> print(np.round(ci.low, 3), np.round(ci.high, 3), round(ci.coverage[0], 4))
    [-0.922 -0.314  0.264] [-0.132  0.412  1.366] 0.9628
    """
    q_in = _check_q(q)
    q1 = np.atleast_1d(q_in)
    confidence = _check_confidence(confidence)
    x = _check_sample(x, axis=axis, min_n=2)
    n = x.shape[-1]
    qu, inverse = np.unique(q1, return_inverse=True)
    k, l, cov, level = _simultaneous_pairs(n, qu, confidence)
    xs = np.sort(x, axis=-1)
    low = xs[..., k[inverse] - 1]
    high = xs[..., l[inverse] - 1]
    estimate = quantile(xs, q1, method="inverted_cdf")
    estimate = np.asarray(estimate).reshape(low.shape)
    if q_in.ndim == 0:
        low, high, estimate = low[..., 0], high[..., 0], estimate[..., 0]
    m = qu.size
    return QuantileCI(
        q=q_in,
        estimate=estimate,
        low=low,
        high=high,
        confidence=confidence,
        method="simultaneous",
        n=n,
        coverage=np.full(q_in.shape, cov),
        note=(
            f"simultaneous for {m} level(s): exact joint coverage {cov:.4f} "
            f"(pointwise level {level:.4g}; Bonferroni would use "
            f"{1 - (1 - confidence) / m:.4g})"
        ),
    )
