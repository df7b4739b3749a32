"""Quantile point estimators and confidence intervals (Lehmann & Paromau, Sec. 3).

Point estimators: any NumPy quantile method (``"inverted_cdf"`` is Q̂ of
eq. 5, ``"weibull"`` is Q̂_L of eq. 6) and Hutson's semiparametric Q̂_T
(eq. 12). Intervals: exact order-statistic intervals (eqs. 8-9, shortest
pair of Zieliński & Zieliński), asymptotic intervals (eqs. 10-11) and
Hutson's semiparametric bootstrap (Sec. 3.2.3), plus an ``"auto"`` choice
per quantile level with the sign transformation of eq. 3.

Every computation works on the last axis; leading axes are a batch.
"""

# k, l are the paper's order-statistic indices (eqs. 8-11)
# ruff: noqa: E741

from __future__ import annotations

import functools
import math
import warnings

import numpy as np
from scipy import stats

from ..exceptions import SmallSampleWarning, TiesWarning, _external_stacklevel
from ._results import QuantileCI
from ._validation import (
    _check_confidence,
    _check_method,
    _check_q,
    _check_rng,
    _check_sample,
    _n_boot_for,
)

__all__ = ["min_sample_size", "quantile", "quantile_ci"]

_NUMPY_METHODS = frozenset(
    {
        "inverted_cdf",
        "averaged_inverted_cdf",
        "closest_observation",
        "interpolated_inverted_cdf",
        "hazen",
        "weibull",
        "linear",
        "median_unbiased",
        "normal_unbiased",
        "lower",
        "higher",
        "midpoint",
        "nearest",
    }
)
_POINT_METHODS = _NUMPY_METHODS | {"hutson"}
_CI_METHODS = frozenset({"asymptotic", "auto", "bootstrap", "exact"})
_MIN_METHODS = frozenset({"asymptotic", "exact"})

# Absolute tolerance on binomial coverages: an interval whose coverage falls
# short of `confidence` by less than this (floating-point noise) counts as valid.
_TOL = 1e-12
# Asymptotic (eq. 11) indices within this of a bound count as on the bound.
_INDEX_TOL = 1e-9

# Auto prefers the asymptotic interval (at the real positions k, l of eq. 11)
# only from this confidence on: measured at 90 %, 95 % and 99 % it holds
# within 0.025 of nominal wherever Table 2 allows it, its edge included; at
# 80 % it covers down to 0.72 at the edge (n = 5, q = 0.75), so below 0.9
# auto prefers the exact interval (benchmarks/coverage_table.py,
# docs/coverage_table.csv).
_AUTO_ASYMPTOTIC_MIN_CONFIDENCE = 0.9


# --------------------------------------------------------------------------
# point estimators
# --------------------------------------------------------------------------


def _hutson_sorted(xs, u):
    """Hutson's Q̂_T (eq. 12) of sorted samples ``xs`` (..., n) at 1-D ``u`` (m,).

    Returns shape (..., m). ``u`` is shared by all batch elements, so the
    index arithmetic is done once and the gather is a plain fancy index.
    """
    n = xs.shape[-1]
    h = (n + 1) * u
    j = np.clip(np.floor(h).astype(np.intp), 1, n - 1)  # 1-based lower index
    g = np.clip(h - j, 0.0, 1.0)
    lo = xs[..., j - 1]
    out = lo + g * (xs[..., j] - lo)
    left, right = u <= 1 / (n + 1), u >= n / (n + 1)
    if left.any():
        x1, x2 = xs[..., :1], xs[..., 1:2]
        out[..., left] = x1 + (x2 - x1) * np.log(h[left])
    if right.any():
        xn1, xn = xs[..., -2:-1], xs[..., -1:]
        out[..., right] = xn - (xn - xn1) * np.log((n + 1) * (1 - u[right]))
    return out


def _to_q_last(res, q):
    """NumPy's quantile puts the q axes first; move them after the batch axes."""
    if q.ndim:
        res = np.moveaxis(res, 0, -1)
    return res


def _scalar(a):
    a = np.asarray(a)
    return a.item() if a.ndim == 0 else a


def _quantile_iv(x, q, method, axis):
    method = _check_method(method, _POINT_METHODS)
    q = _check_q(q)
    x = _check_sample(x, axis=axis, min_n=2 if method == "hutson" else 1)
    return x, q, method


def quantile(x, q, *, method="linear", axis=-1):
    """Quantile point estimates.

    Parameters
    ----------
    x : array-like of shape (..., n_samples, ...)
        Sample(s); the working axis is ``axis``, other axes form a batch.
    q : float or array-like of shape (n_quantiles,)
        Quantile levels in (0, 1).
    method : str, default="linear"
        Any :func:`numpy.quantile` method (``"inverted_cdf"`` is the sample
        quantile Q̂ of eq. 5, ``"weibull"`` the interpolated Q̂_L of eq. 6)
        or ``"hutson"`` for Hutson's semiparametric Q̂_T (eq. 12), which
        extrapolates logarithmically beyond the smallest and largest
        observations.
    axis : int, default=-1
        Axis of ``x`` holding the observations.

    Returns
    -------
    float or ndarray of shape batch_shape + q.shape
        A float for a 1-D sample and scalar ``q``.

    Notes
    -----
    Eq. 6 of Lehmann & Paromau uses ``n' = n + 1``, which is Hyndman-Fan
    type 6 (NumPy ``method="weibull"``), not NumPy's default type 7
    (``"linear"``) as the text says. Q̂_T equals Q̂_L for
    ``1/(n+1) < q < n/(n+1)`` and needs at least 2 observations.

    ``"inverted_cdf"`` computes ``ceil(n q)`` of eq. 5 on the exact
    fraction the float ``q`` stands for, so ``n = 25, q = 0.28`` gives
    ``X_(7)``; NumPy's ``inverted_cdf`` gives ``X_(8)`` there, because
    ``25 * 0.28`` is ``7.000000000000001`` in floating point.

    References
    ----------
    Lehmann & Paromau, "Beyond Point Estimates", Sec. 3.1 (eqs. 5-6) and
    Sec. 3.2.3 (eq. 12); A. D. Hutson (2002), Statistics and Computing 12.

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats import quantile
    >>> x = np.array([0.71, 0.74, 0.78, 0.80, 0.83])
    >>> print(round(quantile(x, 0.5, method="inverted_cdf"), 3))
    0.78
    >>> print(np.round(quantile(x, [0.05, 0.95], method="hutson"), 4))
    [0.6739 0.8661]
    """
    x, q, method = _quantile_iv(x, q, method, axis)
    if method == "hutson":
        res = _hutson_sorted(np.sort(x, axis=-1), np.atleast_1d(q))
        res = res if q.ndim else res[..., 0]
    elif method == "inverted_cdf":  # eq. 5 in exact arithmetic (_estimate_index)
        res = np.sort(x, axis=-1)[..., _estimate_index(x.shape[-1], q) - 1]
    else:
        res = _to_q_last(np.quantile(x, q, axis=-1, method=method), q)
    return _scalar(res)


# --------------------------------------------------------------------------
# minimum sample sizes (Tables 1 and 2)
# --------------------------------------------------------------------------


def _exact_min_n(q, confidence):
    """Smallest n with q**n + (1-q)**n <= 1 - confidence (eq. 9)."""
    alpha = 1 - confidence
    m = max(q, 1 - q)
    # max(q,1-q)**n <= alpha is necessary, so n >= log(alpha)/log(m)
    n = max(2, math.floor(math.log(alpha) / math.log(m)) - 1)
    while q**n + (1 - q) ** n > alpha + _TOL:
        n += 1
    return n


def _asymptotic_indices(n, q, confidence):
    """Real indices k, l of eq. 11 (broadcasting over n and q)."""
    z = stats.norm.ppf((1 + confidence) / 2)
    half = z * np.sqrt(n * q * (1 - q))
    return n * q - half, n * q + half


def _asymptotic_valid(n, q, confidence):
    """Whether 1 <= k < l <= n for the indices of eq. 11."""
    k, l = _asymptotic_indices(n, q, confidence)
    return (k >= 1 - _INDEX_TOL) & (l <= n + _INDEX_TOL)


def _asymptotic_min_n(q, confidence):
    """Smallest n with 1 <= k and l <= n in eq. 11 (both monotone in n)."""
    z = stats.norm.ppf((1 + confidence) / 2)
    s = math.sqrt(q * (1 - q))
    # k >= 1  <=>  q t^2 - z s t - 1 >= 0 with t = sqrt(n)
    t = (z * s + math.sqrt(z * z * s * s + 4 * q)) / (2 * q)
    # l <= n  <=>  sqrt(n) >= z s / (1 - q)
    n = max(2, math.floor(max(t * t, (z * s / (1 - q)) ** 2)) - 2)
    while not _asymptotic_valid(n, q, confidence):
        n += 1
    return n


def _min_n(q, confidence, method, sign_transform=False):
    func = _exact_min_n if method == "exact" else _asymptotic_min_n
    n = func(q, confidence)
    if sign_transform:
        n = min(n, func(1 - q, confidence))
    return n


def min_sample_size(q, *, confidence=0.95, method="exact", sign_transform=False):
    """Minimum sample size for an exact or asymptotic quantile interval.

    Parameters
    ----------
    q : float or array-like of shape (n_quantiles,)
        Quantile levels in (0, 1).
    confidence : float, default=0.95
        Confidence level in (0, 1).
    method : {"exact", "asymptotic"}, default="exact"
        ``"exact"``: smallest ``n`` with ``q**n + (1-q)**n <= 1 - confidence``
        (eq. 9, Table 1). ``"asymptotic"``: smallest ``n`` with
        ``1 <= k < l <= n`` for the indices of eq. 11 (Table 2).
    sign_transform : bool, default=False
        Also allow the sign transformation (eq. 3): the interval for ``q``
        on ``x`` is minus the interval for ``1 - q`` on ``-x``, so the
        minimum is taken over ``q`` and ``1 - q``. This is the minimum
        :func:`quantile_ci` itself needs. It changes nothing for
        ``"exact"`` (eq. 9 is symmetric in ``q`` and ``1 - q``).

    Returns
    -------
    int or ndarray of int
        An int for scalar ``q``.

    Notes
    -----
    Table 2 is asymmetric in ``q`` because of the constraint
    ``1 <= k`` and ``l <= n``; with ``sign_transform=True`` a low quantile
    needs only the sample size of its mirror image (e.g. 25 instead of 42
    for ``q = 0.1`` at 90 %).

    References
    ----------
    Lehmann & Paromau, "Beyond Point Estimates", Sec. 3.2.1 (eq. 9,
    Table 1) and Sec. 3.2.2 (eq. 11, Table 2).

    Examples
    --------
    >>> from skperf.stats import min_sample_size
    >>> min_sample_size(0.1, confidence=0.9)
    22
    >>> min_sample_size([0.1, 0.5, 0.9], confidence=0.9, method="asymptotic").tolist()
    [42, 7, 25]
    >>> min_sample_size(0.1, confidence=0.9, method="asymptotic", sign_transform=True)
    25
    """
    q = _check_q(q)
    confidence = _check_confidence(confidence)
    method = _check_method(method, _MIN_METHODS)
    out = np.array(
        [_min_n(float(v), confidence, method, sign_transform) for v in q.ravel()],
        dtype=np.int64,
    ).reshape(q.shape)
    return int(out) if out.ndim == 0 else out


# --------------------------------------------------------------------------
# exact interval: shortest order-statistic pair
# --------------------------------------------------------------------------


def _binom_cdf_window(n, q, lo, hi):
    """P(S <= s) for s = lo..hi, S ~ Bin(n, q).

    Cumulated from SciPy's (Boost) pmf: about 10x faster than ``bdtr`` and
    more accurate (Cephes' ``bdtr`` is off by ~1e-10 at n = 100,000).
    """
    cdf = np.cumsum(stats.binom.pmf(np.arange(lo, hi + 1), n, q))
    if lo > 0:
        cdf += stats.binom.cdf(lo - 1, n, q)
    return np.minimum(cdf, 1.0)


def _exact_search(n, q, confidence, lo, hi):
    """Feasible (k, minimal l) with k - 1 and l - 1 in [lo, hi] (1-based k, l)."""
    cdf = _binom_cdf_window(n, q, lo, hi)
    k = np.arange(max(lo + 1, 1), min(hi + 1, n - 1) + 1)
    a = cdf[k - 1 - lo]  # P(S <= k - 1)
    j = np.searchsorted(cdf, a + confidence - _TOL, side="left") + lo
    ok = (j <= min(hi, n - 1)) & (j + 1 > k)
    return cdf, k[ok], j[ok] + 1


def _exact_certified(n, confidence, cdf, lo, hi, m):
    """Whether every pair outside the searched window is longer than ``m``."""
    if lo > 0:
        # k - 1 < lo: P(S <= l - 1) >= confidence, so l - 1 >= j0
        j0 = np.searchsorted(cdf, confidence - _TOL, side="left") + lo
        if m >= j0 + 1 - lo:
            return False
    if hi < n:
        # k - 1 > hi must be infeasible: P(S <= hi) > 1 - confidence
        if cdf[-1] <= 1 - confidence + _TOL:
            return False
        # l - 1 > hi: k - 1 <= kf, the largest feasible k - 1
        kf = np.searchsorted(cdf, 1 - confidence + _TOL, side="right") - 1 + lo
        if m >= hi + 1 - kf:
            return False
    return True


@functools.lru_cache(maxsize=4096)
def _exact_pair(n, q, confidence):
    """Indices (k, l) and coverage of the shortest exact interval, or None.

    Coverage ``r(k, l, n, q) = P(k <= S <= l - 1)``, ``S ~ Bin(n, q)``
    (eq. 8). Among pairs with ``r >= confidence`` the minimal ``l - k`` wins
    (Zieliński & Zieliński 2005); ties go to the largest coverage, then to
    the pair whose covered counts ``{k, ..., l-1}`` are centred closest to
    ``n q``, then to the smaller ``k``.

    The search runs over counts between the binomial 1e-7 and 1 - 1e-7
    quantiles, O(sqrt(n)) instead of O(n); bounds on the length of every
    pair outside that window certify the result, else the full range
    0..n is searched.
    """
    if _exact_min_n(q, confidence) > n:  # eq. 9: no interval exists
        return None
    alpha = 1 - confidence
    delta = 1e-7 * min(alpha, confidence)
    lo, hi = (int(v) for v in stats.binom.ppf([delta, 1 - delta], n, q))
    lo, hi = max(0, lo), min(n, hi)
    cdf, k, l = _exact_search(n, q, confidence, lo, hi)
    if (lo > 0 or hi < n) and (
        k.size == 0 or not _exact_certified(n, confidence, cdf, lo, hi, (l - k).min())
    ):
        lo, hi = 0, n
        cdf, k, l = _exact_search(n, q, confidence, lo, hi)
    if k.size == 0:
        return None
    length = l - k
    m = length.min()
    k = k[length == m]
    cov = cdf[k + m - 1 - lo] - cdf[k - 1 - lo]
    keep = cov >= cov.max() - _TOL
    k, cov = k[keep], cov[keep]
    asym = np.abs((2 * k + m - 1) / 2 - n * q)
    i = int(np.argmin(np.where(asym <= asym.min() + 1e-9, k, n + 1)))
    return int(k[i]), int(k[i] + m), float(cov[i])


# --------------------------------------------------------------------------
# interval methods: each takes x (..., n) and 1-D q, returns (low, high)
# --------------------------------------------------------------------------


def _order_stats(xs, idx):
    """Order statistics ``X_(idx)`` (1-based idx of shape (m,)) -> (..., m).

    ``xs`` is sorted along the last axis: :func:`quantile_ci` sorts once
    (NumPy's SIMD sort beats ``np.partition`` with several kth: 0.6 ms vs
    1.5 ms for n = 100,000 and three order statistics) and every method reads
    its order statistics from that one sort; sorting again, even sorted data,
    would double the time at n = 100,000.
    """
    return xs[..., np.asarray(idx, dtype=np.intp) - 1]


def _exact_level(v):
    """The level ``v`` as the exact fraction its float stands for: (num, den).

    The fraction with the smallest denominator within half a unit in the
    last place of the float: 7/25 for ``0.28``, 5/7 for ``5/7`` computed in
    floating point, 7143/10000 for ``0.7143``. A float is the rounded image
    of every number in that range, so this undoes the rounding of a level
    typed as a decimal or computed as ``j/n`` (``n < 10**7``, where such
    fractions are more than an ulp apart). Integer arithmetic throughout.
    """
    v = float(v)
    num, den = v.as_integer_ratio()  # den is a power of 2
    unum, uden = math.ulp(v).as_integer_ratio()
    d = math.lcm(den, 2 * uden)
    mid, half = num * (d // den), unum * (d // (2 * uden))
    return _simplest_between(mid - half, d, mid + half, d)


def _simplest_between(ln, ld, hn, hd):
    """Fraction (num, den) with the smallest den in [ln/ld, hn/hd], 0 < lo <= hi."""
    # Stern-Brocot descent by continued fractions
    fl = ln // ld
    if fl * ld == ln:
        return fl, 1
    if (fl + 1) * hd <= hn:
        return fl + 1, 1
    # lo - fl and hi - fl lie in (0, 1): recurse on their reciprocals
    p, q = _simplest_between(hd, hn - fl * hd, ld, ln - fl * ld)
    return fl * p + q, p


def _estimate_index(n, q):
    """1-based order statistic of Q̂ (eq. 5): ``X_(ceil(n q))``, in exact arithmetic.

    ``np.ceil(n * q)`` inherits float rounding (``25 * 0.28`` is
    ``7.000000000000001``, so NumPy's ``inverted_cdf`` takes ``X_(8)``);
    here ``n q`` is computed on the exact level (:func:`_exact_level`), so
    ``n = 25, q = 0.28`` gives ``X_(7)`` as eq. 5 says.
    """
    q = np.asarray(q, dtype=float)
    idx = []
    for v in np.atleast_1d(q).ravel():
        num, den = _exact_level(v)
        idx.append(min(n, max(1, -((-n * num) // den))))  # ceil(n q), exact
    return np.asarray(idx, dtype=np.intp).reshape(q.shape)


def _exact_ci(x, q, confidence, estimate_index=None):
    """Exact bounds and coverage of sorted ``x``; also Q̂ at ``estimate_index``."""
    n = x.shape[-1]
    pairs = [_exact_pair(n, float(v), confidence) for v in q]
    idx = [p[0] for p in pairs] + [p[1] for p in pairs]
    if estimate_index is not None:
        idx += list(estimate_index)
    stats_ = _order_stats(x, idx)
    m = len(q)
    out = (stats_[..., :m], stats_[..., m : 2 * m], np.array([p[2] for p in pairs]))
    return (*out, stats_[..., 2 * m :]) if estimate_index is not None else out


def _at_positions(xs, pos):
    """Sorted ``xs`` (..., n) at real 1-based positions ``pos`` (m,), interpolated.

    ``X_(j) + (pos - j) (X_(j+1) - X_(j))`` with ``j = floor(pos)``; equal to
    Q̂_L (eq. 6) at level ``pos / (n + 1)``. Positions are clipped to [1, n].
    """
    n = xs.shape[-1]
    pos = np.clip(pos, 1.0, float(n))
    j = np.minimum(np.floor(pos).astype(np.intp), n - 1)  # 1-based, <= n - 1
    g = pos - j
    lo = xs[..., j - 1]
    return lo + g * (xs[..., j] - lo)


def _asymptotic_ci(x, q, confidence):
    """Eq. 10: the order statistics ``X_(k)``, ``X_(l)`` at the real k, l of eq. 11.

    A real position is read by linear interpolation between the neighbouring
    order statistics (Q̂_L of eq. 6 at level ``k/(n+1)``). MKmisc's
    ``quantileCI(method="asymptotic")`` rounds outward to ``X_(floor k)``,
    ``X_(ceil l)``, which brackets these bounds.
    """
    n = x.shape[-1]
    k, l = _asymptotic_indices(n, q, confidence)
    b = _at_positions(np.sort(x, axis=-1), np.concatenate([k, l]))
    m = len(q)
    return b[..., :m], b[..., m:]


def _hutson_boot_draws(xs, q, n_boot, rng):
    """Bootstrap replicates of Q̂ (eq. 5) under Hutson's scheme, (..., m, B).

    A bootstrap sample is Q̂_T(U_1), ..., Q̂_T(U_n) with U_i uniform; Q̂_T is
    nondecreasing, so its j-th order statistic is Q̂_T(U_(j)) and Q̂ at level
    q is the order statistic j = ceil(n q). U_(j) ~ Beta(j, n + 1 - j), so
    drawing that one Beta variate per resample gives exactly the same
    bootstrap distribution as sorting n uniforms, in O(B) instead of
    O(B n log n) work and memory (measured in benchmarks/bench_quantile.py).
    """
    n = xs.shape[-1]
    j = _estimate_index(n, q)[:, None]  # (m, 1), the order statistic of Q̂
    # one set of draws shared by all batch elements (as scipy.stats.bootstrap
    # shares resample indices): a batch gives the same intervals as a loop
    u = rng.beta(j, n + 1 - j, size=(len(q), n_boot))
    return _hutson_sorted(xs, u.reshape(-1)).reshape(xs.shape[:-1] + u.shape)


def _bootstrap_ci(x, q, confidence, n_boot, rng):
    boot = _hutson_boot_draws(np.sort(x, axis=-1), q, n_boot, rng)
    alpha = 1 - confidence
    # np.quantile, not _percentile_bounds: replicates are never NaN here, and
    # np.nanquantile loops in Python over batch rows (~300x slower for a
    # batch of 400 samples)
    low, high = np.quantile(boot, [alpha / 2, 1 - alpha / 2], axis=-1)
    return low, high


def _flip(x):
    return -x


def _ci_with_sign(func, x, q, confidence, flipped, *args):
    """Run ``func`` directly for levels ~flipped and on (-x, 1-q) for flipped."""
    low = np.empty(x.shape[:-1] + q.shape)
    high = np.empty_like(low)
    extra = None
    for mask, sign in ((~flipped, False), (flipped, True)):
        if not mask.any():
            continue
        if sign:
            lo_, hi_, *rest = func(_flip(x), 1 - q[mask], confidence, *args)
            low[..., mask], high[..., mask] = -hi_, -lo_
        else:
            lo_, hi_, *rest = func(x, q[mask], confidence, *args)
            low[..., mask], high[..., mask] = lo_, hi_
        if rest:
            extra = np.full(q.shape, np.nan) if extra is None else extra
            extra[mask] = rest[0]
    return low, high, extra


# --------------------------------------------------------------------------
# method choice
# --------------------------------------------------------------------------


def _exact_valid(n, q, confidence):
    return np.array([_exact_min_n(float(v), confidence) <= n for v in q], dtype=bool)


def _asymptotic_predicted_coverage(n, q, confidence):
    """Binomial coverage of eq. 11's interval, interpolated (data-free).

    The bounds are the order statistics at the fractional positions ``k``
    and ``l`` (eq. 10). For an integer pair ``[X_(a), X_(b)]`` the coverage
    is ``F(b-1) - F(a-1)`` (eq. 8, ``F`` the Bin(n, q) cdf); here ``F`` is
    interpolated linearly between integers.
    """
    k, l = _asymptotic_indices(n, q, confidence)
    pk = np.clip(k, 1, n) - 1
    pl = np.clip(l, 1, n) - 1

    def cdf_at(pos):
        # F linearly interpolated at real positions in [0, n - 1]: the cdf at
        # the two neighbouring integers only, not on the whole grid 0..n
        # (which took 0.4 s per call at n = 1,000,000)
        lo = np.floor(pos)
        f_lo = stats.binom.cdf(lo, n, q)
        f_hi = stats.binom.cdf(np.minimum(lo + 1, n), n, q)
        return f_lo + (pos - lo) * (f_hi - f_lo)

    return cdf_at(pl) - cdf_at(pk)


def _has_ties(xs):
    """Whether any sample of the sorted batch ``xs`` (..., n) has repeated values."""
    return bool(np.any(xs[..., 1:] == xs[..., :-1]))


def _measured_fallback_coverage(n, q, confidence):
    """Measured coverage range (low, high) of Hutson's bootstrap, or None.

    Looked up in the table shipped in :mod:`skperf.stats._fallback_coverage`
    (written by ``benchmarks/coverage_table.py --fallback``): coverage per
    confidence, n and tail level ``p = min(q, 1 - q)``, min and max over six
    distributions (continuous and accuracy-like with ties) and both tails.
    Between grid points the range spans every neighbouring cell (the grid
    values of n, p and confidence just below and above), so it bounds the
    interpolated truth. None outside the measured grid.
    """
    from ._fallback_coverage import CONFIDENCES, COVERAGE, LEVELS, SIZES

    p = min(q, 1 - q)

    def bracket(grid, v):
        grid = sorted(grid)
        if v < grid[0] - 1e-12 or v > grid[-1] + 1e-12:
            return None
        below = max(g for g in grid if g <= v + 1e-12)
        above = min(g for g in grid if g >= v - 1e-12)
        return {below, above}

    cs, ns, ps = bracket(CONFIDENCES, confidence), bracket(SIZES, n), bracket(LEVELS, p)
    if cs is None or ns is None or ps is None:
        return None
    cells = [
        COVERAGE[key]
        for c in cs
        for m in ns
        for v in ps
        if (key := (c, m, v)) in COVERAGE
    ]
    if not cells:
        return None
    return min(c[0] for c in cells), max(c[1] for c in cells)


def _fallback_coverage_text(n, q, confidence):
    """Per level: the measured coverage range of the bootstrap, in words."""
    parts = []
    for v in np.atleast_1d(q):
        rng = _measured_fallback_coverage(n, float(v), confidence)
        if rng is None:
            parts.append(f"q = {v:g}: not measured at this n, level and confidence")
        else:
            parts.append(f"q = {v:g}: {rng[0]:.2f}-{rng[1]:.2f}")
    return "; ".join(parts)


def _fallback_message(n, q, confidence):
    """The warning of an auto fallback to the bootstrap, with measured coverage."""
    need_e = np.atleast_1d(min_sample_size(q, confidence=confidence, method="exact"))
    need_a = np.atleast_1d(
        min_sample_size(
            q, confidence=confidence, method="asymptotic", sign_transform=True
        )
    )
    return (
        f"n = {n} is too small for an exact or asymptotic {confidence:.4g} "
        f"interval for q = {_format_levels(q)}: the exact interval needs "
        f"n >= {_format_needs(need_e)}, the asymptotic one n >= "
        f"{_format_needs(need_a)}. Using Hutson's semiparametric bootstrap "
        "there, which is approximate: its measured coverage at this n "
        f"(nominal {confidence:.4g}) is {_fallback_coverage_text(n, q, confidence)} "
        "(over six score distributions; see 'Validity' in the docs)."
    )


def _format_needs(needs):
    """Minimum n per level, said once when every level needs the same n."""
    needs = np.atleast_1d(needs)
    if np.unique(needs).size == 1:
        return str(int(needs[0]))
    return _format_levels(needs)


def _format_levels(q):
    return ", ".join(f"{v:g}" for v in np.atleast_1d(q))


def _too_small_message(n, q, confidence, method):
    need = min_sample_size(q, confidence=confidence, method=method, sign_transform=True)
    need = np.atleast_1d(need)
    parts = ", ".join(f"n >= {m} for q = {v:g}" for v, m in zip(q, need, strict=True))
    extra = " (with the sign transformation of eq. 3)" if method == "asymptotic" else ""
    return (
        f"n = {n} is too small for a {confidence:.4g} {method} interval: it needs "
        f"{parts}{extra}. Use method='bootstrap' (Hutson) or method='auto', "
        "or collect more observations."
    )


# --------------------------------------------------------------------------
# quantile_ci
# --------------------------------------------------------------------------


def _quantile_ci_iv(x, q, confidence, method, n_boot, random_state, axis):
    method = _check_method(method, _CI_METHODS)
    q = _check_q(q)
    confidence = _check_confidence(confidence)
    x = _check_sample(x, axis=axis, min_n=2)
    if method in ("bootstrap", "auto"):
        n_boot, msg = _n_boot_for(confidence, n_boot)
    else:
        msg = None
    rng = _check_rng(random_state)
    return x, q, confidence, method, n_boot, rng, msg


def quantile_ci(
    x, q, *, confidence=0.95, method="auto", n_boot="auto", random_state=None, axis=-1
):
    """Confidence intervals for quantiles.

    Parameters
    ----------
    x : array-like of shape (..., n_samples, ...)
        Sample(s) from a continuous distribution; the working axis is
        ``axis``, other axes form a batch. At least 2 finite values.
    q : float or array-like of shape (n_quantiles,)
        Quantile levels in (0, 1).
    confidence : float, default=0.95
        Confidence level in (0, 1).
    method : {"exact", "asymptotic", "bootstrap", "auto"}, default="auto"
        ``"exact"``: order-statistic interval ``[X_(k), X_(l)]`` whose
        binomial coverage (eq. 8) is at least ``confidence``, the shortest
        such pair (minimal ``l - k``). ``"asymptotic"``: eqs. 10-11, the
        order statistics at the real positions ``k`` and ``l`` (linear
        interpolation between neighbours). ``"bootstrap"``: Hutson's
        semiparametric bootstrap, percentile interval of ``n_boot``
        resamples. ``"auto"``: a method per level (see Notes).
    n_boot : int or "auto", default="auto"
        Number of bootstrap resamples (bootstrap and auto only); ``"auto"``
        is the smallest count with 10 resamples in each tail (399 at 95 %).
    random_state : int, numpy.random.Generator or None, default=None
        Randomness for the bootstrap.
    axis : int, default=-1
        Axis of ``x`` holding the observations.

    Returns
    -------
    QuantileCI
        ``estimate``, ``low`` and ``high`` have shape batch_shape + q.shape
        (Python floats for a 1-D sample and scalar ``q``); ``q``,
        ``method`` (with ``"auto"``), ``coverage`` and ``sign_transformed``
        are per level (shape ``q.shape``) and broadcast against them.
        ``coverage`` is the guaranteed binomial coverage of exact
        intervals (NaN for other levels of an auto result, None when no
        level is exact). ``approximate`` is True for the levels computed by
        the bootstrap (no coverage guarantee; measured coverage in ``note``).
        The estimate is the sample quantile Q̂ (eq. 5, ``X_(ceil(n q))``
        computed in exact arithmetic) for every method.

    Raises
    ------
    ValueError
        For ``"exact"`` and ``"asymptotic"`` when ``n`` is too small even
        after the sign transformation; the message names the minimum ``n``.

    Warns
    -----
    SmallSampleWarning
        With ``"auto"``, once per call when some levels fall back to the
        bootstrap: names the minimum ``n`` for an exact or asymptotic
        interval and the bootstrap's *measured* coverage range at this
        ``n``, level and confidence (a table shipped with skperf, from
        ``benchmarks/coverage_table.py --fallback``); or when ``n_boot``
        leaves too few resamples in a tail.
    TiesWarning
        Once per call, when the sample has ties and some level uses the
        asymptotic or bootstrap interval (their coverage assumes a
        continuous distribution). The exact interval stays conservative
        with ties, so it never warns, and ``"auto"`` prefers it with ties.

    Notes
    -----
    *What is covered*: a quantile of the distribution the scores are drawn
    from. For scores of repeated runs on one dataset that is the
    distribution over runs *on this dataset* (see the Validity page).

    *Exact* (Sec. 3.2.1): ``r(k, l, n, q) = P(k <= S <= l-1)``,
    ``S ~ Bin(n, q)``, is the coverage of ``[X_(k), X_(l)]`` for any
    continuous distribution (at least ``r`` with ties). An interval exists
    iff ``q**n + (1-q)**n <= 1 - confidence`` (eq. 9, Table 1). Among
    pairs with ``r >= confidence`` the one with minimal ``l - k`` is taken
    (Zieliński & Zieliński 2005); ties go to the largest coverage, then to
    the pair whose covered counts ``{k, ..., l-1}`` are centred closest to
    ``n q``, then to the smaller ``k``. ``coverage`` reports ``r``. The
    pairs depend only on ``(n, q, confidence)``; the search is O(sqrt(n))
    (certified window around ``n q``), so n = 100,000 takes milliseconds.

    *Asymptotic* (Sec. 3.2.2): ``k, l = n q -+ z sqrt(n q (1-q))``, valid
    iff ``1 <= k < l <= n`` (Table 2). The bounds are the order statistics
    ``X_(k)``, ``X_(l)`` of eq. 10 at these real positions, read by linear
    interpolation between neighbouring order statistics (Q̂_L of eq. 6 at
    level ``k / (n + 1)``); R's MKmisc rounds the same positions outward.
    Measured on continuous scores it holds within 0.025 of nominal at
    90 %, 95 % and 99 % wherever Table 2 allows it, its edge included
    (n = 25, q = 0.9, 90 %: 0.89-0.90 on uniform samples; the former bounds
    at levels ``k/n`` covered 0.85 there). At 80 % it undercovers near the
    edge (0.72 at n = 5, q = 0.75), and with ties it can undercover
    (accuracy on a 200-example test set, n = 25, q = 0.1, 90 %: 0.84).

    *Bootstrap* (Sec. 3.2.3): resamples ``Q̂_T(U_i)`` with uniform ``U_i``
    (eq. 12), statistic Q̂, percentile interval. Defined for any
    ``n >= 2`` but approximate: it undercovers tail quantiles at small
    ``n`` (measured over six distributions and both tails, nominal 0.95:
    0.80-0.90 for q = 0.1 or 0.9 at n = 10, 0.76-0.87 for q = 0.05 or 0.95
    at n = 10, 0.84-0.88 at n = 25), so its levels are marked
    ``approximate``.

    *Sign transformation* (eq. 3): the interval for ``q`` on ``x`` is minus
    the interval for ``1 - q`` on ``-x``. Eq. 9 is symmetric, but Table 2
    is not, so an asymptotic interval for a low quantile becomes valid at
    the sample size of its mirror level (25 instead of 42 for ``q = 0.1``
    at 90 %). Explicit ``"exact"``/``"asymptotic"`` use it when only the
    transformed interval is valid; ``sign_transformed`` says where. The
    positions ``k, l`` are centred at ``n q``, so the transformed
    asymptotic interval sits one order statistic higher than the direct
    one would (so an interval at a higher confidence that needs the
    transformation need not contain a direct one at a lower confidence).

    *Auto*, per level: from 90 % confidence on, the asymptotic interval
    (direct, else sign-transformed) where Table 2 allows it, unless the
    sample has ties; otherwise the exact interval where eq. 9 allows it;
    otherwise the asymptotic interval where allowed; otherwise the
    bootstrap, with one ``SmallSampleWarning`` giving its measured
    coverage. The rule comes from measured coverage
    (``benchmarks/coverage_table.py``, ``docs/coverage_table.csv``): with
    the interpolated positions ``k, l`` the asymptotic interval holds its
    level wherever it is valid at 90 % and more; the exact interval never
    falls below its guarantee, with or without ties.

    All methods assume independent observations.

    References
    ----------
    Lehmann & Paromau, "Beyond Point Estimates", Sec. 3 (eqs. 3, 5-12,
    Tables 1-2) and Sec. 4.2; Zieliński & Zieliński (2005), "Best exact
    nonparametric confidence intervals for quantiles", Statistics 39;
    Hutson (2002), Statistics and Computing 12.

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats import quantile_ci
    >>> x = np.random.default_rng(0).beta(5, 1.5, size=25)
    >>> ci = quantile_ci(x, 0.5, confidence=0.9, method="exact")
    >>> print(f"{ci.estimate:.3f} [{ci.low:.3f}, {ci.high:.3f}] {ci.coverage:.3f}")
    0.819 [0.682, 0.859] 0.924
    >>> ci = quantile_ci(x, [0.1, 0.5, 0.9], confidence=0.9)  # method="auto"
    >>> ci.method.tolist()
    ['asymptotic', 'asymptotic', 'asymptotic']
    >>> print(np.round(ci.low, 3), np.round(ci.high, 3))
    [0.426 0.694 0.92 ] [0.596 0.853 0.95 ]

    Table 2 needs n >= 42 for an asymptotic 10 % quantile at 90 %; on
    ``-x`` it is a 90 % quantile, which needs only 25:

    >>> ci = quantile_ci(x, 0.1, confidence=0.9, method="asymptotic")
    >>> print(f"[{ci.low:.3f}, {ci.high:.3f}]", ci.sign_transformed)
    [0.426, 0.596] True
    >>> ci = quantile_ci(
    ...     x[:10], 0.5, confidence=0.9, method="bootstrap", random_state=0
    ... )
    >>> print(f"{ci.estimate:.3f} [{ci.low:.3f}, {ci.high:.3f}]")
    0.754 [0.657, 0.864]
    """
    x, q, confidence, method, n_boot, rng, boot_msg = _quantile_ci_iv(
        x, q, confidence, method, n_boot, random_state, axis
    )
    # every method depends on the order statistics only: sort once (the
    # methods' own sorts of sorted data are then cheap)
    x = np.sort(x, axis=-1)
    ties = _has_ties(x)
    n = x.shape[-1]
    q1 = np.atleast_1d(q)
    est_idx = _estimate_index(n, q1)
    if method == "exact":
        estimate = None  # read from the same partition as the bounds
    else:
        estimate = _order_stats(x, est_idx)
    coverage = None
    n_boot_used = None
    notes = []
    if method in ("exact", "asymptotic"):
        direct = (
            _exact_valid(n, q1, confidence)
            if method == "exact"
            else _asymptotic_valid(n, q1, confidence)
        )
        mirror = (
            direct if method == "exact" else _asymptotic_valid(n, 1 - q1, confidence)
        )
        bad = ~(direct | mirror)
        if bad.any():
            raise ValueError(_too_small_message(n, q1[bad], confidence, method))
        flipped = ~direct
        if method == "exact":  # eq. 9 is symmetric: never needs the flip
            low, high, coverage, estimate = _exact_ci(x, q1, confidence, est_idx)
        else:
            low, high, _ = _ci_with_sign(_asymptotic_ci, x, q1, confidence, flipped)
        methods = np.full(q1.shape, method, dtype=object)
    elif method == "bootstrap":
        if boot_msg:
            warnings.warn(
                boot_msg, SmallSampleWarning, stacklevel=_external_stacklevel()
            )
        flipped = np.zeros(q1.shape, dtype=bool)
        low, high = _bootstrap_ci(x, q1, confidence, n_boot, rng)
        methods = np.full(q1.shape, "bootstrap", dtype=object)
        n_boot_used = n_boot
    else:  # auto
        asym_d = _asymptotic_valid(n, q1, confidence)
        asym_m = _asymptotic_valid(n, 1 - q1, confidence)
        asym_ok = asym_d | asym_m
        # with ties only the exact interval keeps its guarantee (conservative)
        prefer_asym = (
            asym_ok & (confidence >= _AUTO_ASYMPTOTIC_MIN_CONFIDENCE) & (not ties)
        )
        use_exact = ~prefer_asym & _exact_valid(n, q1, confidence)
        use_asym = prefer_asym | (~use_exact & asym_ok)
        use_boot = ~(use_asym | use_exact)
        flipped = use_asym & ~asym_d
        methods = np.where(
            use_asym, "asymptotic", np.where(use_exact, "exact", "bootstrap")
        ).astype(object)
        low = np.empty(x.shape[:-1] + q1.shape)
        high = np.empty_like(low)
        if use_asym.any():
            lo_, hi_, _ = _ci_with_sign(
                _asymptotic_ci, x, q1[use_asym], confidence, flipped[use_asym]
            )
            low[..., use_asym], high[..., use_asym] = lo_, hi_
        if use_exact.any():
            lo_, hi_, cov = _exact_ci(x, q1[use_exact], confidence)
            low[..., use_exact], high[..., use_exact] = lo_, hi_
            coverage = np.full(q1.shape, np.nan)
            coverage[use_exact] = cov
        if use_boot.any():
            qb = q1[use_boot]
            warnings.warn(
                _fallback_message(n, qb, confidence),
                SmallSampleWarning,
                stacklevel=_external_stacklevel(),
            )
            if boot_msg:
                warnings.warn(
                    boot_msg, SmallSampleWarning, stacklevel=_external_stacklevel()
                )
            lo_, hi_ = _bootstrap_ci(x, qb, confidence, n_boot, rng)
            low[..., use_boot], high[..., use_boot] = lo_, hi_
            n_boot_used = n_boot
            notes.append(
                f"bootstrap for q = {_format_levels(qb)} (n too small for exact "
                "or asymptotic intervals; approximate, measured coverage "
                f"{_fallback_coverage_text(n, qb, confidence)})"
            )
    approximate = methods == "bootstrap"
    uses_order_stats = (methods == "asymptotic") | approximate
    if uses_order_stats.any() and ties:
        levels = _format_levels(q1[uses_order_stats])
        if x.ndim == 1:
            count = f" ({n - np.unique(x).size} repeated value(s) among {n})"
        else:
            count = ""
        warnings.warn(
            f"The scores contain ties{count}. The {confidence:.4g} intervals for "
            f"q = {levels} ({'/'.join(sorted(set(methods[uses_order_stats])))}) "
            "assume a continuous distribution; with ties their coverage is not "
            "guaranteed. The exact interval stays conservative with ties: use "
            "method='exact' where n allows it.",
            TiesWarning,
            stacklevel=_external_stacklevel(),
        )
    if flipped.any():
        notes.insert(
            0,
            f"sign transformation (eq. 3) for q = {_format_levels(q1[flipped])}: "
            "interval computed as minus the interval for 1 - q on -x",
        )
    if coverage is not None:
        coverage = coverage if q.ndim else coverage[0]
    if method != "auto":
        methods = method  # one name for all levels
    elif q.ndim == 0:
        methods = methods[0]
    if q.ndim == 0:
        estimate, low, high = estimate[..., 0], low[..., 0], high[..., 0]
        flipped = flipped[0]
    return QuantileCI(
        q=q,
        estimate=estimate,
        low=low,
        high=high,
        confidence=confidence,
        method=methods,
        n=n,
        coverage=coverage,
        sign_transformed=flipped,
        n_boot=n_boot_used,
        note="; ".join(notes),
        approximate=approximate if q.ndim else approximate[0],
    )
